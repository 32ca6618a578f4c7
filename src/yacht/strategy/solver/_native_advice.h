/* Single situations from Python with the least in the way: the Advisor type.
 * Included once by _native.c, after the tile kernels.
 *
 * An Advisor holds one table (its Tables and V) and what Python needs back:
 * the result types, the box ids, the kept dice of every multiset, and the
 * card notation's box names and possible values. Every method either answers
 * or returns None, and then the caller takes its general Python path (which
 * gives the same answer, or the error message): anything unusual is left to
 * Python. No method releases the GIL; the scratch is the object's own.
 *
 *   options_text(text) / best_text(text): "13356 r2 ones=3,fours=12" in the
 *     plain form (dice digits, rN, a card of box=points items), the options as
 *     the API's Option tuples, best first (the batch kernel's values, as
 *     SolvedVariant.options gives them), or the best one.
 *   options(card, turn, dice, rolls_left) / best(...): the same from objects.
 *   rank(card, turn, dice, rolls_left): the advisor's ranking (Ranked objects),
 *     computed exactly as advisor.advise_card does: the engine's placements
 *     and points (the solver's joker and bonus rules), the keeps of
 *     state_turn's tables, the same sums in the same order.
 */

#include <structmember.h>

#define OPEN_BOX INT64_MIN

enum { R_KIND, R_EXPECTED, R_LOSS, R_KEEP, R_REROLL, R_CATEGORY, R_COLUMN, R_POINTS, R_N };
static const char *const ranked_fields[R_N] = {"kind",   "expected", "loss",   "keep",
                                               "reroll", "category", "column", "points"};

typedef struct {
    PyObject_HEAD PyObject *tables; /* the TablesObject */
    const Tables *T;
    Py_buffer vbuf;
    int vheld;
    const double *V;
    PyObject *opt_type;        /* the API's Option (a tuple of 6), or NULL */
    PyTypeObject *ranked_type; /* advisor.Ranked (8 slots), or NULL */
    Py_ssize_t roff[R_N];      /* its slots' offsets */
    PyObject *s_keep, *s_score, *s_boxes, *s_extra, *empty;
    PyObject *box_id, *box_col, *dice_of; /* tuples: nbox str, nbox int, nall tuples */
    PyObject *positions; /* tuple: for every set of dice positions (bits), their tuple */
    char *names;                          /* the card notation's box names */
    int64_t *name_off, *name_len;
    uint8_t *allowed; /* ncat rows of amax - amin flags: the values a box can hold */
    int64_t amin, amax, ncat, ncols, forced_box, has_bonus, bonus_need, bonus_amt;
    int64_t *rep_raw; /* per box: the repeat box's points (before the multiplier), or 0 */
    int options_ok, rank_ok, rows_ok, text_ok, busy;
    Scratch sc; /* tile 1 */
    double *keepv, *boxv, *vals, *E0, *Ks;
    int64_t *order, *tmp, *ref, *pts;
    int64_t cap; /* entries of vals/order/tmp/ref/pts */
} AdvisorObject;

static void advisor_dealloc(AdvisorObject *self)
{
    if (self->vheld)
        PyBuffer_Release(&self->vbuf);
    Py_XDECREF(self->tables);
    Py_XDECREF(self->opt_type);
    Py_XDECREF(self->ranked_type);
    Py_XDECREF(self->s_keep);
    Py_XDECREF(self->s_score);
    Py_XDECREF(self->s_boxes);
    Py_XDECREF(self->s_extra);
    Py_XDECREF(self->empty);
    Py_XDECREF(self->box_id);
    Py_XDECREF(self->box_col);
    Py_XDECREF(self->dice_of);
    Py_XDECREF(self->positions);
    free(self->names);
    free(self->name_off);
    free(self->name_len);
    free(self->allowed);
    free(self->rep_raw);
    scratch_free(&self->sc);
    free(self->keepv);
    free(self->boxv);
    free(self->vals);
    free(self->E0);
    free(self->Ks);
    free(self->order);
    free(self->tmp);
    free(self->ref);
    free(self->pts);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A tuple field of the data record with `count` items (-1: any). */
static PyObject *data_tuple(PyObject *data, const char *name, Py_ssize_t count)
{
    PyObject *v = PyObject_GetAttrString(data, name);
    if (v == NULL)
        return NULL;
    if (!PyTuple_Check(v) || (count >= 0 && PyTuple_GET_SIZE(v) != count)) {
        Py_DECREF(v);
        PyErr_Format(PyExc_ValueError, "advisor data: %s must be a tuple of %zd", name, count);
        return NULL;
    }
    return v;
}

/* The slot offsets of Ranked (a dataclass with slots): 0 if it has none. */
static int ranked_offsets(AdvisorObject *self)
{
    for (int i = 0; i < R_N; i++) {
        PyObject *d = PyDict_GetItemString(self->ranked_type->tp_dict, ranked_fields[i]);
        if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type)
            return 0;
        PyMemberDef *md = ((PyMemberDescrObject *)d)->d_member;
        if (md->type != T_OBJECT_EX || (md->flags & READONLY))
            return 0;
        self->roff[i] = md->offset;
    }
    return 1;
}

