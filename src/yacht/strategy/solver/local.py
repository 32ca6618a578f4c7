"""Chance tables from a given card: the best expected *utility* of the final total.

A target table (:mod:`.target`) answers "what is the best chance of ending
with at least ``T`` points?" for every situation of a variant. Playing to win
against opponents asks a more general question: with ``F(x)`` the worth of
finishing with ``x`` points (the chance that ``x`` wins, given the opponents'
totals), what play gives the most expected ``F``? :func:`local_table` solves
it exactly for every situation reachable from one card, with the same kernel:
the kernel reads a state's row as "0 below the window, 1 from its end on", and
the full card's rows are not solved but read, so a full card whose row holds
``F`` turns the chance of reaching a target into the expected worth of the
final total, for any ``F`` that is 0 below some ``lo`` and 1 from some ``hi``
on (points never go down once the first turn is played).

Only the states reachable from the card are solved (the boxes still open,
the upper totals they can bring), so the table is small when few boxes are
open: a few milliseconds with 3 open boxes in Yahtzee, a fraction of a second
with 6 (see :func:`estimate_work`).

>>> import numpy as np
>>> from yacht.rules import get
>>> from yacht.strategy.advisor import parse_card
>>> rs = get("tommys-crag")
>>> card = parse_card(rs, "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
...                   "three_of_a_kind=25,low_straight=20,high_straight=20,odd_straight=20")
>>> t = local_table(rs, card, 200, np.array([]))    # the chance of reaching 200
>>> 0 < t.chance(card) < 1
True
>>> t.chance(card) == local_table(rs, card, 200, np.array([]), threads=2).chance(card)
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, Scorecard
from yacht.rules.errors import InvalidValue

from .backend import current as backend
from .spec import Spec, UnsupportedRuleset, compiled
from .tables import scores_ok
from .target import FAR, _box_max, window_arrays

__all__ = ["LocalTable", "TurnChances", "check_local", "estimate_work", "local_table",
           "turn_chances"]

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: the most open boxes :func:`local_table` accepts (2^k masks)
MAX_OPEN = 13
#: with a budget, more open boxes than this are not even looked at (too many chances)
BUDGET_OPEN = 6


def check_local(ruleset: Ruleset) -> Spec:
    """The kernel data of ``ruleset`` (compiled once per process), or
    :class:`UnsupportedRuleset` saying why it has no chance tables (two columns: the
    index arrays would cover 2^24 card states)."""
    spec = compiled(ruleset)
    if spec.ncols != 1:
        raise UnsupportedRuleset(f"{ruleset.id}: chance tables are solved for one-column "
                                 "variants only")
    if not spec.machine_play:
        raise UnsupportedRuleset(f"{ruleset.id}: chance tables know neither a bonus by steps, "
                                 "served boxes, a box needing another nor saved rolls")
    if not scores_ok(spec):
        raise UnsupportedRuleset(f"{ruleset.id}: a box scoring below 0")
    return spec


@dataclass(frozen=True)
class TurnChances:
    """One turn of one state for decisions: ``B[d, b]`` the worth after scoring outcome
    ``d`` in box ``b`` (-1: not allowed; column ``nbox``: a repeat), ``E0[d]`` the best
    of them, ``Ks[r - 1, k]`` the worth of keeping multiset ``k`` with ``r`` rolls left."""

    E0: F64
    Ks: F64
    B: F64


def turn_chances(spec: Spec, A: int, arrays: tuple[I64, I64, I64, npt.NDArray[Any]],
                 mask: int, aux: int, points: int) -> TurnChances:
    """:class:`TurnChances` of the normal turn of state (mask, aux) with ``points`` on the
    card, read from a table's (off, wlo, wlen, Q)."""
    t = spec.dice
    E0 = np.empty(t.nfull)
    Ks = np.empty((spec.rolls, t.nall))
    B = np.empty((t.nfull, spec.nbox + 1))
    off, wlo, wlen, Q = arrays
    backend().target_turn(spec, mask, aux, points, A, off, wlo, wlen, Q, E0, Ks, B)
    return TurnChances(E0, Ks, B)


class _Index(threading.local):
    """Per thread and variant: the index arrays the kernels read (one entry per card state
    of the variant, a few MB), lent to one table at a time: a table writes its own
    entries in (and the previous table's are cleared) before each kernel call."""

    def __init__(self) -> None:
        self.by_spec: dict[int, tuple[I64, I64, I64, list[Any]]] = {}

    def arrays(self, spec: Spec) -> tuple[I64, I64, I64, list[Any]]:
        hit = self.by_spec.get(id(spec))
        if hit is None:
            n = (1 << spec.nbox) * spec.A
            hit = (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                   np.zeros(n, dtype=np.int64), [None])
            self.by_spec = {id(spec): hit}   # (one variant at a time per thread)
        return hit


