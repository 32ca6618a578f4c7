"""The expert's expected scores kept for the end of a game: one for every kind of game,
and the solver's own figures."""

from __future__ import annotations

import pytest

from yacht.rules import get
from yacht.strategy.expected import every_ruleset, expert_expected
from yacht.strategy.solver import solve


def test_every_kind_of_game_has_its_figure() -> None:
    kinds = every_ruleset()
    # 16 variants, their options (Generala's 48 combinations among them)
    assert len({rs.key for rs in kinds}) == len(kinds) == 78
    for rs in kinds:
        e = expert_expected(rs)
        assert e is not None, rs.key
        # (the two games solved by a strategy, not exactly: the 10-dice two-column game,
        # and Maxi Yatzy with its saved rolls)
        assert e.exact == (rs.id != "ancient-yacht-10-double"
                           and rs.option_values.get("saved_rolls") != "on"), rs.key
        assert 100 < e.score < 1300


@pytest.mark.parametrize("name,options", [("tommys-crag", {}), ("sackson-yacht", {}),
                                          ("yahtzee", {"joker": "none", "bonus": "off"}),
                                          ("ancient-yacht-10", {"rolls": "3"})])
def test_the_figures_are_the_solvers(name: str, options: dict[str, str]) -> None:
    rs = get(name, options)
    e = expert_expected(rs)
    assert e is not None
    assert e.score == pytest.approx(solve(rs).expected_score, abs=1e-5)


def test_a_ruleset_the_file_does_not_know_has_none() -> None:
    from dataclasses import replace

    odd = replace(get("tommys-crag"), id="homemade")
    assert expert_expected(odd) is None
