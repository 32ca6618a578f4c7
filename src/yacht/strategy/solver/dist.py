"""Score distributions: the chance of every number of points still to come, exactly.

The expected-score table says what the expert scores on average from a card;
winning depends on the whole spread. :func:`distributions` gives, for every
reachable turn-start state of a variant, the distribution of the points still
to come when the player plays on as the expert (the solver's policy, the same
choices as its self-play: ties to the first box in card order, to scoring
over re-rolling, to the first best keep). One backward pass, layer by layer
like the solver's, over distributions instead of means: a state's turn ends on
each outcome with a chance the expert's keeps decide (a forward pass over the
keeps), and scoring it leads to a next state whose distribution, shifted by the
points scored, is mixed in with that chance.

**What is stored.** The build keeps one layer of distributions in float32 (the
next layer's, which the turns of a layer read); a finished layer is stored as
the *cumulative* chances in 16 bits (``C[x]``: the chance of at most ``x``
points, in steps of 1/65535), from the first total whose chance rounds above 0
to the last below 1. Every chance read from it is within 1/131070 (8e-6) of the
exact one, errors that do not add up from layer to layer (each layer is built
from the exact float32 one below); the tails thinner than that cost nothing.
Upper totals too low for the bonus share the distribution of the lowest that
counts (the solver's plan). The sizes and build times of every variant are in
``benchmarks/README.md``. Built on first use and kept in the disk cache beside
the expected-score table.

Generala's served boxes and doble generala are beyond the kernel: its distributions
are built in numpy (:mod:`.dist_extended`, seconds). Out of reach: the two-column
Ancient Yacht (2^24 card states), its 10-dice game (no exact table) and Maxi
Yatzy's saved rolls; :func:`available` says so, and the callers sample those games'
totals instead.

>>> from yacht.rules import get
>>> dd = distributions(get("tommys-crag"))
>>> lo, pmf = dd.final(get("tommys-crag").new_card(), 0)
>>> round(float(pmf.sum()), 6), abs(dd.mean(0, 0) - dd.solution.expected_score) < 1e-4
(1.0, True)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, Scorecard
from yacht.rules.errors import InvalidValue

from . import cache as diskcache
from .background import Job, one_at_a_time, request, running
from .build import Solution, _layers, build_plan, solve
from .numbers import a_ruleset, variant_name
from .spec import Spec, UnsupportedRuleset, compiled
from .tables import kernel_tables
from .target import FAR, _box_max

__all__ = ["EPS", "Distributions", "available", "distributions", "end_chance", "ending_terms",
           "in_background", "is_ready", "joined", "supported", "table_win_chances",
           "turns_known", "win_chances", "win_worth"]

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]

#: the mass each tail of a stored distribution may leave out
EPS = 1e-10
#: the most card states a table of distributions is built for
MAX_STATES = 4_000_000
#: bump when the kernels' results change (the disk cache is then rebuilt)
VERSION = 2


def supported(ruleset: Ruleset) -> bool:
    """Whether the variant has exact score distributions that the champion's turn tables
    can use (an exact solver table of at most :data:`MAX_STATES` card states, no bonus
    by steps: :func:`available` says whether the distributions alone exist)."""
    try:
        _check(ruleset)
    except UnsupportedRuleset:
        return False
    return True


def turns_known(ruleset: Ruleset) -> bool:
    """Whether the champion's look-ahead of one turn can use the distributions: those of
    :func:`supported`, and Generala's served boxes and doble generala (its turns worked
    out in numpy, :func:`.dist_extended.turn_chances`; not its plans of the last turns,
    whose tables are the kernels')."""
    if supported(ruleset):
        return True
    try:
        spec = _check(ruleset, steps=True)
    except UnsupportedRuleset:
        return False
    return spec.extended and spec.bonus_table is None


def available(ruleset: Ruleset) -> bool:
    """Whether the variant has exact score distributions (:func:`distributions`): those
    of :func:`supported`, and Kismet's bonus by steps (its full card's value, the bonus
    of the upper total reached, counts as points at the end)."""
    try:
        _check(ruleset, steps=True)
    except UnsupportedRuleset:
        return False
    return True


