"""The exact tables of Kismet (a bonus by steps) and Generala (served boxes, a box that
needs another) against the brute force of the engine on reduced games, and the full
games' computer players."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from test_bruteforce import BruteForce, cat, face

from yacht.engine import Player, State
from yacht.rules import NeedsBox, Ruleset, ServedBonus, UpperBonus, get
from yacht.strategy import make_player
from yacht.strategy.advisor import advise
from yacht.strategy.base import play_turn
from yacht.strategy.solver import compile_ruleset, solve


class Brute(BruteForce):
    """The brute force keyed by whether every box holds points (the rules here read
    boxes the special rules do not name as their ``category``)."""

    def __init__(self, rs: Ruleset):
        super().__init__(rs)
        self.special_boxes = list(range(len(rs.categories)))


def check(rs: Ruleset) -> float:
    exact = float(Brute(rs).start())
    got = solve(rs, cache=False).expected_score
    assert got == pytest.approx(exact, abs=1e-9), (exact, got)
    return got


def reduced(dice: int, cats: tuple[Any, ...], rolls: int = 2, special: tuple[Any, ...] = (),
            bonus: UpperBonus | None = None, options: tuple[Any, ...] = ()) -> Ruleset:
    return replace(get("ancient-yacht"), id="reduced", dice=dice, rolls=rolls,
                   categories=cats, catalogue=cats, special=special, upper_bonus=bonus,
                   base_bonus=bonus, options=options, settings=())


def test_a_bonus_by_steps_against_the_brute_force() -> None:
    steps = UpperBonus(8, ">=", 5, ((12, 9), (16, 14)))
    got = check(reduced(2, (face(5), face(6), cat("chance", "sum")), bonus=steps))
    plain = solve(reduced(2, (face(5), face(6), cat("chance", "sum")),
                          bonus=UpperBonus(8, ">=", 5)), cache=False).expected_score
    assert got > plain   # the higher steps are worth playing for


@pytest.mark.slow
def test_served_boxes_and_a_box_needing_another_against_the_brute_force() -> None:
    cats = (cat("run", "straight", runs=((1, 2, 3), (4, 5, 6)), points=20),
            cat("gen", "of_a_kind", n=3, points=30), cat("doble", "of_a_kind", n=3, points=60))
    special = (ServedBonus(("run", "gen"), 5, ""), NeedsBox("doble", "gen"))
    served = check(reduced(3, cats, 2, special))
    plain = solve(reduced(3, cats, 2, (NeedsBox("doble", "gen"),)), cache=False)
    assert served > plain.expected_score


@pytest.mark.slow
def test_generala_and_kismet_are_solved_exactly() -> None:
    # (the session's table cache: the expert's games below build these same tables, and
    # the cache's own round trip is tested in test_solver.py)
    generala = solve(get("generala"))
    assert generala.exact and 150 < generala.expected_score < 200
    assert compile_ruleset(get("generala")).extended
    kismet = solve(get("kismet"))
    assert kismet.exact and 300 < kismet.expected_score < 330
    # Kismet's straight=40 and the penalty (another player's card) as the tables see them
    assert solve(get("kismet", {"straight": "40"})).expected_score > kismet.expected_score
    assert solve(get("kismet", {"second_kismet": "off"})).expected_score == \
        pytest.approx(kismet.expected_score, abs=1e-9)


def test_maxi_yatzy_with_saved_rolls_plays_a_strategy_on_the_table_without_them() -> None:
    from yacht.strategy.solver.pool import pool_levels

    spec = compile_ruleset(get("maxi-yatzy"))
    assert spec.pool == 3 and not spec.machine_play
    # a turn's keep values: more rolls are worth more, and a saved roll's carry counts
    E0 = np.linspace(0.0, 50.0, spec.dice.nfull)
    plain = pool_levels(spec, E0, 6, 0.0)
    carried = pool_levels(spec, E0, 6, 4.0)
    assert (np.diff(plain[:, 0]) > 0).all()
    assert (carried[1:, 0] > plain[1:, 0]).all()


@pytest.mark.parametrize(("variant", "options"), [
    ("generala", {}), ("generala", {"servida": "points", "straight": "any"}), ("kismet", {})])
def test_the_expert_plays_a_whole_game_and_the_advisor_ranks(variant: str,
                                                              options: dict[str, str]) -> None:
    rs = get(variant, options)
    s = State(rs, [Player("Cpu", "computer", "expert")], rng=random.Random(4))
    expert = make_player(rs, "expert")
    while not s.is_terminal():
        play_turn(s, expert)
        if s.dice:
            ranked = advise(s)
            assert ranked[0].loss == 0.0
    assert s.card(0).complete


def test_the_advisors_values_count_a_bonus_by_steps_once() -> None:
    rs = get("kismet")
    sol = solve(rs)
    card = rs.new_card()
    for i, v in enumerate((3, 8, 12, 16, 20, 24)):          # 83: the top step, 75
        card = card.with_box(0, i, v)
    assert sol.value(card, 6) == pytest.approx(83 + 75 + float(
        sol.V[sol.spec.state_of(card)]) - 75, abs=1e-9)
    assert sol.value(card, 6) - rs.totals(card).grand < 385   # the lower boxes' best


@pytest.mark.parametrize("variant", ["kismet", "generala"])
def test_the_champion_plays_as_the_expert_where_it_has_no_chance_tables(variant: str) -> None:
    from yacht.strategy.solver import UnsupportedRuleset
    from yacht.strategy.solver.local import check_local
    from yacht.strategy.solver.target import check_supported

    rs = get(variant)
    with pytest.raises(UnsupportedRuleset, match="bonus by steps|served"):
        check_local(rs)
    with pytest.raises(UnsupportedRuleset, match="bonus by steps|served"):
        check_supported(rs)
    s = State(rs, [Player("A", "computer", "champion"), Player("B", "computer", "expert")],
              rng=random.Random(2))
    players = [make_player(rs, "champion"), make_player(rs, "expert")]
    while not s.is_terminal():
        play_turn(s, players[s.current])
    assert s.card(0).complete or s.ended_by is not None


def test_saved_rolls_are_worth_nothing_after_the_last_turn() -> None:
    """Maxi Yatzy's strategy values a roll left to the pool (its carry), except in a
    card's last turn: the rolls left after it are lost, so scoring early then gains
    nothing and the last turn rolls on while rolling is worth anything."""
    import dataclasses

    from yacht.strategy.advisor import advise_card

    rs = get("maxi-yatzy")
    cats = tuple(c for c in rs.categories if c.id in ("ones", "twos", "chance"))
    small = dataclasses.replace(rs, id="small-maxi", dice=3, categories=cats,
                                catalogue=cats, upper_bonus=None, base_bonus=None)
    sol = solve(small, cache=False)
    assert sol.carry > 0
    card = small.new_card().with_box(0, 0, 2).with_saved(4)          # ones filled
    assert sol.carry_value(3) > 0 and sol.carry_value(3, 0b001) > 0   # two boxes open
    last = card.with_box(0, 1, 4)                                     # only chance open
    assert sol.carry_value(3, 0b011) == 0.0
    ranked = advise_card(small, last, 2, (1, 1, 2), 5)
    score = next(r for r in ranked if r.kind == "score")
    assert score.expected == pytest.approx(small.totals(last).grand + 4)  # no carry
    assert ranked[0].kind == "keep"    # 1 1 2 with 5 rolls left: roll on
    # before the last turn, saving rolls counts
    ranked = advise_card(small, card, 1, (6, 6, 6), 5)
    score = next(r for r in ranked if r.kind == "score" and r.category == "chance")
    assert score.expected > small.totals(card).grand + 18 + sol.value(
        card.with_box(0, 2, 18), 2) - small.totals(card.with_box(0, 2, 18)).grand