static PyObject *advisor_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *to, *Vo, *data;
    static char *kwlist[] = {"tables", "V", "data", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO", kwlist, &to, &Vo, &data))
        return NULL;
    if (check_tables(to) < 0)
        return NULL;
    AdvisorObject *self = (AdvisorObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(to);
    self->tables = to;
    const Tables *T = self->T = &((TablesObject *)to)->t;
    const int64_t nmask = (int64_t)1 << T->nbox, A = astride(T);
    PyObject *v = NULL;
    if (PyObject_GetBuffer(Vo, &self->vbuf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        goto fail;
    self->vheld = 1;
    if (check_buffer(&self->vbuf, "V", 'd', nmask * A, 0) < 0)
        goto fail;
    self->V = self->vbuf.buf;
#define GETINT(field, name)                                                                    \
    if (get_int(data, name, &self->field) < 0)                                                 \
        goto fail;
    GETINT(ncat, "ncat") GETINT(forced_box, "forced_box") GETINT(has_bonus, "has_bonus")
    GETINT(bonus_need, "bonus_need") GETINT(bonus_amt, "bonus_amount")
#undef GETINT
    {
        int64_t x;
        if (get_int(data, "options_ok", &x) < 0)
            goto fail;
        self->options_ok = x != 0;
        if (get_int(data, "rows_ok", &x) < 0)
            goto fail;
        self->rows_ok = x != 0;
    }
    if (self->ncat < 1 || T->nbox % self->ncat != 0) {
        PyErr_SetString(PyExc_ValueError, "advisor data: ncat does not divide the boxes");
        goto fail;
    }
    self->ncols = T->nbox / self->ncat;
    self->text_ok = T->faces < 10;
    if ((self->s_keep = PyUnicode_InternFromString("keep")) == NULL
        || (self->s_score = PyUnicode_InternFromString("score")) == NULL
        || (self->s_boxes = PyUnicode_InternFromString("boxes")) == NULL
        || (self->s_extra = PyUnicode_InternFromString("extra")) == NULL
        || (self->empty = PyTuple_New(0)) == NULL)
        goto fail;
    if ((self->box_id = data_tuple(data, "box_ids", T->nbox)) == NULL
        || (self->box_col = data_tuple(data, "box_cols", T->nbox)) == NULL
        || (self->dice_of = data_tuple(data, "dice_of", T->nall)) == NULL)
        goto fail;
    /* the positions to roll again: one shared tuple per set (n <= 12) */
    if (T->n <= 12) {
        const Py_ssize_t count = (Py_ssize_t)1 << T->n;
        if ((self->positions = PyTuple_New(count)) == NULL)
            goto fail;
        for (Py_ssize_t bits = 0; bits < count; bits++) {
            PyObject *tup = PyTuple_New(__builtin_popcountll((unsigned long long)bits));
            if (tup == NULL)
                goto fail;
            Py_ssize_t at = 0;
            for (int64_t p = 0; p < T->n; p++)
                if ((bits >> p) & 1) {
                    PyObject *x = PyLong_FromLongLong(p);
                    if (x == NULL) {
                        Py_DECREF(tup);
                        goto fail;
                    }
                    PyTuple_SET_ITEM(tup, at++, x);
                }
            PyTuple_SET_ITEM(self->positions, bits, tup);
        }
    }
    /* the result types */
    v = PyObject_GetAttrString(data, "option_type");
    if (v == NULL)
        goto fail;
    if (v != Py_None) {
        if (!PyType_Check(v) || !PyType_IsSubtype((PyTypeObject *)v, &PyTuple_Type)) {
            PyErr_SetString(PyExc_TypeError, "advisor data: option_type must be a tuple type");
            goto fail;
        }
        self->opt_type = v;
        v = NULL;
    }
    Py_CLEAR(v);
    v = PyObject_GetAttrString(data, "ranked_type");
    if (v == NULL)
        goto fail;
    if (v != Py_None) {
        if (!PyType_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "advisor data: ranked_type must be a type");
            goto fail;
        }
        self->ranked_type = (PyTypeObject *)v;
        v = NULL;
        self->rank_ok = ranked_offsets(self);
    }
    Py_CLEAR(v);
    /* the card notation: one name per box, the values each category can hold */
    {
        PyObject *names = data_tuple(data, "names", T->nbox);
        if (names == NULL)
            goto fail;
        size_t total = 0;
        for (int64_t b = 0; b < T->nbox; b++) {
            Py_ssize_t len;
            if (PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(names, b), &len) == NULL) {
                Py_DECREF(names);
                goto fail;
            }
            total += (size_t)len + 1;
        }
        self->names = malloc(total);
        self->name_off = malloc((size_t)T->nbox * sizeof(int64_t));
        self->name_len = malloc((size_t)T->nbox * sizeof(int64_t));
        if (!self->names || !self->name_off || !self->name_len) {
            Py_DECREF(names);
            PyErr_NoMemory();
            goto fail;
        }
        size_t at = 0;
        for (int64_t b = 0; b < T->nbox; b++) {
            Py_ssize_t len;
            const char *s = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(names, b), &len);
            memcpy(self->names + at, s, (size_t)len + 1);
            self->name_off[b] = (int64_t)at;
            self->name_len[b] = len;
            at += (size_t)len + 1;
        }
        Py_DECREF(names);
    }
    {
        PyObject *allowed = data_tuple(data, "allowed", self->ncat);
        if (allowed == NULL)
            goto fail;
        int64_t top = 0, low = 0;
        for (int64_t i = 0; i < self->ncat; i++) {
            PyObject *row = PyTuple_GET_ITEM(allowed, i);
            if (!PyTuple_Check(row)) {
                Py_DECREF(allowed);
                PyErr_SetString(PyExc_ValueError, "advisor data: allowed holds tuples");
                goto fail;
            }
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(row); j++) {
                long long x = PyLong_AsLongLong(PyTuple_GET_ITEM(row, j));
                if (x == -1 && PyErr_Occurred()) {
                    Py_DECREF(allowed);
                    goto fail;
                }
                if (x > top && x < 1000000)
                    top = x;
                if (x < low && x > -1000000)
                    low = x;
            }
        }
        self->amin = low;
        self->amax = top + 1;
        const int64_t w = self->amax - self->amin;
        self->allowed = calloc((size_t)(self->ncat * w), 1);
        if (self->allowed == NULL) {
            Py_DECREF(allowed);
            PyErr_NoMemory();
            goto fail;
        }
        for (int64_t i = 0; i < self->ncat; i++) {
            PyObject *row = PyTuple_GET_ITEM(allowed, i);
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(row); j++) {
                long long x = PyLong_AsLongLong(PyTuple_GET_ITEM(row, j));
                if (x >= self->amin && x < self->amax)
                    self->allowed[i * w + (x - self->amin)] = 1;
            }
        }
        Py_DECREF(allowed);
    }
    {
        PyObject *rep = data_tuple(data, "rep_raw", T->nbox);
        if (rep == NULL)
            goto fail;
        self->rep_raw = calloc((size_t)T->nbox, sizeof(int64_t));
        if (self->rep_raw == NULL) {
            Py_DECREF(rep);
            PyErr_NoMemory();
            goto fail;
        }
        for (int64_t b = 0; b < T->nbox; b++) {
            long long x = PyLong_AsLongLong(PyTuple_GET_ITEM(rep, b));
            if (x == -1 && PyErr_Occurred()) {
                Py_DECREF(rep);
                goto fail;
            }
            self->rep_raw[b] = x;
        }
        Py_DECREF(rep);
    }
    /* scratch */
    self->cap = 2 * T->nbox + T->subw + 8;
    if (scratch_init(&self->sc, T, 1, T->rolls) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    self->keepv = malloc((size_t)MAX(T->subw, 1) * sizeof(double));
    self->boxv = malloc((size_t)T->nbox * sizeof(double));
    self->vals = malloc((size_t)self->cap * sizeof(double));
    self->E0 = malloc((size_t)T->nfull * sizeof(double));
    self->Ks = malloc((size_t)(T->rolls * T->nall) * sizeof(double));
    self->order = malloc((size_t)self->cap * sizeof(int64_t));
    self->tmp = malloc((size_t)self->cap * sizeof(int64_t));
    self->ref = malloc((size_t)self->cap * sizeof(int64_t));
    self->pts = malloc((size_t)self->cap * sizeof(int64_t));
    if (!self->keepv || !self->boxv || !self->vals || !self->E0 || !self->Ks || !self->order
        || !self->tmp || !self->ref || !self->pts) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_XDECREF(v);
    Py_DECREF(self);
    return NULL;
}

