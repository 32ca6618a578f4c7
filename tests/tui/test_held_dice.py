"""The terminal: a click on a die (its key) holds it or marks it to roll again, each
variant as its seed program did, the other way a remembered setting; the dice show it by
a word or a sign, not by colour alone; the pause before a computer is a setting too; the
game's first hint says what it does before it is given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.widgets import Checkbox
from tui_helpers import game, run, settle, tap

from yacht.engine import Choose, Roll
from yacht.session import Config, Launch, PlayerSpec, load_config, save_config
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog, TextDialog
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.widgets import Choice
from yacht.tui.widgets.dice import Die

App = Callable[..., YachtApp]


def under_faces(app: Any) -> list[str]:
    """What each die shows under its face (its key, and its mark)."""
    return [str(d.render()).splitlines()[-1] for d in app.screen.query(Die)]


@run
async def test_yahtzee_holds_the_dice_clicked_and_says_so(new_app: App,
                                                          monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")  # (the marks are words and signs)
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((6, 6, 1, 2, 3)))
        g.refresh_all()
        assert "Hold dice (1-5 or click" in g.help_text()
        log = g.table.action_count
        await pilot.press("1")
        await tap(pilot, "#die-1")  # the mouse: the same
        await settle(pilot)
        marks = under_faces(app)
        assert [m.strip() for m in marks] == ["HOLD", "HOLD", "3", "4", "5"]
        assert g.help_text().startswith("r or Enter: roll the 3 dice not held")
        await pilot.press("r")
        await settle(pilot)
        # the record says which dice rolled again: each hold saved as the choice of the
        # others (a quit or a kill keeps them), then the roll
        acts = g.table.actions_since(log)
        assert acts[:2] == [Choose((1, 2, 3, 4)), Choose((2, 3, 4))]
        assert type(acts[2]).__name__ == "Roll"
        assert acts[3:] == [Choose((2, 3, 4))]   # (the holds kept after the roll, saved)
        assert g.table.view().state.dice[:2] == (6, 6)
        assert [m.strip() for m in under_faces(app)][:2] == ["HOLD", "HOLD"]  # held still


@run
async def test_crag_marks_the_dice_to_roll_again(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "1")
        await settle(pilot)
        assert under_faces(app)[0].strip() == "▲ 1 ▲"
        assert g.help_text().startswith("r or Enter: roll the chosen die")
        assert g.table.view().state.chosen == {0}


@run
async def test_the_setup_remembers_the_other_way_and_the_pause(new_app: App) -> None:
    save_config(Config(variant="yahtzee", players=[PlayerSpec("Ann"),
                                                   PlayerSpec("Cpu", "beginner")]))
    app = new_app(seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        mark = screen.query_one("#dice-mark", Choice)
        pause = screen.query_one("#computer-pause", Checkbox)
        assert (mark.value, pause.value) == ("variant", True)
        for w in (mark, pause):  # both on the screen at 80x24
            assert screen.region.contains_region(w.region)
        mark.value = "reroll"
        pause.value = False
        await pilot.press("f5")
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "1")
        await settle(pilot)
        assert under_faces(app)[0].strip() == "▲ 1 ▲"  # Yahtzee, the dice marked
        assert g.table.prefs(LOCAL).pause is False
    cfg = load_config()
    assert (cfg.dice_mark, cfg.computer_pause) == ("reroll", False)


@run
async def test_without_the_pause_the_computer_goes_on_and_oops_still_works(
        new_app: App, monkeypatch: Any) -> None:
    import yacht.session.table as table_module

    monkeypatch.setattr(table_module, "MOMENT", 600.0)  # (the moment lasts the test)
    save_config(Config(computer_pause=False))
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann"),
                                                         PlayerSpec("Cpu", "beginner")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True
        g.table.act(LOCAL, Roll((6, 6, 1)))
        g.refresh_all()
        await pilot.press("x")  # Sixes
        await pilot.pause()
        view = g.table.view()
        assert view.pause is None and view.state.current == 1  # no Next player pause
        due = g.table.due()
        assert due is not None and due.kind == "computer"  # the computer goes on by itself
        await pilot.press("o")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("2")  # I scored the wrong box
        await pilot.pause()
        view = g.table.view()
        assert view.state.current == 0 and view.state.dice == (6, 6, 1)


@pytest.mark.parametrize("answer", ["2", "escape"])
@run
async def test_the_first_hint_says_what_it_does_before_it_is_given(new_app: App,
                                                                   answer: str) -> None:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "h")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert app.screen.text == ("A hint marks the game assisted: Ann's score goes to the "
                                   "list apart from the top ten.")
        await pilot.press(answer)  # Never mind: no hint, and the game is as it was
        await settle(pilot)
        assert app.screen is g and not g.table.view().assisted
        await pilot.press("h", "enter")
        for _ in range(100):
            await settle(pilot)
            if isinstance(app.screen, TextDialog):
                break
        assert isinstance(app.screen, TextDialog) and g.table.view().assisted
        await pilot.press("escape")
        await pilot.press("h")  # the game is assisted now: the hint comes at once
        for _ in range(100):
            await settle(pilot)
            if isinstance(app.screen, TextDialog | ChoiceDialog):
                break
        assert isinstance(app.screen, TextDialog)


@run
async def test_a_held_die_is_told_apart_at_every_size(new_app: App) -> None:
    """A big die (120x40) says HOLD beside its key; a small one (eight players) HLD."""
    for size, players, want in [((120, 40), ["Ann"], "HOLD 1"),
                                ((80, 24), ["Ann", "Bob", "Cy", "Di", "Ed", "Fay", "Gus",
                                            "Hal"], "HLD")]:
        app = new_app(Launch(variant="yatzy", players=[PlayerSpec(n) for n in players]))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("r", "1")
            await settle(pilot)
            assert under_faces(app)[0].strip() == want, size
            g = game(pilot)
            g.table.act(LOCAL, ScoreBox("chance"))


@run
async def test_a_slow_move_holds_the_screen_and_loses_no_key(new_app: App,
                                                            monkeypatch: Any) -> None:
    """A person's command slower than half a second (a loaded machine, no database
    lock) went on behind the screen, which then dropped the next key with 'The game
    waits for the database (another program is writing to it)': untrue, and the key
    lost. Seen as this test's first test failing in a loaded CI run (the click after
    the key). The screen now waits for the command unless the store says its save
    waits for the database."""
    from yacht.tui.screens import game as game_screen

    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True
        g.table.act(LOCAL, Roll((6, 6, 1, 2, 3)))
        g.refresh_all()
        act = g.table.act

        def slowly(*args: Any, **kw: Any) -> Any:
            import time

            time.sleep(1.0)   # (longer than the screen once waited: 0.5 s)
            return act(*args, **kw)

        monkeypatch.setattr(g.table, "act", slowly)
        await pilot.press("1", "2")
        await settle(pilot)
        assert [m.strip() for m in under_faces(app)] == ["HOLD", "HOLD", "3", "4", "5"]
        assert not any(game_screen.SAVING_TEXT in n.message
                       for n in app._notifications._notifications.values())
