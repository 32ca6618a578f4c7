"""`yacht simulate`: many solitaire games by a computer player, with statistics."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
import threading
import time
from typing import Any, TextIO

from yacht.cli.common import (
    CliError,
    HelpText,
    add_variant_args,
    emit_json,
    reachable_target,
    ruleset_from_args,
    text_width,
    whole,
)
from yacht.render import progress_line

ORDER = 40

MAX_GAMES = 100_000_000
SEED_MAX = 2**63 - 1


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate", help="play many games by a computer player and show the statistics",
        description="Play solitaire games of VARIANT by a computer player and report the "
                    "mean, standard deviation, percentiles, a histogram, the upper-bonus "
                    "rate and the yacht rate. The same seed gives the same games, whatever "
                    "the number of workers.", epilog="levels: {level_help}",
        formatter_class=_Help)
    add_variant_args(p)
    p.add_argument("-n", "--games", type=whole("games", 1, MAX_GAMES), default=1000,
                   metavar="N",
                   help="how many games (default 1000)")
    p.add_argument("-p", "--player", "--level", dest="player", default="expert",
                   metavar="LEVEL",
                   help="computer player: {levels} (default expert)")
    p.add_argument("--seed", type=whole("seed", 0, SEED_MAX), default=None,
                   help="random seed (default: a new one, shown in the output)")
    p.add_argument("-w", "--workers", type=whole("workers", 1, 64), default=None, metavar="N",
                   help="worker processes (default: 2, or fewer when the machine has fewer "
                        "cores)")
    p.add_argument("--target", type=whole("target", 0, 100_000), default=None, metavar="N",
                   help="the score the champion plays to reach (default: the expert's "
                        "expected score, rounded); for any level, the share of games that "
                        "reached it is shown")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_simulate)


class _Help(HelpText):
    """Help with the computer levels filled in when it is shown (`yacht --help` stays quick:
    the levels live with the players)."""

    def _format_text(self, text: str) -> str:
        if "{level_help}" in text:
            from yacht.strategy.base import LEVEL_HELP

            text = text.replace("{level_help}", "; ".join(
                f"{name}: {what}" for name, what in LEVEL_HELP.items()))
        return super()._format_text(text)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text and "{levels}" in text:
            from yacht.strategy.base import LEVELS

            text = text.replace("{levels}", ", ".join(LEVELS))
        return text


class ProgressBar:
    """A one-line progress bar on a terminal; silent for short runs.

    It appears once the run has lasted ``delay`` seconds and is erased at the end.
    """

    def __init__(self, stream: TextIO, label: str, delay: float = 1.0, width: int = 30,
                 unit: str = "games"):
        self.unit = unit   # "%": the share done, not the counts
        self.stream = stream
        self.label = label
        self.delay = delay
        self.width = width
        self.start = time.monotonic()
        self.shown = False
        self.drawn = 0   # the width of the line drawn last
        self.columns = shutil.get_terminal_size((80, 24)).columns

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay or total <= 0:
            return
        self.shown = True
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = f", {(total - done) / rate:.0f} s left" if rate > 0 and done < total else ""
        count = (f"{100 * done // total}%" if self.unit == "%" else
                 f"{done}/{total} {self.unit}")
        line = progress_line(self.label, done, total, self.columns, count + eta, self.width)
        self.stream.write(f"\r{line:<{self.drawn}}")   # (over all of the line before)
        self.drawn = len(line)
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def cmd_simulate(args: argparse.Namespace) -> int:
    from yacht.cli.interrupt import run_interruptible
    from yacht.strategy.base import LEVELS, UnknownLevel
    from yacht.strategy.simulate import SimulationResult, simulate

    rs = ruleset_from_args(args.variant, args.option)
    if args.target is not None:
        reachable_target(rs, args.target)
    level = args.player.strip().lower()
    if level not in LEVELS:
        raise CliError(f"unknown player level {args.player!r} (accepted: "
                       f"{', '.join(LEVELS)})")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    workers = args.workers or default_workers()
    bar = None
    if not args.json and sys.stderr.isatty():
        bar = ProgressBar(sys.stderr, f"{rs.id} {level}")

    def run(stop: threading.Event) -> SimulationResult:
        return simulate(rs, level, args.games, seed, workers=workers, progress=bar,
                        solve_progress=bar is not None, stop=stop, target=args.target)

    try:
        result = run_interruptible(run)
    except UnknownLevel as e:
        raise CliError(str(e)) from None
    except ImportError as e:
        raise CliError(f"the {level} player is not available in this installation ({e})") from None
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        emit_json(result.to_json())
    else:
        from yacht.render import wrap_text

        print(wrap_text(result.text(), text_width()))
    return 0
