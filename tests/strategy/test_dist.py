"""Score distributions (solver/dist.py): against a brute force through the engine, the
solver's means, the self-play, and the chances of winning built on them."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import Category, Ruleset, UpperBonus, YahtzeeBonusJoker, get
from yacht.strategy.advisor import advise
from yacht.strategy.solver import fast_selfplay, solve
from yacht.strategy.solver.dist import (
    STEPS,
    distributions,
    supported,
    win_chances,
    win_worth,
)

#: a cumulative chance is stored within half a step
CDF_TOL = 1.0 / STEPS


def cat(id: str, scorer: str, section: str = "lower", **params: Any) -> Category:
    return Category(id, id.title(), section, scorer, tuple(params.items()))  # type: ignore[arg-type]


def face(f: int) -> Category:
    return cat(["ones", "twos", "threes", "fours", "fives", "sixes"][f - 1], "face", "upper",
               face=f)


def small(kind: str) -> Ruleset:
    """Two dice, two rolls, three or four boxes: small enough to play out every game."""
    if kind == "bonus":
        cats = (face(1), face(6), cat("pair", "of_a_kind", n=2, points="all"),
                cat("chance", "sum"))
        return replace(get("ancient-yacht"), id="reduced", dice=2, rolls=2, categories=cats,
                       special=(), upper_bonus=UpperBonus(7, ">=", 10))
    rs = get("yahtzee", {"joker": kind, "bonus": "on"})
    three = (face(1), cat("full_house", "pattern", counts=(1, 1), points=7),
             cat("yahtzee", "of_a_kind", n=2, points=50))
    return replace(rs, id="reduced-joker", dice=2, rolls=2, categories=three,
                   upper_bonus=UpperBonus(3, ">=", 5), special=(YahtzeeBonusJoker(
                       joker_points=(("full_house", 25),)),))


def brute_force(rs: Ruleset) -> dict[int, float]:
    """The final total's distribution when the expert (the advisor's first choice) plays
    every game out through the engine: every chance outcome, exactly."""
    sol = solve(rs)
    memo: dict[Any, dict[int, float]] = {}

    def spread(s: State) -> dict[int, float]:
        out: dict[int, float] = {}
        here = s.returns()[0]
        for outcome, p in s.chance_outcomes():
            t = s.clone()
            t.apply(Roll(outcome))
            gained = t.returns()[0] - here
            for x, q in play(t).items():
                out[x + gained] = out.get(x + gained, 0.0) + p * q
        return out

    def play(s: State) -> dict[int, float]:
        """The points still to come from ``s``."""
        if s.is_terminal():
            return {0: 1.0}
        key = (s.card(0).boxes, tuple(sorted(s.dice)), s.rolls_left, s.turns_taken(0))
        hit = memo.get(key)
        if hit is not None:
            return hit
        here = s.returns()[0]
        if not s.dice:
            out = spread(s)
        else:
            decision = advise(s, sol)[0].decision()
            t = s.clone()
            if decision.score is not None:
                t.apply(decision.score)
                gained = t.returns()[0] - here
                out = {x + gained: q for x, q in play(t).items()}
            else:
                t.apply(Choose(decision.reroll))
                out = spread(t)
        memo[key] = out
        return out

    return play(State(rs, [Player("E", "computer", "expert")]))


def dense(lo: int, pmf: np.ndarray, at: int, hi: int) -> np.ndarray:
    out = np.zeros(hi - at)
    out[lo - at:lo - at + len(pmf)] = pmf
    return out


@pytest.mark.parametrize("kind", ["bonus", "forced", "free"])
@pytest.mark.slow
def test_small_games_match_the_brute_force(kind: str) -> None:
    rs = small(kind)
    exact = brute_force(rs)
    dd = distributions(rs, cache=False)
    lo, pmf = dd.final(rs.new_card(), 0)
    at, hi = min(min(exact), lo), max(max(exact) + 1, lo + len(pmf))
    want = np.zeros(hi - at)
    for x, p in exact.items():
        want[x - at] = p
    got = dense(lo, pmf, at, hi)
    assert np.abs(np.cumsum(got) - np.cumsum(want)).max() <= CDF_TOL
    assert abs(float(np.dot(got, np.arange(at, hi))) - solve(rs).expected_score) < 1e-3


@pytest.mark.parametrize("variant", ["tommys-crag", "ancient-yacht", "tommys-yacht"])
def test_means_are_the_solvers_values(variant: str) -> None:
    rs = get(variant)
    dd = distributions(rs, cache=False)
    sol = dd.solution
    lo, pmf = dd.final(rs.new_card(), 0)
    assert abs(pmf.sum() - 1) < 1e-9
    assert abs(float(np.dot(pmf, np.arange(lo, lo + len(pmf)))) - sol.expected_score) < 0.01
    rng = np.random.default_rng(3)
    masks = rng.integers(0, 1 << dd.spec.nbox, size=40)
    for m in masks.tolist():
        assert abs(dd.mean(m, 0) - sol.future(m, 0)) < 0.01


def test_the_self_play_agrees_within_its_error() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs, cache=False)
    games = 100_000
    totals = fast_selfplay(dd.solution, games, seed=11, workers=2).totals.astype(np.int64)
    lo, pmf = dd.final(rs.new_card(), 0)
    xs = np.arange(lo, lo + len(pmf))
    mean = float(np.dot(pmf, xs))
    sd = float(np.sqrt(np.dot(pmf, (xs - mean) ** 2)))
    assert abs(totals.mean() - mean) < 4 * sd / np.sqrt(games)
    cdf = np.cumsum(pmf)
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        x = int(xs[np.searchsorted(cdf, q)])
        # the share of games at most x is within 4 standard errors of the exact chance
        p = float(cdf[x - lo])
        assert abs(float((totals <= x).mean()) - p) < 4 * np.sqrt(p * (1 - p) / games) + 1e-4


def test_a_full_card_and_a_card_in_play() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs, cache=False)
    s = State(rs, [Player("E", "computer", "expert")], rng=random.Random(2))
    s.apply(Roll())
    s.apply(Score(s.placements()[0].category))
    lo, pmf = dd.final(s.card(0), 1)
    here = rs.totals(s.card(0)).grand
    assert lo >= here and abs(pmf.sum() - 1) < 1e-9


def test_unsupported_variants_say_so() -> None:
    assert not supported(get("ancient-yacht-double"))
    assert not supported(get("ancient-yacht-10-double"))
    assert supported(get("yahtzee"))


def test_win_chances_and_worth_of_distributions() -> None:
    a = (10, np.array([0.5, 0.0, 0.5]))     # 10 or 12
    b = (11, np.array([1.0]))
    assert win_chances([a, b]) == [0.5, 0.5]
    lo, w = win_worth([b])
    assert lo == 11 and w.tolist() == [0.5]
    # a tie for first shared by both
    assert win_chances([(5, np.ones(1)), (5, np.ones(1))]) == [1.0, 1.0]


def test_the_cache_is_mapped_and_a_damaged_file_is_rebuilt() -> None:
    from yacht.strategy.solver import cache as diskcache
    from yacht.strategy.solver.dist import clear_memory

    rs = get("tommys-crag")
    clear_memory()   # (built without the cache by the tests above)
    built = distributions(rs)
    want = built.final(rs.new_card(), 0)
    clear_memory()
    loaded = distributions(rs)
    assert not loaded.built and isinstance(loaded.C, np.memmap)
    got = loaded.final(rs.new_card(), 0)
    assert got[0] == want[0] and np.array_equal(got[1], want[1])
    path = diskcache.cache_path(rs.key, kind="dist")
    data = path.read_bytes()
    path.write_bytes(data[:-10])          # cut short: rebuilt
    clear_memory()
    again = distributions(rs)
    assert again.built and again.final(rs.new_card(), 0)[0] == want[0]
