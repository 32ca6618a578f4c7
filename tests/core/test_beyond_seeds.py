"""Kismet, Generala and Maxi Yatzy: the rules RULES.md settles beyond the boxes' scores
(served boxes, doble generala, a served Generala ending the game, the second-Kismet
penalty, saved rolls, the tiered bonus, the options), played through the engine."""

from __future__ import annotations

import random

import pytest

from yacht.engine import Choose, Player, Record, Roll, Score, State, TakeBack
from yacht.rules import OptionError, get, rules_text


def _state(variant: str, players: int = 2, **options: str) -> State:
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    return State(get(variant, options), [Player(n) for n in names], rng=random.Random(5))


def _points(s: State, box: str) -> tuple[int, bool]:
    pl = s.placement(box)
    assert pl is not None
    return pl.total, pl.served


# --- Generala ---------------------------------------------------------------------------

def test_generala_boxes_scored_from_the_first_roll_are_served() -> None:
    s = _state("generala")
    s.apply(Roll((2, 3, 4, 5, 6)))
    assert _points(s, "escalera") == (25, True)
    assert _points(s, "twos") == (2, False)        # face boxes are never served
    s.apply(Choose((0,)))
    s.apply(Roll((2,)))
    assert _points(s, "escalera") == (20, False)   # after a roll again: plain


@pytest.mark.parametrize(("dice", "box", "served", "plain"), [
    ((3, 3, 3, 5, 5), "full", 35, 30), ((4, 4, 4, 4, 1), "poker", 45, 40),
    ((1, 2, 3, 4, 5), "escalera", 25, 20)])
def test_generala_served_values_and_the_ten_point_option(dice: tuple[int, ...], box: str,
                                                         served: int, plain: int) -> None:
    s = _state("generala", 1)
    s.apply(Roll(dice))
    assert _points(s, box) == (served, True)
    s10 = _state("generala", 1, served_bonus="10")
    s10.apply(Roll(dice))
    assert _points(s10, box) == (served + 5, True)
    s.apply(Score(box))
    rs = s.ruleset
    assert rs.box_mark(box, served) == "served"
    assert rs.box_mark(box, plain) is None and rs.box_mark(box, 0) is None


def test_generala_a_scratch_is_never_served() -> None:
    s = _state("generala", 1)
    s.apply(Roll((1, 1, 2, 3, 6)))
    assert _points(s, "full") == (0, False)


def test_doble_generala_scores_only_while_generala_holds_its_points() -> None:
    s = _state("generala", 1, servida="points")
    s.apply(Roll((5, 5, 5, 5, 5)))
    assert _points(s, "doble_generala") == (0, False)   # generala still open
    s.apply(Score("generala"))
    s.apply(Roll((2, 2, 2, 2, 2)))
    assert _points(s, "doble_generala") == (100, False)
    assert _points(s, "poker") == (45, True)            # five of a kind is a poker, served


def test_doble_generala_after_a_scratched_generala_takes_only_a_zero() -> None:
    s = _state("generala", 1)
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Score("generala"))
    s.apply(Roll((6, 6, 6, 6, 6)))
    assert _points(s, "doble_generala") == (0, False)
    assert _points(s, "full") == (0, False)             # five of a kind is never a full


def test_a_served_generala_ends_the_game_with_its_roller_as_the_winner() -> None:
    s = _state("generala", 3)
    s.apply(Roll((1, 1, 2, 3, 4)))
    s.apply(Score("ones"))                              # Ann leads with 2
    s.apply(Roll((3, 3, 3, 3, 3)))                      # Bob: served generala
    assert s.is_terminal() and s.ended_by == 1 and s.winners() == [1]
    assert s.legal_actions() == [] and s.placements() == []
    replayed = Record.from_json(Record.from_state(s).to_json()).final_state()
    assert replayed.is_terminal() and replayed.winners() == [1]