_CHECKED: dict[str, str] = {}   # ruleset key -> why not ("" when supported)


def _check(ruleset: Ruleset, *, steps: bool = False) -> Spec:
    """The kernel data of ``ruleset`` with distributions, or :class:`UnsupportedRuleset`
    saying why not. ``steps``: a bonus by steps is fine (the distributions alone; the
    champion's turn tables do not know it)."""
    spec = compiled(ruleset)
    why = _CHECKED.get(ruleset.key)
    if why is None:   # (once per process: the plan takes ~15 ms)
        why = ""
        if spec.nbox > 24 or (spec.dice.n >= 8 and spec.nbox > 16):
            why = f"{ruleset.id}: no exact table to build distributions on"
        elif spec.pool:  # (Maxi Yatzy's saved rolls: the recurrences do not know them)
            why = f"{ruleset.id}: the distributions know no saved rolls"
        elif build_plan(spec).states > MAX_STATES:
            why = f"{ruleset.id}: too many card states for a table of distributions"
        _CHECKED[ruleset.key] = why
    if why:
        raise UnsupportedRuleset(why)
    if not steps and spec.bonus_table is not None:
        raise UnsupportedRuleset(f"{ruleset.id}: the chances of winning are worked out on "
                                 "the distributions only (the turn tables know no bonus "
                                 "by steps)")
    if not steps and spec.extended:
        raise UnsupportedRuleset(f"{ruleset.id}: the chances of winning are worked out on "
                                 "the distributions only (the turn tables know no served "
                                 "boxes)")
    return spec


_ENDING: dict[str, float] = {}


def end_chance(ruleset: Ruleset) -> float:
    """The chance that a turn's first roll ends the game at once, with opponents at the
    table (Generala's served Generala under ``servida=win``: 6 in 7,776); 0 in most
    variants. Raises :class:`UnsupportedRuleset` when a later roll can end it too."""
    hit = _ENDING.get(ruleset.key)
    if hit is None:
        from .dist_extended import ending_outcomes

        t = compiled(ruleset).dice
        try:
            hit = float(t.prob[ending_outcomes(ruleset, t)].sum())
        except ValueError as e:
            raise UnsupportedRuleset(str(e)) from None
        _ENDING[ruleset.key] = hit
    return hit


def ending_note(ruleset: Ruleset) -> str:
    """What a chance of winning at a table adds in a variant whose roll can end the game
    at once (its chance is counted: :func:`end_chance`), in words; "" in the others.

    >>> from yacht.rules import get
    >>> ending_note(get("generala"))
    'the chance of a served Generala, which ends the game, counted'
    >>> ending_note(get("yahtzee")), ending_note(get("generala", {"servida": "points"}))
    ('', '')
    """
    reason = ruleset.end_reason()
    try:
        if not reason or end_chance(ruleset) <= 0:
            return ""
    except UnsupportedRuleset:
        return ""
    return f"the chance of {reason.split(' (')[0]}, which ends the game, counted"


#: the steps of a stored cumulative chance
STEPS = 65535
#: chances turned into cumulative ones at a time
QUANTIZE_CELLS = 2_000_000


