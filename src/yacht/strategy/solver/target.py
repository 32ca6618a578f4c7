"""Target tables: the best chance of finishing with at least ``T`` points, solitaire, exactly.

Playing to reach a score is another game than playing for the most points on
average: a player 40 points short with two turns left should go for the
Yahtzee, not the sure 20. :func:`target_table` solves it exactly for one
target, by backward induction over (card state, points so far): for every
reachable card state (boxes filled, upper total, Yahtzee-bonus flag: the
states of the expected-score table) and every total ``s`` so far in the
state's window, ``Q`` is the best chance of ending with at least ``T``.

**Windows.** Below ``T - R`` (``R``: the most points the open boxes can still
give) the chance is 0; from ``T`` on it is 1 (scores never go down once the
forced first turn is played); totals a card cannot have (more than its boxes
can hold, less than its upper total) are never asked for. Each state stores
the chances of ``[max(T - R, least), min(T - 1, most)]`` only.

**Supported.** One-column variants whose boxes score 0 or more (the forced
first turn's negative floor included: it is the first turn, solved on its
own), with at most 16 boxes of 5 or fewer dice, or 12 boxes of up to 10 dice:
every one-column variant of the family. The exact two-column game
(``ancient-yacht-double``, 2^24 card states) and the 10-dice two-column game
are out of reach.

Tables are kept in the user cache like the expected-score tables (one file
per variant, options and target), in float32 when large (the chances are
then exact to about 1e-6), float64 otherwise.

>>> from yacht.rules import get
>>> tt = target_table(get("tommys-crag"), 150)
>>> round(tt.start, 4)
0.582
>>> tt.chance(get("tommys-crag").new_card(), 0) == tt.start
True
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, Scorecard
from yacht.rules.errors import InvalidValue

from . import cache as diskcache
from .backend import current as backend
from .background import one_at_a_time
from .build import build_plan, forced_tables
from .numbers import a_ruleset, variant_name, whole
from .spec import Spec, UnsupportedRuleset, compiled
from .tables import scores_ok

__all__ = ["FLOAT32_CELLS", "MAX_CELLS", "REACH_CAP", "TargetTable", "check_supported",
           "check_turn", "estimate_cells", "is_ready", "reach_table", "reach_target",
           "target_table", "window_arrays"]

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]

#: tables with more cells than this are kept in float32
FLOAT32_CELLS = 1 << 22
#: the largest table built (cells): about 2.4 GB in float32
MAX_CELLS = 600_000_000
#: most tables kept in memory at once (they can be hundreds of MB each)
MEMORY_TABLES = 2

FAR = 1 << 40   # "no bound" (a repeat box: the points to come have no limit)
#: a reach table (:func:`reach_table`) answers for final totals up to this many points
REACH_CAP = 600


def check_supported(ruleset: Ruleset) -> Spec:
    """The kernel data of ``ruleset``, or :class:`UnsupportedRuleset` saying why there is
    no exact target table for it."""
    spec = compiled(ruleset)
    if spec.ncols != 1:
        raise UnsupportedRuleset(f"{ruleset.id}: exact target chances are solved for "
                                 "one-column variants only (a two-column card has 2^24 "
                                 "states or more)")
    if not spec.machine_play:
        raise UnsupportedRuleset(f"{ruleset.id}: chance tables know neither a bonus by steps, "
                                 "served boxes, a box needing another nor saved rolls")
    if not scores_ok(spec):
        raise UnsupportedRuleset(f"{ruleset.id}: a box scoring below 0 (target tables need "
                                 "scores of 0 or more)")
    if spec.nbox > 16 or (spec.dice.n > 5 and spec.nbox > 12):
        raise UnsupportedRuleset(f"{ruleset.id}: too many boxes for an exact target table")
    return spec


@dataclass(frozen=True)
class Windows:
    """The stored windows of every card state: ``off[j]``, ``wlo[j]``, ``wlen[j]`` with
    ``j = mask * A + aux`` (``wlen`` 0 and ``off`` -1 for a state with nothing stored)."""

    A: int
    off: I64
    wlo: I64
    wlen: I64
    sm: I64          # the states with a window, layer by layer (most boxes filled first)
    sa: I64
    layers: I64      # layer k (k boxes filled) is sm[layers[k, 0]:layers[k, 1]]
    cells: int


def _box_max(spec: Spec) -> I64:
    """The most points each box can give (joker points included, times its multiplier)."""
    top = np.maximum(spec.score.max(axis=1), spec.joker_pts).astype(np.int64)
    out: I64 = np.maximum(top, 0) * spec.box_mult.astype(np.int64)
    return out


def _yacht_gain(spec: Spec) -> I64:
    """What a further yacht adds to the best of each box, its bonus included, once the
    bonus box holds points: ``max(0, Y + bonus - best)``, ``Y`` the most a yacht scores
    there under the joker rules (forced: the joker value in a lower box, the upper box of
    its face being filled first; free: the joker value or the dice's own points; none:
    the dice's own points). 0 for the bonus box itself (its first yacht is its best)."""
    mx = _box_max(spec)
    out = np.zeros(spec.nbox, dtype=np.int64)
    if spec.ybonus <= 0 or spec.ybox < 0:
        return out
    yachts = spec.score[:, spec.dice.is_yacht].astype(np.int64)
    y = yachts.max(axis=1) if yachts.shape[1] else np.zeros(spec.nbox, dtype=np.int64)
    jok = spec.joker_pts.astype(np.int64)
    if spec.jmode == 1:
        y = np.where(~spec.box_upper & (jok >= 0), jok, y)
    elif spec.jmode == 2:
        y = np.maximum(y, jok)
    gain: I64 = np.maximum(0, np.maximum(y, 0) * spec.box_mult.astype(np.int64)
                           + spec.ybonus - mx).astype(np.int64)
    gain[spec.ybox] = 0
    return gain


def _states(spec: Spec) -> tuple[I64, I64]:
    """Every reachable card state (mask, aux)."""
    plan = build_plan(spec)
    ms: list[I64] = []
    ax: list[I64] = []
    masks = np.arange(1 << spec.nbox, dtype=np.int64)
    for sub, reach in enumerate(plan.reach):
        group = masks[plan.usub == sub]
        if not len(group) or not reach:
            continue
        us = np.array(sorted(reach), dtype=np.int64)
        for flag in range(spec.nflag):
            g = group[plan.nflag[group] > flag]
            ms.append(np.repeat(g, len(us)))
            ax.append(np.tile(us, len(g)) + flag * spec.U)
    return np.concatenate(ms), np.concatenate(ax)


def window_arrays(spec: Spec, target: int, sm: I64, sa: I64, least: I64 | None = None,
                  most: I64 | None = None, low: int | None = None,
                  reach: bool = False) -> tuple[I64, I64]:
    """(wlo, wlen) of the states (sm, sa) for ``target``: the totals so far whose chance is
    neither 0 nor 1, among those the card can hold (``least``/``most``: tighter bounds of
    the totals, for a game from a given card; ``low``: the least final total worth
    anything, when it is below ``target``, see :mod:`.local`; ``reach``: every total
    below the target, not only those the card can hold, see :func:`reach_table`)."""
    mx = _box_max(spec)
    bits = ((sm[:, None] >> np.arange(spec.nbox)) & 1).astype(bool)
    filled = (bits * mx).sum(axis=1)
    open_ = int(mx.sum()) - filled
    nfilled = bits.sum(axis=1)
    u = sa % spec.U
    flag = sa // spec.U
    bonus = spec.U > 1
    if bonus:
        upper = spec.box_upper.astype(bool)
        earned = u >= spec.need
        up_filled = (bits * (mx * upper)).sum(axis=1)
        up_open = int((mx * upper).sum()) - up_filled
        reachable = ~earned & (u + up_open >= spec.need)
        R = open_ + np.where(reachable, spec.bonus_amt, 0)
        # below the threshold the upper total is exact: the upper boxes hold u
        smax = filled - up_filled + np.where(earned, up_filled + spec.bonus_amt, u)
    else:
        earned = np.zeros(len(sm), dtype=bool)
        R = open_
        smax = filled
    if spec.ybonus > 0:
        yopen = ((sm >> spec.ybox) & 1) == 0
        # a further yacht in each open box (not the bonus box: while it is open, the
        # first yacht goes there for its 50, and only the ones after it earn the bonus)
        more = (~bits * _yacht_gain(spec)).sum(axis=1)
        R = R + np.where((flag == 1) | yopen, more, 0)
        smax = smax + np.where(flag == 1, spec.ybonus * np.maximum(0, nfilled - 1), 0)
    if spec.rep_pts.any():  # repeats: no limit to the points, while a box is open
        full = sm == (1 << spec.nbox) - 1
        R = np.where(full, 0, FAR).astype(np.int64)
        smax = np.where(full, smax, FAR).astype(np.int64)
    smin = u + np.where(earned, spec.bonus_amt, 0)
    if spec.forced is not None and spec.forced.floor < 0:
        fmask = ((sm >> spec.forced.box) & 1) == 1
        smin = smin + np.where(fmask, spec.forced.floor * int(spec.box_mult[spec.forced.box]),
                               0)
    if least is not None:
        smin = np.maximum(smin, least)
    if most is not None:
        smax = np.minimum(smax, most)
    if reach:
        smax = np.full(len(sm), FAR, dtype=np.int64)
    lo = np.maximum((target if low is None else min(low, target)) - R, smin)
    hi = np.minimum(target - 1, smax)
    wlen = np.maximum(0, hi - lo + 1).astype(np.int64)
    # an empty window: every total the card can hold reads 0 below the target, 1 from it on
    wlo = np.where(wlen > 0, lo, target)
    return wlo.astype(np.int64), wlen


def estimate_cells(ruleset: Ruleset, target: int) -> int:
    """The chances a target table of ``ruleset`` stores (its size in cells)."""
    return windows(check_supported(ruleset), whole(target, "target")).cells


def windows(spec: Spec, target: int, sm: I64 | None = None, sa: I64 | None = None,
            least: I64 | None = None, most: I64 | None = None,
            reach: bool = False) -> Windows:
    """The windows of the states (sm, sa) (default: every reachable state) for ``target``.

    Upper totals too low for the bonus (below the plan's ``ulo``) do not change the
    future: all those states of a mask share one row (the union of their windows),
    stored once and solved once."""
    if sm is None or sa is None:
        sm, sa = _states(spec)
    wlo, wlen = window_arrays(spec, target, sm, sa, least, most, reach=reach)
    A, U = spec.A, spec.U
    nmask = 1 << spec.nbox
    n = nmask * A
    ulo = build_plan(spec).ulo if U > 1 else np.zeros(nmask, dtype=np.int64)
    j_all = np.arange(n, dtype=np.int64)
    m_all, a_all = j_all // A, j_all % A
    u_all = a_all % U
    # every state's row: its own, or the one of its mask's lowest upper total that counts
    canon = np.where(u_all <= ulo[m_all], m_all * A + (a_all // U) * U + ulo[m_all], j_all)
    jc = canon[sm * A + sa]
    groups, inv = np.unique(jc, return_inverse=True)
    has = wlen > 0
    big = np.iinfo(np.int64).max // 4
    g_lo = np.full(len(groups), big, dtype=np.int64)
    g_hi = np.full(len(groups), -big, dtype=np.int64)
    np.minimum.at(g_lo, inv[has], wlo[has])
    np.maximum.at(g_hi, inv[has], (wlo + wlen - 1)[has])
    g_len = np.maximum(0, g_hi - g_lo + 1)
    g_lo = np.where(g_len > 0, g_lo, target)
    gm, ga = groups // A, groups % A
    pc = np.zeros(len(groups), dtype=np.int64)
    for b in range(spec.nbox):
        pc += (gm >> b) & 1
    order = np.lexsort((ga, gm, -pc))
    groups, gm, ga, g_lo, g_len, pc = (x[order] for x in (groups, gm, ga, g_lo, g_len, pc))
    g_off = np.concatenate([[0], np.cumsum(g_len)[:-1]]).astype(np.int64)
    off = np.full(n, -1, dtype=np.int64)
    lo = np.full(n, target, dtype=np.int64)
    ln = np.zeros(n, dtype=np.int64)
    off[groups] = np.where(g_len > 0, g_off, -1)
    lo[groups] = g_lo
    ln[groups] = g_len
    off, lo, ln = off[canon], lo[canon], ln[canon]
    # the full card: a chance of 1 from the target on (nothing stored)
    full = (nmask - 1) * A
    off[full:], lo[full:], ln[full:] = -1, target, 0
    keep = g_len > 0
    gm, ga, pc = gm[keep], ga[keep], pc[keep]
    # layer k (k boxes filled): gm[layers[k, 0]:layers[k, 1]] (pc sorted descending)
    ks = -np.arange(spec.nbox + 1)
    layers = np.stack([np.searchsorted(-pc, ks, side="left"),
                       np.searchsorted(-pc, ks, side="right")], axis=1).astype(np.int64)
    return Windows(A, off, lo, ln, gm, ga, layers, int(g_len.sum()))


@dataclass(eq=False)
class TargetTable:
    """The best chance of reaching ``target`` from every reachable situation of one variant."""

    spec: Spec
    target: int
    win: Windows
    Q: npt.NDArray[Any]          # float32 or float64
    start: float                 # from the empty card (its forced first turn included)
    seconds: float
    built: bool
    peak_memory: int = 0
    forced_keep: F64 | None = None

    def __repr__(self) -> str:
        # (the dataclass's repr wrote out the Spec, its Ruleset and the arrays: pages)
        return (f"<TargetTable {variant_name(self.ruleset)}, target {self.target}: "
                f"chance {self.start:.6f} from the empty card, {self.cells} cells>")

    @property
    def ruleset(self) -> Ruleset:
        return self.spec.ruleset

    @property
    def cells(self) -> int:
        return self.win.cells

    @property
    def nbytes(self) -> int:
        w = self.win
        return int(self.Q.nbytes + w.off.nbytes + w.wlo.nbytes + w.wlen.nbytes)

    def state_chance(self, mask: int, aux: int, points: int) -> float:
        """The chance from the start of a (normal) turn of state (mask, aux), ``points``
        on the card."""
        j = mask * self.win.A + aux
        lo = int(self.win.wlo[j])
        if points < lo:
            return 0.0
        if points >= lo + int(self.win.wlen[j]):
            return 1.0
        return float(self.Q[int(self.win.off[j]) + points - lo])

    def reach_pmf(self, mask: int, aux: int) -> F64:
        """Of a reach table (:func:`reach_table`): ``p`` with ``p[n:].sum()`` the best
        chance of making at least ``n`` more points from the start of a turn of state
        (mask, aux) - not the distribution of one way of playing, but weighing a worth of
        the final total with it gives the worth if every total were played for on its
        own (an upper bound of the best worth)."""
        import numpy as np

        j = mask * self.win.A + aux
        lo, ln = int(self.win.wlo[j]), int(self.win.wlen[j])
        top = self.target - lo           # the most points to come stored
        f = np.ones(max(0, top) + 2)
        f[-1] = 0.0
        if ln > 0:
            o = int(self.win.off[j])
            # n = target - s for s in [lo, lo + ln): n from top down to top - ln + 1
            f[top - ln + 1:top + 1] = self.Q[o:o + ln][::-1]
        out: F64 = f[:-1] - f[1:]
        return out

    def chance(self, card: Scorecard, turn: int) -> float:
        """The best chance of reaching the target from the start of a turn with ``card``,
        ``turn`` turns already taken.

        The turn matters where the rules look at it: the forced first turn (Tommy's
        Yacht's turn 0 rolls for the yacht) is solved on its own. A turn that cannot go
        with the card - negative, fewer than its filled boxes, more than its repeats
        allow (:func:`yacht.parsing.turns_possible`), so no game has it - is refused
        with :class:`~yacht.parsing.InputError` naming the turns possible, as the
        advisor refuses it, rather than answered for another situation; so is a card
        that is not the variant's.

        >>> from yacht.rules import get
        >>> rs = get("tommys-crag")
        >>> tt = target_table(rs, 150)
        >>> tt.chance(rs.new_card(), 0) > tt.chance(rs.new_card().with_box(0, 0, 0), 1)
        True
        >>> tt.chance(rs.new_card().with_box(0, 0, 0), 0)
        Traceback (most recent call last):
        ...
        yacht.parsing.InputError: turn 0 does not fit the card: with 1 box filled, the ...
        """
        rs = self.ruleset
        turn = check_turn(rs, card, turn)
        points = rs.totals(card).grand
        if card.complete:
            return 1.0 if points >= self.target else 0.0
        ft = self.spec.forced
        if ft is not None and turn == 0 and card.boxes[0][ft.box] is None:
            return self.start if card == rs.new_card() else self._forced_start(card)
        m, a = self.spec.state_of(card)
        return self.state_chance(m, a, points)

    def _forced_start(self, card: Scorecard) -> float:
        keep, start = self._forced(self.ruleset.totals(card).grand, card)
        return start

    def _forced(self, points: int, card: Scorecard) -> tuple[F64, float]:
        """The forced first turn for the target: keep chances and the turn's chance."""
        ft = self.spec.forced
        assert ft is not None
        m, a = self.spec.state_of(card)
        m |= 1 << ft.box
        mult = int(self.spec.box_mult[ft.box])
        at = [self.state_chance(m, a, points + ft.value(r) * mult)
              for r in range(ft.last_roll + 1)]
        return forced_tables(self.spec, at, self.state_chance(m, a, points + ft.floor * mult))

    def arrays(self) -> tuple[I64, I64, I64, npt.NDArray[Any]]:
        """(off, wlo, wlen, Q) as the kernels read them."""
        return self.win.off, self.win.wlo, self.win.wlen, self.Q


def check_turn(rs: Ruleset, card: Scorecard, turn: object) -> int:
    """``turn`` as an int when a game can be ``turn`` turns in with ``card`` (a card of
    ``rs``), else :class:`~yacht.parsing.InputError` in one line."""
    from yacht import parsing

    if (not isinstance(card, Scorecard) or len(card.boxes) != len(rs.columns)
            or any(len(c) != len(rs.categories) for c in card.boxes)):
        raise parsing.InputError(f"the card does not fit {rs.id}")
    n = whole(turn, "the turn", error=parsing.InputError)
    possible = parsing.turns_possible(rs, card)
    if n not in possible:
        can = (f"{possible.start}" if len(possible) == 1
               else f"{possible.start}-{possible.stop - 1}")
        boxes = "box" if card.filled == 1 else "boxes"
        raise parsing.InputError(f"turn {n} does not fit the card: with {card.filled} "
                                 f"{boxes} filled, the turns already taken are {can} "
                                 f"(accepted: {can})")
    return n


#: about how many times a big build reports its progress
PROGRESS_STEPS = 100
#: the least work in a piece (about 50 ms: a piece costs a few ms of its own)
PIECE_WORK = 300_000


def layer_work(spec: Spec, win: Windows) -> list[tuple[int, int, int, int]]:
    """``(k, lo, hi, work)`` for each layer in the order it is solved: the work of a state
    is its stored chances times its open boxes (a layer's time follows it within about a
    third; the stored chances alone put the last layers at a fifth of their time)."""
    out = []
    for k in range(spec.nbox - 1, -1, -1):
        lo, hi = int(win.layers[k, 0]), int(win.layers[k, 1])
        cells = int(win.wlen[win.sm[lo:hi] * win.A + win.sa[lo:hi]].sum()) if hi > lo else 0
        out.append((k, lo, hi, cells * (spec.nbox - k)))
    return out


def solve_windows(spec: Spec, win: Windows, Q: npt.NDArray[Any], progress: Progress | None,
                  threads: int) -> None:
    """Fill ``Q`` layer by layer (the states of a layer are independent: a big layer is
    solved in pieces, so that ``progress(done, total)`` moves on with the work done)."""
    be = backend()
    layers = layer_work(spec, win)
    total = max(1, sum(work for *_, work in layers))
    steps = min(PROGRESS_STEPS, total // PIECE_WORK) if progress is not None else 0
    done = 0
    for _k, lo, hi, work in layers:
        pieces = max(1, min(hi - lo, steps * work // total))
        edges = [lo + (hi - lo) * i // pieces for i in range(pieces + 1)]
        for i in range(pieces):
            a, b = edges[i], edges[i + 1]
            if b > a:
                be.target_layer(spec, win.sm[a:b], win.sa[a:b], win.A, win.off, win.wlo,
                                win.wlen, Q, threads)
            if progress is not None:
                progress(done + work * (i + 1) // pieces, total)
        done += work
    if progress is not None and done == 0:
        progress(1, 1)


_MEMORY: OrderedDict[tuple[str, int, bool], TargetTable] = OrderedDict()
_LOCK = threading.Lock()
_KEY_LOCKS: dict[tuple[str, int, bool], threading.Lock] = {}


def _fingerprint(spec: Spec, target: int) -> str:
    fp = f"{spec.fingerprint()}:target={target}"
    if spec.ybonus > 0:
        # (the windows of a bonus for further yachts changed: an older table of the same
        # rules is stored in other windows, so it is not taken for this one)
        fp += ":yacht-windows=2"
    return fp


def memory_table(ruleset: Ruleset, target: int, reach: bool = False) -> TargetTable | None:
    """The table if this process holds it."""
    with _LOCK:
        hit = _MEMORY.get((ruleset.key, target, reach))
    return hit if hit is not None and hit.ruleset == ruleset else None


def is_ready(ruleset: Ruleset, target: int, reach: bool = False) -> bool:
    """Whether :func:`target_table` (``reach``: :func:`reach_table`) would answer without
    building."""
    target = whole(target, "target")
    if memory_table(ruleset, target, reach) is not None:
        return True
    spec = check_supported(ruleset)
    kind = f"reach{target}" if reach else f"target{target}"
    return diskcache.probe(diskcache.cache_path(ruleset.key, kind=kind), ruleset.key,
                           _fingerprint(spec, target) + (":reach" if reach else ""))


def target_table(ruleset: Ruleset, target: int, *, cache: bool = True,
                 progress: Progress | None = None, workers: int | None = None,
                 reach: bool = False) -> TargetTable:
    """The exact target table of ``ruleset`` for ``target``: from memory, from the disk
    cache, or built now (two threads asking at once build it once). Raises
    :class:`UnsupportedRuleset` for a variant without exact target tables and
    ``ValueError`` for a table too big to build (a target far beyond the scores).
    ``reach``: the windows are not cut at the most points a card can hold (see
    :func:`reach_table`). ``target`` is a whole number of points (a float, ``150.5``, is
    refused with a ``ValueError``, never cut down to 150)."""
    a_ruleset(ruleset, "target_table(ruleset, target)")
    target = whole(target, "target")
    spec = check_supported(ruleset)
    key = (ruleset.key, target, reach)
    hit = memory_table(ruleset, target, reach)
    if hit is not None:
        return hit
    with _LOCK:
        lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with lock:
        hit = memory_table(ruleset, target, reach)
        if hit is not None:
            return hit
        table = _load_or_build(ruleset, spec, target, cache, progress, workers, reach)
        with _LOCK:
            _MEMORY[key] = table
            while len(_MEMORY) > MEMORY_TABLES:
                _MEMORY.popitem(last=False)
        return table


def reach_target(ruleset: Ruleset) -> int:
    """The target of the variant's reach table: one more than its highest total, at most
    :data:`REACH_CAP`.

    >>> from yacht.rules import get
    >>> reach_target(get("yatzy")), reach_target(get("yahtzee"))
    (375, 600)
    """
    spec = check_supported(ruleset)
    top = int(_box_max(spec).sum()) + int(spec.bonus_amt) + int(spec.ybonus) * spec.nbox
    if spec.rep_pts.any():
        return REACH_CAP
    return min(REACH_CAP, top + 1)


def reach_table(ruleset: Ruleset, *, cache: bool = True, progress: Progress | None = None,
                workers: int | None = None) -> TargetTable:
    """The best chance of making at least ``n`` more points, from every reachable card
    state and for every ``n`` (not one target): a target table for
    :func:`reach_target` whose windows run over every total below it, not only those a
    card can hold, so that ``Q(state, T - n)`` is that chance for ``n`` up to ``T`` less
    the least total the state can have (above: read as 0, a chance that only matters
    for final totals past :data:`REACH_CAP`). :meth:`TargetTable.reach_pmf` reads it.
    Yahtzee: about 155 million chances, 590 MiB (benchmarks/README.md).

    >>> from yacht.rules import get
    >>> rt = reach_table(get("tommys-crag"))
    >>> tt = target_table(get("tommys-crag"), 150)
    >>> abs(rt.state_chance(0, 0, rt.target - 150) - tt.start) < 1e-9
    True
    """
    return target_table(ruleset, reach_target(ruleset), cache=cache, progress=progress,
                        workers=workers, reach=True)


def clear_memory() -> None:
    with _LOCK:
        _MEMORY.clear()


def _load_or_build(ruleset: Ruleset, spec: Spec, target: int, cache: bool,
                   progress: Progress | None, workers: int | None,
                   reach: bool = False) -> TargetTable:
    kind = f"reach{target}" if reach else f"target{target}"
    path = diskcache.cache_path(ruleset.key, kind=kind)
    fp = _fingerprint(spec, target) + (":reach" if reach else "")
    t0 = time.perf_counter()
    win = windows(spec, target, reach=reach)
    if cache:
        loaded = diskcache.load(path, ruleset.key, fp)
        if loaded is not None:
            arrays, facts = loaded
            Q = arrays.get("Q")
            if Q is not None and Q.shape == (win.cells,):
                table = TargetTable(spec, target, win, Q, float(facts["start"]),
                                    float(facts["seconds"]), False,
                                    int(facts.get("peak_memory", 0)))
                if spec.forced is not None:
                    table.forced_keep = table._forced(0, ruleset.new_card())[0]
                return table
    if win.cells > MAX_CELLS:
        raise InvalidValue(f"a table for {target} points would hold {win.cells:,} chances "
                           f"(at most {MAX_CELLS:,}): choose a smaller target")
    dtype = np.float32 if win.cells > FLOAT32_CELLS else np.float64
    threads = max(1, min(64, workers or 2))
    with one_at_a_time():
        Q = np.zeros(win.cells, dtype=dtype)
        solve_windows(spec, win, Q, progress, threads)
    table = TargetTable(spec, target, win, Q, 0.0, 0.0, True)
    if spec.forced is not None:
        table.forced_keep, table.start = table._forced(0, ruleset.new_card())
    else:
        table.start = table.state_chance(0, 0, 0)
    table.seconds = time.perf_counter() - t0
    table.peak_memory = table.nbytes + int(win.sm.nbytes + win.sa.nbytes)
    if cache:
        diskcache.save(path, ruleset.key, fp, {"Q": Q},
                       {"start": table.start, "seconds": table.seconds,
                        "peak_memory": table.peak_memory, "cells": win.cells,
                        "target": target})
    return table
