"""numba kernels of the score distributions (see :mod:`.dist`): the fallback of the C
kernel ``_native_dist.h`` (the same algorithm, the same results), see :mod:`.backend`.

One state's turn under the expert's play: the placement of every outcome (the
expert's box, :func:`~.kernels.best_place`), the keep values
(:func:`~.kernels.keep_levels`), then the chance of every final outcome by a
forward pass over the keeps the expert plays (the same choices as the
self-play's :func:`~.kernels.play_turn_dice`: stop when scoring now is worth as
much as the best keep, else the first best keep), and the distribution of the
points still to come: the next states' distributions shifted by the points
scored, weighted by the chance of each (box, points) pair. A repeat box (the
same card, more points) makes the state's distribution a fixed point,
``D = A + p D(. - rep)``, solved from the low totals up.

Distributions are stored trimmed: every state keeps the totals between the
first and last whose tail beyond holds more than ``eps`` of the mass, as float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .kernels import _best_keep, best_place, keep_levels, repeat_points


@njit(cache=True, nogil=True, inline="always")
def _spread(kt: Any, M: Any) -> None:
    """Roll the missing dice of every kept multiset: the mass of a multiset smaller
    than ``n`` moves to its outcomes (multisets come ordered by size)."""
    fs = kt.full_start
    inv = 1.0 / kt.faces
    for s in range(fs):
        w = M[s]
        if w != 0.0:
            w *= inv
            for f in range(kt.faces):
                M[kt.up[s, f]] += w
            M[s] = 0.0


@njit(cache=True, nogil=True, inline="always")
def _canon(ulo: Any, A: Any, U: Any, m: Any, flag: Any, u: Any) -> Any:
    """The stored state of (m, flag, u): upper totals too low for the bonus share one."""
    if u < ulo[m]:
        u = ulo[m]
    return m * A + flag * U + u


@njit(cache=True, nogil=True)
def final_outcomes(kt: Any, E0: Any, Ks: Any, F: Any, M: Any, N: Any) -> None:
    """``F[d]``: the chance that the turn ends on outcome ``d`` when the expert plays
    the keeps of ``Ks`` (see :func:`~.kernels.keep_levels`); ``M``, ``N`` scratch."""
    fs = kt.full_start
    nall = kt.up.shape[0]
    nfull = F.shape[0]
    Kf = Ks.ravel()
    for i in range(nall):
        M[i] = 0.0
    for d in range(nfull):
        F[d] = 0.0
    M[0] = 1.0
    _spread(kt, M)
    for left in range(kt.rolls - 1, 0, -1):
        for i in range(nall):
            N[i] = 0.0
        for d in range(nfull):
            w = M[fs + d]
            if w == 0.0:
                continue
            best, bk = _best_keep(kt, Kf, (left - 1) * nall, 1, d)
            if E0[d] >= best:
                F[d] += w
            else:
                N[bk] += w
        for i in range(nall):
            M[i] = N[i]
        _spread(kt, M)
    for d in range(nfull):
        F[d] += M[fs + d]


@njit(cache=True, nogil=True, error_model="numpy")
def place(kt: Any, V: Any, m: Any, a: Any, A: Any, ulo: Any, E0: Any, gj: Any,
          gg: Any) -> None:
    """The expert's placement of every outcome from state (m, a): ``E0[d]`` its value,
    ``gj[d]`` the next state (-2: the full card, -1: a repeat), ``gg[d]`` the points.
    A yacht takes :func:`~.kernels.best_place` (the joker rules, a repeat); any other
    outcome may go in every open box at its points, the first best box as there."""
    U = kt.U
    u = a % U
    flag = a // U
    full = (1 << kt.nbox) - 1
    nbox = kt.nbox
    score = kt.score
    mult = kt.box_mult
    upper = kt.box_upper
    need = kt.need
    bonus = kt.bonus_amt
    ybox = kt.ybox if kt.ybonus > 0 else -1
    cap = U - 1
    special = kt.ybox >= 0 or repeat_points(kt, m) > 0
    for d in range(score.shape[1]):
        if special and kt.is_yacht[d]:
            b, gain, nu, nfl = best_place(kt, m, u, flag, d, V)
        else:   # place_box's plain case (no joker, no extra), written out: 100x faster
            best = -1.0e30
            b, gain, nu, nfl = -2, 0, u, flag
            for bb in range(nbox):
                if ((m >> bb) & 1) == 1:
                    continue
                pts = score[bb, d]
                g2 = pts * mult[bb]
                nf2 = flag
                if bb == ybox:
                    nf2 = 1 if pts > 0 else 0
                nu2 = u
                if U > 1 and upper[bb]:
                    nu2 = u + pts
                    if u < need and nu2 >= need:
                        g2 += bonus * mult[bb]
                    if nu2 > cap:
                        nu2 = cap
                v = g2 + V[m | (1 << bb), nf2 * U + nu2]
                if v > best:
                    best = v
                    b, gain, nu, nfl = bb, g2, nu2, nf2
        if b >= 0:
            m2 = m | (1 << b)
            E0[d] = gain + V[m2, nfl * U + nu]
            gj[d] = -2 if m2 == full else _canon(ulo, A, U, m2, nfl, nu)
        else:           # a repeat: the same card
            E0[d] = gain + V[m, a]
            gj[d] = -1
        gg[d] = gain


@njit(cache=True, nogil=True, error_model="numpy")
def dist_state(kt: Any, V: Any, m: Any, a: Any, A: Any, ulo: Any, off: Any, dlo: Any,
               dlen: Any, P: Any, eps: Any, D: Any, E0: Any, Ks: Any, F: Any, M: Any,
               N: Any, gj: Any, gg: Any, gw: Any) -> Any:
    """The distribution of the points to come from state (m, a) into ``D`` (zeros on
    entry, dense from 0); returns its trimmed range (lo, hi) (hi exclusive). The
    next states' distributions are read from (off, dlo, dlen, P)."""
    nfull = F.shape[0]
    W = D.shape[0]
    place(kt, V, m, a, A, ulo, E0, gj, gg)
    keep_levels(kt, E0, Ks)
    final_outcomes(kt, E0, Ks, F, M, N)
    # the (next state, points) pairs, each with its chance (outcomes grouped)
    ng = 0
    for d in range(nfull):
        w = F[d]
        if w == 0.0:
            continue
        k = 0
        while k < ng and not (gj[nfull + k] == gj[d] and gg[nfull + k] == gg[d]):
            k += 1
        if k == ng:
            gj[nfull + k] = gj[d]
            gg[nfull + k] = gg[d]
            gw[k] = 0.0
            ng += 1
        gw[k] += w
    lo = W
    hi = 0
    prep = 0.0
    rep = 0
    for k in range(ng):
        j = gj[nfull + k]
        g = gg[nfull + k]
        w = gw[k]
        if j == -1:
            prep += w
            rep = g
            continue
        if j == -2:
            if g < W:
                D[g] += w
                lo = min(lo, g)
                hi = max(hi, g + 1)
            continue
        o = off[j]
        s0 = g + dlo[j]
        L = dlen[j]
        if s0 + L > W:
            L = W - s0
        for i in range(L):
            D[s0 + i] += w * P[o + i]
        if L > 0:
            lo = min(lo, s0)
            hi = max(hi, s0 + L)
    if prep > 0.0 and rep > 0:
        for x in range(lo + rep, W):
            D[x] += prep * D[x - rep]
        hi = W
    # trim the tails holding at most eps each
    acc = 0.0
    while lo < hi - 1 and acc + D[lo] <= eps:
        acc += D[lo]
        D[lo] = 0.0
        lo += 1
    acc = 0.0
    while hi - 1 > lo and acc + D[hi - 1] <= eps:
        acc += D[hi - 1]
        D[hi - 1] = 0.0
        hi -= 1
    return lo, hi


