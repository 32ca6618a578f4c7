"""Build (or load) the table of a ruleset and wrap it as a :class:`Solution`."""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, Scorecard

from . import cache as diskcache
from .dice import sweep_tables
from .spec import Spec, compile_ruleset

__all__ = ["Solution", "clear_memory_cache", "solve"]

Progress = Callable[[int, int], None]
F64 = npt.NDArray[np.float64]

# tables bigger than this many cells are stored as float32 (error far below 0.0005)
FLOAT32_CELLS = 1 << 23


def _threads(workers: int | None) -> int:
    if workers is None:
        workers = os.cpu_count() or 1
    return max(1, min(64, workers))


def _kernel_args(spec: Spec) -> tuple[Any, ...]:
    t = spec.dice
    return (spec.U, spec.need, spec.bonus_amt, spec.score, spec.box_upper, spec.box_mult,
            spec.nbox, t.is_yacht, t.yface, spec.ybox, spec.jmode, spec.ybonus,
            spec.joker_pts, spec.upper_of_face, spec.rep_pts)


def build_table(spec: Spec, progress: Progress | None = None,
                workers: int | None = None) -> tuple[npt.NDArray[Any], int]:
    """The value of every card state: ``V[mask, aux]`` (see :mod:`.kernels`) and the count.

    Masks are solved layer by layer (most boxes filled first); the masks of a
    layer are independent and are spread over ``workers`` threads.
    """
    nmask = 1 << spec.nbox
    masks = np.arange(nmask, dtype=np.int64)
    pc = np.zeros(nmask, dtype=np.int8)
    for b in range(spec.nbox):
        pc += ((masks >> b) & 1).astype(np.int8)
    order = np.argsort(pc, kind="stable").astype(np.int64)
    bounds = np.concatenate([[0], np.cumsum(np.bincount(pc, minlength=spec.nbox + 1))])
    threads = _threads(workers)
    umax = spec.umax()
    final, run = (_wide_runner if wide_ok(spec) else _repeat_runner)(spec, umax)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        for k in range(spec.nbox - 1, -1, -1):
            layer = order[bounds[k]:bounds[k + 1]]
            nchunks = max(1, min(len(layer), threads * 8 if len(layer) > 64 else threads))
            edges = [len(layer) * i // nchunks for i in range(nchunks + 1)]
            if threads == 1 or nchunks == 1:
                run(layer, 0, len(layer))
            else:
                futures = [pool.submit(run, layer, edges[i], edges[i + 1])
                           for i in range(nchunks) if edges[i] < edges[i + 1]]
                for f in futures:
                    f.result()
            if progress is not None:
                progress(spec.nbox - k, spec.nbox)
    nflag = np.ones(nmask, dtype=np.int64)
    if spec.nflag == 2:
        nflag += (masks >> spec.ybox) & 1
    states = int(((umax.astype(np.int64) + 1) * nflag).sum())
    return final(), states


Runner = Callable[[npt.NDArray[np.int64], int, int], None]
Final = Callable[[], npt.NDArray[Any]]


def tile_width(spec: Spec) -> int:
    """States solved side by side by the wide kernels (rows stay in cache)."""
    return 64 if spec.dice.nall <= 1024 else 32


def wide_ok(spec: Spec) -> bool:
    """Whether the wide kernels cover ``spec``: no repeat box (every turn fills a box)
    and no box scoring below zero (0 points is never better than the dice's points)."""
    return not spec.rep_pts.any() and bool((spec.score >= 0).all()
                                           and (spec.box_mult >= 0).all())


@lru_cache(maxsize=32)
def placement_rows(spec: Spec) -> tuple[npt.NDArray[Any], ...]:
    """The row tables of :func:`wide.e0_games` (placements of many states at once).

    Row ``r`` is "the value after box ``row_box[r]``": for a tracked upper box one
    row per score it can take (``row_pts``, points and bonus included), else one
    row (a Yahtzee box with the bonus rule has two: flag 0 and flag 1).
    ``zrow[b]``: the row of 0 points in box ``b``; ``prow[d, :npd[d]]`` with
    ``padd``: the rows (and points to add) of the boxes where outcome ``d``
    scores points.
    """
    tracked = spec.U > 1
    rows: list[tuple[int, int, int, bool]] = []
    zrow = np.zeros(spec.nbox, dtype=np.int64)
    slot: dict[tuple[int, int], int] = {}
    for b in range(spec.nbox):
        if tracked and spec.box_upper[b]:
            for pts in sorted({0, *map(int, spec.score[b])}):
                slot[b, pts] = len(rows)
                rows.append((b, pts, -1, True))
            zrow[b] = slot[b, 0]
        elif b == spec.ybox and spec.ybonus > 0:
            zrow[b] = len(rows)
            rows.append((b, 0, 0, False))
            slot[b, 1] = len(rows)
            rows.append((b, 0, 1, False))
        else:
            zrow[b] = slot[b, 1] = len(rows)
            rows.append((b, 0, -1, False))
    nfull = spec.dice.nfull
    lists: list[list[tuple[int, float]]] = []
    for d in range(nfull):
        out: list[tuple[int, float]] = []
        for b in range(spec.nbox):
            pts = int(spec.score[b, d])
            if pts <= 0:
                continue
            if tracked and spec.box_upper[b]:
                out.append((slot[b, pts], 0.0))
            else:
                out.append((slot[b, 1], float(pts * spec.box_mult[b])))
        lists.append(out)
    width = max(1, max(len(x) for x in lists))
    prow = np.zeros((nfull, width), dtype=np.int64)
    padd = np.zeros((nfull, width), dtype=np.float64)
    npd = np.zeros(nfull, dtype=np.int64)
    for d, out in enumerate(lists):
        npd[d] = len(out)
        for k, (r, add) in enumerate(out):
            prow[d, k] = r
            padd[d, k] = add
    row_box = np.array([r[0] for r in rows], dtype=np.int64)
    row_pts = np.array([r[1] for r in rows], dtype=np.int64)
    row_flag = np.array([r[2] for r in rows], dtype=np.int64)
    row_upper = np.array([r[3] for r in rows], dtype=np.bool_)
    return row_box, row_pts, row_flag, row_upper, zrow, prow, padd, npd


def padded_stride(spec: Spec) -> int:
    """Columns per flag in the padded layout: the upper totals, then room for the
    largest upper score past the cap (those repeat the capped value)."""
    if spec.U == 1:
        return 1
    return spec.U + int(spec.score[spec.box_upper].max())


def _wide_runner(spec: Spec, umax: npt.NDArray[np.int32]) -> tuple[Final, Runner]:
    """The wide-tile build (:mod:`.wide`): returns (final table getter, chunk runner)."""
    from . import wide

    kernel: Any = wide.solve_chunk_wide
    t = spec.dice
    nmask = 1 << spec.nbox
    U = spec.U
    masks = np.arange(nmask, dtype=np.int64)
    umax64 = umax.astype(np.int64)
    S = padded_stride(spec)
    if U > 1:
        rem = np.zeros(nmask, dtype=np.int64)
        for b in range(spec.nbox):
            if spec.box_upper[b]:
                rem += (1 - ((masks >> b) & 1)) * int(spec.score[b].max())
        # below need - rem the bonus is out of reach: one value stands for all
        ulo = np.minimum(umax64, np.maximum(0, spec.need - rem - 1))
    else:
        ulo = np.zeros(nmask, dtype=np.int64)
    nflag = np.ones(nmask, dtype=np.int64)
    if spec.nflag == 2:
        nflag += (masks >> spec.ybox) & 1
    Vp = np.zeros((nmask, spec.nflag * S))
    args = (Vp, S, ulo, umax64, nflag, spec.need, spec.bonus_amt, spec.score, spec.box_upper,
            spec.box_mult, spec.nbox, t.is_yacht, t.yface, spec.ybox, spec.jmode, spec.ybonus,
            spec.joker_pts, spec.upper_of_face, spec.rep_pts, *placement_rows(spec),
            *sweep_tables(t.n, t.faces), t.full_start, t.faces, spec.rolls, tile_width(spec))

    def run(layer: npt.NDArray[np.int64], lo: int, hi: int) -> None:
        kernel(layer, lo, hi, *args)

    def final() -> npt.NDArray[Any]:
        dtype = np.float64 if nmask * spec.A <= FLOAT32_CELLS else np.float32
        V = np.empty((nmask, spec.A), dtype=dtype)
        for fl in range(spec.nflag):
            V[:, fl * U:(fl + 1) * U] = Vp[:, fl * S:fl * S + U]
        return V

    return final, run


def _repeat_runner(spec: Spec, umax: npt.NDArray[np.int32]) -> tuple[Final, Runner]:
    """A build with a repeat box: every state is a fixed point, solved mask by mask."""
    from . import kernels

    solve_chunk: Any = kernels.solve_chunk
    nmask = 1 << spec.nbox
    dtype = np.float64 if nmask * spec.A <= FLOAT32_CELLS else np.float32
    V = np.zeros((nmask, spec.A), dtype=dtype)
    t = spec.dice
    args = _kernel_args(spec)

    def run(layer: npt.NDArray[np.int64], lo: int, hi: int) -> None:
        solve_chunk(layer, lo, hi, V, umax, *args, t.up, t.down, t.full_start, t.faces,
                    spec.rolls)

    return (lambda: V), run


def forced_turn_tables(spec: Spec) -> tuple[F64, float]:
    """Keep values of the forced first turn and its expected score.

    ``keep[r, k]``: expected score of the box when ``k`` is kept after roll ``r``
    (1-based) and the rest is rolled (roll ``r + 1``). Returns (keep, start).
    """
    ft = spec.forced
    assert ft is not None
    t = spec.dice
    last = ft.last_roll
    n = t.n
    sizes = [np.flatnonzero(t.size == k) for k in range(n + 1)]
    keep = np.full((last + 1, t.nall), np.nan)
    E_next: F64 | None = None
    start = 0.0
    for r in range(last, 0, -1):
        # E_r on the full block
        E = np.empty(t.nfull)
        if E_next is None:
            E[:] = ft.floor
        else:
            K = _keep_average(t, E_next, sizes)
            keep[r] = K
            M = K.copy()
            for k in range(1, n + 1):
                idx = sizes[k]
                best = M[idx]
                for f in range(t.faces):
                    dn = t.down[idx, f]
                    ok = dn >= 0
                    cand = np.where(ok, M[np.where(ok, dn, 0)], -np.inf)
                    if k == n:
                        best = cand if f == 0 else np.maximum(best, cand)
                    else:
                        best = np.maximum(best, cand)
                M[idx] = best
            E[:] = M[t.full_start:]
        E[t.is_yacht] = ft.value(r)
        E_next = E
    assert E_next is not None
    K = _keep_average(t, E_next, sizes)
    keep[0] = K
    start = float(K[0])
    return keep, start


def _keep_average(t: Any, E_full: F64, sizes: list[Any]) -> F64:
    K = np.empty(t.nall)
    K[t.full_start:] = E_full
    for k in range(t.n - 1, -1, -1):
        idx = sizes[k]
        K[idx] = K[t.up[idx]].mean(axis=1)
    return K


@dataclass(eq=False)
class Solution:
    """The solved table of one ruleset; see ``API.md`` for the contract."""

    spec: Spec
    V: npt.NDArray[Any]
    states: int
    seconds: float
    built: bool
    peak_memory: int = 0
    forced_keep: F64 | None = None
    forced_start: float = 0.0
    exact: bool = True
    upper_bound: float | None = None
    note: str = ""
    estimate: float | None = None
    _turns: OrderedDict[tuple[int, int], tuple[F64, F64]] = field(
        default_factory=OrderedDict, repr=False)

    @property
    def ruleset(self) -> Ruleset:
        return self.spec.ruleset

    @property
    def expected_score(self) -> float:
        """Optimal solitaire expectation from an empty card (measured, when not exact)."""
        if self.estimate is not None:
            return self.estimate
        if self.spec.forced is not None:
            return self.forced_start + float(self.V[1 << self.spec.forced.box, 0])
        return float(self.V[0, 0])

    def future(self, mask: int, aux: int) -> float:
        """Expected points still to come from the start of a (normal) turn."""
        return float(self.V[mask, aux])

    def forced_turn(self, card: Scorecard, turn: int) -> bool:
        """Whether this turn is the forced first turn."""
        ft = self.spec.forced
        return (ft is not None and turn == 0 and card.boxes[0][ft.box] is None)

    def value(self, card: Scorecard, turn: int) -> float:
        """Expected final total from the start of a turn with ``card`` (points on it included).

        >>> from yacht.rules import get
        >>> sol = solve(get("tommys-crag"))
        >>> round(sol.value(sol.ruleset.new_card(), 0), 4) == round(sol.expected_score, 4)
        True
        """
        rs = self.ruleset
        if card.complete:
            return float(rs.totals(card).grand)
        m, a = self.spec.state_of(card)
        base = float(rs.totals(card).grand)
        if self.forced_turn(card, turn):
            assert self.spec.forced is not None
            return base + self.forced_start + float(self.V[m | (1 << self.spec.forced.box), a])
        return base + float(self.V[m, a])

    def turn_tables(self, mask: int, aux: int) -> tuple[F64, F64]:
        """(E0, Ks) of a normal turn from state (mask, aux); see :func:`kernels.keep_levels`."""
        key = (mask, aux)
        hit = self._turns.get(key)
        if hit is not None:
            self._turns.move_to_end(key)
            return hit
        from . import kernels

        state_turn: Any = kernels.state_turn
        t = self.spec.dice
        E0 = np.empty(t.nfull)
        Ks = np.empty((self.spec.rolls, t.nall))
        state_turn(mask, aux, self.V, *_kernel_args(self.spec), t.up, t.pairs, t.full_start,
                   t.faces, self.spec.rolls, E0, Ks)
        self._turns[key] = (E0, Ks)
        if len(self._turns) > 4096:
            self._turns.popitem(last=False)
        return E0, Ks


_MEMORY: dict[str, Solution] = {}


def clear_memory_cache() -> None:
    """Forget the solutions kept in this process (the disk cache stays)."""
    _MEMORY.clear()


def _bar(label: str) -> Progress:
    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def solve(ruleset: Ruleset, *, cache: bool = True, progress: bool | Progress = False,
          workers: int | None = None) -> Solution:
    """The optimal solitaire table of ``ruleset``: from memory, from disk, or built now.

    ``progress=True`` draws a bar on stderr while building; a callable gets
    ``(done, total)`` layers. ``cache=False`` neither reads nor writes the disk.

    >>> from yacht.rules import get
    >>> round(solve(get("tommys-crag")).expected_score, 2)
    149.85
    """
    key = ruleset.key
    hit = _MEMORY.get(key)
    if hit is not None and hit.ruleset == ruleset:
        return hit
    spec = compile_ruleset(ruleset)
    fp = spec.fingerprint()
    if hit is not None and hit.spec.fingerprint() == fp:
        return hit
    if spec.nbox > 24 or (spec.dice.n >= 8 and spec.nbox > 16):
        from .approx import solve_approx

        sol = solve_approx(ruleset, cache=cache, progress=progress, workers=workers)
        _MEMORY[key] = sol
        return sol
    path = diskcache.cache_path(key)
    if cache:
        loaded = diskcache.load(path, key, fp)
        if loaded is not None:
            arrays, facts = loaded
            try:
                sol = Solution(spec, arrays["V"], int(facts["states"]), float(facts["seconds"]),
                               False, int(facts.get("peak_memory", 0)),
                               arrays.get("forced_keep"), float(facts.get("forced_start", 0.0)))
                if sol.V.shape == (1 << spec.nbox, spec.A):
                    _MEMORY[key] = sol
                    return sol
            except (KeyError, ValueError, TypeError):
                pass
    cb: Progress | None
    if progress is True:
        cb = _bar(f"solving {key}")
    elif progress is False:
        cb = None
    else:
        cb = progress
    t0 = time.perf_counter()
    tracing = not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    try:
        V, states = build_table(spec, cb, workers)
        fkeep, fstart = (forced_turn_tables(spec) if spec.forced is not None else (None, 0.0))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        if tracing:
            tracemalloc.stop()
    seconds = time.perf_counter() - t0
    sol = Solution(spec, V, states, seconds, True, peak, fkeep, fstart)
    if cache:
        to_save: dict[str, npt.NDArray[Any]] = {"V": V}
        if fkeep is not None:
            to_save["forced_keep"] = fkeep
        diskcache.save(path, key, fp, to_save, {"states": states, "seconds": seconds,
                                                "peak_memory": peak, "forced_start": fstart,
                                                "expected_score": sol.expected_score})
    _MEMORY[key] = sol
    return sol
