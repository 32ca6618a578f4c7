/* The wide-tile kernels for one tile width: included by _native.c once per
 * width with TW (columns of a tile) and TF(name) (the name with the width) set.
 *
 * A tile holds TW card states side by side, one per column; a "row" is the
 * TW values of one dice multiset. Every step below is a loop over the TW
 * columns of a few rows (the compiler vectorises it: TW is a constant).
 * See _native.c for the layout, reference.py for the recurrences written plainly.
 */

/* Placement values of G states (columns) into the outcome rows of K, from the
 * table V (row length rowlen; the column of (flag, upper total) is
 * flag * cs + u, the total capped at cap). A: scratch of nrows rows. */
static void TF(e0_tile)(const Tables *T, int64_t G, const int64_t *gm, const int64_t *gu,
                        const int64_t *gf, double *K, const double *V, int64_t rowlen,
                        int64_t cs, int64_t cap, double *A, double *Z)
{
    const int64_t nrows = T->nrows, nfull = T->nfull, fs = T->full_start;
    /* runs of columns with one mask and flag and consecutive upper totals (the
     * build packs states that way): each row is gathered run by run */
    int64_t rs[TW + 1], nrun = 0;
    for (int64_t g = 0; g < G; g++)
        if (g == 0 || gm[g] != gm[g - 1] || gf[g] != gf[g - 1] || gu[g] != gu[g - 1] + 1)
            rs[nrun++] = g;
    rs[nrun] = G;
    for (int64_t r = 0; r < nrows; r++) {
        const int64_t b = T->row_box[r];
        double *ar = A + r * TW;
        const int upper = T->row_upper[r];
        const int64_t pts = T->row_pts[r], mult = T->box_mult[b];
        const double base = (double)(pts * mult), bonus = (double)(T->bonus_amt * mult);
        const int64_t blo = T->need - pts; /* from this total on, the points earn the bonus */
        for (int64_t q = 0; q < nrun; q++) {
            const int64_t g0 = rs[q], g1 = rs[q + 1], m = gm[g0];
            if ((m >> b) & 1) {
                for (int64_t g = g0; g < g1; g++)
                    ar[g] = NEG;
                continue;
            }
            const int64_t fl = T->row_flag[r] < 0 ? gf[g0] : T->row_flag[r];
            const int64_t u0 = gu[g0];
            const double *vr = V + (m | ((int64_t)1 << b)) * rowlen + fl * cs;
            if (upper) {
                if (u0 + (g1 - g0) - 1 + pts <= cap) {
                    const double *src = vr + u0 + pts - g0;
                    for (int64_t g = g0; g < g1; g++) {
                        const int64_t u = u0 + g - g0;
                        ar[g] = base + ((u >= blo && u < T->need) ? bonus : 0.0) + src[g];
                    }
                } else {
                    for (int64_t g = g0; g < g1; g++) {
                        const int64_t u = u0 + g - g0;
                        ar[g] = base + ((u >= blo && u < T->need) ? bonus : 0.0)
                                + vr[MIN(u + pts, cap)];
                    }
                }
            } else {
                const double *src = vr + u0 - g0;
                for (int64_t g = g0; g < g1; g++)
                    ar[g] = src[g];
            }
        }
        for (int64_t g = G; g < TW; g++)
            ar[g] = 0.0;
    }
    /* Z: the best box at 0 points (never better than what the dice score) */
    for (int w = 0; w < TW; w++)
        Z[w] = NEG;
    for (int64_t b = 0; b < T->nbox; b++) {
        const double *src = A + T->zrow[b] * TW;
#pragma GCC ivdep
        for (int w = 0; w < TW; w++)
            Z[w] = Z[w] > src[w] ? Z[w] : src[w];
    }
    for (int64_t d = 0; d < nfull; d++) {
        double *restrict dst = K + (fs + d) * TW;
        const int64_t np = T->npd[d];
        const int64_t *pr = T->prow + d * T->pw;
        const double *pa = T->padd + d * T->pw;
#if TW >= VL
        vec acc[TW / VL];
        for (int j = 0; j < TW / VL; j++)
            acc[j] = VLOAD(Z + j * VL);
        for (int64_t k = 0; k < np; k++) {
            const double *src = A + pr[k] * TW;
            const vec add = VSET1(pa[k]);
            for (int j = 0; j < TW / VL; j++)
                acc[j] = VMAX(acc[j], VADD(add, VLOAD(src + j * VL)));
        }
        for (int j = 0; j < TW / VL; j++)
            VSTORE(dst + j * VL, acc[j]);
#else
        for (int w = 0; w < TW; w++) {
            double acc = Z[w];
            for (int64_t k = 0; k < np; k++) {
                const double v = pa[k] + A[pr[k] * TW + w];
                acc = acc > v ? acc : v;
            }
            dst[w] = acc;
        }
#endif
    }
    if (T->ybox >= 0 && (T->jmode > 0 || T->ybonus > 0)) {
        /* a yacht once the bonus/joker box is filled: the joker rule and the bonus,
         * per state, from the rows already gathered */
        for (int64_t d = 0; d < nfull; d++) {
            if (!T->is_yacht[d])
                continue;
            double *dst = K + (fs + d) * TW;
            for (int64_t g = 0; g < G; g++) {
                const int64_t m = gm[g];
                if (((m >> T->ybox) & 1) == 0)
                    continue;
                int64_t restrict_;
                int lower_only, jok;
                joker_rules(T, m, d, &restrict_, &lower_only, &jok);
                double best = NEG;
                for (int64_t b = 0; b < T->nbox; b++) {
                    if (((m >> b) & 1) || !box_allowed(T, b, restrict_, lower_only))
                        continue;
                    const int64_t pts = box_points(T, b, d, jok);
                    double v;
                    if (T->row_upper[T->zrow[b]])
                        v = A[T->row_of[b * T->rowofw + pts] * TW + g];
                    else
                        v = (double)(pts * T->box_mult[b]) + A[T->zrow[b] * TW + g];
                    if (v > best)
                        best = v;
                }
                dst[g] = best + (gf[g] == 1 ? (double)T->ybonus : 0.0);
            }
        }
    }
}

