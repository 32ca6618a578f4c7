"""How long a game's analysis takes once the tables are cached (issue 15).

For each variant: games of 1 and 2 players (a beginner, and a beginner against an
intermediate, so that there are mistakes to rank) are played through the engine
with fixed seeds; each is then analysed in this process after a first analysis
has loaded the variant's table (the "tables cached" case a player sees at the
end of a game): the decisions alone (``win_games=0``) and with the chances of
winning (the default number of expert games per player and turn). Also the
whole `yacht analyse RECORD` process, as a user runs it (start-up, imports,
loading the table from the disk cache).

    .venv/bin/python benchmarks/bench_analysis.py                  # 5-dice variants
    .venv/bin/python benchmarks/bench_analysis.py yahtzee yatzy     # some
    .venv/bin/python benchmarks/bench_analysis.py maxi-yatzy --option saved_rolls=off

Prints a Markdown table (and the load average).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _cli import parser, variant

from yacht.engine import Player, Record, State
from yacht.rules import get
from yacht.strategy.analysis import WIN_GAMES, analyse
from yacht.strategy.base import make_player, play_turn

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["yahtzee", "yatzy", "tommys-yahtzee", "tommys-crag", "windows-yacht"]


def game(name: str, levels: list[str], seed: int,
         options: dict[str, str] | None = None) -> Record:
    rs = get(name, options or None)
    players = [make_player(rs, lv) for lv in levels]
    s = State(rs, [Player(f"P{i + 1}", "computer", lv) for i, lv in enumerate(levels)],
              rng=random.Random(seed))
    while not s.is_terminal():
        play_turn(s, players[s.current])
    return Record.from_state(s)


def timed(fn: object, repeat: int = 3) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    ap = parser(__doc__)
    ap.add_argument("variants", nargs="*", type=variant,
                    help=f"variant ids or aliases (default: {' '.join(DEFAULT)})")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a variant option for every variant given (repeatable)")
    args = ap.parse_args()
    names = args.variants or DEFAULT
    options = dict(o.split("=", 1) for o in args.option if "=" in o)
    if len(options) != len(args.option):
        ap.error("--option takes NAME=VALUE")
    print(f"load before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| variant | players | decisions only (in process) | with chances of winning "
          f"({WIN_GAMES} games per player and turn) | whole `yacht analyse` process |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            for levels in (["beginner"], ["beginner", "intermediate"]):
                rec = game(name, levels, seed=7, options=options)
                analyse(rec, win_games=0)  # the table: loaded (built the first time)
                alone = timed(lambda rec=rec: analyse(rec, win_games=0))
                whole = timed(lambda rec=rec: analyse(rec), repeat=1) if len(levels) > 1 else []
                path = Path(tmp) / f"{name}-{len(levels)}.json"
                rec.save(str(path))
                proc = timed(lambda path=path: subprocess.run(
                    [str(Path(sys.executable).parent / "yacht"), "analyse", str(path)],
                    check=True, stdout=subprocess.DEVNULL), repeat=1)
                print(f"| {name} | {len(levels)} | {statistics.median(alone) * 1000:.0f} ms "
                      f"(median of 3) | "
                      f"{f'{whole[0]:.2f} s' if whole else '-'} | {proc[0]:.2f} s |")
    print(f"load after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
