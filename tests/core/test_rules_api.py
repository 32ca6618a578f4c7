"""The rules as a library (QA s18, API review): a box that is not there, dice that no
roll of the game shows, option values that are not text, a variant's name."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from yacht.rules import OptionError, UnknownBox, get


def test_an_unknown_box_is_a_key_error_naming_the_boxes() -> None:
    rs = get("tommys-crag")
    for look in (rs.category, rs.index):
        with pytest.raises(UnknownBox) as e:
            look("nope")
        assert isinstance(e.value, KeyError)
        assert str(e.value) == ("tommys-crag has no box 'nope' (boxes: "
                                + ", ".join(c.id for c in rs.categories) + ")")
    with pytest.raises(KeyError):  # (what callers caught before)
        rs.index("nope")


@pytest.mark.parametrize("dice, message", [
    ([7, 7, 7, 7, 7], "die value 7 is not a face (accepted: 1-6)"),
    ([0, 1, 2, 3, 4], "die value 0 is not a face (accepted: 1-6)"),
    ([6, 6, 6], "3 dice given: this game is played with 5 (accepted: 5 values 1-6)"),
    ([1] * 6, "6 dice given: this game is played with 5 (accepted: 5 values 1-6)"),
])
def test_scores_refuse_what_no_roll_of_the_game_shows(dice: list[int], message: str) -> None:
    with pytest.raises(ValueError) as e:
        get("yahtzee").scores(dice)
    assert str(e.value) == message


def test_scores_and_a_box_s_score_take_integer_types_and_refuse_others() -> None:
    rs = get("yahtzee")
    assert rs.scores(np.array([6, 6, 6, 6, 6]))["yahtzee"] == 50  # type: ignore[arg-type]
    assert rs.scores((1, 2, 3, 4, 5)) == rs.scores([5, 4, 3, 2, 1])
    with pytest.raises(TypeError, match="whole number"):
        rs.scores([1.5, 2, 3, 4, 5])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="whole number"):
        rs.scores([True, 2, 3, 4, 5])
    with pytest.raises(ValueError, match="die value 7 is not a face"):
        rs.category("chance").score([7] * 5)


@pytest.mark.parametrize("value", [None, 3, True, ["free"]])
def test_an_option_value_must_be_text(value: Any) -> None:
    with pytest.raises(OptionError, match=r"option joker's value must be text, not .* "
                                          r"\(accepted: forced\|free\|none\)"):
        get("yahtzee", {"joker": value})
    assert get("ancient-yacht-10", {"rolls": " 3 "}).rolls == 3


def test_a_variant_s_name_must_be_text() -> None:
    with pytest.raises(TypeError, match="a variant's name is text, not 123"):
        get(123)  # type: ignore[arg-type]
