"""numba kernels: the placement rules, one state's turn, the repeat-box build, dice.

These are the fallback of the C extension (``_native.c``, same algorithms);
:mod:`.backend` picks one. Every kernel reads the rules and dice tables from
one :class:`~.tables.KernelTables` record ``kt`` (fields by name).

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
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

NEG = -1.0e30


# --- the placement rules (the only place the joker rule is written) -------------

@njit(cache=True, nogil=True, inline="always")
def joker_rules(kt: Any, m: Any, d: Any) -> Any:
    """Where outcome ``d`` may go in mask ``m`` under the joker rules:
    (restrict, lower_only, joker).

    Only a yacht rolled once the Yahtzee box is filled is special. Forced
    joker: the upper box of its face if open (``restrict``), else any lower
    box at joker points (``lower_only``, ``joker``; when no lower box is open
    any box, at normal points). Free joker: any box, at joker points when the
    upper box of its face is filled.
    """
    restrict = -1
    lower_only = False
    jok = False
    if kt.ybox >= 0 and kt.is_yacht[d] and ((m >> kt.ybox) & 1) == 1:
        ub = kt.upper_of_face[kt.yface[d]]
        upper_open = ub >= 0 and ((m >> ub) & 1) == 0
        if kt.jmode == 1:
            if upper_open:
                restrict = ub
            else:
                any_lower = False
                for b in range(kt.nbox):
                    if ((m >> b) & 1) == 0 and not kt.box_upper[b]:
                        any_lower = True
                if any_lower:
                    lower_only = True
                    jok = True
        elif kt.jmode == 2:
            if not upper_open:
                jok = True
    return restrict, lower_only, jok


@njit(cache=True, nogil=True, inline="always")
def box_allowed(kt: Any, b: Any, restrict: Any, lower_only: Any) -> Any:
    return not ((restrict >= 0 and b != restrict) or (lower_only and kt.box_upper[b]))


@njit(cache=True, nogil=True, inline="always")
def box_points(kt: Any, b: Any, d: Any, jok: Any) -> Any:
    if jok and kt.joker_pts[b] >= 0:
        return kt.joker_pts[b]
    return kt.score[b, d]


@njit(cache=True, nogil=True, inline="always")
def yacht_extra(kt: Any, m: Any, flag: Any, d: Any) -> Any:
    """Bonus points of a further yacht (the Yahtzee box filled with points)."""
    if kt.ybox >= 0 and kt.is_yacht[d] and ((m >> kt.ybox) & 1) == 1 and flag == 1:
        return kt.ybonus
    return 0


@njit(cache=True, nogil=True, inline="always")
def place_box(kt: Any, u: Any, flag: Any, d: Any, b: Any, restrict: Any, lower_only: Any,
              jok: Any, extra: Any) -> Any:
    """Outcome ``d`` scored in open box ``b``: (allowed, points now with bonuses, new
    upper total, new flag), given the joker rules of :func:`joker_rules`."""
    if not box_allowed(kt, b, restrict, lower_only):
        return False, 0, u, flag
    pts = box_points(kt, b, d, jok)
    mult = kt.box_mult[b]
    gain = pts * mult + extra
    nflag = flag
    if b == kt.ybox and kt.ybonus > 0:
        nflag = 1 if pts > 0 else 0
    nu = u
    if kt.U > 1 and kt.box_upper[b]:
        nu = u + pts
        if u < kt.need and nu >= kt.need:
            gain += kt.bonus_amt * mult
        if nu > kt.U - 1:
            nu = kt.U - 1
    return True, gain, nu, nflag


@njit(cache=True, nogil=True, inline="always")
def repeat_points(kt: Any, m: Any) -> Any:
    rep = 0
    for b in range(kt.nbox):
        if ((m >> b) & 1) == 1 and kt.rep_pts[b] > rep:
            rep = kt.rep_pts[b]
    return rep


@njit(cache=True, nogil=True)
def best_place(kt: Any, m: Any, u: Any, flag: Any, d: Any, V: Any) -> Any:
    """The best placement of outcome ``d`` in state (m, u, flag).

    Returns (box, points gained incl. bonuses, new u, new flag); box -1 is a repeat.
    """
    U = kt.U
    restrict, lower_only, jok = joker_rules(kt, m, d)
    extra = yacht_extra(kt, m, flag, d)
    best = NEG
    bbox, bgain, bu, bflag = -2, 0, u, flag
    for b in range(kt.nbox):
        if ((m >> b) & 1) == 1:
            continue
        ok, gain, nu, nflag = place_box(kt, u, flag, d, b, restrict, lower_only, jok, extra)
        if not ok:
            continue
        v = gain + V[m | (1 << b), nflag * U + nu]
        if v > best:
            best = v
            bbox, bgain, bu, bflag = b, gain, nu, nflag
    rep = repeat_points(kt, m)
    if kt.is_yacht[d] and rep > 0:
        v = rep + V[m, flag * U + u]
        if v > best:
            bbox, bgain, bu, bflag = -1, rep, u, flag
    return bbox, bgain, bu, bflag


@njit(cache=True, nogil=True)
def box_values(kt: Any, m: Any, u: Any, flag: Any, d: Any, V: Any, out: Any) -> Any:
    """``out[b]``: points now (bonuses included) + value after, for scoring outcome ``d``
    in box ``b`` from state (m, u, flag); NaN where the rules do not allow it."""
    restrict, lower_only, jok = joker_rules(kt, m, d)
    extra = yacht_extra(kt, m, flag, d)
    for b in range(kt.nbox):
        out[b] = np.nan
        if ((m >> b) & 1) == 1:
            continue
        ok, gain, nu, nflag = place_box(kt, u, flag, d, b, restrict, lower_only, jok, extra)
        if ok:
            out[b] = gain + V[m | (1 << b), nflag * kt.U + nu]


# --- one state's turn -------------------------------------------------------------

@njit(cache=True, nogil=True)
def e0_scalar(kt: Any, m: Any, a: Any, V: Any, E0: Any) -> Any:
    """``E0[d]``: value of the best placement of every outcome in one state (m, a)."""
    U = kt.U
    u = a % U
    flag = a // U
    rep = repeat_points(kt, m)
    xself = V[m, a]
    for d in range(kt.score.shape[1]):
        restrict, lower_only, jok = joker_rules(kt, m, d)
        extra = yacht_extra(kt, m, flag, d)
        best = NEG
        for b in range(kt.nbox):
            if ((m >> b) & 1) == 1:
                continue
            ok, gain, nu, nflag = place_box(kt, u, flag, d, b, restrict, lower_only, jok, extra)
            if ok:
                v = gain + V[m | (1 << b), nflag * U + nu]
                if v > best:
                    best = v
        if kt.is_yacht[d] and rep > 0 and rep + xself > best:
            best = rep + xself
        E0[d] = best


@njit(cache=True, nogil=True)
def keep_levels(kt: Any, E0: Any, Ks: Any) -> Any:
    """All keep values of one state's turn: ``Ks[j, k]`` = expected value of keeping
    ``k`` and rolling the rest with ``j`` rolls left after that roll.

    ``Ks[j]`` on the n-dice block holds ``E_j`` (the best with ``j`` rolls left),
    so ``Ks[rolls - 1, 0]`` is the value at the start of the turn. ``pairs``
    lists (s, s minus one die) with s ascending: one pass gives the best subset.
    """
    fs = kt.full_start
    nall = kt.up.shape[0]
    faces = kt.faces
    inv = 1.0 / faces
    for i in range(E0.shape[0]):
        Ks[0, fs + i] = E0[i]
    for level in range(kt.rolls):
        K = Ks[level]
        for s in range(fs - 1, -1, -1):
            acc = 0.0
            for f in range(faces):
                acc += K[kt.up[s, f]]
            K[s] = acc * inv
        if level == kt.rolls - 1:
            break
        nxt = Ks[level + 1]
        for s in range(nall):
            nxt[s] = K[s]
        for i in range(kt.pairs.shape[0]):
            s = kt.pairs[i, 0]
            t = kt.pairs[i, 1]
            if nxt[t] > nxt[s]:
                nxt[s] = nxt[t]


@njit(cache=True, nogil=True)
def state_turn(kt: Any, V: Any, m: Any, a: Any, E0: Any, Ks: Any) -> Any:
    """Placement values ``E0[d]`` and keep values ``Ks`` for the state (m, a)."""
    e0_scalar(kt, m, a, V, E0)
    keep_levels(kt, E0, Ks)


# --- the build with a repeat box: one mask at a time --------------------------------

@njit(cache=True, nogil=True, error_model="numpy")
def e0_block(kt: Any, m: Any, V: Any, u_lo: Any, u_hi: Any, f_lo: Any, f_hi: Any, x: Any,
             E0: Any, P0: Any, track: Any) -> Any:
    """Best placement value of every n-dice outcome for mask ``m``.

    Columns: ``(flag - f_lo) * (u_hi - u_lo + 1) + (u - u_lo)``. ``x`` holds the
    value of the state itself (for repeat placements); ``P0`` records whether a
    repeat was the best choice (the derivative used by the fixed-point solve).
    """
    U = kt.U
    need = kt.need
    nfull = E0.shape[0]
    W = E0.shape[1]
    wu = u_hi - u_lo + 1
    ncap = U - 1
    rep = repeat_points(kt, m)
    for d in range(nfull):
        row = E0[d]
        for j in range(W):
            row[j] = NEG
        yacht = kt.is_yacht[d]
        restrict, lower_only, jok = joker_rules(kt, m, d)
        for flag in range(f_lo, f_hi + 1):
            base = (flag - f_lo) * wu
            extra = yacht_extra(kt, m, flag, d)
            for b in range(kt.nbox):
                if ((m >> b) & 1) == 1 or not box_allowed(kt, b, restrict, lower_only):
                    continue
                pts = box_points(kt, b, d, jok)
                mult = kt.box_mult[b]
                val = float(pts * mult + extra)
                nflag = flag
                if b == kt.ybox and kt.ybonus > 0:
                    nflag = 1 if pts > 0 else 0
                vrow = V[m | (1 << b)]
                off = nflag * U
                if U > 1 and kt.box_upper[b]:
                    # u + pts below the threshold: plain shift
                    hi1 = min(u_hi + 1, need - pts)
                    for uu in range(u_lo, hi1):
                        v = vrow[off + uu + pts] + val
                        if v > row[base + uu - u_lo]:
                            row[base + uu - u_lo] = v
                    # crossing the threshold now: bonus, capped
                    lo2 = max(u_lo, need - pts)
                    hi2 = min(u_hi + 1, need)
                    if hi2 > lo2:
                        v = val + kt.bonus_amt * mult + vrow[off + ncap]
                        for j in range(lo2 - u_lo, hi2 - u_lo):
                            if v > row[base + j]:
                                row[base + j] = v
                    # already there
                    lo3 = max(u_lo, need)
                    if u_hi >= lo3:
                        v = val + vrow[off + ncap]
                        for j in range(lo3 - u_lo, u_hi + 1 - u_lo):
                            if v > row[base + j]:
                                row[base + j] = v
                else:
                    for j in range(wu):
                        v = vrow[off + u_lo + j] + val
                        if v > row[base + j]:
                            row[base + j] = v
            if yacht and rep > 0:
                for j in range(wu):
                    v = rep + x[base + j]
                    if v > row[base + j]:
                        row[base + j] = v
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
def levels_block(kt: Any, E0: Any, P0: Any, track: Any, K: Any, KP: Any, out: Any,
                 outp: Any) -> Any:
    """From the placement values ``E0`` to the value at the start of the turn.

    ``K``/``KP`` are (nall, W) scratch; on return ``out`` (and ``outp``, the
    chance that a repeat ends the turn) hold the turn values.
    """
    nfull, W = E0.shape
    nall = K.shape[0]
    fs = kt.full_start
    faces = kt.faces
    inv = 1.0 / faces
    for i in range(nfull):
        for w in range(W):
            K[fs + i, w] = E0[i, w]
    if track:
        for i in range(nfull):
            for w in range(W):
                KP[fs + i, w] = P0[i, w]
    for level in range(kt.rolls):
        for s in range(fs - 1, -1, -1):
            _avg_rows(K, kt.up, s, faces, inv)
        if track:
            for s in range(fs - 1, -1, -1):
                _avg_rows(KP, kt.up, s, faces, inv)
        if level == kt.rolls - 1:
            break
        if track:
            for s in range(1, nall):
                for f in range(faces):
                    t = kt.down[s, f]
                    if t >= 0:
                        for w in range(W):
                            if K[t, w] > K[s, w]:
                                K[s, w] = K[t, w]
                                KP[s, w] = KP[t, w]
        else:
            for s in range(1, nall):
                for f in range(faces):
                    t = kt.down[s, f]
                    if t >= 0:
                        krow = K[s]
                        trow = K[t]
                        for w in range(W):
                            a = trow[w]
                            b = krow[w]
                            krow[w] = a if a > b else b
    for w in range(W):
        out[w] = K[0, w]
        if track:
            outp[w] = KP[0, w]


@njit(cache=True, nogil=True)
def solve_mask(kt: Any, m: Any, V: Any, umax_m: Any, E0: Any, P0: Any, K: Any, KP: Any,
               out: Any, outp: Any, x: Any) -> Any:
    """Solve every (flag, upper total) state of one mask and store it in ``V[m]``.

    With a repeat box the state's value is the fixed point ``x = g(x)`` of its
    turn; ``g`` is convex and piecewise linear with slope < 1, so Newton's
    method from below reaches it exactly in a few steps.
    """
    U = kt.U
    nflag = 2 if (kt.ybonus > 0 and kt.ybox >= 0 and ((m >> kt.ybox) & 1) == 1) else 1
    wu = umax_m + 1
    W = nflag * wu
    nfull = kt.score.shape[1]
    nall = kt.up.shape[0]
    E0v = E0[:nfull * W].reshape((nfull, W))
    P0v = P0[:nfull * W].reshape((nfull, W))
    Kv = K[:nall * W].reshape((nall, W))
    KPv = KP[:nall * W].reshape((nall, W))
    o = out[:W]
    op = outp[:W]
    xv = x[:W]
    for w in range(W):
        xv[w] = 0.0
    if repeat_points(kt, m) > 0:
        for _ in range(200):
            e0_block(kt, m, V, 0, umax_m, 0, nflag - 1, xv, E0v, P0v, True)
            levels_block(kt, E0v, P0v, True, Kv, KPv, o, op)
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
        e0_block(kt, m, V, 0, umax_m, 0, nflag - 1, xv, E0v, P0v, False)
        levels_block(kt, E0v, P0v, False, Kv, KPv, o, op)
    for flag in range(nflag):
        for u in range(wu):
            V[m, flag * U + u] = o[flag * wu + u]


@njit(cache=True, nogil=True)
def solve_chunk(kt: Any, masks: Any, lo: Any, hi: Any, V: Any, umax: Any) -> Any:
    """Solve ``masks[lo:hi]`` (masks of one layer, independent of each other).

    Runs without the GIL: the caller spreads the chunks of a layer over threads.
    """
    nfull = kt.score.shape[1]
    nall = kt.up.shape[0]
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
        solve_mask(kt, m, V, umax[m], E0, P0, K, KP, out, outp, x)


# --- dice and random streams ------------------------------------------------------

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
def _roll(kt: Any, cnt: Any, k: Any, rngs: Any, g: Any) -> Any:
    """Add ``k`` random dice to the counts ``cnt``."""
    for _ in range(k):
        r = _rand(rngs, g)
        f = np.int64((r >> np.uint64(32)) * np.uint64(kt.faces) >> np.uint64(32))
        cnt[f] += 1


@njit(cache=True, nogil=True)
def _index(kt: Any, cnt: Any) -> Any:
    c = 0
    base = 1
    for f in range(cnt.shape[0]):
        c += cnt[f] * base
        base *= kt.n + 1
    return kt.code_index[c]


@njit(cache=True, nogil=True)
def _best_keep(kt: Any, table: Any, off: Any, stride: Any, d: Any) -> Any:
    """The best proper sub-multiset of outcome ``d`` by ``table[off + k * stride]``."""
    best = NEG
    bk = 0
    for i in range(kt.nsubs[d]):
        k = kt.subs[d, i]
        v = table[off + k * stride]
        if v > best:
            best = v
            bk = k
    return best, bk


@njit(cache=True, nogil=True)
def _keep_and_roll(kt: Any, cnt: Any, k: Any, rngs: Any, g: Any) -> Any:
    for f in range(kt.faces):
        cnt[f] = kt.counts[k, f]
    _roll(kt, cnt, kt.n - kt.size[k], rngs, g)


@njit(cache=True, nogil=True)
def play_turn_dice(kt: Any, Ks: Any, stride: Any, col: Any, d0: Any, r0: Any, rngs: Any,
                   g: Any, cnt: Any) -> Any:
    """Roll and re-roll one turn by the keep values ``Ks``; returns the final outcome.

    ``Ks[(level * nall + k) * stride + col]`` is the value of keep ``k`` with
    ``level`` rolls left after the roll it waits for; on outcome rows, level 0
    holds the placement value (stop and score when nothing beats it). The turn
    starts from outcome ``d0`` with ``r0`` rolls left, or (``d0 < 0``) rolls.
    """
    nall = kt.up.shape[0]
    fs = kt.full_start
    if d0 >= 0:
        for f in range(kt.faces):
            cnt[f] = kt.counts[fs + d0, f]
        start = r0
    else:
        for f in range(kt.faces):
            cnt[f] = 0
        _roll(kt, cnt, kt.n, rngs, g)
        start = kt.rolls - 1
    for left in range(start, 0, -1):
        di = _index(kt, cnt)
        best, bk = _best_keep(kt, Ks, (left - 1) * nall * stride + col, stride, di - fs)
        if Ks[di * stride + col] >= best:
            break
        _keep_and_roll(kt, cnt, bk, rngs, g)
    return _index(kt, cnt) - fs


@njit(cache=True, nogil=True)
def forced_turn_dice(kt: Any, fkeep: Any, forced: Any, rngs: Any, g: Any, cnt: Any) -> Any:
    """The forced first turn (roll until all dice match): returns (points, yacht rolled).

    ``forced`` = (box, points, free rolls, penalty, floor, last roll)."""
    fpoints, ffree, fpenalty, ffloor, flast = forced[1], forced[2], forced[3], forced[4], \
        forced[5]
    for f in range(kt.faces):
        cnt[f] = 0
    _roll(kt, cnt, kt.n, rngs, g)
    r = 1
    nall = fkeep.shape[1]
    while True:
        d = _index(kt, cnt) - kt.full_start
        if kt.is_yacht[d]:
            pts = fpoints - fpenalty * max(0, r - ffree)
            return max(pts, ffloor), True
        if r >= flast:
            return ffloor, False
        _, bk = _best_keep(kt, fkeep.ravel(), r * nall, 1, d)
        _keep_and_roll(kt, cnt, bk, rngs, g)
        r += 1


@njit(cache=True, nogil=True)
def play_games(kt: Any, V: Any, g_lo: Any, g_hi: Any, seed: Any, start: Any, forced: Any,
               fkeep: Any, totals: Any, bonus_out: Any, yachts_out: Any) -> Any:
    """Play games ``g_lo..g_hi`` one at a time by the table's policy (any ruleset);
    game g uses its own random stream. ``start`` = (mask, u, flag, outcome, rolls
    left) of the first turn (outcome -1: the turn starts with a roll)."""
    m0, u0, f0, d0, r0 = start[0], start[1], start[2], start[3], start[4]
    fbox = forced[0]
    U = kt.U
    nfull = kt.score.shape[1]
    nall = kt.up.shape[0]
    full = (1 << kt.nbox) - 1
    E0 = np.empty(nfull)
    Ks = np.empty((kt.rolls, nall))
    Kf = Ks.ravel()
    cnt = np.zeros(kt.faces, dtype=np.int64)
    rngs = np.zeros(1, dtype=np.uint64)
    for g in range(g_lo, g_hi):
        seed_stream(rngs, 0, seed, g)
        m = m0
        u = u0
        flag = f0
        total = 0
        yachts = 0
        if fbox >= 0 and ((m >> fbox) & 1) == 0:
            pts, y = forced_turn_dice(kt, fkeep, forced, rngs, 0, cnt)
            yachts += y
            total += pts * kt.box_mult[fbox]
            m |= 1 << fbox
        first = d0 >= 0
        while m != full:
            state_turn(kt, V, m, flag * U + u, E0, Ks)
            d = play_turn_dice(kt, Kf, 1, 0, d0 if first else -1, r0 if first else 0, rngs, 0,
                               cnt)
            first = False
            if kt.is_yacht[d]:
                yachts += 1
            b, gain, nu, nflag = best_place(kt, m, u, flag, d, V)
            total += gain
            if b >= 0:
                m |= 1 << b
            u = nu
            flag = nflag
        totals[g - g_lo] = total
        bonus_out[g - g_lo] = U > 1 and u >= kt.need
        yachts_out[g - g_lo] = yachts
