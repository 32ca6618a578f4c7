/* yacht.strategy.solver._native: the solver's kernels in C, compiled at install.
 *
 * The solver's one implementation of its kernels (reference.py writes the same
 * recurrences plainly, for the tests). Python calls these through
 * backend.py only. Tables come in as one KernelTables named tuple (tables.py):
 * every field is looked up by name and checked (type, size), so nothing can
 * be passed in the wrong place. Value tables V are float64, C-contiguous:
 * V[mask * rowlen + flag * stride + upper total].
 *
 * Threads: the layer, batch and self-play entry points release the GIL and
 * split their work over `threads` POSIX threads (chunks taken from a shared
 * counter); the results do not depend on the number of threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NEG (-1.0e30)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAXFACES 64

/* One vector of doubles, for the loops that keep partial results in registers
 * (the tile widths are multiples of VL). */
#if defined(__AVX512F__)
#include <immintrin.h>
typedef __m512d vec;
#define VL 8
#define VLOAD _mm512_loadu_pd
#define VSTORE _mm512_storeu_pd
#define VMAX _mm512_max_pd
#define VADD _mm512_add_pd
#define VSET1 _mm512_set1_pd
#elif defined(__AVX__)
#include <immintrin.h>
typedef __m256d vec;
#define VL 4
#define VLOAD _mm256_loadu_pd
#define VSTORE _mm256_storeu_pd
#define VMAX _mm256_max_pd
#define VADD _mm256_add_pd
#define VSET1 _mm256_set1_pd
#elif defined(__SSE2__)
#include <emmintrin.h>
typedef __m128d vec;
#define VL 2
#define VLOAD _mm_loadu_pd
#define VSTORE _mm_storeu_pd
#define VMAX _mm_max_pd
#define VADD _mm_add_pd
#define VSET1 _mm_set1_pd
#else
typedef double vec;
#define VL 1
#define VLOAD(p) (*(p))
#define VSTORE(p, v) (*(p) = (v))
#define VMAX(a, b) ((a) > (b) ? (a) : (b))
#define VADD(a, b) ((a) + (b))
#define VSET1(x) (x)
#endif

/* ------------------------------------------------------------------------- */
/* Tables                                                                     */

typedef struct {
    int64_t U, need, bonus_amt, nbox, ybox, jmode, ybonus, rolls;
    int64_t n, faces, full_start, nall, nfull, nrows, pw, rowofw, subw, npairs, ngroups;
    const int64_t *score, *box_mult, *joker_pts, *upper_of_face, *rep_pts;
    const int64_t *row_box, *row_pts, *row_flag, *zrow, *prow, *npd, *row_of;
    const int64_t *yface, *up, *down, *dc, *mrows, *mgroups, *pairs, *code_index, *counts;
    const int64_t *size, *subs, *nsubs;
    const uint8_t *box_upper, *is_yacht, *row_upper;
    const double *padd, *prob;
    int64_t ncode;
    int has_repeat; /* a repeat box: the build solves fixed points */
    /* a relaxed game (the Lagrangian bound of saved rolls, see pool.py): the points every
     * roll of a turn costs and the rolls of that turn, both by the boxes already filled
     * (0 and `rolls` in a real game; the build reads the rolls, every kernel the costs) */
    const double *layer_cost;
    const int64_t *layer_rolls;
    int costly; /* some layer's rolls cost points */
} Tables;

#define NBUF 40

typedef struct {
    PyObject_HEAD Tables t;
    Py_buffer bufs[NBUF];
    int nbufs;
} TablesObject;

static void tables_dealloc(TablesObject *self)
{
    for (int i = 0; i < self->nbufs; i++)
        PyBuffer_Release(&self->bufs[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int get_int(PyObject *nt, const char *name, int64_t *out)
{
    PyObject *v = PyObject_GetAttrString(nt, name);
    if (v == NULL)
        return -1;
    long long x = PyLong_AsLongLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *out = (int64_t)x;
    return 0;
}

/* kind: 'i' int64, 'd' float64, 'f' float32, 'u' uint64, 'b' bool; count: the number of
 * elements wanted */
static int check_buffer(Py_buffer *b, const char *name, char kind, Py_ssize_t count,
                        int writable)
{
    const char *fmt = b->format ? b->format : "B";
    if (*fmt == '<' || *fmt == '=' || *fmt == '@')
        fmt++;
    int ok;
    if (kind == 'i')
        ok = b->itemsize == 8 && (*fmt == 'q' || *fmt == 'l');
    else if (kind == 'd')
        ok = b->itemsize == 8 && *fmt == 'd';
    else if (kind == 'u')
        ok = b->itemsize == 8 && (*fmt == 'Q' || *fmt == 'L');
    else if (kind == 'f')
        ok = b->itemsize == 4 && *fmt == 'f';
    else if (kind == 'h')
        ok = b->itemsize == 2 && *fmt == 'H';
    else
        ok = b->itemsize == 1 && (*fmt == '?' || *fmt == 'B' || *fmt == 'b');
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: wrong array type (format %s, itemsize %zd)", name,
                     b->format ? b->format : "?", b->itemsize);
        return -1;
    }
    if (count >= 0 && b->len / b->itemsize != count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd elements, %zd expected", name,
                     b->len / b->itemsize, count);
        return -1;
    }
    if (writable && b->readonly) {
        PyErr_Format(PyExc_ValueError, "%s: the array is read-only", name);
        return -1;
    }
    return 0;
}

static const void *tables_array(TablesObject *self, PyObject *nt, const char *name, char kind,
                                Py_ssize_t count)
{
    if (self->nbufs >= NBUF) {
        PyErr_SetString(PyExc_RuntimeError, "too many table arrays");
        return NULL;
    }
    PyObject *v = PyObject_GetAttrString(nt, name);
    if (v == NULL)
        return NULL;
    Py_buffer *b = &self->bufs[self->nbufs];
    int rc = PyObject_GetBuffer(v, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT);
    Py_DECREF(v);
    if (rc < 0)
        return NULL;
    self->nbufs++;
    if (check_buffer(b, name, kind, count, 0) < 0)
        return NULL;
    return b->buf;
}

static int shape2(PyObject *nt, const char *name, int64_t *rows, int64_t *cols)
{
    PyObject *v = PyObject_GetAttrString(nt, name);
    if (v == NULL)
        return -1;
    Py_buffer b;
    int rc = PyObject_GetBuffer(v, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND);
    Py_DECREF(v);
    if (rc < 0)
        return -1;
    if (b.ndim != 2) {
        PyBuffer_Release(&b);
        PyErr_Format(PyExc_ValueError, "%s: a 2-d array is expected", name);
        return -1;
    }
    *rows = b.shape[0];
    *cols = b.shape[1];
    PyBuffer_Release(&b);
    return 0;
}

static PyObject *tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *nt;
    static char *kwlist[] = {"tables", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &nt))
        return NULL;
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Tables *t = &self->t;
    int64_t r, c;
