"""Store commands: scores (the top tens), resume (saved games), stats (per player).

Every command takes ``--db URL`` (an SQLAlchemy URL or a file path); without it
the ``YACHT_DB`` environment variable, else the SQLite file in the user data
directory, is used.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from yacht.cli.common import (
    CliError,
    add_variant_args,
    check_db,
    emit_json,
    ruleset_from_args,
    text_width,
    wrap_items,
)
from yacht.parsing import blank, parse_game_id, parse_out_path, printable
from yacht.session.opening import command_line

if TYPE_CHECKING:
    from pathlib import Path

    from yacht.session.table import Table
    from yacht.store import Store

ORDER = 40

_DEFAULT_URL = "http://localhost:8000"
_DB_HELP = ("database: an SQLAlchemy URL (sqlite:///FILE, postgresql+psycopg://USER@HOST/DB) "
            "or a file path (default: $YACHT_DB, else yacht.sqlite3 in the user data directory)")


def register(sub: Any) -> None:
    p = sub.add_parser("scores", help="the top ten of a variant (or of every table)",
                       description="High scores: a top ten per variant and option set. Games "
                       "where the advisor was consulted, or dice were entered by hand, are "
                       "listed apart (--assisted; those with dice entered are marked).")
    add_variant_args(p, variant=False)
    p.add_argument("variant", nargs="?", help="variant id or alias (default: every table)")
    p.add_argument("--assisted", action="store_true",
                   help="the table of assisted games (and of games with dice entered)")
    p.add_argument("--db", metavar="URL", help=_DB_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_scores)

    p = sub.add_parser(
        "resume", help="list unfinished games, show one, or play one action of it",
        description="Without ID: the unfinished games. With ID (or a unique prefix) in a "
        "terminal: the game opens where it was left. --show prints it as it stands instead "
        "(also what happens when the output is not a terminal). --action applies one action "
        "and saves it: roll [VALUES], choose POSITIONS (e.g. choose 1,3), score BOX [COLUMN], "
        "give-back, take-back, computer.")
    p.add_argument("id", nargs="?", help="a game id or a unique prefix of one")
    p.add_argument("-a", "--action", metavar="ACTION", help="the action to apply and save")
    p.add_argument("--delete", action="store_true", help="abandon the game (deletes it)")
    p.add_argument("--export", metavar="FILE", help="write the game's record (for `yacht replay`)")
    p.add_argument("--show", action="store_true",
                   help="print the game as it stands instead of opening it")
    p.add_argument("--web", metavar="URL", nargs="?", const=_DEFAULT_URL, default=None,
                   help="hand the game to a browser: print a link that opens it at a table of "
                        "`yacht web` (at URL, default " + _DEFAULT_URL + "); the link works "
                        "once, and only its first browser takes the game's seats")
    p.add_argument("--finished", action="store_true", help="list finished games instead")
    p.add_argument("--db", metavar="URL", help=_DB_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("stats", help="statistics per player and variant",
                       description="Games, wins (in games of 2 or more), average, best, "
                       "upper-bonus rate and yachts rolled per player and variant. Games "
                       "with dice entered by hand (real dice) are counted apart, on rows "
                       "marked (dice entered).")
    p.add_argument("player", nargs="?", help="only this player (name, any case)")
    p.add_argument("--computers", action="store_true", help="include computer players")
    p.add_argument("--db", metavar="URL", help=_DB_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_stats)


def _open(args: argparse.Namespace, readonly: bool, say_note: bool = True) -> Store:
    """The store of ``--db``; ``readonly`` for commands that only read (they then work on
    a read-only file or folder and create nothing). ``say_note``: a store upgraded as it
    was opened is said on stderr (else the terminal game says it: _open_game)."""
    from yacht.store import StoreError, open_store

    from .web import upgrade_note

    check_db(args.db)
    try:
        store = open_store(args.db, readonly=readonly)
    except StoreError as e:
        raise CliError(str(e)) from None
    note = upgrade_note(store) if say_note else None
    if note:  # (on stderr: --json's output stays JSON)
        print(note, file=sys.stderr, flush=True)
    return store


def _run(args: argparse.Namespace, fn: Any, readonly: bool = True,
         say_note: bool = True) -> int:
    from yacht.session import SessionError
    from yacht.session.commands import ActionError
    from yacht.store import StoreError

    from .web import upgrade_note

    store = _open(args, readonly, say_note)
    try:
        try:
            return int(fn(store))
        except (StoreError, ActionError, SessionError) as e:
            raise CliError(str(e)) from None
    except CliError:
        if not say_note and (note := upgrade_note(store)):  # (no game took the screen to
            print(note, file=sys.stderr, flush=True)         # say it)
        raise
    finally:
        store.close()


# --- scores ---------------------------------------------------------------------
def cmd_scores(args: argparse.Namespace) -> int:
    if args.variant is None and args.option:
        raise CliError("--option needs a VARIANT")
    rs = ruleset_from_args(args.variant, args.option) if args.variant else None

    def go(store: Store) -> int:
        import textwrap

        from yacht.shapes import score_tables_json

        out = score_tables_json(store, rs, args.assisted)
        if args.json:
            emit_json(out[0] if rs is not None else out)
            return 0
        if not out:
            print("No high scores yet." + (" (assisted games)" if args.assisted else ""))
        width = text_width()
        for i, t in enumerate(out):
            if i:
                print()
            # (the options in words, as `yacht stats` says them, not the ruleset's key)
            title = _title(t["key"]) + (" - assisted" if t["assisted"] else "")
            print("\n".join(textwrap.wrap(title, width, subsequent_indent="  ",
                                           break_on_hyphens=False)))
            print(_entries_text(t["entries"], width) if t["entries"] else "  no scores yet")
        return 0

    return _run(args, go)


def _entries_text(entries: list[dict[str, Any]], width: int) -> str:
    """A top ten's lines: rank, name, score, date and game on a line each where they all
    fit ``width``; else (a narrow terminal) the date and game go under the name, a
    line of their own for every entry, and a note that does not fit after them under
    it.

    >>> e = {"rank": 1, "name": "Maximilian Feathers", "score": 302, "date": "2026-12-06",
    ...      "game_id": "0e99b22d370e", "dice_entered": False, "ended_early": True}
    >>> print(_entries_text([e], 40))
       1. Maximilian Feathers    302
          2026-12-06  game 0e99b22d370e
          (won at once)
    """
    from yacht.cells import cell_len, ljust  # (a name's columns: "山田太郎" takes 8)
    from yacht.render import wrap_text
    from yacht.session.present import entry_note

    name_w = max([20] + [cell_len(printable(e["name"])) for e in entries])
    rows = [(f"  {e['rank']:>2}. {ljust(printable(e['name']), name_w)} {e['score']:>5}",
             f"{e['date'][:10]}  game {e['game_id']}",
             entry_note(False, e["dice_entered"], e["ended_early"])) for e in entries]
    if all(cell_len(f"{head}  {game}{note}") <= width for head, game, note in rows):
        return "\n".join(f"{head}  {game}{note}" for head, game, note in rows)
    out: list[str] = []
    for head, game, note in rows:   # (a note, in brackets, stays whole)
        under = " " * 6 + game
        fits = len(under + note) <= width
        out += [head, under + note] if fits or not note else [head, under, " " * 5 + note]
    return wrap_text("\n".join(out), width)


# --- resume ---------------------------------------------------------------------
def cmd_resume(args: argparse.Namespace) -> int:
    given = [v for v in (args.action, args.delete or None, args.export, args.web)
             if v is not None]
    if args.id is None and given:
        raise CliError("--action, --delete, --export and --web need a game ID (see "
                       f"`{command_line('resume')}`)")
    if len(given) > 1:
        raise CliError("give only one of --action, --delete, --export, --web")
    if args.show and given:  # (each of them does something else than show the game)
        raise CliError("--show prints the game as it stands: give it without --action, "
                       "--delete, --export or --web")
    if args.finished and args.id is not None:
        raise CliError("--finished lists the finished games: give it without a game ID "
                       f"(`{command_line('resume', '--finished')}`)")
    if args.action is not None and (said := blank(args.action)):
        # (it was taken for Enter, the line game's roll: 'yacht resume ID --action ""'
        # rolled the dice, or said "'' is not allowed now")
        raise CliError(f"--action is {said}: give one action, e.g. --action roll (the "
                       "actions: `yacht resume --help`)")
    prefix = parse_game_id(args.id) if args.id is not None else None
    export = parse_out_path(args.export, "--export") if args.export is not None else None
    web = _web_base(args.web) if args.web is not None else None
    opens = (prefix is not None and not (args.show or args.json or export is not None
                                         or web is not None)
             and sys.stdin.isatty() and sys.stdout.isatty())
    writes = args.action is not None or args.delete or opens or web is not None

    def go(store: Store) -> int:
        if prefix is None:
            return _list_games(store, args)
        game_id = store.resolve_id(prefix)
        if args.delete:
            def tell(what: str) -> None:  # (else it waited up to 20 minutes without a word)
                if what == "waiting":
                    print("yacht: waiting for the database: another program is writing to "
                          "it (Ctrl-C stops; the game is then not deleted)", file=sys.stderr,
                          flush=True)

            with store.telling_waits(tell):
                store.delete_game(game_id)
            if args.json:
                emit_json({"deleted": game_id})
            else:
                print(f"Game {game_id} deleted.")
            return 0
        if export is not None:
            return _export(store, game_id, export, args)
        if web is not None:
            return _hand_to_browser(store, game_id, web, args)
        if args.action is not None:
            return _act(store, game_id, args)
        if args.json:
            emit_json(_game_json(store, game_id))
            return 0
        if opens:
            return _open_game(store, game_id)
        print(_show_game(store, game_id, way_on=not args.show))
        return 0

    # (the terminal game says an upgrade itself: a line printed before it took the screen
    # was not seen)
    return _run(args, go, readonly=not writes, say_note=not opens)


def _web_base(text: str) -> str:
    from yacht.web.claims import check_base

    try:
        return check_base(text)
    except ValueError as e:
        raise CliError(f"--web: {e}") from None


def _hand_to_browser(store: Store, game_id: str, base: str, args: argparse.Namespace) -> int:
    """A one-time link that opens the game at a table of `yacht web` (its people's seats
    go to the first browser that opens it)."""
    from yacht.web.claims import ClaimError, hand_to_browser, link

    try:
        row, key = hand_to_browser(store, game_id)
    except ClaimError as e:
        raise CliError(str(e)) from None
    url = link(base, row.id, key)
    if args.json:
        emit_json({"game": game_id, "table": row.id, "url": url})
        return 0
    # (`yacht web` of the same database: the link is kept in it)
    print(f"Open this link in your browser to go on with game {game_id} there (with "
          f"`{command_line('web')}` running on that address). It works once: the first "
          f"browser that opens it takes the game's seats.\n{url}")
    return 0


def _table(store: Store, game_id: str) -> Table:
    """The game's table; its people roll real dice and may enter them (``roll 3,5``)."""
    from yacht.session import open_table

    return open_table(store, source="cli", resume=game_id, speed="instant", pauses=False,
                      real_dice=True)


