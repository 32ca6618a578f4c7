"""numba kernels of the target tables (the fallback of the C extension's, same algorithm).

A target table holds, for every card state (mask, aux) and every total so far
``s`` in the state's window, the best chance of finishing with at least ``T``
points: ``Q[off[j] + s - wlo[j]]`` with ``j = mask * A + aux``. Below the window
the chance is 0 (the target is out of reach, or ``s`` cannot occur), from its end
on it is 1 (the target is reached, or ``s`` cannot occur).

A turn is solved for a tile of ``s`` values side by side: the placement step
takes, for each outcome, the best box's chance (the next state's row shifted by
the points gained), then the keep levels average over re-rolled dice and take
the best keep, as the expected-score kernels do with numbers. A repeat box
(a scoring that leaves the card as it was) reads the state's own row at
``s + points``: tiles run from the top of the window down and are at most that
many points wide, so the row is there already.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .kernels import joker_rules, keep_levels, place_box, repeat_points, yacht_extra


@njit(cache=True, nogil=True, inline="always")
def lookup(Q: Any, off: Any, wlo: Any, wlen: Any, j: Any, x: Any) -> Any:
    """The chance of state ``j`` with ``x`` points so far."""
    lo = wlo[j]
    if x < lo:
        return 0.0
    if x >= lo + wlen[j]:
        return 1.0
    return float(Q[off[j] + x - lo])


@njit(cache=True, nogil=True, error_model="numpy")
def target_state(kt: Any, m: Any, a: Any, A: Any, off: Any, wlo: Any, wlen: Any, Q: Any,
                 TW: Any, K: Any) -> Any:
    """Solve the window of state (m, a) into ``Q``; ``K`` is (nall, TW) scratch."""
    U = kt.U
    u = a % U
    flag = a // U
    j0 = m * A + a
    L = wlen[j0]
    s_lo = wlo[j0]
    base = off[j0]
    top = s_lo + L
    rep = repeat_points(kt, m)
    W = TW
    if rep > 0 and rep < W:
        W = rep
    nfull = kt.score.shape[1]
    nall = kt.up.shape[0]
    fs = kt.full_start
    faces = kt.faces
    inv = 1.0 / faces
    t_hi = top
    while t_hi > s_lo:
        t_lo = max(s_lo, t_hi - W)
        w = t_hi - t_lo
        for d in range(nfull):
            row = K[fs + d]
            for i in range(w):
                row[i] = 0.0
            restrict, lower_only, jok = joker_rules(kt, m, d)
            extra = yacht_extra(kt, m, flag, d)
            for b in range(kt.nbox):
                if ((m >> b) & 1) == 1:
                    continue
                ok, gain, nu, nfl = place_box(kt, u, flag, d, b, restrict, lower_only, jok,
                                              extra)
                if not ok:
                    continue
                j = (m | (1 << b)) * A + nfl * U + nu
                lo2 = wlo[j]
                hi2 = lo2 + wlen[j]
                o2 = off[j]
                for i in range(w):
                    x = t_lo + i + gain
                    if x < lo2:
                        v = 0.0
                    elif x >= hi2:
                        v = 1.0
                    else:
                        v = float(Q[o2 + x - lo2])
                    if v > row[i]:
                        row[i] = v
            if rep > 0 and kt.is_yacht[d]:
                for i in range(w):
                    x = t_lo + i + rep
                    v = 1.0 if x >= top else float(Q[base + x - s_lo])
                    if v > row[i]:
                        row[i] = v
        for level in range(kt.rolls):
            if level == kt.rolls - 1:
                for i in range(w):
                    acc = 0.0
                    for d in range(nfull):
                        acc += kt.prob[d] * K[fs + d, i]
                    Q[base + t_lo - s_lo + i] = acc
                break
            for s in range(fs - 1, -1, -1):
                krow = K[s]
                src = K[kt.up[s, 0]]
                for i in range(w):
                    krow[i] = src[i]
                for f in range(1, faces):
                    src = K[kt.up[s, f]]
                    for i in range(w):
                        krow[i] += src[i]
                for i in range(w):
                    krow[i] *= inv
            for s in range(1, nall):
                krow = K[s]
                for f in range(faces):
                    t = kt.down[s, f]
                    if t >= 0:
                        trow = K[t]
                        for i in range(w):
                            if trow[i] > krow[i]:
                                krow[i] = trow[i]
        t_hi = t_lo


@njit(cache=True, nogil=True)
def target_chunk(kt: Any, sm: Any, sa: Any, lo: Any, hi: Any, A: Any, off: Any, wlo: Any,
                 wlen: Any, Q: Any, TW: Any) -> Any:
    """Solve the states ``(sm[i], sa[i])`` for i in lo..hi (states of one layer)."""
    nall = kt.up.shape[0]
    K = np.empty((nall, TW))
    for i in range(lo, hi):
        target_state(kt, sm[i], sa[i], A, off, wlo, wlen, Q, TW, K)


@njit(cache=True, nogil=True)
def target_turn(kt: Any, m: Any, a: Any, s: Any, A: Any, off: Any, wlo: Any, wlen: Any,
                Q: Any, E0: Any, Ks: Any, B: Any) -> Any:
    """One turn of state (m, a) with ``s`` points so far, for decisions: ``B[d, b]`` the
    chance after scoring outcome ``d`` in box ``b`` (-1: not allowed; column ``nbox``: a
    repeat), ``E0[d]`` the best of them, ``Ks`` the keep chances as
    :func:`~.kernels.keep_levels` gives them."""
    U = kt.U
    u = a % U
    flag = a // U
    rep = repeat_points(kt, m)
    nfull = kt.score.shape[1]
    j0 = m * A + a
    for d in range(nfull):
        best = 0.0
        restrict, lower_only, jok = joker_rules(kt, m, d)
        extra = yacht_extra(kt, m, flag, d)
        for b in range(kt.nbox + 1):
            B[d, b] = -1.0
        for b in range(kt.nbox):
            if ((m >> b) & 1) == 1:
                continue
            ok, gain, nu, nfl = place_box(kt, u, flag, d, b, restrict, lower_only, jok, extra)
            if not ok:
                continue
            v = lookup(Q, off, wlo, wlen, (m | (1 << b)) * A + nfl * U + nu, s + gain)
            B[d, b] = v
            if v > best:
                best = v
        if rep > 0 and kt.is_yacht[d]:
            v = lookup(Q, off, wlo, wlen, j0, s + rep)
            B[d, kt.nbox] = v
            if v > best:
                best = v
        E0[d] = best
    keep_levels(kt, E0, Ks)
