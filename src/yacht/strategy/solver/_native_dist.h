/* Score distributions (dist.py): one layer's states, the points still to come.
 *
 * Included by _native.c (it uses best_place, keep_levels and best_keep). A
 * state's turn under the expert's play: the expert's box for every outcome
 * (best_place: the joker rules, a repeat), the keep values (keep_levels), the
 * chance of every final outcome by a forward pass over the keeps the expert
 * plays (the self-play's choices: stop when scoring now is worth as much as the
 * best keep, else the first best keep), and the distribution of the points to
 * come: the next states' distributions shifted by the points scored, weighted
 * by the chance of each (next state, points) pair. A repeat box (the same card,
 * more points) makes the distribution a fixed point D = A + p D(. - rep),
 * solved from the low totals up. Both tails holding at most eps are cut.
 *
 * The layer below is read from (off, dlo, dlen, P): the distribution of state
 * j starts at P[off[j]] and gives the chances of dlo[j], dlo[j] + 1, ... points
 * (dlen[j] of them), in float32. Every read is checked against P's length. */

typedef struct {
    const double *V;
    const int64_t *sm, *sa; /* this layer's states (mask, aux) */
    const int64_t *ulo;     /* per mask: upper totals up to it share a state */
    const int64_t *off, *dlo, *dlen; /* the layer below, per state j */
    const float *P;
    int64_t nP, nstates, A, W;
    double eps;
} DistLayer;

typedef struct {
    double *D, *E0, *Ks, *F, *M, *N, *gw;
    int64_t *gj, *gg;
} DistScratch;

static void dist_scratch_free(DistScratch *s)
{
    free(s->D);
    free(s->E0);
    free(s->Ks);
    free(s->F);
    free(s->M);
    free(s->N);
    free(s->gw);
    free(s->gj);
    free(s->gg);
}

static int dist_scratch_init(DistScratch *s, const Tables *T, int64_t W)
{
    const size_t nf = (size_t)T->nfull, na = (size_t)T->nall;
    s->D = calloc((size_t)W, sizeof(double));
    s->E0 = malloc(nf * sizeof(double));
    s->Ks = malloc((size_t)T->rolls * na * sizeof(double));
    s->F = malloc(nf * sizeof(double));
    s->M = malloc(na * sizeof(double));
    s->N = malloc(na * sizeof(double));
    s->gw = malloc(nf * sizeof(double));
    s->gj = malloc(2 * nf * sizeof(int64_t));
    s->gg = malloc(2 * nf * sizeof(int64_t));
    if (!s->D || !s->E0 || !s->Ks || !s->F || !s->M || !s->N || !s->gw || !s->gj || !s->gg) {
        dist_scratch_free(s);
        return -1;
    }
    return 0;
}

/* Roll the missing dice of every kept multiset: the mass of a multiset smaller
 * than n moves to its outcomes (multisets come ordered by size). */
static inline void dist_spread(const Tables *T, double *M)
{
    const int64_t F = T->faces;
    const double inv = 1.0 / (double)F;
    for (int64_t s = 0; s < T->full_start; s++) {
        double w = M[s];
        if (w != 0.0) {
            w *= inv;
            for (int64_t f = 0; f < F; f++)
                M[T->up[s * F + f]] += w;
            M[s] = 0.0;
        }
    }
}

/* F[d]: the chance that the turn ends on outcome d when the expert plays the
 * keeps of Ks (keep_levels) against the placement values E0; M, N scratch. */
static void final_outcomes(const Tables *T, const double *E0, const double *Ks, double *F,
                           double *M, double *N)
{
    const int64_t fs = T->full_start, nall = T->nall, nfull = T->nfull;
    memset(M, 0, (size_t)nall * sizeof(double));
    memset(F, 0, (size_t)nfull * sizeof(double));
    M[0] = 1.0;
    dist_spread(T, M);
    for (int64_t left = T->rolls - 1; left > 0; left--) {
        memset(N, 0, (size_t)nall * sizeof(double));
        for (int64_t d = 0; d < nfull; d++) {
            const double w = M[fs + d];
            if (w == 0.0)
                continue;
            double best;
            const int64_t bk = best_keep(T, Ks, (left - 1) * nall, 1, d, &best);
            if (E0[d] >= best)
                F[d] += w;
            else
                N[bk] += w;
        }
        memcpy(M, N, (size_t)nall * sizeof(double));
        dist_spread(T, M);
    }
    for (int64_t d = 0; d < nfull; d++)
        F[d] += M[fs + d];
}

