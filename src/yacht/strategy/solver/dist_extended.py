"""Score distributions for the rules the distributions' kernel does not know, in numpy:
served boxes and a box that scores only while another holds points (Generala).

The same backward pass as :func:`.dist.build`, over the same stored format: a state's
turn is followed forward through the expert's choices (those of
:func:`.selfplay.python_selfplay`: the first best box in card order, scoring rather
than re-rolling on a tie, the first best keep in the order of
:func:`.dice.proper_subsets`), which gives the chance of every way the turn ends (a
box, its points, the state after), and the distributions of the states after are
mixed in, shifted by those points. Such games are small (Generala: 3,072 card states,
totals up to 365), so the whole build takes seconds.

**A roll that ends the game.** With ``ending``, the outcomes of a turn's first roll
that end the game at once (:meth:`~yacht.rules.Ruleset.ends_game` with opponents at
the table: Generala's served Generala under ``servida=win``) are taken out of every
first roll and the others' chances scaled up: the distributions are then those of a
game that runs to its end, which is what the chances of winning weigh once the chance
that someone's roll ends it first is counted apart (:func:`.dist.ending_chances`).

>>> from yacht.rules import get
>>> from .build import solve
>>> dd = build_extended(solve(get("generala")))
>>> lo, pmf = dd.state(0, 0)
>>> round(float(pmf.sum()), 6), abs(dd.mean(0, 0) - dd.solution.expected_score) < 1e-3
(1.0, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, counts_of

from .build import Solution, _layers, build_plan
from .dice import DiceTables, proper_subsets
from .spec import Spec

if TYPE_CHECKING:
    from .dist import Distributions
    from .local import TurnChances

__all__ = ["build_extended", "ending_outcomes", "turn_chances"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


_ENDING: dict[tuple[str, int, int], npt.NDArray[np.bool_]] = {}


def ending_outcomes(ruleset: Ruleset, t: DiceTables) -> npt.NDArray[np.bool_]:
    """Which outcomes of a turn's first roll end the game at once when opponents are at
    the table (all False in most variants). Raises ValueError when a later roll can end
    it too (the chances of that would depend on the keeps). Worked out once per
    variant (every outcome asked of the rules: 30 ms for 10 dice)."""
    key = (ruleset.key, t.n, t.faces)
    hit = _ENDING.get(key)
    if hit is None:
        hit = _ENDING[key] = _ending_outcomes(ruleset, t)
        hit.flags.writeable = False
    return hit


def _ending_outcomes(ruleset: Ruleset, t: DiceTables) -> npt.NDArray[np.bool_]:
    card = ruleset.new_card()
    out = np.zeros(t.nfull, dtype=np.bool_)
    for d in range(t.nfull):
        counts = counts_of(t.dice_of(t.full_start + d), t.faces)
        out[d] = ruleset.ends_game(ruleset.context(card, 0, 1, players=2), counts)
        for r in range(2, ruleset.rolls + 1):
            if ruleset.ends_game(ruleset.context(card, 0, r, players=2), counts):
                raise ValueError(f"{ruleset.id}: a roll after the first can end the game")
    return out


@lru_cache(maxsize=4)
def _roll_matrix(t: DiceTables) -> F64:
    """``P[k, d]``: the chance that keeping the multiset ``k`` and rolling the other dice
    ends on the outcome ``full_start + d``."""
    P = np.zeros((t.nall, t.nall))
    P[np.arange(t.nall), np.arange(t.nall)] = 1.0
    up = np.asarray(t.up, dtype=np.int64)
    size = np.asarray(t.size)
    for k in range(t.n):
        for s in np.flatnonzero(size == k).tolist():
            for f in range(t.faces):
                P[:, up[s, f]] += P[:, s] / t.faces
            P[:, s] = 0.0
    out: F64 = np.ascontiguousarray(P[:, t.full_start:])
    return out


class _Turns:
    """The ways the turns from the states of a layer end under the expert's play (the
    states taken together: numpy's work in a few large steps, not thousands of small
    ones)."""

    def __init__(self, sol: Solution, ending: bool) -> None:
        spec = sol.spec
        t = spec.dice
        self.sol, self.spec, self.t = sol, spec, t
        self.R = spec.rolls
        subs, nsubs = proper_subsets(t.n, t.faces)
        self.valid = np.arange(subs.shape[1])[None, :] < nsubs[:, None]
        self.subs = np.where(self.valid, subs, 0)
        self.roll = _roll_matrix(t)
        first = self.roll[0].copy()   # (index 0: keeping no die)
        if ending:
            first[ending_outcomes(spec.ruleset, t)] = 0.0
            first /= first.sum()
        self.first = first
        self.upper = np.asarray(spec.box_upper, dtype=bool)[:spec.nbox]
        self.mult = np.asarray(spec.box_mult, dtype=np.int64)[:spec.nbox]
        self.V = sol.V.reshape(-1)

    def place(self, m: I64, u: I64, flag: I64, served: bool) -> tuple[F64, I64, I64]:
        """For every state and outcome: the value of the best placement (the first best
        open box in card order), the next state's index (``mask * A + aux``) and the
        points it scores."""
        spec = self.spec
        U, A, nb = spec.U, spec.A, spec.nbox
        table = spec.served if served and spec.served is not None else spec.score
        boxes = np.arange(nb, dtype=np.int64)
        pts = np.broadcast_to(np.asarray(table, dtype=np.int64)[:nb][None],
                              (len(m), nb, self.t.nfull)).copy()      # (S, boxes, nfull)
        if spec.needs_box >= 0:
            pts[flag == 0, spec.needs_box] = 0
        nflag = np.broadcast_to(flag[:, None, None], pts.shape).copy()
        if spec.nflag == 2 and spec.flag_box >= 0:
            nflag[:, spec.flag_box] = pts[:, spec.flag_box] > 0
        upper = (self.upper & (U > 1))[None, :, None]
        uu = u[:, None, None]
        nu = np.where(upper, np.minimum(U - 1, uu + pts), uu)
        gain = pts * self.mult[None, :, None]
        if spec.bonus_table is None and U > 1:
            gain = gain + np.where(upper & (uu < spec.need) & (uu + pts >= spec.need),
                                   spec.bonus_amt, 0)
        nxt = (m[:, None] | (1 << boxes)[None, :])[:, :, None] * A + nflag * U + nu
        values = np.where(((m[:, None] >> boxes[None, :]) & 1)[:, :, None] == 1, -np.inf,
                          gain + self.V[np.where(nxt < len(self.V), nxt, 0)])
        best = np.argmax(values, axis=1)[:, None, :]
        return (np.take_along_axis(values, best, 1)[:, 0],
                np.take_along_axis(nxt, best, 1)[:, 0],
                np.take_along_axis(gain, best, 1)[:, 0])

    def keep_levels(self, E0: F64, served: F64) -> F64:
        """``Ks[s, j, k]`` of every state ``s`` (:func:`.extended.keep_levels`: the same
        steps as the solver's turns, so the same numbers: the same choices)."""
        from .extended import keep_levels

        R = self.R
        return keep_levels(self.spec, E0, R, lambda level: served if level == R - 1 else None)

    def ends(self, sm: I64, sa: I64) -> tuple[I64, I64, I64, F64]:
        """The ways the turns from the states (sm, sa) end: for each, the state's
        position in the list, the next state's index, the points, the chance (the same
        next state and points summed)."""
        spec = self.spec
        U = spec.U
        u, flag = sa % U, sa // U
        S = len(sm)
        normal = self.place(sm, u, flag, False)
        served = self.place(sm, u, flag, True) if spec.served is not None else normal
        Ks = self.keep_levels(normal[0], served[0])
        M = np.broadcast_to(self.first, (S, self.t.nfull))
        rows = np.arange(S)[:, None]
        outs: list[tuple[I64, I64, F64]] = []
        for left in range(self.R - 1, -1, -1):
            value, nxt, gain = served if left == self.R - 1 else normal
            if left > 0:
                K = Ks[:, min(left, self.sol.plan_levels) - 1]
                vals = np.where(self.valid[None], K[rows[:, :, None], self.subs[None]],
                                -np.inf)
                k = np.argmax(vals, axis=2)
                stop = value >= np.take_along_axis(vals, k[:, :, None], 2)[:, :, 0]
            else:
                stop = np.ones(M.shape, dtype=bool)
            outs.append((nxt, gain, np.where(stop, M, 0.0)))
            if left == 0:
                break
            keep = self.subs[np.arange(self.t.nfull)[None, :], k]       # (S, nfull)
            kept = np.zeros((S, self.t.nall))
            go = ~stop
            np.add.at(kept, (np.broadcast_to(rows, go.shape)[go], keep[go]), M[go])
            M = kept @ self.roll
        who = np.concatenate([np.broadcast_to(rows, o[0].shape).ravel() for o in outs])
        nx = np.concatenate([o[0].ravel() for o in outs])
        gn = np.concatenate([o[1].ravel() for o in outs])
        ww = np.concatenate([o[2].ravel() for o in outs])
        use = ww > 0
        who, nx, gn, ww = who[use], nx[use], gn[use], ww[use]
        width = int(gn.max()) + 1 if len(gn) else 1
        span = int(nx.max()) + 1 if len(nx) else 1
        key = (who * span + nx) * width + gn
        uniq, inv = np.unique(key, return_inverse=True)
        sums = np.bincount(inv, weights=ww)
        ids = uniq.astype(np.int64)
        out: tuple[I64, I64, I64, F64] = (ids // (span * width), (ids // width) % span,
                                          ids % width, sums.astype(np.float64))
        return out


def build_extended(sol: Solution, progress: Callable[[int, int], None] | None = None,
                   eps: float = 1e-10, ending: bool = False) -> Distributions:
    """The distributions of ``sol``'s variant (see the module doc); ``eps``: the mass each
    tail of a stored distribution may leave out; ``ending``: a game that runs to its end
    (the first rolls that would end it taken out)."""
    from .dist import Distributions, _Growing, _quantize

    t0 = time.perf_counter()
    spec: Spec = sol.spec
    assert spec.bonus_table is None and not spec.pool and spec.forced is None
    plan = build_plan(spec)
    from .dist import _layer_states

    A = spec.A
    n = (1 << spec.nbox) * A
    turns = _Turns(sol, ending)
    full = (1 << spec.nbox) - 1
    # every state's distribution as float64 while the build runs (small games)
    dists: dict[int, tuple[int, F64]] = {}
    order, bounds = _layers(spec.nbox)
    qoff = np.full(n, -1, dtype=np.int64)
    qlo = np.zeros(n, dtype=np.int32)
    qlen = np.zeros(n, dtype=np.int32)
    store = _Growing(plan.states * 64)
    ulo = plan.ulo

    def index(j: int) -> int:
        # upper totals too low for the bonus share the lowest's distribution
        m, aux = divmod(j, A)
        flag, u = divmod(aux, spec.U)
        return m * A + flag * spec.U + max(u, int(ulo[m]))

    for step, k in enumerate(range(spec.nbox - 1, -1, -1)):
        sm, sa = _layer_states(spec, plan, order[bounds[k]:bounds[k + 1]])
        js, los, pmfs = [], [], []
        if not len(sm):
            if progress is not None:
                progress(step + 1, spec.nbox)
            continue
        who, nx_all, gn_all, w_all = turns.ends(sm, sa)
        cut = np.searchsorted(who, np.arange(len(sm) + 1))
        for i, (m, a) in enumerate(zip(sm.tolist(), sa.tolist(), strict=True)):
            sl = slice(int(cut[i]), int(cut[i + 1]))
            nx, gn, w = nx_all[sl], gn_all[sl], w_all[sl]
            parts = []
            for j2, g, p in zip(nx.tolist(), gn.tolist(), w.tolist(), strict=True):
                if j2 // A == full:
                    parts.append((g, np.ones(1), p))
                else:
                    lo2, d2 = dists[index(j2)]
                    parts.append((g + lo2, d2, p))
            lo = min(x[0] for x in parts)
            hi = max(x[0] + len(x[1]) for x in parts)
            pmf = np.zeros(hi - lo)
            for start, d2, p in parts:
                pmf[start - lo:start - lo + len(d2)] += p * d2
            # the thin tails cut, as the kernel cuts them
            c = np.cumsum(pmf)
            a0 = int(np.searchsorted(c, eps, side="right"))
            b0 = int(np.searchsorted(c, c[-1] - eps, side="left")) + 1
            a0 = min(a0, b0 - 1)
            pmf = pmf[a0:b0] / pmf[a0:b0].sum()
            j = m * A + a
            dists[j] = (lo + a0, pmf)
            js.append(j)
            los.append(lo + a0)
            pmfs.append(pmf)
        if js:
            lens = np.array([len(p) for p in pmfs], dtype=np.int64)
            pos = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
            P = np.concatenate(pmfs).astype(np.float32)
            C, coff, first, length = _quantize(P, pos, np.array(los, dtype=np.int64), lens)
            at = store.append(C)
            jj = np.array(js, dtype=np.int64)
            qoff[jj] = at + coff
            qlo[jj] = first
            qlen[jj] = length
        if progress is not None:
            progress(step + 1, spec.nbox)
    return Distributions(sol, plan.ulo, qoff, qlo, qlen, store.view().copy(),
                         time.perf_counter() - t0, True)


def turn_chances(spec: Spec, A: int, arrays: tuple[I64, I64, I64, npt.NDArray[Any]],
                 mask: int, aux: int, points: int, first_roll: bool) -> TurnChances:
    """:func:`.local.turn_chances` for served boxes and a box needing another (the turn
    kernel knows neither): the worth of every placement from the rows ``arrays`` (the
    champion's, one per state after this turn, from ``points`` on), the keeps' by
    :func:`.extended.keep_levels` with the served placements at the first roll, and
    ``B`` the placements' worth at the roll the dice show (``first_roll``: served)."""
    from .extended import keep_levels
    from .local import TurnChances

    off, wlo, wlen, Q = arrays
    t = spec.dice
    nb, U = spec.nbox, spec.U
    u, flag = aux % U, aux // U
    upper = np.asarray(spec.box_upper, dtype=bool)
    mult = np.asarray(spec.box_mult, dtype=np.int64)

    def placements(table: npt.NDArray[Any]) -> F64:
        B = np.full((t.nfull, nb + 1), -1.0)
        for b in range(nb):
            if (mask >> b) & 1:
                continue
            pts = np.asarray(table[b], dtype=np.int64).copy()
            if b == spec.needs_box and not flag:
                pts[:] = 0
            nflag: Any = (pts > 0).astype(np.int64) if (
                spec.nflag == 2 and b == spec.flag_box) else flag
            up = U > 1 and bool(upper[b])
            nu = np.minimum(U - 1, u + pts) if up else u
            gain = pts * int(mult[b])
            if up and spec.bonus_table is None:
                gain = gain + np.where((u < spec.need) & (u + pts >= spec.need),
                                       spec.bonus_amt, 0)
            j = (mask | (1 << b)) * A + nflag * U + nu
            at = points + gain - wlo[j]
            if (at < 0).any() or (at >= wlen[j]).any():
                raise ValueError("a placement beyond the rows of the states after it")
            B[:, b] = Q[off[j] + at]
        return B

    normal = placements(spec.score)
    served = placements(spec.served) if spec.served is not None else normal
    E0 = normal[:, :nb].max(axis=1)
    E0s = served[:, :nb].max(axis=1)
    R = spec.rolls
    Ks = keep_levels(spec, E0, R, lambda level: E0s if level == R - 1 else None)
    return TurnChances(E0, Ks, served if first_roll else normal)
