"""Joker and Yahtzee bonus, the repeat Yahtzee board, the sunk yacht, doubled columns, Oops."""

from __future__ import annotations

import random

import pytest

from yacht.engine import Choose, GiveBack, IllegalAction, Player, Roll, Score, State, TakeBack
from yacht.rules import Scorecard, get


def card_with(rs_id: str, options: dict[str, str] | None = None, **boxes: int) -> Scorecard:
    rs = get(rs_id, options)
    card = rs.new_card()
    for cat, value in boxes.items():
        card = card.with_box(0, rs.index(cat), value)
    return card


def places(rs_id: str, card: Scorecard, dice: tuple[int, ...],
           options: dict[str, str] | None = None, turn: int = 5, rolls: int = 1
           ) -> dict[str, tuple[int, int]]:
    rs = get(rs_id, options)
    from yacht.rules import counts_of
    return {p.category: (p.points, p.bonus)
            for p in rs.placements(rs.context(card, turn, rolls), counts_of(dice))}


LOWER_OPEN = dict(ones=1, twos=2, threes=3, fours=4, fives=5)


# --- Yahtzee: forced joker (the default) ---------------------------------------
def test_forced_joker_goes_to_matching_upper_box_first() -> None:
    card = card_with("yahtzee", yahtzee=50)
    assert places("yahtzee", card, (6,) * 5) == {"sixes": (30, 100)}


def test_forced_joker_then_any_open_lower_box_with_joker_values() -> None:
    card = card_with("yahtzee", yahtzee=50, sixes=18, chance=20)
    got = places("yahtzee", card, (6,) * 5)
    assert got == {"three_of_a_kind": (30, 100), "four_of_a_kind": (30, 100),
                   "full_house": (25, 100), "small_straight": (30, 100),
                   "large_straight": (40, 100)}


def test_forced_joker_upper_box_for_zero_when_lower_is_full() -> None:
    lower = dict(three_of_a_kind=10, four_of_a_kind=0, full_house=25, small_straight=30,
                 large_straight=40, chance=22)
    card = card_with("yahtzee", yahtzee=0, sixes=24, **lower)
    assert places("yahtzee", card, (6,) * 5) == {
        "ones": (0, 0), "twos": (0, 0), "threes": (0, 0), "fours": (0, 0), "fives": (0, 0)}


def test_scratched_yahtzee_box_gives_no_bonus_but_joker_still_forced() -> None:
    card = card_with("yahtzee", yahtzee=0, sixes=24)
    got = places("yahtzee", card, (6,) * 5)
    assert got["full_house"] == (25, 0) and "ones" not in got


def test_open_yahtzee_box_means_no_joker() -> None:
    card = card_with("yahtzee", sixes=24)
    got = places("yahtzee", card, (6,) * 5)
    assert got["yahtzee"] == (50, 0) and got["full_house"] == (0, 0)


# --- free joker -------------------------------------------------------------------
def test_free_joker_any_box_normal_values_while_upper_box_open() -> None:
    card = card_with("yahtzee", {"joker": "free"}, yahtzee=50)
    got = places("yahtzee", card, (6,) * 5, {"joker": "free"})
    assert got["sixes"] == (30, 100)
    assert got["full_house"] == (0, 100) and got["ones"] == (0, 100)


def test_free_joker_values_once_upper_box_filled() -> None:
    card = card_with("yahtzee", {"joker": "free"}, yahtzee=50, sixes=12)
    got = places("yahtzee", card, (6,) * 5, {"joker": "free"})
    assert got["full_house"] == (25, 100)
    assert got["large_straight"] == (40, 100)
    assert got["ones"] == (0, 100)  # upper boxes stay open to it


def test_no_joker_and_bonus_off() -> None:
    card = card_with("yahtzee", {"joker": "none"}, yahtzee=50, sixes=12)
    got = places("yahtzee", card, (6,) * 5, {"joker": "none"})
    assert got["full_house"] == (0, 100) and got["chance"] == (30, 100)
    card = card_with("yahtzee", {"bonus": "off"}, yahtzee=50)
    assert places("yahtzee", card, (6,) * 5, {"bonus": "off"}) == {"sixes": (30, 0)}