/* M[s] = max(self[s], M[d] for the multisets d one die below s), for the rows
 * mrows[lo:hi] (all of one size and one count c of faces shown). */
static inline void TF(max_group)(const Tables *T, const double *self, double *M, int64_t lo,
                                 int64_t hi, int64_t c)
{
    const int64_t *dc = T->dc;
    const int64_t F = T->faces;
    for (int64_t i = lo; i < hi; i++) {
        const int64_t s = T->mrows[i];
        double *o = M + s * TW;
        const double *k = self + s * TW;
        const int64_t *ds = dc + s * F;
        if (c == 0) {
            if (k != o)
                for (int w = 0; w < TW; w++)
                    o[w] = k[w];
        } else if (c == 1) {
            const double *restrict a = M + ds[0] * TW;
#pragma GCC ivdep
            for (int w = 0; w < TW; w++)
                o[w] = MAX(k[w], a[w]);
        } else if (c == 2) {
            const double *restrict a = M + ds[0] * TW, *restrict b = M + ds[1] * TW;
#pragma GCC ivdep
            for (int w = 0; w < TW; w++)
                o[w] = MAX(k[w], MAX(a[w], b[w]));
        } else if (c == 3) {
            const double *restrict a = M + ds[0] * TW, *restrict b = M + ds[1] * TW,
                                   *restrict e = M + ds[2] * TW;
#pragma GCC ivdep
            for (int w = 0; w < TW; w++)
                o[w] = MAX(MAX(k[w], a[w]), MAX(b[w], e[w]));
        } else if (c == 4) {
            const double *restrict a = M + ds[0] * TW, *restrict b = M + ds[1] * TW,
                                   *restrict e = M + ds[2] * TW, *restrict f = M + ds[3] * TW;
#pragma GCC ivdep
            for (int w = 0; w < TW; w++)
                o[w] = MAX(MAX(k[w], a[w]), MAX(MAX(b[w], e[w]), f[w]));
        } else if (c == 5) {
            const double *restrict a = M + ds[0] * TW, *restrict b = M + ds[1] * TW,
                                   *restrict e = M + ds[2] * TW, *restrict f = M + ds[3] * TW,
                                   *restrict h = M + ds[4] * TW;
#pragma GCC ivdep
            for (int w = 0; w < TW; w++)
                o[w] = MAX(MAX(MAX(k[w], a[w]), MAX(b[w], e[w])), MAX(f[w], h[w]));
        } else {
            const double *restrict a = M + ds[0] * TW, *restrict b = M + ds[1] * TW,
                                   *restrict e = M + ds[2] * TW, *restrict f = M + ds[3] * TW,
                                   *restrict h = M + ds[4] * TW, *restrict j = M + ds[5] * TW;
#pragma GCC ivdep
            for (int w = 0; w < TW; w++)
                o[w] = MAX(MAX(MAX(k[w], a[w]), MAX(b[w], e[w])),
                           MAX(MAX(f[w], h[w]), j[w]));
            for (int64_t x = 6; x < c; x++) {
                const double *restrict y = M + ds[x] * TW;
#pragma GCC ivdep
                for (int w = 0; w < TW; w++)
                    o[w] = MAX(o[w], y[w]);
            }
        }
    }
}

