"""A situation's notation says everything the situation is: ``str`` then ``parse`` gives
the same situation back, for random positions of every variant (Maxi Yatzy's saved rolls
were left out: a card with rolls saved printed as one without)."""

from __future__ import annotations

import random

import pytest

from yacht.engine import Player, State, random_decision
from yacht.rules import all_variants, get
from yacht.strategy.advisor import AdviceError
from yacht.strategy.api import Situation

VARIANTS = [(rs.id, {}) for rs in all_variants()] + [
    ("maxi-yatzy", {"saved_rolls": "off"}), ("yahtzee", {"joker": "free"})]


def _positions(rs_id: str, options: dict[str, str], games: int) -> list[Situation]:
    rs = get(rs_id, options)
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        players = [Player(f"P{i}") for i in range(max(rs.min_players, 1 + seed % 3))]
        s = State(rs, players, rng=random.Random(seed))
        while not s.is_terminal():
            if rng.random() < 0.3:  # (a sample of every kind of position)
                out.append(Situation.from_state(s))
            for action in random_decision(s, rng):
                s.apply(action)
                if s.is_terminal():
                    break
    return out


@pytest.mark.parametrize(("variant", "options"), VARIANTS,
                         ids=[f"{v}{'-' + '-'.join(o.values()) if o else ''}"
                              for v, o in VARIANTS])
def test_print_then_parse_gives_the_situation_back(variant: str,
                                                   options: dict[str, str]) -> None:
    rs = get(variant, options)
    situations = _positions(variant, options, 6)
    assert len(situations) > 50
    for s in situations:
        text = str(s)
        back = Situation.parse(rs, text)
        assert back == s, (text, s, back)
        assert str(back) == text
    if variant == "maxi-yatzy" and not options:  # (the positions had rolls saved)
        assert any(s.card.saved for s in situations)


def test_saved_rolls_are_in_the_notation() -> None:
    rs = get("maxi-yatzy")
    card = rs.new_card().with_box(0, 0, 3).with_saved(2)
    with_pool = Situation(rs, card, (1, 1, 1, 2, 3, 4), 3, 1)
    without = Situation(rs, card.with_saved(0), (1, 1, 1, 2, 3, 4), 2, 1)
    assert str(with_pool) == "111234 r3 ones=3,saved=2"
    assert str(without) == "111234 r2 ones=3"
    assert Situation.parse(rs, str(with_pool)).card.saved == 2
    assert Situation.parse(rs, "- saved=1, ones=3").card.saved == 1


@pytest.mark.parametrize(("variant", "text", "words"), [
    ("yatzy", "- ones=3,saved=1", "yatzy saves no rolls for later turns"),
    (("maxi-yatzy", {"saved_rolls": "off"}), "- ones=3,saved=1", "saves no rolls"),
    ("maxi-yatzy", "- ones=3,saved=3", "1 turns can have saved 2 rolls at most, not 3"),
    ("maxi-yatzy", "- saved=1", "0 turns can have saved 0 rolls at most, not 1"),
    ("maxi-yatzy", "- ones=3,saved=1,saved=1", "saved is given twice"),
    ("maxi-yatzy", "- ones=3,saved=-1", "saved rolls cannot be negative"),
])
def test_saved_rolls_that_cannot_be_are_refused(variant: object, text: str,
                                                words: str) -> None:
    rs = get(*variant) if isinstance(variant, tuple) else get(str(variant))
    with pytest.raises(AdviceError, match=words):
        Situation.parse(rs, text)


def test_a_situation_made_from_a_card_with_saved_rolls_is_checked_too() -> None:
    rs = get("yatzy")
    with pytest.raises(AdviceError, match="saves no rolls"):
        Situation(rs, rs.new_card().with_box(0, 0, 3).with_saved(1), (), 0, 1)