def test_yahtzee_bonus_counts_in_the_grand_total() -> None:
    s = State(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((3, 3, 3, 3, 3)))
    s.apply(Score("yahtzee"))
    s.apply(Roll((3, 3, 3, 3, 3)))
    with pytest.raises(IllegalAction):
        s.apply(Score("chance"))  # forced: threes is open
    s.apply(Score("threes"))
    t = s.totals(0)
    assert (t.columns[0].upper, t.columns[0].lower, t.extra, t.grand) == (15, 50, 100, 165)


# --- Tommy's Yahtzee: the repeat board ---------------------------------------------
def test_repeat_yahtzee_board_adds_50_and_costs_a_turn() -> None:
    s = State(get("tommys-yahtzee"), [Player("Ann"), Player("Bob")], rng=random.Random(2))
    s.apply(Roll((2, 2, 2, 2, 2)))
    s.apply(Score("yahtzee"))
    s.apply(Roll((1, 2, 3, 4, 5)))
    s.apply(Score("large_straight"))
    s.apply(Roll((4, 4, 4, 4, 4)))
    reps = [p for p in s.placements() if p.repeat]
    assert [(p.category, p.points) for p in reps] == [("yahtzee", 50)]
    s.apply(Score("yahtzee"))
    assert s.card(0).boxes[0][s.ruleset.index("yahtzee")] == 100
    assert s.card(0).filled == 1 and s.turns_taken(0) == 2


def test_repeat_works_on_a_scratched_board_too() -> None:
    rs = get("tommys-yahtzee")
    card = card_with("tommys-yahtzee", yahtzee=0)
    from yacht.rules import counts_of
    pls = rs.placements(rs.context(card, 3, 1), counts_of((5,) * 5))
    rep = [p for p in pls if p.repeat]
    assert len(rep) == 1 and rs.place(card, rep[0]).boxes[0][rs.index("yahtzee")] == 50


def test_player_with_repeats_plays_on_while_the_finished_one_waits() -> None:
    rs = get("tommys-yahtzee")
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(3))
    cats = [c.id for c in rs.categories]
    # Ann fills yahtzee first, then repeats once; Bob just fills boxes.
    s.apply(Roll((6,) * 5)); s.apply(Score("yahtzee"))  # noqa: E702
    s.apply(Roll((1, 1, 2, 3, 4))); s.apply(Score("ones"))  # noqa: E702
    s.apply(Roll((6,) * 5)); s.apply(Score("yahtzee"))  # noqa: E702  (repeat)
    bob_left = [c for c in cats if c != "ones"]
    ann_left = [c for c in cats if c != "yahtzee"]
    for i in range(12):
        assert s.current == 1
        s.apply(Roll((1, 2, 3, 4, 6))); s.apply(Score(bob_left.pop()))  # noqa: E702
        if i < 11:
            s.apply(Roll((1, 2, 3, 4, 6))); s.apply(Score(ann_left.pop()))  # noqa: E702
    assert s.card(1).complete and not s.card(0).complete
    assert s.current == 0 and s.turns_taken(0) == 13  # Ann still has a box to fill
    s.apply(Roll((1, 2, 3, 4, 6))); s.apply(Score(ann_left.pop()))  # noqa: E702
    assert s.is_terminal() and s.turns_taken(0) == 14 and s.turns_taken(1) == 13


# --- Tommy's Yacht: the forced first turn ---------------------------------------------
def _first_turn(misses: int, final: tuple[int, ...] | None) -> State:
    s = State(get("tommys-yacht"), [Player("Ann")], rng=random.Random(4))
    s.apply(Roll((1, 2, 3, 4, 6)))
    for _ in range(misses - 1):
        s.apply(Choose((0, 1, 2, 3, 4)))
        s.apply(Roll((1, 2, 3, 4, 6)))
    if final is not None:
        s.apply(Choose((0, 1, 2, 3, 4)))
        s.apply(Roll(final))
    return s


@pytest.mark.parametrize(("roll", "points"), [(1, 50), (2, 50), (3, 50), (4, 45), (5, 40),
                                              (10, 15), (13, 0), (14, -5), (31, -90),
                                              (32, -95)])