def test_a_served_generala_scores_when_alone_or_with_servida_points() -> None:
    alone = _state("generala", 1)
    alone.apply(Roll((3, 3, 3, 3, 3)))
    assert not alone.is_terminal() and _points(alone, "generala") == (50, False)
    points = _state("generala", 2, servida="points")
    points.apply(Roll((3, 3, 3, 3, 3)))
    assert not points.is_terminal()
    later = _state("generala", 2)                       # five of a kind on a later roll
    later.apply(Roll((3, 3, 3, 3, 1)))
    later.apply(Choose((4,)))
    later.apply(Roll((3,)))
    assert not later.is_terminal()


@pytest.mark.parametrize(("straight", "dice", "expected"), [
    ("plain", (1, 3, 4, 5, 6), 0), ("ace_high", (1, 3, 4, 5, 6), 20),
    ("ace_high", (1, 2, 4, 5, 6), 0), ("any", (1, 2, 4, 5, 6), 20),
    ("any", (1, 2, 3, 5, 6), 20), ("any", (1, 1, 3, 4, 5), 0)])
def test_generala_straight_option(straight: str, dice: tuple[int, ...], expected: int) -> None:
    assert get("generala", {"straight": straight}).scores(dice)["escalera"] == expected


def test_generala_options_change_the_card() -> None:
    assert [c.id for c in get("generala", {"doble": "off"}).categories][-1] == "generala"
    assert len(get("generala").categories) == 11
    sixty = get("generala", {"generala_points": "60"})
    assert sixty.scores((4, 4, 4, 4, 4))["generala"] == 60
    assert sixty.scores((4, 4, 4, 4, 4))["doble_generala"] == 120
    again = sixty.configure(doble="off")              # options set twice keep each other
    assert again.scores((4, 4, 4, 4, 4))["generala"] == 60
    assert "doble_generala" not in again.scores((4, 4, 4, 4, 4))
    assert get("generala", {"doble": "off"}).configure(doble="on").turns == 11


# --- Kismet -----------------------------------------------------------------------------

@pytest.mark.parametrize(("upper", "bonus"), [
    (62, 0), (63, 35), (70, 35), (71, 55), (77, 55), (78, 75), (105, 75)])
def test_kismet_bonus_tiers(upper: int, bonus: int) -> None:
    rs = get("kismet")
    assert rs.upper_bonus is not None and rs.upper_bonus.amount_for(upper) == bonus


def test_kismet_card_totals_use_the_tier_reached() -> None:
    rs = get("kismet")
    card = rs.new_card()
    for i, v in enumerate((3, 8, 12, 16, 15, 18)):     # 72: the 55 tier
        card = card.with_box(0, i, v)
    t = rs.totals(card)
    assert (t.columns[0].upper, t.columns[0].bonus, t.grand) == (72, 55, 127)


def test_kismet_straight_option() -> None:
    assert get("kismet", {"straight": "40"}).scores((2, 3, 4, 5, 6))["straight"] == 40
    with pytest.raises(OptionError, match="accepted: 30|40"):
        get("kismet", {"straight": "35"})


def test_a_second_kismet_writes_a_zero_in_every_other_players_topmost_open_box() -> None:
    s = _state("kismet", 3)
    s.apply(Roll((3, 3, 3, 3, 3)))
    s.apply(Score("kismet"))                          # Ann's first Kismet: 65
    s.apply(Roll((1, 1, 2, 3, 4)))
    s.apply(Score("ones"))                            # Bob: ones filled
    s.apply(Roll((2, 2, 2, 2, 2)))
    s.apply(Score("kismet"))                          # Cid's first Kismet: no penalty
    assert s.card(0).filled == 1 and s.card(1).filled == 1
    s.apply(Roll((6, 6, 6, 6, 6)))
    s.apply(Score("sixes"))                           # Ann's second: the others pay
    bob, cid = s.card(1).boxes[0], s.card(2).boxes[0]
    assert bob[:3] == (2, 0, None) and cid[:2] == (0, None)
    assert s.card(0).boxes[0][5] == 30                # the roller scores as usual
    assert s.turns_taken(1) == 1                      # the zero is no turn played
    s.apply(TakeBack())
    assert s.card(1).boxes[0][1] is None              # Oops takes the penalty back too


