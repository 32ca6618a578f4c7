"""The beginner and intermediate computer players: legal, deterministic, and sensible."""

from __future__ import annotations

import random

import numpy as np
import pytest

from yacht.engine import IllegalAction, Player, Roll, Score, State
from yacht.rules import Ruleset, all_variants, counts_of, get
from yacht.strategy import Decision, make_player, play_turn
from yacht.strategy.heuristics import (
    BeginnerStrategy,
    IntermediateStrategy,
    biggest_group,
    dice_tables,
    ruleset_tables,
)

VARIANTS = [rs.id for rs in all_variants()]
# option settings that change how the players must play
CONFIGURED = [("yahtzee", {"joker": "free"}), ("yahtzee", {"joker": "none", "bonus": "off"}),
              ("ancient-yacht-10", {"rolls": "3"})]
LEVELS = ["beginner", "intermediate"]


def _check(decision: Decision, state: State) -> None:
    """A decision is exactly one thing, and allowed now."""
    n = state.ruleset.dice
    if decision.score is not None:
        assert decision.reroll == ()
        assert any(p.category == decision.score.category and p.column == decision.score.column
                   for p in state.placements())
    else:
        assert decision.reroll, "a re-roll must name at least one die"
        assert len(set(decision.reroll)) == len(decision.reroll)
        assert all(0 <= d < n for d in decision.reroll)
        assert state.may_reroll()


def _play(rs: Ruleset, levels: list[str], seed: int) -> State:
    players = [make_player(rs, level) for level in levels]
    state = State(rs, [Player(f"P{i}", "computer", lv) for i, lv in enumerate(levels)],
                  rng=random.Random(seed))
    while not state.is_terminal():
        if not state.dice:
            state.apply(Roll())
            continue
        decision = players[state.current].decide(state)
        _check(decision, state)
        for action in decision.actions():
            state.apply(action)  # raises IllegalAction if the engine disagrees
    return state


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_full_game_is_legal_in_every_variant(variant: str, level: str) -> None:
    rs = get(variant)
    state = _play(rs, [level], seed=11)
    assert state.is_terminal()
    card = state.card(0)
    assert card.complete
    assert state.returns()[0] == rs.totals(card).grand


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("variant", "options"), CONFIGURED)
def test_full_game_with_options(variant: str, options: dict[str, str], level: str) -> None:
    state = _play(get(variant, options), [level], seed=5)
    assert state.is_terminal()


def test_mixed_table_of_players() -> None:
    """Several players share nothing by accident (the intermediate caches per card)."""
    rs = get("tommys-yahtzee")
    state = _play(rs, ["intermediate", "beginner", "intermediate"], seed=2)
    assert state.is_terminal()
    assert all(state.card(i).complete for i in range(3))


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level: str) -> None:
    rs = get("yatzy")
    a = _play(rs, [level], seed=99)
    b = _play(rs, [level], seed=99)
    assert a.log == b.log
    c = _play(rs, [level], seed=100)
    assert a.log != c.log


@pytest.mark.parametrize("level", LEVELS)
def test_decision_is_a_function_of_the_state(level: str) -> None:
    rs = get("windows-yacht")
    state = State(rs, [Player("A")], rng=random.Random(4))
    fresh = make_player(rs, level)
    used = make_player(rs, level)
    for _ in range(12):
        play_turn(state, used)
    state.apply(Roll((3, 3, 5, 1, 6)))
    assert used.decide(state) == fresh.decide(state) == used.decide(state)


# --- beginner -----------------------------------------------------------------------

def _state(variant: str, dice: tuple[int, ...], options: dict[str, str] | None = None,
           scored: list[tuple[str, int, tuple[int, ...]]] | None = None) -> State:
    """A one-player state with some boxes filled and ``dice`` showing after roll 1."""
    rs = get(variant, options)
    state = State(rs, [Player("A")], rng=random.Random(0))
    for cat, col, roll in scored or []:
        state.apply(Roll(roll))
        state.apply(Score(cat, col))
    state.apply(Roll(dice))
    return state


def test_biggest_group_prefers_count_then_face() -> None:
    assert biggest_group((2, 2, 6, 6, 6)) == (6, 3)
    assert biggest_group((2, 2, 2, 6, 6)) == (2, 3)
    assert biggest_group((3, 3, 5, 5, 1)) == (5, 2)
    assert biggest_group((1, 2, 3, 4, 6)) == (6, 1)
    assert biggest_group((4,) * 10) == (4, 10)