/* The cost of a roll in each column of a tile (the cards gm[0..G-1]; roll_cost),
 * in out; NULL when no layer's rolls cost anything (a real game). */
static const double *TF(tile_costs)(const Tables *T, const int64_t *gm, int64_t G, double *out)
{
    if (!T->costly)
        return NULL;
    for (int64_t g = 0; g < TW; g++)
        out[g] = g < G ? roll_cost(T, gm[g]) : 0.0;
    return out;
}

/* Turn values of a tile. On entry the outcome rows of K hold the placement
 * values (E0). Level L averages the rows below the outcomes (K[s] = mean over
 * faces of K[s + face]); then M[s] = the best keep inside s. The outcome rows
 * of the levels after the first live in M (the best with L rolls left).
 * On return K[0] holds each column's value at the start of the turn.
 * With Ks, rows 0..nall-1 after each averaging are saved at Ks + L * nall * TW
 * (outcome rows: the best of holding them with L rolls left). A roll of column w
 * costs cost[w] (cost NULL: nothing; see tile_costs), taken off each keep's average. */
static void TF(levels_tile)(const Tables *T, double *K, double *M, int64_t rolls, double *Ks,
                            const double *cost)
{
    const int64_t fs = T->full_start, nall = T->nall, F = T->faces;
    const double inv = 1.0 / (double)F;
    const int64_t *up = T->up;
    for (int64_t level = 0; level < rolls; level++) {
        const double *full = level == 0 ? K : M; /* where the outcome rows are */
        if (level == rolls - 1 && Ks == NULL) {
            double acc[TW];
            const double *src = full + fs * TW;
            const double p0 = T->prob[0];
            for (int w = 0; w < TW; w++)
                acc[w] = p0 * src[w];
            for (int64_t d = 1; d < T->nfull; d++) {
                const double *restrict sd = full + (fs + d) * TW;
                const double p = T->prob[d];
                for (int w = 0; w < TW; w++)
                    acc[w] += p * sd[w];
            }
            for (int w = 0; w < TW; w++)
                K[w] = acc[w] - (cost != NULL ? cost[w] : 0.0);
            return;
        }
        for (int64_t s = fs - 1; s >= 0; s--) {
            double *restrict o = K + s * TW;
            const int64_t *us = up + s * F;
            const double *src = T->size[s] == T->n - 1 ? full : K;
            if (F == 6) {
                const double *restrict a0 = src + us[0] * TW, *restrict a1 = src + us[1] * TW,
                                       *restrict a2 = src + us[2] * TW,
                                       *restrict a3 = src + us[3] * TW,
                                       *restrict a4 = src + us[4] * TW,
                                       *restrict a5 = src + us[5] * TW;
                for (int w = 0; w < TW; w++)
                    o[w] = (((a0[w] + a1[w]) + (a2[w] + a3[w])) + (a4[w] + a5[w])) * inv;
            } else {
                double acc[TW];
                const double *restrict a0 = src + us[0] * TW;
                for (int w = 0; w < TW; w++)
                    acc[w] = a0[w];
                for (int64_t f = 1; f < F; f++) {
                    const double *restrict af = src + us[f] * TW;
                    for (int w = 0; w < TW; w++)
                        acc[w] += af[w];
                }
                for (int w = 0; w < TW; w++)
                    o[w] = acc[w] * inv;
            }
        }
        if (cost != NULL) /* (after the sweep, which reads the keeps of one more die) */
            for (int64_t s = 0; s < fs; s++) {
                double *restrict o = K + s * TW;
                for (int w = 0; w < TW; w++)
                    o[w] -= cost[w];
            }
        if (Ks != NULL) {
            double *dst = Ks + level * nall * TW;
            memcpy(dst, K, (size_t)(fs * TW) * sizeof(double));
            memcpy(dst + fs * TW, full + fs * TW, (size_t)((nall - fs) * TW) * sizeof(double));
        }
        if (level == rolls - 1)
            return;
        for (int64_t g = 0; g < T->ngroups; g++) {
            const int64_t *grp = T->mgroups + 3 * g;
            const int64_t first = T->mrows[grp[0]];
            const double *self = (T->size[first] == T->n) ? full : K;
            TF(max_group)(T, self, M, grp[0], grp[1], grp[2]);
        }
    }
}