_INDEX = _Index()


@dataclass(eq=False)
class LocalTable:
    """The best expected worth of the final total from every situation reachable from a
    card (see the module doc). ``Q[:len(worth)]`` is the worth itself (the full card's
    row); ``js`` the card states with an entry, ``entries`` their (off, wlo, wlen)."""

    spec: Spec
    mask: int
    aux: int
    points: int
    lo: int
    worth: F64
    js: I64
    entries: tuple[I64, I64, I64]
    Q: F64
    states: int

    @property
    def A(self) -> int:
        return self.spec.A

    @property
    def cells(self) -> int:
        return int(len(self.Q))

    def arrays(self) -> tuple[I64, I64, I64, F64]:
        """(off, wlo, wlen, Q) as the kernels read them (this thread's index arrays, with
        this table's entries in)."""
        off, wlo, wlen, owner = _INDEX.arrays(self.spec)
        if owner[0] is not self:
            if owner[0] is not None:
                old = owner[0].js
                off[old] = 0
                wlo[old] = 0
                wlen[old] = 0
            off[self.js], wlo[self.js], wlen[self.js] = self.entries
            owner[0] = self
        return off, wlo, wlen, self.Q

    def state_chance(self, mask: int, aux: int, points: int) -> float:
        off, wlo, wlen, Q = self.arrays()
        j = mask * self.spec.A + aux
        lo = int(wlo[j])
        if points < lo:
            return 0.0
        if points >= lo + int(wlen[j]):
            return 1.0
        return float(Q[int(off[j]) + points - lo])

    def chance(self, card: Scorecard) -> float:
        """The best expected worth from the start of a turn with ``card`` (a card reachable
        from the table's)."""
        m, a = self.spec.state_of(card)
        return self.state_chance(m, a, self.spec.ruleset.totals(card).grand)

    def turn(self, mask: int, aux: int, points: int) -> TurnChances:
        return turn_chances(self.spec, self.spec.A, self.arrays(), mask, aux, points)


def _reachable(spec: Spec, m0: int, a0: int) -> tuple[I64, I64, I64]:
    """The states (mask, aux) reachable from (m0, a0) with a box still open, most boxes
    filled first, and their number of filled boxes."""
    nbox = spec.nbox
    full = (1 << nbox) - 1
    open_bits = [b for b in range(nbox) if not (m0 >> b) & 1]
    if len(open_bits) > MAX_OPEN:
        raise InvalidValue(f"{len(open_bits)} open boxes: at most {MAX_OPEN}")
    U = spec.U
    cap = U - 1
    u0, f0 = a0 % U, a0 // U
    # the upper totals each mask can hold, as bit sets (bit u: total u, capped at U - 1)
    values = {}
    for b in open_bits:
        if U > 1 and spec.box_upper[b]:
            values[b] = sorted({int(v) for v in spec.score[b]} | {0})
    reach: dict[int, int] = {m0: 1 << u0}
    k = len(open_bits)
    for sub in range(1 << k):
        m = m0
        for i in range(k):
            if (sub >> i) & 1:
                m |= 1 << open_bits[i]
        bits = reach.get(m)
        if bits is None:
            continue
        for i in range(k):
            if (sub >> i) & 1:
                continue
            b = open_bits[i]
            m2 = m | (1 << b)
            if b in values:
                nb = 0
                for v in values[b]:
                    shifted = bits << v
                    over = shifted >> cap
                    nb |= (shifted & ((1 << cap) - 1)) | ((1 << cap) if over else 0)
            else:
                nb = bits
            reach[m2] = reach.get(m2, 0) | nb
    sm: list[int] = []
    sa: list[int] = []
    pc: list[int] = []
    ybox_open = spec.nflag > 1 and not (m0 >> spec.ybox) & 1
    for m, bits in reach.items():
        if m == full:
            continue
        flags = (0, 1) if ybox_open and (m >> spec.ybox) & 1 else (f0,)
        us = [u for u in range(U) if (bits >> u) & 1]
        for f in flags:
            for u in us:
                sm.append(m)
                sa.append(f * U + u)
                pc.append(bin(m).count("1"))
    order = np.argsort(-np.array(pc, dtype=np.int64), kind="stable")
    return (np.array(sm, dtype=np.int64)[order], np.array(sa, dtype=np.int64)[order],
            np.array(pc, dtype=np.int64)[order])