/* --- reading a situation ------------------------------------------------------- */

/* The card of the notation's plain form ("ones=3,col2:chance=20"): vals[b]
 * (OPEN_BOX while open), no extra points. 0, or -1 for anything else (an
 * unknown or repeated box, a value the box cannot hold, spaces, extra=N). */
static int parse_card_text(const AdvisorObject *self, const char *s, Py_ssize_t n,
                           int64_t *vals, int64_t *extra)
{
    const Tables *T = self->T;
    for (int64_t b = 0; b < T->nbox; b++)
        vals[b] = OPEN_BOX;
    *extra = 0;
    if (n == 0)
        return 0;
    Py_ssize_t i = 0;
    for (;;) {
        Py_ssize_t j = i, eq = -1;
        while (j < n && s[j] != ',') {
            if (eq < 0 && s[j] == '=')
                eq = j;
            j++;
        }
        const int neg = eq >= 0 && eq + 1 < j && s[eq + 1] == '-';
        if (eq < 0 || j - eq - 1 - neg < 1 || j - eq - 1 - neg > 6)
            return -1;
        int64_t value = 0;
        for (Py_ssize_t k = eq + 1 + neg; k < j; k++) {
            if (s[k] < '0' || s[k] > '9')
                return -1;
            value = value * 10 + (s[k] - '0');
        }
        if (neg)
            value = -value;
        const char *name = s + i;
        const Py_ssize_t len = eq - i;
        int64_t box = -1; /* (extra=N is left to the card parser: it checks it) */
        for (int64_t b = 0; b < T->nbox; b++)
            if (self->name_len[b] == len
                && memcmp(self->names + self->name_off[b], name, (size_t)len) == 0) {
                box = b;
                break;
            }
        if (box < 0 || vals[box] != OPEN_BOX)
            return -1;
        const int64_t cat = box % self->ncat;
        if (value < self->amin || value >= self->amax
            || !self->allowed[cat * (self->amax - self->amin) + (value - self->amin)])
            return -1;
        vals[box] = value;
        if (j == n)
            return 0;
        i = j + 1;
    }
}

