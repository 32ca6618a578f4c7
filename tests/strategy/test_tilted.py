"""Tilted experts (solver/tilted.py): their certainty equivalents, their exact
distributions against their own self-play, and the champion playing on as the best
of them."""

from __future__ import annotations

import random

import numpy as np

from yacht.engine import Player, Roll, State
from yacht.rules import get
from yacht.strategy.base import make_player, play_turn
from yacht.strategy.champion import rank_situation
from yacht.strategy.solver import fast_selfplay, solve
from yacht.strategy.solver.dist import distributions
from yacht.strategy.solver.tilted import certainty_equivalents, tilted, tilted_solution


def test_a_faint_tilt_is_the_mean() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs)
    V = certainty_equivalents(dd, 1e-7)
    sol = solve(rs)
    reach = np.asarray(dd.off) >= 0
    flat = V.reshape(-1)[reach]
    # the distributions' means are the solver's within their 16-bit steps
    assert np.allclose(flat, sol.V.reshape(-1)[reach], atol=0.05)


def test_a_tilt_for_spread_pays_in_mean_and_certainty() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs)
    up = certainty_equivalents(dd, 0.05)
    down = certainty_equivalents(dd, -0.05)
    sol = solve(rs)
    assert up[0, 0] > sol.V[0, 0] > down[0, 0]


def test_a_tilted_distribution_is_its_own_self_play() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs)
    theta = 0.05
    t = tilted(rs, theta, cache=False)
    tsol = tilted_solution(dd.solution, certainty_equivalents(dd, theta))
    games = 60_000
    totals = fast_selfplay(tsol, games, seed=5, workers=2).totals.astype(np.int64)
    lo, pmf = t.final(rs.new_card(), 0)
    xs = np.arange(lo, lo + len(pmf))
    mean = float(np.dot(pmf, xs))
    sd = float(np.sqrt(np.dot(pmf, (xs - mean) ** 2)))
    assert abs(totals.mean() - mean) < 4 * sd / np.sqrt(games)
    cdf = np.cumsum(pmf)
    for q in (0.05, 0.5, 0.95):
        x = int(xs[np.searchsorted(cdf, q)])
        p = float(cdf[x - lo])
        assert abs(float((totals <= x).mean()) - p) < 4 * np.sqrt(p * (1 - p) / games) + 1e-4
    # it is not the expert: the expert has the best mean
    assert mean < dd.mean(0, 0)


def test_the_champion_plays_on_as_the_best_of_its_ways() -> None:
    """Playing on as the best of the expert and its tilts, every action's chance is at
    least the one playing on as the expert gives (a maximum over more ways)."""
    rs = get("tommys-crag")
    expert = make_player(rs, "expert")
    rng = random.Random(3)
    for k in range(6):
        s = State(rs, [Player("A", "computer", "expert"), Player("B", "computer", "expert")],
                  rng=random.Random(rng.randrange(1 << 30)))
        for _ in range(k):
            play_turn(s, expert)
        s.apply(Roll())
        me = s.current
        others = [(s.card(1 - me), s.turns_taken(1 - me))]
        card, turn = s.card(me), s.turns_taken(me)
        plain = rank_situation(rs, card, turn, s.dice, s.rolls_left, others)
        wide = rank_situation(rs, card, turn, s.dice, s.rolls_left, others,
                              tilts=(-0.05, 0.05))
        assert plain is not None and wide is not None
        assert "tilts" in wide.how and "tilts" not in plain.how
        by_plain = {o.decision(): o.chance for o in plain.options}
        for o in wide.options:
            assert o.chance >= by_plain[o.decision()] - 1e-6
