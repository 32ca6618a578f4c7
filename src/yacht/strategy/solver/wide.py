"""numba kernels that solve many card states side by side ("wide tiles").

(The fallback of the C extension, which runs the same algorithms; every kernel
reads the rules and dice tables from one :class:`~.tables.KernelTables` ``kt``.)

The turn of one card state is a chain of sweeps over the dice multisets
(see :mod:`.kernels`). Each sweep step touches a handful of rows, so what
it costs is mostly per row, not per value; these kernels therefore solve
up to ``tile`` states at once, one per column of a tile, and every step is
one vectorised loop over the tile's columns. The same machinery serves the
table build (the states of one layer of masks, packed greedily: all upper
totals and flag values of a mask, then the next mask), lockstep self-play
(the current states of ``tile`` games) and batch option values.

Placement values (:func:`e0_games`): each open box contributes through a
few gathered "rows" per state (the value after the box, for each upper
score it can take, points and bonus included); writing 0 in a box is never
better than what the dice score there, so every outcome starts from the
best 0-point row and visits only the boxes where it scores.

The build works on a padded table ``Vp`` (``nmask`` rows, ``nflag * S``
columns): column ``flag * S + u`` holds the value with upper total ``u``,
and the entries past the bonus threshold repeat the capped value. For a
mask whose remaining upper boxes can no longer reach the threshold from
``u``, every lower total has the same value; only one of them is solved.

Two things keep the compiled loops fast: a max step always stores into a
row it does not read (a store guarded by a compare becomes a masked store,
which is slow on x86), and flat indices are unsigned (no negative-index
wrap-around test per element).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .kernels import (
    best_place,
    box_allowed,
    box_points,
    box_values,
    forced_turn_dice,
    joker_rules,
    play_turn_dice,
    seed_stream,
)

NEG = -1.0e30


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def _max_group(K: Any, M: Any, rows: Any, lo: Any, hi: Any, c: Any, dc: Any, t: Any,
               cw: Any) -> Any:
    """M[s] = max(K[s], M[d] for the ``c`` multisets d one die below s), rows[lo:hi].

    One loop per count of faces shown, so that every row's store is a plain
    store of a max of loads (no row is read and written by the same step).
    """
    uw = np.uint64(cw)
    for i in range(lo, hi):
        s = rows[i]
        o = np.uint64(s) * t
        if c == 0:
            for w in range(uw):
                M[o + w] = K[o + w]
        elif c == 1:
            d0 = np.uint64(dc[s, 0]) * t
            for w in range(uw):
                M[o + w] = max(K[o + w], M[d0 + w])
        elif c == 2:
            d0 = np.uint64(dc[s, 0]) * t
            d1 = np.uint64(dc[s, 1]) * t
            for w in range(uw):
                M[o + w] = max(K[o + w], max(M[d0 + w], M[d1 + w]))
        elif c == 3:
            d0 = np.uint64(dc[s, 0]) * t
            d1 = np.uint64(dc[s, 1]) * t
            d2 = np.uint64(dc[s, 2]) * t
            for w in range(uw):
                M[o + w] = max(max(K[o + w], M[d0 + w]), max(M[d1 + w], M[d2 + w]))
        elif c == 4:
            d0 = np.uint64(dc[s, 0]) * t
            d1 = np.uint64(dc[s, 1]) * t
            d2 = np.uint64(dc[s, 2]) * t
            d3 = np.uint64(dc[s, 3]) * t
            for w in range(uw):
                M[o + w] = max(max(K[o + w], M[d0 + w]),
                               max(max(M[d1 + w], M[d2 + w]), M[d3 + w]))
        elif c == 5:
            d0 = np.uint64(dc[s, 0]) * t
            d1 = np.uint64(dc[s, 1]) * t
            d2 = np.uint64(dc[s, 2]) * t
            d3 = np.uint64(dc[s, 3]) * t
            d4 = np.uint64(dc[s, 4]) * t
            for w in range(uw):
                M[o + w] = max(max(max(K[o + w], M[d0 + w]), max(M[d1 + w], M[d2 + w])),
                               max(M[d3 + w], M[d4 + w]))
        else:  # 6 or more: six at a time, then one by one through a spare row
            d0 = np.uint64(dc[s, 0]) * t
            d1 = np.uint64(dc[s, 1]) * t
            d2 = np.uint64(dc[s, 2]) * t
            d3 = np.uint64(dc[s, 3]) * t
            d4 = np.uint64(dc[s, 4]) * t
            d5 = np.uint64(dc[s, 5]) * t
            for w in range(uw):
                M[o + w] = max(max(max(K[o + w], M[d0 + w]), max(M[d1 + w], M[d2 + w])),
                               max(max(M[d3 + w], M[d4 + w]), M[d5 + w]))
            spare = np.uint64(dc.shape[0]) * t  # row nall of K: not used by the sweeps
            for f in range(6, c):
                df = np.uint64(dc[s, f]) * t
                for w in range(uw):
                    K[spare + w] = max(M[o + w], M[df + w])
                for w in range(uw):
                    M[o + w] = K[spare + w]


@njit(cache=True, nogil=True, fastmath=True)
def levels_wide(kt: Any, K: Any, M: Any, rolls: Any, tile: Any, cw: Any, save: Any,
                Ks: Any) -> Any:
    """Turn values of ``cw`` states side by side.

    ``K`` and ``M`` are flat ``(nall + 1) * tile`` arrays; on entry the rows of
    the ``n``-dice outcomes (``full_start <= s < nall``) of ``K`` hold the
    placement values ``E0``. On return row 0 of ``K`` holds the value of each
    column at the start of the turn. ``kt.dc[s]`` lists the multisets one die
    below ``s``; the max sweep visits the rows in the order ``kt.mrows``, in
    groups ``kt.mgroups[g] = (first, end, count of faces shown)`` that respect
    the sizes (a row only reads smaller ones). ``kt.prob``: the chance of each
    outcome when all dice are rolled.

    With ``save``, ``Ks[level * nall * tile:]`` gets rows ``0 .. nall - 1`` of
    ``K`` after each level: the value of every keep with ``level`` rolls left
    after the roll it waits for, and on the outcome rows the best value of
    holding those dice with ``level`` rolls left (``E0`` at level 0). Without
    it, the last level computes row 0 only (the roll of all the dice).
    """
    up = kt.up
    dc = kt.dc
    prob = kt.prob
    full_start = kt.full_start
    faces = kt.faces
    nall = up.shape[0]
    inv = 1.0 / faces
    t = np.uint64(tile)
    uw = np.uint64(cw)
    for level in range(rolls):
        if level == rolls - 1 and not save:
            # only the start of the turn is wanted: all dice rolled
            fo = np.uint64(full_start) * t
            p0 = prob[0]
            for w in range(uw):
                K[w] = p0 * K[fo + w]
            for d in range(1, nall - full_start):
                fo = np.uint64(full_start + d) * t
                p = prob[d]
                for w in range(uw):
                    K[w] += p * K[fo + w]
            break
        # keep values: K[s] = mean over faces of K[s + face]
        for s in range(full_start - 1, -1, -1):
            o = np.uint64(s) * t
            if faces == 6:
                a0 = np.uint64(up[s, 0]) * t
                a1 = np.uint64(up[s, 1]) * t
                a2 = np.uint64(up[s, 2]) * t
                a3 = np.uint64(up[s, 3]) * t
                a4 = np.uint64(up[s, 4]) * t
                a5 = np.uint64(up[s, 5]) * t
                for w in range(uw):
                    K[o + w] = (((K[a0 + w] + K[a1 + w]) + (K[a2 + w] + K[a3 + w]))
                                + (K[a4 + w] + K[a5 + w])) * inv
            else:
                a0 = np.uint64(up[s, 0]) * t
                for w in range(uw):
                    K[o + w] = K[a0 + w]
                for f in range(1, faces):
                    af = np.uint64(up[s, f]) * t
                    for w in range(uw):
                        K[o + w] += K[af + w]
                for w in range(uw):
                    K[o + w] *= inv
        if save:
            base = np.uint64(level * nall) * t
            for s in range(nall):
                o = np.uint64(s) * t
                for w in range(uw):
                    Ks[base + o + w] = K[o + w]
        if level == rolls - 1:
            break
        # best keep of each multiset: M[s] = max(K[s], M[s - face] for each face shown)
        for g in range(kt.mgroups.shape[0]):
            _max_group(K, M, kt.mrows, kt.mgroups[g, 0], kt.mgroups[g, 1], kt.mgroups[g, 2],
                       dc, t, cw)
        for s in range(full_start, nall):
            o = np.uint64(s) * t
            for w in range(uw):
                K[o + w] = M[o + w]


@njit(cache=True, nogil=True)
def _scratch(kt: Any, tile: Any, saved_levels: Any) -> Any:
    """Working arrays of a tile: K, M (its dummy row set), A, Z, Ks, and the
    per-column state arrays (mask, upper total, flag)."""
    nall = kt.up.shape[0]
    nrows = kt.row_box.shape[0]
    K = np.zeros((nall + 1) * tile)
    M = np.zeros((nall + 1) * tile)
    for j in range(tile):
        M[nall * tile + j] = NEG
    A = np.zeros(nrows * tile)
    Z = np.zeros(3 * tile)
    Ks = np.zeros(max(1, saved_levels * nall * tile))
    gm = np.zeros(tile, dtype=np.int64)
    gu = np.zeros(tile, dtype=np.int64)
    gf = np.zeros(tile, dtype=np.int64)
    return K, M, A, Z, Ks, gm, gu, gf


@njit(cache=True, nogil=True, fastmath=True)
def e0_games(kt: Any, G: Any, gm: Any, gu: Any, gf: Any, K: Any, tile: Any, V: Any, cs: Any,
             cap: Any, A: Any, Z: Any) -> Any:
    """Placement values ``E0`` of ``G`` states (one per column, states of any masks).

    ``V[mask, flag * cs + u]`` is the value table (upper totals capped at ``cap``).
    Each open box contributes through a few "rows" (the value after it, for
    each upper score it can take); with those gathered per state, the best
    placement of every outcome is a max of ``npd[d]`` rows plus the zero row
    ``Z``, vectorised over the states. Needs no box scoring below zero.
    Yacht outcomes under the joker/bonus rules are then redone per state from the
    same rows, by :func:`kernels.joker_rules`.
    """
    row_box = kt.row_box
    nrows = row_box.shape[0]
    nfull = kt.score.shape[1]
    full_start = kt.full_start
    need = kt.need
    t = np.uint64(tile)
    cw = np.uint64((G + 7) // 8 * 8)
    for r in range(nrows):
        b = row_box[r]
        ro = np.uint64(r) * t
        for g in range(G):
            m = gm[g]
            if ((m >> b) & 1) == 1:
                A[ro + np.uint64(g)] = NEG
                continue
            u = gu[g]
            fl = gf[g] if kt.row_flag[r] < 0 else kt.row_flag[r]
            nm = m | (1 << b)
            if kt.row_upper[r]:
                pts = kt.row_pts[r]
                mult = kt.box_mult[b]
                nu = u + pts
                v = float(pts * mult)
                if u < need and nu >= need:
                    v += kt.bonus_amt * mult
                if nu > cap:
                    nu = cap
                A[ro + np.uint64(g)] = v + V[nm, fl * cs + nu]
            else:
                A[ro + np.uint64(g)] = V[nm, fl * cs + u]
        for g in range(G, cw):
            A[ro + np.uint64(g)] = 0.0
    # Z: rows 0 and 1 ping-pong, the result ends in row 2 (stores never guarded)
    zi = np.uint64(0)
    for w in range(cw):
        Z[w] = NEG
    for b in range(kt.nbox):
        zo = np.uint64(kt.zrow[b]) * t
        zs = zi * t
        zd = (np.uint64(1) - zi) * t
        for w in range(cw):
            Z[zd + w] = max(Z[zs + w], A[zo + w])
        zi = np.uint64(1) - zi
    z2 = np.uint64(2) * t
    zs = zi * t
    for w in range(cw):
        Z[z2 + w] = Z[zs + w]
    for d in range(nfull):
        o = np.uint64(full_start + d) * t
        si = z2
        di = np.uint64(0)
        for k in range(kt.npd[d]):
            ro = np.uint64(kt.prow[d, k]) * t
            add = kt.padd[d, k]
            for w in range(cw):
                Z[di + w] = max(Z[si + w], add + A[ro + w])
            si = di
            di = t - di
        for w in range(cw):
            K[o + w] = Z[si + w]
    if kt.ybox >= 0 and (kt.jmode > 0 or kt.ybonus > 0):
        # a yacht once the Yahtzee box is filled: the joker rule and the bonus,
        # per state, from the rows already gathered
        for d in range(nfull):
            if not kt.is_yacht[d]:
                continue
            o = np.uint64(full_start + d) * t
            for g in range(G):
                m = gm[g]
                if ((m >> kt.ybox) & 1) == 0:
                    continue
                restrict, lower_only, jok = joker_rules(kt, m, d)
                best = NEG
                for b in range(kt.nbox):
                    if ((m >> b) & 1) == 1 or not box_allowed(kt, b, restrict, lower_only):
                        continue
                    pts = box_points(kt, b, d, jok)
                    zr = kt.zrow[b]
                    if kt.row_upper[zr]:
                        v = A[np.uint64(kt.row_of[b, pts]) * t + np.uint64(g)]
                    else:
                        v = float(pts * kt.box_mult[b]) + A[np.uint64(zr) * t + np.uint64(g)]
                    if v > best:
                        best = v
                K[o + np.uint64(g)] = best + (float(kt.ybonus) if gf[g] == 1 else 0.0)


@njit(cache=True, nogil=True)
def solve_chunk_wide(kt: Any, masks: Any, lo: Any, hi: Any, Vp: Any, S: Any, ulo_of: Any,
                     umax_of: Any, nflag_of: Any, tile: Any) -> Any:
    """Solve the masks ``masks[lo:hi]`` of one layer into ``Vp`` (see the module doc).

    The states (mask, flag, upper total) of the chunk are packed ``tile`` at a
    time; each tile gets its placement values from :func:`e0_games` (reading
    the padded table, so ``S`` stands for the number of upper totals) and its
    turn values from :func:`levels_wide`. Runs without the GIL: the caller
    spreads the chunks of a layer over threads.
    """
    need = kt.need
    rowlen = Vp.shape[1]
    Vf = Vp.ravel()
    K, M, A, Z, Ks, gm, gu, gf = _scratch(kt, tile, 0)
    used = 0
    i = lo
    flag = 0
    u = -1  # next upper total of masks[i]; -1: start the mask
    while True:
        done = i >= hi
        if not done:
            m = masks[i]
            if u < 0:
                u = ulo_of[m]
                flag = 0
            gm[used] = m
            gu[used] = u
            gf[used] = flag
            used += 1
            u += 1
            if u > umax_of[m]:
                flag += 1
                if flag < nflag_of[m]:
                    u = ulo_of[m]
                else:
                    i += 1
                    u = -1
        if used == tile or (done and used > 0):
            cw = (used + 7) // 8 * 8
            e0_games(kt, used, gm, gu, gf, K, tile, Vp, S, S - 1, A, Z)
            levels_wide(kt, K, M, kt.rolls, tile, cw, False, Ks)
            for g in range(used):
                Vf[gm[g] * rowlen + gf[g] * S + gu[g]] = K[g]
            used = 0
        if done:
            break
    # the totals not solved: below ``ulo`` (bonus out of reach: one value) and past the cap
    for k in range(lo, hi):
        m = masks[k]
        for fl in range(nflag_of[m]):
            base = m * rowlen + fl * S
            v = Vf[base + ulo_of[m]]
            for uu in range(ulo_of[m]):
                Vf[base + uu] = v
            if S > 1:
                vc = Vf[base + need]
                for uu in range(need + 1, S):
                    Vf[base + uu] = vc


@njit(cache=True, nogil=True)
def play_wide(kt: Any, V: Any, g_lo: Any, g_hi: Any, seed: Any, start: Any, forced: Any,
              fkeep: Any, tile: Any, totals: Any, bonus_out: Any, yachts_out: Any) -> Any:
    """Play games ``g_lo .. g_hi - 1`` by the table's policy, ``tile`` games in step.

    Game ``g`` draws from its own random stream (from ``seed`` and ``g``). All
    games of a batch are at the same turn, so their turns are solved side by
    side (one column each) by :func:`levels_wide`; each game then rolls and
    decides on its own column. Needs a ruleset without a repeat box (every
    turn fills one box, so every game has the same number of turns).
    ``start`` and ``forced`` as in :func:`kernels.play_games`.
    """
    m0, u0, f0, d0, r0 = start[0], start[1], start[2], start[3], start[4]
    fbox = forced[0]
    U = kt.U
    K, M, A, Z, Ks, gm, gu, gf = _scratch(kt, tile, kt.rolls)
    rngs = np.zeros(tile, dtype=np.uint64)
    gt = np.zeros(tile, dtype=np.int64)
    gy = np.zeros(tile, dtype=np.int64)
    cnt = np.zeros(kt.faces, dtype=np.int64)
    full = (1 << kt.nbox) - 1
    for b0 in range(g_lo, g_hi, tile):
        G = min(tile, g_hi - b0)
        for g in range(G):
            seed_stream(rngs, g, seed, b0 + g)
            gm[g] = m0
            gu[g] = u0
            gf[g] = f0
            gt[g] = 0
            gy[g] = 0
            if fbox >= 0 and ((m0 >> fbox) & 1) == 0:
                pts, y = forced_turn_dice(kt, fkeep, forced, rngs, g, cnt)
                gy[g] += y
                gt[g] += pts * kt.box_mult[fbox]
                gm[g] |= 1 << fbox
        first = d0 >= 0
        while gm[0] != full:
            cw = (G + 7) // 8 * 8
            e0_games(kt, G, gm, gu, gf, K, tile, V, U, U - 1, A, Z)
            levels_wide(kt, K, M, kt.rolls, tile, cw, True, Ks)
            for g in range(G):
                d = play_turn_dice(kt, Ks, tile, g, d0 if first else -1, r0 if first else 0,
                                   rngs, g, cnt)
                if kt.is_yacht[d]:
                    gy[g] += 1
                bb, gain, nu, nflag = best_place(kt, gm[g], gu[g], gf[g], d, V)
                gt[g] += gain
                gm[g] |= 1 << bb
                gu[g] = nu
                gf[g] = nflag
            first = False
        for g in range(G):
            totals[b0 - g_lo + g] = gt[g]
            bonus_out[b0 - g_lo + g] = U > 1 and gu[g] >= kt.need
            yachts_out[b0 - g_lo + g] = gy[g]


@njit(cache=True, nogil=True)
def advise_chunk(kt: Any, V: Any, lo: Any, hi: Any, sm: Any, sa: Any, sd: Any, sr: Any,
                 tile: Any, keep_out: Any, box_out: Any) -> Any:
    """Option values of the situations ``lo .. hi - 1``, ``tile`` at a time.

    Situation ``i``: state (``sm[i]``, ``sa[i]``), outcome index ``sd[i]`` (among
    the n-dice outcomes), ``sr[i]`` rolls left. ``keep_out[i, j]``: value of
    keeping ``subs[sd[i], j]`` (NaN with no roll left); ``box_out[i, b]``: value
    of scoring in box ``b`` (NaN when not allowed). Values count the points
    from the start of the turn on, like the table.
    """
    U = kt.U
    nall = kt.up.shape[0]
    t = np.uint64(tile)
    K, M, A, Z, Ks, gm, gu, gf = _scratch(kt, tile, kt.rolls)
    for b0 in range(lo, hi, tile):
        G = min(tile, hi - b0)
        need_levels = 0
        for g in range(G):
            gm[g] = sm[b0 + g]
            gu[g] = sa[b0 + g] % U
            gf[g] = sa[b0 + g] // U
            if sr[b0 + g] > need_levels:
                need_levels = sr[b0 + g]
        cw = (G + 7) // 8 * 8
        if need_levels > 0:  # with no roll left only the boxes count
            e0_games(kt, G, gm, gu, gf, K, tile, V, U, U - 1, A, Z)
            levels_wide(kt, K, M, min(kt.rolls, need_levels), tile, cw, True, Ks)
        for g in range(G):
            i = b0 + g
            d = sd[i]
            box_values(kt, gm[g], gu[g], gf[g], d, V, box_out[i])
            r = sr[i]
            for j in range(keep_out.shape[1]):
                keep_out[i, j] = np.nan
            if r > 0:
                lv = np.uint64((r - 1) * nall) * t + np.uint64(g)
                for j in range(kt.nsubs[d]):
                    keep_out[i, j] = Ks[lv + np.uint64(kt.subs[d, j]) * t]


@njit(cache=True, nogil=True)
def skip_chunk_wide(kt: Any, masks: Any, lo: Any, hi: Any, V: Any, tile: Any) -> Any:
    """The relaxed game where a turn may be skipped, ``tile`` masks side by side:
    ``V[m, t]`` is the best expected score of the open boxes of ``m`` with ``t``
    turns left (boxes left open score 0). For a ruleset without bonus rules.

    Used for a proven upper bound: the boxes of one column of a many-column game
    are filled in some of its turns, so their expected score is at most this.
    """
    full_start = kt.full_start
    nall = kt.up.shape[0]
    T = V.shape[1] - 1
    K, M, A, Z, Ks, gm, gu, gf = _scratch(kt, tile, 0)
    for b0 in range(lo, hi, tile):
        G = min(tile, hi - b0)
        for g in range(G):
            gm[g] = masks[b0 + g]
            gf[g] = 0
        cw = (G + 7) // 8 * 8
        for t in range(1, T + 1):
            for g in range(G):
                gu[g] = t - 1
            # "upper total" t - 1 picks column t - 1 of V: the value with a turn less
            e0_games(kt, G, gm, gu, gf, K, tile, V, 1, T, A, Z)
            for g in range(G):  # or skip the turn: keep every box open
                skip = V[gm[g], t - 1]
                for d in range(full_start, nall):
                    if skip > K[d * tile + g]:
                        K[d * tile + g] = skip
            levels_wide(kt, K, M, kt.rolls, tile, cw, False, Ks)
            for g in range(G):
                V[gm[g], t] = K[g]
