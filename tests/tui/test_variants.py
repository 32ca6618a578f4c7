"""Every variant can be played with only the keyboard and with only the mouse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tui_helpers import click_box, fast_forward, game, run, settle

from yacht.rules import Ruleset, all_variants
from yacht.session import Launch, PlayerSpec, category_keys
from yacht.tui import YachtApp
from yacht.tui.screens.end import EndScreen

App = Callable[..., YachtApp]


def first_open(screen: Any) -> tuple[str, int]:
    pl = screen.session.state.placements()
    return pl[0].category, pl[0].column


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
@run
async def test_keyboard_turn_mouse_turn_and_the_end(new_app: App, rs: Ruleset) -> None:
    app = new_app(Launch(variant=rs.id, players=[PlayerSpec("Ann")]), seed=4)
    keys = category_keys(rs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.session.state
        # keyboard only: roll, choose two dice, roll again, score by letter
        await pilot.press("r")
        for _ in range(40):  # a forced first turn rolls on until all dice match
            if st.placements():
                break
            await pilot.press("a", "r")
        if st.may_reroll():
            await pilot.press("1", "2", "r")
        cat, col = first_open(g)
        await pilot.press(keys[cat] if col == 0 else keys[cat].upper())
        assert st.turns_taken(0) == 1
        # mouse only: the Roll button, a die, the Roll button, a box
        await pilot.click("#roll")
        assert st.dice
        if st.may_reroll() and st.placements():
            await pilot.click("#die-0")
            assert 0 in st.chosen
            await pilot.click("#roll")
        cat, col = first_open(g)
        await click_box(pilot, cat, col)
        assert st.turns_taken(0) == 2, (cat, col)
        # the rest quickly, the last box by key, and the end screen
        fast_forward(g)
        await pilot.press("r")
        cat, col = first_open(g)
        await pilot.press(keys[cat] if col == 0 else keys[cat].upper())
        assert st.is_terminal()
        await pilot.click("#roll")  # "See results"
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
