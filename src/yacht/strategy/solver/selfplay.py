"""Fast expert self-play: one-player games played by the solved policy in machine code."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .build import Solution, _kernel_args, placement_rows, tile_width, wide_ok
from .dice import proper_subsets, sweep_tables

__all__ = ["SelfPlayResult", "fast_selfplay"]


@dataclass(frozen=True)
class SelfPlayResult:
    """Per-game results of :func:`fast_selfplay` (arrays of length ``games``)."""

    totals: npt.NDArray[np.int32]
    upper_bonus: npt.NDArray[np.bool_]
    yachts: npt.NDArray[np.int16]
    seconds: float

    @property
    def mean(self) -> float:
        return float(self.totals.mean()) if len(self.totals) else 0.0


def forced_args(solution: Solution) -> tuple[Any, ...]:
    """The forced-first-turn arguments of the self-play kernels (box -1: none)."""
    spec = solution.spec
    ft = spec.forced
    if ft is None:
        return (-1, np.zeros((1, spec.dice.nall)), 0, 0, 1, 0, 1)
    assert solution.forced_keep is not None
    return (ft.box, np.ascontiguousarray(solution.forced_keep), ft.points, ft.free_rolls,
            ft.penalty, ft.floor, ft.last_roll)


def fast_selfplay(solution: Solution, games: int, seed: int = 0,
                  workers: int = 2) -> SelfPlayResult:
    """Play ``games`` solitaire games by the optimal policy of ``solution``.

    Game ``g`` draws from its own random stream (from ``seed`` and ``g``), so
    the results do not depend on ``workers``.

    >>> from yacht.rules import get
    >>> from yacht.strategy.solver import solve
    >>> r = fast_selfplay(solve(get("tommys-crag")), games=200, seed=1)
    >>> r.totals.shape, bool(r.totals.min() >= 0)
    ((200,), True)
    """
    from . import kernels

    play_games: Any = kernels.play_games

    if games < 0:
        raise ValueError("games must be >= 0")
    spec = solution.spec
    t = spec.dice
    totals = np.zeros(games, dtype=np.int64)
    bonus = np.zeros(games, dtype=np.bool_)
    yachts = np.zeros(games, dtype=np.int64)
    fargs = forced_args(solution)
    args = _kernel_args(spec)
    seed64 = int(seed) % (1 << 64)

    subs, nsubs = proper_subsets(t.n, t.faces)
    dice = (t.n, t.code_index, t.counts.astype(np.int64), t.size.astype(np.int64), subs, nsubs)
    if not wide_ok(spec):
        # a repeat leaves the card as it was: games differ in length, play them one by one
        def run(lo: int, hi: int) -> None:
            play_games(lo, hi, seed64, solution.V, *args, t.up, t.pairs, t.full_start,
                       t.faces, spec.rolls, *dice, *fargs, totals[lo:hi], bonus[lo:hi],
                       yachts[lo:hi])
    else:
        from . import wide

        play_wide: Any = wide.play_wide
        wargs = (solution.V, *args, *placement_rows(spec), *sweep_tables(t.n, t.faces),
                 t.full_start, t.faces, spec.rolls, *dice)
        tile = tile_width(spec)

        def run(lo: int, hi: int) -> None:
            play_wide(lo, hi, seed64, *wargs, *fargs, tile, totals[lo:hi], bonus[lo:hi],
                      yachts[lo:hi])

    t0 = time.perf_counter()
    workers = max(1, int(workers))
    if workers == 1 or games < 64:
        run(0, games)
    else:
        chunks = max(workers * 4, 1)
        edges = [games * i // chunks for i in range(chunks + 1)]
        with ThreadPoolExecutor(workers) as ex:
            list(ex.map(lambda i: run(edges[i], edges[i + 1]), range(chunks)))
    return SelfPlayResult(totals.astype(np.int32), bonus, yachts.astype(np.int16),
                          time.perf_counter() - t0)
