"""Fast expert self-play: one-player games played by the solved policy in machine code."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .backend import current as backend
from .build import Solution
from .tables import wide_ok

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


def forced_args(solution: Solution) -> tuple[tuple[int, ...], npt.NDArray[np.float64]]:
    """The forced first turn for the self-play kernels: (box, points, free rolls,
    penalty, floor, last roll) with box -1 when there is none, and the keep table."""
    spec = solution.spec
    ft = spec.forced
    if ft is None:
        return (-1, 0, 0, 1, 0, 1), np.zeros((2, spec.dice.nall))
    assert solution.forced_keep is not None
    return ((ft.box, ft.points, ft.free_rolls, ft.penalty, ft.floor, ft.last_roll),
            np.ascontiguousarray(solution.forced_keep, dtype=np.float64))


def fast_selfplay(solution: Solution, games: int, seed: int = 0, workers: int = 2,
                  start: tuple[int, int, int, int] | None = None) -> SelfPlayResult:
    """Play ``games`` solitaire games by the optimal policy of ``solution``.

    Game ``g`` draws from its own random stream (from ``seed`` and ``g``), so
    the results do not depend on ``workers``. ``start`` = (mask, aux, outcome
    or -1, rolls left) plays the games from that situation instead of an empty
    card (outcome -1: from the start of a turn); the totals then count the
    points scored from there on.

    >>> from yacht.rules import get
    >>> from yacht.strategy.solver import solve
    >>> r = fast_selfplay(solve(get("tommys-crag")), games=200, seed=1)
    >>> r.totals.shape, bool(r.totals.min() >= 0)
    ((200,), True)
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    spec = solution.spec
    totals = np.zeros(games, dtype=np.int64)
    bonus = np.zeros(games, dtype=np.bool_)
    yachts = np.zeros(games, dtype=np.int64)
    forced, fkeep = forced_args(solution)
    if start is None:
        st = (0, 0, 0, -1, 0)
    else:
        m, a, d, r = start
        st = (m, a % spec.U, a // spec.U, d, r)
    t0 = time.perf_counter()
    if games:
        backend().play(spec, solution.V, games, int(seed) % (1 << 64), st, forced, fkeep,
                       totals, bonus, yachts, wide_ok(spec), max(1, int(workers)))
    return SelfPlayResult(totals.astype(np.int32), bonus, yachts.astype(np.int16),
                          time.perf_counter() - t0)
