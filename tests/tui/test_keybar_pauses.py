"""The key bar says what the keys do at each moment of a turn: in the Next player pause r
goes on (not 'Roll'), at the game's end it shows the results, the keys that would only
say 'not now' are left out (the hint in a pause, the demo at the end, r once no roll is
left, the playing keys while the terminal is too small), and the results' bar takes a
second line where its keys do not fit one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_helpers import every_die_again, fast_forward, game, play_out, run, settle, until

from yacht.session import Launch, PlayerSpec, category_keys
from yacht.tui import YachtApp
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]


def bar(app: Any) -> str:
    """The key bar as drawn (its lines joined)."""
    return " " + " ".join(str(app.screen.query_one(KeyBar).render()).split("\n")) + " "


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


async def shown_while_paced(pilot: Any, ready: Callable[[], object]) -> None:
    """Until ``ready()`` holds, while a computer's paced steps go on (``settle`` waits for
    them to end): a bounded count of rounds."""
    for _ in range(400):
        await pilot.pause(0.01)
        if ready():
            return
    raise AssertionError("the screen never got ready")


def with_computers(n: int = 8) -> Launch:
    return Launch(variant="yatzy", players=[PlayerSpec("Ann")]
                  + [PlayerSpec(f"Cpu{i}", "expert") for i in range(1, n)])


@run
async def test_the_next_player_pause_shows_the_key_that_goes_on(new_app: App) -> None:
    """After the person's score the table pauses before the computers play: the bar said
    'r Roll' (r goes on there) and 'h Hint' (only 'A hint is for your own turn'). Now
    'r Next player', as the button says, and Oops while the score may be taken back; the
    turn's keys come back on the person's next turn."""
    app = new_app(with_computers())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        rs = screen.table.ruleset
        await pilot.press("r")
        await until(pilot, lambda: screen.table.view().state.dice)
        box = screen.table.view().state.placements()[0].category
        await pilot.press(category_keys(rs)[box])
        await until(pilot, lambda: screen.table.view().pause == "next_player")
        await until(pilot, lambda: " r Next player " in bar(app))
        shown = bar(app)
        assert " r Roll " not in shown and " h Hint " not in shown, shown
        assert " o Oops " in shown and " ? Help " in shown and " q Quit " in shown, shown
        assert str(screen.query_one("#roll").label) == "Next player"
        await pilot.press("r")  # the computers play their turns (instant), then Ann's
        await until(pilot, lambda: screen.table.view().pause is None
                    and not screen.table.view().computer_turn)
        await until(pilot, lambda: " r Roll " in bar(app))
        shown = bar(app)
        assert " h Hint " in shown and "Next player" not in shown, shown


@run
async def test_a_pause_between_two_people_shows_the_key_that_goes_on(new_app: App) -> None:
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        assert screen.table.pause_between_people  # (the setup's default)
        await pilot.press("r")
        await until(pilot, lambda: screen.table.view().state.dice)
        box = screen.table.view().state.placements()[0].category
        await pilot.press(category_keys(screen.table.ruleset)[box])
        await until(pilot, lambda: screen.table.view().pause is not None)
        await until(pilot, lambda: " r Next player " in bar(app))
        assert " h Hint " not in bar(app) and " q Quit " in bar(app)
        await pilot.press("r")
        await until(pilot, lambda: " r Roll " in bar(app))


@run
async def test_the_game_over_pause_shows_the_results_key(new_app: App) -> None:
    """At the game's end the bar said 'r Roll', 'h Hint' and 'F2 Demo' (each only
    'the game is over'): now 'r See results', Oops (the last score may be taken back),
    and no hint or demo. r shows the results."""
    from yacht.tui.screens.end import EndScreen

    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        fast_forward(screen, leave=1)
        await settle(pilot)
        await pilot.press("r")
        await until(pilot, lambda: screen.table.view().state.dice)
        box = screen.table.view().state.placements()[0].category
        await pilot.press(category_keys(screen.table.ruleset)[box])
        await until(pilot, lambda: screen.table.view().over)
        await until(pilot, lambda: " r See results " in bar(app))
        shown = bar(app)
        assert " r Roll " not in shown and " h Hint " not in shown, shown
        assert "Demo" not in shown and " o Oops " in shown, shown
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))


@run
async def test_r_leaves_the_bar_once_no_roll_is_left(new_app: App) -> None:
    """With the turn's rolls used up the Roll button says 'Score a box' and is off; the
    bar still said 'r Roll' (r only said there is no roll left)."""
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        for rolls in range(1, screen.table.view().state.max_rolls + 1):
            await pilot.press("r")
            await until(pilot, lambda n=rolls: screen.table.view().state.rolls == n)
            if screen.table.view().state.may_reroll():
                assert " r Roll " in bar(app)
                await pilot.press(every_die_again(screen))
        await until(pilot, lambda: not screen.table.view().state.may_reroll())
        await until(pilot, lambda: " r Roll " not in bar(app))
        assert " o Oops " in bar(app) and " h Hint " in bar(app)
        assert str(screen.query_one("#roll").label) == "Score a box"


@run
async def test_a_table_too_small_leaves_the_playing_keys_out(new_app: App) -> None:
    """In a terminal too small for the table r, o and h were shown and only answered
    'make the window bigger first'; the bar keeps what works (help, quit) and the
    playing keys come back with the table."""
    app = new_app(Launch(variant="ancient-yacht-10-double",
                         players=[PlayerSpec(n) for n in "Ann Bob Cyd Dan Eve Fay Gus Hal"
                                  .split()]))
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        await until(pilot, lambda: screen.too_small)
        await until(pilot, lambda: " r Roll " not in bar(app))
        shown = bar(app)
        assert " o Oops " not in shown and " h Hint " not in shown, shown
        assert " ? Help " in shown and " q Quit " in shown, shown
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: not screen.too_small and " r Roll " in bar(app))


@run
async def test_the_end_screen_at_45_columns_shows_every_key(new_app: App) -> None:
    """At 45 columns the results' bar left t Top ten and a Analysis out behind a '…' (their
    buttons scrolled away below the players, and the results have no help): the bar takes
    a second line there, one at 80 columns as before."""
    from yacht.tui.screens.end import EndScreen

    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        play_out(game(pilot))
        await settle(pilot)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        await until(pilot, lambda: app.screen.query_one(KeyBar).region.height == 2)
        bottom = " ".join(screen_text(app)[-2:])
        for words in ("p Play again", "n New game", "t Top ten", "a Analysis", "q Quit"):
            assert words in bottom, bottom
        assert "…" not in bottom
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: app.screen.query_one(KeyBar).region.height == 1)
        assert "a Analysis" in screen_text(app)[-1]


@run
async def test_f2_says_it_stops_the_demo_and_is_left_out_where_every_seat_is_a_computer(
        new_app: App) -> None:
    """During the demo F2 gives the people their seats back: the bar says 'Stop demo' (it
    said 'Demo'); a table of computers only has no F2 (it only said the demo plays on)."""
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann"),
                                                   PlayerSpec("Cpu", "expert")]),
                  speed="slow")  # (the demo's steps wait: it is still on when the bar is read)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        await until(pilot, lambda: " F2 Demo " in bar(app))
        await pilot.press("f2")
        await shown_while_paced(pilot, lambda: screen.table.view().taken_over
                                and " F2 Stop demo " in bar(app))
        await pilot.press("f2")
        await shown_while_paced(pilot, lambda: not screen.table.view().taken_over
                                and " F2 Demo " in bar(app))
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Cpu1", "expert"),
                                                   PlayerSpec("Cpu2", "expert")]),
                  speed="slow")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_while_paced(pilot, lambda: " +/- Speed " in bar(app))
        assert " F2 " not in bar(app), bar(app)