def test_yacht_on_roll_n_scores_50_minus_5_per_roll_after_the_third(roll: int,
                                                                    points: int) -> None:
    if roll == 1:
        s = State(get("tommys-yacht"), [Player("Ann")], rng=random.Random(4))
        s.apply(Roll((3,) * 5))
    else:
        s = _first_turn(roll - 1, (3,) * 5)
    assert s.rolls == roll
    assert [(p.category, p.points) for p in s.placements()] == [("yacht", points)]
    assert not s.may_reroll()
    s.apply(Score("yacht"))
    assert s.totals(0).grand == points


def test_a_yacht_before_the_last_roll_is_refused_another_roll_saying_why() -> None:
    """The rolls are not used up (24 of 32): the rule ends the rolling, and the engine
    says so (its hook's words), not "no roll left"."""
    s = _first_turn(23, (3,) * 5)
    assert s.rolls == 24 and s.rolls_left == 8
    for action in (Roll(), Choose((0,))):
        with pytest.raises(IllegalAction, match="^all 5 dice match, so this turn's rolling "
                                                "stops here: "):
            s.apply(action)
    s = _first_turn(32, None)
    with pytest.raises(IllegalAction, match="^no roll left in this turn: "):
        s.apply(Choose((0,)))


def test_first_turn_allows_no_other_box_and_no_stop_before_a_yacht() -> None:
    s = _first_turn(5, None)
    assert s.placements() == []
    with pytest.raises(IllegalAction, match="^the first turn goes to the Yacht box, which "
                                            "takes only 5 matching dice: roll again$"):
        s.apply(Score("chance"))
    assert s.may_reroll() and s.rolls_left == 27


def test_the_yacht_sinks_at_minus_95_after_roll_32() -> None:
    s = _first_turn(32, None)
    assert s.rolls == 32 and not s.may_reroll()
    assert [(p.category, p.points) for p in s.placements()] == [("yacht", -95)]
    with pytest.raises(IllegalAction):
        s.apply(Choose((0,)))
    s.apply(Score("yacht"))
    # from the second turn on: 3 rolls, yacht box filled
    s.apply(Roll((2, 2, 2, 2, 2)))
    assert s.max_rolls == 3
    assert "yacht" not in {p.category for p in s.placements()}


# --- two columns -------------------------------------------------------------------------
def test_column_two_counts_double() -> None:
    s = State(get("ancient-yacht-double"), [Player("Ann")], rng=random.Random(5))
    s.apply(Roll((4,) * 5)); s.apply(Score("yacht", 0))  # noqa: E702
    s.apply(Roll((4,) * 5)); s.apply(Score("yacht", 1))  # noqa: E702
    s.apply(Roll((6, 6, 6, 5, 5))); s.apply(Score("full_house", 1))  # noqa: E702
    t = s.totals(0)
    assert [c.subtotal for c in t.columns] == [50, 78]
    assert t.grand == 50 + 2 * 78
    s.apply(Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalAction, match="column 3"):
        s.check(Score("yacht", 2))
    with pytest.raises(IllegalAction, match=r"^Yacht is filled already in column 1 \(50\)"):
        s.check(Score("yacht", 0))


def test_upper_bonus_comparisons() -> None:
    def total(rs_id: str, upper: list[int]) -> int:
        rs = get(rs_id)
        card = rs.new_card()
        for face, v in enumerate(upper, 1):
            card = card.with_box(0, rs.index(rs.upper_category(face).id), v)  # type: ignore[union-attr]
        return rs.totals(card).columns[0].bonus

    exactly63 = [3, 6, 9, 12, 15, 18]
    assert total("windows-yacht", exactly63) == 35
    assert total("yahtzee", exactly63) == 35
    assert total("yatzy", exactly63) == 50
    assert total("yatsee", exactly63) == 0       # more than 63
    assert total("yatsee", [4, 6, 9, 12, 15, 18]) == 35
    assert total("yatcy", exactly63) == 30       # more than 62
    assert total("yatcy", [3, 6, 9, 12, 15, 17]) == 0
    assert total("tommys-yahtzee", exactly63) == 35
    assert total("ancient-yacht", [5, 10, 15, 20, 25, 30]) == 0


