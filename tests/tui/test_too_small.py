"""Terminals smaller than 80x24 (QA s19 tui item 5): ten dice and eight players either
fit - every die, the Roll button, the keys that matter and a line for each player or a
line saying how many are left out - or the table says the size it needs, and comes back
when the terminal grows. Never a crash."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tui_helpers import game, messages, run, settle

from yacht.session import Launch, PlayerSpec
from yacht.tui import YachtApp
from yacht.tui.screens.game import needed_size, preview_room
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]

EIGHT = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal"]


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


def launch(variant: str = "ancient-yacht-10-double") -> Launch:
    return Launch(variant=variant, players=[PlayerSpec(n) for n in EIGHT])


def all_shown(app: Any) -> None:
    """Every die, the Roll button and the card are on the screen, whole; the key bar has
    Roll, Help and Quit."""
    g = game(app)
    width, height = app.size
    assert not g.too_small
    for widget in [*g.query("Die"), g.query_one("#roll"), g.query_one("#card")]:
        r = widget.region
        assert r.area > 0 and r.right <= width and r.bottom <= height - 3, (widget, r)
    lines = screen_text(app)
    bar = lines[-1]
    assert "r Roll" in bar and "? Help" in bar and "q Quit" in bar, bar
    # every player has a line with their total, or the list says how many it leaves out
    listed = [line for line in lines if any(f"{i} {n}" in line for i, n in enumerate(EIGHT, 1))]
    assert len(listed) == 8 or any("more)" in line for line in lines), lines


@pytest.mark.parametrize("size", [(70, 20), (60, 18), (52, 18)])
@run
async def test_ten_dice_and_eight_players_fit_a_small_terminal(new_app: App,
                                                                size: tuple[int, int]) -> None:
    app = new_app(launch())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        all_shown(app)
        await pilot.press("r")
        await settle(pilot)
        all_shown(app)
        assert game(pilot).table.view().state.dice


@pytest.mark.parametrize("size", [(51, 18), (52, 17), (60, 14), (40, 12), (20, 6), (1, 1)])
@run
async def test_too_small_says_the_size_it_needs_and_goes_away(new_app: App,
                                                              size: tuple[int, int]) -> None:
    app = new_app(launch())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        g = game(pilot)
        assert g.too_small
        text = str(g.query_one("#too-small").render())
        assert text.startswith("Terminal too small: need 52x18 for 10 dice and 8 players "
                               f"(now {size[0]}x{size[1]})."), text
        assert not g.query_one("#table").display and not g.query_one("#helpbar").display
        # a key that plays does nothing the person cannot see: said instead
        await pilot.press("r")
        await settle(pilot)
        assert g.table.view().state.dice == ()
        if size[0] >= 20:
            assert "make the window bigger" in messages(app)[-1]
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert not g.too_small and not g.query_one("#too-small").display
        all_shown(app)
        await pilot.resize_terminal(*size)  # and back again: no crash, the message
        await settle(pilot)
        assert g.too_small


@run
async def test_the_size_needed_depends_on_the_dice(new_app: App) -> None:
    app = new_app(launch("yatzy"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        need = needed_size(g.snap, preview_room(g.table.ruleset))
        assert need[1] == 14  # one line of dice, two of the players' list
        await pilot.resize_terminal(*need)
        await settle(pilot)
        all_shown(app)
        await pilot.resize_terminal(need[0] - 1, need[1])
        await settle(pilot)
        assert g.too_small


@run
async def test_the_key_bar_keeps_help_and_quit_and_says_keys_are_left_out(
        new_app: App) -> None:
    app = new_app(launch())
    async with app.run_test(size=(60, 18)) as pilot:
        await settle(pilot)
        bar = game(pilot).query_one(KeyBar)
        shown = bar.shown(60)
        actions = [bar.keys[i][2] for i in shown]
        assert actions[0] == "roll" and "help" in actions and "quit_game" in actions
        assert len(shown) < len(bar.keys)
        assert "…" in screen_text(app)[-1]
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert "…" not in screen_text(app)[-1] and "Esc Setup" in screen_text(app)[-1]
