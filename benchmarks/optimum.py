"""How much of the best possible edge does the champion take? An exact answer on small games.

In two-player Yahtzee the champion wins about 51.7 % against the expert; the issue's
target is 52.5 %. Whether that is within reach of *any* way of playing is not known:
the exact best play against the expert needs both cards and the difference of the
totals as its state, far too many for the real game. On a mini Yahtzee (the real
dice, rolls and scoring, four to seven of its boxes, with or without an upper bonus)
it is small enough to solve:

* ``optimum``: the best chance of beating the expert, exactly (a backward pass over
  (my card, its card, my total minus its total), the expert's turns as the exact
  chances of each way its turn ends, mine played to win at every keep and box);
* ``one-turn``: the chance of the champion's one-turn look-ahead (its play before it
  plans, ``--plan 0``: each turn played to win as if both played on as the expert
  after it; exactly, the turn's choices made on that worth, their results valued by
  its own play on);
* ``planned``: the champion's default (``PLAN``: from few open boxes on it plans its
  whole rest of game against the opponent's final total as it stands, and plans again
  at every decision), exactly, the same way;
* ``expert``: the expert against itself, 50 % (a check of the whole pass);
* ``bound``: each expert total weighed by the best chance of beating it, as if it were
  known from the start (an upper bound of every way of playing, as in
  ``benchmarks/README.md`` for the real games);
* ``sampled``: the real champion (``ChampionStrategy``, its default and ``--plan 0``)
  against the real expert on the same mini game, ``--games`` games, seats alternated.

The share of the edge the champion takes on the mini game says how far it is from
the best there is, where the best can be known. Everything is exact but the sampled
part (its 95 % interval is printed); the mini games' rulesets are in ``MINIS``.

Usage::

    .venv/bin/python benchmarks/optimum.py --mini 5 --games 40000 --workers 2
    .venv/bin/python benchmarks/optimum.py --mini 7 --policies optimum,one-turn
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import os
import random
import sys
import tempfile
import time
from typing import Any

import numpy as np

#: the mini games: the boxes of Yahtzee each keeps (its Yahtzee bonus and joker rule kept)
#: and its upper bonus (the total of its upper boxes that earns it, and the bonus), if any
MINIS: dict[str, tuple[tuple[str, ...], tuple[int, int] | None]] = {
    "3": (("sixes", "yahtzee", "chance"), None),
    "5": (("sixes", "three_of_a_kind", "full_house", "yahtzee", "chance"), None),
    "6": (("sixes", "three_of_a_kind", "full_house", "large_straight", "yahtzee", "chance"),
          None),
    "7": (("fives", "sixes", "three_of_a_kind", "full_house", "large_straight", "yahtzee",
           "chance"), None),
    # with an upper bonus: fives and sixes worth 30 or more earn 35
    "4": (("fives", "sixes", "yahtzee", "chance"), None),
    "4u": (("fives", "sixes", "yahtzee", "chance"), (30, 35)),
    "5u": (("fives", "sixes", "full_house", "yahtzee", "chance"), (30, 35)),
}


def mini(name: str) -> Any:
    """Yahtzee with the boxes (and upper bonus) of ``MINIS[name]`` only."""
    from yacht.rules import UpperBonus, get
    from yacht.rules.hooks import YahtzeeBonusJoker

    rs = get("yahtzee")
    keep, bonus = MINIS[name]
    cats = tuple(c for c in rs.categories if c.id in keep)
    special = tuple(dataclasses.replace(s, joker_points=tuple(
        (k, v) for k, v in s.joker_points if k in keep)) if isinstance(s, YahtzeeBonusJoker)
        else s for s in rs.special)
    upper = None if bonus is None else UpperBonus(bonus[0], ">=", bonus[1])
    return dataclasses.replace(rs, id=f"mini-yahtzee-{name}", categories=cats,
                               special=special, upper_bonus=upper)


class Game:
    """The states, the expert's turns and the dice of one mini game."""

    def __init__(self, rs: Any, span: int) -> None:
        from yacht.strategy.solver import reference as ref
        from yacht.strategy.solver import solve
        from yacht.strategy.solver.tables import kernel_tables

        self.rs = rs
        sol = solve(rs, cache=False)
        self.spec = spec = sol.spec
        self.kt = kt = kernel_tables(spec)
        self.V = sol.V
        nbox, U = spec.nbox, spec.U
        self.full = (1 << nbox) - 1
        # states: every (mask, aux) a card can reach
        from yacht.strategy.solver.build import reachable_states

        ms, ax = reachable_states(spec)
        self.states = [(int(m), int(a)) for m, a in zip(ms, ax, strict=True)]
        self.index = {s: i for i, s in enumerate(self.states)}
        self.filled = [bin(m).count("1") for m, _ in self.states]
        self._ee: dict[tuple[int, int], np.ndarray] = {}
        self.span = span            # the differences of the totals kept: -span..span
        self.nd = 2 * span + 1
        nfull = kt.score.shape[1]
        self.nfull = nfull
        # the dice: keep k (a proper sub-multiset) -> chance of each outcome
        fs = kt.full_start
        P = np.zeros((fs, nfull))
        for k in range(fs):
            for d, p in ref._roll_results(kt, k):
                P[k, d] += p
        self.P = P
        self.subs = [ref._subsets(kt, d) for d in range(nfull)]
        # each unfinished state: its placements per outcome, the expert's turn outcomes
        self.place: dict[int, list[list[tuple[int, int]]]] = {}
        self.expert_turn: dict[int, list[tuple[int, int, float]]] = {}
        for i, (m, a) in enumerate(self.states):
            if m == self.full:
                continue
            rows = []
            for d in range(nfull):
                row = []
                for b, gain, nu, nflag in ref.placements(kt, m, a % U, a // U, d):
                    assert b >= 0, "no repeat box in the mini games"
                    row.append((self.index[(m | (1 << b), nflag * U + nu)], gain))
                rows.append(row)
            self.place[i] = rows
            E0, Ks = ref.turn_values(kt, self.V, m, a)
            final = ref.play_turn(kt, Ks, E0)
            outs: dict[tuple[int, int], float] = {}
            for d, p in enumerate(final):
                if p == 0.0:
                    continue
                _, (b, gain, nu, nflag) = ref.best_placement(kt, self.V, m, a, d)
                key = (self.index[(m | (1 << b), nflag * U + nu)], gain)
                outs[key] = outs.get(key, 0.0) + p
            self.expert_turn[i] = [(j, g, p) for (j, g), p in outs.items()]
        # the expert's points to come from each state
        self.pmf: dict[int, np.ndarray] = {}
        for i in sorted(range(len(self.states)), key=lambda i: -self.filled[i]):
            if self.states[i][0] == self.full:
                self.pmf[i] = np.ones(1)
                continue
            top = max(g + len(self.pmf[j]) for j, g, _ in self.expert_turn[i])
            pmf = np.zeros(top)
            for j, g, p in self.expert_turn[i]:
                pmf[g:g + len(self.pmf[j])] += p * self.pmf[j]
            self.pmf[i] = pmf

    # --- values over the difference of the totals --------------------------------------

    def shift(self, arr: np.ndarray, g: int) -> np.ndarray:
        """``arr`` (..., nd) read at difference + g (clamped at the ends)."""
        if g == 0:
            return arr
        idx = np.clip(np.arange(self.nd) + g, 0, self.nd - 1)
        return arr[..., idx]

    def terminal(self) -> np.ndarray:
        d = np.arange(-self.span, self.span + 1)
        return np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0))

    def both_expert(self, ia: int, ib: int) -> np.ndarray:
        """The chance of winning (ties half) at each difference when both play on as the
        expert from states ia (mine) and ib."""
        hit = self._ee.get((ia, ib))
        if hit is not None:
            return hit
        pa, pb = self.pmf[ia], self.pmf[ib]
        z = np.convolve(pa, pb[::-1])          # z[k]: mine - its = k - (len(pb) - 1)
        zoff = -(len(pb) - 1)
        # at difference d: P(Z > -d) + P(Z = -d) / 2
        above = np.concatenate([np.cumsum(z[::-1])[::-1], [0.0]])   # above[k]: P(index >= k)
        d = np.arange(-self.span, self.span + 1)
        k = np.clip(-d - zoff, 0, len(z))          # the index of Z = -d
        eq = np.where((-d - zoff >= 0) & (-d - zoff < len(z)), z[np.clip(-d - zoff, 0,
                                                                         len(z) - 1)], 0.0)
        gt = np.where(-d - zoff < 0, 1.0, above[np.minimum(k + 1, len(z))])
        out = np.minimum(gt + 0.5 * eq, 1.0)
        self._ee[(ia, ib)] = out
        return out

    # --- one turn of mine ----------------------------------------------------------------

    def my_turn(self, ia: int, leaf: Any, decide: Any = None) -> np.ndarray:
        """My turn from state ia against a group of opponent states: ``leaf(j)`` the worth
        (nB, nd) after placing into state j (points not yet added); with ``decide`` (the
        same shape), the choices are made on ``decide``'s worth and ``leaf`` is what they
        are worth. Returns the turn-start worth (nB, nd)."""
        rows = self.place[ia]
        cache: dict[int, np.ndarray] = {}
        dcache: dict[int, np.ndarray] = {}

        def get(c: dict[int, np.ndarray], f: Any, j: int) -> np.ndarray:
            if j not in c:
                c[j] = f(j)
            return c[j]

        first = get(cache, leaf, rows[0][0][0])
        X = first.size
        shape = first.shape
        E0 = np.empty((self.nfull, X))
        D0 = np.empty((self.nfull, X)) if decide is not None else None
        for d, row in enumerate(rows):
            vals = np.stack([self.shift(get(cache, leaf, j), g).ravel() for j, g in row])
            if decide is None:
                E0[d] = vals.max(axis=0)
            else:
                dv = np.stack([self.shift(get(dcache, decide, j), g).ravel() for j, g in row])
                pick = dv.argmax(axis=0)
                E0[d] = np.take_along_axis(vals, pick[None], 0)[0]
                D0[d] = np.take_along_axis(dv, pick[None], 0)[0]
        best, dbest = E0, D0
        K = Kd = None
        for j in range(self.kt.rolls):
            if j > 0:
                nb = np.empty_like(best)
                nd_ = np.empty_like(best) if decide is not None else None
                for d in range(self.nfull):
                    s = self.subs[d]
                    if decide is None:
                        nb[d] = np.maximum(best[d], K[s].max(axis=0)) if s else best[d]
                    else:
                        # scoring now first (the expert's order on ties), then the keeps
                        dv = np.concatenate([dbest[d][None], Kd[s]])
                        vv = np.concatenate([best[d][None], K[s]])
                        pick = dv.argmax(axis=0)
                        nb[d] = np.take_along_axis(vv, pick[None], 0)[0]
                        nd_[d] = np.take_along_axis(dv, pick[None], 0)[0]
                best, dbest = nb, nd_
            K = self.P @ best
            if decide is not None:
                Kd = self.P @ dbest
        assert K is not None
        return K[0].reshape(shape).copy()  # (a view would keep all the keeps' K alive)


