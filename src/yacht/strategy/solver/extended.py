"""Exact tables for rules the kernels do not know, in numpy: served boxes (points that
count more on the turn's first roll) and a box that scores only while another holds
points (Generala's escalera, full and poker served, its doble generala).

The recurrences are the kernels' (``e0_scalar`` and ``keep_levels`` of ``_native.c``;
:mod:`.reference` writes them plainly)
with two changes: a box's points and the state's flag after it depend on the flag
(``needs_box`` scores 0 while ``fbox`` holds none), and the dice of the first roll
may be scored at their served points, so the value of an outcome with every roll
still to come is the best of its served placement and its keeps. Such games are small
(no upper total is tracked: one or two states per set of filled boxes), so a table
takes seconds in numpy.

>>> from yacht.rules import get
>>> from .spec import compile_ruleset
>>> spec = compile_ruleset(get("generala", {"doble": "off"}))
>>> V, states, _ = build_extended(spec)
>>> states, round(float(V[0, 0]), 4) > 0
(1023, True)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .spec import Spec

__all__ = ["build_extended", "keep_levels", "state_turn"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@lru_cache(maxsize=8)
def _sizes(spec: Spec) -> tuple[list[I64], I64, I64]:
    """The multisets of each size, and the dice tables' ``up`` and ``down``."""
    t = spec.dice
    sizes = [np.flatnonzero(t.size == k).astype(np.int64) for k in range(t.n + 1)]
    return sizes, np.asarray(t.up, dtype=np.int64), np.asarray(t.down, dtype=np.int64)


def _placements(spec: Spec, V: F64, m: int, flag: int, score: npt.NDArray[Any]) -> F64:
    """The best placement value of every outcome from state (m, flag) with ``score``."""
    open_ = [b for b in range(spec.nbox) if not (m >> b) & 1]
    boxes = np.array(open_, dtype=np.int64)
    pts = score[boxes].astype(np.int64)
    if spec.needs_box >= 0 and not flag:
        pts[boxes == spec.needs_box] = 0
    after = np.broadcast_to(np.int64(flag), pts.shape).copy()
    if spec.fbox >= 0:
        at = boxes == spec.fbox
        after[at] = (pts[at] > 0).astype(np.int64)
    nxt = (m | (1 << boxes))[:, None]
    gain = pts * spec.box_mult[boxes][:, None]
    values = gain + V[np.broadcast_to(nxt, pts.shape), after * spec.U]
    best: F64 = values.max(axis=0)
    return best


def keep_levels(spec: Spec, E0: F64, levels: int,
                stop: Callable[[int], F64 | None] = lambda level: None) -> F64:
    """``Ks[j, k]``: the value of keeping ``k`` and rolling the rest with ``j`` rolls left
    after that roll, as the kernels' ``keep_levels`` (``E0``: the placement values);
    ``stop(j)``: values of stopping with ``j`` rolls left that may beat keeping (the
    served placements at the first roll, what saved rolls are worth), or None. Several
    states at once: ``E0`` (and what ``stop`` gives) of shape ``(states, outcomes)``,
    ``Ks[s, j, k]`` (the same steps for each, so the same numbers)."""
    t = spec.dice
    sizes, up, down = _sizes(spec)
    fs = t.full_start
    Ks = np.empty(E0.shape[:-1] + (levels, t.nall))
    first = stop(0)
    Ks[..., 0, fs:] = E0 if first is None else np.maximum(E0, first)
    for level in range(levels):
        K = Ks[..., level, :]
        for k in range(t.n - 1, -1, -1):
            idx = sizes[k]
            K[..., idx] = K[..., up[idx]].mean(axis=-1)
        if level == levels - 1:
            break
        nxt = Ks[..., level + 1, :]
        nxt[...] = K
        for k in range(1, t.n + 1):
            idx = sizes[k]
            for f in range(t.faces):
                dn = down[idx, f]
                ok = dn >= 0
                nxt[..., idx[ok]] = np.maximum(nxt[..., idx[ok]], nxt[..., dn[ok]])
        extra = stop(level + 1)
        if extra is not None:
            nxt[..., fs:] = np.maximum(nxt[..., fs:], extra)
    return Ks


def state_turn(spec: Spec, V: F64, m: int, a: int, E0: F64, Ks: F64) -> None:
    """``E0`` and ``Ks`` of state (m, a) as the kernels' ``state_turn`` gives them, the
    served placements counted at the first roll (``Ks[rolls - 1]``)."""
    flag = a // spec.U
    R = spec.rolls
    E0[:] = _placements(spec, V, m, flag, spec.score)
    served = (None if spec.served is None
              else _placements(spec, V, m, flag, spec.served))
    Ks[:] = keep_levels(spec, E0, R, lambda level: served if level == R - 1 else None)


def build_extended(spec: Spec, progress: Callable[[int, int], None] | None = None
                   ) -> tuple[F64, int, int]:
    """The value table ``V[mask, flag * U]`` of ``spec`` (as :func:`.build.build_table`):
    the table, the number of states solved and the bytes it takes."""
    t = spec.dice
    nmask = 1 << spec.nbox
    V = np.zeros((nmask, spec.A))
    E0 = np.empty(t.nfull)
    Ks = np.empty((spec.rolls, t.nall))
    masks = np.arange(nmask, dtype=np.int64)
    filled = np.zeros(nmask, dtype=np.int64)
    for b in range(spec.nbox):
        filled += (masks >> b) & 1
    states = 0
    for k in range(spec.nbox - 1, -1, -1):
        for m in masks[filled == k].tolist():
            flags = 2 if spec.fbox >= 0 and (m >> spec.fbox) & 1 else 1
            for flag in range(flags):
                state_turn(spec, V, m, flag * spec.U, E0, Ks)
                V[m, flag * spec.U] = Ks[spec.rolls - 1, 0]
                states += 1
            if flags == 1 and spec.nflag == 2:
                V[m, spec.U] = V[m, 0]  # (no card has it: the box is open)
        if progress is not None:
            progress(spec.nbox - k, spec.nbox)
    return V, states, V.nbytes + E0.nbytes + Ks.nbytes
