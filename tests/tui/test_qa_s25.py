"""Found trying the terminal game as a new user (QA s25)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_helpers import click_key, run, settle, until

from yacht.tui import YachtApp
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


@run
async def test_the_setup_at_45_columns_shows_every_key_on_two_lines(new_app: App) -> None:
    """At 45 columns the setup's key bar left out F3 (+ Player), F4 (- Player) and F6
    (Top ten) behind a '…', and its help is the rules: a player could not learn them
    (the buttons there say '+ Player' alone). The bar takes a second line when one is
    not enough; a click on a key of the second line does what the key does; at 80
    columns it is one line as before."""
    from yacht.tui.screens.setup import SetupScreen
    from yacht.tui.screens.topten import TopTenScreen

    app = new_app()
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        bar = app.screen.query_one(KeyBar)
        assert bar.region.height == 2 and bar.region.bottom == 14
        bottom = "\n".join(screen_text(app)[-2:])
        for words in ("f5 Start", "f2 Demo", "f3 + Player", "f4 - Player", "f1 Rules",
                      "f6 Top ten"):
            assert words in bottom, bottom
        assert "…" not in bottom
        assert all(line.rstrip() == line.rstrip()[:45] for line in screen_text(app))
        await click_key(pilot, "top_ten")  # (on the second line)
        await until(pilot, lambda: isinstance(app.screen, TopTenScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        assert bar.region.height == 1 and bar.region.bottom == 24
        assert "f6 Top ten" in screen_text(app)[-1]