@pytest.mark.parametrize(("dice", "reroll"), [
    ((2, 5, 5, 1, 5), (0, 3)),         # three fives
    ((3, 3, 5, 5, 1), (0, 1, 4)),      # two pairs: the higher one stays
    ((1, 2, 3, 4, 6), (0, 1, 2, 3)),   # nothing matches: the highest die stays
    ((4, 1, 4, 1, 1), (0, 2)),         # three ones beat two fours
])
def test_beginner_keeps_the_biggest_group(dice: tuple[int, ...], reroll: tuple[int, ...]) -> None:
    state = _state("yatzy", dice)
    assert BeginnerStrategy(state.ruleset).decide(state) == Decision(reroll=reroll)


def test_beginner_keeps_the_biggest_group_of_ten_dice() -> None:
    dice = (1, 6, 6, 2, 6, 3, 2, 2, 6, 4)
    state = _state("ancient-yacht-10", dice)
    d = BeginnerStrategy(state.ruleset).decide(state)
    assert d.reroll == tuple(i for i, v in enumerate(dice) if v != 6)


def test_beginner_takes_a_made_straight_and_the_most_points() -> None:
    state = _state("windows-yacht", (2, 3, 4, 5, 6))
    assert BeginnerStrategy(state.ruleset).decide(state).score == Score("large_straight")
    # on the last roll: the box with the most points now
    state = _state("windows-yacht", (6, 6, 6, 2, 3))
    for _ in range(2):
        state.apply(Decision(reroll=(3,)).actions()[0])
        state.apply(Roll((2,)))
    assert BeginnerStrategy(state.ruleset).decide(state).score == Score("three_of_a_kind")


def test_beginner_stops_at_a_yacht_and_scores_it() -> None:
    state = _state("sackson-yacht", (4, 4, 4, 4, 4))
    assert BeginnerStrategy(state.ruleset).decide(state).score == Score("yacht")


def test_beginner_crosses_out_the_least_valuable_box() -> None:
    # last roll, nothing open scores: ones open with yacht and large straight
    rs = get("windows-yacht")
    keep = {"ones", "large_straight", "yacht"}
    state = State(rs, [Player("A")], rng=random.Random(0))
    for cat in rs.categories:
        if cat.id not in keep:
            state.apply(Roll((1, 1, 1, 1, 1) if cat.id != "yacht" else (2, 2, 2, 2, 2)))
            state.apply(Score(cat.id))
    state.apply(Roll((2, 2, 3, 3, 6)))
    for _ in range(2):
        state.apply(Decision(reroll=(4,)).actions()[0])
        state.apply(Roll((6,)))
    assert BeginnerStrategy(rs).decide(state).score == Score("ones")


def test_beginner_puts_big_scores_in_the_doubled_column() -> None:
    state = _state("ancient-yacht-double", (5, 5, 5, 5, 5))
    assert BeginnerStrategy(state.ruleset).decide(state).score == Score("yacht", 1)


# --- intermediate -------------------------------------------------------------------

def test_intermediate_chases_the_yacht_with_four_of_a_kind() -> None:
    state = _state("yahtzee", (6, 6, 2, 6, 6))
    assert IntermediateStrategy(state.ruleset).decide(state) == Decision(reroll=(2,))


def test_intermediate_takes_a_large_straight_at_once() -> None:
    state = _state("windows-yacht", (3, 2, 5, 4, 6))
    assert IntermediateStrategy(state.ruleset).decide(state).score == Score("large_straight")


def test_intermediate_goes_for_the_missing_straight_die() -> None:
    state = _state("windows-yacht", (1, 2, 3, 4, 4))
    d = IntermediateStrategy(state.ruleset).decide(state)
    # keeps 1-2-3-4 (a small straight for sure) and rolls one of the fours for a large one
    assert d.reroll in ((3,), (4,))


def test_intermediate_puts_a_yacht_in_the_doubled_column() -> None:
    state = _state("ancient-yacht-double", (3, 3, 3, 3, 3))
    assert IntermediateStrategy(state.ruleset).decide(state).score == Score("yacht", 1)