# --- Oops --------------------------------------------------------------------------------
def test_give_back_returns_chosen_dice_before_the_roll() -> None:
    s = State(get("windows-yacht"), [Player("Ann")], rng=random.Random(6))
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Choose((0, 4)))
    assert s.chosen == {0, 4} and s.can_give_back()
    s.apply(GiveBack())
    assert s.chosen == frozenset() and s.rolls == 1
    with pytest.raises(IllegalAction, match="choose at least one"):
        s.apply(Roll())


def test_take_back_restores_dice_and_rolls_until_the_next_player_rolls() -> None:
    s = State(get("windows-yacht"), [Player("Ann"), Player("Bob")], rng=random.Random(7))
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Choose((4,)))
    s.apply(Roll((5,)))
    before = s.position_key()
    s.apply(Score("chance"))
    assert s.current == 1 and s.can_take_back()
    s.apply(TakeBack())
    assert s.position_key() == before and s.dice == (1, 2, 3, 4, 5) and s.rolls_left == 1
    s.apply(Score("large_straight"))
    s.apply(Roll())  # Bob rolls: Ann's scoring stands now
    assert not s.can_take_back()
    with pytest.raises(IllegalAction):
        s.apply(TakeBack())


def test_computer_scoring_cannot_be_taken_back() -> None:
    s = State(get("windows-yacht"), [Player("Cpu", "computer", "expert"), Player("Ann")])
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Score("chance"))
    assert not s.can_take_back()
    with pytest.raises(IllegalAction):
        s.apply(TakeBack())


def test_only_the_last_scoring_can_be_taken_back_and_only_once() -> None:
    s = State(get("windows-yacht"), [Player("Ann")], rng=random.Random(8))
    s.apply(Roll((1, 1, 1, 1, 1)))
    s.apply(Score("yacht"))
    s.apply(TakeBack())
    s.apply(Score("ones"))
    s.apply(TakeBack())
    assert not s.can_take_back()
    s.apply(Score("yacht"))
    assert s.totals(0).grand == 50


@pytest.mark.parametrize(("variant", "options", "changed"), [
    ("maxi-yatzy", {}, {"rolls"}),
    ("maxi-yatzy", {"saved_rolls": "off"}, set()),
    ("tommys-yacht", {}, {"rolls", "scoring"}),
    ("tommys-yahtzee", {}, {"end"}),
    ("kismet", {}, {"end"}),
    ("kismet", {"second_kismet": "off"}, set()),
    ("generala", {}, {"end"}),
    ("generala", {"servida": "points"}, set()),
    ("yahtzee", {}, {"scoring"}),
    ("yahtzee", {"joker": "free"}, set()),
    ("yatzy", {}, set()),
])
def test_the_rules_text_says_where_a_special_rule_changes_play(
        variant: str, options: dict[str, str], changed: set[str]) -> None:
    """The general account of play (up to 3 rolls, any open box, a turn per box) points
    below wherever a special rule of the variant, with its options, says otherwise."""
    from yacht.rules import rules_text

    play = rules_text(get(variant, options)).split("\nPlay: ")[1].split("\nOops")[0]
    play = " ".join(play.split())
    marks = {"rolls": "rolls in all (but see below).",
             "scoring": "in an open box (but see below);",
             "end": "(equal totals tie). How the game ends: see below."}
    assert {what for what, mark in marks.items() if mark in play} == changed
    assert play.count("see below") == len(changed)


def test_the_rules_text_of_matched_dice_counts_only_the_kind() -> None:
    from yacht.rules import rules_text

    text = " ".join(rules_text(get("sackson-yacht")).split())
    assert "scores the sum of four of them only (3-3-3-3-3 scores 12)" in text
    assert get("sackson-yacht").scores([3, 3, 3, 3, 3])["four_of_a_kind"] == 12
    text = " ".join(rules_text(get("maxi-yatzy")).split())
    assert "the sum of three of them only (3-3-3-3-3-3 scores 9)" in text
