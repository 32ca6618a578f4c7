"""Waiting for the game to be idle, reading what the table shows."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable, Coroutine
from typing import Any

from textual import events
from textual._context import active_app
from textual.pilot import Pilot

from yacht.engine import State
from yacht.rules import Ruleset
from yacht.strategy import RandomStrategy
from yacht.strategy.base import Decision
from yacht.tui.screens.game import GameScreen


class StateSeeded(RandomStrategy):
    """Random moves drawn from the position alone: the same position, the same move, however
    many times it is asked (the screen's driver thread and a test's ``run_due`` may both
    work out the same step, and only one of them plays it)."""

    def decide(self, state: State) -> Decision:
        key = (state.current, state.turns_taken(state.current), state.dice, state.rolls,
               state.card(state.current).boxes)
        self.rng = random.Random(repr(key))
        return super().decide(state)


def random_players(level: str, rs: Ruleset) -> RandomStrategy:
    """Every computer level plays random moves: quick and deterministic."""
    return StateSeeded(rs)


async def settle(pilot: Pilot[Any], rounds: int = 400) -> None:
    """Let computer steps and workers finish (no timing: just until nothing is pending)."""
    for _ in range(rounds):
        await pilot.pause()
        screen = pilot.app.screen
        # (a person's command still played on its thread, see GameScreen.send: its
        # outcome comes as a message)
        busy = isinstance(screen, GameScreen) and (screen.cpu_busy or screen._acting)
        if not busy and not any(w.is_running for w in pilot.app.workers):
            return
        await pilot.pause(0.01)
    raise AssertionError("the game did not settle")


def _pending(app: Any) -> bool:
    """Something is queued or under way in the app: a message or callback for the app, a
    screen or a widget of the screen on top that has not been handled (each handles its
    own queue in turn: one that is not waiting on its empty queue is handling one), or
    a callback for after the screen's next refresh."""
    try:
        screen = app.screen
    except Exception:  # (no screen yet, or the app is closing)
        return True
    if screen._callbacks:
        return True
    for pump in (app, *app.screen_stack, *screen.walk_children(with_self=False)):
        queue = pump._message_queue
        if queue.values or pump._next_callbacks or pump._pending_message is not None:
            return True
        if pump._running and not pump._closed and not queue.ready_event._waiters:
            return True  # (handling a message, or its idle work after one)
    return False


async def drained(min_sleep: float = 0.0, max_sleep: float = 1.0, rounds: int = 2000) -> None:
    """Textual's wait after each key and pause, on a condition instead of the CPU clock.

    Textual waits until the process has used next to no CPU for 20 ms (twice after each
    key): most of a keyboard game's time here. This waits until the app and every widget
    of its screen have handled all that was queued for them and wait on their empty
    queues, seen twice in a row: a bounded count of rounds, as Textual's wait is bounded
    by a second (an animation that queues refreshes while it runs does not hold it).
    """
    try:
        app = active_app.get()
    except LookupError:
        await asyncio.sleep(0)
        return
    quiet = 0
    for _ in range(rounds):
        await asyncio.sleep(0)
        if not app.is_running:
            return  # (it ended: nothing more comes)
        if _pending(app):
            quiet = 0
            await asyncio.sleep(0.0005)
            continue
        quiet += 1
        if quiet == 2:
            return


def quick_waits(monkeypatch: Any) -> None:
    """The pilot's keys, clicks and pauses wait with :func:`drained` (for this test)."""
    import textual.app
    import textual.pilot

    monkeypatch.setattr(textual.app, "wait_for_idle", drained)
    monkeypatch.setattr(textual.pilot, "wait_for_idle", drained)


async def until(pilot: Pilot[Any], ready: Callable[[], object], rounds: int = 400) -> None:
    """Settle until ``ready()`` holds: a screen pushed from a worker's message comes a
    round or more after the workers are done (no timing: a bounded count of rounds)."""
    for _ in range(rounds):
        await settle(pilot)
        if ready():
            return
        await pilot.pause(0.01)
    raise AssertionError("the screen never got ready")


def messages(app: Any) -> list[str]:
    """The messages the app shows or showed and has not replaced: read without Textual's
    reaping by the clock (a 2 s message may have run out by the time a loaded machine
    reads it; what the app replaced or cleared itself is gone all the same)."""
    return [n.message for n in app._notifications._notifications.values()]


def game(pilot: Pilot[Any]) -> GameScreen:
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen), type(screen)
    return screen


