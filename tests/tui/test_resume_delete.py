"""The list of unfinished games deletes a saved game, once the person says yes (QA s19 tui
item 4)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from textual.widgets import OptionList
from tui_helpers import messages, run, settle

from yacht.engine import Player, Roll
from yacht.rules import get
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL, Table
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog
from yacht.tui.screens.resume import ResumeScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]


def saved(store: Any, n: int) -> list[str]:
    ids = []
    for i in range(n):
        t = Table.new(get("yahtzee"), [Player(f"Ann{i}")], store=store, rng=random.Random(i))
        t.real_dice = True
        t.act(LOCAL, Roll((6, 6, 6, 1, 2)), ScoreBox("chance"))
        ids.append(str(t.view().game_id))
    return ids


def listed(app: Any) -> list[str | None]:
    games = app.screen.query_one("#games", OptionList)
    return [games.get_option_at_index(i).id for i in range(games.option_count)]


@run
async def test_a_saved_game_is_deleted_after_a_yes(new_app: App, store: Any) -> None:
    ids = saved(store, 2)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        bar = app.screen.query_one(KeyBar)
        assert any(key == "d" and "Delete" in words for key, words, *_ in bar.keys)
        first = listed(app)[0]
        assert first in ids
        # d, then No: nothing is deleted
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert "Ann" in app.screen.text and "cannot be resumed" in app.screen.text
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen) and listed(app)[0] == first
        assert {g.id for g in store.unfinished_games()} == set(ids)
        # d, then Yes: gone from the list and from the store
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        assert first not in listed(app) and len(listed(app)) == 2  # the other, and New
        assert {g.id for g in store.unfinished_games()} == set(ids) - {first}
        assert "Saved game deleted (1 left)" in messages(app)[-1]
        # the list's highlight is on the game left: Delete (the key) deletes it too
        await pilot.press("delete")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert list(store.unfinished_games()) == []
        assert listed(app) == ["__new__"]
        # nothing to delete on "Start a new game": said, no question
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        assert "Highlight a saved game" in messages(app)[-1]
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)


@run
async def test_a_delete_the_store_refuses_keeps_the_list(new_app: App, store: Any) -> None:
    ids = saved(store, 1)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)

        def refuse(game_id: str) -> None:
            raise RuntimeError("the database is locked")

        store.delete_game = refuse
        await pilot.press("d", "1")
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen) and listed(app)[0] == ids[0]
        assert "The game was not deleted: the database is locked" in messages(app)[-1]
