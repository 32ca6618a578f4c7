"""Refusals of the line game and the commands, as a QA pass met them (session 25): each
says what is wrong and only what can be done, in sentences without brackets inside
brackets or colons in a row."""

from __future__ import annotations

import io
import random
import re

import pytest

from yacht.engine import Choose, IllegalAction, Player, Roll, Score, State
from yacht.parsing import InputError, check_name, check_names, parse_positions
from yacht.plain.game import PlainGame
from yacht.rules import get
from yacht.session import LOCAL, Refused, ScoreBox, Table
from yacht.session.commands import ActionError, Select, Toggle, parse_command, resolve_marked


def nested(text: str) -> bool:
    """Whether a bracket opens inside another."""
    depth = 0
    for ch in text:
        if ch in "([":
            if depth:
                return True
            depth += 1
        elif ch in ")]":
            depth -= 1
    return False


def refusal(state: State, action: Roll | Choose | Score) -> str:
    with pytest.raises(IllegalAction) as e:
        state.check(action)
    return str(e.value)


def no_roll_left() -> State:
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((1, 2, 3, 4, 6)))
    for _ in range(2):
        s.apply(Choose((4,)))
        s.apply(Roll((5,)))
    return s


def line_game(table: Table, lines: str) -> str:
    out = io.StringIO()
    PlainGame(table, io.StringIO(lines + "q\n"), out).run()
    return " ".join(out.getvalue().split())


