"""Hypothesis strategies made from the protocol's declared types (through the JSON Schema
they generate): every message a browser may send, and every way to spoil one.

Only the parts of JSON Schema the protocol's types produce are read (objects with
their properties, ``const``/``enum``, ``anyOf``/``oneOf``, ``$ref``, numbers with
bounds, strings with a length and a ``^[class]+$`` or ``^[class]{n}$`` pattern,
arrays); anything else fails loudly, so the strategies cannot drift from the types.
"""

from __future__ import annotations

import re
import string
from typing import Any

from hypothesis import strategies as st

from yacht.web.protocol import schema

__all__ = ["JUNK", "client_message", "hostile_message", "message_of"]

_DEFS: dict[str, Any] = schema()["$defs"]
_PATTERN = re.compile(r"^\^\[([^\]]+)\](?:\+|\{(\d+)\})\$$")


def _chars(cls: str) -> str:
    """The characters of a regex class like ``A-Za-z0-9_-``."""
    out = []
    i = 0
    while i < len(cls):
        if i + 2 < len(cls) and cls[i + 1] == "-":
            out.extend(chr(c) for c in range(ord(cls[i]), ord(cls[i + 2]) + 1))
            i += 3
        else:
            out.append(cls[i])
            i += 1
    return "".join(out)


def _from(node: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return st.deferred(lambda: _from(_DEFS[name]))
    for key in ("oneOf", "anyOf"):
        if key in node:
            return st.one_of(*(_from(n) for n in node[key]))
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    kind = node.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        top = node.get("maximum", node.get("exclusiveMaximum", 2**53 + 1) - 1)
        return st.integers(node.get("minimum", -(2**53)), top)
    if kind == "string":
        low, high = node.get("minLength", 0), node.get("maxLength", 40)
        pattern = node.get("pattern")
        if pattern is None:
            return st.text(min_size=low, max_size=high)
        found = _PATTERN.match(pattern)
        assert found is not None, f"a pattern the strategies do not read: {pattern}"
        if found.group(2):
            low = high = int(found.group(2))
        return st.text(alphabet=_chars(found.group(1)), min_size=max(low, 1), max_size=high)
    if kind == "array":
        return st.lists(_from(node["items"]), min_size=node.get("minItems", 0),
                        max_size=node.get("maxItems", 8))
    if kind == "object":
        props = node.get("properties", {})
        if not props and isinstance(node.get("additionalProperties"), dict):
            extra = node["additionalProperties"]
            keys = _from(node.get("propertyNames", {"type": "string", "maxLength": 40}))
            return st.dictionaries(keys, _from(extra), max_size=node.get("maxProperties", 4))
        required = set(node.get("required", ()))
        return st.fixed_dictionaries(
            {k: _from(v) for k, v in props.items() if k in required},
            optional={k: _from(v) for k, v in props.items() if k not in required})
    raise AssertionError(f"a schema the strategies do not read: {node}")


def message_of(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Valid instances of a declared type (``ClientMessage``, ``CommandMessage``...)."""
    return _from({"$ref": f"#/$defs/{name}"})


client_message = message_of("ClientMessage")

#: any JSON value, odd ones included
JUNK: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(string.printable + "é²①٥\u202e\x00", max_size=20)
    | st.sampled_from(["roll", "score", "chance", "yatzy", "../../etc/passwd", "<script>"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=3),
    max_leaves=8)

#: fields a forger adds to a command or a message
FORGED_FIELDS = ["result", "dice", "values", "seed", "points", "total", "player", "seat",
                 "token", "version", "column", "position", "category", "id", "x"]


@st.composite
def _spoiled(draw: st.DrawFn) -> dict[str, Any]:
    """A valid message with one thing wrong: a field added (to it or to its command), a
    field of the wrong kind, a field missing."""
    msg: dict[str, Any] = dict(draw(client_message))
    target = msg
    if isinstance(msg.get("command"), dict) and draw(st.booleans()):
        target = msg["command"] = dict(msg["command"])
    how = draw(st.sampled_from(["add", "retype", "drop"]))
    fields = [k for k in target if k != "type"]
    if how == "add" or not fields:
        name = draw(st.sampled_from([f for f in FORGED_FIELDS if f not in target]))
        target[name] = draw(st.just([6] * 5) | JUNK) if name == "result" else draw(JUNK)
    elif how == "retype":
        name = draw(st.sampled_from(fields))
        value = draw(JUNK)
        if value == target[name] or (type(value) is type(target[name])
                                     and not isinstance(value, dict | list)):
            value = [value]
        target[name] = value
    else:
        del target[draw(st.sampled_from(fields))]
    return msg


@st.composite
def hostile_message(draw: st.DrawFn) -> tuple[str, str]:
    """``(kind, text)``: a message of every kind a hostile client sends. Kinds:
    ``valid`` (of the declared types: hostile by who sends it, or its version),
    ``spoiled``, ``dice`` (a roll with its result), ``malformed``, ``oversized``."""
    import json

    kind = draw(st.sampled_from(["valid"] * 4 + ["spoiled"] * 4 + ["dice", "malformed"]
                                + ["oversized"] * (1 if draw(st.integers(0, 9)) == 0 else 0)))
    if kind == "valid":
        return kind, json.dumps(draw(client_message))
    if kind == "spoiled":
        return kind, json.dumps(draw(_spoiled()))
    if kind == "dice":
        values = draw(st.lists(st.integers(1, 6), min_size=1, max_size=10))
        return kind, json.dumps({"type": "command", "id": draw(st.integers(0, 999)),
                                 "command": {"type": "roll", "result": values}})
    if kind == "oversized":
        return kind, json.dumps({"type": "ping", "pad": "x" * draw(st.integers(4100, 9000))})
    return kind, draw(st.sampled_from(['{"type":', "null", "true", "1e999", '{"type": null}',
                                       "{}", "[]", "[" * 300 + "]" * 300, "\x00"])
                      | st.text(max_size=60) | JUNK.map(json.dumps))
