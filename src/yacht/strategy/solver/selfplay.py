"""Fast expert self-play: one-player games played by the solved policy in machine code."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .backend import current as backend
from .build import Solution
from .numbers import whole
from .tables import wide_ok

__all__ = ["SelfPlayResult", "fast_selfplay", "python_selfplay"]


@dataclass(frozen=True)
class SelfPlayResult:
    """Per-game results of :func:`fast_selfplay` (arrays of length ``games``)."""

    totals: npt.NDArray[np.int32]
    upper_bonus: npt.NDArray[np.bool_]
    yachts: npt.NDArray[np.int16]
    seconds: float
    #: (:func:`python_selfplay` only) the first turn, counted from 0, whose first roll
    #: would end a game with opponents at once (Generala's served Generala), -1 if none
    ends: npt.NDArray[np.int16] | None = None

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
    games = whole(games, "games", lo=0)
    seed = whole(seed, "seed")
    spec = solution.spec
    if not spec.machine_play:
        return python_selfplay(solution, games, seed, start)
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


def python_selfplay(solution: Solution, games: int, seed: int = 0,
                    start: tuple[int, int, int, int] | None = None) -> SelfPlayResult:
    """:func:`fast_selfplay` in Python, for the tables the kernels' self-play cannot play
    (a bonus by steps, paid at the end; served boxes and a box needing another). The
    same policy as the advisor's; its own random streams (numpy's, from ``seed``)."""
    from .dice import proper_subsets

    spec = solution.spec
    t = spec.dice
    U, R, fs = spec.U, spec.rolls, t.full_start
    subs, nsubs = proper_subsets(t.n, t.faces)
    full = (1 << spec.nbox) - 1
    rng = np.random.default_rng(int(seed) % (1 << 64))
    totals = np.zeros(games, dtype=np.int32)
    bonus = np.zeros(games, dtype=np.bool_)
    yachts = np.zeros(games, dtype=np.int16)
    V = solution.V
    ends = np.full(games, -1, dtype=np.int16)
    from .dist_extended import ending_outcomes

    try:
        ending = ending_outcomes(spec.ruleset, t)
    except ValueError:
        ending = np.zeros(t.nfull, dtype=np.bool_)
    t0 = time.perf_counter()

    def roll(counts: npt.NDArray[np.int64], k: int) -> int:
        out = counts.copy()
        if k:
            out += np.bincount(rng.integers(0, t.faces, k), minlength=t.faces)
        return t.index_of_counts(tuple(int(c) for c in out))

    def place(m: int, u: int, flag: int, d: int, first: bool) -> tuple[float, int, int, int, int]:
        best: tuple[float, int, int, int, int] | None = None
        table = spec.served if first and spec.served is not None else spec.score
        for b in range(spec.nbox):
            if (m >> b) & 1:
                continue
            pts = int(table[b, d])
            if b == spec.needs_box and not flag:
                pts = 0
            nflag = (1 if pts > 0 else 0) if b == spec.flag_box and spec.nflag == 2 else flag
            upper = U > 1 and bool(spec.box_upper[b])
            nu = min(U - 1, u + pts) if upper else u
            gain = pts * int(spec.box_mult[b])
            if upper and spec.bonus_table is None and u < spec.need <= u + pts:
                gain += spec.bonus_amt
            value = gain + float(V[m | (1 << b), nflag * U + nu])
            if best is None or value > best[0]:
                best = (value, b, gain, nu, nflag)
        assert best is not None
        return best

    for g in range(games):
        m, a, d0, r0 = start if start is not None else (0, 0, -1, 0)
        u, flag = a % U, a // U
        u0 = u
        total = 0
        first_turn = True
        pool = 0
        turn = 0
        while m != full:
            _, Ks = solution.turn_tables(m, flag * U + u)
            rolls = R + pool if spec.pool else R
            if first_turn and d0 >= 0:
                idx, left = fs + d0, r0
            else:
                idx, left = roll(np.zeros(t.faces, dtype=np.int64), t.n), rolls - 1
                if ends[g] < 0 and ending[idx - fs]:
                    ends[g] = turn
            first_turn = False
            turn += 1
            while left > 0:
                d = idx - fs
                stop = place(m, u, flag, d, left == rolls - 1)[0] + solution.carry_value(left, m)
                ks = subs[d, :nsubs[d]]
                vals = Ks[min(left, solution.plan_levels) - 1, ks]
                k = int(np.argmax(vals))
                if stop >= float(vals[k]):
                    break
                idx = roll(np.asarray(t.counts[ks[k]], dtype=np.int64), t.n - int(t.size[ks[k]]))
                left -= 1
            d = idx - fs
            _, b, gain, u, flag = place(m, u, flag, d, left == rolls - 1)
            pool = left
            yachts[g] += bool(t.is_yacht[d])
            total += gain
            m |= 1 << b
        if spec.bonus_table is not None:  # what the steps add from the start on
            total += int(spec.bonus_table[u]) - int(spec.bonus_table[u0])
        totals[g] = total
        bonus[g] = U > 1 and u >= spec.low_need
    return SelfPlayResult(totals, bonus, yachts, time.perf_counter() - t0, ends)