/* With a repeat box filled, a yacht may score the repeat and leave the card as
 * it was: the state's value x is the fixed point of x = g(x), g being the turn's
 * value when a repeat is worth rep + x. g is convex and piecewise linear with
 * slope < 1, so secant steps from below (x0 = 0, x1 = g(0), ...) stay below the
 * fixed point and reach it in a few turns. On entry K holds the placement values
 * (outcome rows) and K[0] = g(0) from one evaluation; on return K[0] holds x. */
static void TF(repeat_fixed_point)(const Tables *T, Scratch *sc, int64_t G)
{
    double costs[TW]; /* a relaxed game's cost of a roll, per column */
    double rep[TW], x0[TW], g0[TW], x1[TW], base[MAXFACES * TW];
    int any = 0;
    for (int64_t g = 0; g < TW; g++) {
        rep[g] = g < G ? (double)repeat_points(T, sc->gm[g]) : 0.0;
        any |= rep[g] > 0;
    }
    if (!any)
        return;
    const int64_t fs = T->full_start;
    int64_t ny = 0;
    int64_t yrow[MAXFACES];
    for (int64_t d = 0; d < T->nfull && ny < MAXFACES; d++)
        if (T->is_yacht[d]) {
            yrow[ny] = fs + d;
            memcpy(base + ny * TW, sc->K + (fs + d) * TW, TW * sizeof(double));
            ny++;
        }
    for (int64_t g = 0; g < TW; g++) {
        x0[g] = 0.0;
        g0[g] = sc->K[g]; /* g(0): the repeat worth rep alone */
        x1[g] = g0[g];
    }
    for (int it = 0; it < 200; it++) {
        for (int64_t y = 0; y < ny; y++) {
            double *row = sc->K + yrow[y] * TW;
            const double *b = base + y * TW;
            for (int64_t g = 0; g < TW; g++) {
                const double v = rep[g] + x1[g];
                row[g] = rep[g] > 0 && v > b[g] ? v : b[g];
            }
        }
        TF(levels_tile)(T, sc->K, sc->M, T->rolls, NULL,
                          TF(tile_costs)(T, sc->gm, G, costs));
        double delta = 0.0;
        for (int64_t g = 0; g < G; g++) {
            if (rep[g] <= 0)
                continue;
            const double g1 = sc->K[g];
            double slope = x1[g] != x0[g] ? (g1 - g0[g]) / (x1[g] - x0[g]) : 0.0;
            if (!(slope >= 0.0 && slope < 0.999))
                slope = 0.0;
            const double nx = x1[g] + (g1 - x1[g]) / (1.0 - slope);
            delta = MAX(delta, fabs(nx - x1[g]));
            x0[g] = x1[g];
            g0[g] = g1;
            x1[g] = nx;
        }
        if (delta < 1e-11)
            break;
    }
    for (int64_t g = 0; g < G; g++)
        if (rep[g] > 0)
            sc->K[g] = x1[g];
}

/* The build: solve masks[lo:hi] (one layer) into Vp (padded layout, see
 * tables.padded_stride): for each mask, each flag and each upper total of its list
 * (ulist[uoff[usub[m]] ..]: the reachable totals, the lowest standing for all
 * those from which the bonus is out of reach), packed TW states at a time;
 * then the totals not solved filled in. */