#define INT(f)                                                                                 \
    if (get_int(nt, #f, &t->f) < 0)                                                            \
        goto fail;
    INT(U) INT(need) INT(bonus_amt) INT(nbox) INT(ybox) INT(jmode) INT(ybonus) INT(rolls)
    INT(n) INT(faces) INT(full_start)
#undef INT
    if (t->faces < 1 || t->faces > MAXFACES || t->nbox < 1 || t->nbox > 30 || t->rolls < 1
        || t->n < 1 || t->U < 1) {
        PyErr_SetString(PyExc_ValueError, "tables out of range");
        goto fail;
    }
    if (shape2(nt, "score", &r, &c) < 0)
        goto fail;
    t->nfull = c;
    if (r != t->nbox) {
        PyErr_SetString(PyExc_ValueError, "score: one row per box expected");
        goto fail;
    }
    if (shape2(nt, "up", &r, &c) < 0)
        goto fail;
    t->nall = r;
    if (c != t->faces || t->full_start + t->nfull != t->nall) {
        PyErr_SetString(PyExc_ValueError, "up: (nall, faces) expected");
        goto fail;
    }
    if (shape2(nt, "prow", &r, &c) < 0)
        goto fail;
    t->pw = c;
    if (shape2(nt, "row_of", &r, &c) < 0)
        goto fail;
    t->rowofw = c;
    if (shape2(nt, "subs", &r, &c) < 0)
        goto fail;
    t->subw = c;
    if (shape2(nt, "pairs", &r, &c) < 0)
        goto fail;
    t->npairs = r;
    if (shape2(nt, "mgroups", &r, &c) < 0)
        goto fail;
    t->ngroups = r;
    {
        PyObject *v = PyObject_GetAttrString(nt, "row_box");
        if (v == NULL)
            goto fail;
        Py_ssize_t len = PyObject_Length(v);
        Py_DECREF(v);
        if (len < 0)
            goto fail;
        t->nrows = len;
        v = PyObject_GetAttrString(nt, "code_index");
        if (v == NULL)
            goto fail;
        len = PyObject_Length(v);
        Py_DECREF(v);
        if (len < 0)
            goto fail;
        t->ncode = len;
    }
    const int64_t nb = t->nbox, nf = t->nfull, na = t->nall, F = t->faces, nr = t->nrows;
#define ARR(f, kind, count)                                                                    \
    if ((*(const void **)&t->f = tables_array(self, nt, #f, kind, count)) == NULL)             \
        goto fail;
    ARR(score, 'i', nb * nf) ARR(box_upper, 'b', nb) ARR(box_mult, 'i', nb)
    ARR(joker_pts, 'i', nb) ARR(upper_of_face, 'i', F) ARR(rep_pts, 'i', nb)
    ARR(row_box, 'i', nr) ARR(row_pts, 'i', nr) ARR(row_flag, 'i', nr) ARR(row_upper, 'b', nr)
    ARR(zrow, 'i', nb) ARR(prow, 'i', nf * t->pw) ARR(padd, 'd', nf * t->pw) ARR(npd, 'i', nf)
    ARR(row_of, 'i', nb * t->rowofw) ARR(is_yacht, 'b', nf) ARR(yface, 'i', nf)
    ARR(up, 'i', na * F) ARR(down, 'i', na * F) ARR(dc, 'i', na * F) ARR(mrows, 'i', na)
    ARR(mgroups, 'i', t->ngroups * 3) ARR(prob, 'd', nf) ARR(pairs, 'i', t->npairs * 2)
    ARR(code_index, 'i', t->ncode) ARR(counts, 'i', na * F) ARR(size, 'i', na)
    ARR(subs, 'i', nf * t->subw) ARR(nsubs, 'i', nf) ARR(layer_rolls, 'i', nb)
    ARR(layer_cost, 'd', nb)
#undef ARR
    t->has_repeat = 0;
    for (int64_t b = 0; b < t->nbox; b++)
        if (t->rep_pts[b] > 0)
            t->has_repeat = 1;
    t->costly = 0;
    int relaxed = 0, bad_cost = 0;
    for (int64_t b = 0; b < t->nbox; b++) {
        if (t->layer_rolls[b] < 1 || t->layer_rolls[b] > 4096) {
            PyErr_SetString(PyExc_ValueError, "layer_rolls: 1 to 4096 rolls a turn expected");
            goto fail;
        }
        const double c = t->layer_cost[b];
        bad_cost |= !(c >= 0.0 && c < 1e9);
        t->costly |= c != 0.0;
        relaxed |= t->layer_rolls[b] != t->rolls || c != 0.0;
    }
    if (relaxed && (t->has_repeat || bad_cost)) {
        PyErr_SetString(PyExc_ValueError,
                        "a roll cost or rolls by layer: no repeat box, costs from 0 expected");
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "yacht.strategy.solver._native.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_dealloc = (destructor)tables_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A KernelTables record, checked and held for the kernels.",
    .tp_new = tables_new,
};

/* ------------------------------------------------------------------------- */
/* The placement rules (once for every kernel)                                */

/* Where outcome d may go under the joker rules: restrict (-1 or the only box
 * allowed), lower_only (only lower boxes) and jok (joker points). Only a yacht
 * rolled once the Yahtzee box is filled is special. Forced joker: the upper
 * box of its face if open, else any lower box at joker points (when no lower
 * box is open: any box, at normal points). Free joker: any box, at joker
 * points when the upper box of its face is filled. */
static inline void joker_rules(const Tables *T, int64_t m, int64_t d, int64_t *restrict_,
                               int *lower_only, int *jok)
{
    *restrict_ = -1;
    *lower_only = 0;
    *jok = 0;
    if (T->ybox < 0 || !T->is_yacht[d] || ((m >> T->ybox) & 1) == 0)
        return;
    const int64_t ub = T->upper_of_face[T->yface[d]];
    const int upper_open = ub >= 0 && ((m >> ub) & 1) == 0;
    if (T->jmode == 1) {
        if (upper_open) {
            *restrict_ = ub;
        } else {
            int any_lower = 0;
            for (int64_t b = 0; b < T->nbox; b++)
                if (((m >> b) & 1) == 0 && !T->box_upper[b])
                    any_lower = 1;
            if (any_lower) {
                *lower_only = 1;
                *jok = 1;
            }
        }
    } else if (T->jmode == 2) {
        if (!upper_open)
            *jok = 1;
    }
}

static inline int box_allowed(const Tables *T, int64_t b, int64_t restrict_, int lower_only)
{
    return !((restrict_ >= 0 && b != restrict_) || (lower_only && T->box_upper[b]));
}

static inline int64_t box_points(const Tables *T, int64_t b, int64_t d, int jok)
{
    if (jok && T->joker_pts[b] >= 0)
        return T->joker_pts[b];
    return T->score[b * T->nfull + d];
}

/* Outcome d scored in open box b from (u, flag): the points now (bonuses
 * included), the new upper total and flag. 0 if the rules forbid it. */
static inline int place_box(const Tables *T, int64_t u, int64_t flag, int64_t d, int64_t b,
                            int64_t restrict_, int lower_only, int jok, int64_t extra,
                            int64_t *gain, int64_t *nu, int64_t *nflag)
{
    if (!box_allowed(T, b, restrict_, lower_only))
        return 0;
    const int64_t pts = box_points(T, b, d, jok), mult = T->box_mult[b];
    int64_t g = pts * mult + extra;
    *nflag = flag;
    if (b == T->ybox && T->ybonus > 0)
        *nflag = pts > 0 ? 1 : 0;
    *nu = u;
    if (T->U > 1 && T->box_upper[b]) {
        *nu = u + pts;
        if (u < T->need && *nu >= T->need)
            g += T->bonus_amt * mult;
        if (*nu > T->U - 1)
            *nu = T->U - 1;
    }
    *gain = g;
    return 1;
}

static inline int64_t yacht_extra(const Tables *T, int64_t m, int64_t flag, int64_t d)
{
    if (T->ybox >= 0 && T->is_yacht[d] && ((m >> T->ybox) & 1) && flag == 1)
        return T->ybonus;
    return 0;
}

static inline int64_t astride(const Tables *T) { return (T->ybonus > 0 ? 2 : 1) * T->U; }

/* out[b]: points now + value after, for scoring outcome d in box b; NaN where
 * the rules do not allow it (no repeat box). */
static void box_values(const Tables *T, int64_t m, int64_t u, int64_t flag, int64_t d,
                       const double *V, double *out)
{
    const int64_t A = astride(T), U = T->U;
    int64_t restrict_;
    int lower_only, jok;
    joker_rules(T, m, d, &restrict_, &lower_only, &jok);
    const int64_t extra = yacht_extra(T, m, flag, d);
    for (int64_t b = 0; b < T->nbox; b++) {
        out[b] = NAN;
        if ((m >> b) & 1)
            continue;
        int64_t gain, nu, nf;
        if (place_box(T, u, flag, d, b, restrict_, lower_only, jok, extra, &gain, &nu, &nf))
            out[b] = (double)gain + V[(m | ((int64_t)1 << b)) * A + nf * U + nu];
    }
}

static inline int64_t repeat_points(const Tables *T, int64_t m)
{
    int64_t rep = 0;
    for (int64_t b = 0; b < T->nbox; b++)
        if (((m >> b) & 1) && T->rep_pts[b] > rep)
            rep = T->rep_pts[b];
    return rep;
}

/* The best placement of outcome d in (m, u, flag): the box (-1: a repeat),
 * with the points gained and the new upper total and flag. */
static int64_t best_place(const Tables *T, int64_t m, int64_t u, int64_t flag, int64_t d,
                          const double *V, int64_t *gain, int64_t *nu, int64_t *nflag)
{
    const int64_t A = astride(T), U = T->U;
    int64_t restrict_;
    int lower_only, jok;
    joker_rules(T, m, d, &restrict_, &lower_only, &jok);
    const int64_t extra = yacht_extra(T, m, flag, d);
    double best = NEG;
    int64_t bbox = -2;
    *gain = 0;
    *nu = u;
    *nflag = flag;
    for (int64_t b = 0; b < T->nbox; b++) {
        if ((m >> b) & 1)
            continue;
        int64_t g, u2, f2;
        if (!place_box(T, u, flag, d, b, restrict_, lower_only, jok, extra, &g, &u2, &f2))
            continue;
        const double v = (double)g + V[(m | ((int64_t)1 << b)) * A + f2 * U + u2];
        if (v > best) {
            best = v;
            bbox = b;
            *gain = g;
            *nu = u2;
            *nflag = f2;
        }
    }
    const int64_t rep = repeat_points(T, m);
    if (T->is_yacht[d] && rep > 0) {
        const double v = (double)rep + V[m * A + flag * U + u];
        if (v > best) {
            bbox = -1;
            *gain = rep;
            *nu = u;
            *nflag = flag;
        }
    }
    return bbox;
}

/* ------------------------------------------------------------------------- */
/* One state's turn (the advisor's keep values, one-game self-play)           */

/* The best placement of outcome d in state (m, u, flag): rep is the repeat box's
 * points (0: none), xself the state's own value (the repeat leaves the card). */
static inline double e0_one(const Tables *T, int64_t m, int64_t u, int64_t flag, int64_t rep,
                            double xself, int64_t d, const double *V)
{
    const int64_t U = T->U, A = astride(T);
    int64_t restrict_;
    int lower_only, jok;
    joker_rules(T, m, d, &restrict_, &lower_only, &jok);
    const int64_t extra = yacht_extra(T, m, flag, d);
    double best = NEG;
    for (int64_t b = 0; b < T->nbox; b++) {
        if ((m >> b) & 1)
            continue;
        int64_t g, u2, f2;
        if (place_box(T, u, flag, d, b, restrict_, lower_only, jok, extra, &g, &u2, &f2)) {
            const double v = (double)g + V[(m | ((int64_t)1 << b)) * A + f2 * U + u2];
            if (v > best)
                best = v;
        }
    }
    if (T->is_yacht[d] && rep > 0 && (double)rep + xself > best)
        best = (double)rep + xself;
    return best;
}

/* The points a roll costs in a turn from card m (0 but in the relaxed game of a bound). */
static inline double roll_cost(const Tables *T, int64_t m)
{
    return T->costly ? T->layer_cost[__builtin_popcountll((uint64_t)m)] : 0.0;
}

/* E0[d]: the best placement of every outcome in state (m, a). */
static void e0_scalar(const Tables *T, int64_t m, int64_t a, const double *V, double *E0)
{
    const int64_t U = T->U, A = astride(T), u = a % U, flag = a / U;
    const int64_t rep = repeat_points(T, m);
    const double xself = V[m * A + a];
    for (int64_t d = 0; d < T->nfull; d++)
        E0[d] = e0_one(T, m, u, flag, rep, xself, d, V);
}

/* Ks[j * nall + k]: the value of keeping k and rolling the rest with j rolls
 * left after that roll; on the outcome rows, Ks[j] holds the best with j rolls
 * left (E0 at j = 0). Ks[(rolls - 1) * nall] is the turn's value. Only the
 * first `levels` levels (j < levels) are computed. Every roll costs `cost` (0 but
 * in the relaxed game of a bound, roll_cost): a keep is worth its average less that. */
static void keep_levels(const Tables *T, const double *E0, double *Ks, int64_t levels,
                        double cost)
{
    const int64_t fs = T->full_start, nall = T->nall, F = T->faces;
    const double inv = 1.0 / (double)F;
    for (int64_t i = 0; i < T->nfull; i++)
        Ks[fs + i] = E0[i];
    for (int64_t level = 0; level < levels; level++) {
        double *K = Ks + level * nall;
        for (int64_t s = fs - 1; s >= 0; s--) {
            double acc = 0.0;
            for (int64_t f = 0; f < F; f++)
                acc += K[T->up[s * F + f]];
            K[s] = acc * inv;
        }
        /* (after the sweep: a keep's average is built from the keeps of one more die) */
        if (cost != 0.0)
            for (int64_t s = 0; s < fs; s++)
                K[s] -= cost;
        if (level == levels - 1)
            break;
        double *nx = Ks + (level + 1) * nall;
        memcpy(nx, K, (size_t)nall * sizeof(double));
        /* nx[s] = the best of s and everything inside it: the pairs (s, s minus one
         * die) come by s ascending, so a run of one s reads finished rows only */
        for (int64_t i = 0; i < T->npairs;) {
            const int64_t s = T->pairs[2 * i];
            double best = nx[s];
            for (; i < T->npairs && T->pairs[2 * i] == s; i++) {
                const double v = nx[T->pairs[2 * i + 1]];
                best = v > best ? v : best;
            }
            nx[s] = best;
        }
    }
}

/* ------------------------------------------------------------------------- */
/* Random dice (splitmix64, one stream per game)                   */

static inline uint64_t rand64(uint64_t *s)
{
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void seed_stream(uint64_t *s, uint64_t seed, uint64_t game)
{
    *s = seed * 0xD1B54A32D192ED03ULL + game;
    (void)rand64(s);
}

static inline void roll_dice(const Tables *T, int64_t *cnt, int64_t k, uint64_t *rng)
{
    for (int64_t i = 0; i < k; i++) {
        const uint64_t r = rand64(rng);
        cnt[(int64_t)(((r >> 32) * (uint64_t)T->faces) >> 32)]++;
    }
}

static inline int64_t index_of(const Tables *T, const int64_t *cnt)
{
    int64_t c = 0, base = 1;
    for (int64_t f = 0; f < T->faces; f++) {
        c += cnt[f] * base;
        base *= T->n + 1;
    }
    return T->code_index[c];
}

/* The best proper sub-multiset of outcome d by table[off + k * stride]. */
static inline int64_t best_keep(const Tables *T, const double *table, int64_t off,
                                int64_t stride, int64_t d, double *bestv)
{
    double best = NEG;
    int64_t bk = 0;
    for (int64_t i = 0; i < T->nsubs[d]; i++) {
        const int64_t k = T->subs[d * T->subw + i];
        const double v = table[off + k * stride];
        if (v > best) {
            best = v;
            bk = k;
        }
    }
    *bestv = best;
    return bk;
}

static inline void keep_and_roll(const Tables *T, int64_t *cnt, int64_t k, uint64_t *rng)
{
    for (int64_t f = 0; f < T->faces; f++)
        cnt[f] = T->counts[k * T->faces + f];
    roll_dice(T, cnt, T->n - T->size[k], rng);
}

/* One turn's dice by the keep values Ks (Ks[((level * nall) + k) * stride + col]):
 * from outcome d0 with r0 rolls left, or (d0 < 0) from the first roll. Returns
 * the final outcome (index among the n-dice outcomes). */
static int64_t play_turn_dice(const Tables *T, const double *Ks, int64_t stride, int64_t col,
                              int64_t d0, int64_t r0, uint64_t *rng, int64_t *cnt)
{
    const int64_t nall = T->nall, fs = T->full_start;
    int64_t start;
    if (d0 >= 0) {
        for (int64_t f = 0; f < T->faces; f++)
            cnt[f] = T->counts[(fs + d0) * T->faces + f];
        start = r0;
    } else {
        for (int64_t f = 0; f < T->faces; f++)
            cnt[f] = 0;
        roll_dice(T, cnt, T->n, rng);
        start = T->rolls - 1;
    }
    for (int64_t left = start; left > 0; left--) {
        const int64_t di = index_of(T, cnt);
        double best;
        const int64_t bk = best_keep(T, Ks, (left - 1) * nall * stride + col, stride, di - fs,
                                     &best);
        if (Ks[di * stride + col] >= best)
            break;
        keep_and_roll(T, cnt, bk, rng);
    }
    return index_of(T, cnt) - fs;
}

typedef struct {
    const double *V;
    uint64_t seed;
    int64_t m0, u0, f0, d0, r0;
    int64_t fbox, fpoints, ffree, fpenalty, ffloor, flast;
    const double *fkeep; /* (flast + 1, nall) */
    int64_t *totals;
    uint8_t *bonus;
    int64_t *yachts;
} Play;

/* The forced first turn (roll until all dice match): the points, and whether a
 * yacht was rolled. */
static int64_t forced_turn_dice(const Tables *T, const Play *P, uint64_t *rng, int64_t *cnt,
                                int *yacht)
{
    const int64_t fs = T->full_start, nall = T->nall;
    for (int64_t f = 0; f < T->faces; f++)
        cnt[f] = 0;
    roll_dice(T, cnt, T->n, rng);
    for (int64_t r = 1;; r++) {
        const int64_t d = index_of(T, cnt) - fs;
        if (T->is_yacht[d]) {
            *yacht = 1;
            const int64_t pts = P->fpoints - P->fpenalty * MAX(0, r - P->ffree);
            return MAX(pts, P->ffloor);
        }
        if (r >= P->flast) {
            *yacht = 0;
            return P->ffloor;
        }
        double best;
        const int64_t bk = best_keep(T, P->fkeep, r * nall, 1, d, &best);
        keep_and_roll(T, cnt, bk, rng);
    }
}

/* Games g_lo..g_hi-1 one at a time (any ruleset, the repeat box included). */
static int play_one_chunk(const Tables *T, const Play *P, int64_t g_lo, int64_t g_hi)
{
    const int64_t U = T->U, full = ((int64_t)1 << T->nbox) - 1;
    double *E0 = malloc((size_t)T->nfull * sizeof(double));
    double *Ks = malloc((size_t)(T->rolls * T->nall) * sizeof(double));
    if (E0 == NULL || Ks == NULL) {
        free(E0);
        free(Ks);
        return -1;
    }
    int64_t cnt[MAXFACES];
    for (int64_t g = g_lo; g < g_hi; g++) {
        uint64_t rng;
        seed_stream(&rng, P->seed, (uint64_t)g);
        int64_t m = P->m0, u = P->u0, flag = P->f0, total = 0, yachts = 0;
        if (P->fbox >= 0 && ((m >> P->fbox) & 1) == 0) {
            int y;
            total += forced_turn_dice(T, P, &rng, cnt, &y) * T->box_mult[P->fbox];
            yachts += y;
            m |= (int64_t)1 << P->fbox;
        }
        int first = P->d0 >= 0;
        while (m != full) {
            e0_scalar(T, m, flag * U + u, P->V, E0);
            keep_levels(T, E0, Ks, T->rolls, roll_cost(T, m));
            const int64_t d = play_turn_dice(T, Ks, 1, 0, first ? P->d0 : -1,
                                             first ? P->r0 : T->rolls - 1, &rng, cnt);
            first = 0;
            if (T->is_yacht[d])
                yachts++;
            int64_t gain, nu, nf;
            const int64_t b = best_place(T, m, u, flag, d, P->V, &gain, &nu, &nf);
            total += gain;
            if (b >= 0)
                m |= (int64_t)1 << b;
            u = nu;
            flag = nf;
        }
        P->totals[g - g_lo] = total;
        P->bonus[g - g_lo] = U > 1 && u >= T->need;
        P->yachts[g - g_lo] = yachts;
    }
    free(E0);
    free(Ks);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* The build with a repeat box: one mask at a time, each state a fixed point  */

static void e0_block(const Tables *T, int64_t m, const double *V, int64_t u_lo, int64_t u_hi,
                     int64_t f_lo, int64_t f_hi, const double *x, double *E0, double *P0,
                     int64_t W, int track)
{
    const int64_t U = T->U, A = astride(T), ncap = U - 1, wu = u_hi - u_lo + 1;
    const int64_t rep = repeat_points(T, m);
    for (int64_t d = 0; d < T->nfull; d++) {
        double *row = E0 + d * W;
        for (int64_t j = 0; j < W; j++)
            row[j] = NEG;
        int64_t restrict_;
        int lower_only, jok;
        joker_rules(T, m, d, &restrict_, &lower_only, &jok);
        const int yacht = T->is_yacht[d];
        for (int64_t flag = f_lo; flag <= f_hi; flag++) {
            const int64_t base = (flag - f_lo) * wu;
            double *rowf = row + base;
            const int64_t extra = yacht_extra(T, m, flag, d);
            for (int64_t b = 0; b < T->nbox; b++) {
                if (((m >> b) & 1) || !box_allowed(T, b, restrict_, lower_only))
                    continue;
                const int64_t pts = box_points(T, b, d, jok), mult = T->box_mult[b];
                const double val = (double)(pts * mult + extra);
                int64_t nflag = flag;
                if (b == T->ybox && T->ybonus > 0)
                    nflag = pts > 0 ? 1 : 0;
                const double *vrow = V + (m | ((int64_t)1 << b)) * A + nflag * U;
                if (U > 1 && T->box_upper[b]) {
                    const int64_t hi1 = MIN(u_hi + 1, T->need - pts);
                    for (int64_t uu = u_lo; uu < hi1; uu++) {
                        const double v = vrow[uu + pts] + val;
                        if (v > rowf[uu - u_lo])
                            rowf[uu - u_lo] = v;
                    }
                    const int64_t lo2 = MAX(u_lo, T->need - pts), hi2 = MIN(u_hi + 1, T->need);
                    if (hi2 > lo2) {
                        const double v = val + (double)(T->bonus_amt * mult) + vrow[ncap];
                        for (int64_t j = lo2 - u_lo; j < hi2 - u_lo; j++)
                            if (v > rowf[j])
                                rowf[j] = v;
                    }
                    const int64_t lo3 = MAX(u_lo, T->need);
                    if (u_hi >= lo3) {
                        const double v = val + vrow[ncap];
                        for (int64_t j = lo3 - u_lo; j < u_hi + 1 - u_lo; j++)
                            if (v > rowf[j])
                                rowf[j] = v;
                    }
                } else {
                    for (int64_t j = 0; j < wu; j++) {
                        const double v = vrow[u_lo + j] + val;
                        if (v > rowf[j])
                            rowf[j] = v;
                    }
                }
            }
            if (yacht && rep > 0)
                for (int64_t j = 0; j < wu; j++) {
                    const double v = (double)rep + x[base + j];
                    if (v > rowf[j])
                        rowf[j] = v;
                }
        }
        if (track) {
            for (int64_t j = 0; j < W; j++)
                P0[d * W + j] = 0.0;
            if (yacht && rep > 0)
                for (int64_t j = 0; j < W; j++)
                    if ((double)rep + x[j] >= row[j])
                        P0[d * W + j] = 1.0;
        }
    }
}

static void levels_block(const Tables *T, const double *E0, const double *P0, int track,
                         int64_t W, double *K, double *KP, double *out, double *outp)
{
    const int64_t fs = T->full_start, nall = T->nall, F = T->faces;
    const double inv = 1.0 / (double)F;
    memcpy(K + fs * W, E0, (size_t)(T->nfull * W) * sizeof(double));
    if (track)
        memcpy(KP + fs * W, P0, (size_t)(T->nfull * W) * sizeof(double));
    for (int64_t level = 0; level < T->rolls; level++) {
        for (int pass = 0; pass < (track ? 2 : 1); pass++) {
            double *X = pass ? KP : K;
            for (int64_t s = fs - 1; s >= 0; s--) {
                double *o = X + s * W;
                const double *a = X + T->up[s * F] * W;
                for (int64_t w = 0; w < W; w++)
                    o[w] = a[w];
                for (int64_t f = 1; f < F; f++) {
                    a = X + T->up[s * F + f] * W;
                    for (int64_t w = 0; w < W; w++)
                        o[w] += a[w];
                }
                for (int64_t w = 0; w < W; w++)
                    o[w] *= inv;
            }
        }
        if (level == T->rolls - 1)
            break;
        for (int64_t s = 1; s < nall; s++)
            for (int64_t f = 0; f < F; f++) {
                const int64_t t = T->down[s * F + f];
                if (t < 0)
                    continue;
                double *ks = K + s * W;
                const double *kt = K + t * W;
                if (track) {
                    double *ps = KP + s * W;
                    const double *pt = KP + t * W;
                    for (int64_t w = 0; w < W; w++)
                        if (kt[w] > ks[w]) {
                            ks[w] = kt[w];
                            ps[w] = pt[w];
                        }
                } else {
                    for (int64_t w = 0; w < W; w++)
                        ks[w] = MAX(ks[w], kt[w]);
                }
            }
    }
    memcpy(out, K, (size_t)W * sizeof(double));
    if (track)
        memcpy(outp, KP, (size_t)W * sizeof(double));
}

typedef struct {
    double *E0, *P0, *K, *KP, *out, *outp, *x;
} RepScratch;

/* Every (flag, upper total) state of mask m into V[m]. With a repeat box the
 * value is the fixed point x = g(x) of the turn (g convex, piecewise linear,
 * slope < 1): Newton's method from below reaches it in a few steps. */
static void solve_mask(const Tables *T, int64_t m, double *V, int64_t umax_m, RepScratch *R)
{
    const int64_t U = T->U, A = astride(T);
    const int64_t nflag = (T->ybonus > 0 && T->ybox >= 0 && ((m >> T->ybox) & 1)) ? 2 : 1;
    const int64_t wu = umax_m + 1, W = nflag * wu;
    const int repeat = repeat_points(T, m) > 0;
    for (int64_t w = 0; w < W; w++)
        R->x[w] = 0.0;
    if (repeat) {
        for (int it = 0; it < 200; it++) {
            e0_block(T, m, V, 0, umax_m, 0, nflag - 1, R->x, R->E0, R->P0, W, 1);
            levels_block(T, R->E0, R->P0, 1, W, R->K, R->KP, R->out, R->outp);
            double delta = 0.0;
            for (int64_t w = 0; w < W; w++) {
                const double nx = R->x[w] + (R->out[w] - R->x[w]) / (1.0 - R->outp[w]);
                const double dd = fabs(nx - R->x[w]);
                if (dd > delta)
                    delta = dd;
                R->x[w] = nx;
            }
            if (delta < 1e-11)
                break;
        }
        memcpy(R->out, R->x, (size_t)W * sizeof(double));
    } else {
        e0_block(T, m, V, 0, umax_m, 0, nflag - 1, R->x, R->E0, R->P0, W, 0);
        levels_block(T, R->E0, R->P0, 0, W, R->K, R->KP, R->out, R->outp);
    }
    for (int64_t flag = 0; flag < nflag; flag++)
        for (int64_t u = 0; u < wu; u++)
            V[m * A + flag * U + u] = R->out[flag * wu + u];
}

/* ------------------------------------------------------------------------- */
/* Tile kernels, one set per width                                            */

typedef struct {
    double *K, *M, *A, *Z, *Ks;
    int64_t *gm, *gu, *gf;
} Scratch;

static void *alloc64(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes < 64 ? 64 : bytes) != 0)
        return NULL;
    return p;
}

static void scratch_free(Scratch *s)
{
    free(s->K);
    free(s->M);
    free(s->A);
    free(s->Z);
    free(s->Ks);
    free(s->gm);
    free(s->gu);
    free(s->gf);
    memset(s, 0, sizeof(*s));
}

static int scratch_init(Scratch *s, const Tables *T, int64_t tw, int64_t saved_levels)
{
    memset(s, 0, sizeof(*s));
    const size_t row = (size_t)tw * sizeof(double);
    s->K = alloc64((size_t)(T->nall + 1) * row);
    s->M = alloc64((size_t)(T->nall + 1) * row);
    s->A = alloc64((size_t)MAX(T->nrows, 1) * row);
    s->Z = alloc64(3 * row);
    s->Ks = saved_levels > 0 ? alloc64((size_t)(saved_levels * T->nall) * row) : NULL;
    s->gm = calloc((size_t)tw, sizeof(int64_t));
    s->gu = calloc((size_t)tw, sizeof(int64_t));
    s->gf = calloc((size_t)tw, sizeof(int64_t));
    if (!s->K || !s->M || !s->A || !s->Z || (saved_levels > 0 && !s->Ks) || !s->gm || !s->gu
        || !s->gf) {
        scratch_free(s);
        return -1;
    }
    memset(s->K, 0, (size_t)(T->nall + 1) * row);
    memset(s->M, 0, (size_t)(T->nall + 1) * row);
    return 0;
}

#define TW 1
#define TF(name) name##_1
#include "_native_tile.h"
#undef TW
#undef TF
#define TW 8
#define TF(name) name##_8
#include "_native_tile.h"
#undef TW
#undef TF
#define TW 16
#define TF(name) name##_16
#include "_native_tile.h"
#undef TW
#undef TF
#define TW 32
#define TF(name) name##_32
#include "_native_tile.h"
#undef TW
#undef TF
#define TW 64
#define TF(name) name##_64
#include "_native_tile.h"
#undef TW
#undef TF

static int tile_ok(int64_t tw) { return tw == 1 || tw == 8 || tw == 16 || tw == 32 || tw == 64; }

#define DISPATCH(tw, name, ...)                                                                \
    switch (tw) {                                                                              \
    case 1: name##_1(__VA_ARGS__); break;                                                      \
    case 8: name##_8(__VA_ARGS__); break;                                                      \
    case 16: name##_16(__VA_ARGS__); break;                                                    \
    case 32: name##_32(__VA_ARGS__); break;                                                    \
    default: name##_64(__VA_ARGS__); break;                                                    \
    }

/* ------------------------------------------------------------------------- */
/* Threads: chunks of [0, total) taken from a shared counter                  */

typedef struct Job Job;
typedef int (*JobFn)(Job *job, void *state, int64_t lo, int64_t hi);
typedef int (*JobInit)(Job *job, void **state);
typedef void (*JobDone)(void *state);

struct Job {
    const Tables *T;
    int64_t total, chunk, next;
    int failed;
    JobFn fn;
    JobInit init;
    JobDone done;
    void *arg;
};

static void *job_worker(void *p)
{
    Job *job = p;
    void *state = NULL;
    if (job->init != NULL && job->init(job, &state) < 0) {
        __atomic_store_n(&job->failed, 1, __ATOMIC_SEQ_CST);
        return NULL;
    }
    for (;;) {
        const int64_t lo = __atomic_fetch_add(&job->next, job->chunk, __ATOMIC_SEQ_CST);
        if (lo >= job->total || __atomic_load_n(&job->failed, __ATOMIC_SEQ_CST))
            break;
        if (job->fn(job, state, lo, MIN(lo + job->chunk, job->total)) < 0) {
            __atomic_store_n(&job->failed, 1, __ATOMIC_SEQ_CST);
            break;
        }
    }
    if (job->done != NULL)
        job->done(state);
    return NULL;
}

/* Run job over `threads` threads (the caller's thread is one of them); the GIL
 * must be released by the caller. Returns -1 if a chunk failed (no memory). */
static int job_run(Job *job, int64_t threads)
{
    job->next = 0;
    job->failed = 0;
    if (job->chunk < 1)
        job->chunk = 1;
    threads = MAX(1, MIN(threads, 64));
    const int64_t chunks = (job->total + job->chunk - 1) / job->chunk;
    if (threads > chunks)
        threads = MAX(1, chunks);
    pthread_t tids[64];
    int64_t started = 0;
    for (int64_t i = 1; i < threads; i++) {
        if (pthread_create(&tids[started], NULL, job_worker, job) != 0)
            break;
        started++;
    }
    job_worker(job);
    for (int64_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    return job->failed ? -1 : 0;
}

/* ------------------------------------------------------------------------- */
/* Python entry points                                                        */

typedef struct {
    Py_buffer b;
    int held;
} Buf;

static int buf_get(PyObject *o, Buf *out, const char *name, char kind, Py_ssize_t count,
                   int writable)
{
    out->held = 0;
    if (PyObject_GetBuffer(o, &out->b,
                           PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0))
        < 0)
        return -1;
    out->held = 1;
    return check_buffer(&out->b, name, kind, count, writable);
}

static void buf_release(Buf *bufs, int n)
{
    for (int i = 0; i < n; i++)
        if (bufs[i].held) {
            PyBuffer_Release(&bufs[i].b);
            bufs[i].held = 0;
        }
}

#define NELEM(buf) ((buf).b.len / (buf).b.itemsize)

static int check_tables(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &TablesType)) {
        PyErr_SetString(PyExc_TypeError, "tables: a _native.Tables is expected");
        return -1;
    }
    return 0;
}

/* --- the wide build --- */

typedef struct {
    const int64_t *masks, *ulo, *usub, *uoff, *ulist, *nflag;
    double *Vp;
    int64_t rowlen, S, tile;
} BuildArg;

static int scratch_job_init(Job *job, void **state)
{
    const BuildArg *a = job->arg;
    Scratch *s = malloc(sizeof(Scratch));
    if (s == NULL || scratch_init(s, job->T, a->tile, 0) < 0) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void scratch_job_done(void *state)
{
    if (state != NULL) {
        scratch_free(state);
        free(state);
    }
}

static int build_job(Job *job, void *state, int64_t lo, int64_t hi)
{
    const BuildArg *a = job->arg;
    DISPATCH(a->tile, build_chunk, job->T, state, a->masks, lo, hi, a->Vp, a->rowlen, a->S,
             a->ulo, a->usub, a->uoff, a->ulist, a->nflag);
    return 0;
}

static PyObject *py_build_layer(PyObject *mod, PyObject *args)
{
    PyObject *to, *lo_, *Vo, *ulo_o, *usub_o, *uoff_o, *ulist_o, *nflag_o;
    long long S, tile, threads, chunk;
    if (!PyArg_ParseTuple(args, "OOOLOOOOOLLL", &to, &lo_, &Vo, &S, &ulo_o, &usub_o, &uoff_o,
                          &ulist_o, &nflag_o, &tile, &threads, &chunk))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox;
    const int64_t nflagmax = T->ybonus > 0 ? 2 : 1;
    Buf b[7];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (!tile_ok(tile) || tile == 1 || S < 1 || (S > 1 && S <= T->need)) {
        PyErr_SetString(PyExc_ValueError, "build_layer: bad tile or stride");
        return NULL;
    }
    if (buf_get(lo_, &b[0], "layer", 'i', -1, 0) < 0
        || buf_get(Vo, &b[1], "Vp", 'd', nmask * nflagmax * S, 1) < 0
        || buf_get(ulo_o, &b[2], "ulo", 'i', nmask, 0) < 0
        || buf_get(usub_o, &b[3], "usub", 'i', nmask, 0) < 0
        || buf_get(uoff_o, &b[4], "uoff", 'i', -1, 0) < 0
        || buf_get(ulist_o, &b[5], "ulist", 'i', -1, 0) < 0
        || buf_get(nflag_o, &b[6], "nflag", 'i', nmask, 0) < 0)
        goto done;
    {
        const int64_t *masks = b[0].b.buf, *ulo = b[2].b.buf, *usub = b[3].b.buf;
        const int64_t *uoff = b[4].b.buf, *ulist = b[5].b.buf, *nfl = b[6].b.buf;
        const Py_ssize_t nsub = NELEM(b[4]) - 1, nlist = NELEM(b[5]);
        for (Py_ssize_t k = 0; k < nsub; k++)
            if (uoff[k] < 0 || uoff[k] >= uoff[k + 1] || uoff[k + 1] > nlist) {
                PyErr_SetString(PyExc_ValueError, "build_layer: bad uoff");
                goto done;
            }
        for (Py_ssize_t k = 0; k < nlist; k++)
            if (ulist[k] < 0 || ulist[k] >= S) {
                PyErr_SetString(PyExc_ValueError, "build_layer: bad ulist");
                goto done;
            }
        for (Py_ssize_t i = 0; i < NELEM(b[0]); i++) {
            const int64_t m = masks[i];
            if (m < 0 || m >= nmask || usub[m] < 0 || usub[m] >= nsub || ulo[m] < 0
                || ulo[m] >= S || nfl[m] < 1 || nfl[m] > nflagmax) {
                PyErr_SetString(PyExc_ValueError, "build_layer: a mask out of range");
                goto done;
            }
            /* a tile's rolls are its first mask's layer's: one layer a call */
            if (__builtin_popcountll((uint64_t)m) != __builtin_popcountll((uint64_t)masks[0])) {
                PyErr_SetString(PyExc_ValueError, "build_layer: masks of one layer expected");
                goto done;
            }
        }
    }
    BuildArg a = {b[0].b.buf, b[2].b.buf, b[3].b.buf, b[4].b.buf, b[5].b.buf, b[6].b.buf,
                  b[1].b.buf, nflagmax * S, S, tile};
    Job job = {.T = T, .total = NELEM(b[0]), .chunk = chunk, .fn = build_job,
               .init = scratch_job_init, .done = scratch_job_done, .arg = &a};
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = job_run(&job, threads);
    Py_END_ALLOW_THREADS if (rc < 0)
    {
        PyErr_NoMemory();
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 7);
    return ret;
}

/* --- the build with a repeat box --- */

typedef struct {
    const int64_t *masks, *umax;
    double *V;
} RepArg;

static int rep_init(Job *job, void **state)
{
    const Tables *T = job->T;
    const size_t A = (size_t)astride(T);
    RepScratch *R = calloc(1, sizeof(RepScratch));
    if (R == NULL)
        return -1;
    R->E0 = malloc((size_t)T->nfull * A * sizeof(double));
    R->P0 = malloc((size_t)T->nfull * A * sizeof(double));
    R->K = malloc((size_t)T->nall * A * sizeof(double));
    R->KP = malloc((size_t)T->nall * A * sizeof(double));
    R->out = malloc(A * sizeof(double));
    R->outp = malloc(A * sizeof(double));
    R->x = malloc(A * sizeof(double));
    *state = R;
    if (!R->E0 || !R->P0 || !R->K || !R->KP || !R->out || !R->outp || !R->x)
        return -1;
    return 0;
}

static void rep_done(void *state)
{
    RepScratch *R = state;
    if (R == NULL)
        return;
    free(R->E0);
    free(R->P0);
    free(R->K);
    free(R->KP);
    free(R->out);
    free(R->outp);
    free(R->x);
    free(R);
}

static int rep_job(Job *job, void *state, int64_t lo, int64_t hi)
{
    const RepArg *a = job->arg;
    for (int64_t i = lo; i < hi; i++)
        solve_mask(job->T, a->masks[i], a->V, a->umax[a->masks[i]], state);
    return 0;
}

static PyObject *py_build_repeat_layer(PyObject *mod, PyObject *args)
{
    PyObject *to, *lo_, *Vo, *umax_o;
    long long threads;
    if (!PyArg_ParseTuple(args, "OOOOL", &to, &lo_, &Vo, &umax_o, &threads))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox;
    Buf b[3];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (buf_get(lo_, &b[0], "layer", 'i', -1, 0) < 0
        || buf_get(Vo, &b[1], "V", 'd', nmask * astride(T), 1) < 0
        || buf_get(umax_o, &b[2], "umax", 'i', nmask, 0) < 0)
        goto done;
    {
        const int64_t *masks = b[0].b.buf, *umax = b[2].b.buf;
        for (Py_ssize_t i = 0; i < NELEM(b[0]); i++)
            if (masks[i] < 0 || masks[i] >= nmask || umax[masks[i]] < 0
                || umax[masks[i]] >= T->U) {
                PyErr_SetString(PyExc_ValueError, "build_repeat_layer: a mask out of range");
                goto done;
            }
    }
    RepArg a = {b[0].b.buf, b[2].b.buf, b[1].b.buf};
    Job job = {.T = T, .total = NELEM(b[0]), .chunk = 4, .fn = rep_job, .init = rep_init,
               .done = rep_done, .arg = &a};
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = job_run(&job, threads);
    Py_END_ALLOW_THREADS if (rc < 0)
    {
        PyErr_NoMemory();
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 3);
    return ret;
}

/* --- option values in bulk --- */

typedef struct {
    const int64_t *sm, *sa, *sd, *sr;
    const double *V;
    double *keep_out, *box_out;
    int64_t keepw, tile;
} AdviseArg;

static int advise_init(Job *job, void **state)
{
    const AdviseArg *a = job->arg;
    Scratch *s = malloc(sizeof(Scratch));
    if (s == NULL || scratch_init(s, job->T, a->tile, job->T->rolls) < 0) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int advise_job(Job *job, void *state, int64_t lo, int64_t hi)
{
    const AdviseArg *a = job->arg;
    DISPATCH(a->tile, advise_chunk, job->T, state, lo, hi, a->sm, a->sa, a->sd, a->sr, a->V,
             a->keep_out, a->keepw, a->box_out);
    return 0;
}

static PyObject *py_option_values(PyObject *mod, PyObject *args)
{
    PyObject *to, *Vo, *smo, *sao, *sdo, *sro, *ko, *bo;
    long long tile, threads;
    if (!PyArg_ParseTuple(args, "OOOOOOOOLL", &to, &Vo, &smo, &sao, &sdo, &sro, &ko, &bo,
                          &tile, &threads))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox, A = astride(T);
    Buf b[7];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (!tile_ok(tile)) {
        PyErr_SetString(PyExc_ValueError, "option_values: bad tile");
        return NULL;
    }
    if (buf_get(Vo, &b[0], "V", 'd', nmask * A, 0) < 0
        || buf_get(smo, &b[1], "masks", 'i', -1, 0) < 0)
        goto done;
    const Py_ssize_t n = NELEM(b[1]);
    if (buf_get(sao, &b[2], "auxs", 'i', n, 0) < 0
        || buf_get(sdo, &b[3], "outcomes", 'i', n, 0) < 0
        || buf_get(sro, &b[4], "rolls_left", 'i', n, 0) < 0
        || buf_get(ko, &b[5], "keep_out", 'd', n * T->subw, 1) < 0
        || buf_get(bo, &b[6], "box_out", 'd', n * T->nbox, 1) < 0)
        goto done;
    {
        const int64_t *sm = b[1].b.buf, *sa = b[2].b.buf, *sd = b[3].b.buf, *sr = b[4].b.buf;
        for (Py_ssize_t i = 0; i < n; i++)
            if (sm[i] < 0 || sm[i] >= nmask - 1 || sa[i] < 0 || sa[i] >= A || sd[i] < 0
                || sd[i] >= T->nfull || sr[i] < 0 || sr[i] >= T->rolls) {
                PyErr_SetString(PyExc_ValueError, "option_values: a situation out of range");
                goto done;
            }
    }
    AdviseArg a = {b[1].b.buf, b[2].b.buf, b[3].b.buf, b[4].b.buf, b[0].b.buf,
                   b[5].b.buf, b[6].b.buf, T->subw, tile};
    int64_t chunk = MAX(tile, (n / MAX(threads, 1) + tile - 1) / tile * tile);
    Job job = {.T = T, .total = n, .chunk = chunk, .fn = advise_job, .init = advise_init,
               .done = scratch_job_done, .arg = &a};
    int rc = 0;
    if (n <= tile) {
        /* one tile on this thread: a scratch kept per thread (no allocation per call) */
        static __thread Scratch keep;
        static __thread int64_t keep_size[4];
        const int64_t want[4] = {T->nall, T->nrows, tile, T->rolls};
        if (keep.K == NULL || memcmp(want, keep_size, sizeof(want)) != 0) {
            scratch_free(&keep);
            if (scratch_init(&keep, T, tile, T->rolls) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            memcpy(keep_size, want, sizeof(want));
        }
        advise_job(&job, &keep, 0, n);
    } else {
        Py_BEGIN_ALLOW_THREADS rc = job_run(&job, threads);
        Py_END_ALLOW_THREADS
    }
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 7);
    return ret;
}

/* --- one situation (no arrays to describe it, scratch kept per thread) --- */

static PyObject *py_situation(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "situation(tables, V, mask, aux, outcome, rolls_left, keep_out, box_out)");
        return NULL;
    }
    if (check_tables(args[0]) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)args[0])->t;
    const int64_t nmask = (int64_t)1 << T->nbox, A = astride(T);
    int64_t v[4];
    for (int i = 0; i < 4; i++) {
        v[i] = PyLong_AsLongLong(args[2 + i]);
        if (v[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    if (v[0] < 0 || v[0] >= nmask - 1 || v[1] < 0 || v[1] >= A || v[2] < 0 || v[2] >= T->nfull
        || v[3] < 0 || v[3] >= T->rolls) {
        PyErr_SetString(PyExc_ValueError, "situation: out of range");
        return NULL;
    }
    Buf b[3];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (buf_get(args[1], &b[0], "V", 'd', nmask * A, 0) < 0
        || buf_get(args[6], &b[1], "keep_out", 'd', T->subw, 1) < 0
        || buf_get(args[7], &b[2], "box_out", 'd', T->nbox, 1) < 0)
        goto done;
    static __thread Scratch keep;
    static __thread int64_t keep_size[3];
    const int64_t want[3] = {T->nall, T->nrows, T->rolls};
    if (keep.K == NULL || memcmp(want, keep_size, sizeof(want)) != 0) {
        scratch_free(&keep);
        if (scratch_init(&keep, T, 1, T->rolls) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(keep_size, want, sizeof(want));
    }
    advise_chunk_1(T, &keep, 0, 1, &v[0], &v[1], &v[2], &v[3], b[0].b.buf, b[1].b.buf,
                   T->subw, b[2].b.buf);
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 3);
    return ret;
}

/* --- one state's turn --- */

static PyObject *py_state_turn(PyObject *mod, PyObject *args)
{
    PyObject *to, *Vo, *Eo, *Ko;
    long long m, a;
    if (!PyArg_ParseTuple(args, "OOLLOO", &to, &Vo, &m, &a, &Eo, &Ko))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox, A = astride(T);
    Buf b[3];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (m < 0 || m >= nmask || a < 0 || a >= A) {
        PyErr_SetString(PyExc_ValueError, "state_turn: state out of range");
        return NULL;
    }
    if (buf_get(Vo, &b[0], "V", 'd', nmask * A, 0) < 0
        || buf_get(Eo, &b[1], "E0", 'd', T->nfull, 1) < 0
        || buf_get(Ko, &b[2], "Ks", 'd', T->rolls * T->nall, 1) < 0)
        goto done;
    e0_scalar(T, m, a, b[0].b.buf, b[1].b.buf);
    keep_levels(T, b[1].b.buf, b[2].b.buf, T->rolls, roll_cost(T, m));
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 3);
    return ret;
}

/* --- self-play --- */

typedef struct {
    Play P;
    int lockstep;
    int64_t tile;
} PlayArg;

static int play_init(Job *job, void **state)
{
    const PlayArg *a = job->arg;
    if (!a->lockstep) {
        *state = NULL;
        return 0;
    }
    Scratch *s = malloc(sizeof(Scratch));
    if (s == NULL || scratch_init(s, job->T, a->tile, job->T->rolls) < 0) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int play_job(Job *job, void *state, int64_t lo, int64_t hi)
{
    const PlayArg *a = job->arg;
    Play P = a->P;
    P.totals += lo;
    P.bonus += lo;
    P.yachts += lo;
    if (!a->lockstep)
        return play_one_chunk(job->T, &P, lo, hi);
    DISPATCH(a->tile, play_chunk, job->T, state, &P, lo, hi);
    return 0;
}

static PyObject *py_play(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"tables", "V", "games", "seed", "start", "forced", "fkeep",
                             "totals", "bonus", "yachts", "lockstep", "tile", "threads", NULL};
    PyObject *to, *Vo, *fko, *tto, *bno, *yco;
    long long games, m0, u0, f0, d0, r0, fbox, fpoints, ffree, fpen, ffloor, flast, tile,
        threads;
    unsigned long long seed;
    int lockstep;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOLK(LLLLL)(LLLLLL)OOOOpLL", kwlist, &to, &Vo,
                                     &games, &seed, &m0, &u0, &f0, &d0, &r0, &fbox, &fpoints,
                                     &ffree, &fpen, &ffloor, &flast, &fko, &tto, &bno, &yco,
                                     &lockstep, &tile, &threads))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox, A = astride(T);
    Buf b[5];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (!tile_ok(tile) || games < 0 || m0 < 0 || m0 >= nmask || u0 < 0 || u0 >= T->U || f0 < 0
        || f0 * T->U >= A || d0 >= T->nfull || (d0 >= 0 && (r0 < 0 || r0 >= T->rolls))
        || fbox >= T->nbox || (fbox >= 0 && flast < 1)) {
        PyErr_SetString(PyExc_ValueError, "play: arguments out of range");
        return NULL;
    }
    if (buf_get(Vo, &b[0], "V", 'd', nmask * A, 0) < 0
        || buf_get(fko, &b[1], "fkeep", 'd', fbox >= 0 ? (flast + 1) * T->nall : -1, 0) < 0
        || buf_get(tto, &b[2], "totals", 'i', games, 1) < 0
        || buf_get(bno, &b[3], "bonus", 'b', games, 1) < 0
        || buf_get(yco, &b[4], "yachts", 'i', games, 1) < 0)
        goto done;
    PlayArg a = {{b[0].b.buf, seed, m0, u0, f0, d0, r0, fbox, fpoints, ffree, fpen, ffloor,
                  flast, b[1].b.buf, b[2].b.buf, b[3].b.buf, b[4].b.buf},
                 lockstep, tile};
    int64_t chunk = lockstep ? MAX(tile, (games / (4 * MAX(threads, 1)) + tile - 1) / tile * tile)
                             : MAX(1, games / (4 * MAX(threads, 1)));
    Job job = {.T = T, .total = games, .chunk = chunk, .fn = play_job, .init = play_init,
               .done = scratch_job_done, .arg = &a};
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = job_run(&job, threads);
    Py_END_ALLOW_THREADS if (rc < 0)
    {
        PyErr_NoMemory();
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 5);
    return ret;
}

/* --- the skip relaxation --- */

typedef struct {
    const int64_t *masks;
    double *V;
    int64_t rowlen, tile;
} SkipArg;

static int skip_init(Job *job, void **state)
{
    const SkipArg *a = job->arg;
    Scratch *s = malloc(sizeof(Scratch));
    if (s == NULL || scratch_init(s, job->T, a->tile, 0) < 0) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int skip_job(Job *job, void *state, int64_t lo, int64_t hi)
{
    const SkipArg *a = job->arg;
    DISPATCH(a->tile, skip_chunk, job->T, state, a->masks, lo, hi, a->V, a->rowlen);
    return 0;
}

static PyObject *py_skip_layer(PyObject *mod, PyObject *args)
{
    PyObject *to, *lo_, *Vo;
    long long rowlen, tile, threads;
    if (!PyArg_ParseTuple(args, "OOOLLL", &to, &lo_, &Vo, &rowlen, &tile, &threads))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox;
    Buf b[2];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (!tile_ok(tile) || rowlen < 2 || T->U != 1 || T->ybox >= 0) {
        PyErr_SetString(PyExc_ValueError, "skip_layer: plain columns and a tile expected");
        return NULL;
    }
    if (buf_get(lo_, &b[0], "layer", 'i', -1, 0) < 0
        || buf_get(Vo, &b[1], "V", 'd', nmask * rowlen, 1) < 0)
        goto done;
    {
        const int64_t *masks = b[0].b.buf;
        for (Py_ssize_t i = 0; i < NELEM(b[0]); i++)
            if (masks[i] < 0 || masks[i] >= nmask) {
                PyErr_SetString(PyExc_ValueError, "skip_layer: a mask out of range");
                goto done;
            }
    }
    SkipArg a = {b[0].b.buf, b[1].b.buf, rowlen, tile};
    const int64_t n = NELEM(b[0]);
    Job job = {.T = T, .total = n, .chunk = MAX(tile, n / (4 * MAX(threads, 1))),
               .fn = skip_job, .init = skip_init, .done = scratch_job_done, .arg = &a};
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = job_run(&job, threads);
    Py_END_ALLOW_THREADS if (rc < 0)
    {
        PyErr_NoMemory();
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 2);
    return ret;
}

/* ------------------------------------------------------------------------- */
/* Target tables: the best chance of reaching a total (target.py)              */

/* The chances of one state are Q[off[j] + s - wlo[j]] for s in its window
 * [wlo[j], wlo[j] + wlen[j]); below it 0, from its end on 1 (j = mask * A + aux).
 * Q is float64 or float32 (q32). A turn is solved for TQW totals side by side. */
#define TQW 32

typedef struct {
    const int64_t *off, *wlo, *wlen;
    const void *Q;
    void *Qw;
    int q32;
    int64_t A;
    int64_t cells;
} TQ;

/* Whether state j's window lies within Q (checked for every state a kernel reads:
 * the index arrays cover every card state of the variant, a table only a few). */
static inline int tq_ok(const TQ *q, int64_t j)
{
    const int64_t len = q->wlen[j];
    return len == 0 || (len > 0 && q->off[j] >= 0 && q->off[j] + len <= q->cells);
}

static inline double tq_get(const TQ *q, int64_t j, int64_t x)
{
    const int64_t lo = q->wlo[j];
    if (x < lo)
        return 0.0;
    if (x >= lo + q->wlen[j])
        return 1.0;
    const int64_t i = q->off[j] + x - lo;
    return q->q32 ? (double)((const float *)q->Q)[i] : ((const double *)q->Q)[i];
}

/* Scratch of one thread: the keep sweep (K: nall x TQW), the state's placements
 * (outcome d's are pk[pd[d]..pd[d + 1]]: successor slot and points) and, per
 * successor state (slot), the part of its row a tile reads, padded with 0 below
 * its window and 1 above (buf). */
typedef struct {
    void *K;
    int64_t *pd, *pslot, *pgain;
    int64_t *sj, *sgmin, *sgmax, *soff;
    int64_t nslot, cap_slot;
    void *buf;
    int64_t cap_buf;
    int64_t *slot_of; /* (nbox + 1) * A: slot of a successor + 1, 0 for none yet */
} TScratch;

static void tscratch_free(TScratch *s)
{
    if (s == NULL)
        return;
    free(s->K);
    free(s->pd);
    free(s->pslot);
    free(s->pgain);
    free(s->sj);
    free(s->sgmin);
    free(s->sgmax);
    free(s->soff);
    free(s->buf);
    free(s->slot_of);
    free(s);
}

static TScratch *tscratch_new(const Tables *T, int64_t A)
{
    TScratch *s = calloc(1, sizeof(TScratch));
    if (s == NULL)
        return NULL;
    const int64_t np = T->nfull * (T->nbox + 1);
    s->cap_slot = (T->nbox + 1) * A;
    s->K = alloc64((size_t)T->nall * TQW * sizeof(double));
    s->pd = malloc((size_t)(T->nfull + 1) * sizeof(int64_t));
    s->pslot = malloc((size_t)np * sizeof(int64_t));
    s->pgain = malloc((size_t)np * sizeof(int64_t));
    s->sj = malloc((size_t)s->cap_slot * sizeof(int64_t));
    s->sgmin = malloc((size_t)s->cap_slot * sizeof(int64_t));
    s->sgmax = malloc((size_t)s->cap_slot * sizeof(int64_t));
    s->soff = malloc((size_t)s->cap_slot * sizeof(int64_t));
    s->slot_of = calloc((size_t)s->cap_slot, sizeof(int64_t));
    if (s->K == NULL || s->pd == NULL || s->pslot == NULL || s->pgain == NULL || s->sj == NULL
        || s->sgmin == NULL || s->sgmax == NULL || s->soff == NULL || s->slot_of == NULL) {
        tscratch_free(s);
        return NULL;
    }
    return s;
}

/* The placements of state (m, a) (the same for every total so far): returns 0, or -1
 * when the row buffer cannot grow. */
static int target_placements(const Tables *T, const TQ *q, int64_t m, int64_t a, TScratch *S,
                             size_t real)
{
    const int64_t U = T->U, u = a % U, flag = a / U, A = q->A, rep = repeat_points(T, m);
    int64_t np = 0;
    int bad = !tq_ok(q, m * A + a);
    S->nslot = 0;
    for (int64_t d = 0; d < T->nfull; d++) {
        S->pd[d] = np;
        int64_t restrict_;
        int lower_only, jok;
        joker_rules(T, m, d, &restrict_, &lower_only, &jok);
        const int64_t extra = yacht_extra(T, m, flag, d);
        for (int64_t b = 0; b <= T->nbox; b++) {
            int64_t g, key;
            if (b == T->nbox) { /* a repeat: the state itself, rep points on */
                if (rep <= 0 || !T->is_yacht[d])
                    continue;
                g = rep;
                key = T->nbox * A + a;
            } else {
                int64_t u2, f2;
                if (((m >> b) & 1)
                    || !place_box(T, u, flag, d, b, restrict_, lower_only, jok, extra, &g, &u2,
                                  &f2))
                    continue;
                key = b * A + f2 * U + u2;
            }
            int64_t slot = S->slot_of[key] - 1;
            if (slot < 0) {
                slot = S->nslot++;
                S->slot_of[key] = slot + 1;
                S->sj[slot] = b == T->nbox ? m * A + a : (m | ((int64_t)1 << b)) * A + (key - b * A);
                if (!tq_ok(q, S->sj[slot]))
                    bad = 1;
                S->sgmin[slot] = g;
                S->sgmax[slot] = g;
            } else {
                S->sgmin[slot] = MIN(S->sgmin[slot], g);
                S->sgmax[slot] = MAX(S->sgmax[slot], g);
            }
            S->pslot[np] = slot;
            S->pgain[np] = g;
            np++;
        }
    }
    S->pd[T->nfull] = np;
    int64_t need = 0;
    for (int64_t k = 0; k < S->nslot; k++) {
        S->soff[k] = need;
        need += S->sgmax[k] - S->sgmin[k] + TQW;
        /* forget the slot keys for the next state */
        const int64_t j = S->sj[k], m2 = j / A, a2 = j % A;
        const int64_t b = m2 == m ? T->nbox : __builtin_ctzll((unsigned long long)(m2 ^ m));
        S->slot_of[b * A + a2] = 0;
    }
    if (bad)
        return -2;
    if (need > S->cap_buf) {
        void *nb = realloc(S->buf, (size_t)need * real);
        if (nb == NULL)
            return -1;
        S->buf = nb;
        S->cap_buf = need;
    }
    return 0;
}

/* The kernel of one state's window, for K (and Q) of double or float: a table
 * stored in float32 is solved in float32 (twice the numbers per vector; the chances
 * are then exact to about 1e-6), one in float64 in float64. */
#define DEFINE_TARGET_STATE(NAME, REAL)                                                        \
    static int NAME(const Tables *T, const TQ *q, int64_t m, int64_t a, TScratch *S)           \
    {                                                                                          \
        const int64_t A = q->A, j0 = m * A + a, L = q->wlen[j0], s_lo = q->wlo[j0];            \
        const int64_t top = s_lo + L, base = q->off[j0], rep = repeat_points(T, m);            \
        const int64_t fs = T->full_start, nfull = T->nfull, F = T->faces;                      \
        const REAL inv = (REAL)(1.0 / (double)F);                                              \
        const REAL *Q = (const REAL *)q->Q;                                                    \
        REAL *Qw = (REAL *)q->Qw;                                                              \
        REAL *K = S->K;                                                                        \
        const int placed = target_placements(T, q, m, a, S, sizeof(REAL));                    \
        if (placed < 0)                                                                        \
            return placed;                                                                     \
        REAL *buf = S->buf;                                                                    \
        int64_t W = TQW;                                                                       \
        if (rep > 0 && rep < W)                                                                \
            W = rep;                                                                           \
        for (int64_t t_hi = top; t_hi > s_lo;) {                                               \
            const int64_t t_lo = MAX(s_lo, t_hi - W), w = t_hi - t_lo;                         \
            /* each successor's row from t_lo + its least gain on, padded */                  \
            for (int64_t k = 0; k < S->nslot; k++) {                                           \
                const int64_t j = S->sj[k], lo = q->wlo[j], hi = lo + q->wlen[j];              \
                const int64_t x0 = t_lo + S->sgmin[k];                                         \
                const int64_t n = S->sgmax[k] - S->sgmin[k] + TQW;                             \
                REAL *dst = buf + S->soff[k];                                                  \
                int64_t i0 = lo - x0, i1 = hi - x0;                                            \
                i0 = i0 < 0 ? 0 : (i0 > n ? n : i0);                                           \
                i1 = i1 < i0 ? i0 : (i1 > n ? n : i1);                                         \
                for (int64_t i = 0; i < i0; i++)                                               \
                    dst[i] = 0;                                                                \
                const REAL *src = (j == j0 ? (const REAL *)Qw : Q) + (q->off[j] + x0 - lo);    \
                for (int64_t i = i0; i < i1; i++)                                              \
                    dst[i] = src[i];                                                           \
                for (int64_t i = i1; i < n; i++)                                               \
                    dst[i] = 1;                                                                \
            }                                                                                  \
            for (int64_t d = 0; d < nfull; d++) {                                              \
                REAL *restrict row = K + (fs + d) * TQW;                                       \
                for (int64_t i = 0; i < TQW; i++)                                              \
                    row[i] = 0;                                                                \
                for (int64_t p = S->pd[d]; p < S->pd[d + 1]; p++) {                            \
                    const int64_t k = S->pslot[p];                                             \
                    const REAL *restrict src = buf + S->soff[k] + (S->pgain[p] - S->sgmin[k]); \
                    for (int64_t i = 0; i < TQW; i++)                                          \
                        row[i] = src[i] > row[i] ? src[i] : row[i];                            \
                }                                                                              \
            }                                                                                  \
            for (int64_t level = 0; level < T->rolls; level++) {                               \
                if (level == T->rolls - 1) {                                                   \
                    REAL acc[TQW];                                                             \
                    for (int64_t i = 0; i < TQW; i++)                                          \
                        acc[i] = 0;                                                            \
                    for (int64_t d = 0; d < nfull; d++) {                                      \
                        const REAL p = (REAL)T->prob[d];                                       \
                        const REAL *row = K + (fs + d) * TQW;                                  \
                        for (int64_t i = 0; i < TQW; i++)                                      \
                            acc[i] += p * row[i];                                              \
                    }                                                                          \
                    REAL *dst = Qw + base + (t_lo - s_lo);                                     \
                    for (int64_t i = 0; i < w; i++)                                            \
                        dst[i] = acc[i];                                                       \
                    break;                                                                     \
                }                                                                              \
                for (int64_t s = fs - 1; s >= 0; s--) {                                        \
                    REAL *restrict krow = K + s * TQW;                                         \
                    const int64_t *up = T->up + s * F;                                         \
                    REAL acc[TQW];                                                             \
                    const REAL *src = K + up[0] * TQW;                                         \
                    for (int64_t i = 0; i < TQW; i++)                                          \
                        acc[i] = src[i];                                                       \
                    for (int64_t f = 1; f < F; f++) {                                          \
                        src = K + up[f] * TQW;                                                 \
                        for (int64_t i = 0; i < TQW; i++)                                      \
                            acc[i] += src[i];                                                  \
                    }                                                                          \
                    for (int64_t i = 0; i < TQW; i++)                                          \
                        krow[i] = acc[i] * inv;                                                \
                }                                                                              \
                /* the best of s and every sub-multiset (pairs by s ascending) */              \
                for (int64_t p = 0; p < T->npairs; p++) {                                      \
                    REAL *restrict krow = K + T->pairs[2 * p] * TQW;                           \
                    const REAL *restrict trow = K + T->pairs[2 * p + 1] * TQW;                 \
                    for (int64_t i = 0; i < TQW; i++)                                          \
                        krow[i] = trow[i] > krow[i] ? trow[i] : krow[i];                       \
                }                                                                              \
            }                                                                                  \
            t_hi = t_lo;                                                                       \
        }                                                                                      \
        return 0;                                                                              \
    }

DEFINE_TARGET_STATE(target_state_d, double)
DEFINE_TARGET_STATE(target_state_f, float)

typedef struct {
    TQ q;
    const int64_t *sm, *sa;
    int bad; /* a window out of range (set by a worker) */
} TargetArg;

static int target_init(Job *job, void **state)
{
    const TargetArg *a = job->arg;
    TScratch *s = tscratch_new(job->T, a->q.A);
    if (s == NULL)
        return -1;
    *state = s;
    return 0;
}

static void target_done(void *state) { tscratch_free(state); }

static int target_job(Job *job, void *state, int64_t lo, int64_t hi)
{
    const TargetArg *a = job->arg;
    for (int64_t i = lo; i < hi; i++) {
        const int rc = a->q.q32 ? target_state_f(job->T, &a->q, a->sm[i], a->sa[i], state)
                                : target_state_d(job->T, &a->q, a->sm[i], a->sa[i], state);
        if (rc == -2)
            __atomic_store_n(&((TargetArg *)job->arg)->bad, 1, __ATOMIC_SEQ_CST);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Q as float64 ('d') or float32 ('f'): the check and the flag */
static int tq_buffers(const Tables *T, PyObject *offo, PyObject *wloo, PyObject *wleno,
                      PyObject *Qo, int64_t A, int writable, Buf *b, TQ *q)
{
    const int64_t n = ((int64_t)1 << T->nbox) * A;
    if (buf_get(offo, &b[0], "off", 'i', n, 0) < 0 || buf_get(wloo, &b[1], "wlo", 'i', n, 0) < 0
        || buf_get(wleno, &b[2], "wlen", 'i', n, 0) < 0)
        return -1;
    b[3].held = 0;
    if (PyObject_GetBuffer(Qo, &b[3].b,
                           PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0))
        < 0)
        return -1;
    b[3].held = 1;
    const char *fmt = b[3].b.format ? b[3].b.format : "B";
    if (*fmt == '<' || *fmt == '=' || *fmt == '@')
        fmt++;
    int q32;
    if (b[3].b.itemsize == 4 && *fmt == 'f')
        q32 = 1;
    else if (b[3].b.itemsize == 8 && *fmt == 'd')
        q32 = 0;
    else {
        PyErr_SetString(PyExc_TypeError, "Q: float32 or float64 expected");
        return -1;
    }
    const int64_t *off = b[0].b.buf, *wlo = b[1].b.buf, *wlen = b[2].b.buf;
    /* (the windows are checked as the kernels read them: tq_ok) */
    *q = (TQ){off, wlo, wlen, b[3].b.buf, b[3].b.buf, q32, A, NELEM(b[3])};
    return 0;
}

static PyObject *py_target_layer(PyObject *mod, PyObject *args)
{
    PyObject *to, *smo, *sao, *offo, *wloo, *wleno, *Qo;
    long long A, tile, threads;
    if (!PyArg_ParseTuple(args, "OOOLOOOOLL", &to, &smo, &sao, &A, &offo, &wloo, &wleno, &Qo,
                          &tile, &threads))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox;
    Buf b[6];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (tile != TQW || A != astride(T)) {
        PyErr_SetString(PyExc_ValueError, "target_layer: bad tile or aux stride");
        return NULL;
    }
    TargetArg a;
    a.bad = 0;
    if (tq_buffers(T, offo, wloo, wleno, Qo, A, 1, b, &a.q) < 0
        || buf_get(smo, &b[4], "sm", 'i', -1, 0) < 0
        || buf_get(sao, &b[5], "sa", 'i', NELEM(b[4]), 0) < 0)
        goto done;
    a.sm = b[4].b.buf;
    a.sa = b[5].b.buf;
    const int64_t n = NELEM(b[4]);
    for (int64_t i = 0; i < n; i++)
        if (a.sm[i] < 0 || a.sm[i] >= nmask - 1 || a.sa[i] < 0 || a.sa[i] >= A) {
            PyErr_SetString(PyExc_ValueError, "target_layer: a state out of range");
            goto done;
        }
    Job job = {.T = T, .total = n, .chunk = MAX(1, n / (16 * MAX(threads, 1))),
               .fn = target_job, .init = target_init, .done = target_done, .arg = &a};
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = job_run(&job, threads);
    Py_END_ALLOW_THREADS if (rc < 0)
    {
        if (a.bad)
            PyErr_SetString(PyExc_ValueError, "target: a window out of range");
        else
            PyErr_NoMemory();
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 6);
    return ret;
}

/* One turn for decisions: B[d, b] the chance after scoring outcome d in box b (-1: not
 * allowed; column nbox: a repeat), E0[d] the best, Ks the keep chances (keep_levels). */
static PyObject *py_target_turn(PyObject *mod, PyObject *args)
{
    PyObject *to, *offo, *wloo, *wleno, *Qo, *Eo, *Ko, *Bo;
    long long m, a, s, A;
    if (!PyArg_ParseTuple(args, "OLLLLOOOOOOO", &to, &m, &a, &s, &A, &offo, &wloo, &wleno, &Qo,
                          &Eo, &Ko, &Bo))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    const Tables *T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox, U = T->U;
    Buf b[7];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    if (m < 0 || m >= nmask - 1 || a < 0 || a >= A || A != astride(T)) {
        PyErr_SetString(PyExc_ValueError, "target_turn: state out of range");
        return NULL;
    }
    TQ q;
    if (tq_buffers(T, offo, wloo, wleno, Qo, A, 0, b, &q) < 0
        || buf_get(Eo, &b[4], "E0", 'd', T->nfull, 1) < 0
        || buf_get(Ko, &b[5], "Ks", 'd', T->rolls * T->nall, 1) < 0
        || buf_get(Bo, &b[6], "B", 'd', T->nfull * (T->nbox + 1), 1) < 0)
        goto done;
    if (!tq_ok(&q, m * A + a)) {
        PyErr_SetString(PyExc_ValueError, "target: a window out of range");
        goto done;
    }
    for (int64_t bx = 0; bx < T->nbox; bx++) /* every successor state the turn can read */
        if (!((m >> bx) & 1))
            for (int64_t a2 = 0; a2 < A; a2++)
                if (!tq_ok(&q, (m | ((int64_t)1 << bx)) * A + a2)) {
                    PyErr_SetString(PyExc_ValueError, "target: a window out of range");
                    goto done;
                }
    {
        double *E0 = b[4].b.buf, *B = b[6].b.buf;
        const int64_t u = a % U, flag = a / U, rep = repeat_points(T, m), nb = T->nbox + 1;
        for (int64_t d = 0; d < T->nfull; d++) {
            double best = 0.0;
            int64_t restrict_;
            int lower_only, jok;
            joker_rules(T, m, d, &restrict_, &lower_only, &jok);
            const int64_t extra = yacht_extra(T, m, flag, d);
            for (int64_t k = 0; k < nb; k++)
                B[d * nb + k] = -1.0;
            for (int64_t bx = 0; bx < T->nbox; bx++) {
                if ((m >> bx) & 1)
                    continue;
                int64_t g, u2, f2;
                if (!place_box(T, u, flag, d, bx, restrict_, lower_only, jok, extra, &g, &u2,
                               &f2))
                    continue;
                const double v = tq_get(&q, (m | ((int64_t)1 << bx)) * A + f2 * U + u2, s + g);
                B[d * nb + bx] = v;
                best = v > best ? v : best;
            }
            if (rep > 0 && T->is_yacht[d]) {
                const double v = tq_get(&q, m * A + a, s + rep);
                B[d * nb + T->nbox] = v;
                best = v > best ? v : best;
            }
            E0[d] = best;
        }
        keep_levels(T, E0, b[5].b.buf, T->rolls, roll_cost(T, m));
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    buf_release(b, 7);
    return ret;
}

/* ------------------------------------------------------------------------- */
/* Single situations for Python (the Advisor type)                            */

#include "_native_advice.h"

/* Situations from text in bulk, and single texts with extra points */

#include "_native_bulk.h"

/* Score distributions, one layer at a time */

#include "_native_dist.h"

/* ------------------------------------------------------------------------- */

static int cpu_ok(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
#if defined(__AVX512F__)
    if (!__builtin_cpu_supports("avx512f"))
        return 0;
#endif
#if defined(__AVX2__)
    if (!__builtin_cpu_supports("avx2"))
        return 0;
#endif
#if defined(__FMA__)
    if (!__builtin_cpu_supports("fma"))
        return 0;
#endif
#if defined(__AVX__)
    if (!__builtin_cpu_supports("avx"))
        return 0;
#endif
#if defined(__SSE4_2__)
    if (!__builtin_cpu_supports("sse4.2"))
        return 0;
#endif
#endif
    return 1;
}

static PyMethodDef methods[] = {
    {"build_layer", py_build_layer, METH_VARARGS,
     "build_layer(tables, layer, Vp, S, ulo, usub, uoff, ulist, nflag, tile, threads, chunk): "
     "solve one layer of masks into the padded table Vp."},
    {"build_repeat_layer", py_build_repeat_layer, METH_VARARGS,
     "build_repeat_layer(tables, layer, V, umax, threads): one layer, mask by mask (repeat "
     "box)."},
    {"option_values", py_option_values, METH_VARARGS,
     "option_values(tables, V, masks, auxs, outcomes, rolls_left, keep_out, box_out, tile, "
     "threads)"},
    {"state_turn", py_state_turn, METH_VARARGS, "state_turn(tables, V, mask, aux, E0, Ks)"},
    {"situation", (PyCFunction)(void (*)(void))py_situation, METH_FASTCALL,
     "situation(tables, V, mask, aux, outcome, rolls_left, keep_out, box_out): the option "
     "values of one situation."},
    {"play", (PyCFunction)(void (*)(void))py_play, METH_VARARGS | METH_KEYWORDS,
     "play(tables, V, games, seed, start, forced, fkeep, totals, bonus, yachts, lockstep, "
     "tile, threads)"},
    {"skip_layer", py_skip_layer, METH_VARARGS,
     "skip_layer(tables, layer, V, rowlen, tile, threads): the skip relaxation, one layer."},
    {"target_layer", py_target_layer, METH_VARARGS,
     "target_layer(tables, sm, sa, A, off, wlo, wlen, Q, tile, threads): the chances of "
     "reaching a target, states of one layer."},
    {"target_turn", py_target_turn, METH_VARARGS,
     "target_turn(tables, mask, aux, points, A, off, wlo, wlen, Q, E0, Ks, B): one turn's "
     "chances."},
    {"dist_chunk", (PyCFunction)(void (*)(void))py_dist_chunk, METH_VARARGS | METH_KEYWORDS,
     "dist_chunk(*, tables, V, states, auxs, start, stop, ulo, off, dlo, dlen, P, eps, width, "
     "buf, out_lo, out_len, out_pos): the score distributions of states start..stop-1 of a "
     "layer into buf; returns the first state left undone."},
    {"dist_quantize", py_dist_quantize, METH_VARARGS,
     "dist_quantize(P, pos, lo, length, C, coff, first, kept, steps): distributions laid "
     "out in P in order of pos as cumulative chances in steps of 1/steps, cut to those "
     "strictly between 0 and 1 (written to C, coff, first, kept); returns the count in C."},
    {"situations_text", (PyCFunction)(void (*)(void))py_situations_text, METH_FASTCALL,
     "situations_text(advisor, texts, earn, turns, masks, auxs, outcomes, rolls, totals, "
     "ruleset): texts in the plain form and Situation objects as the batch kernel's "
     "numbers; returns how many it left."},
    {"text_extra", (PyCFunction)(void (*)(void))py_text_extra, METH_FASTCALL,
     "text_extra(advisor, text, earn, turns, best_only): options_text for a card with "
     "extra points."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_native",
    "The solver's kernels in C (see backend.py); built at install, optional.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (!cpu_ok()) {
        PyErr_SetString(PyExc_ImportError,
                        "yacht's native solver was compiled for another processor");
        return NULL;
    }
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&AdvisorType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL)
        return NULL;
#ifndef YACHT_SOURCE_HASH
#define YACHT_SOURCE_HASH ""
#endif
    if (PyModule_AddIntConstant(m, "API_VERSION", 4) < 0
        || PyModule_AddStringConstant(m, "SOURCE_HASH", YACHT_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&AdvisorType);
    if (PyModule_AddObject(m, "Advisor", (PyObject *)&AdvisorType) < 0) {
        Py_DECREF(&AdvisorType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
