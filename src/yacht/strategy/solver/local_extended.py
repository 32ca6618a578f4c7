"""Chance tables from a given card for rules the turn kernel does not know (served
boxes, a box that scores only while another holds points: Generala), in numpy.

:mod:`.local` answers, with the kernels, "what play from this card gives the most
expected worth of the final total?" for a worth ``F(x)`` (the chance that ``x``
wins). This module answers it for Generala's rules, with the recurrences of
:mod:`.extended` (its keeps by :func:`.extended.keep_levels`, the served placements
at a turn's first roll), carried for every total the card can reach at once: a
state's row holds its worth for each number of points scored from the card on.

At a table a turn's first roll can end the game at once (a served Generala): the
rows are then those of a game that runs to its end (such a roll is taken out of the
first roll and the others' chances scaled up), and the chance that one ends it is
counted apart (:func:`.dist.ending_terms`), as for the distributions.

The rows are written in the form :func:`.dist_extended.turn_chances` reads, so a
turn is ranked from them as from the one-turn look-ahead's rows.

>>> import numpy as np
>>> from yacht.rules import get
>>> from .spec import compiled
>>> spec = compiled(get("generala"))
>>> from yacht.strategy.advisor import parse_card
>>> from yacht.strategy.solver import solve
>>> card = parse_card(get("generala"), "ones=0,twos=0,threes=0,fours=0,fives=0,sixes=0,"
...                   "escalera=0")
>>> rows = plan_rows(spec, card, 0, np.arange(1000.0), ending=False)  # worth: the points
>>> m, a = spec.state_of(card)
>>> bool(abs(rows.value(m, a) - solve(get("generala")).V[m, a]) < 1e-9)  # the expert's
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from yacht.rules import Scorecard

from .spec import Spec, UnsupportedRuleset

__all__ = ["PlanRows", "plan_rows"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@dataclass(eq=False)
class PlanRows:
    """The rows of every state reachable from a card: ``off``, ``wlo``, ``wlen`` per
    state index (``mask * A + aux``; 0 length: not reached) and ``Q``; the row of
    state ``j`` is the best expected worth with ``wlo[j] + x`` points on the card at
    its turn's start, for ``x`` in ``range(wlen[j])``."""

    spec: Spec
    points: int
    off: I64
    wlo: I64
    wlen: I64
    Q: F64
    states: int

    @property
    def arrays(self) -> tuple[I64, I64, I64, F64]:
        return self.off, self.wlo, self.wlen, self.Q

    def row(self, m: int, a: int) -> F64:
        j = m * self.spec.A + a
        if self.wlen[j] == 0:
            raise KeyError(f"state ({m}, {a}) is not reached from the card")
        out: F64 = self.Q[self.off[j]:self.off[j] + self.wlen[j]]
        return out

    def value(self, m: int, a: int) -> float:
        """The worth at the turn's start of state (m, a) with the card's points."""
        return float(self.row(m, a)[0])


def _check(spec: Spec) -> None:
    if spec.ncols != 1 or spec.U != 1 or spec.ybonus or int(np.max(spec.rep_pts, initial=0)):
        raise UnsupportedRuleset(f"{spec.ruleset.id}: these chance tables know one column "
                                 "without an upper total or repeat points")


def _served_at(level: int, served: F64) -> Callable[[int], F64 | None]:
    """What :func:`.extended.keep_levels` takes: the served placements at the first roll."""
    return lambda j: served if j == level else None