def run(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test without an asyncio plugin."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> None:
        asyncio.run(fn(*args, **kw))
    return wrapper


def holding(screen: GameScreen) -> bool:
    """A click on a die (its key) holds it here, rather than marking it to roll again."""
    from yacht.session.table import LOCAL

    return bool(screen.table.snapshot(LOCAL)["dice_mark"] == "hold")


def marked(screen: GameScreen) -> frozenset[int]:
    """The dice set apart now: held, or marked to roll again (the seat's way)."""
    from yacht.session.table import LOCAL

    return frozenset(i for i, m in enumerate(screen.table.snapshot(LOCAL)["marks"]) if m)


def every_die_again(screen: GameScreen) -> str:
    """The key that sets every die to roll again: a (all) marking, n (hold none) holding."""
    return "n" if holding(screen) else "a"


def fast_forward(screen: GameScreen, leave: int = 1) -> None:
    """Play a one-person game through the table until ``leave`` boxes are open."""
    from yacht.engine import Choose, Roll, Score
    from yacht.session.table import LOCAL

    table = screen.table
    st = table._game.state
    while sum(1 for col in st.card(st.current).boxes for b in col if b is None) > leave:
        table.act(LOCAL, Roll())
        while not st.placements():  # (every die again, whichever way a click goes)
            table.act(LOCAL, Choose(tuple(range(len(st.dice)))), Roll())
        pl = st.placements()[0]
        table.act(LOCAL, Score(pl.category, pl.column))
    screen.refresh_all()


def play_out(screen: GameScreen) -> None:
    """The rest of a one-person game through the table, the screen's driver stopped:
    each pause gone on from, each turn rolled once (if no dice show) and scored in the
    first box offered."""
    from yacht.engine import Roll
    from yacht.session.commands import GoOn, ScoreBox
    from yacht.session.table import LOCAL

    table = screen.table
    fast = table._game
    screen.driver.stop()
    while not fast.is_over():
        table.run_due()
        if table.view().pause is not None:
            table.act(LOCAL, GoOn())
            continue
        if not fast.state.dice:
            table.act(LOCAL, Roll())
        table.act(LOCAL, ScoreBox(fast.state.placements()[0].category))
    screen.refresh_all()


async def click_box(pilot: Pilot[Any], category: str, column: int = 0) -> None:
    """Click the current player's box ``category`` on the card (scrolled into view)."""
    from yacht.tui.widgets import ScoreCard

    screen = game(pilot)
    card = screen.query_one(ScoreCard)
    me = screen.table._game.state.current
    row, col = next((r, c) for (r, c), cell in card.cells.items()
                    if cell.category == category and cell.player == me
                    and cell.column == column)
    keys = list(card.columns)
    x = sum(card.columns[k].get_render_width(card) for k in keys[:col]) + 2
    fixed = sum(card.columns[k].get_render_width(card) for k in keys[:card.fixed_columns])
    card.scroll_to(x=max(0, x - fixed - 1), y=max(0, row - 3), animate=False)
    await pilot.pause()
    await pilot.click(ScoreCard, offset=(x - int(card.scroll_x),
                                         row + card.header_height - int(card.scroll_y)))


async def click_key(pilot: Pilot[Any], action: str) -> None:
    """Click the key of ``action`` in the key bar at the bottom of the screen."""
    from yacht.tui.widgets import KeyBar

    bar = pilot.app.screen.query_one(KeyBar)
    start, _end, _i, line = next(span for span in bar._spans if bar.keys[span[2]][2] == action)
    await tap(pilot, bar, offset=(start + 1, line))


def _mouse(pilot: Pilot[Any], kind: type[events.MouseEvent], x: int, y: int,
           button: int = 1) -> None:
    """A mouse event as the terminal's driver posts it to the app."""
    pilot.app.post_message(kind(None, x, y, 0, 0, button, False, False, False,
                                screen_x=x, screen_y=y))


async def tap(pilot: Pilot[Any], target: Any, offset: tuple[int, int] = (0, 0)) -> None:
    """A click as a terminal sends it: the button goes down and up over ``target``
    (a widget or a selector; ``offset`` from its corner), Textual makes the Click.

    Closer to a real mouse than ``Pilot.click`` (which hands the screen a ready
    Click) and quicker: one wait for the app, not four.
    """
    from textual.widgets import Button

    widget = pilot.app.screen.query_one(target) if isinstance(target, str) else target
    for _ in range(20):  # a button ignores clicks while it shows its last press (0.2 s)
        if not (isinstance(widget, Button) and widget.has_class("-active")):
            break
        await pilot.pause(0.05)
    from textual.errors import NoWidget

    under: Any = None
    for _ in range(100):  # a screen just pushed may not be laid out yet (a loaded machine)
        x, y = widget.region.offset + offset
        try:
            under, _ = pilot.app.get_widget_at(x, y)
        except NoWidget:
            under = None
        if under is widget and widget.region.area:
            break
        await pilot.pause(0.02)
    assert under is widget, f"{under!r} is where {widget!r} should be clicked"
    _mouse(pilot, events.MouseDown, x, y)
    _mouse(pilot, events.MouseUp, x, y)
    await pilot.pause()


async def wheel(pilot: Pilot[Any], widget: Any, event: type[events.MouseEvent]) -> None:
    """One notch of the mouse wheel (or a sideways tilt) over ``widget``."""
    x, y = widget.region.offset + (widget.size.width // 2, widget.size.height // 2)
    _mouse(pilot, event, x, y, button=0)
    await pilot.pause()


async def mouse_box(pilot: Pilot[Any], category: str, column: int = 0) -> None:
    """Score a box of the player on turn by mouse: the wheel brings it into view, a click."""
    from textual.coordinate import Coordinate

    from yacht.tui.widgets import ScoreCard

    await pilot.pause()  # the card may still scroll to the player on turn (after an Oops)
    screen = game(pilot)
    card = screen.query_one(ScoreCard)
    me = screen.table._game.state.current
    coord = Coordinate(*next((r, c) for (r, c), cell in card.cells.items()
                             if cell.category == category and cell.player == me
                             and cell.column == column))
    for _ in range(40):
        cell = card._get_cell_region(coord)
        fixed = card._get_fixed_offset()
        view = card.scrollable_content_region
        x, y = cell.x - int(card.scroll_x), cell.y - int(card.scroll_y)
        if x < fixed.left:
            await wheel(pilot, card, events.MouseScrollLeft)
        elif x + cell.width > view.width:
            await wheel(pilot, card, events.MouseScrollRight)
        elif y < fixed.top:
            await wheel(pilot, card, events.MouseScrollUp)
        elif y + cell.height > view.height:
            await wheel(pilot, card, events.MouseScrollDown)
        else:
            break
    else:
        raise AssertionError(f"the wheel does not bring {category} into view")
    await tap(pilot, card, offset=(x + 1, y))