def solve_duel(g: Game, mine_first: bool, policy: str) -> float:
    """My chance of winning (ties half) against the expert from the empty cards.

    ``policy``: ``optimum`` (every choice to win, exactly), ``one-turn`` (the champion's
    look-ahead: each turn's choices on the worth of both playing on as the expert after
    it; once the opponent has finished, exactly), ``expert`` (my turns as the expert's)."""
    n = g.spec.nbox
    states = range(len(g.states))
    by_filled: dict[int, list[int]] = {}
    for i in states:
        by_filled.setdefault(g.filled[i], []).append(i)
    T = g.terminal()
    # values at turn starts: mine[(ia, ib)], its[(ia, ib)] over the difference
    mine: dict[tuple[int, int], np.ndarray] = {}
    its: dict[tuple[int, int], np.ndarray] = {}
    blind: dict[int, np.ndarray] = {}   # the plan's worth (see planned_worth)
    if policy == "planned":  # filled from the full cards back: one turn's arrays live at a
        for i in sorted(states, key=lambda i: -g.filled[i]):  # time (its recursion held
            planned_worth(g, i, blind)                       # them all: >24 GB, 7 boxes)

    def after_mine(ia: int, ib: int) -> np.ndarray:
        """Worth once my turn has left state ia (the opponent's move next, or the end)."""
        fa, fb = g.filled[ia], g.filled[ib]
        if fa == n and fb == n:
            return T
        if mine_first:
            return its[(ia, ib)]
        return mine[(ia, ib)] if fb == n else its[(ia, ib)]

    def after_its(ia: int, ib: int) -> np.ndarray:
        fa, fb = g.filled[ia], g.filled[ib]
        if fa == n and fb == n:
            return T
        if mine_first:
            return its[(ia, ib)] if fa == n else mine[(ia, ib)]
        return mine[(ia, ib)]

    # turn order: mine_first: my turns at fa == fb, its at fa == fb + 1; else its at
    # fa == fb, mine at fb == fa + 1. Backward over fa + fb.
    for t in range(2 * n - 1, -1, -1):
        for fa in range(max(0, t - n), min(n, t) + 1):
            fb = t - fa
            if fa > n or fb > n:
                continue
            my_move = (fa == fb) if mine_first else (fb == fa + 1)
            if not my_move and not ((fa == fb + 1) if mine_first else (fa == fb)):
                continue
            if my_move and fa == n:
                continue
            if not my_move and fb == n:
                continue
            As, Bs = by_filled.get(fa, []), by_filled.get(fb, [])
            if not As or not Bs:
                continue
            if my_move:
                for ia in As:
                    def leaf(j: int, Bs: list[int] = Bs) -> np.ndarray:
                        return np.stack([after_mine(j, ib) for ib in Bs])
                    if policy == "expert":
                        out = np.zeros((len(Bs), g.nd))
                        for j, gain, p in g.expert_turn[ia]:
                            out += p * g.shift(leaf(j), gain)
                    elif policy == "one-turn" and fb < n:
                        def worth(j: int, Bs: list[int] = Bs) -> np.ndarray:
                            return np.stack([g.both_expert(j, ib) for ib in Bs])
                        out = g.my_turn(ia, leaf, decide=worth)
                    elif policy == "planned" and fb < n:
                        def planned(j: int, Bs: list[int] = Bs) -> np.ndarray:
                            return planned_worth(g, j, blind)[Bs]
                        out = g.my_turn(ia, leaf, decide=planned)
                    else:
                        out = g.my_turn(ia, leaf)
                    for k, ib in enumerate(Bs):
                        mine[(ia, ib)] = out[k]
            else:
                for ib in Bs:
                    for ia in As:
                        out = np.zeros(g.nd)
                        for j, gain, p in g.expert_turn[ib]:
                            out += p * g.shift(after_its(ia, j), -gain)
                        its[(ia, ib)] = out
    ia0 = g.index[(0, 0)]
    start = mine[(ia0, ia0)] if mine_first else its[(ia0, ia0)]
    return float(start[g.span])