def plan_rows(spec: Spec, card: Scorecard, points: int, worth: F64, ending: bool,
              lo: int | None = None) -> PlanRows:
    """The rows from ``card`` (``points`` on it) for the worth of each final total
    ``points + x``: ``worth[x]`` (its last value for any more points); with ``lo``, the
    worth of total ``lo + i`` is ``worth[i]``, 0 below ``lo`` and 1 past its end (as
    :func:`.dist.win_worth` gives it). ``ending``: the first roll's outcomes that end
    the game at once are taken out (a table game)."""
    from .dist_extended import _roll_matrix, ending_outcomes

    _check(spec)
    t = spec.dice
    nb, A, R, fs = spec.nbox, spec.A, spec.rolls, t.full_start
    m0, a0 = spec.state_of(card)
    flag0 = a0 // spec.U
    score = np.asarray(spec.score, dtype=np.int64)[:nb]
    served = np.asarray(spec.served if spec.served is not None else spec.score,
                        dtype=np.int64)[:nb]
    mult = np.asarray(spec.box_mult, dtype=np.int64)[:nb]
    open_ = [b for b in range(nb) if not (m0 >> b) & 1]
    gmax = {b: int(max(score[b].max(), served[b].max())) * int(mult[b]) for b in open_}
    W = 1 + sum(gmax.values())
    final = np.asarray(worth, dtype=np.float64)
    if lo is not None:
        at = points - lo + np.arange(W)
        final = np.where(at < 0, 0.0, np.where(at >= len(final), 1.0,
                                               final[np.clip(at, 0, max(0, len(final) - 1))]))
    final = final[:W] if len(final) >= W else np.concatenate(
        [final, np.full(W - len(final), final[-1] if len(final) else 0.0)])
    # (with lo: from hi_x points on every final total is worth 1, and below a state's
    # window none can reach lo: each state's row is worked out on its window only)
    hi_x = W if lo is None else max(0, min(W, lo + len(worth) - points))
    first = _roll_matrix(t)[0].copy()
    if ending:
        first[ending_outcomes(spec.ruleset, t)] = 0.0
        first /= first.sum()
    fb = spec.flag_box if spec.nflag == 2 else -1
    rows: dict[tuple[int, int], tuple[int, F64]] = {}

    def window(m: int) -> tuple[int, int]:
        """The points ``x`` whose worth is worked out at a state of mask ``m``: none
        below (no total reaches ``lo`` from there), none from ``hi_x`` on (all are
        worth 1), none past the most the boxes filled since the card can score."""
        rem = sum(gmax[b] for b in open_ if not (m >> b) & 1)
        a = 0 if lo is None else max(0, lo - points - rem)
        b = min(W - rem, hi_x)
        return a, max(a, b)

    def read(key: tuple[int, int], xs: I64) -> F64:
        a, row = rows.get(key, (0, np.zeros(0)))
        if not len(row):
            return np.where(xs >= hi_x, 1.0, 0.0)
        out: F64 = np.where(xs < a, 0.0, np.where(xs >= hi_x, 1.0,
                                                   row[np.clip(xs - a, 0, len(row) - 1)]))
        return out

    def flags(m: int) -> list[int]:
        if fb < 0 or (m0 >> fb) & 1 or not (m >> fb) & 1:
            return [flag0 if fb < 0 or (m0 >> fb) & 1 else 0]
        return [0, 1]

    def placements(m: int, flag: int, table: I64, xs: I64) -> F64:
        """The best worth of placing each outcome, for every x of ``xs``."""
        best = np.full((len(xs), t.nfull), -np.inf)
        for b in range(nb):
            if (m >> b) & 1:
                continue
            pts = table[b].copy()
            if b == spec.needs_box and not flag:
                pts[:] = 0
            m2 = m | (1 << b)
            at = xs[:, None] + pts[None, :] * mult[b]
            if b == fb:
                vals = np.where((pts > 0)[None, :], read((m2, 1), at), read((m2, 0), at))
            else:
                vals = read((m2, flag), at)
            np.maximum(best, vals, out=best)
        return best

    full = (1 << nb) - 1
    subsets = [m0 | sum(1 << b for b, on in zip(open_, bits, strict=True) if on)
               for bits in np.ndindex(*([2] * len(open_)))]
    subsets.sort(key=lambda m: -bin(m).count("1"))
    from .extended import keep_levels

    for m in subsets:
        a, b = window(m)
        xs = np.arange(a, b, dtype=np.int64)
        for flag in flags(m):
            if m == full:
                rows[(m, flag)] = (a, final[a:b])
                continue
            if not len(xs):
                rows[(m, flag)] = (a, np.zeros(0))
                continue
            E0 = placements(m, flag, score, xs)
            E0s = placements(m, flag, served, xs) if spec.served is not None else E0
            Ks = keep_levels(spec, E0, R, _served_at(R - 1, E0s))
            rows[(m, flag)] = (a, Ks[:, R - 1, fs:] @ first)
    n = (1 << nb) * A
    off = np.zeros(n, dtype=np.int64)
    wlo = np.zeros(n, dtype=np.int64)
    wlen = np.zeros(n, dtype=np.int64)
    order = sorted(rows)
    xs = np.arange(W, dtype=np.int64)
    for i, (m, flag) in enumerate(order):
        j = m * A + flag * spec.U
        off[j], wlo[j], wlen[j] = i * W, points, W
    Q = np.concatenate([read(k, xs) for k in order])
    return PlanRows(spec, points, off, wlo, wlen, Q, len(order))