/* The card of a Scorecard object (boxes: a tuple of column tuples of int or None,
 * extra: an int). 0, or -1 (no exception set) for anything else. */
static int read_card(const AdvisorObject *self, PyObject *card, int64_t *vals, int64_t *extra)
{
    int rc = -1;
    PyObject *boxes = PyObject_GetAttr(card, self->s_boxes);
    PyObject *ex = boxes ? PyObject_GetAttr(card, self->s_extra) : NULL;
    if (ex == NULL) {
        PyErr_Clear();
        goto done;
    }
    if (!PyTuple_CheckExact(boxes) || PyTuple_GET_SIZE(boxes) != self->ncols
        || !PyLong_CheckExact(ex))
        goto done;
    {
        int overflow;
        const long long e = PyLong_AsLongLongAndOverflow(ex, &overflow);
        if (overflow || (e == -1 && PyErr_Occurred()) || e < -(1LL << 40) || e > (1LL << 40)) {
            PyErr_Clear();
            goto done;
        }
        *extra = e;
    }
    for (int64_t c = 0; c < self->ncols; c++) {
        PyObject *col = PyTuple_GET_ITEM(boxes, c);
        if (!PyTuple_CheckExact(col) || PyTuple_GET_SIZE(col) != self->ncat)
            goto done;
        for (int64_t i = 0; i < self->ncat; i++) {
            PyObject *x = PyTuple_GET_ITEM(col, i);
            if (x == Py_None) {
                vals[c * self->ncat + i] = OPEN_BOX;
                continue;
            }
            if (!PyLong_CheckExact(x))
                goto done;
            int overflow;
            const long long y = PyLong_AsLongLongAndOverflow(x, &overflow);
            if (overflow || y < -(1LL << 40) || y > (1LL << 40))
                goto done;
            vals[c * self->ncat + i] = y;
        }
    }
    rc = 0;
done:
    Py_XDECREF(boxes);
    Py_XDECREF(ex);
    return rc;
}

/* As Spec.state_of and Ruleset.totals(card).grand: the mask, the aux column and
 * the points on the card. Returns the number of filled boxes. */
static int64_t card_state(const AdvisorObject *self, const int64_t *vals, int64_t extra,
                          int64_t *m, int64_t *a, double *base)
{
    const Tables *T = self->T;
    const int64_t ncat = self->ncat;
    int64_t mask = 0, filled = 0, total = 0;
    for (int64_t b = 0; b < T->nbox; b++)
        if (vals[b] != OPEN_BOX) {
            mask |= (int64_t)1 << b;
            filled++;
        }
    for (int64_t c = 0; c < self->ncols; c++) {
        int64_t upper = 0, lower = 0;
        for (int64_t i = 0; i < ncat; i++) {
            const int64_t x = vals[c * ncat + i];
            if (x == OPEN_BOX)
                continue;
            if (T->box_upper[i])
                upper += x;
            else
                lower += x;
        }
        const int64_t bonus = self->has_bonus && upper >= self->bonus_need ? self->bonus_amt : 0;
        total += (upper + bonus + lower) * T->box_mult[c * ncat];
    }
    total += extra;
    int64_t u = 0, flag = 0;
    if (T->U > 1) {
        for (int64_t i = 0; i < ncat; i++)
            if (T->box_upper[i] && vals[i] != OPEN_BOX)
                u += vals[i];
        u = MAX(0, MIN(u, T->U - 1));
    }
    if (T->ybonus > 0) {
        const int64_t y = vals[T->ybox];
        flag = y != OPEN_BOX && y > 0;
    }
    *m = mask;
    *a = flag * T->U + u;
    *base = (double)total;
    return filled;
}

/* Dice from a tuple or list of ints: the counts and the values in order. 0, or -1. */
static int read_dice(const Tables *T, PyObject *dice, int64_t *cnt, int64_t *order)
{
    if (!PyTuple_CheckExact(dice) && !PyList_CheckExact(dice))
        return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(dice);
    if (n != T->n)
        return -1;
    for (int64_t f = 0; f < T->faces; f++)
        cnt[f] = 0;
    PyObject **items = PySequence_Fast_ITEMS(dice);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(items[i]))
            return -1;
        int overflow;
        const long long x = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (overflow || x < 1 || x > T->faces)
            return -1;
        cnt[x - 1]++;
        order[i] = x;
    }
    return 0;
}

