"""Everything a kernel reads about a ruleset, as one typed record.

The C kernels (``_native``) take their tables through :class:`KernelTables`, a
named tuple held once per variant by a ``_native.Tables`` object: the C side
looks every field up by name (checking its type and shape), so an argument in
the wrong place cannot pass silently; :mod:`.reference` reads the same fields. Integer arrays are
``int64``, flags ``bool``, everything C-contiguous.

>>> from yacht.rules import get
>>> from .spec import compile_ruleset
>>> kt = kernel_tables(compile_ruleset(get("yahtzee")))
>>> kt.nbox, kt.U, kt.score.shape, kt.score.dtype.name
(13, 64, (13, 252), 'int64')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from yacht.rules.errors import InvalidValue

from .dice import proper_subsets, sweep_tables
from .spec import Spec

__all__ = ["KernelTables", "kernel_tables", "padded_stride", "placement_rows",
           "relaxed_tables", "scores_ok", "tile_width", "wide_ok"]

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
B = npt.NDArray[np.bool_]


class KernelTables(NamedTuple):
    """The rules and dice tables of one ruleset, as the kernels read them."""

    # the rules
    U: int              # upper totals tracked (1 when no bonus)
    need: int           # upper total that earns the bonus
    bonus_amt: int
    nbox: int
    ybox: int           # Yahtzee-bonus/joker box or -1
    jmode: int          # 0 none, 1 forced, 2 free
    ybonus: int         # points per extra yacht while the box holds points
    rolls: int
    score: I64          # (nbox, nfull) points of each box for each outcome
    box_upper: B        # (nbox,)
    box_mult: I64       # (nbox,)
    joker_pts: I64      # (nbox,) joker points or -1
    upper_of_face: I64  # (faces,) upper box of a face in column 1, or -1
    rep_pts: I64        # (nbox,) repeat points (x multiplier) or 0
    # placement rows (see placement_rows)
    row_box: I64
    row_pts: I64
    row_flag: I64
    row_upper: B
    zrow: I64
    prow: I64           # (nfull, width)
    padd: F64           # (nfull, width)
    npd: I64
    row_of: I64         # (nbox, maxpts + 1): row of (tracked upper box, points), else -1
    # the dice
    n: int
    faces: int
    full_start: int
    is_yacht: B         # (nfull,)
    yface: I64          # (nfull,)
    up: I64             # (nall, faces)
    down: I64           # (nall, faces)
    dc: I64             # (nall, faces) multisets one die below, padded with nall
    mrows: I64          # (nall,)
    mgroups: I64        # (groups, 3)
    prob: F64           # (nfull,)
    pairs: I64          # (npairs, 2)
    code_index: I64
    counts: I64         # (nall, faces)
    size: I64           # (nall,)
    subs: I64           # (nfull, width) proper sub-multisets of each outcome
    nsubs: I64          # (nfull,)
    # a relaxed game (the bound of saved rolls, :mod:`.pool`); a real game: 0 and ``rolls``
    layer_cost: F64     # (nbox,) points every roll of a turn with that many boxes filled
                        # costs (a keep: its average less it)
    layer_rolls: I64    # (nbox,) rolls of a turn with that many boxes filled


def tile_width(spec: Spec) -> int:
    """States solved side by side by the wide kernels (rows stay in cache)."""
    return 64 if spec.dice.nall <= 1024 else 32


@lru_cache(maxsize=64)
def scores_ok(spec: Spec) -> bool:
    """No box scores below zero (then 0 points is never better than the dice's points,
    which the wide placement step relies on)."""
    return bool((spec.score >= 0).all() and (spec.box_mult >= 0).all())


@lru_cache(maxsize=64)
def wide_ok(spec: Spec) -> bool:
    """Whether the wide kernels cover ``spec``: no repeat box (every turn fills a box)
    and no box scoring below zero (the native build also takes a repeat box)."""
    return not spec.rep_pts.any() and scores_ok(spec)


def padded_stride(spec: Spec) -> int:
    """Columns per flag in the padded layout of the build: the upper totals, then room
    for the largest upper score past the cap (those repeat the capped value)."""
    if spec.U == 1:
        return 1
    return spec.U + int(spec.score[spec.box_upper].max())


def placement_rows(spec: Spec) -> tuple[I64, I64, I64, B, I64, I64, F64, I64, I64]:
    """The row tables of the wide placement step (placements of many states at once).

    Row ``r`` is "the value after box ``row_box[r]``": for a tracked upper box one
    row per score it can take (``row_pts``, points and bonus included), else one
    row (a Yahtzee box with the bonus rule has two: flag 0 and flag 1).
    ``zrow[b]``: the row of 0 points in box ``b``; ``prow[d, :npd[d]]`` with
    ``padd``: the rows (and points to add) of the boxes where outcome ``d``
    scores points; ``row_of[b, p]``: the row of ``p`` points in tracked box ``b``.
    """
    tracked = spec.U > 1
    rows: list[tuple[int, int, int, bool]] = []
    zrow = np.zeros(spec.nbox, dtype=np.int64)
    slot: dict[tuple[int, int], int] = {}
    maxpts = max(0, int(spec.score.max()), int(spec.joker_pts.max()))
    row_of = np.full((spec.nbox, maxpts + 1), -1, dtype=np.int64)
    for b in range(spec.nbox):
        if tracked and spec.box_upper[b]:
            pts_set = {0, *map(int, spec.score[b])}
            if spec.joker_pts[b] >= 0:
                pts_set.add(int(spec.joker_pts[b]))
            for pts in sorted(pts_set):
                slot[b, pts] = len(rows)
                row_of[b, pts] = len(rows)
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
    return row_box, row_pts, row_flag, row_upper, zrow, prow, padd, npd, row_of


def _i64(a: Any) -> I64:
    return np.ascontiguousarray(a, dtype=np.int64)


@lru_cache(maxsize=32)
def kernel_tables(spec: Spec) -> KernelTables:
    """The :class:`KernelTables` of ``spec`` (made once per spec)."""
    t = spec.dice
    up, dc, mrows, mgroups, prob = sweep_tables(t.n, t.faces)
    subs, nsubs = proper_subsets(t.n, t.faces)
    row_box, row_pts, row_flag, row_upper, zrow, prow, padd, npd, row_of = placement_rows(spec)
    return KernelTables(
        U=spec.U, need=min(spec.need, 1 << 30), bonus_amt=spec.bonus_amt, nbox=spec.nbox,
        ybox=spec.ybox, jmode=spec.jmode, ybonus=spec.ybonus, rolls=spec.rolls,
        score=_i64(spec.score), box_upper=np.ascontiguousarray(spec.box_upper, dtype=np.bool_),
        box_mult=_i64(spec.box_mult), joker_pts=_i64(spec.joker_pts),
        upper_of_face=_i64(spec.upper_of_face), rep_pts=_i64(spec.rep_pts),
        row_box=row_box, row_pts=row_pts, row_flag=row_flag, row_upper=row_upper, zrow=zrow,
        prow=prow, padd=padd, npd=npd, row_of=row_of,
        n=t.n, faces=t.faces, full_start=t.full_start,
        is_yacht=np.ascontiguousarray(t.is_yacht, dtype=np.bool_), yface=_i64(t.yface),
        up=_i64(up), down=_i64(t.down), dc=_i64(dc), mrows=_i64(mrows), mgroups=_i64(mgroups),
        prob=np.ascontiguousarray(prob, dtype=np.float64), pairs=_i64(t.pairs),
        code_index=_i64(t.code_index), counts=_i64(t.counts), size=_i64(t.size),
        subs=_i64(subs), nsubs=_i64(nsubs), layer_cost=np.zeros(spec.nbox),
        layer_rolls=np.full(spec.nbox, spec.rolls, dtype=np.int64))


def relaxed_tables(spec: Spec, layer_rolls: Any, roll_cost: Any) -> KernelTables:
    """The tables of ``spec`` with ``layer_rolls[k]`` rolls in a turn after ``k`` boxes are
    filled and every roll of that turn costing ``roll_cost[k]`` points (one number: every
    turn's) (the relaxed game of :func:`.pool.pool_bound`; the build reads both, the other
    kernels the costs only)."""
    rolls = _i64(layer_rolls)
    if rolls.shape != (spec.nbox,):
        raise InvalidValue(f"layer_rolls: one number per box expected, got {rolls.shape}")
    cost = np.ascontiguousarray(np.broadcast_to(np.asarray(roll_cost, dtype=np.float64),
                                                (spec.nbox,)))
    return kernel_tables(spec)._replace(layer_cost=cost, layer_rolls=rolls,
                                        rolls=int(rolls.max()))
