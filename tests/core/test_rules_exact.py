"""What the rules text and the help line say, held to ../shared/RULES.md (QA s20 rules audit).

The scoring and the special rules themselves were checked against an independent model
of RULES.md (every roll of every variant and option, and random games); these are the
places where the words were not true.
"""

from __future__ import annotations

import pytest

from yacht.rules import get, rules_text

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
