"""The proven upper bound of Maxi Yatzy with saved rolls at a few prices a roll (issue 25).

Each price builds the relaxed game of :func:`yacht.strategy.solver.pool.relaxed_bound`
(the game without saved rolls, turn k rolling up to 3 + 2k times, every roll costing the
price) with the kernels; every price gives a valid bound, the lowest is the one to keep.
The bound is convex in the price, so a few prices around the best bracket it.

    nice -n 10 .venv/bin/python benchmarks/maxi_bound.py 6 5 7     # prices a roll
    nice -n 10 .venv/bin/python benchmarks/maxi_bound.py 4..2      # a price a turn

``A..B`` is a price a turn going evenly from A (the first turn) to B (the last), never
rising (A >= B: see pool.py for why the prices of later turns may not be higher); a
list ``p1,p2,...,p20`` gives every turn's. Prints one JSON line per price: the price,
the bound, the build's seconds and the load average at its start (the machine is
shared).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
from _cli import parser

from yacht.rules import get
from yacht.strategy.solver.pool import relaxed_bound

TURNS = 20


def price_of(arg: str) -> float | tuple[float, ...]:
    """One price, ``A..B`` (from A to B evenly over the turns) or a list a turn."""
    try:
        return _price(arg)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"price {arg!r} is not a number, A..B or a list of {TURNS} numbers") from None


def _price(arg: str) -> float | tuple[float, ...]:
    if ".." in arg:
        a, b = (float(x) for x in arg.split(".."))
        return tuple(float(x) for x in np.linspace(a, b, TURNS))
    if "," in arg:
        prices = tuple(float(x) for x in arg.split(","))
        if len(prices) != TURNS:
            raise ValueError(arg)
        return prices
    return float(arg)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("prices", nargs="*", type=price_of, default=[6.0],
                    help="prices a roll (default: 6)")
    prices = ap.parse_args(argv).prices
    rs = get("maxi-yatzy")
    for price in prices:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        bound = relaxed_bound(rs, price, workers=2)
        shown = price if isinstance(price, float) else [round(p, 4) for p in price]
        print(json.dumps({"price": shown, "bound": round(bound, 4),
                          "seconds": round(time.perf_counter() - t0, 1),
                          "load": round(load, 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
