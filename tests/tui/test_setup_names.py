"""The setup screen checks names as every interface does (yacht.parsing.check_names):
a name with a control character, or one name twice, is refused and the screen stays."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Input
from tui_helpers import run, settle

from yacht.tui import YachtApp
from yacht.tui.screens.setup import SetupScreen

App = Callable[..., YachtApp]


@run
async def test_setup_refuses_control_characters_and_twins(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        name = screen.query_one("#name-0", Input)
        for bad in ("Ann\x1b[2J", "Ann\x07", "computer"):  # the last: seat 2's name, any case
            name.value = bad
            await pilot.press("f5")
            await pilot.pause()
            assert app.screen is screen, bad  # refused, stays
        name.value = "  Ann   Lee "
        cfg = screen.collect()
        assert cfg is not None and cfg.players[0].name == "Ann Lee"