/* The expert's placement of every outcome from state (m, aux): E0[d] its value,
 * gj[d] the next state (-2: the full card, -1: a repeat), gg[d] the points. */
static void dist_place(const Tables *T, const DistLayer *L, int64_t m, int64_t aux, double *E0,
                       int64_t *gj, int64_t *gg)
{
    const int64_t U = T->U, A = L->A, u = aux % U, flag = aux / U;
    const int64_t full = ((int64_t)1 << T->nbox) - 1;
    for (int64_t d = 0; d < T->nfull; d++) {
        int64_t gain, nu, nfl;
        const int64_t b = best_place(T, m, u, flag, d, L->V, &gain, &nu, &nfl);
        if (b >= 0) {
            const int64_t m2 = m | ((int64_t)1 << b);
            E0[d] = (double)gain + L->V[m2 * A + nfl * U + nu];
            if (m2 == full) {
                gj[d] = -2;
                /* the full card's own value is points too: a bonus by steps paid at
                 * the end (Kismet's; 0 in the other variants) */
                gain += (int64_t)llround(L->V[m2 * A + nfl * U + nu]);
            } else {
                const int64_t uc = nu < L->ulo[m2] ? L->ulo[m2] : nu;
                gj[d] = m2 * A + nfl * U + uc;
            }
        } else { /* a repeat: the same card */
            E0[d] = (double)gain + L->V[m * A + aux];
            gj[d] = -1;
        }
        gg[d] = gain;
    }
}

/* The distribution of the points to come from state (m, aux) into S->D (zeros
 * on entry, dense from 0, W long); its trimmed range is [*lo, *hi). Returns -1
 * when the layer below has no distribution (or a bad one) for a next state. */
static int dist_state(const Tables *T, const DistLayer *L, int64_t m, int64_t aux,
                      DistScratch *S, int64_t *lo_out, int64_t *hi_out)
{
    const int64_t nfull = T->nfull, W = L->W;
    double *D = S->D;
    int64_t *gj = S->gj, *gg = S->gg;
    dist_place(T, L, m, aux, S->E0, gj, gg);
    keep_levels(T, S->E0, S->Ks, T->rolls, roll_cost(T, m));
    final_outcomes(T, S->E0, S->Ks, S->F, S->M, S->N);
    /* the (next state, points) pairs, each with its chance (outcomes grouped);
     * the pairs are kept at gj[nfull + k], gg[nfull + k] */
    int64_t ng = 0;
    for (int64_t d = 0; d < nfull; d++) {
        const double w = S->F[d];
        if (w == 0.0)
            continue;
        int64_t k = 0;
        while (k < ng && !(gj[nfull + k] == gj[d] && gg[nfull + k] == gg[d]))
            k++;
        if (k == ng) {
            gj[nfull + k] = gj[d];
            gg[nfull + k] = gg[d];
            S->gw[k] = 0.0;
            ng++;
        }
        S->gw[k] += w;
    }
    int64_t lo = W, hi = 0, rep = 0;
    double prep = 0.0;
    for (int64_t k = 0; k < ng; k++) {
        const int64_t j = gj[nfull + k], g = gg[nfull + k];
        const double w = S->gw[k];
        if (j == -1) {
            prep += w;
            rep = g;
            continue;
        }
        if (j == -2) {
            if (g >= 0 && g < W) {
                D[g] += w;
                lo = MIN(lo, g);
                hi = MAX(hi, g + 1);
            }
            continue;
        }
        const int64_t o = L->off[j], s0 = g + L->dlo[j];
        int64_t n = L->dlen[j];
        if (o < 0 || n < 0 || o + n > L->nP || s0 < 0)
            return -1;
        if (s0 + n > W)
            n = W - s0;
        const float *P = L->P + o;
        for (int64_t i = 0; i < n; i++)
            D[s0 + i] += w * (double)P[i];
        if (n > 0) {
            lo = MIN(lo, s0);
            hi = MAX(hi, s0 + n);
        }
    }
    if (prep > 0.0 && rep > 0) {
        for (int64_t x = lo + rep; x < W; x++)
            D[x] += prep * D[x - rep];
        hi = W;
    }
    /* trim the tails holding at most eps each */
    double acc = 0.0;
    while (lo < hi - 1 && acc + D[lo] <= L->eps) {
        acc += D[lo];
        D[lo] = 0.0;
        lo++;
    }
    acc = 0.0;
    while (hi - 1 > lo && acc + D[hi - 1] <= L->eps) {
        acc += D[hi - 1];
        D[hi - 1] = 0.0;
        hi--;
    }
    *lo_out = lo;
    *hi_out = hi;
    return 0;
}

