"""Shared pieces of the command line: errors, options, dice, JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from yacht.rules import OptionError, Ruleset, UnknownVariant, get

__all__ = ["CliError", "add_variant_args", "emit_json", "parse_dice", "parse_options",
           "ruleset_from_args"]


class CliError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


def parse_options(items: Sequence[str] | None) -> dict[str, str]:
    """``["joker=free", "bonus=off"]`` -> ``{"joker": "free", "bonus": "off"}``."""
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise CliError(f"option {item!r} is not KEY=VALUE (for example rolls=3)")
        out[key.strip().lower()] = value.strip()
    return out


def ruleset_from_args(variant: str, options: Sequence[str] | None) -> Ruleset:
    try:
        return get(variant, parse_options(options))
    except (UnknownVariant, OptionError) as e:
        raise CliError(str(e)) from None


def add_variant_args(p: Any, variant: bool = True) -> None:
    if variant:
        p.add_argument("variant", help="variant id or alias (see `yacht variants`)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="a variant option, e.g. rolls=3 or joker=free (repeatable)")


def parse_dice(text: str, rs: Ruleset) -> tuple[int, ...]:
    """Dice as ``2,4,4,2,2``, ``2 4 4 2 2`` or ``24422``, checked against the ruleset."""
    raw = text.strip()
    if not raw:
        raise CliError(f"no dice given (give {rs.dice} values 1-{rs.faces}, e.g. "
                       f"{','.join(['1'] * rs.dice)})")
    parts = [p for p in raw.replace(",", " ").split() if p]
    if len(parts) == 1 and len(parts[0]) > 1 and parts[0].isdigit() and rs.faces < 10:
        parts = list(parts[0])
    values = []
    for p in parts:
        if not p.lstrip("-").isdigit():
            raise CliError(f"die value {p!r} is not a number (accepted: 1-{rs.faces})")
        v = int(p)
        if not 1 <= v <= rs.faces:
            raise CliError(f"die value {v} is not a face (accepted: 1-{rs.faces})")
        values.append(v)
    if len(values) != rs.dice:
        raise CliError(f"{rs.id} uses {rs.dice} dice, but {len(values)} were given")
    return tuple(values)


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")