def test_no_penalty_after_a_scratched_kismet_or_with_the_option_off() -> None:
    s = _state("kismet", 2)
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Score("kismet"))                          # scratched: 0
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Score("ones"))
    s.apply(Roll((5, 5, 5, 5, 5)))
    s.apply(Score("fives"))
    assert s.card(1).filled == 1
    off = _state("kismet", 2, second_kismet="off")
    off.apply(Roll((5, 5, 5, 5, 5)))
    off.apply(Score("kismet"))
    off.apply(Roll((1, 2, 3, 4, 6)))
    off.apply(Score("ones"))
    off.apply(Roll((5, 5, 5, 5, 5)))
    off.apply(Score("fives"))
    assert off.card(1).filled == 1


def test_a_game_with_penalties_ends_when_every_card_is_full() -> None:
    s = _state("kismet", 2)
    rng = random.Random(2)
    s.apply(Roll((4, 4, 4, 4, 4)))
    s.apply(Score("kismet"))
    while not s.is_terminal():
        if s.current == 0 and not s.dice:
            s.apply(Roll((4, 4, 4, 4, 4)))            # Ann rolls Kismets
        elif not s.dice:
            s.apply(Roll(tuple(rng.randint(1, 6) for _ in range(5))))
        s.apply(Score(s.placements()[0].category))
    assert s.card(1).complete and s.turns_taken(1) < 15
    replayed = Record.from_json(Record.from_state(s).to_json()).final_state()
    assert replayed.returns() == s.returns()


# --- Maxi Yatzy -------------------------------------------------------------------------

def test_maxi_yatzy_saved_rolls_carry_to_later_turns() -> None:
    s = _state("maxi-yatzy", 1)
    assert (s.max_rolls, s.card(0).saved) == (3, 0)
    s.apply(Roll((1, 1, 1, 2, 3, 4)))
    s.apply(Score("ones"))                            # after one roll: 2 saved
    assert s.card(0).saved == 2 and s.max_rolls == 5
    for _ in range(5):                                # uses all five
        s.apply(Roll())
        if s.rolls < 5:
            s.apply(Choose((0,)))
    assert s.rolls == 5 and not s.may_reroll()
    s.apply(Score("chance"))
    assert s.card(0).saved == 0 and s.max_rolls == 3


def test_maxi_yatzy_without_saved_rolls() -> None:
    s = _state("maxi-yatzy", 1, saved_rolls="off")
    s.apply(Roll((1, 1, 1, 2, 3, 4)))
    s.apply(Score("ones"))
    assert s.card(0).saved == 0 and s.max_rolls == 3


def test_maxi_yatzy_bonus_option() -> None:
    rs = get("maxi-yatzy")
    assert rs.upper_bonus is not None and rs.upper_bonus.amount_for(84) == 100
    assert rs.upper_bonus.amount_for(83) == 0
    low = get("maxi-yatzy", {"bonus": "50@75"})
    assert low.upper_bonus is not None and low.upper_bonus.amount_for(75) == 50


def test_the_last_turns_saved_rolls_are_lost_and_replay_keeps_the_pool() -> None:
    s = _state("maxi-yatzy", 2)
    rng = random.Random(9)
    while not s.is_terminal():
        s.apply(Roll(tuple(rng.randint(1, 6) for _ in range(len(s.to_roll())))))
        s.apply(Score(s.placements()[0].category))
    assert all(s.card(i).saved == 0 for i in range(2))
    replayed = Record.from_json(Record.from_state(s).to_json()).final_state()
    assert replayed.returns() == s.returns()


# --- names and words --------------------------------------------------------------------

@pytest.mark.parametrize(("alias", "variant"), [
    ("colors", "kismet"), ("maxi", "maxi-yatzy"), ("Maxi Yatzy", "maxi-yatzy"),
    ("generala", "generala")])
def test_aliases(alias: str, variant: str) -> None:
    assert get(alias).id == variant


