"""The score distributions' build with the C quantizing kernel and with its numpy twin.

Run from the repository root (a cache of its own; two builds per variant, one after
the other in this process, CPU seconds by ``time.process_time``):

    YACHT_CACHE_DIR=$(mktemp -d) nice -n 10 .venv/bin/python benchmarks/quantize.py yahtzee

Prints whether the two tables are the same (every array equal) and the CPU seconds
of each build.
"""

from __future__ import annotations

import time

import numpy as np
from _cli import parser, variant


def main() -> None:
    from yacht.rules import get
    from yacht.strategy.solver import dist, solve
    from yacht.strategy.solver import reference as ref

    ap = parser(__doc__)
    ap.add_argument("variants", nargs="*", type=variant, default=["tommys-crag"],
                    help="variant ids or aliases (default: tommys-crag)")
    for name in ap.parse_args().variants:
        rs = get(name)
        sol = solve(rs, estimate=False)
        t = time.process_time()
        a = dist.build(sol)
        c_kernel = time.process_time() - t
        kept = dist._quantize
        dist._quantize = lambda P, pos, lo, ln: ref.quantize(P, pos, lo, ln, dist.STEPS)
        try:
            t = time.process_time()
            b = dist.build(sol)
            numpy_twin = time.process_time() - t
        finally:
            dist._quantize = kept
        same = all(np.array_equal(getattr(a, k), getattr(b, k))
                   for k in ("off", "lo", "length", "C"))
        print(f"{name}: {'the same' if same else 'DIFFERENT'} tables, {a.cells:,} cells; "
              f"C kernel {c_kernel:.2f} CPU s, numpy {numpy_twin:.2f} CPU s", flush=True)


if __name__ == "__main__":
    main()
