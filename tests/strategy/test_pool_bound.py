"""The proven bound of saved rolls (solver/pool.py) on a game small enough to solve
exactly with the pool in the state: the bound is above the optimum at every price, and
the expert's strategy (its exact expected score, by policy evaluation) below it."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import pytest

from yacht.rules import Ruleset, UpperBonus, get
from yacht.strategy.solver import reference as ref
from yacht.strategy.solver import solve
from yacht.strategy.solver.build import Solution, reachable_states
from yacht.strategy.solver.extended import keep_levels
from yacht.strategy.solver.pool import CARRY, _off, pool_bound, relaxed_bound, schedule
from yacht.strategy.solver.spec import Spec, compile_ruleset
from yacht.strategy.solver.tables import kernel_tables

Table = dict[tuple[int, int, int], float]   # (mask, aux, rolls in the pool) -> points to come


def small() -> Ruleset:
    """Maxi Yatzy cut down: 3 dice, fives, sixes, three of a kind and chance, a bonus of
    10 at 15 (saved rolls as the game has them: 3 more a turn, the pool kept)."""
    rs = get("maxi-yatzy")
    by_id = {c.id: c for c in rs.categories}
    cats = tuple(by_id[i] for i in ("fives", "sixes", "three_of_a_kind", "chance"))
    bonus = UpperBonus(15, ">=", 10)
    return replace(rs, id="small-maxi", dice=3, categories=cats, catalogue=cats,
                   upper_bonus=bonus, base_bonus=bonus)


def _after(spec: Spec, W: Table, m: int, a: int, d: int, left: int) -> list[tuple[float, int]]:
    """Each placement of outcome ``d`` with ``left`` rolls going to the pool: its points
    plus the value after it, and its box (the rules' placements of the reference)."""
    kt = kernel_tables(spec)
    full = (1 << spec.nbox) - 1
    out = []
    for b, gain, nu, nflag in ref.placements(kt, m, a % spec.U, a // spec.U, d):
        m2 = m | (1 << b)
        out.append((gain + (0.0 if m2 == full else W[m2, nflag * spec.U + nu, left]), b))
    return out


@lru_cache(maxsize=1)
def exact_with_pool() -> float:
    """The optimal expected score of :func:`small` with the pool in the state: a turn
    after ``k`` boxes has 3 + p rolls (``p`` saved, at most 2k); stopping with ``j`` rolls
    left puts ``j`` in the pool."""
    spec = compile_ruleset(_off(small()))
    t = spec.dice
    W: Table = {}
    ms, ax = reachable_states(spec)
    order = sorted(zip(ms.tolist(), ax.tolist(), strict=True), key=lambda s: -bin(s[0]).count("1"))
    full = (1 << spec.nbox) - 1
    for m, a in order:
        if m == full:
            continue
        k = bin(m).count("1")
        for p in range(2 * k + 1):
            R = 3 + p
            E = np.array([[max(v for v, _ in _after(spec, W, m, a, d, j)) for d in range(t.nfull)]
                          for j in range(R)])
            Ks = keep_levels(spec, E[0], R, lambda j, E=E: E[j] if j else None)  # type: ignore[misc]
            W[m, a, p] = float(Ks[R - 1, 0])
    return W[0, 0, 0]


def strategy_value(sol: Solution) -> float:
    """The expected score of the expert's strategy (as ``selfplay.python_selfplay`` plays
    it: stop when the best placement plus what the saved rolls are worth to it beats the
    best keep), by exact evaluation over (card, pool)."""
    spec = sol.spec
    kt = kernel_tables(spec)
    t = spec.dice
    W: Table = {}
    ms, ax = reachable_states(spec)
    order = sorted(zip(ms.tolist(), ax.tolist(), strict=True), key=lambda s: -bin(s[0]).count("1"))
    full = (1 << spec.nbox) - 1
    first = ref._roll_results(kt, 0)
    plain: Table = {(mm, aa, 0): float(sol.V[mm, aa])
                    for mm, aa in zip(ms.tolist(), ax.tolist(), strict=True)}
    rolls = {k: ref._roll_results(kt, k) for k in range(t.full_start)}
    for m, a in order:
        if m == full:
            continue
        _, Ks = sol.turn_tables(m, a)
        k = bin(m).count("1")
        for p in range(2 * k + 1):
            R = 3 + p
            g = np.zeros((R, t.nfull))   # g[left, d]: the strategy's true value from there
            for left in range(R):
                for d in range(t.nfull):
                    # the box it picks: the best by the table without saved rolls
                    plan = _after(spec, plain, m, a, d, 0)
                    b = max(plan, key=lambda x: x[0])[1]   # (the first best)
                    true = next(v for v, bb in _after(spec, W, m, a, d, left) if bb == b)
                    if left == 0:
                        g[left, d] = true
                        continue
                    stop = max(v for v, _ in plan) + sol.carry_value(left)
                    keeps = ref._subsets(kt, d)
                    vals = Ks[min(left, sol.plan_levels) - 1, keeps]
                    i = int(np.argmax(vals))
                    if stop >= float(vals[i]):
                        g[left, d] = true
                    else:
                        g[left, d] = sum(q * g[left - 1, d2]
                                         for d2, q in rolls[keeps[i]])
            W[m, a, p] = sum(q * g[R - 1, d] for d, q in first)
    return W[0, 0, 0]


@pytest.mark.parametrize("price", [0.0, 1.0, 2.0, 3.0, 6.0, 10.0, (4.0, 2.0, 1.0, 0.0),
                                   (10.0, 10.0, 0.0, 0.0), (2.0, 1.8, 1.8, 0.5),
                                   (30.0, 3.0, 1.0, 1.0)])
def test_the_bound_is_above_the_exact_optimum_at_every_price(
        price: float | tuple[float, ...]) -> None:
    """One price for every turn, or a price a turn never rising (the proof's condition)."""
    exact = exact_with_pool()
    off = solve(_off(small()), cache=False).expected_score
    assert exact > off + 1.0          # saved rolls are worth something here
    assert relaxed_bound(small(), price, workers=2) >= exact - 1e-9


def test_prices_rising_from_a_turn_to_the_next_are_refused() -> None:
    """Prices rising after a turn are no multipliers of the pool's constraints (the
    proof does not cover them): refused, as negative ones and a wrong count."""
    with pytest.raises(ValueError, match="must not rise"):
        relaxed_bound(small(), (0.0, 0.0, 0.0, 50.0))
    with pytest.raises(ValueError, match="0 or more"):
        relaxed_bound(small(), (1.0, 1.0, 1.0, -1.0))
    with pytest.raises(ValueError, match="one a turn"):
        relaxed_bound(small(), (1.0, 1.0))
    assert schedule(2.5, 3).tolist() == [2.5, 2.5, 2.5]


def test_the_best_price_bounds_closely_and_the_strategy_stays_below() -> None:
    exact = exact_with_pool()
    bound, price = pool_bound(small(), (0.0, 1.0, 2.0, 3.0))
    assert price in (1.0, 2.0, 3.0)   # a price beats letting every turn roll for free
    assert exact <= bound < relaxed_bound(small(), 0.0)
    sol = solve(small(), cache=False, estimate=False)
    assert not sol.exact and sol.carry == CARRY
    off = solve(_off(small()), cache=False).expected_score
    # the strategy as it plays Maxi Yatzy (6 points a saved roll: too dear for boxes this
    # small, it hoards rolls), and with a price fitting them (it gains by its pool)
    assert strategy_value(sol) <= exact + 1e-9
    sol.carry = 0.5
    sol._turns.clear()
    fitting = strategy_value(sol)
    assert off < fitting <= exact + 1e-9


def test_the_strategy_reports_its_bound_and_yacht_solve_the_gap(
        capsys: pytest.CaptureFixture[str]) -> None:
    import json
    from argparse import Namespace

    from yacht.cli.commands.solve import _report
    from yacht.strategy.solver.build import clear_memory_cache
    from yacht.strategy.solver.pool import BOUND_PRICE

    clear_memory_cache()
    sol = solve(small(), cache=False)
    assert sol.upper_bound == pytest.approx(relaxed_bound(small(), BOUND_PRICE), abs=1e-12)
    assert sol.estimate is not None and sol.estimate < exact_with_pool() <= sol.upper_bound
    assert "Lagrangian" in sol.note
    assert _report(Namespace(json=True), small(), sol, 0.1) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["upper_bound"] == round(sol.upper_bound, 4)
    assert data["gap"] == pytest.approx(sol.upper_bound - sol.estimate, abs=1e-3)