def planned_worth(g: Game, ia: int, memo: dict[int, np.ndarray],
                  final: Any = None) -> np.ndarray:
    """The champion's plan (``PLAN``: its whole rest of game from a card with few boxes
    open): the best chance of winning from my state ia against each opponent state (rows:
    every state), the opponent's final total drawn from the expert's distribution from
    that state as it stands (the plan does not see the opponent's turns to come; the
    champion plans again at its next decision). ``final(ia)``: the worth of my full card
    instead (rows, differences)."""
    hit = memo.get(ia)
    if hit is not None:
        return hit
    if g.filled[ia] == g.spec.nbox:
        out = (final(ia) if final is not None else
               np.stack([g.both_expert(ia, ib) for ib in range(len(g.states))]))
    else:
        out = g.my_turn(ia, lambda j: planned_worth(g, j, memo, final))
    memo[ia] = out
    return out


def clairvoyant_bound(g: Game) -> float:
    """The README's upper bound of any way of playing against the expert, as for the real
    games: the expert's final total ``k`` weighed by the best chance of reaching ``k + 1``
    and half the rest of the best chance of reaching ``k`` (as if ``k`` were known from
    the start)."""
    i0 = g.index[(0, 0)]
    d = np.arange(-g.span, g.span + 1)
    at_least = (d >= 0).astype(float)[None]
    # one opponent row: a finished card, 0 more points
    R = planned_worth(g, i0, {}, final=lambda ia: at_least)[0]   # R[span - n]: >= n
    pb = g.pmf[i0]
    total = 0.0
    for k, p in enumerate(pb):
        if p > 0:
            r1, r0 = R[g.span - (k + 1)], R[g.span - k]
            total += p * (r1 + 0.5 * (r0 - r1))
    return total