/* An int argument in [lo, hi]: 0, or -1 (no exception set). */
static int small_int(PyObject *o, int64_t lo, int64_t hi, int64_t *out)
{
    if (!PyLong_CheckExact(o))
        return -1;
    int overflow;
    const long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* --- ordering and result objects ------------------------------------------------- */

/* order[0..n): the indices of vals, highest value first, ties in index order (as
 * Python's stable sort with reverse=True). */
static void sort_desc(const double *vals, int64_t n, int64_t *order, int64_t *tmp)
{
    if (n <= 64) { /* insertion sort: a later entry passes only strictly smaller ones */
        for (int64_t i = 0; i < n; i++) {
            const double v = vals[i];
            int64_t j = i;
            while (j > 0 && vals[order[j - 1]] < v) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
        return;
    }
    for (int64_t i = 0; i < n; i++)
        order[i] = i;
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            const int64_t mid = MIN(lo + w, n), hi = MIN(lo + 2 * w, n);
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = vals[order[j]] > vals[order[i]] ? order[j++] : order[i++];
            while (i < mid)
                tmp[k++] = order[i++];
            while (j < hi)
                tmp[k++] = order[j++];
        }
        memcpy(order, tmp, (size_t)n * sizeof(int64_t));
    }
}

/* Option(kind, keep, box, column, value, loss): ref < nbox is a box, else the
 * kept multiset ref - nbox. */
static PyObject *make_option(const AdvisorObject *self, int64_t ref, double value, double loss)
{
    const Tables *T = self->T;
    PyTypeObject *tp = (PyTypeObject *)self->opt_type;
    PyObject *o = tp->tp_alloc(tp, 6);
    if (o == NULL)
        return NULL;
    PyObject *fv = PyFloat_FromDouble(value), *fl = PyFloat_FromDouble(loss);
    if (fv == NULL || fl == NULL) {
        Py_XDECREF(fv);
        Py_XDECREF(fl);
        Py_DECREF(o);
        return NULL;
    }
    PyObject *kind, *keep, *box, *col;
    if (ref < T->nbox) {
        kind = self->s_score;
        keep = self->empty;
        box = PyTuple_GET_ITEM(self->box_id, ref);
        col = PyTuple_GET_ITEM(self->box_col, ref);
    } else {
        kind = self->s_keep;
        keep = PyTuple_GET_ITEM(self->dice_of, ref - T->nbox);
        box = Py_None;
        col = PyTuple_GET_ITEM(self->box_col, 0);
    }
    Py_INCREF(kind);
    Py_INCREF(keep);
    Py_INCREF(box);
    Py_INCREF(col);
    PyTuple_SET_ITEM(o, 0, kind);
    PyTuple_SET_ITEM(o, 1, keep);
    PyTuple_SET_ITEM(o, 2, box);
    PyTuple_SET_ITEM(o, 3, col);
    PyTuple_SET_ITEM(o, 4, fv);
    PyTuple_SET_ITEM(o, 5, fl);
    return o;
}

/* The option values of one situation (SolvedVariant's fast path): vals and ref
 * (boxes allowed, in box order, then the keeps in the kernel's order). */
static int64_t api_values(AdvisorObject *self, int64_t m, int64_t a, int64_t d, int64_t r)
{
    const Tables *T = self->T;
    int64_t mm = m, aa = a, dd = d, rr = r;
    advise_chunk_1(T, &self->sc, 0, 1, &mm, &aa, &dd, &rr, self->V, self->keepv, T->subw,
                   self->boxv);
    int64_t n = 0;
    for (int64_t b = 0; b < T->nbox; b++)
        if (self->boxv[b] == self->boxv[b]) { /* not NaN */
            self->vals[n] = self->boxv[b];
            self->ref[n++] = b;
        }
    if (r > 0)
        for (int64_t j = 0; j < T->nsubs[d]; j++) {
            self->vals[n] = self->keepv[j];
            self->ref[n++] = T->nbox + T->subs[d * T->subw + j];
        }
    return n;
}

static PyObject *api_result(AdvisorObject *self, int64_t m, int64_t a, int64_t d, int64_t r,
                            double base, int best_only)
{
    const int64_t n = api_values(self, m, a, d, r);
    if (n == 0)
        Py_RETURN_NONE;
    const double *vals = self->vals;
    int64_t top = 0;
    for (int64_t i = 1; i < n; i++)
        if (vals[i] > vals[top])
            top = i;
    const double best = vals[top];
    if (best_only)
        return make_option(self, self->ref[top], base + best, best - best);
    sort_desc(vals, n, self->order, self->tmp);
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int64_t k = 0; k < n; k++) {
        const int64_t i = self->order[k];
        PyObject *o = make_option(self, self->ref[i], base + vals[i], best - vals[i]);
        if (o == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, o);
    }
    return list;
}