def test_rules_text_says_each_rule() -> None:
    kismet = " ".join(rules_text(get("kismet")).split())
    assert "Basic section" in kismet and "35 from 63, 55 from 71 and 75 from 78" in kismet
    assert "topmost open box" in kismet
    generala = " ".join(rules_text(get("generala")).split())
    assert "ends the game at once" in generala and "Served:" in generala
    assert "can only be scratched" in generala
    maxi = " ".join(rules_text(get("maxi-yatzy")).split())
    assert "pool" in maxi and "at least 84" in maxi
    assert "pool" not in rules_text(get("maxi-yatzy", {"saved_rolls": "off"})).split(
        "Options")[0]


# --- how they are shown -----------------------------------------------------------------

def test_words_show_colours_served_boxes_bonus_steps_and_saved_rolls() -> None:
    from yacht.render import bonus_progress, card_cells, dice_text, preview_text, rolls_text

    kismet = get("kismet")
    assert dice_text((1, 2, 3), kismet) == "1● 2◆ 3■"     # a shape per colour, not colour alone
    assert dice_text((1, 2, 3)) == "1 2 3"
    assert [bonus_progress(kismet, u) for u in (0, 63, 71, 78)] == ["63→35", "8→55", "7→75",
                                                                    "max"]
    s = _state("generala", 1)
    s.apply(Roll((2, 3, 4, 5, 6)))
    pl = s.placement("escalera")
    assert pl is not None and preview_text(pl) == "25s"
    s.apply(Score("escalera"))
    assert card_cells(s.ruleset, s.card(0))["escalera"] == ["25s"]
    maxi = get("maxi-yatzy")
    assert rolls_text(maxi, 0, 7) == "3 + 4 saved" and rolls_text(maxi, 2, 1) == "1"


def test_the_next_bonus_step_is_not_offered_once_the_section_is_full() -> None:
    """A newcomer saw "Next bonus 37→35" under a full upper section at the game's end:
    no box is left to earn it, so the cell is blank (``max`` stays once the top is
    earned)."""
    from yacht.render import card_cells

    kismet = get("kismet")
    card = kismet.new_card()
    for face in range(1, 6):  # five of each face from ones to fives: 75
        card = card.with_box(0, kismet.index(kismet.categories[face - 1].id), face * 5)
    assert card_cells(kismet, card)["bonus_next"] == ["3→75"]  # sixes still open
    full = card.with_box(0, kismet.index("sixes"), 0)
    assert card_cells(kismet, full)["upper_bonus"] == ["55"]
    assert card_cells(kismet, full)["bonus_next"] == [""]
    top = card.with_box(0, kismet.index("sixes"), 30)
    assert card_cells(kismet, top)["bonus_next"] == ["max"]
    # the line game's card leaves the row out when it is blank for everyone
    from yacht.render import card_table

    assert "Next bonus" in card_table(kismet, ["Ann"], [card])
    assert "Next bonus" not in card_table(kismet, ["Ann"], [full])
    assert "Next bonus" in card_table(kismet, ["Ann", "Bob"], [full, top])


def test_a_game_with_a_second_kismets_penalty_is_analysed() -> None:
    """A penalty fills a box without a turn, so a card can have more boxes filled than
    turns taken: the analysis refused such a game ("9 boxes are filled, so at least 9
    turns were taken, not 8"), and so did `yacht advise` (a browser test's random game
    found it, now and then)."""
    from yacht.engine import Record
    from yacht.strategy.analysis import analyse
    from yacht.strategy.base import make_player, play_turn

    s = _state("kismet", 2)
    s.apply(Roll((3, 3, 3, 3, 3)))
    s.apply(Score("kismet"))                          # Ann's first Kismet
    s.apply(Roll((1, 1, 2, 3, 4)))
    s.apply(Score("ones"))                            # Bob
    s.apply(Roll((6, 6, 6, 6, 6)))
    s.apply(Score("sixes"))                           # Ann's second: Bob writes a 0
    assert s.card(1).filled == 2 and s.turns_taken(1) == 1
    expert = make_player(s.ruleset, "expert")
    while not s.is_terminal():
        play_turn(s, expert)
    a = analyse(Record.from_state(s), win_games=0)
    assert a.finished and len(a.players) == 2
