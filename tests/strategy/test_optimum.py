"""benchmarks/optimum.py: the exact best play against the expert on mini Yahtzee games,
checked where it can be: the expert against itself is even, the best is at least every
other way it values, and its own turns are the target tables of the reference solver."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from yacht.strategy.solver import reference as ref

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def optimum() -> Any:
    spec = importlib.util.spec_from_file_location("optimum", ROOT / "benchmarks" / "optimum.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["optimum"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def game(optimum: Any) -> Any:
    return optimum.Game(optimum.mini("3"), 200)


def test_the_expert_against_itself_is_even(optimum: Any, game: Any) -> None:
    for first in (True, False):
        assert optimum.solve_duel(game, first, "expert") == pytest.approx(0.5, abs=1e-12)


def test_the_opponents_points_are_the_experts(game: Any) -> None:
    i0 = game.index[(0, 0)]
    pmf = game.pmf[i0]
    assert pmf.sum() == pytest.approx(1.0)
    assert (np.arange(len(pmf)) * pmf).sum() == pytest.approx(game.V[0, 0], rel=1e-12)


def test_the_best_is_at_least_every_other_way(optimum: Any, game: Any) -> None:
    second = optimum.solve_duel(game, False, "optimum")
    assert second > 0.5
    best = optimum.solve_duel(game, True, "optimum")
    for policy in ("one-turn", "planned"):
        assert 0.5 < optimum.solve_duel(game, True, policy) <= best + 1e-12
    assert optimum.clairvoyant_bound(game) > best


def test_a_turn_of_mine_is_the_reference_target_chance(optimum: Any, game: Any) -> None:
    """Against a finished card with 0 points, playing to end at or above ``-d``: the best
    chance of reaching each target, as the reference's target tables have it."""
    d = np.arange(-game.span, game.span + 1)
    at_least = (d >= 0).astype(float)[None]
    R = optimum.planned_worth(game, game.index[(0, 0)], {}, final=lambda ia: at_least)[0]
    for target in (45, 90):
        q = ref.target_chances(game.kt, game.spec.A, target)
        assert R[game.span - target] == pytest.approx(q[(0, 0)][0], abs=1e-12)