/* The plain form "DDDDD rN[ CARD]" from s[0..n): the counts, r and the card. 0, or -1. */
static int parse_plain(const AdvisorObject *self, const char *s, Py_ssize_t n, int64_t *cnt,
                       int64_t *r, int64_t *vals, int64_t *extra)
{
    const Tables *T = self->T;
    const int64_t nd = T->n;
    if (n < nd + 2 || s[nd] != ' ' || (s[nd + 1] != 'r' && s[nd + 1] != 'R'))
        return -1;
    for (int64_t f = 0; f < T->faces; f++)
        cnt[f] = 0;
    for (int64_t i = 0; i < nd; i++) {
        const int x = s[i] - '0';
        if (x < 1 || x > T->faces)
            return -1;
        cnt[x - 1]++;
    }
    Py_ssize_t i = nd + 2, j = i;
    int64_t rv = 0;
    while (j < n && s[j] >= '0' && s[j] <= '9' && j - i < 3)
        rv = rv * 10 + (s[j++] - '0');
    if (j == i)
        return -1;
    *r = rv;
    if (j == n)
        return parse_card_text(self, s + n, 0, vals, extra);
    if (s[j] != ' ' || j + 1 == n)
        return -1;
    const char *card = s + j + 1;
    const Py_ssize_t len = n - j - 1;
    for (Py_ssize_t k = 0; k < len; k++)
        if ((unsigned char)card[k] <= ' ')
            return -1;
    return parse_card_text(self, card, len, vals, extra);
}

/* The plain form of a str: parse_plain. 0, or -1. */
static int parse_situation(const AdvisorObject *self, PyObject *text, int64_t *cnt, int64_t *r,
                           int64_t *vals, int64_t *extra)
{
    if (!PyUnicode_CheckExact(text))
        return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    if (s == NULL) {
        PyErr_Clear();
        return -1;
    }
    return parse_plain(self, s, n, cnt, r, vals, extra);
}

/* A normal turn the kernels answer: not full, not the forced first turn, rolls in range. */
static int normal_turn(const AdvisorObject *self, int64_t m, int64_t filled, int64_t turn,
                       int64_t r)
{
    const Tables *T = self->T;
    if (filled >= T->nbox || m == ((int64_t)1 << T->nbox) - 1)
        return 0;
    if (self->forced_box >= 0 && turn == 0)
        return 0;
    return r >= 0 && r < T->rolls;
}

static PyObject *api_text(AdvisorObject *self, PyObject *text, int best_only)
{
    const Tables *T = self->T;
    if (!self->options_ok || !self->text_ok || self->opt_type == NULL)
        Py_RETURN_NONE;
    int64_t cnt[MAXFACES], vals[64], extra, r, m, a;
    double base;
    if (parse_situation(self, text, cnt, &r, vals, &extra) < 0)
        Py_RETURN_NONE;
    const int64_t filled = card_state(self, vals, extra, &m, &a, &base);
    if (!normal_turn(self, m, filled, filled, r))
        Py_RETURN_NONE;
    const int64_t d = index_of(T, cnt) - T->full_start;
    return api_result(self, m, a, d, r, base, best_only);
}

/* The scratch is the object's own: a call that comes in while another is under way
 * (another thread while this one runs Python code: reading a card's attributes, or a
 * finalizer during an allocation) is declined, and the caller takes its Python path. */
#define EXCLUSIVE(call)                                                                        \
    do {                                                                                       \
        if (self->busy)                                                                        \
            Py_RETURN_NONE;                                                                    \
        self->busy = 1;                                                                        \
        PyObject *out_ = (call);                                                               \
        self->busy = 0;                                                                        \
        return out_;                                                                           \
    } while (0)

static PyObject *adv_options_text(AdvisorObject *self, PyObject *text)
{
    EXCLUSIVE(api_text(self, text, 0));
}

static PyObject *adv_best_text(AdvisorObject *self, PyObject *text)
{
    EXCLUSIVE(api_text(self, text, 1));
}

/* (card, turn, dice, rolls_left) -> the state, outcome, r and the dice in order. 0 or -1. */
static int read_args(const AdvisorObject *self, PyObject *const *args, int64_t *m, int64_t *a,
                     double *base, int64_t *d, int64_t *r, int64_t *cnt, int64_t *dice)
{
    const Tables *T = self->T;
    int64_t vals[64], extra = 0, turn = 0;
    if (read_card(self, args[0], vals, &extra) < 0 || small_int(args[1], 0, 1 << 20, &turn) < 0
        || read_dice(T, args[2], cnt, dice) < 0 || small_int(args[3], 0, T->rolls - 1, r) < 0)
        return -1;
    const int64_t filled = card_state(self, vals, extra, m, a, base);
    if (!normal_turn(self, *m, filled, turn, *r))
        return -1;
    *d = index_of(T, cnt) - T->full_start;
    return 0;
}