# --- the real champion on the mini game, sampled ----------------------------------------

_RS: Any = None


def _game(args: tuple[str, int, int, int]) -> float:
    from yacht.engine import Player, State
    from yacht.strategy.base import make_player, play_turn
    from yacht.strategy.champion import ChampionStrategy

    boxes, plan, seed, game = args
    global _RS
    if _RS is None:
        _RS = mini(boxes)
    rs = _RS
    key = ("players", boxes, plan)
    cache = globals().setdefault("_PL", {})
    if key not in cache:
        me = make_player(rs, "expert") if plan < 0 else ChampionStrategy(rs, threads=1,
                                                                          plan=plan)
        cache[key] = (me, make_player(rs, "expert"))
    champ, expert = cache[key]
    first = game % 2 == 0
    players = [Player("C", "computer", "champion"), Player("E", "computer", "expert")]
    strat = [champ, expert]
    if not first:
        players.reverse()
        strat.reverse()
    state = State(rs, players, rng=random.Random(seed * 1_000_003 + game))
    while not state.is_terminal():
        play_turn(state, strat[state.current])
    r = state.returns()
    c, o = (r[0], r[1]) if first else (r[1], r[0])
    return 1.0 if c > o else 0.5 if c == o else 0.0


def sampled(boxes: str, plan: int, games: int, seed: int, workers: int) -> np.ndarray:
    """Each game's result for the champion (``plan`` < 0: the expert in its seat)."""
    args = [(boxes, plan, seed, k) for k in range(games)]
    t0 = time.time()
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            res = pool.map(_game, args, chunksize=200)
    else:
        res = [_game(a) for a in args]
    print(f"  ({games} games in {time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    return np.array(res)


def interval(x: np.ndarray) -> tuple[float, float]:
    """The mean and the half width of its 95 % interval."""
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mini", default="6", choices=sorted(MINIS))
    ap.add_argument("--span", type=int, default=None,
                    help="differences of the totals kept (default: the highest total "
                         "without Yahtzee bonuses plus two of them; beyond, read as there)")
    ap.add_argument("--games", type=int, default=0, help="sampled games of the real champion")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--plans", default=None,
                    help="the champion's plans sampled (default: 0 and its default)")
    ap.add_argument("--no-exact", action="store_true", help="the sampled games only")
    ap.add_argument("--policies", default="expert,optimum,one-turn,planned",
                    help="the ways of playing solved exactly")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    known = ("expert", "optimum", "one-turn", "planned")
    bad = [p for p in a.policies.split(",") if p not in known]
    if bad:
        ap.error(f"--policies: unknown {', '.join(bad)} (known: {', '.join(known)})")
    if a.plans and not all(x.strip().lstrip("-").isdigit() for x in a.plans.split(",")):
        ap.error(f"--plans: {a.plans!r} is not a comma-separated list of whole numbers")
    os.environ.setdefault("YACHT_CACHE_DIR", tempfile.mkdtemp(prefix="yacht-optimum-"))
    os.environ.setdefault("YACHT_BUILDS", "wait")
    rs = mini(a.mini)
    t0 = time.time()
    from yacht.strategy.solver.spec import compiled
    from yacht.strategy.solver.target import _box_max

    spec = compiled(rs)
    span = a.span or int(_box_max(spec).sum()) + 2 * spec.ybonus + spec.bonus_amt
    g = Game(rs, span)
    print(f"{rs.id}: {len(g.states)} card states, differences -{span}..{span}, "
          f"set up in {time.time() - t0:.1f} s", flush=True)
    out: dict[str, Any] = {"ruleset": rs.id, "boxes": [c.id for c in rs.categories],
                           "span": span}
    for policy in () if a.no_exact else a.policies.split(","):
        t1 = time.time()
        first = solve_duel(g, True, policy)
        second = solve_duel(g, False, policy)
        rate = (first + second) / 2
        out[policy] = {"first": first, "second": second, "rate": rate,
                       "seconds": time.time() - t1}
        print(f"{policy:9} seated first {100 * first:.3f} %, second {100 * second:.3f} %, "
              f"both {100 * rate:.3f} % ({time.time() - t1:.0f} s)", flush=True)
    if not a.no_exact:
        out["bound"] = clairvoyant_bound(g)
        print(f"the bound with the opponent's total known from the start: "
              f"{100 * out['bound']:.3f} %")
    edge = out["optimum"]["rate"] - 0.5 if "optimum" in out else 0.0
    if edge > 0:
        if "one-turn" in out:
            share = (out["one-turn"]["rate"] - 0.5) / edge
            print(f"the one-turn look-ahead takes {100 * share:.0f} % of the best edge")
        if "planned" in out:
            share = (out["planned"]["rate"] - 0.5) / edge
            print(f"the planning champion takes {100 * share:.0f} % of the best edge")
        share = edge / (out["bound"] - 0.5)
        print(f"the best edge is {100 * share:.0f} % of the bound's")
    if a.games:
        from yacht.strategy.champion import PLAN

        # the expert in the champion's seat, the same games: the luck of the dice, to pair
        base = sampled(a.mini, -1, a.games, a.seed, a.workers)
        m, h = interval(base)
        out["sampled-expert"] = {"games": a.games, "rate": m, "half": h}
        print(f"expert in its seat: {100 * m:.2f} % (+-{100 * h:.2f}) over {a.games} games",
              flush=True)
        plans = [int(x) for x in a.plans.split(",")] if a.plans else [0, PLAN]
        for p in plans:
            x = sampled(a.mini, p, a.games, a.seed, a.workers)
            m, h = interval(x)
            dm, dh = interval(x - base)
            out[f"sampled-plan{p}"] = {"games": a.games, "rate": m, "half": h,
                                       "paired": dm, "paired_half": dh}
            print(f"champion plan {p}: {100 * m:.2f} % (+-{100 * h:.2f}); against the expert "
                  f"in its seat, game by game: {100 * dm:+.2f} points (+-{100 * dh:.2f}), so "
                  f"{100 * (0.5 + dm):.2f} %", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