def _most(spec: Spec, m0: int, a0: int, points: int, sm: I64) -> I64:
    """An upper bound of the total each state can have, from ``points`` on the card."""
    mx = _box_max(spec)
    if spec.rep_pts.any():
        return np.full(len(sm), FAR, dtype=np.int64)
    new = ((sm[:, None] >> np.arange(spec.nbox)) & 1).astype(bool) & ~(
        (m0 >> np.arange(spec.nbox)) & 1).astype(bool)
    gain = (new * mx).sum(axis=1)
    if spec.U > 1 and a0 % spec.U < spec.need:
        gain = gain + spec.bonus_amt
    if spec.ybonus > 0:
        gain = gain + spec.ybonus * new.sum(axis=1)
    out: I64 = (points + gain).astype(np.int64)
    return out


def _plan(spec: Spec, card: Scorecard, lo: int, hi: int) -> tuple[I64, I64, I64, I64, I64]:
    """(sm, sa, filled, wlo, wlen) of the states reachable from ``card``."""
    m0, a0 = spec.state_of(card)
    points = spec.ruleset.totals(card).grand
    sm, sa, pc = _reachable(spec, m0, a0)
    least = np.full(len(sm), points, dtype=np.int64)
    wlo, wlen = window_arrays(spec, hi, sm, sa, least, _most(spec, m0, a0, points, sm), low=lo)
    return sm, sa, pc, wlo, wlen


def estimate_work(ruleset: Ruleset, card: Scorecard, lo: int, hi: int) -> int:
    """The chances :func:`local_table` would solve for a worth 0 below ``lo`` and 1 from
    ``hi`` on (its time is about proportional: roughly 2-3 us each in Yahtzee)."""
    return int(_plan(check_local(ruleset), card, lo, hi)[4].sum())


def local_table(ruleset: Ruleset, card: Scorecard, lo: int, worth: F64, *,
                threads: int = 1, budget: int | None = None) -> LocalTable | None:
    """The best expected worth of the final total from ``card`` (not the forced first
    turn), where finishing with ``x`` points is worth ``worth[x - lo]`` for ``lo <= x <
    lo + len(worth)``, 0 below ``lo`` and 1 from ``lo + len(worth)`` on. An empty
    ``worth`` is the chance of reaching ``lo``. With ``budget``: None when the table
    would hold more chances than that (or more than :data:`BUDGET_OPEN` boxes are open)."""
    spec = check_local(ruleset)
    if card.complete:
        raise InvalidValue("the card is full")
    ft = spec.forced
    if ft is not None and card.boxes[0][ft.box] is None:
        raise InvalidValue("the forced first turn is not solved by chance tables")
    if budget is not None and spec.nbox - card.filled > BUDGET_OPEN:
        return None
    worth = np.ascontiguousarray(worth, dtype=np.float64)
    hi = lo + len(worth)
    m0, a0 = spec.state_of(card)
    points = ruleset.totals(card).grand
    sm, sa, pc, wlo_s, wlen_s = _plan(spec, card, lo, hi)
    if budget is not None and int(wlen_s.sum()) > budget:
        return None
    A = spec.A
    # the full card (every aux): the worth itself, one row shared
    full = ((1 << spec.nbox) - 1) * A + np.arange(A, dtype=np.int64)
    nw = len(worth)
    starts = nw + np.concatenate([[0], np.cumsum(wlen_s)[:-1]]).astype(np.int64)
    js = np.concatenate([full, sm * A + sa])
    entries = (np.concatenate([np.zeros(A, dtype=np.int64), np.where(wlen_s > 0, starts, 0)]),
               np.concatenate([np.full(A, lo, dtype=np.int64), wlo_s]),
               np.concatenate([np.full(A, nw, dtype=np.int64), wlen_s]))
    Q = np.zeros(nw + int(wlen_s.sum()), dtype=np.float64)
    Q[:nw] = worth
    table = LocalTable(spec, m0, a0, points, lo, worth, js, entries, Q, len(sm))
    off, wlo, wlen, _ = table.arrays()
    be = backend()
    has = wlen_s > 0
    for k in range(spec.nbox - 1, -1, -1):
        pick = has & (pc == k)
        if pick.any():
            be.target_layer(spec, np.ascontiguousarray(sm[pick]),
                            np.ascontiguousarray(sa[pick]), A, off, wlo, wlen, Q,
                            max(1, threads))
    return table
