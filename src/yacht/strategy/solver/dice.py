"""Dice multisets and the index tables the kernels walk.

Every multiset of 0..n dice over ``faces`` faces gets an index; indices are
ordered by size, so the ``n``-dice outcomes form the last block. Adding a
die (``up``) always moves to a larger index and removing one (``down``) to
a smaller one, which is what lets the kernels sweep keeps in one pass.

>>> t = dice_tables(2, 3)
>>> t.nall, t.nfull, t.full_start
(10, 6, 4)
>>> t.counts[t.index_of((1, 1))].tolist()
[2, 0, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import factorial
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DiceTables", "dice_tables", "proper_subsets", "sweep_tables"]

IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class DiceTables:
    n: int
    faces: int
    nall: int
    nfull: int
    full_start: int
    counts: IntArray      # (nall, faces)
    size: IntArray        # (nall,)
    up: IntArray          # (nall, faces): index after adding a die of that face, -1 at size n
    down: IntArray        # (nall, faces): index after removing one, -1 if none shows it
    code_index: IntArray  # base-(n+1) code of the counts -> index
    is_yacht: npt.NDArray[np.bool_]  # (nfull,): all dice show one face
    yface: IntArray       # (nfull,): that face (0-based), -1 otherwise
    prob: npt.NDArray[np.float64]    # (nfull,): chance of rolling the outcome with n dice
    pairs: IntArray       # (npairs, 2): (s, s minus one die) for every s, s ascending

    def code(self, counts: Sequence[int]) -> int:
        c, base = 0, 1
        for x in counts:
            c += int(x) * base
            base *= self.n + 1
        return c

    def index_of(self, dice: Sequence[int]) -> int:
        """Index of the multiset of dice values (1-based faces)."""
        cnt = [0] * self.faces
        for v in dice:
            cnt[v - 1] += 1
        return int(self.code_index[self.code(cnt)])

    def index_of_counts(self, counts: Sequence[int]) -> int:
        return int(self.code_index[self.code(counts)])

    def dice_of(self, index: int) -> tuple[int, ...]:
        return tuple(f + 1 for f in range(self.faces) for _ in range(int(self.counts[index, f])))


def _multisets(size: int, faces: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rec(f: int, left: int, acc: list[int]) -> None:
        if f == faces - 1:
            out.append((*acc, left))
            return
        for c in range(left, -1, -1):
            rec(f + 1, left - c, [*acc, c])

    if faces == 1:
        return [(size,)]
    rec(0, size, [])
    return out


@lru_cache(maxsize=16)
def dice_tables(n: int, faces: int = 6) -> DiceTables:
    """The tables for ``n`` dice with ``faces`` faces (cached)."""
    allc: list[tuple[int, ...]] = []
    for k in range(n + 1):
        allc.extend(_multisets(k, faces))
    nall = len(allc)
    counts = np.array(allc, dtype=np.int32).reshape(nall, faces)
    size = counts.sum(axis=1).astype(np.int32)
    base = (n + 1) ** np.arange(faces, dtype=np.int64)
    codes = (counts.astype(np.int64) * base).sum(axis=1)
    code_index = np.full((n + 1) ** faces, -1, dtype=np.int32)
    code_index[codes] = np.arange(nall, dtype=np.int32)
    up = np.full((nall, faces), -1, dtype=np.int32)
    down = np.full((nall, faces), -1, dtype=np.int32)
    for i in range(nall):
        for f in range(faces):
            if size[i] < n:
                up[i, f] = code_index[codes[i] + base[f]]
            if counts[i, f] > 0:
                down[i, f] = code_index[codes[i] - base[f]]
    full_start = int(np.searchsorted(size, n))
    nfull = nall - full_start
    full = counts[full_start:]
    is_yacht = (full == n).any(axis=1)
    yface = np.where(is_yacht, full.argmax(axis=1), -1).astype(np.int32)
    prob = np.empty(nfull, dtype=np.float64)
    for i, row in enumerate(full):
        ways = factorial(n)
        for c in row:
            ways //= factorial(int(c))
        prob[i] = ways / faces**n
    pairs = np.array([(s, down[s, f]) for s in range(nall) for f in range(faces)
                      if down[s, f] >= 0], dtype=np.int32).reshape(-1, 2)
    return DiceTables(n, faces, nall, nfull, full_start, counts, size, up, down, code_index,
                      is_yacht, yface, prob, pairs)


@lru_cache(maxsize=16)
def proper_subsets(n: int, faces: int = 6) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For every ``n``-dice outcome, the indices of its distinct proper sub-multisets.

    Returns ``(subs, nsubs)``: row ``d`` (outcome ``full_start + d``) lists
    ``nsubs[d]`` indices, the empty keep included and keeping every die not.

    >>> subs, nsubs = proper_subsets(2, 2)
    >>> t = dice_tables(2, 2)
    >>> d = t.index_of((1, 2)) - t.full_start
    >>> sorted(t.dice_of(int(k)) for k in subs[d, :nsubs[d]])
    [(), (1,), (2,)]
    """
    t = dice_tables(n, faces)
    # s is a sub-multiset of d when it shows no face more often; listed in the order
    # of their codes (face 1 counting fastest), keeping every die excluded
    base = (n + 1) ** np.arange(faces, dtype=np.int64)
    proper = np.flatnonzero(t.size < n)
    order = proper[np.argsort(t.counts[proper].astype(np.int64) @ base, kind="stable")]
    keeps = t.counts[order]
    full = t.counts[t.full_start:]
    nsubs = np.zeros(t.nfull, dtype=np.int64)
    rows: list[npt.NDArray[np.bool_]] = []
    step = max(1, (1 << 22) // max(1, len(order) * faces))
    for lo in range(0, t.nfull, step):
        inside: npt.NDArray[np.bool_] = np.asarray(
            (keeps[None, :, :] <= full[lo:lo + step, None, :]).all(axis=2))
        nsubs[lo:lo + step] = inside.sum(axis=1)
        rows.append(inside)
    width = int(nsubs.max())
    subs = np.zeros((t.nfull, width), dtype=np.int64)
    d = 0
    for inside in rows:
        for row in inside:
            got = order[row]
            subs[d, :len(got)] = got
            d += 1
    return subs, nsubs


@lru_cache(maxsize=16)
def sweep_tables(n: int, faces: int = 6) -> tuple[npt.NDArray[Any], ...]:
    """The tables of the wide sweeps (:func:`wide.levels_wide`), all int64 but ``prob``.

    ``(up, dc, mrows, mgroups, prob)``: ``up`` as in :class:`DiceTables`;
    ``dc[s]`` the multisets one die below ``s`` (first ``count`` entries);
    ``mrows`` every multiset ordered by size, then by how many faces it
    shows; ``mgroups`` rows ``(first, end, count)`` of that order (a group
    has one size and one count); ``prob`` the chance of each outcome.

    >>> up, dc, mrows, mgroups, prob = sweep_tables(2, 2)
    >>> mgroups.tolist()
    [[0, 1, 0], [1, 3, 1], [3, 5, 1], [5, 6, 2]]
    >>> round(float(prob.sum()), 12)
    1.0
    """
    t = dice_tables(n, faces)
    shown = (t.down >= 0).sum(axis=1)
    dc = np.full((t.nall, faces), t.nall, dtype=np.int64)
    for s in range(t.nall):
        below = [int(x) for x in t.down[s] if x >= 0]
        dc[s, :len(below)] = below
    mrows = np.lexsort((np.arange(t.nall), shown, t.size)).astype(np.int64)
    groups: list[list[int]] = []
    for i, s in enumerate(mrows):
        key = (int(t.size[s]), int(shown[s]))
        if groups and (int(t.size[mrows[groups[-1][0]]]), groups[-1][2]) == key:
            groups[-1][1] = i + 1
        else:
            groups.append([i, i + 1, key[1]])
    mgroups = np.array(groups, dtype=np.int64).reshape(-1, 3)
    return t.up.astype(np.int64), dc, mrows, mgroups, t.prob.astype(np.float64)
