"""Shared pieces of the command line: errors, options, numbers, dice, JSON output.

The parsing itself lives in :mod:`yacht.parsing` (one parser per kind of input,
shared with the other interfaces); its :class:`~yacht.parsing.InputError` is
printed like :class:`CliError`: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from yacht.parsing import InputError, parse_dice, parse_options, parse_ruleset, parse_whole
from yacht.rules import Ruleset

if TYPE_CHECKING:
    from yacht.engine import Record

__all__ = ["GAMES_DB_HELP", "CliError", "HelpText", "add_variant_args", "check_db", "emit_json",
           "parse_dice", "parse_options", "record_or_game", "reachable_target",
           "ruleset_from_args", "say_building", "text_width", "whole", "wrap_items"]

GAMES_DB_HELP = ("database of saved games: an SQLAlchemy URL or a file path (default: "
                 "$YACHT_DB, else yacht.sqlite3 in the user data directory)")


class CliError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


class HelpText(argparse.RawDescriptionHelpFormatter):
    r"""Help whose descriptions and epilogs fit the width (78 columns in a pipe) and keep
    the line breaks they mean: paragraphs (apart by a blank line) are filled; a line
    that starts indented stays a line of its own (a list's item, filled under its text
    when it has a first column: ``  loss    the points...``), and the lines indented
    deeper under it go on with it.

    >>> f = HelpText("yacht", width=28)
    >>> print(f._fill_text("A paragraph written\nover two lines.\n\n  loss   what was "
    ...                    "lost, summed\n  luck   the dice", 28, ""))
    A paragraph written over two
    lines.
    <BLANKLINE>
      loss   what was lost,
             summed
      luck   the dice
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import re
        import textwrap

        blocks = []
        for block in re.split(r"\n[ \t]*\n", text.strip("\n")):
            items: list[list[str]] = []  # each: its first line, then the lines it goes on with
            for line in block.splitlines():
                lead = len(line) - len(line.lstrip())
                if items:
                    first = items[-1][0]
                    first_lead = len(first) - len(first.lstrip())
                    if (lead == 0 and first_lead == 0) or lead > first_lead > 0:
                        items[-1].append(line.strip())
                        continue
                items.append([line.rstrip()])
            lines = []
            for first, *more in items:
                head = re.match(r"( *\S.*?  +)(?=\S)", first) if first.startswith(" ") else None
                start = head.group(1) if head else first[:len(first) - len(first.lstrip())]
                hang = " " * len(start) if len(start) <= width // 2 else \
                    start[:len(start) - len(start.lstrip())]
                words = " ".join([first[len(start):], *more])
                lines += textwrap.wrap(words, width, initial_indent=indent + start,
                                       subsequent_indent=indent + hang,
                                       break_on_hyphens=False, break_long_words=False) \
                    or [indent + start.rstrip()]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)


def wrap_items(head: str, items: Sequence[str], width: int, sep: str = " |",
               indent: str = "  ") -> str:
    """``head`` and ``items`` on lines of at most ``width``: each item whole (spaces and
    all), ``sep`` after each but the last, the next lines ``indent``-ed.

    >>> print(wrap_items("Actions:", ["roll", "score ones (3)", "score twos (4)"], 24))
    Actions: roll |
      score ones (3) |
      score twos (4)
    """
    lines = [head]
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) <= width or not lines[-1].strip():
            lines[-1] += " " + piece
        else:
            lines.append(indent + piece)
    return "\n".join(lines)


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


def reachable_target(rs: Ruleset, target: int) -> int:
    """``target`` when a game of ``rs`` can reach it; a :class:`CliError` when it is above
    the highest total the rules allow (every box at its best, the bonus earned, and what
    the special rules add with perfect dice). Kinds of game without such a limit (a box
    scored again and again) take any target.

    >>> from yacht.rules import get
    >>> reachable_target(get("ancient-yacht"), 288)
    288
    >>> try:
    ...     reachable_target(get("ancient-yacht"), 289)
    ... except CliError as e:
    ...     print(e)
    target 289 is more than any game of Ancient Yacht can score (at most 288; accepted: 0-288)
    """
    from yacht.render import key_title
    from yacht.session.comment import best_possible

    best = best_possible(rs)
    if best is not None and target > best:
        raise CliError(f"target {target} is more than any game of {key_title(rs.key)} can "
                       f"score (at most {best}; accepted: 0-{best})")
    return target


def add_variant_args(p: Any, variant: bool = True) -> None:
    if variant:
        p.add_argument("variant", help="variant id or alias (see `yacht variants`)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="a variant option, e.g. rolls=3 or joker=free (each key once)")


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


def record_or_game(text: str, db: str | None) -> Record:
    """The game record ``text`` names: a record file when there is a file of that name,
    else a saved game's id (or a unique start of it) in the store of ``db`` (read only)."""
    from pathlib import Path

    from yacht.parsing import blank, parse_game_id, read_record

    if (said := blank(text)) and not Path(text or ".").is_file():
        from yacht.session.opening import command_line

        raise CliError(f"the game is {said}: give a saved game's id (or the start of one, "
                       f"e.g. 3f2a; `{command_line('resume', '--finished')}` lists them) or "
                       "a game record file")
    try:
        is_file = Path(text).is_file() if text and "\x00" not in text else False
    except OSError:  # a name too long, a loop of links: reading it says so
        is_file = False
    game_id: str | None = None
    if not is_file:
        try:
            game_id = parse_game_id(text)
        except InputError:
            game_id = None
    if game_id is None:
        return read_record(text)
    from yacht.store import StoreError, open_store

    check_db(db)
    try:
        store = open_store(db, readonly=True)
    except StoreError as e:
        raise CliError(str(e)) from None
    try:
        return store.load_record(store.resolve_id(game_id))
    except StoreError as e:
        raise CliError(f"{e} (and there is no file {game_id!r})") from None
    finally:
        store.close()


def check_db(db: str | None) -> None:
    """CliError for a blank ``--db`` (taken for no --db, it would open another database
    than the one named), showing what was typed."""
    if db is not None and not db.strip():
        raise CliError(f"--db {db!r}: give a database file or URL (without --db: "
                       "$YACHT_DB, else the file in the user data directory)")


def text_width() -> int:
    """How wide the commands' text may be: the terminal's width less a margin (78 when
    the output is not a terminal, or as ``COLUMNS`` says)."""
    return max(40, shutil.get_terminal_size((80, 24)).columns - 2)


def say_building(rs: Any, target: int | None) -> None:
    """A line on the terminal before the expert's table (or the one for reaching
    ``target``) is built for a command (once, then kept in the cache): Maxi Yatzy's takes
    minutes, which were silent."""
    import sys

    if not sys.stderr.isatty():
        return
    from yacht.strategy.solver.build import is_ready

    if not is_ready(rs, estimate=False):
        print(f"yacht: building the expert's table for {rs.name} (once: it is kept in the "
              "cache)...", file=sys.stderr, flush=True)
    elif target is not None:
        from yacht.strategy.solver.target import is_ready as target_ready

        if not target_ready(rs, target):
            print(f"yacht: building the table for reaching {target} points (once: it is "
                  "kept in the cache; about a minute for Yahtzee)...", file=sys.stderr,
                  flush=True)