static void TF(build_chunk)(const Tables *T, Scratch *sc, const int64_t *masks, int64_t lo,
                            int64_t hi, double *Vp, int64_t rowlen, int64_t S,
                            const int64_t *ulo, const int64_t *usub, const int64_t *uoff,
                            const int64_t *ulist, const int64_t *nflag)
{
    double costs[TW]; /* a relaxed game's cost of a roll, per column */
    int64_t used = 0, i = lo, flag = 0, j = -1;
    double *K = sc->K, *M = sc->M;
    for (;;) {
        const int done = i >= hi;
        if (!done) {
            const int64_t m = masks[i];
            const int64_t *us = ulist + uoff[usub[m]];
            const int64_t nu = uoff[usub[m] + 1] - uoff[usub[m]];
            if (j < 0) {
                j = 0;
                flag = 0;
            }
            sc->gm[used] = m;
            sc->gu[used] = us[j];
            sc->gf[used] = flag;
            used++;
            j++;
            if (j >= nu) {
                j = 0;
                flag++;
                if (flag >= nflag[m]) {
                    i++;
                    j = -1;
                }
            }
        }
        if (used == TW || (done && used > 0)) {
            TF(e0_tile)(T, used, sc->gm, sc->gu, sc->gf, K, Vp, rowlen, S, S - 1, sc->A, sc->Z);
            /* (a layer's masks fill as many boxes: its rolls are the tile's) */
            TF(levels_tile)(T, K, M, T->layer_rolls[__builtin_popcountll((uint64_t)sc->gm[0])],
                            NULL, TF(tile_costs)(T, sc->gm, used, costs));
            if (T->has_repeat)
                TF(repeat_fixed_point)(T, sc, used);
            for (int64_t g = 0; g < used; g++)
                Vp[sc->gm[g] * rowlen + sc->gf[g] * S + sc->gu[g]] = K[g];
            used = 0;
        }
        if (done)
            break;
    }
    for (int64_t k = lo; k < hi; k++) {
        const int64_t m = masks[k];
        for (int64_t fl = 0; fl < nflag[m]; fl++) {
            double *row = Vp + m * rowlen + fl * S;
            const double v = row[ulo[m]];
            for (int64_t uu = 0; uu < ulo[m]; uu++)
                row[uu] = v;
            if (S > 1) {
                const double vc = row[T->need];
                for (int64_t uu = T->need + 1; uu < S; uu++)
                    row[uu] = vc;
            }
        }
    }
}

/* Option values of the situations lo..hi-1 (see advise in _native.c). */
static void TF(advise_chunk)(const Tables *T, Scratch *sc, int64_t lo, int64_t hi,
                             const int64_t *sm, const int64_t *sa, const int64_t *sd,
                             const int64_t *sr, const double *V, double *keep_out,
                             int64_t keepw, double *box_out)
{
    double costs[TW]; /* a relaxed game's cost of a roll, per column */
    const int64_t nall = T->nall, U = T->U, A = (T->ybonus > 0 ? 2 : 1) * U;
    for (int64_t b0 = lo; b0 < hi; b0 += TW) {
        const int64_t G = MIN(TW, hi - b0);
        int64_t levels = 0;
        for (int64_t g = 0; g < G; g++) {
            sc->gm[g] = sm[b0 + g];
            sc->gu[g] = sa[b0 + g] % U;
            sc->gf[g] = sa[b0 + g] / U;
            if (sr[b0 + g] > levels)
                levels = sr[b0 + g];
        }
        if (levels > 0) { /* with no roll left only the boxes count */
            TF(e0_tile)(T, G, sc->gm, sc->gu, sc->gf, sc->K, V, A, U, U - 1, sc->A, sc->Z);
            TF(levels_tile)(T, sc->K, sc->M, MIN(T->rolls, levels), sc->Ks,
                            TF(tile_costs)(T, sc->gm, G, costs));
        }
        for (int64_t g = 0; g < G; g++) {
            const int64_t i = b0 + g, d = sd[i], r = sr[i];
            box_values(T, sc->gm[g], sc->gu[g], sc->gf[g], d, V, box_out + i * T->nbox);
            double *ko = keep_out + i * keepw;
            for (int64_t j = 0; j < keepw; j++)
                ko[j] = NAN;
            if (r > 0) {
                const double *lv = sc->Ks + (r - 1) * nall * TW + g;
                for (int64_t j = 0; j < T->nsubs[d]; j++)
                    ko[j] = lv[T->subs[d * T->subw + j] * TW];
            }
        }
    }
}

/* Play games g_lo..g_hi-1 by the table's policy, TW games in step (no repeat box:
 * all games of a batch are at the same turn). */
