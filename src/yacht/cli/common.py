"""Shared pieces of the command line: errors, options, numbers, dice, JSON output.

The parsing itself lives in :mod:`yacht.parsing` (one parser per kind of input,
shared with the other interfaces); its :class:`~yacht.parsing.InputError` is
printed like :class:`CliError`: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from yacht.parsing import InputError, parse_dice, parse_options, parse_ruleset, parse_whole
from yacht.rules import Ruleset

__all__ = ["CliError", "add_variant_args", "emit_json", "parse_dice", "parse_options",
           "ruleset_from_args", "whole"]


class CliError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


def ruleset_from_args(variant: str, options: Sequence[str] | None) -> Ruleset:
    """The variant and its ``-o KEY=VALUE`` options (each key once)."""
    return parse_ruleset(variant, options)


def whole(what: str, lo: int | None = 0, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number in ASCII digits within ``lo``-``hi``."""

    def convert(text: str) -> int:
        try:
            return parse_whole(text, what, lo, hi)
        except InputError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    convert.__name__ = what  # argparse names the type in some messages
    return convert


def add_variant_args(p: Any, variant: bool = True) -> None:
    if variant:
        p.add_argument("variant", help="variant id or alias (see `yacht variants`)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="a variant option, e.g. rolls=3 or joker=free (each key once)")


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")