@dataclass(eq=False)
class Distributions:
    """The distribution of the points to come from every reachable turn-start state."""

    solution: Solution
    ulo: I64          # per mask: upper totals up to it share a distribution
    off: I64          # per state j = mask * A + aux: where its cumulative chances start
    lo: npt.NDArray[np.int32]     # the least points to come with a chance
    length: npt.NDArray[np.int32]  # cumulative chances stored (below 1)
    C: npt.NDArray[np.uint16]     # cumulative chances, in steps of 1 / STEPS
    seconds: float
    built: bool
    #: those of a game at a table that runs to its end: the first rolls that would end
    #: it at once (:func:`end_chance`) taken out (False: the game as played alone)
    ending: bool = False
    _forced: dict[int, tuple[int, F64]] | None = None

    def __repr__(self) -> str:
        # (the dataclass's repr wrote out the Solution, its Ruleset and the arrays)
        return (f"<Distributions {variant_name(self.ruleset)}: {len(self.lo)} states, "
                f"{self.cells} cells, {self.nbytes / 1e6:.1f} MB>")

    @property
    def spec(self) -> Spec:
        return self.solution.spec

    @property
    def ruleset(self) -> Ruleset:
        return self.solution.ruleset

    @property
    def nbytes(self) -> int:
        return int(self.C.nbytes + self.off.nbytes + self.lo.nbytes + self.length.nbytes)

    @property
    def cells(self) -> int:
        return int(self.C.size)

    def index(self, mask: int, aux: int) -> int:
        spec = self.spec
        U = spec.U
        u, flag = aux % U, aux // U
        u = max(u, int(self.ulo[mask]))
        return mask * spec.A + flag * U + u

    def state(self, mask: int, aux: int) -> tuple[int, F64]:
        """``(lo, pmf)``: the chance of ``lo + i`` points to come is ``pmf[i]``, from the
        start of a normal turn of state (mask, aux)."""
        if mask == (1 << self.spec.nbox) - 1:
            return 0, np.ones(1)
        j = self.index(mask, aux)
        o = int(self.off[j])
        if o < 0:
            raise InvalidValue(f"no card reaches the state ({mask}, {aux})")
        n = int(self.length[j])
        c = np.empty(n + 2)
        c[0] = 0.0
        c[1:n + 1] = self.C[o:o + n]
        c[n + 1] = STEPS
        return int(self.lo[j]), np.diff(c) / STEPS

    def mean(self, mask: int, aux: int) -> float:
        lo, pmf = self.state(mask, aux)
        return float((pmf * np.arange(lo, lo + len(pmf))).sum())

    def final(self, card: Scorecard, turn: int) -> tuple[int, F64]:
        """``(lo, pmf)`` of the final total from the start of a turn with ``card`` (the
        points on it included; the forced first turn too)."""
        rs = self.ruleset
        if card.complete:
            return rs.totals(card).grand, np.ones(1)
        spec = self.spec
        # (a bonus by steps is paid at the end: the points to come hold it whole)
        points = int(spec.base_points(card))
        m, a = spec.state_of(card)
        if self.solution.forced_turn(card, turn):
            assert spec.forced is not None
            flo, fpmf = self.forced_points()
            lo, pmf = self.state(m | (1 << spec.forced.box), a)
            return points + flo + lo, np.convolve(fpmf, pmf)
        lo, pmf = self.state(m, a)
        return points + lo, pmf

    def forced_points(self) -> tuple[int, F64]:
        """``(lo, pmf)`` of the points of the forced first turn, played as the expert."""
        if self._forced is None:
            self._forced = {0: _forced_points(self.solution)}
        return self._forced[0]


def _forced_points(sol: Solution) -> tuple[int, F64]:
    """The forced first turn's points: rolls until all dice match, the expert's keeps
    (the first best by the forced keep table, as the self-play plays them)."""
    spec = sol.spec
    ft = spec.forced
    assert ft is not None and sol.forced_keep is not None
    kt = kernel_tables(spec)
    t = spec.dice
    fs, nall, nfull = t.full_start, t.nall, t.nfull
    subs = np.asarray(kt.subs)
    nsubs = np.asarray(kt.nsubs)
    valid = np.arange(subs.shape[1])[None, :] < nsubs[:, None]
    mult = int(spec.box_mult[ft.box])
    pts: dict[int, float] = {}

    def spread(M: F64) -> None:
        for s in range(fs):
            if M[s] != 0.0:
                M[kt.up[s]] += M[s] / t.faces
                M[s] = 0.0

    M = np.zeros(nall)
    M[0] = 1.0
    spread(M)
    yacht = np.asarray(kt.is_yacht, dtype=bool)
    r = 1
    while True:
        out = M[fs:]
        py = float(out[yacht].sum())
        v = ft.value(r) * mult
        pts[v] = pts.get(v, 0.0) + py
        rest = np.where(yacht, 0.0, out)
        if r >= ft.last_roll:
            fl = ft.floor * mult
            pts[fl] = pts.get(fl, 0.0) + float(rest.sum())
            break
        vals = np.where(valid, sol.forced_keep[r][np.where(valid, subs, 0)], -np.inf)
        bk = subs[np.arange(nfull), np.argmax(vals, axis=1)]
        N = np.zeros(nall)
        np.add.at(N, bk, rest)
        spread(N)
        M = N
        r += 1
    lo = min(pts)
    pmf = np.zeros(max(pts) - lo + 1)
    for k, w in pts.items():
        pmf[k - lo] += w
    return lo, pmf


