"""Score distributions (solver/dist.py): size, build time, and a check against the self-play.

For each variant: the distributions are loaded from the cache or built (``--fresh``:
built, not read nor written), their cells, bytes and build seconds; then ``--games``
games of the solver's self-play (machine code, seed ``--seed``) from the empty card,
whose mean and the share of games at most each quantile of the exact distribution
are compared with the exact figures: ``z`` is the difference in standard errors
(|z| < 3 expected for every line).

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
from yacht.strategy.solver.dist import build, distributions

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
        totals = fast_selfplay(sol, args.games, seed=args.seed, workers=2).totals
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
    print(f"load after: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
