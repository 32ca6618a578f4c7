"""Waiting for the game to be idle, reading what the table shows."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from textual.pilot import Pilot

from yacht.rules import Ruleset
from yacht.strategy import RandomStrategy
from yacht.tui.screens.game import GameScreen


def random_players(level: str, rs: Ruleset) -> RandomStrategy:
    """Every computer level plays seeded random moves: quick and deterministic."""
    return RandomStrategy(rs, seed=3)


async def settle(pilot: Pilot[Any], rounds: int = 400) -> None:
    """Let computer steps and workers finish (no timing: just until nothing is pending)."""
    for _ in range(rounds):
        await pilot.pause()
        screen = pilot.app.screen
        busy = isinstance(screen, GameScreen) and screen.cpu_busy
        if not busy and not any(w.is_running for w in pilot.app.workers):
            return
        await pilot.pause(0.01)
    raise AssertionError("the game did not settle")


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


def fast_forward(screen: GameScreen, leave: int = 1) -> None:
    """Play a one-person game through the session until ``leave`` boxes are open."""
    s = screen.session
    st = s.state
    while sum(1 for col in st.card(st.current).boxes for b in col if b is None) > leave:
        s.roll()
        while not st.placements():
            s.choose_all()
            s.roll()
        pl = st.placements()[0]
        s.score(pl.category, pl.column)
    screen.refresh_all()


async def click_box(pilot: Pilot[Any], category: str, column: int = 0) -> None:
    """Click the current player's box ``category`` on the card (scrolled into view)."""
    from yacht.tui.widgets import ScoreCard

    screen = game(pilot)
    card = screen.query_one(ScoreCard)
    me = screen.session.state.current
    row, col = next((r, c) for (r, c), cell in card.cells.items()
                    if cell.category == category and cell.player == me
                    and cell.column == column)
    keys = list(card.columns)
    x = sum(card.columns[k].get_render_width(card) for k in keys[:col]) + 2
    fixed = sum(card.columns[k].get_render_width(card) for k in keys[:card.fixed_columns])
    card.scroll_to(x=max(0, x - fixed - 1), y=max(0, row - 3), animate=False)
    await pilot.pause()
    await pilot.click(ScoreCard, offset=(x - int(card.scroll_x), row + 1 - int(card.scroll_y)))
