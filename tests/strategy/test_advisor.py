"""The advisor: rankings, consistency with the solver's values, card notation."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest

from yacht.engine import Player, Roll, Score, State, roll_probability
from yacht.rules import get
from yacht.strategy.advisor import (
    AdviceError,
    advise,
    advise_card,
    card_text,
    parse_card,
)
from yacht.strategy.solver import solve


def _outcomes(n: int) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(range(1, 7), n))


@pytest.mark.parametrize("name", ["tommys-crag", "yahtzee", "tommys-yacht"])
def test_best_actions_average_to_expected_score(name: str) -> None:
    """E over the first roll of the best action's value = the solver's expected score."""
    rs = get(name)
    sol = solve(rs)
    card = rs.new_card()
    most = rs.max_rolls(rs.context(card, 0, 1))
    total = 0.0
    for dice in _outcomes(rs.dice):
        best = advise_card(rs, card, 0, dice, most - 1, sol)[0]
        total += float(roll_probability(dice)) * best.expected
    assert total == pytest.approx(sol.expected_score, abs=1e-7)


def test_ranking_shape_and_losses() -> None:
    rs = get("yahtzee")
    card = parse_card(rs, "ones=3,fours=12,full_house=25")
    ranked = advise_card(rs, card, 3, (1, 3, 3, 5, 6), 2)
    assert ranked[0].loss == 0
    assert all(a.expected >= b.expected for a, b in zip(ranked, ranked[1:], strict=False))
    assert all(r.loss == pytest.approx(ranked[0].expected - r.expected) for r in ranked)
    keeps = [r for r in ranked if r.kind == "keep"]
    scores = [r for r in ranked if r.kind == "score"]
    # distinct keeps of 1,3,3,5,6 without keeping all: 2*3*2*2 - 1
    assert len(keeps) == 23
    assert len({r.keep for r in keeps}) == 23
    assert {r.category for r in scores} == {c.id for i, c in enumerate(rs.categories)
                                           if card.boxes[0][i] is None}
    for r in keeps:
        rerolled = sorted((1, 3, 3, 5, 6)[p] for p in r.reroll)
        assert sorted(list(r.keep) + rerolled) == [1, 3, 3, 5, 6]
        assert r.reroll


def test_no_rolls_left_means_scoring_only() -> None:
    rs = get("yatzy")
    ranked = advise_card(rs, rs.new_card(), 0, (2, 2, 5, 5, 6), 0)
    assert {r.kind for r in ranked} == {"score"}
    assert len(ranked) == len(rs.categories)
    best = ranked[0]
    assert best.expected == pytest.approx(
        solve(rs).value(rs.place(rs.new_card(), rs.placements(
            rs.context(rs.new_card(), 0, 3), (0, 2, 0, 0, 2, 1))[
                [c.id for c in rs.categories].index(best.category or "")]), 1))


def test_joker_placements_come_from_the_engine() -> None:
    rs = get("yahtzee", {"joker": "forced"})
    card = parse_card(rs, "sixes=24,yahtzee=50")
    ranked = advise_card(rs, card, 2, (6, 6, 6, 6, 6), 0)
    # forced joker with sixes filled: lower boxes only, with the +100 bonus
    assert all(rs.category(r.category or "").section == "lower" for r in ranked)
    ls = next(r for r in ranked if r.category == "large_straight")
    assert ls.points == 140


def test_forced_first_turn_advice() -> None:
    rs = get("tommys-yacht")
    ranked = advise_card(rs, rs.new_card(), 0, (2, 2, 2, 5, 6), 31)
    assert ranked[0].kind == "keep" and ranked[0].keep == (2, 2, 2)
    assert not any(r.kind == "score" for r in ranked)
    yacht = advise_card(rs, rs.new_card(), 0, (4, 4, 4, 4, 4), 29)
    assert [(r.kind, r.category, r.points) for r in yacht] == [("score", "yacht", 50)]


def test_advise_state_matches_card_api() -> None:
    rs = get("tommys-crag")
    s = State(rs, [Player("Ann")], rng=random.Random(2))
    s.apply(Roll((6, 6, 1)))
    via_state = advise(s)
    via_card = advise_card(rs, rs.new_card(), 0, (6, 6, 1), 1)
    assert via_state == via_card
    assert via_state[0].decision().score == Score("crag")


def test_advice_errors() -> None:
    rs = get("yahtzee")
    card = rs.new_card()
    with pytest.raises(AdviceError, match="5 dice"):
        advise_card(rs, card, 0, (1, 2, 3), 0)
    with pytest.raises(AdviceError, match="rolls left"):
        advise_card(rs, card, 0, (1, 2, 3, 4, 5), 3)
    with pytest.raises(AdviceError, match="values 1-6"):
        advise_card(rs, card, 0, (1, 2, 3, 4, 7), 0)
    s = State(rs, [Player("Ann")])
    with pytest.raises(AdviceError, match="roll first"):
        advise(s)


@pytest.mark.parametrize("text, message", [
    ("onez=3", "unknown box"),
    ("ones=6", "cannot hold 6"),
    ("ones=three", "not a whole number"),
    ("ones", "BOX=POINTS"),
    ("ones=3,ones=2", "twice"),
    ("col2:ones=3", "column must be 1-1"),
    ("extra=-5", "negative"),
])
def test_card_notation_errors(text: str, message: str) -> None:
    with pytest.raises(AdviceError, match=message):
        parse_card(get("yahtzee"), text)


def test_card_notation_columns_and_round_trip() -> None:
    rs = get("ancient-yacht-double")
    card = parse_card(rs, "ones=3, col2:choice=20, yacht@2=50")
    assert card.boxes[0][0] == 3
    assert card.boxes[1][rs.index("choice")] == 20
    assert card.boxes[1][rs.index("yacht")] == 50
    assert parse_card(rs, card_text(rs, card)) == card
    ty = get("tommys-yahtzee")
    assert parse_card(ty, "yahtzee=150").boxes[0][ty.index("yahtzee")] == 150
    y = get("yahtzee")
    assert parse_card(y, "yahtzee=50,extra=200").extra == 200


@pytest.mark.parametrize("name", ["yahtzee", "tommys-yahtzee", "yatsee"])
def test_placement_values_match_engine_cards(name: str) -> None:
    """Each placement's value = the solver's value of the card the engine makes of it."""
    rs = get(name)
    sol = solve(rs)
    rng = random.Random(9)
    for _ in range(6):
        s = State(rs, [Player("Cpu", "computer", "random")], rng=rng)
        for _ in range(rng.randrange(0, 10)):
            s.apply(Roll())
            pl = rng.choice(s.placements())
            s.apply(Score(pl.category, pl.column))
        for dice in [(6, 6, 6, 6, 6), (1, 1, 1, 1, 1), tuple(rng.randint(1, 6) for _ in range(5))]:
            card, turn = s.card(0), s.turns_taken(0)
            ranked = advise_card(rs, card, turn, dice, 0, sol)
            ctx = rs.context(card, turn, 3)
            from yacht.rules import counts_of

            by_box = {(p.category, p.column): p for p in rs.placements(ctx, counts_of(dice))}
            for r in ranked:
                p = by_box[(r.category or "", r.column)]
                want = sol.value(rs.place(card, p), turn + 1)
                assert r.expected == pytest.approx(want, abs=1e-9)
