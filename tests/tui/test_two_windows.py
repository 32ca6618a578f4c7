"""The terminal game open in two places: the window left behind says so and reloads."""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import game, run, settle

from yacht.engine import Roll
from yacht.session import Launch, PlayerSpec
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL, Table, ThreadDriver
from yacht.tui.screens.dialogs import ChoiceDialog
from yacht.tui.screens.game import GameScreen


@run
async def test_a_game_played_on_elsewhere_is_offered_to_reload(
        new_app: Any, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThreadDriver, "WATCH", 0.05)  # look often (a window looks every 2 s)
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        gid = game(pilot).table.view().game_id
        assert gid is not None
        other = Table.resume(store, gid)  # the same game in another window
        other.act(LOCAL, ScoreBox(other._game.state.placements()[0].category))
        for _ in range(200):
            await pilot.pause(0.02)
            if isinstance(app.screen, ChoiceDialog):
                break
        assert isinstance(app.screen, ChoiceDialog)
        assert "went on elsewhere" in str(app.screen.text)
        await pilot.press("1")  # reload
        await settle(pilot)
        g = game(pilot)
        assert isinstance(g, GameScreen) and g.table is not other
        assert g.table._game.state.turns_taken(0) == 1 and not g.table._game.state.dice
        assert g.table.view().saved
        g.table.act(LOCAL, Roll())  # and it saves again
        assert store.load_record(gid).actions == g.table._game.state.log