static void TF(play_chunk)(const Tables *T, Scratch *sc, const Play *P, int64_t g_lo,
                           int64_t g_hi)
{
    double costs[TW]; /* a relaxed game's cost of a roll, per column */
    const int64_t U = T->U, A = (T->ybonus > 0 ? 2 : 1) * U;
    const int64_t full = ((int64_t)1 << T->nbox) - 1;
    uint64_t rngs[TW];
    int64_t gt[TW], gy[TW];
    int64_t cnt[MAXFACES];
    for (int64_t b0 = g_lo; b0 < g_hi; b0 += TW) {
        const int64_t G = MIN(TW, g_hi - b0);
        for (int64_t g = 0; g < G; g++) {
            seed_stream(&rngs[g], P->seed, (uint64_t)(b0 + g));
            sc->gm[g] = P->m0;
            sc->gu[g] = P->u0;
            sc->gf[g] = P->f0;
            gt[g] = 0;
            gy[g] = 0;
            if (P->fbox >= 0 && ((P->m0 >> P->fbox) & 1) == 0) {
                int y;
                const int64_t pts = forced_turn_dice(T, P, &rngs[g], cnt, &y);
                gy[g] += y;
                gt[g] += pts * T->box_mult[P->fbox];
                sc->gm[g] |= (int64_t)1 << P->fbox;
            }
        }
        int first = P->d0 >= 0;
        while (sc->gm[0] != full) {
            TF(e0_tile)(T, G, sc->gm, sc->gu, sc->gf, sc->K, P->V, A, U, U - 1, sc->A, sc->Z);
            TF(levels_tile)(T, sc->K, sc->M, T->rolls, sc->Ks,
                            TF(tile_costs)(T, sc->gm, G, costs));
            for (int64_t g = 0; g < G; g++) {
                const int64_t d = play_turn_dice(T, sc->Ks, TW, g, first ? P->d0 : -1,
                                                 first ? P->r0 : T->rolls - 1, &rngs[g], cnt);
                if (T->is_yacht[d])
                    gy[g]++;
                int64_t nu, nf;
                int64_t gain;
                const int64_t bb = best_place(T, sc->gm[g], sc->gu[g], sc->gf[g], d, P->V,
                                              &gain, &nu, &nf);
                gt[g] += gain;
                sc->gm[g] |= (int64_t)1 << bb;
                sc->gu[g] = nu;
                sc->gf[g] = nf;
            }
            first = 0;
        }
        for (int64_t g = 0; g < G; g++) {
            P->totals[b0 - g_lo + g] = gt[g];
            P->bonus[b0 - g_lo + g] = U > 1 && sc->gu[g] >= T->need;
            P->yachts[b0 - g_lo + g] = gy[g];
        }
    }
}

/* The skip relaxation (see approx.py): V[m, t] for masks[lo:hi], TW masks at a time. */
static void TF(skip_chunk)(const Tables *T, Scratch *sc, const int64_t *masks, int64_t lo,
                           int64_t hi, double *V, int64_t rowlen)
{
    double costs[TW]; /* a relaxed game's cost of a roll, per column */
    const int64_t Tn = rowlen - 1, fs = T->full_start, nall = T->nall;
    (void)nall;
    for (int64_t b0 = lo; b0 < hi; b0 += TW) {
        const int64_t G = MIN(TW, hi - b0);
        for (int64_t g = 0; g < G; g++) {
            sc->gm[g] = masks[b0 + g];
            sc->gf[g] = 0;
        }
        for (int64_t t = 1; t <= Tn; t++) {
            for (int64_t g = 0; g < G; g++)
                sc->gu[g] = t - 1;
            TF(e0_tile)(T, G, sc->gm, sc->gu, sc->gf, sc->K, V, rowlen, 1, rowlen, sc->A,
                        sc->Z);
            for (int64_t g = 0; g < G; g++) {
                const double skip = V[sc->gm[g] * rowlen + t - 1];
                for (int64_t d = fs; d < nall; d++)
                    if (skip > sc->K[d * TW + g])
                        sc->K[d * TW + g] = skip;
            }
            TF(levels_tile)(T, sc->K, sc->M, T->rolls, NULL,
                            TF(tile_costs)(T, sc->gm, G, costs));
            for (int64_t g = 0; g < G; g++)
                V[sc->gm[g] * rowlen + t] = sc->K[g];
        }
    }
}
