"""The protocol's declared types: the schema in the repository is the one they make, it
describes what the server really sends, and the limits cover every variant."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from yacht.rules import all_variants
from yacht.web import protocol
from yacht.web.protocol import MAX_COLUMNS, MAX_DICE, SCHEMA_PATH, ProtocolError, read_client

SESSION_SCHEMA = Path(protocol.__file__).parents[1] / "session" / "table.schema.json"


def test_the_schema_in_the_repository_is_the_generated_one() -> None:
    assert json.loads(SCHEMA_PATH.read_text("utf-8")) == protocol.schema(), (
        "protocol.schema.json is stale: run python -m yacht.web.protocol")


def test_the_protocol_document_points_to_the_schema() -> None:
    text = (SCHEMA_PATH.parent / "PROTOCOL.md").read_text("utf-8")
    assert "protocol.schema.json" in text and "python -m yacht.web.protocol" in text


def test_the_limits_cover_every_variant() -> None:
    assert max(rs.dice for rs in all_variants()) == MAX_DICE
    assert max(len(rs.columns) for rs in all_variants()) == MAX_COLUMNS


def validator(name: str) -> jsonschema.Draft202012Validator:
    whole = protocol.schema()
    session = json.loads(SESSION_SCHEMA.read_text("utf-8"))
    registry = Registry().with_resources([(whole["$id"], Resource.from_contents(whole)),
                                          (session["$id"], Resource.from_contents(session))])
    return jsonschema.Draft202012Validator({"$ref": f"{whole['$id']}#/$defs/{name}"},
                                           registry=registry)


def test_what_the_server_says_fits_the_schema(client: object) -> None:
    from fastapi.testclient import TestClient

    from .browser import Browser
    from .conftest import new_table

    assert isinstance(client, TestClient)
    check = validator("ServerMessage")
    t = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                          {"kind": "expert", "name": "Max"}])
    with Browser(client, t["id"], t["token"]) as ann:
        seen = []
        original = ann.recv

        def recv() -> dict[str, object]:
            msg = original()
            seen.append(msg)
            return msg

        ann.recv = recv  # type: ignore[method-assign]
        ann.act({"type": "roll"})
        ann.act({"type": "toggle", "position": 9})  # an error
        ann.ask("ping")
        ann.act({"type": "score", "category": ann.snap["previews"][0]["category"]})
        ann.ask("hint")
        ann.ask("react", reaction="clap")  # (answered with an ack of its own)
    kinds = {m["type"] for m in seen}
    assert {"state", "ack", "error", "pong", "reaction"} <= kinds
    assert any(m["type"] == "state" and "id" in m for m in seen)  # a command's answer
    for msg in seen:
        check.validate(msg)


@pytest.mark.parametrize("text", [
    '{"type": "hello"}', '{"type": "hello", "token": null, "id": 1}',
    '{"type": "command", "command": {"type": "roll"}, "version": 3, "id": "a"}',
    '{"type": "command", "command": {"type": "choose", "dice": [0, 4]}, "version": 0}',
    '{"type": "command", "command": {"type": "score", "category": "chance", "column": 1},'
    ' "version": 12}',
    '{"type": "join", "seat": 1, "name": "Bob", "token": null}',
    '{"type": "speed", "speed": "fast"}', '{"type": "start"}', '{"type": "hint"}'])
def test_valid_messages_are_read_and_fit_the_schema(text: str) -> None:
    read_client(text)
    validator("ClientMessage").validate(json.loads(text))


@pytest.mark.parametrize("text,line", [
    ('{"type": "command", "command": {"type": "roll", "result": [1, 2]}}',
     "command.result: only the server rolls the dice"),
    ('{"type": "command", "command": {"type": "toggle", "position": true}}',
     "command.position: a die's 0-based position"),
    ('{"type": "command", "version": "3", "command": {"type": "roll"}}', "version:"),
    ('{"type": "command", "command": {"type": "roll"}}', "version: missing (the snapshot's"),
    ('{"type": "teleport"}', "type: a message is one of hello, command"),
    ('{"type": "command", "command": {"type": "fly"}}', "command.type: a command is one of"),
    ('{"type": "join", "seat": 8, "name": "Eve"}', "seat: a seat's 0-based number"),
    ('{"type": "hello", "token": "short"}', "token:"),
    ("[1]", "a message is a JSON object"), ("{", "not JSON")])
def test_invalid_messages_are_one_line_that_says_what_is_wrong(text: str, line: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        read_client(text)
    assert str(refused.value).startswith(line) and "\n" not in str(refused.value)
    assert refused.value.code == "bad_request"
    with pytest.raises(jsonschema.ValidationError):
        validator("ClientMessage").validate(json.loads(text) if text != "{" else None)


def test_numbers_are_never_read_from_other_types() -> None:
    for text in ('{"type": "command", "command": {"type": "toggle", "position": 1.0}}',
                 '{"type": "command", "command": {"type": "toggle", "position": "1"}}',
                 '{"type": "join", "seat": false, "name": "Eve"}'):
        with pytest.raises(ProtocolError):
            read_client(text)


def test_a_command_is_answered_on_the_state_it_made(client: object) -> None:
    """One frame, not two: the state a command made carries the command's id (the page
    takes it as the ack); an answer with no state due is an ack of its own."""
    from fastapi.testclient import TestClient

    from .browser import Browser
    from .conftest import new_table

    assert isinstance(client, TestClient)
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as ann:
        ann.wait(lambda table: table.get("phase") == "game")
        version = ann.snap["version"]
        ann.ws.send_json({"type": "command", "command": {"type": "roll"}, "id": 7,
                          "version": version})
        answer = ann.until(lambda m: m.get("id") == 7)
        assert answer["type"] == "state", answer
        assert answer["table"]["snapshot"]["version"] == version + 1  # it shows the roll
        assert answer["table"]["snapshot"]["dice"]
        # nothing else answers 7, and what comes next is the next answer
        ann.ws.send_json({"type": "ping", "id": 8})
        after = ann.until(lambda m: "id" in m)
        assert after == {"type": "pong", "id": 8}
        # a reaction changes no state: its answer is a plain ack
        ann.ws.send_json({"type": "react", "reaction": "clap", "id": 9})
        assert ann.until(lambda m: "id" in m) == {"type": "ack", "id": 9}
        # a command refused changes nothing: an error, no state
        ann.ws.send_json({"type": "command", "command": {"type": "toggle", "position": 9},
                          "id": 10, "version": version + 1})
        refused = ann.until(lambda m: "id" in m)
        assert refused["type"] == "error" and refused["id"] == 10


def test_a_second_roll_from_the_same_table_is_stale(client: object) -> None:
    """A double-click on Roll sends two rolls from the table the player saw: the second
    is refused (stale) and the first roll's dice stand, and a double-click on a box
    scores once (QA s18 web item 2; the page: tests/web_browser/test_solo.py)."""
    from fastapi.testclient import TestClient

    from .browser import Browser
    from .conftest import new_table

    assert isinstance(client, TestClient)
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as ann:
        ann.wait(lambda table: table.get("phase") == "game")
        seen = ann.snap["version"]
        assert ann.act({"type": "roll"}, version=seen)["type"] in ("state", "ack")
        dice = ann.snap["dice"]
        assert ann.snap["rolls_left"] == ann.snap["max_rolls"] - 1
        again = ann.act({"type": "roll"}, version=seen)
        assert again["type"] == "error" and again["code"] == "stale", again
        assert ann.snap["dice"] == dice and ann.snap["rolls_left"] == ann.snap["max_rolls"] - 1
        box = ann.snap["previews"][0]["category"]
        now = ann.snap["version"]
        ann.act({"type": "score", "category": box}, version=now)
        twice = ann.act({"type": "score", "category": box}, version=now)
        assert twice["type"] == "error" and twice["code"] == "stale"


def test_a_command_without_the_version_it_was_sent_from_is_refused(client: object) -> None:
    """Every command names the snapshot's version its player saw (PROTOCOL.md: a stale
    click is refused, never applied to a newer state). A roll without it was taken, so
    an old message sent again - a replay, or a page that kept a click - was played on
    whatever the table had become (QA s20: a second bare roll re-rolled the dice the
    first left chosen). Now it is ``bad_request`` and nothing changes."""
    from fastapi.testclient import TestClient

    from .browser import Browser
    from .conftest import new_table

    assert isinstance(client, TestClient)
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as ann:
        ann.wait(lambda table: table.get("phase") == "game")
        version = ann.snap["version"]
        for command in ({"type": "roll"}, {"type": "select", "which": "all"},
                        {"type": "score", "category": "chance"}, {"type": "go_on"}):
            reply = ann.ask("command", command=command)
            assert reply["type"] == "error" and reply["code"] == "bad_request", reply
            assert reply["message"].startswith("version: missing"), reply
        assert ann.snap["version"] == version and not ann.snap["dice"]
        # the same roll with the version it was sent from is played, once
        assert ann.act({"type": "roll"}, version=version)["type"] == "ack"
        again = ann.act({"type": "roll"}, version=version)
        assert again["type"] == "error" and again["code"] == "stale"


def test_the_socket_error_codes_are_listed_once() -> None:
    """The socket's error codes in PROTOCOL.md were two lists run together (the second a
    leftover: conflict ... server twice, 'private' in the second only) (QA s22)."""
    import re

    text = (SCHEMA_PATH.parent / "PROTOCOL.md").read_text("utf-8")
    listing = text.split('{"type": "error", id, code, message}')[1].split("The page sends:")[0]
    listing = " ".join(listing.split())
    codes = re.findall(r"`([a-z_]+)`", listing.split("(every code")[0])
    assert len(codes) == len(set(codes)), codes
    assert listing.count("(every code") == 1
    assert set(codes) <= set(protocol.ERROR_CODES) and "private" in codes, codes