def _act(store: Store, game_id: str, args: argparse.Namespace) -> int:
    """One action in the notation, played at the table and saved; the game as it is then."""
    from yacht.cli.interrupt import run_interruptible
    from yacht.parsing import shown
    from yacht.session.commands import command_text, parse_command
    from yacht.session.present import entry_note
    from yacht.session.table import LOCAL, Refused

    if store.game_info(game_id).finished is not None:
        raise CliError(f"game {game_id} is finished (see `{command_line('scores')}`)")
    table = _table(store, game_id)

    def waiting(event: Any) -> None:  # (else it waited up to 20 minutes without a word)
        if event.kind == "store_waiting" and event.data["waiting"]:
            print(f"yacht: {event.text[:1].lower()}{event.text[1:]} (Ctrl-C stops; the "
                  "action is then not applied)", file=sys.stderr, flush=True)

    table.subscribe(waiting)
    start = table.action_count
    commands = parse_command(args.action, table.view().state)
    try:  # (a computer move may build the solver's table first: Ctrl-C stops it at once)
        run_interruptible(lambda _stop: table.act(LOCAL, *commands))
    except Refused as refused:
        raise CliError(f"{shown(args.action.strip())} is not allowed now: {refused}") from None
    entries = list(table.view().new_entries)
    rs = table.ruleset
    applied = [command_text(a, rs) for a in table.actions_since(start)]
    if args.json:
        emit_json({**_game_json(store, game_id, table), "applied": applied,
                   "high_scores": [e.to_json() for e in entries]})
        return 0
    print("Applied: " + "; ".join(applied))
    for entry in entries:
        print(f"New high score: #{entry.rank} {entry.name} {entry.score}"
              + entry_note(entry.assisted, entry.dice_entered, entry.ended_early))
    print(_show_game(store, game_id))
    return 0