static PyObject *api_objects(AdvisorObject *self, PyObject *const *args, Py_ssize_t nargs,
                             int best_only)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "(card, turn, dice, rolls_left) expected");
        return NULL;
    }
    if (!self->options_ok || self->opt_type == NULL)
        Py_RETURN_NONE;
    int64_t m, a, d, r, cnt[MAXFACES], dice[16];
    double base;
    if (self->T->n > 16 || read_args(self, args, &m, &a, &base, &d, &r, cnt, dice) < 0)
        Py_RETURN_NONE;
    return api_result(self, m, a, d, r, base, best_only);
}

static PyObject *adv_options(AdvisorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXCLUSIVE(api_objects(self, args, nargs, 0));
}

static PyObject *adv_best(AdvisorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXCLUSIVE(api_objects(self, args, nargs, 1));
}

/* --- the advisor's ranking ---------------------------------------------------------- */

/* The keep tables of state_turn, levels 0..levels-1, bit for bit: the placement
 * values E0 from the placement rows (the same sums as e0_scalar: scores never
 * below 0, so a box at 0 points never beats the dice's points in it), the
 * yachts as e0_scalar, then keep_levels. */
static void exact_levels(AdvisorObject *self, int64_t m, int64_t a, int64_t levels)
{
    const Tables *T = self->T;
    const int64_t U = T->U, A = astride(T), u = a % U, flag = a / U, fs = T->full_start;
    double *E0 = self->E0;
    if (self->rows_ok) {
        int64_t gm = m, gu = u, gf = flag;
        e0_tile_1(T, 1, &gm, &gu, &gf, self->sc.K, self->V, A, U, U - 1, self->sc.A,
                  self->sc.Z);
        memcpy(E0, self->sc.K + fs, (size_t)T->nfull * sizeof(double));
        const int64_t rep = repeat_points(T, m);
        const double xself = self->V[m * A + a];
        for (int64_t d = 0; d < T->nfull; d++)
            if (T->is_yacht[d])
                E0[d] = e0_one(T, m, u, flag, rep, xself, d, self->V);
    } else {
        e0_scalar(T, m, a, self->V, E0);
    }
    keep_levels(T, E0, self->Ks, levels, roll_cost(T, m));
}

/* A Ranked from its fields: kind, keep, category and column borrowed; reroll and
 * points new references (taken, also on failure; NULL: an error is set). */
static PyObject *new_ranked(const AdvisorObject *self, PyObject *kind, double expected,
                            double loss, PyObject *keep, PyObject *reroll, PyObject *category,
                            PyObject *column, PyObject *points)
{
    PyTypeObject *tp = self->ranked_type;
    PyObject *o = (reroll != NULL && points != NULL) ? tp->tp_alloc(tp, 0) : NULL;
    PyObject *fe = o ? PyFloat_FromDouble(expected) : NULL;
    PyObject *fl = fe ? PyFloat_FromDouble(loss) : NULL;
    if (fl == NULL) {
        Py_XDECREF(reroll);
        Py_XDECREF(points);
        Py_XDECREF(fe);
        Py_XDECREF(o);
        return NULL;
    }
    const Py_ssize_t *off = self->roff;
#define SLOT(i, v) (*(PyObject **)((char *)o + off[i]) = (v))
    SLOT(R_KIND, Py_NewRef(kind));
    SLOT(R_EXPECTED, fe);
    SLOT(R_LOSS, fl);
    SLOT(R_KEEP, Py_NewRef(keep));
    SLOT(R_REROLL, reroll);
    SLOT(R_CATEGORY, Py_NewRef(category));
    SLOT(R_COLUMN, Py_NewRef(column));
    SLOT(R_POINTS, points);
#undef SLOT
    return o;
}

