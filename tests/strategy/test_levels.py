"""The levels rank as they should: beginner < intermediate < expert.

The full check with many games on every variant is `benchmarks/levels.py`;
these are small, fixed-seed versions of it (deterministic, a few seconds).
"""

from __future__ import annotations

import math

import pytest

from yacht.rules import all_variants, get
from yacht.strategy.simulate import simulate

VARIANTS = [rs.id for rs in all_variants()]


def _z(a_mean: float, a_se: float, b_mean: float, b_se: float) -> float:
    return (a_mean - b_mean) / math.hypot(a_se, b_se)


@pytest.mark.parametrize("variant", VARIANTS)
def test_intermediate_beats_beginner(variant: str) -> None:
    rs = get(variant)
    # fewer, slower games (Maxi Yatzy's six dice vary more than ten: more of them)
    games = 8 if rs.dice > 6 else 40 if rs.dice > 5 else 50 if rs.dice > 3 else 120
    beg = simulate(rs, "beginner", games, seed=1, workers=1)
    mid = simulate(rs, "intermediate", games, seed=1, workers=1)
    assert _z(mid.mean, mid.se, beg.mean, beg.se) > 3, (beg.mean, mid.mean)


def test_beginner_beats_random() -> None:
    rs = get("yahtzee")
    rnd = simulate(rs, "random", 40, seed=1, workers=1)
    beg = simulate(rs, "beginner", 40, seed=1, workers=1)
    assert _z(beg.mean, beg.se, rnd.mean, rnd.se) > 3


def test_expert_beats_intermediate() -> None:
    """The optimum (the solver's exact expectation) is clearly above the intermediate."""
    from yacht.strategy.solver import solve

    rs = get("ancient-yacht")
    best = solve(rs).expected_score
    mid = simulate(rs, "intermediate", 500, seed=3, workers=2)
    assert (best - mid.mean) / mid.se > 3, (best, mid.mean, mid.se)


def test_expert_simulation_agrees_with_the_solver() -> None:
    from yacht.strategy.solver import solve

    rs = get("tommys-crag")
    best = solve(rs).expected_score
    r = simulate(rs, "expert", 20_000, seed=4, workers=2)
    assert abs(r.mean - best) < 3 * r.se