def _open_game(store: Store, game_id: str) -> int:
    """Continue the game in the terminal game (the store stays the one given)."""
    from yacht.session import Launch, upgrade_note
    from yacht.tui import make_app

    note = upgrade_note(store)
    if store.game_info(game_id).finished:
        raise CliError(f"game {game_id} is finished (see it with "
                       f"`{command_line('replay', game_id)}`)")
    app = make_app(Launch(resume=game_id), store=store)
    app.store_note = note  # (a notice in the game, as yacht play has it)
    return int(app.run() or 0)


def _list_games(store: Store, args: argparse.Namespace) -> int:
    games = store.finished_games(limit=50) if args.finished else store.unfinished_games()
    if args.json:
        emit_json([g.to_json() for g in games])
        return 0
    if not games:
        print("No finished games." if args.finished else "No unfinished games.")
        return 0
    import textwrap

    from yacht.cells import wrap

    width = text_width()
    # the kind of game in words ("Kismet", not every option's value of its key): a long
    # one (its options) goes on under itself, as the players do, so every column stays
    # in line and a row fits the width
    titles = [_title(g.key) for g in games]
    fixed = 12 + 2 + 1 + 7 + 2 + 16 + 2  # id, turn, last played and the gaps
    title_w = max(7, min(max(len(t) for t in titles), 28, width - fixed - 16))
    names_w = max(16, width - fixed - title_w)
    print(f"{'id':<12}  {'variant':<{title_w}} {'turn':>7}  {'last played':<16}  players")
    for g, title in zip(games, titles, strict=True):
        names = ", ".join(printable(p.name) + ("*" if p.is_computer else "")
                          for p in g.players)
        when = g.last_played.strftime("%Y-%m-%d %H:%M")
        turn = f"{g.turn}/{g.turns}"
        left = textwrap.wrap(title, title_w, break_on_hyphens=False) or [""]
        right = wrap(names, names_w) or [""]  # (in cells: "山田太郎" takes 8)
        for i in range(max(len(left), len(right))):
            head = (g.id, turn, when) if i == 0 else ("", "", "")
            title_line = left[i] if i < len(left) else ""
            names_line = right[i] if i < len(right) else ""
            print(f"{head[0]:<12}  {title_line:<{title_w}} {head[1]:>7}  {head[2]:<16}  "
                  f"{names_line}".rstrip())
    if not args.finished:
        print()
        print("\n".join(wrap(f"`{command_line('resume', 'ID')}` continues a game (a unique "
                              "start of the id is enough); --show prints it, --action roll "
                              "plays one action (* = computer).", width)))
    return 0