@njit(cache=True, nogil=True, error_model="numpy")
def dist_chunk(kt: Any, V: Any, sm: Any, sa: Any, i0: Any, i1: Any, A: Any, ulo: Any,
               off: Any, dlo: Any, dlen: Any, P: Any, eps: Any, W: Any, buf: Any,
               out_lo: Any, out_len: Any, out_pos: Any) -> Any:
    """The states ``(sm[i], sa[i])``, i from ``i0`` to ``i1``, into ``buf`` one after the
    other (``out_pos[i]``, ``out_lo[i]``, ``out_len[i]``); returns the first state left
    undone (``i1`` when all are done; fewer when ``buf`` is full)."""
    nfull = kt.score.shape[1]
    nall = kt.up.shape[0]
    D = np.zeros(W)
    E0 = np.empty(nfull)
    Ks = np.empty((kt.rolls, nall))
    F = np.empty(nfull)
    M = np.empty(nall)
    N = np.empty(nall)
    gj = np.empty(2 * nfull, dtype=np.int64)
    gg = np.empty(2 * nfull, dtype=np.int64)
    gw = np.empty(nfull)
    pos = 0
    for i in range(i0, i1):
        if pos + W > buf.shape[0]:
            return i
        lo, hi = dist_state(kt, V, sm[i], sa[i], A, ulo, off, dlo, dlen, P, eps, D, E0, Ks,
                            F, M, N, gj, gg, gw)
        L = hi - lo
        for x in range(L):
            buf[pos + x] = D[lo + x]
            D[lo + x] = 0.0
        out_lo[i] = lo
        out_len[i] = L
        out_pos[i] = pos
        pos += L
    return i1