def test_asking_to_roll_with_no_roll_left_says_so_and_what_can_be_done() -> None:
    """`roll 9` with the turn's rolls used up said 'no dice are chosen to roll: choose
    some first', and choosing dice 'dice cannot be chosen': each says no roll is left
    and that the dice go in a box."""
    s = no_roll_left()
    with pytest.raises(ActionError) as e:
        parse_command("roll 9", s)
    said = str(e.value)
    assert said == "no roll left in this turn: score the dice in an open box"
    assert refusal(s, Choose((0, 2))) == said
    assert refusal(s, Roll()) == said
    for hold in (Toggle(0), Select("all")):  # a seat whose clicks hold dice
        with pytest.raises(IllegalAction) as e:
            resolve_marked(hold, s, None, "hold")
        assert str(e.value) == said
    # with rolls left and nothing chosen the old answer stands (choose first)
    fresh = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    fresh.apply(Roll((1, 2, 3, 4, 6)))
    with pytest.raises(ActionError, match="^no dice are chosen to roll: choose some first"):
        parse_command("roll 9", fresh)
    table = Table.new(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    table.real_dice = True
    text = line_game(table, "roll 1,2,3,4,6\nchoose 5\nroll 5\nchoose 5\nroll 5\nroll 9\n"
                                  "1 3\n")
    assert "No roll left in this turn: score the dice in an open box." in text
    assert "Not now. No roll left in this turn: score the dice in an open box." in text
    assert "choose some first" not in text and "cannot be chosen" not in text


def test_a_rule_that_ends_the_rolling_is_said_without_colons_in_a_row() -> None:
    """Tommy's Yacht's first turn stops at a match: 'all 5 dice match: this turn's
    rolling stops here: score the dice in an open box' had two colons."""
    s = State(get("tommys-yacht"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((4, 4, 4, 4, 4)))
    said = refusal(s, Choose((0,)))
    assert said == "all 5 dice match, so this turn's rolling stops here: score the dice in " \
                   "an open box"
    assert said.count(":") == 1 and refusal(s, Roll()) == said


def test_the_unknown_action_list_has_no_brackets_inside_brackets() -> None:
    """'unknown action 'xyzzy' (accepted: roll [VALUES], choose POSITIONS (e.g. choose
    1,3), ...)': the notation is said in a sentence of its own."""
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    with pytest.raises(ActionError) as e:
        parse_command("xyzzy", s)
    said = str(e.value)
    assert said.startswith("unknown action 'xyzzy'. Accepted: roll [VALUES], choose "), said
    assert "choose 1,3" in said and not nested(said), said


def test_a_ten_dice_position_refusal_has_no_brackets_inside_brackets() -> None:
    """'(accepted: positions 1-10 (0 is die 10))'."""
    rs = get("ancient-yacht-10")
    for text in ("x", "11", "-1", ""):
        with pytest.raises(InputError) as e:
            parse_positions(text, rs)
        said = str(e.value)
        assert "0 for die 10" in said and not nested(said), said


@pytest.mark.parametrize("name", ["", "A" * 25, "Ann\x1b[31m", "\u0301Ann",
                                  "Zoe\u0308\u0308\u0308\u0308\u0308"])
def test_an_options_name_refusal_reads_as_sentences(name: str) -> None:
    """`yacht daily --name ''` said '--name: The name is empty: give a name...': after
    the option's colon the problem goes on in small letters and what to do is a
    sentence of its own."""
    from yacht.parsing import for_option

    with pytest.raises(InputError) as e:
        check_name(name)
    alone = str(e.value)
    assert alone[0].isupper() and alone.endswith(".")  # (alone it stays one sentence)
    said = for_option("--name", e.value)
    assert said.startswith("--name: the name ") and said.endswith("."), said
    body = re.sub(r"\([^()]*\)", "", said.removeprefix("--name: "))
    assert ":" not in body, said
    first, then = said.removeprefix("--name: ").split(". ", 1)
    assert then[0].isupper(), said
    if not name:
        assert said == "--name: the name is empty. Give a name of 1-20 characters."


def test_two_players_of_one_name_after_an_option() -> None:
    from yacht.parsing import for_option

    with pytest.raises(InputError) as e:
        check_names(["Ann", "ann"])
    assert for_option("--players", e.value) == \
        "--players: two players are called 'ann'. Give each player a different name."
    # a refusal that is no sentence of two parts is said as it is
    assert for_option("--web", ValueError("not a URL")) == "--web: not a URL"


def test_tommys_yacht_first_turn_offers_no_scoring_it_does_not_allow() -> None:
    """Roll with no die chosen in Tommy's Yacht's first turn said 'choose at least one
    die to roll again, or score': nothing can be scored until all dice match."""
    s = State(get("tommys-yacht"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((2, 5, 1, 3, 1)))
    assert not s.placements()
    assert refusal(s, Roll()) == "choose at least one die to roll again"
    with pytest.raises(IllegalAction) as e:  # a seat that holds dice, every one held
        resolve_marked(Roll(), s, frozenset(range(5)), "hold")
    assert str(e.value) == "every die is held: release one to roll it again"
    # where a box takes the dice, scoring is still offered
    y = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    y.apply(Roll((2, 5, 1, 3, 1)))
    assert refusal(y, Roll()) == "choose at least one die to roll again, or score"
    with pytest.raises(IllegalAction, match=", or score$"):
        resolve_marked(Roll(), y, frozenset(range(5)), "hold")
    table = Table.new(get("tommys-yacht"), [Player("Ann")], rng=random.Random(1))
    table.real_dice = True
    text = line_game(table, "roll 2,5,1,3,1\nroll\n")
    assert "Not now: choose at least one die to roll again." in text, text


def test_a_filled_box_is_said_to_be_filled_with_its_score() -> None:
    """A box already filled (e on Ones) said 'Ones cannot be scored now': it says the
    box is filled, with its score, and which boxes take the dice."""
    table = Table.new(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    table.real_dice = True
    table.act(LOCAL, Roll((1, 1, 2, 3, 4)), ScoreBox("ones"), Roll((1, 6, 6, 2, 3)))
    with pytest.raises(Refused) as e:
        table.act(LOCAL, ScoreBox("ones"))
    said = str(e.value)
    assert said.startswith("Ones is filled already (2): score an open box (open to these "
                           "dice: Twos, Threes,"), said
    assert "cannot be scored now" not in said
    text = line_game(table, "e\nOnes\n")
    assert text.count("Not now. Ones is filled already (2): score an open box") == 2, text
    # two columns: the column is named
    two = State(get("ancient-yacht-double"), [Player("Ann")], rng=random.Random(1))
    two.apply(Roll((1, 1, 1, 3, 4)))
    two.apply(Score("ones", 1))
    two.apply(Roll((1, 6, 6, 2, 3)))
    assert refusal(two, Score("ones", 1)).startswith("Ones is filled already in column 2 (3)")


def test_an_open_box_the_rules_refuse_keeps_cannot_be_scored_now() -> None:
    """The forced Joker: an open box the rules do not allow for these dice."""
    s = State(get("yahtzee", {"joker": "forced"}), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 6, 6, 6)))
    s.apply(Score("yahtzee", 0))
    s.apply(Roll((6, 6, 6, 6, 6)))
    assert refusal(s, Score("three_of_a_kind", 0)) == \
        "3 of a Kind cannot be scored now (open to these dice: Sixes)"