def _game_json(store: Store, game_id: str, table: Table | None = None) -> dict[str, Any]:
    """The stored game (``game``) and its table as the one at the keyboard sees it
    (``table``: the snapshot every interface draws, ``table.schema.json``)."""
    from yacht.session.present import PLAIN
    from yacht.session.table import LOCAL

    info = store.game_info(game_id)
    table = table or _table(store, game_id)
    return {"game": info.to_json(), "table": table.snapshot(LOCAL, PLAIN)}


def _show_game(store: Store, game_id: str, way_on: bool = False) -> str:
    """The game as text: who plays what, scorecards, dice, rolls left, legal actions;
    ``way_on``: and how it goes on (it was shown for want of a terminal to open it in)."""
    from yacht.render import card_table, dice_text, wrap_text
    from yacht.session.commands import legal_texts
    from yacht.session.present import game_note

    info = store.game_info(game_id)
    state = store.load_state(game_id)
    rs = state.ruleset
    names = [printable(p.name) for p in state.players]
    when = info.last_played.strftime("%Y-%m-%d %H:%M UTC")
    width = text_width()
    # (the kind of game in words, as `yacht resume` lists it: its key is one long word)
    head = (f"Game {info.id}: {_title(info.key)}, {', '.join(names)} - turn "
            f"{info.turn}/{info.turns}, last played {when}"
            + game_note(info.assisted, info.dice_entered))
    lines = [wrap_text(head, width)]
    lines += ["", card_table(rs, names, [state.card(i) for i in range(len(names))],
                             width=width), ""]
    if info.finished is not None or state.is_terminal():
        res = state.returns()
        lines.append("Finished: " + ", ".join(f"{n} {r}" for n, r in zip(names, res,
                                                                         strict=True)))
        if state.ended_by is not None:  # (the totals alone named no winner, or the wrong one)
            lines.append(wrap_text(f"{names[state.ended_by]} won at once with "
                                   f"{rs.end_reason()}, before the cards were full.", width))
        return "\n".join(lines)
    me = state.players[state.current]
    who = printable(me.name) + (f" (computer, {me.level})" if me.is_computer else "")
    lines.append(f"On turn: {who}")
    if state.dice:
        chosen = (" - chosen to roll again: " + ",".join(str(p + 1) for p in sorted(state.chosen))
                  if state.chosen else "")
        lines.append(f"Dice: {dice_text(state.dice)}{chosen}")
    else:
        lines.append("Dice: not rolled yet")
    lines.append(f"Rolls left: {state.rolls_left}")
    lines.append(wrap_items("Actions:", legal_texts(state), width))
    if way_on:  # (a pipe only shows the game: where it is played on, said)
        from yacht.plain import resume_command

        lines += ["", wrap_text(f"`{resume_command(info.id)}` plays it on with line prompts; "
                                f"in a terminal `{command_line('resume', info.id)}` opens "
                                "it full "
                                "screen.", width)]
    return "\n".join(lines)