def _layer_states(spec: Spec, plan: Any, masks: I64) -> tuple[I64, I64]:
    """The stored states (mask, aux) of ``masks``: per flag, ``ulo`` then the reachable
    upper totals above it."""
    U = spec.U
    sub = plan.usub[masks]
    cnt = plan.uoff[sub + 1] - plan.uoff[sub]
    ms: list[I64] = []
    ax: list[I64] = []
    for fl in range(spec.nflag):
        sel = plan.nflag[masks] > fl
        mm, cc, ss = masks[sel], cnt[sel], plan.uoff[sub[sel]]
        if not len(mm):
            continue
        total = int(cc.sum())
        first = np.repeat(np.cumsum(cc) - cc, cc)
        idx = np.repeat(ss, cc) + (np.arange(total) - first)
        ms.append(np.repeat(mm, cc))
        ax.append(plan.ulist[idx] + fl * U)
    if not ms:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(ms).astype(np.int64), np.concatenate(ax).astype(np.int64)


def _width(spec: Spec, sol: Solution) -> int:
    """The most points to come any state can have (the dense scratch's length)."""
    mx = _box_max(spec)
    R = int(mx.sum()) + spec.bonus_amt * (1 if spec.U > 1 else 0)
    if spec.bonus_table is not None:
        R += int(spec.bonus_table.max())
    if spec.ybonus > 0:
        R += spec.ybonus * (spec.nbox - 1)
    if spec.rep_pts.any():   # no limit: the geometric tail is cut where it holds nothing
        R = min(FAR, int(8 * sol.expected_score) + 40 * int(spec.rep_pts.max()))
    return R + 1


class _Growing:
    """A uint16 array appended to, doubling its capacity."""

    def __init__(self, cap: int) -> None:
        self.a = np.empty(max(1, cap), dtype=np.uint16)
        self.n = 0

    def append(self, x: npt.NDArray[np.uint16]) -> int:
        at = self.n
        need = at + len(x)
        if need > len(self.a):
            b = np.empty(max(need, 2 * len(self.a)), dtype=np.uint16)
            b[:at] = self.a[:at]
            self.a = b
        self.a[at:need] = x
        self.n = need
        return at

    def view(self) -> npt.NDArray[np.uint16]:
        return self.a[:self.n]


