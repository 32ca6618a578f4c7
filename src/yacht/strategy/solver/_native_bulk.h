/* Situations from text at the kernels' pace: many at once, and single ones whose card
 * ends with extra=N. Included once by _native.c, after _native_advice.h (it reads
 * texts with the Advisor's reader, parse_plain, and solves single ones with its scratch).
 *
 *   situations_text(advisor, texts, earn, turns, masks, auxs, outcomes, rolls, totals,
 *                   ruleset):
 *     each item of a list as the batch kernel's numbers (the card state, the outcome,
 *     the rolls left and the points on the card): a text in the plain form ("13356 r2
 *     ones=3,fours=12", and a last item extra=N), or a Situation object whose ruleset
 *     is `ruleset` (None: texts only). An item it does not read (any other form, a
 *     full card, the forced first turn, extra points it cannot vouch for) gets mask -1
 *     and is left to Python. Returns how many were left.
 *   text_extra(advisor, text, earn, turns, best_only): the Advisor's options_text /
 *     best_text for a text whose card ends with extra=N (None: the Python path).
 *
 * `earn` (int64, ncat * ncols rows of amax - amin: the values a box can hold) is the
 * step of extra points a box holding that value earns (0: none, -1: more than one
 * step, ask Python), and `turns` the turns of a game, as parsing._check_extra reads
 * them: the extra points must be a multiple of the steps' gcd, at most the largest
 * step times turns - 1. None: the rules give no extra points.
 */

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The plain form with an optional last item extra=N (checked as the card parser checks
 * it): the counts, r, the card and its extra points. 0, or -1. */
static int bulk_read(const AdvisorObject *self, const char *s, Py_ssize_t n,
                     const int64_t *earn, int64_t turns, int64_t *cnt, int64_t *r,
                     int64_t *vals, int64_t *extra)
{
    *extra = 0;
    Py_ssize_t k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == n || n - k > 7 || k < 7 || memcmp(s + k - 6, "extra=", 6) != 0
        || (s[k - 7] != ',' && s[k - 7] != ' '))
        return parse_plain(self, s, n, cnt, r, vals, extra);
    int64_t ex = 0;
    for (Py_ssize_t i = k; i < n; i++)
        ex = ex * 10 + (s[i] - '0');
    if (parse_plain(self, s, k - 7, cnt, r, vals, extra) < 0)
        return -1;
    if (ex == 0)
        return 0;
    if (earn == NULL)
        return -1;
    const int64_t w = self->amax - self->amin;
    int64_t g = 0, most = 0;
    for (int64_t b = 0; b < self->T->nbox; b++) {
        const int64_t v = vals[b];
        if (v == OPEN_BOX || v == 0)
            continue;
        const int64_t step = earn[b * w + (v - self->amin)];
        if (step < 0)
            return -1;
        if (step > 0) {
            g = gcd64(g, step);
            most = MAX(most, step);
        }
    }
    if (g == 0 || ex % g != 0 || ex > most * MAX(0, turns - 1))
        return -1;
    *extra = ex;
    return 0;
}

/* The earn table and turns of the arguments: 0 (earn NULL when None), or -1. */
static int bulk_earn(const AdvisorObject *self, PyObject *eo, PyObject *to, Buf *eb,
                     const int64_t **earn, int64_t *turns)
{
    *earn = NULL;
    *turns = PyLong_AsLongLong(to);
    if (*turns == -1 && PyErr_Occurred())
        return -1;
    if (eo == Py_None)
        return 0;
    if (buf_get(eo, eb, "earn", 'i', self->T->nbox * (self->amax - self->amin), 0) < 0)
        return -1;
    *earn = eb->b.buf;
    return 0;
}

/* A Situation object of `ruleset` (its attributes ruleset, card, dice, rolls_left, turn)
 * as the Advisor reads its parts. 0, or -1 (no exception set) for anything else. */
static int bulk_object(const AdvisorObject *self, PyObject *o, PyObject *ruleset, int64_t *m,
                       int64_t *a, int64_t *d, int64_t *r, double *base)
{
    static PyObject *names[5];
    static const char *const keys[5] = {"ruleset", "card", "dice", "rolls_left", "turn"};
    PyObject *v[5] = {NULL, NULL, NULL, NULL, NULL};
    int rc = -1;
    for (int k = 0; k < 5; k++) {
        if (names[k] == NULL && (names[k] = PyUnicode_InternFromString(keys[k])) == NULL) {
            PyErr_Clear();
            goto done;
        }
        if ((v[k] = PyObject_GetAttr(o, names[k])) == NULL) {
            PyErr_Clear();
            goto done;
        }
    }
    {
        const Tables *T = self->T;
        int64_t vals[64], extra = 0, turn, cnt[MAXFACES], dice[16];
        if (v[0] != ruleset || T->n > 16 || read_card(self, v[1], vals, &extra) < 0
            || read_dice(T, v[2], cnt, dice) < 0 || small_int(v[3], 0, T->rolls - 1, r) < 0
            || small_int(v[4], 0, 1 << 20, &turn) < 0)
            goto done;
        const int64_t filled = card_state(self, vals, extra, m, a, base);
        if (!normal_turn(self, *m, filled, turn, *r))
            goto done;
        *d = index_of(T, cnt) - T->full_start;
        rc = 0;
    }
done:
    for (int k = 0; k < 5; k++)
        Py_XDECREF(v[k]);
    return rc;
}

