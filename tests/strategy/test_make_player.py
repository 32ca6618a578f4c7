"""``make_player`` takes its arguments in the order of ``simulate``: the ruleset, then the
level (the old order still works, with a DeprecationWarning)."""

from __future__ import annotations

import inspect
import warnings

import pytest

from yacht.rules import get
from yacht.strategy import UnknownLevel, make_player
from yacht.strategy.heuristics import BeginnerStrategy
from yacht.strategy.simulate import play_games, simulate


def test_make_player_and_simulate_take_the_ruleset_then_the_level() -> None:
    for f in (make_player, simulate, play_games):
        assert list(inspect.signature(f).parameters)[:2] == ["ruleset", "level"], f


def test_the_ruleset_first_makes_the_player_without_a_warning() -> None:
    rs = get("tommys-crag")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        player = make_player(rs, "Beginner")
        by_name = make_player(ruleset=rs, level="beginner")
        champ = make_player(rs, "champion", target=140)
    assert isinstance(player, BeginnerStrategy) and isinstance(by_name, BeginnerStrategy)
    assert player.level == "beginner" and champ.target == 140  # type: ignore[attr-defined]


def test_the_old_order_still_works_and_says_it_is_deprecated() -> None:
    rs = get("tommys-crag")
    with pytest.warns(DeprecationWarning, match=r"write make_player\(ruleset, level\)") as w:
        player = make_player("beginner", rs)  # type: ignore[call-overload]
    assert isinstance(player, BeginnerStrategy)
    assert w[0].filename == __file__  # (the warning points at the caller's line)
    with pytest.warns(DeprecationWarning):
        champ = make_player("champion", rs, target=150)  # type: ignore[call-overload]
    assert champ.target == 150  # type: ignore[attr-defined]


@pytest.mark.parametrize(("args", "error", "words"), [
    ((get("yatzy"), "grandmaster"), UnknownLevel, "unknown level 'grandmaster'"),
    ((get("yatzy"), get("yatzy")), TypeError, "the level is one of"),
    (("expert", "beginner"), TypeError, "the ruleset is a Ruleset"),
])
def test_what_is_no_ruleset_and_level_is_refused(args: tuple[object, object],
                                                  error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        make_player(*args)  # type: ignore[call-overload]
