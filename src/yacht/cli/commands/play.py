"""`yacht play`: the game, full-screen (Textual) or as line prompts (--plain)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from yacht.cli.common import (
    GAMES_DB_HELP,
    CliError,
    add_variant_args,
    check_db,
    reachable_target,
    whole,
)

ORDER = 1


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play", help="play a game (the default command)",
        description="Play Yacht. Without options the setup screen opens; a VARIANT, "
                    "--players or --demo start a game at once. When the output is not a "
                    "terminal (or with --plain) the game is played with line prompts.")
    p.add_argument("variant", nargs="?", default=None,
                   help="variant id or alias (see `yacht variants`)")
    add_variant_args(p, variant=False)
    p.add_argument("--players", metavar="LIST", default=None,
                   help='names and kinds, e.g. "Ann,Bob,cpu:expert" (cpu:beginner|'
                        'intermediate|expert|champion; Name=cpu:LEVEL or Name:LEVEL names '
                        'a computer)')
    p.add_argument("--demo", action="store_true",
                   help="computers play every seat (the people of --players too)")
    p.add_argument("--plain", action="store_true",
                   help="line prompts instead of the full-screen game (screen readers, pipes)")
    p.add_argument("--seed", type=whole("seed", 0, 2**63 - 1), default=None,
                   help="random seed (same seed, same dice)")
    p.add_argument("--speed", choices=["slow", "normal", "fast", "instant"], default=None,
                   help="how fast computer players move")
    bell = p.add_mutually_exclusive_group()
    bell.add_argument("--sound", dest="sound", action="store_true", default=None,
                      help="ring the terminal bell on roll and score")
    bell.add_argument("--no-sound", dest="sound", action="store_false", help="no bell")
    p.add_argument("--resume", metavar="ID", default=None,
                   help="continue a saved game as it was saved: its variant, options and "
                        "players (ids: `yacht resume`)")
    p.add_argument("--target", type=whole("target", 0, 100_000), default=None, metavar="N",
                   help="the score a cpu:champion plays to reach when alone (default: one "
                        "more than its best in the top ten, else the expert's expected score)")
    p.add_argument("--db", metavar="URL", help=GAMES_DB_HELP)
    p.set_defaults(func=cmd_play)


def launch_from_args(args: argparse.Namespace) -> Any:
    from yacht.parsing import parse_game_id, parse_options, parse_ruleset
    from yacht.session import Launch, parse_players

    players = None
    if args.players is not None:
        players = parse_players(args.players)
    options = parse_options(args.option)
    resume = parse_game_id(args.resume) if args.resume is not None else None
    if resume is not None and (players is not None or args.demo):
        raise CliError(f"{'--players' if players is not None else '--demo'} starts a new "
                       "game; --resume goes on with the saved game's players (give only one)")
    variant = None
    if resume is None and (args.variant is not None or options):
        rs = parse_ruleset(args.variant or "yahtzee", options)
        variant = rs.id
        if players is not None and not rs.min_players <= len(players) <= rs.max_players:
            raise CliError(f"{rs.id} takes {rs.min_players}-{rs.max_players} players, "
                           f"not {len(players)}")
    return Launch(variant=variant, options=options, players=players, demo=args.demo,
                  seed=args.seed, resume=resume, speed=args.speed, sound=args.sound)


def strategy_factory(target: int | None) -> Any:
    """The computer players of `yacht play` (None: the session's own; with ``target``: a
    champion plays to reach it)."""
    if target is None:
        return None

    def make(level: str, ruleset: Any) -> Any:
        from yacht.strategy import make_player

        return make_player(ruleset, level, target=target)

    return make


def saved_game_to_play(prefix: str, variant: str | None, options: dict[str, str]) -> str:
    """The id of the saved game ``--resume`` names, when it can be played on: not
    finished, and of the VARIANT and options given with it, if any (the saved game's are
    the ones played; a game of others is refused). A store that cannot be read here is
    left to the game, which says so."""
    from yacht.parsing import parse_ruleset
    from yacht.render import key_title
    from yacht.session import SessionError, unfinished_game
    from yacht.store import StoreError, open_store

    try:
        store = open_store(None, readonly=True)
    except StoreError:
        return prefix
    try:
        game_id = unfinished_game(store, prefix)
        key = store.game_info(game_id).key
    except (SessionError, StoreError) as e:
        raise CliError(str(e)) from None
    finally:
        store.close()
    if variant is None and not options:
        return game_id
    saved_id, *items = key.split(";")
    saved = dict(item.partition("=")[::2] for item in items)
    given = parse_ruleset(variant or saved_id, options)
    if given.id != saved_id or any(saved.get(k) != given.option_values.get(k)
                                   for k in options):
        raise CliError(f"game {game_id} is {key_title(key)}, not {key_title(given.key)}: "
                       "--resume goes on with the saved game as it is (leave out VARIANT "
                       "and --option)")
    return game_id


def _ruleset_to_play(launch: Any) -> Any:
    """The variant a new game of ``launch`` is played in: the one given, else the setup's
    (with the setup's options for it)."""
    from yacht.rules import get

    if launch.variant is not None:
        return get(launch.variant, launch.options)
    from yacht.session import load_config

    config = load_config()
    return get(config.variant, config.options.get(config.variant, {}))


def cmd_play(args: argparse.Namespace) -> int:
    check_db(args.db)
    if args.db is not None:  # (the games read the store from $YACHT_DB, as with yacht
        # daily --db: a game of daily --db FILE goes on with `yacht play --plain --resume
        # ID --db FILE`, the line game's words for it)
        os.environ["YACHT_DB"] = args.db
    launch = launch_from_args(args)
    target = getattr(args, "target", None)
    seats = launch.players
    if target is not None and seats is None and launch.resume is None:
        # (no --players: the setup's players play; --target was ignored silently when
        # they were not a champion alone)
        from yacht.session import demo_players, load_config

        seats = load_config().players
        if launch.demo:
            seats = demo_players(seats)
    if target is not None and seats is not None and not (
            len(seats) == 1 and seats[0].kind == "champion"):
        raise CliError(f"--target {target} is for a cpu:champion playing alone (it plays to "
                       "reach that score): give --players NAME=cpu:champion")
    if target is not None and launch.resume is None:
        # (a target above the highest total was played towards silently: every chance 0)
        reachable_target(_ruleset_to_play(launch), target)
    if launch.resume is not None:  # (a finished game is said before a screen opens)
        launch.resume = saved_game_to_play(launch.resume, args.variant, launch.options)
    factory = strategy_factory(target)
    kw: dict[str, Any] = {"strategy_factory": factory} if factory is not None else {}
    store, note = _named_store(args.db)
    if store is not None:
        kw["store"] = store
    try:
        if args.plain or not sys.stdout.isatty() or not sys.stdin.isatty():
            from yacht.plain import run_plain
            from yacht.session import SessionError

            if note:  # (the line game's words, had it opened the store itself)
                print(f"Note: {note}", flush=True)
            try:
                return run_plain(launch, sys.stdin, sys.stdout, **kw)
            except SessionError as e:
                raise CliError(str(e)) from None
        from yacht.tui import make_app

        app = make_app(launch, **kw)
        if note:  # (a notice in the game, as when it opens the store itself)
            app.store_note = note
        return int(app.run() or 0)
    finally:
        if store is not None:
            store.close()


def _named_store(db: str | None) -> tuple[Any, str | None]:
    """The store of ``--db`` and the line that says it was upgraded as it was opened (None,
    None without --db: the game opens the usual one, or plays unsaved when it cannot).
    A database named that cannot be opened is an error: the game was played unsaved,
    under a warning, in a database other than the one asked for."""
    if db is None:
        return None, None
    from yacht.session import upgrade_note
    from yacht.store import StoreError, open_store

    try:
        store = open_store(db)
    except StoreError as e:
        raise CliError(str(e)) from None
    return store, upgrade_note(store)