static PyObject *py_situations_text(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "situations_text(advisor, texts, earn, turns, masks, "
                                         "auxs, outcomes, rolls, totals, ruleset)");
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &AdvisorType)) {
        PyErr_SetString(PyExc_TypeError, "situations_text: an Advisor is expected");
        return NULL;
    }
    const AdvisorObject *self = (const AdvisorObject *)args[0];
    const Tables *T = self->T;
    PyObject *texts = args[1], *ruleset = args[9];
    if (!PyList_CheckExact(texts) && !PyTuple_CheckExact(texts)) {
        PyErr_SetString(PyExc_TypeError, "situations_text: texts must be a list or a tuple");
        return NULL;
    }
    /* the items as they are now (reading an object's attributes runs Python code, which
     * might change the list) */
    PyObject *items = PySequence_Tuple(texts);
    if (items == NULL)
        return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(items);
    Buf b[6];
    memset(b, 0, sizeof(b));
    PyObject *ret = NULL;
    const int64_t *earn;
    int64_t turns;
    if (bulk_earn(self, args[2], args[3], &b[5], &earn, &turns) < 0
        || buf_get(args[4], &b[0], "masks", 'i', n, 1) < 0
        || buf_get(args[5], &b[1], "auxs", 'i', n, 1) < 0
        || buf_get(args[6], &b[2], "outcomes", 'i', n, 1) < 0
        || buf_get(args[7], &b[3], "rolls", 'i', n, 1) < 0
        || buf_get(args[8], &b[4], "totals", 'd', n, 1) < 0)
        goto done;
    {
        int64_t *sm = b[0].b.buf, *sa = b[1].b.buf, *sd = b[2].b.buf, *sr = b[3].b.buf;
        double *st = b[4].b.buf;
        const int ok = self->options_ok && T->nbox <= 64;
        int64_t left = 0, cnt[MAXFACES], vals[64], extra, r, m, a, d;
        double base;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *t = PyTuple_GET_ITEM(items, i);
            int got = -1;
            if (ok && PyUnicode_CheckExact(t)) {
                if (self->text_ok && PyUnicode_IS_COMPACT_ASCII(t)
                    && bulk_read(self, PyUnicode_DATA(t), PyUnicode_GET_LENGTH(t), earn, turns,
                                 cnt, &r, vals, &extra)
                           == 0) {
                    const int64_t filled = card_state(self, vals, extra, &m, &a, &base);
                    if (normal_turn(self, m, filled, filled, r)) {
                        d = index_of(T, cnt) - T->full_start;
                        got = 0;
                    }
                }
            } else if (ok && ruleset != Py_None)
                got = bulk_object(self, t, ruleset, &m, &a, &d, &r, &base);
            if (got < 0) {
                sm[i] = -1;
                left++;
                continue;
            }
            sm[i] = m;
            sa[i] = a;
            sd[i] = d;
            sr[i] = r;
            st[i] = base;
        }
        ret = PyLong_FromLongLong(left);
    }
done:
    buf_release(b, 6);
    Py_DECREF(items);
    return ret;
}

static PyObject *bulk_text_extra(AdvisorObject *self, PyObject *const *args)
{
    const Tables *T = self->T;
    if (!self->options_ok || !self->text_ok || self->opt_type == NULL || T->nbox > 64
        || !PyUnicode_CheckExact(args[1]) || !PyUnicode_IS_COMPACT_ASCII(args[1]))
        Py_RETURN_NONE;
    Buf eb;
    memset(&eb, 0, sizeof(eb));
    const int64_t *earn;
    int64_t turns, best_only;
    if (bulk_earn(self, args[2], args[3], &eb, &earn, &turns) < 0
        || small_int(args[4], 0, 1, &best_only) < 0) {
        buf_release(&eb, 1);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "text_extra: best_only must be 0 or 1");
        return NULL;
    }
    int64_t cnt[MAXFACES], vals[64], extra, r, m, a;
    double base;
    PyObject *ret;
    if (bulk_read(self, PyUnicode_DATA(args[1]), PyUnicode_GET_LENGTH(args[1]), earn, turns,
                  cnt, &r, vals, &extra)
        < 0) {
        ret = Py_None;
        Py_INCREF(ret);
    } else {
        const int64_t filled = card_state(self, vals, extra, &m, &a, &base);
        if (!normal_turn(self, m, filled, filled, r)) {
            ret = Py_None;
            Py_INCREF(ret);
        } else
            ret = api_result(self, m, a, index_of(T, cnt) - T->full_start, r, base,
                             (int)best_only);
    }
    buf_release(&eb, 1);
    return ret;
}

static PyObject *py_text_extra(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "text_extra(advisor, text, earn, turns, best_only)");
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &AdvisorType)) {
        PyErr_SetString(PyExc_TypeError, "text_extra: an Advisor is expected");
        return NULL;
    }
    AdvisorObject *self = (AdvisorObject *)args[0];
    EXCLUSIVE(bulk_text_extra(self, args));
}
