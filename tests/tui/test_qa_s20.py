"""QA s20, the terminal game's small things: the key bar leaves out a person's keys while
a computer plays and the speed in a game without computers, + / - there say there are
no computers, and a refusal said before the last score does not stay over "Game
over"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_helpers import game, messages, run, settle, until

from yacht.engine import Roll
from yacht.session import Launch, PlayerSpec, category_keys
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]


def bar(app: YachtApp) -> str:
    return str(app.screen.query_one(KeyBar).render())


@run
async def test_a_persons_keys_leave_the_bar_while_a_computer_plays(new_app: App) -> None:
    launch = Launch(variant="yatzy", players=[PlayerSpec("Max", "expert"), PlayerSpec("Ann")])
    app = new_app(launch, speed="slow")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = game(pilot)
        assert screen.table.view().computer_turn
        shown = bar(app)
        # before: "r Roll  o Oops  h Hint" stayed, each answering only "Wait: ..."
        assert " r Roll " not in shown and " o Oops " not in shown
        assert " h Hint " not in shown
        assert " ? Help " in shown and " +/- Speed " in shown
        screen.table.set_speed("instant")
        await settle(pilot)
        assert not screen.table.view().computer_turn
        # (the bar follows the screen's next update: a loaded fresh-clone run read it a
        # round before that)
        await until(pilot, lambda: " r Roll " in bar(app))
        shown = bar(app)
        assert " r Roll " in shown and " o Oops " in shown and " h Hint " in shown


@run
async def test_speed_keys_in_a_game_without_computers(new_app: App) -> None:
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert "Speed" not in bar(app) and " r Roll " in bar(app)
        await pilot.press("plus")
        await pilot.pause()
        # before: "Computer speed: instant (the fastest; - slows down)"
        assert messages(app) == ["No computer plays in this game: + and - set the "
                                 "computers' speed (F2, the demo, lets the computer play "
                                 "every seat)"]
        assert app.config.speed == "instant"


@run
async def test_a_refusal_does_not_stay_over_game_over(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        table = screen.table
        rs = table.ruleset
        for _ in range(len(rs.categories) - 1):
            table.act(LOCAL, Roll())
            table.act(LOCAL, ScoreBox(table.view().state.placements()[0].category))
        await pilot.press("r")  # the last turn's first roll
        await pilot.pause()
        await pilot.press("r")  # no die marked to roll again: refused
        await pilot.pause()
        assert any(m.startswith("Choose the dice to roll again first") for m in messages(app))
        last = table.view().state.placements()[0].category
        await pilot.press(category_keys(rs)[last])
        await settle(pilot)
        assert table.view().over
        assert "Game over" in str(screen.query_one("#rolls").render())
        assert messages(app) == []


@run
async def test_a_resumed_game_goes_on_at_the_speed_it_was_started_with(
        new_app: App, store: Any) -> None:
    launch = Launch(variant="yatzy", players=[PlayerSpec("Ann"), PlayerSpec("Max", "expert")],
                    speed="slow")
    app = new_app(launch, speed="slow")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        gid = game(pilot).table.view().game_id
    assert gid is not None and store.load_record(gid).meta["speed"] == "slow"
    # yacht play --resume ID, the setup's speed being normal: it went on at normal
    again = new_app(Launch(resume=gid), speed="normal")
    async with again.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        assert screen.table.view().speed == "slow" and again.config.speed == "slow"
        assert "speed slow" in str(screen.query_one("#title").render())
    # --speed given with --resume says otherwise
    fast = new_app(Launch(resume=gid, speed="fast"), speed="fast")
    async with fast.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert game(pilot).table.view().speed == "fast"


@run
async def test_oops_stays_on_the_bar_while_a_score_may_be_taken_back(new_app: App) -> None:
    """After a person's score the computer's turn starts and the help line says that o
    takes the score back until the computer rolls: the bar keeps o Oops until then."""
    launch = Launch(variant="yatzy", players=[PlayerSpec("Ann"), PlayerSpec("Max", "expert")])
    app = new_app(launch, speed="slow")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        screen.table.set_prefs(LOCAL, pause=False)  # (no Next player pause: on at once)
        await pilot.press("r", "v")
        await pilot.pause()
        view = screen.table.view()
        assert view.computer_turn and screen.snap["can"]["take_back"]
        shown = bar(app)
        assert " o Oops " in shown and " r Roll " not in shown and " h Hint " not in shown


@run
async def test_a_speed_changed_during_the_game_is_kept_with_it(new_app: App, store: Any) -> None:
    launch = Launch(variant="yatzy", players=[PlayerSpec("Ann"), PlayerSpec("Max", "expert")],
                    speed="slow")
    app = new_app(launch, speed="slow")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("plus")  # before the game is saved: it starts with it
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        table = game(pilot).table
        gid = table.view().game_id
        assert gid is not None and store.load_record(gid).meta["speed"] == "normal"
        await pilot.press("plus")  # once it is saved: kept in the store
        await settle(pilot)
        assert table.view().speed == "fast"
    # before: the record kept the speed the game was started with (slow)
    assert store.load_record(gid).meta["speed"] == "fast"
    again = new_app(Launch(resume=gid), speed="normal")
    async with again.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        assert screen.table.view().speed == "fast" and again.config.speed == "fast"
        await pilot.press("minus")
        await settle(pilot)
    assert store.load_record(gid).meta["speed"] == "normal"
    # --speed given with --resume wins, and is the game's from then on
    slow = new_app(Launch(resume=gid, speed="slow"), speed="slow")
    async with slow.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert game(pilot).table.view().speed == "slow"
    assert store.load_record(gid).meta["speed"] == "slow"
    last = new_app(Launch(resume=gid), speed="instant")
    async with last.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert game(pilot).table.view().speed == "slow"
