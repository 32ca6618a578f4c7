"""The solver's recurrences in plain Python and numpy: what the C kernels compute, slowly.

The C extension (``_native.c`` and its headers) is the solver's one implementation;
this module writes the same recurrences the plainest way, for the tests to check
the kernels against (tests/strategy/test_reference.py: every variant's tiny
rulesets whole, random situations of the real ones). Nothing else imports it:
it takes seconds where the kernels take microseconds.

It reads the rules from the same :class:`~.tables.KernelTables` record ``kt`` as
the kernels, but works out the dice its own way (every roll of the missing dice
enumerated with its multinomial chance, not the kernels' one-die-at-a-time sweep).

A card state is ``(m, a)``: the boxes of mask ``m`` filled, ``a = flag * U + u``
with ``u`` the upper total (capped at ``U - 1``) and ``flag`` whether the Yahtzee
box holds points. ``V[m, a]``: the expected points still to come from the start
of a turn in that state, the expert playing.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from math import factorial
from typing import Any

import numpy as np
import numpy.typing as npt

from .tables import KernelTables

__all__ = ["distributions", "keep_values", "placements", "play_turn", "quantize", "table",
           "target_chances", "turn_values"]

F64 = npt.NDArray[np.float64]
Placement = tuple[int, int, int, int]   # (box or -1 for a repeat, points gained, u, flag)


# --- the rules of one placement ---------------------------------------------------------

def placements(kt: KernelTables, m: int, u: int, flag: int, d: int) -> list[Placement]:
    """Every legal placement of outcome ``d`` (index among the n-dice outcomes) in state
    ``(m, u, flag)``, in box order, a repeat (box -1) last."""
    yacht = bool(kt.is_yacht[d])
    joker_box_filled = kt.ybox >= 0 and yacht and (m >> kt.ybox) & 1 == 1
    only: int | None = None     # the one box allowed
    lower_only = False
    joker = False
    if joker_box_filled:
        ub = int(kt.upper_of_face[kt.yface[d]])
        upper_open = ub >= 0 and (m >> ub) & 1 == 0
        if kt.jmode == 1:       # forced joker: the face's upper box, else a lower box
            if upper_open:
                only = ub
            elif any((m >> b) & 1 == 0 and not kt.box_upper[b] for b in range(kt.nbox)):
                lower_only = joker = True
        elif kt.jmode == 2:     # free joker: any box, joker points once the face's is used
            joker = not upper_open
    extra = kt.ybonus if joker_box_filled and flag == 1 else 0
    out: list[Placement] = []
    for b in range(kt.nbox):
        if (m >> b) & 1 or (only is not None and b != only) or (
                lower_only and kt.box_upper[b]):
            continue
        pts = int(kt.joker_pts[b]) if joker and kt.joker_pts[b] >= 0 else int(kt.score[b, d])
        mult = int(kt.box_mult[b])
        gain = pts * mult + extra
        nflag = (1 if pts > 0 else 0) if b == kt.ybox and kt.ybonus > 0 else flag
        nu = u
        if kt.U > 1 and kt.box_upper[b]:
            nu = u + pts
            if u < kt.need <= nu:
                gain += kt.bonus_amt * mult
            nu = min(nu, kt.U - 1)
        out.append((b, gain, nu, nflag))
    rep = max([int(kt.rep_pts[b]) for b in range(kt.nbox) if (m >> b) & 1], default=0)
    if yacht and rep > 0:
        out.append((-1, rep, u, flag))
    return out


def _after(kt: KernelTables, V: F64, m: int, a: int, p: Placement) -> float:
    """The points of placement ``p`` plus the value of the state it leads to."""
    b, gain, nu, nflag = p
    if b < 0:
        return gain + float(V[m, a])
    return gain + float(V[m | (1 << b), nflag * kt.U + nu])


def best_placement(kt: KernelTables, V: F64, m: int, a: int, d: int) -> tuple[float, Placement]:
    """The expert's placement of ``d``: the first best box, a repeat only when better."""
    best: tuple[float, Placement] | None = None
    for p in placements(kt, m, a % kt.U, a // kt.U, d):
        v = _after(kt, V, m, a, p)
        if best is None or v > best[0]:
            best = (v, p)
    assert best is not None, "an unfinished card always has a box"
    return best


# --- the dice ---------------------------------------------------------------------------

@lru_cache(maxsize=16)
def _rolls(faces: int, k: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every roll of ``k`` dice as face counts, with its chance."""
    out = []
    for dice in itertools.combinations_with_replacement(range(faces), k):
        cnt = [dice.count(f) for f in range(faces)]
        ways = factorial(k)
        for c in cnt:
            ways //= factorial(c)
        out.append((tuple(cnt), ways / faces ** k))
    return tuple(out)


def _index(kt: KernelTables, cnt: Any) -> int:
    code = sum(int(c) * (kt.n + 1) ** f for f, c in enumerate(cnt))
    return int(kt.code_index[code])


def _subsets(kt: KernelTables, d: int) -> list[int]:
    """The proper sub-multisets (keeps) of outcome ``d``, in the kernels' order."""
    return [int(k) for k in kt.subs[d, :kt.nsubs[d]]]


def _roll_results(kt: KernelTables, k: int) -> list[tuple[int, float]]:
    """Keeping multiset ``k`` and rolling the rest: (outcome, chance) pairs."""
    kept = kt.counts[k]
    missing = kt.n - int(kt.size[k])
    return [(_index(kt, kept + np.array(r)) - kt.full_start, p)
            for r, p in _rolls(kt.faces, missing)]


# --- one turn ---------------------------------------------------------------------------

def turn_values(kt: KernelTables, V: F64, m: int, a: int,
                rolls: int | None = None) -> tuple[F64, F64]:
    """``(E0, Ks)`` of state (m, a) as the kernels' ``state_turn`` gives them: ``E0[d]``
    the best placement of outcome ``d``; ``Ks[j, k]`` the value of keeping ``k`` and
    rolling with ``j`` rolls left after that roll, and on the outcome rows
    (``full_start + d``) the best with ``j`` rolls left (``rolls`` levels, else the
    ruleset's rolls)."""
    nfull = kt.score.shape[1]
    E0 = np.array([best_placement(kt, V, m, a, d)[0] for d in range(nfull)])
    return E0, keep_values(kt, E0, rolls, float(kt.layer_cost[bin(m).count("1")]))


def keep_values(kt: KernelTables, E0: F64, rolls: int | None = None,
                cost: float = 0.0) -> F64:
    """The keep values of one turn from its placement values (see :func:`turn_values`):
    a keep is worth the average of what its rolls lead to, less ``cost``, the cost of a
    roll (0 in a real game; in the relaxed game of a bound ``kt.layer_cost`` of the
    turn's layer)."""
    nall, fs, nfull = kt.up.shape[0], kt.full_start, kt.score.shape[1]
    levels = kt.rolls if rolls is None else rolls
    Ks = np.zeros((levels, nall, *E0.shape[1:]))   # (E0 may hold a vector per outcome)
    best = E0.copy()          # the best with j rolls left, per outcome
    for j in range(levels):
        if j > 0:
            best = np.array([np.max([best[d], *[Ks[j - 1, k] for k in _subsets(kt, d)]],
                                    axis=0) for d in range(nfull)])
        for k in range(fs):
            Ks[j, k] = sum(p * best[d] for d, p in _roll_results(kt, k)) - cost
        Ks[j, fs:] = best
    return Ks


def play_turn(kt: KernelTables, Ks: F64, E0: F64) -> F64:
    """The chance of every final outcome of a turn played as the expert plays it: stop
    when scoring is worth as much as the best keep, else the first best keep."""
    nfull = kt.score.shape[1]
    now = np.zeros(nfull)
    for d, p in _roll_results(kt, 0):
        now[d] += p
    final = np.zeros(nfull)
    for left in range(kt.rolls - 1, 0, -1):
        nxt = np.zeros(nfull)
        for d in range(nfull):
            if now[d] == 0.0:
                continue
            keeps = _subsets(kt, d)
            values = [Ks[left - 1, k] for k in keeps]
            i = int(np.argmax(values))    # (the first best)
            if E0[d] >= values[i]:
                final[d] += now[d]
                continue
            for d2, p in _roll_results(kt, keeps[i]):
                nxt[d2] += now[d] * p
        now = nxt
    return final + now


# --- whole tables (tiny rulesets only) --------------------------------------------------

def _masks_by_layer(nbox: int) -> list[int]:
    """Every unfinished mask, the fullest first (a turn reads fuller masks only)."""
    full = (1 << nbox) - 1
    return sorted(range(full), key=lambda m: -bin(m).count("1"))


def table(kt: KernelTables, A: int) -> F64:
    """``V[m, a]`` for every state: backward over the masks, a turn after ``k`` boxes
    are filled having ``kt.layer_rolls[k]`` rolls; with a repeat box (a turn
    that may leave the card as it was) the state's value is the fixed point of its turn,
    found by iterating the turn from 0."""
    nbox = kt.nbox
    V = np.zeros((1 << nbox, A))
    for m in _masks_by_layer(nbox):
        rolls = int(kt.layer_rolls[bin(m).count("1")])
        for a in range(A):
            for _ in range(10_000):
                _, Ks = turn_values(kt, V, m, a, rolls)
                new = Ks[rolls - 1, 0]
                done = abs(new - V[m, a]) < 1e-13
                V[m, a] = new
                if done:
                    break
    return V


def distributions(kt: KernelTables, V: F64, A: int) -> dict[tuple[int, int], F64]:
    """The chance of every number of points still to come from each state ``(m, a)``
    (``pmf[x]``: ``x`` points), the expert playing as the self-play does. A repeat turn
    (the same state again, ``rep`` more points) is unrolled until what is left of the
    chance is below 1e-15."""
    nbox = kt.nbox
    full = (1 << nbox) - 1
    out: dict[tuple[int, int], F64] = {}
    for m in _masks_by_layer(nbox):
        for a in range(A):
            E0, Ks = turn_values(kt, V, m, a)
            final = play_turn(kt, Ks, E0)
            direct = np.zeros(1)
            prep, rep = 0.0, 0
            for d, p in enumerate(final):
                if p == 0.0:
                    continue
                _, (b, gain, nu, nflag) = best_placement(kt, V, m, a, d)
                if b < 0:
                    prep += p
                    rep = gain
                    continue
                m2 = m | (1 << b)
                nxt = np.ones(1) if m2 == full else out[m2, nflag * kt.U + nu]
                direct = _add(direct, gain, p * nxt)
            pmf = direct
            term, shift = direct, 0
            while prep > 0.0 and term.sum() > 1e-15:
                term = term * prep
                shift += rep
                pmf = _add(pmf, shift, term)
            out[m, a] = pmf
    return out


def target_chances(kt: KernelTables, A: int, target: int) -> dict[tuple[int, int], F64]:
    """The best chance of finishing with at least ``target`` points: ``q[m, a][s]`` from
    the start of a turn in state (m, a) with ``s`` points on the card (``s`` from 0 to
    ``target``, where it is 1). Every placement leads to the next state's chances at
    ``s`` plus its points; a repeat turn reads the state's own chances higher up, so those
    are iterated until they stand."""
    nbox, T = kt.nbox, target
    full = (1 << nbox) - 1
    s = np.arange(T + 1)
    q: dict[tuple[int, int], F64] = {}

    def after(m: int, a: int, p: Placement, own: F64) -> F64:
        b, gain, nu, nflag = p
        at = np.minimum(s + gain, T)
        if b < 0:
            return own[at]
        m2 = m | (1 << b)
        if m2 == full:
            return (s + gain >= T).astype(np.float64)
        return q[m2, nflag * kt.U + nu][at]

    nfull = kt.score.shape[1]
    for m in _masks_by_layer(nbox):
        for a in range(A):
            own = (s >= T).astype(np.float64)
            for _ in range(T + 2):
                E0 = np.array([np.max([after(m, a, p, own) for p in
                                       placements(kt, m, a % kt.U, a // kt.U, d)], axis=0)
                               for d in range(nfull)])
                new = keep_values(kt, E0)[kt.rolls - 1, 0]
                new[T] = 1.0
                if np.array_equal(new, own):
                    break
                own = new
            q[m, a] = own
    return q


def _add(pmf: F64, shift: int, other: F64) -> F64:
    """``pmf`` plus ``other`` moved up by ``shift`` points."""
    n = max(len(pmf), shift + len(other))
    res = np.zeros(n)
    res[:len(pmf)] += pmf
    res[shift:shift + len(other)] += other
    return res


I64 = npt.NDArray[np.int64]


def quantize(P: npt.NDArray[np.float32], pos: I64, lo: I64, ln: I64, steps: int = 65535
             ) -> tuple[npt.NDArray[np.uint16], I64, I64, I64]:
    """Distributions (``P[pos[i]:pos[i] + ln[i]]`` from ``lo[i]`` points) as cumulative
    chances in steps of 1/steps, cut to the totals whose cumulative chance rounds strictly
    between 0 and 1: (C, its offsets, first totals, lengths); ``steps`` of a chance. The
    twin of the C kernel ``dist_quantize`` (as :mod:`.dist` once did it, in numpy)."""
    n = len(pos)
    if not n:
        z = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.uint16), z, z, z
    order = np.argsort(pos, kind="stable")
    seg = np.zeros(len(P), dtype=np.int64)   # (segments are laid out in order, no gaps)
    starts = pos[order]
    seg[starts[1:]] = 1
    seg = np.cumsum(seg)
    cs = np.cumsum(P, dtype=np.float64)
    base = np.concatenate([[0.0], cs])[starts]
    c = cs - base[seg]
    q = np.rint(np.clip(c, 0.0, 1.0) * steps).astype(np.int64)
    keep = (q > 0) & (q < steps)
    zeros = np.bincount(seg, weights=(q == 0), minlength=n).astype(np.int64)
    kept = np.bincount(seg, weights=keep, minlength=n).astype(np.int64)
    C = q[keep].astype(np.uint16)
    coff_sorted = np.concatenate([[0], np.cumsum(kept)[:-1]]).astype(np.int64)
    coff = np.empty(n, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    length = np.empty(n, dtype=np.int64)
    coff[order] = coff_sorted
    first[order] = lo[order] + zeros
    length[order] = kept
    return C, coff, first, length
