"""Score distributions (solver/dist.py): size, build time, and a check against the self-play.

For each variant: the distributions are loaded from the cache or built (``--fresh``:
built, not read nor written), their cells, bytes and build seconds; then ``--games``
games of the solver's self-play (machine code, seed ``--seed``) from the empty card,
whose mean and the share of games at most each quantile of the exact distribution
are compared with the exact figures: ``z`` is the difference in standard errors
(|z| < 3 expected for every line).

Where a turn's first roll can end a game with opponents at once (Generala's served
Generala), a second line checks the chances of winning at a 2-player table: the
games are paired (games 2g and 2g + 1 are seats 1 and 2 of table game g), a table
game ends at the first turn, in seat order, whose first roll ends it, or else on the
totals; the share of table games each seat wins (a tie a win for both) is compared
with :func:`~yacht.strategy.solver.dist.table_win_chances` on the distributions of a
game that runs to its end (``--games`` solitaire games, so half as many table games).

    .venv/bin/python benchmarks/distributions.py yahtzee yatzy --games 100000
    .venv/bin/python benchmarks/distributions.py --fresh tommys-crag

Prints Markdown (with the load average and the commit).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

import numpy as np
from _cli import variant

from yacht.rules import get
from yacht.strategy.solver import fast_selfplay
from yacht.strategy.solver.build import solve
from yacht.strategy.solver.dist import build, distributions, end_chance, table_win_chances
from yacht.strategy.solver.selfplay import python_selfplay

QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("variants", nargs="*", type=variant, default=["yahtzee", "yatzy"])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fresh", action="store_true", help="build, do not use the cache")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"commit {commit}, load before: {_load()}")
    print("| variant | cells | MB | build s (CPU s) | loaded in s | games | mean exact / "
          "games (z) | worst quantile z |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.variants:
        rs = get(name)
        sol = solve(rs, estimate=False)
        t0, c0 = time.perf_counter(), time.process_time()
        dd = build(sol) if args.fresh else distributions(rs)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        lo, pmf = dd.final(rs.new_card(), 0)
        xs = np.arange(lo, lo + len(pmf))
        mean = float(np.dot(pmf, xs))
        sd = float(np.sqrt(np.dot(pmf, (xs - mean) ** 2)))
        end = end_chance(rs)
        played = (python_selfplay(sol, args.games, seed=args.seed) if end > 0 else
                  fast_selfplay(sol, args.games, seed=args.seed, workers=2))
        totals = played.totals
        z_mean = (float(totals.mean()) - mean) / (sd / np.sqrt(args.games))
        cdf = np.cumsum(pmf)
        worst = 0.0
        for q in QUANTILES:
            i = int(np.searchsorted(cdf, q))
            p = float(cdf[i])
            got = float((totals <= xs[i]).mean())
            z = (got - p) / np.sqrt(max(p * (1 - p), 1e-12) / args.games)
            worst = z if abs(z) > abs(worst) else worst
        build_s = f"{dd.seconds:.1f}" + (f" ({cpu:.1f})" if dd.built else "")
        print(f"| {name} | {dd.cells:,} | {dd.nbytes / 2**20:.0f} | {build_s} | "
              f"{'-' if dd.built else f'{secs:.2f}'} | {args.games:,} | {mean:.3f} / "
              f"{float(totals.mean()):.3f} ({z_mean:+.2f}) | {worst:+.2f} |", flush=True)
        if end > 0:
            assert played.ends is not None
            _table(rs, played.totals, played.ends, end, args.fresh)
    print(f"load after: {_load()}")
    return 0


def _table(rs: object, totals: np.ndarray, ends: np.ndarray, end: float, fresh: bool) -> None:
    """The 2-player table check (see the module doc)."""
    from yacht.rules import Ruleset

    assert isinstance(rs, Ruleset)
    sol = solve(rs, estimate=False)
    dd = build(sol, ending=True) if fresh else distributions(rs, table=True)
    final = dd.final(rs.new_card(), 0)
    turns = sum(len(col) for col in rs.new_card().boxes)
    exact = table_win_chances([final, final], [turns, turns], 0, end)
    g = len(totals) // 2
    t0, t1 = totals[0:2 * g:2], totals[1:2 * g:2]
    e0, e1 = ends[0:2 * g:2].astype(np.int64), ends[1:2 * g:2].astype(np.int64)
    big = 10 ** 6
    s0 = np.where(e0 >= 0, 2 * e0, big)        # the table slot of each seat's ending turn
    s1 = np.where(e1 >= 0, 2 * e1 + 1, big)
    ended = (s0 < big) | (s1 < big)
    win0 = np.where(ended, s0 < s1, t0 >= t1)
    win1 = np.where(ended, s1 < s0, t1 >= t0)
    cells = []
    for seat, won in enumerate((win0, win1)):
        p = exact[seat]
        z = (float(won.mean()) - p) / np.sqrt(p * (1 - p) / g)
        cells.append(f"seat {seat + 1}: {100 * p:.3f} % / {100 * float(won.mean()):.3f} % "
                     f"(z {z:+.2f})")
    print(f"| {rs.id}, 2 players: chance of winning exact / {g:,} table games "
          f"({100 * float(ended.mean()):.2f} % ended by a first roll, exact "
          f"{100 * (1 - (1 - end) ** (2 * turns)):.2f} %) | {'; '.join(cells)} |", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
