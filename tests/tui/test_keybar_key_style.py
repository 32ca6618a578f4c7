"""Every key bar shows its keys in one style, as the help and the buttons say them (F5,
Esc, Ctrl+Q): Textual's own said 'f5', 'esc' and '^q'."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tui_helpers import run, settle, until

from yacht.tui import YachtApp
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]


def bar(app: Any) -> str:
    """The key bar as drawn (its lines joined)."""
    return " " + " ".join(str(app.screen.query_one(KeyBar).render()).split("\n")) + " "


def test_keys_are_shown_in_one_style() -> None:
    from yacht.tui.app import key_display

    assert [key_display(k) for k in ("f1", "f5", "f12", "escape", "ctrl+q", "r")] == [
        "F1", "F5", "F12", "Esc", "Ctrl+Q", "r"]


LOWER = re.compile(r"(?<!\S)(f\d+|esc|\^[a-z])(?!\S)")


@run
async def test_every_bar_shows_function_keys_and_esc_alike(new_app: App) -> None:
    """The setup's bar said 'f5 Start' and 'f2 Demo', the game's 'f2 Demo' and 'esc
    Setup', the top ten's 'esc Back', while the buttons and the help say F5, F6, Esc."""
    from yacht.tui.screens.setup import SetupScreen
    from yacht.tui.screens.topten import TopTenScreen

    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        shown = bar(app)
        assert shown.startswith("  F5 Start  F2 Demo  F3 + Player  F4 - Player  F1 Rules "
                                " F6 Top ten "), shown
        assert not LOWER.search(shown), shown
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, TopTenScreen))
        shown = bar(app)
        assert " Esc Back " in shown and not LOWER.search(shown), shown
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.press("f5")
        await until(pilot, lambda: " r Roll " in bar(app))
        shown = bar(app)
        assert " F2 Demo " in shown and " Esc Setup " in shown, shown
        assert not LOWER.search(shown), shown