def test_intermediate_prefers_the_upper_box_towards_the_bonus() -> None:
    # last roll 5-5-5-5-2 with fives open: 20 in fives keeps the bonus well in reach
    state = _state("windows-yacht", (5, 5, 5, 5, 2))
    for _ in range(2):
        state.apply(Decision(reroll=(4,)).actions()[0])
        state.apply(Roll((2,)))
    assert IntermediateStrategy(state.ruleset).decide(state).score == Score("fives")


def test_intermediate_takes_the_repeat_yahtzee() -> None:
    # Tommy's Yahtzee: with the board holding 50, another one is worth 50 more
    state = _state("tommys-yahtzee", (2, 2, 2, 2, 2), scored=[("yahtzee", 0, (6, 6, 6, 6, 6))])
    d = IntermediateStrategy(state.ruleset).decide(state)
    assert d.score == Score("yahtzee")
    state.apply(d.score)
    assert state.card(0).boxes[0][state.ruleset.index("yahtzee")] == 100


@pytest.mark.parametrize("level", LEVELS)
def test_forced_first_turn_rolls_for_the_yacht(level: str) -> None:
    state = _state("tommys-yacht", (2, 5, 5, 1, 5))
    assert state.placements() == []
    d = make_player(state.ruleset, level).decide(state)
    assert d == Decision(reroll=(0, 3))


def test_ruleset_tables_typical_scores() -> None:
    rs = get("yahtzee")
    t = ruleset_tables(rs)
    typical = dict(zip((c.id for c in rs.categories), t.typical, strict=True))
    # the chance of a Yahtzee in one turn that goes for it is about 4.6%
    assert typical["yahtzee"] == pytest.approx(50 * 0.04603, abs=0.01)
    # the ones: each die becomes a one with chance 1 - (5/6)^3
    assert typical["ones"] == pytest.approx(5 * (1 - (5 / 6) ** 3))
    assert 0 < typical["large_straight"] < 40


@pytest.mark.parametrize(("n", "rolls", "keeps"), [(2, 21, 28), (5, 252, 462), (3, 56, 84)])
def test_dice_tables(n: int, rolls: int, keeps: int) -> None:
    t = dice_tables(n)
    assert (len(t.rolls), len(t.keeps)) == (rolls, keeps)
    sums = np.add.reduceat(t.pair_prob, t.keep_ptr[:-1])
    assert np.allclose(sums, 1.0)
    # every pair: the roll contains the keep
    assert np.all(t.rolls[t.pair_roll] >= t.keeps[t.pair_keep])
    # the proper keeps of 1-1-2-...: keep sizes below n, one per sub-multiset
    r = t.roll_index[counts_of((1,) * (n - 1) + (2,))]
    assert len(t.keeps_of(r)) == 2 * n - 1


def test_expectation_matches_a_direct_count() -> None:
    t = dice_tables(3)
    values = np.array([float(all(c in (0, 3) for c in r)) for r in t.rolls])  # three of a kind
    k = t.keep_index[(0, 0, 0, 0, 0, 2)]
    assert t.expect(values)[k] == pytest.approx(1 / 6)
    assert t.expect_keeps(values, np.array([k]))[0] == pytest.approx(1 / 6)


def test_no_variant_check_in_the_players() -> None:
    """The players read the ruleset's data, never its id."""
    import inspect

    from yacht.strategy import heuristics

    source = inspect.getsource(heuristics)
    for pattern in (".id ==", ".id !=", ".id in", "rs.id", "ruleset.id", ".key =="):
        assert pattern not in source


def test_illegal_decisions_would_be_caught() -> None:
    """The legality check of these tests is not vacuous."""
    state = _state("yatzy", (1, 2, 3, 4, 5))
    with pytest.raises(AssertionError):
        _check(Decision(score=Score("yatzy", 1)), state)
    with pytest.raises(IllegalAction):
        state.apply(Score("two_pairs", 1))


@pytest.mark.parametrize("level", LEVELS)
def test_deciding_before_the_roll_is_an_error(level: str) -> None:
    rs = get("yatzy")
    state = State(rs, [Player("A")], rng=random.Random(0))
    with pytest.raises(ValueError, match="roll first"):
        make_player(rs, level).decide(state)