def _quantize(P: npt.NDArray[np.float32], pos: I64, lo: I64, ln: I64
              ) -> tuple[npt.NDArray[np.uint16], I64, I64, I64]:
    """Distributions (``P[pos[i]:pos[i] + ln[i]]`` from ``lo[i]`` points) as cumulative
    chances in steps of 1/STEPS, cut to the totals whose cumulative chance rounds strictly
    between 0 and 1: (C, its offsets, first totals, lengths). The C kernel, the GIL
    released (``reference.quantize`` is its twin in numpy)."""
    from .backend import current

    n = len(pos)
    if not n:
        z = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.uint16), z, z, z
    order = np.argsort(pos, kind="stable")
    sp = np.ascontiguousarray(pos[order], dtype=np.int64)
    C = np.empty(len(P), dtype=np.uint16)
    cs, fs, ks = (np.empty(n, dtype=np.int64) for _ in range(3))
    used = current().dist_quantize(np.ascontiguousarray(P, dtype=np.float32), sp,
                                   np.ascontiguousarray(lo[order], dtype=np.int64),
                                   np.ascontiguousarray(ln[order], dtype=np.int64),
                                   C, cs, fs, ks, STEPS)
    coff = np.empty(n, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    length = np.empty(n, dtype=np.int64)
    coff[order], first[order], length[order] = cs, fs, ks
    return C[:used], coff, first, length


def build(sol: Solution, progress: Progress | None = None, threads: int = 2,
          eps: float = EPS, ending: bool = False) -> Distributions:
    """Build the distributions of ``sol``'s variant (see the module doc; ``ending``: of
    a game at a table that runs to its end, see :func:`distributions`)."""
    if sol.spec.extended:   # (served boxes, a box needing another: in numpy)
        from .dist_extended import build_extended

        dd = build_extended(sol, progress, eps, ending)
        dd.ending = ending
        return dd
    if ending:
        raise UnsupportedRuleset(f"{sol.ruleset.id}: the distributions' kernel cannot take "
                                 "out the rolls that end the game")
    from .backend import DistLayer, DistOut, current

    kernels = current()
    t0 = time.perf_counter()
    spec = sol.spec
    plan = build_plan(spec)
    A = spec.A
    nmask = 1 << spec.nbox
    n = nmask * A
    # the layer below's float32 distributions, as the kernel reads them
    off = np.full(n, -1, dtype=np.int64)
    dlo = np.zeros(n, dtype=np.int64)
    dlen = np.zeros(n, dtype=np.int64)
    # what is kept: cumulative chances
    qoff = np.full(n, -1, dtype=np.int64)
    qlo = np.zeros(n, dtype=np.int32)
    qlen = np.zeros(n, dtype=np.int32)
    W = _width(spec, sol)
    store = _Growing(plan.states * 32)
    order, bounds = _layers(spec.nbox)
    layers = [_layer_states(spec, plan, order[bounds[k]:bounds[k + 1]])
              for k in range(spec.nbox - 1, -1, -1)]
    # the work of a state grows with the boxes open (its distribution's width)
    work = [len(sm) * (spec.nbox - k) for k, (sm, _) in zip(range(spec.nbox - 1, -1, -1),
                                                           layers, strict=True)]
    total = max(1, sum(work))
    done = 0
    V = sol.V
    threads = max(1, threads)
    below = np.zeros(1, dtype=np.float32)

    def keep(P: npt.NDArray[np.float32], j: I64) -> None:
        # a few million chances at a time (the cumulative sums take 40 bytes a chance)
        ln = dlen[j]
        ends = np.cumsum(ln)
        i = 0
        while i < len(j):
            k = max(i + 1, int(np.searchsorted(ends, ends[i] - ln[i] + QUANTIZE_CELLS)))
            js = j[i:k]
            a = int(off[js[0]])
            b = int(off[js[-1]] + dlen[js[-1]])
            C, coff, first, length = _quantize(P[a:b], off[js] - a, dlo[js], dlen[js])
            at = store.append(C)
            qoff[js] = at + coff
            qlo[js] = first
            qlen[js] = length
            i = k

    prev_j = np.zeros(0, dtype=np.int64)
    for (sm, sa), w in zip(layers, work, strict=True):
        count = len(sm)
        j_all = sm * A + sa
        out_lo = np.zeros(count, dtype=np.int64)
        out_len = np.zeros(count, dtype=np.int64)
        out_pos = np.zeros(count, dtype=np.int64)
        got: list[tuple[int, int, Any]] = []
        if count:
            pieces = max(1, min(count, threads * 4 if count > 256 else 1))
            edges = [count * i // pieces for i in range(pieces + 1)]

            layer = DistLayer(sm, sa, plan.ulo, off, dlo, dlen, below, eps, W)

            def run(i0: int, i1: int, layer: DistLayer = layer, out_lo: I64 = out_lo,
                    out_len: I64 = out_len, out_pos: I64 = out_pos
                    ) -> list[tuple[int, int, Any]]:
                part = []
                cap = max(4 * W, (i1 - i0) * 96)
                i = i0
                while i < i1:
                    buf = np.empty(cap, dtype=np.float32)
                    nxt = kernels.dist_chunk(spec, V, layer, i, i1,
                                             DistOut(buf, out_lo, out_len, out_pos))
                    part.append((i, nxt, buf))
                    i = nxt
                    cap *= 2
                return part

            with ThreadPoolExecutor(threads) as pool:
                for f in [pool.submit(run, edges[i], edges[i + 1]) for i in range(pieces)]:
                    got.extend(f.result())
        # the layer below is read no more: kept as cumulative chances
        keep(below, prev_j)
        bufs = []
        at = 0
        for i0, i1, buf in got:
            if i1 <= i0:
                continue
            used = int(out_pos[i1 - 1] + out_len[i1 - 1])
            bufs.append(buf[:used])
            j = j_all[i0:i1]
            off[j] = at + out_pos[i0:i1]
            dlo[j] = out_lo[i0:i1]
            dlen[j] = out_len[i0:i1]
            at += used
        below = np.concatenate(bufs) if bufs else np.zeros(1, dtype=np.float32)
        prev_j = j_all
        done += w
        if progress is not None:
            progress(done, total)
    keep(below, prev_j)
    return Distributions(sol, plan.ulo, qoff, qlo, qlen, store.view().copy(),
                         time.perf_counter() - t0, True)


_MEMORY: dict[str, Distributions] = {}
_LOCK = threading.Lock()
_KEY_LOCKS: dict[str, threading.Lock] = {}


def _fingerprint(spec: Spec, ending: bool = False) -> str:
    return f"{spec.fingerprint()}:dist={VERSION}:eps={EPS}" + (":ending" if ending else "")


def _store_key(ruleset: Ruleset, table: bool) -> str:
    """The key the distributions are kept under: the ruleset's, and for a game at a
    table where a first roll can end it, a key of their own."""
    return f"{ruleset.key};table" if table and end_chance(ruleset) > 0 else ruleset.key


def memory_distributions(ruleset: Ruleset, table: bool = False) -> Distributions | None:
    key = _store_key(ruleset, table)
    with _LOCK:
        hit = _MEMORY.get(key)
    return hit if hit is not None and hit.ruleset == ruleset else None


def is_ready(ruleset: Ruleset, table: bool = False) -> bool:
    """Whether :func:`distributions` would answer without building (memory, or the cache
    file's header). False for a variant without distributions."""
    try:
        spec = _check(ruleset, steps=True)
        if memory_distributions(ruleset, table) is not None:
            return True
        key = _store_key(ruleset, table)
    except UnsupportedRuleset:
        return False
    return diskcache.probe(diskcache.cache_path(key, kind="dist"), key,
                           _fingerprint(spec, key != ruleset.key))


def distributions(ruleset: Ruleset, *, cache: bool = True, progress: Progress | None = None,
                  workers: int | None = None, table: bool = False) -> Distributions:
    """The score distributions of ``ruleset``: from memory, from the disk cache, or built
    now (two threads asking at once build them once). Raises :class:`UnsupportedRuleset`
    for a variant without them (see :func:`available`). ``table``: those of a game with
    opponents, which differ where a roll can end the game (:func:`end_chance`: they are
    then those of a game that runs to its end)."""
    a_ruleset(ruleset, "distributions(ruleset)")
    spec = _check(ruleset, steps=True)
    key = _store_key(ruleset, table)
    ending = key != ruleset.key
    hit = memory_distributions(ruleset, table)
    if hit is not None:
        return hit
    with _LOCK:
        lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with lock:
        hit = memory_distributions(ruleset, table)
        if hit is not None:
            return hit
        sol = solve(ruleset, estimate=False)
        path = diskcache.cache_path(key, kind="dist")
        fp = _fingerprint(spec, ending)
        dd: Distributions | None = None
        if cache:
            dd = _open_mapped(path, key, fp, sol)
        if dd is None:
            with one_at_a_time():
                dd = build(sol, progress, threads=max(1, min(64, workers or 2)),
                           ending=ending)
            if cache:
                diskcache.save(path, key, fp, {"off": dd.off, "lo": dd.lo,
                                               "length": dd.length, "C": dd.C},
                               {"seconds": dd.seconds, "cells": dd.cells,
                                "nbytes": dd.nbytes})
        elif progress is not None:
            progress(1, 1)
        dd.ending = ending
        with _LOCK:
            small = dd.nbytes < 16_000_000
            # (one large variant at a time: they can be hundreds of MB; small ones stay)
            for k in [k for k, v in _MEMORY.items() if not (small and v.nbytes < 16_000_000)]:
                del _MEMORY[k]
            _MEMORY[key] = dd
        return dd


def in_background(ruleset: Ruleset, table: bool = False) -> Job:
    """The build of ``ruleset``'s distributions in the background (:mod:`.background`:
    started once per process; :attr:`~.background.Job.fraction` says how far it got).
    Ask :func:`is_ready` first: a job requested for distributions in the cache ends at
    once, having mapped the file. ``table``: as :func:`distributions`."""
    return request(("dist", _store_key(ruleset, table)),
                   lambda progress: distributions(ruleset, progress=progress, table=table))


def joined(ruleset: Ruleset, progress: Progress | None = None, table: bool = False
           ) -> Distributions:
    """:func:`distributions`, telling ``progress`` how far a build of them under way in
    the background of this process got while it waits for it (else they are built here,
    with ``progress``)."""
    job = running(("dist", _store_key(ruleset, table)))
    if job is not None:
        job.join(progress)
    return distributions(ruleset, progress=progress, table=table)


def _open_mapped(path: Any, key: str, fingerprint: str, sol: Solution
                 ) -> Distributions | None:
    """The distributions in the cache file ``path`` (written by :func:`cache.save`), its
    cumulative chances mapped, not read: a game's analysis reads a few states of hundreds
    of MB. The file's header, size and index arrays are checked (every state's chances
    within the file: a damaged file cannot make a read fail), not the chances' digest
    (a whole read); anything amiss: None (rebuilt)."""
    import json

    spec = sol.spec
    try:
        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) < 12 or head[:8] != diskcache.MAGIC:
                return None
            hlen = int.from_bytes(head[8:12], "little")
            header = json.loads(f.read(hlen).decode())
        if (not isinstance(header, dict) or header.get("format") != diskcache.FORMAT_VERSION
                or header.get("key") != key or header.get("fingerprint") != fingerprint):
            return None
        base = 12 + hlen
        entries = {e["name"]: e for e in header["arrays"]}
        size = base + sum(int(e["nbytes"]) for e in entries.values())
        import os

        if os.path.getsize(path) != size:
            return None
        arrays: dict[str, Any] = {}
        for name in ("off", "lo", "length", "C"):
            e = entries[name]
            shape = tuple(int(x) for x in e["shape"])
            dt = np.dtype(e["dtype"])
            if int(np.prod(shape)) * dt.itemsize != int(e["nbytes"]):
                return None
            arr = np.memmap(path, dtype=dt, mode="r", offset=base + int(e["offset"]),
                            shape=shape)
            arrays[name] = arr if name == "C" else np.array(arr)
        n = (1 << spec.nbox) * spec.A
        off, lo, ln, C = arrays["off"], arrays["lo"], arrays["length"], arrays["C"]
        if off.shape != (n,) or lo.shape != (n,) or ln.shape != (n,) or C.ndim != 1:
            return None
        used = off >= 0
        if (ln < 0).any() or (off[used] + ln[used] > len(C)).any():
            return None
        facts = header.get("facts", {})
        diskcache.used(path)
        return Distributions(sol, build_plan(spec).ulo, off, lo, ln, C,
                             float(facts.get("seconds", 0.0)), False)
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


def clear_memory() -> None:
    with _LOCK:
        _MEMORY.clear()


# --- chances of winning ----------------------------------------------------------------

Pmf = tuple[int, F64]


def win_chances(finals: list[Pmf]) -> list[float]:
    """Each player's chance of finishing first when player ``i``'s final total is
    ``lo_i + k`` with chance ``pmf_i[k]`` (independently); a shared first place counts as
    a win for each player sharing it.

    >>> win_chances([(10, np.array([0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5])), (15, np.ones(1))])
    [0.5, 0.5]
    >>> win_chances([(10, np.ones(1)), (10, np.ones(1))])
    [1.0, 1.0]
    """
    lo = min(f[0] for f in finals)
    hi = max(f[0] + len(f[1]) for f in finals)
    width = hi - lo
    dense = []
    for flo, p in finals:
        d = np.zeros(width)
        d[flo - lo:flo - lo + len(p)] = p
        dense.append(d)
    at_most = [np.cumsum(d) for d in dense]
    out = []
    for i, p in enumerate(dense):
        others = np.ones(width)
        for j in range(len(finals)):
            if j != i:
                others = others * at_most[j]
        out.append(float(min(1.0, max(0.0, (p * others).sum()))))
    return out


def table_win_chances(finals: list[Pmf], left: list[int], first: int, end: float
                      ) -> list[float]:
    """:func:`win_chances` at a table where each turn's first roll ends the game at once
    with the chance ``end``, the roller winning (:func:`end_chance`). ``finals``: the
    players' final totals if the game runs to its end (:func:`distributions` with
    ``table``); ``left[i]``: the turns player ``i`` has still to start; ``first``: the
    player who starts the next one (the turns go round the table in seat order).

    >>> table_win_chances([(10, np.ones(1))] * 2, [1, 1], 0, 0.5)
    [0.75, 0.5]
    >>> table_win_chances([(10, np.ones(1))] * 2, [1, 1], 1, 0.5)
    [0.5, 0.75]
    """
    base = win_chances(finals)
    if end <= 0 or not any(left):
        return base
    at_once, runs = ending_terms(left, first, end)
    return [min(1.0, e + runs * b) for e, b in zip(at_once, base, strict=True)]


def ending_terms(left: list[int], first: int, end: float) -> tuple[list[float], float]:
    """``(at_once, runs)``: each player's chance that a turn of theirs ends the game at
    once before anyone's else does, and the chance that the game runs to its end, when
    each turn still to start ends it with the chance ``end`` (``left``, ``first``: as
    :func:`table_win_chances`).

    >>> ending_terms([1, 1], 0, 0.5)
    ([0.5, 0.25], 0.25)
    """
    n = len(left)
    q = 1.0 - end
    pos = [(i - first) % n for i in range(n)]
    out = []
    for i in range(n):
        now = 0.0
        for k in range(left[i]):   # player i's k-th turn from now, after these others
            before = k + sum(min(left[j], k + (pos[j] < pos[i])) for j in range(n) if j != i)
            now += q ** before * end
        out.append(now)
    return out, q ** sum(left)


def win_worth(finals: list[Pmf]) -> tuple[int, F64]:
    """``(lo, worth)``: finishing with ``x`` points is worth ``worth[x - lo]`` (0 below
    ``lo``, 1 from ``lo + len(worth)`` on): the expected share of first place against
    opponents whose final totals have the distributions ``finals`` (independent), a
    k-way tie for first counting 1/k.

    >>> lo, w = win_worth([(200, np.ones(1))])
    >>> lo, w.tolist()
    (200, [0.5])
    >>> lo, w = win_worth([(10, np.array([0.5] + [0.0] * 9 + [0.5])), (15, np.ones(1))])
    >>> lo, [round(x, 3) for x in w.tolist()]
    (15, [0.25, 0.5, 0.5, 0.5, 0.5, 0.75])
    """
    lo = max(f[0] for f in finals)
    hi = max(f[0] + len(f[1]) for f in finals)
    xs = np.arange(lo, hi)
    coef = np.zeros((len(finals) + 1, hi - lo))
    coef[0] = 1.0
    for flo, p in finals:
        cdf = np.concatenate([[0.0], np.cumsum(p)])
        below = cdf[np.clip(xs - flo, 0, len(p))]
        at = np.where((xs >= flo) & (xs < flo + len(p)),
                      p[np.clip(xs - flo, 0, len(p) - 1)], 0.0)
        nxt = coef * below
        nxt[1:] += coef[:-1] * at
        coef = nxt
    worth = (coef / np.arange(1, len(finals) + 2)[:, None]).sum(axis=0)
    return lo, np.clip(worth, 0.0, 1.0)
