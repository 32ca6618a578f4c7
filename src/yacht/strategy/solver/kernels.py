"""numba kernels: one turn of backward induction, layers of card states, self-play.

Value layout: ``V[mask, flag * U + u]`` is the expected number of points
still to come from the start of a turn with the boxes of ``mask`` filled,
upper total ``u`` (capped at the bonus threshold) and ``flag`` = whether
the Yahtzee-bonus box holds points. A turn is solved over dice multisets:

* ``E0[d]``: best placement of the outcome ``d`` (points + value after);
* keeps: ``K[s] = mean_f K[s + f]`` for every multiset ``s`` smaller than
  ``n`` (adding the re-rolled dice one at a time gives the exact roll
  distribution), with ``K[d] = E[d]`` on the ``n``-dice block;
* ``E_next[d] = max over sub-multisets k of d of K[k]``, computed by
  ``M[s] = max(K[s], M[s - f])`` in one pass;
* the turn's value is ``K[empty]`` after the last level.

Every kernel works on a block of ``W`` value columns at once (all upper
totals of one mask), so the inner loops are contiguous and vectorise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

NEG = -1.0e30


@njit(cache=True, nogil=True, error_model="numpy")
def _vmax_shift(row: Any, lo: Any, hi: Any, src: Any, soff: Any, add: Any) -> Any:
    """row[j] = max(row[j], src[soff + j] + add) for j in [lo, hi)."""
    for j in range(lo, hi):
        v = src[soff + j] + add
        if v > row[j]:
            row[j] = v


@njit(cache=True, nogil=True, inline="always")
def joker_rules(m: Any, d: Any, any_lower: Any, ybox_filled: Any, is_yacht: Any, yface: Any,
                jmode: Any, upper_of_face: Any) -> Any:
    """Where outcome ``d`` may go under the joker rules: (restrict, lower_only, joker).

    Only a yacht rolled once the Yahtzee box is filled is special. Forced
    joker: the upper box of its face if open (``restrict``), else any lower
    box at joker points (``lower_only``, ``joker``; when no lower box is open
    any box, at normal points). Free joker: any box, at joker points when the
    upper box of its face is filled.
    """
    restrict = -1
    lower_only = False
    jok = False
    if is_yacht[d] and ybox_filled:
        ub = upper_of_face[yface[d]]
        upper_open = ub >= 0 and ((m >> ub) & 1) == 0
        if jmode == 1:
            if upper_open:
                restrict = ub
            elif any_lower:
                lower_only = True
                jok = True
        elif jmode == 2:
            if not upper_open:
                jok = True
    return restrict, lower_only, jok


@njit(cache=True, nogil=True, inline="always")
def place_box(u: Any, flag: Any, d: Any, b: Any, restrict: Any, lower_only: Any, jok: Any,
              extra: Any, U: Any, need: Any, bonus_amt: Any, score: Any, box_upper: Any,
              box_mult: Any, ybox: Any, ybonus: Any, joker_pts: Any) -> Any:
    """Outcome ``d`` scored in open box ``b``: (allowed, points now with bonuses, new
    upper total, new flag), given the joker rules of :func:`joker_rules`."""
    if (restrict >= 0 and b != restrict) or (lower_only and box_upper[b]):
        return False, 0, u, flag
    pts = score[b, d]
    if jok and joker_pts[b] >= 0:
        pts = joker_pts[b]
    mult = box_mult[b]
    gain = pts * mult + extra
    nflag = flag
    if b == ybox and ybonus > 0:
        nflag = 1 if pts > 0 else 0
    nu = u
    if U > 1 and box_upper[b]:
        nu = u + pts
        if u < need and nu >= need:
            gain += bonus_amt * mult
        if nu > U - 1:
            nu = U - 1
    return True, gain, nu, nflag


@njit(cache=True, nogil=True, error_model="numpy")
def e0_block(m: Any, V: Any, U: Any, need: Any, bonus_amt: Any, score: Any, box_upper: Any,
             box_mult: Any, nbox: Any, is_yacht: Any, yface: Any, ybox: Any, jmode: Any,
             ybonus: Any, joker_pts: Any, upper_of_face: Any, rep_pts: Any, u_lo: Any,
             u_hi: Any, f_lo: Any, f_hi: Any, x: Any, E0: Any, P0: Any, track: Any) -> Any:
    """Best placement value of every n-dice outcome for mask ``m``.

    Columns: ``(flag - f_lo) * (u_hi - u_lo + 1) + (u - u_lo)``. ``x`` holds the
    value of the state itself (for repeat placements); ``P0`` records whether a
    repeat was the best choice (the derivative used by the fixed-point solve).
    """
    nfull = E0.shape[0]
    W = E0.shape[1]
    wu = u_hi - u_lo + 1
    ncap = U - 1
    ybox_filled = ybox >= 0 and ((m >> ybox) & 1) == 1
    rep = 0
    for b in range(nbox):
        if ((m >> b) & 1) == 1 and rep_pts[b] > rep:
            rep = rep_pts[b]
    any_lower = False
    for b in range(nbox):
        if ((m >> b) & 1) == 0 and not box_upper[b]:
            any_lower = True
    for d in range(nfull):
        row = E0[d]
        for j in range(W):
            row[j] = NEG
        yacht = is_yacht[d]
        restrict, lower_only, jok = joker_rules(m, d, any_lower, ybox_filled, is_yacht, yface,
                                                jmode, upper_of_face)
        for flag in range(f_lo, f_hi + 1):
            base = (flag - f_lo) * wu
            rowf = row[base:base + wu]
            extra = 0
            if yacht and ybox_filled and flag == 1:
                extra = ybonus
            for b in range(nbox):
                if ((m >> b) & 1) == 1:
                    continue
                if restrict >= 0 and b != restrict:
                    continue
                if lower_only and box_upper[b]:
                    continue
                pts = score[b, d]
                if jok and joker_pts[b] >= 0:
                    pts = joker_pts[b]
                mult = box_mult[b]
                val = float(pts * mult + extra)
                nm = m | (1 << b)
                nflag = flag
                if b == ybox and ybonus > 0:
                    nflag = 1 if pts > 0 else 0
                vrow = V[nm]
                off = nflag * U
                if U > 1 and box_upper[b]:
                    # u + pts below the threshold: plain shift
                    hi1 = min(u_hi + 1, need - pts)
                    if hi1 > u_lo:
                        _vmax_shift(rowf, 0, hi1 - u_lo, vrow, off + u_lo + pts, val)
                    # crossing the threshold now: bonus, capped
                    lo2 = max(u_lo, need - pts)
                    hi2 = min(u_hi + 1, need)
                    if hi2 > lo2:
                        v = val + bonus_amt * mult + vrow[off + ncap]
                        for j in range(lo2 - u_lo, hi2 - u_lo):
                            if v > rowf[j]:
                                rowf[j] = v
                    # already there
                    lo3 = max(u_lo, need)
                    if u_hi >= lo3:
                        v = val + vrow[off + ncap]
                        for j in range(lo3 - u_lo, u_hi + 1 - u_lo):
                            if v > rowf[j]:
                                rowf[j] = v
                else:
                    _vmax_shift(rowf, 0, wu, vrow, off + u_lo, val)
            if yacht and rep > 0:
                for j in range(wu):
                    v = rep + x[base + j]
                    if v > rowf[j]:
                        rowf[j] = v
        if track:
            for j in range(W):
                P0[d, j] = 0.0
            if yacht and rep > 0:
                for j in range(W):
                    if rep + x[j] >= row[j]:
                        P0[d, j] = 1.0


@njit(cache=True, nogil=True, error_model="numpy")
def _avg_rows(K: Any, up: Any, s: Any, faces: Any, inv: Any) -> Any:
    """K[s] = mean over faces f of K[up[s, f]]."""
    W = K.shape[1]
    krow = K[s]
    src = K[up[s, 0]]
    for w in range(W):
        krow[w] = src[w]
    for f in range(1, faces):
        src = K[up[s, f]]
        for w in range(W):
            krow[w] += src[w]
    for w in range(W):
        krow[w] *= inv


@njit(cache=True, nogil=True, error_model="numpy")
def _max_rows(K: Any, down: Any, s: Any, faces: Any) -> Any:
    """K[s] = max(K[s], K[down[s, f]] for every face f present)."""
    W = K.shape[1]
    krow = K[s]
    for f in range(faces):
        t = down[s, f]
        if t >= 0:
            trow = K[t]
            for w in range(W):
                a = trow[w]
                b = krow[w]
                krow[w] = a if a > b else b


@njit(cache=True, nogil=True, error_model="numpy")
def levels_block(E0: Any, P0: Any, track: Any, up: Any, down: Any, full_start: Any, faces: Any,
                 rolls: Any, K: Any, KP: Any, out: Any, outp: Any) -> Any:
    """From the placement values ``E0`` to the value at the start of the turn.

    ``K``/``KP`` are (nall, W) scratch; on return ``out`` (and ``outp``, the
    chance that a repeat ends the turn) hold the turn values.
    """
    nfull, W = E0.shape
    nall = K.shape[0]
    inv = 1.0 / faces
    for i in range(nfull):
        for w in range(W):
            K[full_start + i, w] = E0[i, w]
    if track:
        for i in range(nfull):
            for w in range(W):
                KP[full_start + i, w] = P0[i, w]
    for level in range(rolls):
        for s in range(full_start - 1, -1, -1):
            _avg_rows(K, up, s, faces, inv)
        if track:
            for s in range(full_start - 1, -1, -1):
                _avg_rows(KP, up, s, faces, inv)
        if level == rolls - 1:
            break
        if track:
            for s in range(1, nall):
                for f in range(faces):
                    t = down[s, f]
                    if t >= 0:
                        for w in range(W):
                            if K[t, w] > K[s, w]:
                                K[s, w] = K[t, w]
                                KP[s, w] = KP[t, w]
        else:
            for s in range(1, nall):
                _max_rows(K, down, s, faces)
    for w in range(W):
        out[w] = K[0, w]
    if track:
        for w in range(W):
            outp[w] = KP[0, w]


@njit(cache=True, nogil=True)
def solve_mask(m: Any, V: Any, umax_m: Any, U: Any, need: Any, bonus_amt: Any, score: Any,
               box_upper: Any, box_mult: Any, nbox: Any, is_yacht: Any, yface: Any, ybox: Any,
               jmode: Any, ybonus: Any, joker_pts: Any, upper_of_face: Any, rep_pts: Any,
               up: Any, down: Any, full_start: Any, faces: Any, rolls: Any, E0: Any, P0: Any,
               K: Any, KP: Any, out: Any, outp: Any, x: Any) -> Any:
    """Solve every (flag, upper total) state of one mask and store it in ``V[m]``.

    With a repeat box the state's value is the fixed point ``x = g(x)`` of its
    turn; ``g`` is convex and piecewise linear with slope < 1, so Newton's
    method from below reaches it exactly in a few steps.
    """
    nflag = 2 if (ybonus > 0 and ybox >= 0 and ((m >> ybox) & 1) == 1) else 1
    wu = umax_m + 1
    W = nflag * wu
    nfull = score.shape[1]
    nall = up.shape[0]
    E0v = E0[:nfull * W].reshape((nfull, W))
    P0v = P0[:nfull * W].reshape((nfull, W))
    Kv = K[:nall * W].reshape((nall, W))
    KPv = KP[:nall * W].reshape((nall, W))
    o = out[:W]
    op = outp[:W]
    xv = x[:W]
    repeat = False
    for b in range(nbox):
        if ((m >> b) & 1) == 1 and rep_pts[b] > 0:
            repeat = True
    for w in range(W):
        xv[w] = 0.0
    if repeat:
        for _ in range(200):
            e0_block(m, V, U, need, bonus_amt, score, box_upper, box_mult, nbox, is_yacht,
                     yface, ybox, jmode, ybonus, joker_pts, upper_of_face, rep_pts,
                     0, umax_m, 0, nflag - 1, xv, E0v, P0v, True)
            levels_block(E0v, P0v, True, up, down, full_start, faces, rolls, Kv, KPv, o, op)
            delta = 0.0
            for w in range(W):
                nx = xv[w] + (o[w] - xv[w]) / (1.0 - op[w])
                dd = abs(nx - xv[w])
                if dd > delta:
                    delta = dd
                xv[w] = nx
            if delta < 1e-11:
                break
        for w in range(W):
            o[w] = xv[w]
    else:
        e0_block(m, V, U, need, bonus_amt, score, box_upper, box_mult, nbox, is_yacht,
                 yface, ybox, jmode, ybonus, joker_pts, upper_of_face, rep_pts,
                 0, umax_m, 0, nflag - 1, xv, E0v, P0v, False)
        levels_block(E0v, P0v, False, up, down, full_start, faces, rolls, Kv, KPv, o, op)
    for flag in range(nflag):
        for u in range(wu):
            V[m, flag * U + u] = o[flag * wu + u]


@njit(cache=True, nogil=True)
def solve_chunk(masks: Any, lo: Any, hi: Any, V: Any, umax: Any, U: Any, need: Any,
                bonus_amt: Any, score: Any, box_upper: Any, box_mult: Any, nbox: Any,
                is_yacht: Any, yface: Any, ybox: Any, jmode: Any, ybonus: Any, joker_pts: Any,
                upper_of_face: Any, rep_pts: Any, up: Any, down: Any, full_start: Any,
                faces: Any, rolls: Any) -> Any:
    """Solve ``masks[lo:hi]`` (masks of one layer, independent of each other).

    Runs without the GIL: the caller spreads the chunks of a layer over threads.
    """
    nfull = score.shape[1]
    nall = up.shape[0]
    A = V.shape[1]
    E0 = np.empty(nfull * A)
    P0 = np.empty(nfull * A)
    K = np.empty(nall * A)
    KP = np.empty(nall * A)
    out = np.empty(A)
    outp = np.empty(A)
    x = np.empty(A)
    for i in range(lo, hi):
        m = masks[i]
        solve_mask(m, V, umax[m], U, need, bonus_amt, score, box_upper, box_mult, nbox,
                   is_yacht, yface, ybox, jmode, ybonus, joker_pts, upper_of_face, rep_pts,
                   up, down, full_start, faces, rolls, E0, P0, K, KP, out, outp, x)


@njit(cache=True, nogil=True)
def keep_levels(E0: Any, up: Any, pairs: Any, full_start: Any, faces: Any, rolls: Any,
                Ks: Any) -> Any:
    """All keep values of one state's turn: ``Ks[j, k]`` = expected value of keeping
    ``k`` and rolling the rest with ``j`` rolls left after that roll.

    ``Ks[j]`` on the n-dice block holds ``E_j`` (the best with ``j`` rolls left),
    so ``Ks[rolls - 1, 0]`` is the value at the start of the turn. ``pairs``
    lists (s, s minus one die) with s ascending: one pass gives the best subset.
    """
    nfull = E0.shape[0]
    nall = up.shape[0]
    npairs = pairs.shape[0]
    inv = 1.0 / faces
    for i in range(nfull):
        Ks[0, full_start + i] = E0[i]
    for level in range(rolls):
        K = Ks[level]
        for s in range(full_start - 1, -1, -1):
            acc = 0.0
            for f in range(faces):
                acc += K[up[s, f]]
            K[s] = acc * inv
        if level == rolls - 1:
            break
        nxt = Ks[level + 1]
        for s in range(nall):
            nxt[s] = K[s]
        for i in range(npairs):
            s = pairs[i, 0]
            t = pairs[i, 1]
            if nxt[t] > nxt[s]:
                nxt[s] = nxt[t]


@njit(cache=True, nogil=True)
def e0_scalar(m: Any, a: Any, V: Any, U: Any, need: Any, bonus_amt: Any, score: Any,
              box_upper: Any, box_mult: Any, nbox: Any, is_yacht: Any, yface: Any, ybox: Any,
              jmode: Any, ybonus: Any, joker_pts: Any, upper_of_face: Any, rep_pts: Any,
              E0: Any) -> Any:
    """``E0[d]``: value of the best placement of every outcome in one state (m, a)."""
    nfull = score.shape[1]
    u = a % U
    flag = a // U
    ncap = U - 1
    ybox_filled = ybox >= 0 and ((m >> ybox) & 1) == 1
    rep = 0
    nopen = 0
    opens = np.empty(nbox, dtype=np.int64)
    base = np.empty(nbox)
    any_lower = False
    for b in range(nbox):
        if ((m >> b) & 1) == 1:
            if rep_pts[b] > rep:
                rep = rep_pts[b]
        else:
            opens[nopen] = b
            nopen += 1
            if not box_upper[b]:
                any_lower = True
    # value after the box, for lower boxes (upper ones depend on the points)
    for i in range(nopen):
        b = opens[i]
        nflag = flag
        base[i] = V[m | (1 << b), nflag * U + u]
    xself = V[m, a]
    for d in range(nfull):
        yacht = is_yacht[d]
        best = NEG
        if not yacht or not ybox_filled:
            for i in range(nopen):
                b = opens[i]
                pts = score[b, d]
                mult = box_mult[b]
                if U > 1 and box_upper[b]:
                    nu = u + pts
                    v = float(pts * mult)
                    if u < need and nu >= need:
                        v += bonus_amt * mult
                    if nu > ncap:
                        nu = ncap
                    v += V[m | (1 << b), flag * U + nu]
                elif b == ybox and ybonus > 0:
                    v = pts * mult + V[m | (1 << b), (1 if pts > 0 else 0) * U + u]
                else:
                    v = pts * mult + base[i]
                if v > best:
                    best = v
        else:
            restrict, lower_only, jok = joker_rules(m, d, any_lower, ybox_filled, is_yacht,
                                                    yface, jmode, upper_of_face)
            extra = ybonus if flag == 1 else 0
            for i in range(nopen):
                b = opens[i]
                ok, gain, nu, nflag = place_box(u, flag, d, b, restrict, lower_only, jok, extra,
                                                U, need, bonus_amt, score, box_upper, box_mult,
                                                ybox, ybonus, joker_pts)
                if ok:
                    v = gain + V[m | (1 << b), nflag * U + nu]
                    if v > best:
                        best = v
        if yacht and rep > 0:
            v = rep + xself
            if v > best:
                best = v
        E0[d] = best


@njit(cache=True, nogil=True)
def state_turn(m: Any, a: Any, V: Any, U: Any, need: Any, bonus_amt: Any, score: Any,
               box_upper: Any, box_mult: Any, nbox: Any, is_yacht: Any, yface: Any, ybox: Any,
               jmode: Any, ybonus: Any, joker_pts: Any, upper_of_face: Any, rep_pts: Any,
               up: Any, pairs: Any, full_start: Any, faces: Any, rolls: Any, E0: Any,
               Ks: Any) -> Any:
    """Placement values ``E0[d]`` and keep values ``Ks`` for the state (m, a)."""
    e0_scalar(m, a, V, U, need, bonus_amt, score, box_upper, box_mult, nbox, is_yacht, yface,
              ybox, jmode, ybonus, joker_pts, upper_of_face, rep_pts, E0)
    keep_levels(E0, up, pairs, full_start, faces, rolls, Ks)


@njit(cache=True, nogil=True)
def best_place(m: Any, u: Any, flag: Any, d: Any, V: Any, U: Any, need: Any, bonus_amt: Any,
               score: Any, box_upper: Any, box_mult: Any, nbox: Any, is_yacht: Any, yface: Any,
               ybox: Any, jmode: Any, ybonus: Any, joker_pts: Any, upper_of_face: Any,
               rep_pts: Any) -> Any:
    """The best placement of outcome ``d`` in state (m, u, flag), as in :func:`e0_block`.

    Returns (box, points gained incl. bonuses, new u, new flag); box -1 is a repeat.
    """
    ybox_filled = ybox >= 0 and ((m >> ybox) & 1) == 1
    rep = 0
    any_lower = False
    for b in range(nbox):
        if ((m >> b) & 1) == 1:
            if rep_pts[b] > rep:
                rep = rep_pts[b]
        elif not box_upper[b]:
            any_lower = True
    restrict, lower_only, jok = joker_rules(m, d, any_lower, ybox_filled, is_yacht, yface,
                                            jmode, upper_of_face)
    yacht = is_yacht[d]
    extra = ybonus if (yacht and ybox_filled and flag == 1) else 0
    best = NEG
    bbox, bgain, bu, bflag = -2, 0, u, flag
    for b in range(nbox):
        if ((m >> b) & 1) == 1:
            continue
        ok, gain, nu, nflag = place_box(u, flag, d, b, restrict, lower_only, jok, extra, U,
                                        need, bonus_amt, score, box_upper, box_mult, ybox,
                                        ybonus, joker_pts)
        if not ok:
            continue
        v = gain + V[m | (1 << b), nflag * U + nu]
        if v > best:
            best = v
            bbox, bgain, bu, bflag = b, gain, nu, nflag
    if yacht and rep > 0:
        v = rep + V[m, flag * U + u]
        if v > best:
            bbox, bgain, bu, bflag = -1, rep, u, flag
    return bbox, bgain, bu, bflag


@njit(cache=True, nogil=True)
def _rand(rngs: Any, g: Any) -> Any:
    """splitmix64 on the stream of game slot ``g``: advance it, return 64 random bits."""
    rngs[g] += np.uint64(0x9E3779B97F4A7C15)
    z = rngs[g]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def seed_stream(rngs: Any, g: Any, seed: Any, game: Any) -> Any:
    """Start slot ``g`` on the random stream of game number ``game``."""
    rngs[g] = np.uint64(seed) * np.uint64(0xD1B54A32D192ED03) + np.uint64(game)
    _rand(rngs, g)


@njit(cache=True, nogil=True)
def _roll(cnt: Any, k: Any, faces: Any, rngs: Any, g: Any) -> Any:
    """Add ``k`` random dice to the counts ``cnt``."""
    for _ in range(k):
        r = _rand(rngs, g)
        f = np.int64((r >> np.uint64(32)) * np.uint64(faces) >> np.uint64(32))
        cnt[f] += 1


@njit(cache=True, nogil=True)
def _index(cnt: Any, n: Any, code_index: Any) -> Any:
    c = 0
    base = 1
    for f in range(cnt.shape[0]):
        c += cnt[f] * base
        base *= n + 1
    return code_index[c]


@njit(cache=True, nogil=True)
def _best_keep(table: Any, off: Any, stride: Any, d: Any, subs: Any, nsubs: Any) -> Any:
    """The best proper sub-multiset of outcome ``d`` by ``table[off + k * stride]``."""
    best = NEG
    bk = 0
    for i in range(nsubs[d]):
        k = subs[d, i]
        v = table[off + k * stride]
        if v > best:
            best = v
            bk = k
    return best, bk


@njit(cache=True, nogil=True)
def _keep_and_roll(cnt: Any, k: Any, n: Any, faces: Any, counts: Any, size: Any, rngs: Any,
                   g: Any) -> Any:
    for f in range(faces):
        cnt[f] = counts[k, f]
    _roll(cnt, n - size[k], faces, rngs, g)


@njit(cache=True, nogil=True)
def play_turn_dice(Ks: Any, stride: Any, col: Any, nall: Any, rolls: Any, n: Any, faces: Any,
                   code_index: Any, counts: Any, size: Any, subs: Any, nsubs: Any,
                   full_start: Any, rngs: Any, g: Any, cnt: Any) -> Any:
    """Roll and re-roll one turn by the keep values ``Ks``; returns the final outcome.

    ``Ks[(level * nall + k) * stride + col]`` is the value of keep ``k`` with
    ``level`` rolls left after the roll it waits for; on outcome rows, level 0
    holds the placement value (stop and score when nothing beats it).
    """
    for f in range(faces):
        cnt[f] = 0
    _roll(cnt, n, faces, rngs, g)
    for left in range(rolls - 1, 0, -1):
        di = _index(cnt, n, code_index)
        best, bk = _best_keep(Ks, (left - 1) * nall * stride + col, stride,
                              di - full_start, subs, nsubs)
        if Ks[di * stride + col] >= best:
            break
        _keep_and_roll(cnt, bk, n, faces, counts, size, rngs, g)
    return _index(cnt, n, code_index) - full_start


@njit(cache=True, nogil=True)
def forced_turn_dice(fkeep: Any, fpoints: Any, ffree: Any, fpenalty: Any, ffloor: Any,
                     flast: Any, n: Any, faces: Any, code_index: Any, counts: Any, size: Any,
                     subs: Any, nsubs: Any, full_start: Any, is_yacht: Any, rngs: Any, g: Any,
                     cnt: Any) -> Any:
    """The forced first turn (roll until all dice match): returns (points, yacht rolled)."""
    for f in range(faces):
        cnt[f] = 0
    _roll(cnt, n, faces, rngs, g)
    r = 1
    nall = fkeep.shape[1]
    while True:
        d = _index(cnt, n, code_index) - full_start
        if is_yacht[d]:
            pts = fpoints - fpenalty * max(0, r - ffree)
            return max(pts, ffloor), True
        if r >= flast:
            return ffloor, False
        _, bk = _best_keep(fkeep.ravel(), r * nall, 1, d, subs, nsubs)
        _keep_and_roll(cnt, bk, n, faces, counts, size, rngs, g)
        r += 1


@njit(cache=True, nogil=True)
def play_games(g_lo: Any, g_hi: Any, seed: Any, V: Any, U: Any, need: Any, bonus_amt: Any,
               score: Any, box_upper: Any, box_mult: Any, nbox: Any, is_yacht: Any, yface: Any,
               ybox: Any, jmode: Any, ybonus: Any, joker_pts: Any, upper_of_face: Any,
               rep_pts: Any, up: Any, pairs: Any, full_start: Any, faces: Any, rolls: Any,
               n: Any, code_index: Any, counts: Any, size: Any, subs: Any, nsubs: Any,
               fbox: Any, fkeep: Any, fpoints: Any, ffree: Any, fpenalty: Any, ffloor: Any,
               flast: Any, totals: Any, bonus_out: Any, yachts_out: Any) -> Any:
    """Play games ``g_lo..g_hi`` by the table's policy; game g uses its own random stream."""
    nfull = score.shape[1]
    nall = up.shape[0]
    full = (1 << nbox) - 1
    E0 = np.empty(nfull)
    Ks = np.empty((rolls, nall))
    Kf = Ks.ravel()
    cnt = np.zeros(faces, dtype=np.int64)
    rngs = np.zeros(1, dtype=np.uint64)
    for g in range(g_lo, g_hi):
        seed_stream(rngs, 0, seed, g)
        m = 0
        u = 0
        flag = 0
        total = 0
        yachts = 0
        if fbox >= 0:
            pts, y = forced_turn_dice(fkeep, fpoints, ffree, fpenalty, ffloor, flast, n, faces,
                                      code_index, counts, size, subs, nsubs, full_start,
                                      is_yacht, rngs, 0, cnt)
            yachts += y
            total += pts * box_mult[fbox]
            m |= 1 << fbox
        while m != full:
            a = flag * U + u
            state_turn(m, a, V, U, need, bonus_amt, score, box_upper, box_mult, nbox, is_yacht,
                       yface, ybox, jmode, ybonus, joker_pts, upper_of_face, rep_pts, up, pairs,
                       full_start, faces, rolls, E0, Ks)
            d = play_turn_dice(Kf, 1, 0, nall, rolls, n, faces, code_index, counts, size, subs,
                               nsubs, full_start, rngs, 0, cnt)
            if is_yacht[d]:
                yachts += 1
            b, gain, nu, nflag = best_place(m, u, flag, d, V, U, need, bonus_amt, score,
                                            box_upper, box_mult, nbox, is_yacht, yface, ybox,
                                            jmode, ybonus, joker_pts, upper_of_face, rep_pts)
            total += gain
            if b >= 0:
                m |= 1 << b
            u = nu
            flag = nflag
        totals[g - g_lo] = total
        bonus_out[g - g_lo] = U > 1 and u >= need
        yachts_out[g - g_lo] = yachts
