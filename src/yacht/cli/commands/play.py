"""`yacht play`: the game, full-screen (Textual) or as line prompts (--plain)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from yacht.cli.common import CliError, add_variant_args, whole

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
                        'intermediate|expert|champion; Name=cpu:LEVEL names a computer)')
    p.add_argument("--demo", action="store_true", help="computers play every seat")
    p.add_argument("--plain", action="store_true",
                   help="line prompts instead of the full-screen game (screen readers, pipes)")
    p.add_argument("--seed", type=whole("seed", 0, 2**63 - 1), default=None,
                   help="random seed (same seed, same dice)")
    p.add_argument("--speed", choices=["slow", "normal", "fast", "instant"], default=None,
                   help="how fast computer players move")
    p.add_argument("--sound", dest="sound", action="store_true", default=None,
                   help="ring the terminal bell on roll and score")
    p.add_argument("--no-sound", dest="sound", action="store_false", help="no bell")
    p.add_argument("--resume", metavar="ID", default=None,
                   help="continue a saved game (ids: `yacht resume`)")
    p.add_argument("--target", type=whole("target", 0, 100_000), default=None, metavar="N",
                   help="the score a cpu:champion plays to reach when alone (default: one "
                        "more than its best in the top ten, else the expert's expected score)")
    p.set_defaults(func=cmd_play)


def launch_from_args(args: argparse.Namespace) -> Any:
    from yacht.parsing import parse_game_id, parse_options, parse_ruleset
    from yacht.session import Launch, parse_players

    players = None
    if args.players is not None:
        players = parse_players(args.players)
    options = parse_options(args.option)
    resume = parse_game_id(args.resume) if args.resume is not None else None
    variant = None
    if args.variant is not None or options:
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

        return make_player(level, ruleset, target=target)

    return make


def cmd_play(args: argparse.Namespace) -> int:
    launch = launch_from_args(args)
    factory = strategy_factory(getattr(args, "target", None))
    if args.plain or not sys.stdout.isatty() or not sys.stdin.isatty():
        from yacht.plain import run_plain
        from yacht.session import SessionError

        try:
            return run_plain(launch, sys.stdin, sys.stdout, strategy_factory=factory)
        except SessionError as e:
            raise CliError(str(e)) from None
    from yacht.tui import make_app

    app = make_app(launch, strategy_factory=factory) if factory is not None else make_app(launch)
    result = app.run()
    return int(result or 0)