static PyObject *rank_body(AdvisorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Tables *T = self->T;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "rank(card, turn, dice, rolls_left)");
        return NULL;
    }
    if (!self->rank_ok || T->n > 16 || T->faces > MAXFACES)
        Py_RETURN_NONE;
    int64_t m, a, d, r, cnt[MAXFACES], dice[16];
    double base;
    if (read_args(self, args, &m, &a, &base, &d, &r, cnt, dice) < 0)
        Py_RETURN_NONE;
    const int64_t U = T->U, A = astride(T), u = a % U, flag = a / U;
    double *vals = self->vals;
    int64_t *ref = self->ref, *pts = self->pts, n = 0;
    if (r > 0) /* first: it reads the table rows the placements read too */
        exact_levels(self, m, a, r);
    /* the placements, in card order: the joker rule and the bonus as the engine's */
    int64_t restrict_;
    int lower_only, jok;
    joker_rules(T, m, d, &restrict_, &lower_only, &jok);
    const int64_t extra = yacht_extra(T, m, flag, d);
    for (int64_t b = 0; b < T->nbox; b++) {
        if ((m >> b) & 1)
            continue;
        int64_t g, u2, f2;
        if (!place_box(T, u, flag, d, b, restrict_, lower_only, jok, extra, &g, &u2, &f2))
            continue;
        vals[n] = (base + (double)g) + self->V[(m | ((int64_t)1 << b)) * A + f2 * U + u2];
        pts[n] = box_points(T, b, d, jok) + extra;
        ref[n++] = b;
    }
    if (T->is_yacht[d])
        for (int64_t b = 0; b < T->nbox; b++)
            if (((m >> b) & 1) && self->rep_raw[b] > 0) {
                vals[n] = (base + (double)(self->rep_raw[b] * T->box_mult[b]))
                          + self->V[m * A + a];
                pts[n] = self->rep_raw[b];
                ref[n++] = b;
            }
    const int64_t nb = n;
    if (r > 0) {
        const double *table = self->Ks + (r - 1) * T->nall;
        int64_t kc[MAXFACES];
        for (int64_t f = 0; f < T->faces; f++)
            kc[f] = 0;
        for (;;) {
            int64_t size = 0;
            for (int64_t f = 0; f < T->faces; f++)
                size += kc[f];
            if (size != T->n) {
                const int64_t k = index_of(T, kc);
                vals[n] = base + table[k];
                ref[n++] = T->nbox + k;
            }
            int64_t f = T->faces - 1;
            while (f >= 0 && kc[f] == cnt[f])
                kc[f--] = 0;
            if (f < 0)
                break;
            kc[f]++;
        }
    }
    if (n == 0)
        Py_RETURN_NONE;
    sort_desc(vals, n, self->order, self->tmp);
    PyObject *list = NULL;
    const double best = vals[self->order[0]];
    list = PyList_New(n);
    if (list == NULL)
        goto done;
    PyObject *zero = PyTuple_GET_ITEM(self->box_col, 0);
    for (int64_t k = 0; k < n; k++) {
        const int64_t i = self->order[k];
        const double diff = best - vals[i];
        const double loss = diff > 0.0 ? diff : 0.0;
        PyObject *o;
        if (i < nb) {
            const int64_t b = ref[i];
            o = new_ranked(self, self->s_score, vals[i], loss, self->empty,
                           Py_NewRef(self->empty), PyTuple_GET_ITEM(self->box_id, b),
                           PyTuple_GET_ITEM(self->box_col, b), PyLong_FromLongLong(pts[i]));
        } else {
            const int64_t kidx = ref[i] - T->nbox;
            /* the lowest positions of a face stay (as advisor._positions) */
            int64_t left[MAXFACES], bits = 0;
            for (int64_t f = 0; f < T->faces; f++)
                left[f] = T->counts[kidx * T->faces + f];
            for (int64_t p = 0; p < T->n; p++) {
                if (left[dice[p] - 1] > 0)
                    left[dice[p] - 1]--;
                else
                    bits |= (int64_t)1 << p;
            }
            PyObject *reroll;
            if (self->positions != NULL) {
                reroll = Py_NewRef(PyTuple_GET_ITEM(self->positions, bits));
            } else if ((reroll = PyTuple_New(__builtin_popcountll((unsigned long long)bits)))
                       != NULL) {
                Py_ssize_t at = 0;
                for (int64_t p = 0; p < T->n; p++)
                    if ((bits >> p) & 1)
                        PyTuple_SET_ITEM(reroll, at++, PyLong_FromLongLong(p));
            }
            o = new_ranked(self, self->s_keep, vals[i], loss,
                           PyTuple_GET_ITEM(self->dice_of, kidx), reroll, Py_None, zero,
                           PyLong_FromLongLong(0));
        }
        if (o == NULL) {
            Py_CLEAR(list);
            goto done;
        }
        PyList_SET_ITEM(list, k, o);
    }
done:
    return list;
}

static PyObject *adv_rank(AdvisorObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXCLUSIVE(rank_body(self, args, nargs));
}

static PyMethodDef advisor_methods[] = {
    {"options_text", (PyCFunction)adv_options_text, METH_O,
     "options_text(text): the options of a situation in the notation's plain form, best "
     "first (None: take the general path)."},
    {"best_text", (PyCFunction)adv_best_text, METH_O,
     "best_text(text): the best option of the situation (None: take the general path)."},
    {"options", (PyCFunction)(void (*)(void))adv_options, METH_FASTCALL,
     "options(card, turn, dice, rolls_left): the options, best first (or None)."},
    {"best", (PyCFunction)(void (*)(void))adv_best, METH_FASTCALL,
     "best(card, turn, dice, rolls_left): the best option (or None)."},
    {"rank", (PyCFunction)(void (*)(void))adv_rank, METH_FASTCALL,
     "rank(card, turn, dice, rolls_left): advise_card's ranking (or None)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject AdvisorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "yacht.strategy.solver._native.Advisor",
    .tp_basicsize = sizeof(AdvisorObject),
    .tp_dealloc = (destructor)advisor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Single situations of one table: Advisor(tables, V, data).",
    .tp_new = advisor_new,
    .tp_methods = advisor_methods,
};
