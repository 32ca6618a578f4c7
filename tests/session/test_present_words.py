"""The help line's words (yacht.session.present) that every interface shows: the column a
score went to in a two-column game, and why no roll is left."""

from __future__ import annotations

import pytest

from yacht.engine import Player, Roll
from yacht.rules import get
from yacht.session.commands import ScoreBox, Toggle
from yacht.session.present import BROWSER, PLAIN, TERMINAL, Words, help_line, no_roll_text
from yacht.session.table import LOCAL, Table

WORDS = [TERMINAL, BROWSER, PLAIN]


@pytest.mark.parametrize("words", WORDS)
@pytest.mark.parametrize("between", [True, False])
def test_a_score_in_column_2_says_its_column(words: Words, between: bool) -> None:
    # with the Next player pause (two people) and without it (the next turn's line)
    t = Table.new(get("ancient-yacht-double"), [Player("Ann"), Player("Bob")],
                  real_dice=True, pause_between_people=between)
    t.act(LOCAL, Roll((3, 3, 3, 5, 5)))
    t.act(LOCAL, ScoreBox("choice", 1))
    assert (t.view().pause is not None) is between
    line = help_line(t.view(), words)
    assert line.startswith("Ann scored Choice (column 2) for 19. "), line
    assert "Bob" in line


def test_a_score_in_column_1_says_its_column_and_a_one_column_game_none() -> None:
    t = Table.new(get("ancient-yacht-double"), [Player("Ann")], real_dice=True)
    t.act(LOCAL, Roll((3, 3, 3, 5, 5)))
    t.act(LOCAL, ScoreBox("choice", 0))
    assert help_line(t.view()).startswith("Ann scored Choice (column 1) for 19. Ann: press r")
    t = Table.new(get("ancient-yacht"), [Player("Ann")], real_dice=True)
    t.act(LOCAL, Roll((3, 3, 3, 5, 5)))
    t.act(LOCAL, ScoreBox("choice"))
    assert help_line(t.view()).startswith("Ann scored Choice for 19. Ann: press r")


def tommys_first_turn(rolls: int, last: tuple[int, ...]) -> Table:
    """Tommy's Yacht's first turn: ``rolls - 1`` rolls with no yacht, then ``last``."""
    t = Table.new(get("tommys-yacht"), [Player("Ann"), Player("Bob")], real_dice=True)
    for i in range(rolls):
        if i:
            t.act(LOCAL, *(Toggle(k) for k in range(5)))
        t.act(LOCAL, Roll((1, 2, 3, 4, 6) if i < rolls - 1 else last))
    return t


@pytest.mark.parametrize("words", WORDS)
def test_tommys_yacht_on_roll_24_is_not_out_of_rolls(words: Words) -> None:
    # the first turn rolls until all five dice match, up to roll 32 (RULES.md): a yacht
    # on roll 24 ends the rolling with 8 rolls unused - not "no roll left"
    t = tommys_first_turn(24, (5, 5, 5, 5, 5))
    st = t.view().state
    assert st.rolls == 24 and not st.may_reroll()
    line = help_line(t.view(), words)
    assert "All 5 dice match on roll 24" in line and "8 of its 32 rolls unused" in line, line
    assert "No roll left" not in line
    assert no_roll_text(st, short=True) == "all 5 dice match: the rolling stops there"


def test_tommys_yacht_roll_32_is_the_last() -> None:
    t = tommys_first_turn(32, (1, 2, 3, 4, 6))
    st = t.view().state
    assert no_roll_text(st) == "No roll left: roll 32 was this turn's last."
    line = help_line(t.view())
    assert line.startswith("The first turn must go in Yacht. No roll left: roll 32 was this "
                           "turn's last. Score: "), line


def test_a_turn_out_of_rolls_says_so_and_saved_rolls_are_named() -> None:
    t = Table.new(get("maxi-yatzy"), [Player("Ann")], real_dice=True)
    t.act(LOCAL, Roll((1, 2, 3, 4, 5, 6)))
    for _ in range(2):
        t.act(LOCAL, Toggle(0))
        t.act(LOCAL, Roll((6,)))
    st = t.view().state
    assert st.rolls_left == 0
    assert no_roll_text(st) == "No roll left: roll 3 was this turn's last (and no saved " \
                               "roll is left)."
    assert help_line(t.view()).startswith("No roll left: score the dice")


@pytest.mark.parametrize("words", WORDS)
def test_tommys_yacht_first_turn_says_why_no_box_takes_the_dice(words: Words) -> None:
    # the first turn is the Yacht box's alone until all five dice match: "No box takes
    # these dice yet" did not say why a 1-2-3-4-6 goes in no Little or Big Straight
    t = tommys_first_turn(5, (1, 2, 3, 4, 6))
    line = help_line(t.view(), words)
    assert line.startswith("The first turn goes to the Yacht box, which takes only 5 "
                           "matching dice: "), line
    # once all five match, the Yacht box takes them (no such words then)
    t = tommys_first_turn(6, (4, 4, 4, 4, 4))
    assert not help_line(t.view(), words).startswith("The first turn goes"), words