/* The states i0 .. i1 - 1 of the layer into buf (cap floats) one after the other
 * (out_pos[i], out_lo[i], out_len[i]); *next: the first state left undone (i1
 * when all are done, fewer when buf is full). -1 on a bad read of the layer
 * below, -2 when out of memory. */
static int dist_chunk(const Tables *T, const DistLayer *L, int64_t i0, int64_t i1, float *buf,
                      int64_t cap, int64_t *out_lo, int64_t *out_len, int64_t *out_pos,
                      int64_t *next)
{
    DistScratch S;
    if (dist_scratch_init(&S, T, L->W) < 0)
        return -2;
    int64_t pos = 0, i = i0;
    int rc = 0;
    for (; i < i1; i++) {
        if (pos + L->W > cap)
            break;
        int64_t lo = 0, hi = 0;
        if (dist_state(T, L, L->sm[i], L->sa[i], &S, &lo, &hi) < 0) {
            rc = -1;
            break;
        }
        const int64_t n = hi - lo;
        for (int64_t x = 0; x < n; x++) {
            buf[pos + x] = (float)S.D[lo + x];
            S.D[lo + x] = 0.0;
        }
        out_lo[i] = lo;
        out_len[i] = n;
        out_pos[i] = pos;
        pos += n;
    }
    *next = i;
    dist_scratch_free(&S);
    return rc;
}

static PyObject *py_dist_chunk(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"tables", "V", "states", "auxs", "start", "stop", "ulo", "off",
                             "dlo", "dlen", "P", "eps", "width", "buf", "out_lo", "out_len",
                             "out_pos", NULL};
    PyObject *to, *Vo, *smo, *sao, *uloo, *offo, *dloo, *dleno, *Po, *bufo, *olo, *olen, *opos;
    long long i0, i1, W;
    double eps;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "$OOOOLLOOOOOdLOOOO", kwlist, &to, &Vo, &smo,
                                     &sao, &i0, &i1, &uloo, &offo, &dloo, &dleno, &Po, &eps, &W,
                                     &bufo, &olo, &olen, &opos))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox, A = astride(T), n = nmask * A;
    Buf b[12];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (buf_get(Vo, &b[0], "V", 'd', n, 0) < 0 || buf_get(smo, &b[1], "states", 'i', -1, 0) < 0
        || buf_get(sao, &b[2], "auxs", 'i', NELEM(b[1]), 0) < 0
        || buf_get(uloo, &b[3], "ulo", 'i', nmask, 0) < 0
        || buf_get(offo, &b[4], "off", 'i', n, 0) < 0
        || buf_get(dloo, &b[5], "dlo", 'i', n, 0) < 0
        || buf_get(dleno, &b[6], "dlen", 'i', n, 0) < 0
        || buf_get(Po, &b[7], "P", 'f', -1, 0) < 0 || buf_get(bufo, &b[8], "buf", 'f', -1, 1) < 0
        || buf_get(olo, &b[9], "out_lo", 'i', NELEM(b[1]), 1) < 0
        || buf_get(olen, &b[10], "out_len", 'i', NELEM(b[1]), 1) < 0
        || buf_get(opos, &b[11], "out_pos", 'i', NELEM(b[1]), 1) < 0)
        goto done;
    const int64_t count = NELEM(b[1]);
    const int64_t *sm = b[1].b.buf, *sa = b[2].b.buf;
    if (i0 < 0 || i1 < i0 || i1 > count || W < 1 || !(eps >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "dist_chunk: arguments out of range");
        goto done;
    }
    for (int64_t i = i0; i < i1; i++)
        if (sm[i] < 0 || sm[i] >= nmask - 1 || sa[i] < 0 || sa[i] >= A) {
            PyErr_SetString(PyExc_ValueError, "dist_chunk: a state out of range");
            goto done;
        }
    DistLayer L = {b[0].b.buf, sm, sa, b[3].b.buf, b[4].b.buf, b[5].b.buf, b[6].b.buf,
                   b[7].b.buf, NELEM(b[7]), count, A, W, eps};
    int64_t next = i0;
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = dist_chunk(T, &L, i0, i1, b[8].b.buf, NELEM(b[8]), b[9].b.buf,
                                           b[10].b.buf, b[11].b.buf, &next);
    Py_END_ALLOW_THREADS if (rc == -2)
    {
        PyErr_NoMemory();
        goto done;
    }
    if (rc == -1) {
        PyErr_SetString(PyExc_ValueError,
                        "dist_chunk: a next state has no distribution in the layer below");
        goto done;
    }
    ret = PyLong_FromLongLong(next);
