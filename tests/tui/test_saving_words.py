"""What the terminal game says about saving when it is left: it first writes what a failed
save left out (``Table.save_unsaved``), and says plainly when the game is still not saved.
And the help lists Tommy's old keys only in his variants; the setup says what a
marked die is for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from tui_helpers import game, messages, run, settle

from yacht.engine import Roll
from yacht.session import Launch, PlayerSpec
from yacht.session.commands import Toggle
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog, HelpScreen

App = Callable[..., YachtApp]
YATZY = Launch(variant="yatzy", players=[PlayerSpec("Ann")])


def failing(store: Any) -> Callable[[bool], None]:
    """Make the store's saves fail (True) or work again (False)."""
    real = store.append_action

    def append_action(*args: Any, **kw: Any) -> Any:
        raise OSError("disk full")

    def set_failing(on: bool) -> None:
        store.append_action = append_action if on else real
    return set_failing


@run
async def test_quitting_saves_what_a_failed_save_left_out(new_app: App, store: Any) -> None:
    app = new_app(YATZY)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        table = game(pilot).table
        table.act(LOCAL, Roll())
        gid = table.view().game_id
        assert gid is not None
        fail = failing(store)
        fail(True)
        table.act(LOCAL, Toggle(0), Roll())  # not saved: the game goes on in memory
        assert not table.view().saved
        fail(False)  # the store is back before the person quits
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert "The game is saved" in app.screen.text
        assert store.progress(gid)[0] == len(table.view().state.log)
        print("END", __import__("time").monotonic())
    print("EXIT", __import__("time").monotonic())


@run
async def test_quitting_says_when_the_game_is_still_not_saved(new_app: App,
                                                               store: Any) -> None:
    app = new_app(YATZY)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        table = game(pilot).table
        table.act(LOCAL, Roll())
        failing(store)(True)  # and it stays down
        table.act(LOCAL, Toggle(0), Roll())
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        text = app.screen.text
        assert "The game is saved" not in text and "will be lost" not in text
        assert "The game is not saved: saving failed" in text
        assert "yacht resume" in text
        screen = app.screen_stack[-2]
        words = screen.closing_words()  # type: ignore[attr-defined]
        assert words is not None and "not saved: saving failed" in words


@run
async def test_tommys_keys_are_in_his_variants_help_only(new_app: App) -> None:
    for variant, tommys in (("yatzy", False), ("yahtzee", False), ("tommys-yahtzee", True),
                            ("tommys-yacht", True), ("tommys-crag", True)):
        app = new_app(Launch(variant=variant, players=[PlayerSpec("Ann")]))
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = app.screen.text
            assert ("#A-#D" in text) == tommys, variant
            assert ("Tommy's F2" in text) == tommys, variant
            assert "Windows Yacht's Tab" in text


@run
async def test_the_setup_says_what_a_marked_die_is_for(new_app: App) -> None:
    from yacht.tui.screens.setup import SetupScreen
    from yacht.tui.widgets import Choice

    app = new_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#variant", Choice).value = "ancient-yacht"
        await pilot.pause()
        mark = app.screen.query_one("#dice-mark", Choice)
        assert mark.value == "variant"
        assert mark.label == "as the variant (marks it to roll again)"
        app.screen.query_one("#variant", Choice).value = "yahtzee"
        await pilot.pause()
        assert mark.label == "as the variant (holds it)"


@run
async def test_a_game_is_stored_only_once_it_has_an_action(new_app: App, store: Any) -> None:
    """A game left (the terminal closed, kill -9) before its first move leaves nothing
    behind: it goes to the store with its first action (a guard: it was so already)."""
    from yacht.render import saved_games

    app = new_app(YATZY)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        table = game(pilot).table
        assert table.view().game_id is None and saved_games(store, 20) == []
        await pilot.press("r")
        await settle(pilot)
        gid = table.view().game_id
        assert gid is not None and [g.id for g, _ in saved_games(store, 20)] == [gid]


@run
async def test_quitting_writes_what_was_left_out_off_the_screens_thread(new_app: App,
                                                                         store: Any) -> None:
    """The quit dialog's save ran on Textual's event loop: a write that waited (the
    database held by another program) froze the screen. It runs on a thread now; the
    dialog comes once it is done and still says truthfully that the game is saved."""
    import asyncio
    import threading

    app = new_app(YATZY)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        table = game(pilot).table
        table.act(LOCAL, Roll())
        gid = table.view().game_id
        fail = failing(store)
        fail(True)
        table.act(LOCAL, Toggle(0), Roll())  # not saved: the game goes on in memory
        fail(False)
        real = store.append_action
        go, returned = threading.Event(), threading.Event()

        def slow(*args: Any, **kw: Any) -> Any:
            go.wait(20)
            try:
                return real(*args, **kw)
            finally:
                returned.set()

        store.append_action = slow
        app.post_message(events.Key("q", "q"))
        # (the pilot's own pause would wait for the save's worker: the loop is watched
        # as it is; a loop held by the save would come back here only once the save had
        # given up waiting, 20 s on: no clock is read, a loaded machine cannot fail it)
        for _ in range(30):
            await asyncio.sleep(0.01)
        assert not returned.is_set()
        assert not isinstance(app.screen, ChoiceDialog) and game(pilot).saving
        assert messages(app) == ["Saving the game before leaving…"]
        go.set()
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert "The game is saved" in app.screen.text
        assert store.progress(gid)[0] == len(table.view().state.log)
