"""`yacht daily`: today's challenge (the same dice for everyone today), and its standings."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from yacht.cli.common import (
    GAMES_DB_HELP,
    CliError,
    check_db,
    emit_json,
    say_building,
    text_width,
)

ORDER = 3

DESCRIPTION = """\
Every day (UTC) each variant has one challenge: a game alone whose dice are the same \
for everyone who plays it that day (the same choices get the same dice), with the \
expert's total on those very dice to beat. A name's first game started of the day is \
ranked; later ones are practice. A name plays one game of the day at a time: while \
one is under way, `yacht daily` with that name goes on with it. The dice come from a \
secret seed made for the day; its commitment is shown from the start and the seed \
once the day is over, so `yacht verify` checks every daily game from the next day on.

Without --standings this plays today's challenge of VARIANT (default yahtzee) in the \
games database of this machine, and prints your place and a line to share at the end. \
With --standings it prints a day's standings there: --date takes a day from the first \
challenge of that database to today (YYYY-MM-DD, UTC)."""


def register(sub: Any) -> None:
    p = sub.add_parser("daily", help="play today's challenge: the same dice for everyone",
                       description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", nargs="?", default="yahtzee",
                   help="variant id or alias (default yahtzee; see `yacht variants`)")
    p.add_argument("--name", default=None,
                   help="your name in the standings (default: the first person of the "
                        "setup, else You)")
    p.add_argument("--standings", action="store_true",
                   help="print the day's standings instead of playing")
    p.add_argument("--date", metavar="YYYY-MM-DD", default=None,
                   help="with --standings: that day's (UTC; default today)")
    p.add_argument("--json", action="store_true", help="with --standings: print JSON")
    p.add_argument("--plain", action="store_true",
                   help="line prompts instead of the full-screen game")
    p.add_argument("--db", metavar="URL", help=GAMES_DB_HELP)
    p.set_defaults(func=cmd_daily)


def _day(text: str | None) -> str | None:
    if text is None:
        return None
    from yacht.parsing import InputError, parse_day

    try:
        return parse_day(text, "--date")
    except InputError as e:
        raise CliError(str(e)) from None


def _name(given: str | None) -> str:
    if given is not None:  # (the one check of a player's name, as play --players has it)
        from yacht.parsing import InputError, check_name, for_option

        try:
            return check_name(given)
        except InputError as e:
            raise CliError(for_option("--name", e)) from None
    from yacht.session import load_config

    people = [p.name for p in load_config().players if p.kind == "person"]
    return people[0] if people else "You"


def cmd_daily(args: argparse.Namespace) -> int:
    from yacht.parsing import parse_ruleset
    from yacht.render import variant_title
    from yacht.session.opening import upgrade_note as game_note
    from yacht.store import StoreError, open_store

    from .web import upgrade_note

    rs = parse_ruleset(args.variant, None)
    day = _day(args.date)
    if day is not None and not args.standings:
        raise CliError("--date goes with --standings: only today's challenge is played")
    if args.json and not args.standings:
        raise CliError("--json goes with --standings")
    check_db(args.db)
    try:
        store = open_store(args.db)
    except StoreError as e:
        raise CliError(str(e)) from None
    note = upgrade_note(store)  # (the game opens it again, upgraded: said here, once)
    plain = args.plain or not sys.stdout.isatty() or not sys.stdin.isatty()
    said = bool(note) and (args.standings or plain)  # (else the terminal game says it)
    if said:  # (on stderr with --json: its output stays JSON)
        print(note, file=sys.stderr if args.json else sys.stdout, flush=True)
    try:
        game_id = _open_today(store, rs, day, args)
    except CliError:
        if note and not said:  # (no game to say it: said with the refusal)
            print(note, file=sys.stderr, flush=True)
        raise
    if game_id is None:  # (--standings: printed)
        return 0
    code = _play(game_id, args, plain, None if plain or not note else game_note(store))
    _print_result(args.db, rs.id, variant_title(rs), game_id, plain)
    return code


def _open_today(store: Any, rs: Any, day: str | None, args: argparse.Namespace) -> str | None:
    """--standings printed (None), or the id of today's game of ``rs`` to play: a new one,
    or the one under way of the same name (said)."""
    from yacht.render import variant_title, wrap_text
    from yacht.session import SessionError
    from yacht.session.daily import UnderWay, open_daily, ranked_game
    from yacht.session.table import Refused
    from yacht.store import StoreError

    try:
        if args.standings:
            st = _standings(store, rs, day, shown=not args.json)
            if args.json:
                emit_json(st.to_json())
            else:
                print(standings_text(st, variant_title(rs)))
            return None
        name = _name(args.name)
        try:
            game_id = open_daily(store, rs.id, name, source="cli").game_id
        except UnderWay as e:  # (this machine's: the same person's, going on with it)
            game_id = e.game_id
            print(f"{name}'s game of today's challenge is under way: going on with it "
                  f"(game {game_id}).")
        if game_id is not None and ranked_game(store, rs.id, name) != game_id:
            print(wrap_text(f"Practice: {name} started today's ranked game already (a "
                            "name's first game of the day is the ranked one).", text_width()))
    except Refused as e:
        raise CliError(f"today's challenge cannot be saved: {e}") from None
    except (SessionError, StoreError) as e:
        raise CliError(str(e)) from None
    finally:
        store.close()
    if game_id is None:  # (a store that could not save it says so first)
        raise CliError("today's challenge could not be saved")
    return str(game_id)


def _standings(store: Any, rs: Any, day: str | None, shown: bool = True) -> Any:
    """The day's standings with the expert's total on its dice. The first time that
    total is worked out the expert's table may have to be built (Maxi Yatzy's: minutes):
    a line on the terminal says so, as advice does, rather than a silent wait."""
    from yacht.session.daily import standings

    st = standings(store, rs.id, day, expert=False)
    if st.expert is None:
        if shown:
            say_building(rs, None)
        st = standings(store, rs.id, day)
    return st


def _play(game_id: str, args: argparse.Namespace, plain: bool,
          upgraded: str | None = None) -> int:
    """The day's game, in the line game or the terminal game; ``upgraded``: the store was
    upgraded as it was opened (session.opening.upgrade_note's line): the terminal game
    says it, as it does when it upgrades the store itself (a line printed before the game
    took the screen was not seen)."""
    import os

    from yacht.session import Launch

    if args.db is not None:  # (the game is where it was made: the games' store is read
        os.environ["YACHT_DB"] = args.db  # from $YACHT_DB by the game's screens)
    launch = Launch(resume=game_id)
    if plain:
        from yacht.plain import run_plain

        return run_plain(launch, sys.stdin, sys.stdout)
    from yacht.tui import make_app

    if upgraded is None:
        return int(make_app(launch).run() or 0)
    from yacht.store import StoreError, open_store

    # (the store given, as yacht resume gives it: the game does not open it again, and
    # says the note the first opening left)
    try:
        store = open_store(args.db)
    except StoreError as e:
        raise CliError(str(e)) from None
    try:
        app = make_app(launch, store=store)
        app.store_note = upgraded
        return int(app.run() or 0)
    finally:
        store.close()


def _print_result(db: str | None, variant: str, title: str, game_id: str,
                  plain: bool = False) -> None:
    """After the game: the place, the expert's total and the line to share (or how to
    go on with an unfinished one: in the line game when it was played there, as its own
    quit says)."""
    from yacht.rules import get
    from yacht.session.daily import share_line
    from yacht.store import open_store

    store = open_store(db)
    try:
        day = store.load_record(game_id).meta.get("daily")
        st = _standings(store, get(variant), day if isinstance(day, str) else None)
    finally:
        store.close()
    entry = st.place_of(game_id)
    if entry is None:
        from yacht.render import wrap_text
        from yacht.session.opening import command_line

        # (with the --db it was played in: without it the default database was looked in)
        if plain:
            from yacht.plain import resume_command

            command = resume_command(game_id)
        else:
            command = command_line("resume", game_id)
        # (wrapped in cells, the command kept whole where it fits: it was cut mid-word
        # by the terminal)
        print(wrap_text(f"The challenge is saved: `{command}` goes on with it today.",
                        text_width()))
        return
    print()
    print(standings_text(st, title, mine=game_id))
    print()
    print(share_line(st, game_id, title))


def standings_text(st: Any, title: str, mine: str | None = None) -> str:
    """The day's standings as lines: a header, the expert's total, a line per game."""
    from yacht.cells import cell_len, ljust  # (a name's columns: "山田太郎" takes 8)

    lines = [f"Daily challenge, {title}, {st.day} (UTC)",   # (a digest a line: 78 columns)
             f"Commitment {st.commitment}",
             f"Seed       {st.seed}" if st.seed else "(its seed is shown once the day is over)"]
    if st.expert is not None:
        lines.append(f"The expert's own game on these dice: {st.expert}")
    if not st.entries:
        lines.append("No finished game yet.")
    name_w = max([20] + [cell_len(e.name) for e in st.entries])
    for e in st.entries:
        place = f"{e.place:>3}." if e.place is not None else "   -"
        notes = ([] if e.place is not None else ["practice"]) + (["assisted"] if e.assisted
                                                                 else [])
        mark = " <" if e.game_id == mine else ""
        lines.append(f"{place} {ljust(e.name, name_w)} {e.score:>5}"
                     + (f"  ({', '.join(notes)})" if notes else "") + mark)
    return "\n".join(lines)