done:
    buf_release(b, 12);
    return ret;
}

/* The finished layer's distributions kept as cumulative chances (dist.py's _quantize): the
   segments P[pos[i]:pos[i] + len[i]], in increasing order of pos and laid out one after
   the other, summed in double from the start of P in order (as numpy's cumsum), each
   less the sum before it, clipped to [0, 1], times steps, rounded half to even; the
   values strictly between 0 and steps are kept, the zeros before them counted. */
static int64_t dist_quantize(const float *P, int64_t nP, const int64_t *pos, const int64_t *lo,
                             const int64_t *len, int64_t n, uint16_t *C, int64_t *coff,
                             int64_t *first, int64_t *kept, double steps)
{
    double s = 0.0;
    int64_t k = 0, w = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t st = pos[i], e = st + len[i];
        if (len[i] == 0) { /* (no chances: where it is does not matter) */
            coff[i] = w;
            first[i] = lo[i];
            kept[i] = 0;
            continue;
        }
        while (k < st)
            s += (double)P[k++];
        const double base = s;
        int64_t zeros = 0, kn = 0;
        coff[i] = w;
        for (; k < e && k < nP; k++) {
            s += (double)P[k];
            double c = s - base;
            c = c < 0.0 ? 0.0 : (c > 1.0 ? 1.0 : c);
            const double q = rint(c * steps);
            if (q == 0.0)
                zeros++;
            else if (q < steps) {
                C[w++] = (uint16_t)q;
                kn++;
            }
        }
        first[i] = lo[i] + zeros;
        kept[i] = kn;
    }
    return w;
}

static PyObject *py_dist_quantize(PyObject *mod, PyObject *args)
{
    PyObject *Po, *poso, *loo, *leno, *Co, *coffo, *firsto, *keptoo;
    double steps;
    if (!PyArg_ParseTuple(args, "OOOOOOOOd", &Po, &poso, &loo, &leno, &Co, &coffo, &firsto,
                          &keptoo, &steps))
        return NULL;
    Buf b[8];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (buf_get(Po, &b[0], "P", 'f', -1, 0) < 0 || buf_get(poso, &b[1], "pos", 'i', -1, 0) < 0
        || buf_get(loo, &b[2], "lo", 'i', NELEM(b[1]), 0) < 0
        || buf_get(leno, &b[3], "length", 'i', NELEM(b[1]), 0) < 0
        || buf_get(Co, &b[4], "C", 'h', NELEM(b[0]), 1) < 0
        || buf_get(coffo, &b[5], "coff", 'i', NELEM(b[1]), 1) < 0
        || buf_get(firsto, &b[6], "first", 'i', NELEM(b[1]), 1) < 0
        || buf_get(keptoo, &b[7], "kept", 'i', NELEM(b[1]), 1) < 0)
        goto done;
    const int64_t n = NELEM(b[1]), nP = NELEM(b[0]);
    const int64_t *pos = b[1].b.buf, *len = b[3].b.buf;
    int64_t end = 0;
    for (int64_t i = 0; i < n; i++) {
        if (len[i] == 0)
            continue;
        if (pos[i] < end || len[i] < 0 || pos[i] + len[i] > nP) {
            PyErr_SetString(PyExc_ValueError,
                            "dist_quantize: the segments out of order or out of P");
            goto done;
        }
        end = pos[i] + len[i];
    }
    if (!(steps >= 1.0 && steps <= 65535.0)) {
        PyErr_SetString(PyExc_ValueError, "dist_quantize: steps out of range");
        goto done;
    }
    int64_t w;
    Py_BEGIN_ALLOW_THREADS w = dist_quantize(b[0].b.buf, nP, pos, b[2].b.buf, len, n,
                                             b[4].b.buf, b[5].b.buf, b[6].b.buf, b[7].b.buf,
                                             steps);
    Py_END_ALLOW_THREADS ret = PyLong_FromLongLong(w);
done:
    buf_release(b, 8);
    return ret;
}