def _export(store: Store, game_id: str, path: Path, args: argparse.Namespace) -> int:
    rec = store.load_record(game_id)
    name = printable(str(path))
    try:  # (parse_out_path refused a file that was there)
        rec.save(path)
    except OSError as e:
        raise CliError(f"cannot write {name}: {e.strerror or e}") from None
    if args.json:
        emit_json({"id": game_id, "file": str(path)})
    else:
        # (a path with blanks quoted; a file's replay needs no --db)
        again = printable(command_line("replay", str(path), carry=False))
        print(f"Game {game_id} written to {name} (`{again}`).")
    return 0


# --- stats ----------------------------------------------------------------------
def cmd_stats(args: argparse.Namespace) -> int:
    from yacht.parsing import InputError, check_name, for_option

    if args.player is not None:  # (said after what it refuses, as daily's --name is)
        try:
            args.player = check_name(args.player)
        except InputError as e:
            raise CliError(for_option("player", e)) from None

    def go(store: Store) -> int:
        rows = store.stats(args.player, include_computers=args.computers)
        if args.json:
            from yacht.shapes import stats_json

            emit_json(stats_json(store, args.player, args.computers))
            return 0
        if not rows:
            who = f" for {printable(args.player)}" if args.player else ""
            # (a new player's demo games are the computers': say where they are)
            theirs = not args.computers and bool(store.stats(args.player, True))
            print(f"No finished games{' of people' if theirs else ''}{who}."
                  + (" (--computers counts the computer players too)" if theirs else ""))
            return 0
        import shutil

        # (the whole width, down to 20 columns: text_width() stops at 40)
        print(_stats_text(rows, shutil.get_terminal_size().columns))
        return 0

    return _run(args, go)


def _title(key: str) -> str:
    """A ruleset key in words (the key itself for a variant this version does not know)."""
    from yacht.render import key_title

    return key_title(key)


def _stats_text(rows: list[Any], width: int) -> str:
    """The statistics, a heading per kind of game (its name and options in words) and a
    row per player under it; where the rows do not fit ``width``, a few lines per player.
    Nothing is cut: names and headings are whole, wrapped when they must be."""
    import textwrap

    from yacht.cells import cell_len, ljust, wrap  # (in cells: "山田太郎" takes 8)
    from yacht.session.present import entry_note

    width = max(20, width)
    by_key: dict[str, list[Any]] = {}
    for r in rows:
        by_key.setdefault(r.key, []).append(r)
    def who(r: Any) -> str:  # (a computer of a person's name is another player)
        return printable(r.name) + (" (computer)" if r.computer else "")

    name_w = max(6, *(cell_len(who(r)) for r in rows))
    head = (f"  {'player':<{name_w}} {'games':>5} {'wins':>7} {'avg':>7} {'best':>5} "
            f"{'bonus':>6} {'yachts':>6}")
    # (a row's note, after its last column, must fit too)
    table = len(head) + max(len(entry_note(False, r.dice_entered)) for r in rows) <= width
    out: list[str] = []
    for title, group in sorted(((_title(k), g) for k, g in by_key.items()),
                               key=lambda t: t[0]):
        if out:
            out.append("")
        out += textwrap.wrap(title, width, subsequent_indent="  ", break_on_hyphens=False)
        if table:
            out.append(head)
        for r in group:
            name = who(r)
            wins = f"{r.wins}/{r.multiplayer_games}" if r.multiplayer_games else "-"
            bonus = f"{r.upper_bonus_rate:.0%}" if r.upper_bonus_rate is not None else "-"
            note = entry_note(False, r.dice_entered)
            if table:
                out.append(f"  {ljust(name, name_w)} {r.games:>5} {wins:>7} {r.average:>7.1f} "
                           f"{r.best:>5} {bonus:>6} {r.yachts:>6}{note}")
                continue
            facts = [f"{r.games} game{'s' if r.games != 1 else ''}"]
            if r.multiplayer_games:
                facts.append(f"{r.wins} won of {r.multiplayer_games} with others")
            facts += [f"average {r.average:.1f}", f"best {r.best}"]
            if r.upper_bonus_rate is not None:
                facts.append(f"bonus {bonus}")
            facts.append(f"{r.yachts} yacht{'s' if r.yachts != 1 else ''}")
            out += wrap(f"{name}{note}: " + ", ".join(facts), width, initial_indent="  ",
                        subsequent_indent="    ")
    return "\n".join(out)
