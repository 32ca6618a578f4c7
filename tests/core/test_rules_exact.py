"""What the rules text and the help line say, held to ../shared/RULES.md (QA s20 rules audit).

The scoring and the special rules themselves were checked against an independent model
of RULES.md (every roll of every variant and option, and random games); these are the
places where the words were not true.
"""

from __future__ import annotations

import pytest

from yacht.rules import counts_of, get, rules_text
from yacht.rules.model import Placement, Scorecard

#: (variant, option, value) -> words its description may use only as the default's
_DEFAULT_ONLY = {
    ("generala", "doble", "off"): ("11 boxes",),
    ("generala", "servida", "points"): ("wins at once",),
    ("maxi-yatzy", "saved_rolls", "off"): ("saved",),
    ("maxi-yatzy", "bonus", "50@75"): ("100", "84"),
    ("yahtzee", "joker", "none"): ("Joker",),
    ("yahtzee", "bonus", "off"): ("Yahtzee bonus",),
}


@pytest.mark.parametrize(("variant", "option", "value"), sorted(_DEFAULT_ONLY))
def test_a_description_stays_true_with_any_option(variant: str, option: str,
                                                  value: str) -> None:
    """RULES.md, Generala and Maxi Yatzy (and Yahtzee's options): `doble=off` leaves 10
    boxes, `servida=points` makes a served Generala score instead of win, Maxi Yatzy's
    `saved_rolls=off` loses unused rolls and `bonus=50@75` moves the bonus, and Yahtzee's
    `joker=none` / `bonus=off` drop the Joker and the +100. The variant's one line heads
    the rules text of the game as configured (`yacht rules -o`, the in-game rules), so
    what an option can change it may state only as the default; it said '11 boxes',
    'a served Generala wins at once', '100 bonus at 84' and 'Yahtzee bonus and the
    Joker' whatever the options were."""
    rs = get(variant, {option: value})
    head = " ".join(rules_text(rs).split("\n\n")[0].split())
    assert rs.description.split()[0] in head  # (the line is there)
    for words in _DEFAULT_ONLY[(variant, option, value)]:
        assert words not in rs.description or "by default" in rs.description, (
            rs.description)


def _joker_note(options: dict[str, str], card: Scorecard, dice: tuple[int, ...]) -> str | None:
    rs = get("yahtzee", options)
    ctx = rs.context(card, turn=5, rolls=1)
    counts = counts_of(dice)
    places: list[Placement] = rs.placements(ctx, counts)
    opened = {c.id for c, v in zip(rs.categories, card.boxes[0], strict=True) if v is None}
    restricted = bool(opened - {p.category for p in places})
    (rule,) = rs.special
    return rule.explain(rs, ctx, counts, places, restricted)


def _card(options: dict[str, str], **boxes: int) -> Scorecard:
    rs = get("yahtzee", options)
    card = rs.new_card()
    for box, value in boxes.items():
        card = card.with_box(0, rs.index(box), value)
    return card


@pytest.mark.parametrize(("options", "boxes", "bonus"), [
    ({"joker": "free"}, {"yahtzee": 50, "fives": 15}, "+100"),
    ({"joker": "free"}, {"yahtzee": 0, "fives": 15}, None),
    ({"joker": "free", "bonus": "off"}, {"yahtzee": 50, "fives": 15}, None),
    ({}, {"yahtzee": 50, "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15,
          "sixes": 18}, "+100"),
])
def test_the_help_line_says_when_an_extra_yahtzee_scores_as_a_joker(
        options: dict[str, str], boxes: dict[str, int], bonus: str | None) -> None:
    """RULES.md, Yahtzee: with the Yahtzee box and the upper box of its face filled, the
    Full House and the straights take the Yahtzee at 25/30/40 (the free Joker anywhere,
    the forced one in the lower boxes). When every open box may take it (the free Joker;
    the forced Joker once the upper section is full) the help line said at most 'the
    previews hold the +100 bonus' and, with the box at 0 or the bonus off, nothing:
    never that a Full House of five equal dice scores 25 here."""
    card = _card(options, **boxes)
    note = _joker_note(options, card, (5,) * 5)
    assert note is not None and "joker" in note.lower(), note
    assert "Full House 25" in note and "Large Straight 40" in note, note
    assert (bonus in note) if bonus else ("+100" not in note), note


def test_the_help_line_about_the_joker_stays_as_it_was_without_joker_values() -> None:
    """The free Joker with the upper box open gives no joker values: the bonus is told
    as before; a first Yahtzee says nothing."""
    free = {"joker": "free"}
    assert _joker_note(free, _card(free, yahtzee=50), (5,) * 5) == (
        "Yahtzee again: the previews hold the +100 bonus.")
    assert _joker_note(free, _card(free), (5,) * 5) is None
