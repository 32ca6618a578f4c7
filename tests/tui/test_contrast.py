"""Contrast (WCAG): the words of a disabled button at least 4.5:1 (Computer plays was
1.9:1 in a terminal of 256 colours), a scrollbar's thumb at least 3:1 against its track
and the card beside it (2.3-2.8:1), in true colour and in 256 colours."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

from rich.color import Color, ColorSystem
from rich.style import Style
from tui_helpers import game, run, settle

from yacht.engine import Roll, State
from yacht.session import Launch, PlayerSpec
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL
from yacht.strategy import RandomStrategy
from yacht.tui import make_app


def luminance(c: Color) -> float:
    t = c.get_truecolor()

    def part(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * part(t.red) + 0.7152 * part(t.green) + 0.0722 * part(t.blue)


def contrasts(a: Color, b: Color) -> list[float]:
    """The ratio of two colours in true colour and as a terminal of 256 colours has them."""
    out = []
    for x, y in ((a, b), (a.downgrade(ColorSystem.EIGHT_BIT),
                          b.downgrade(ColorSystem.EIGHT_BIT))):
        hi, lo = sorted((luminance(x), luminance(y)), reverse=True)
        out.append((hi + 0.05) / (lo + 0.05))
    return out


def cells(app: Any, region: Any) -> Iterator[tuple[str, Style]]:
    """The text and style of every segment drawn in ``region`` of the screen."""
    strips = app.screen._compositor.render_strips()
    for y in range(region.y, region.bottom):
        x = 0
        for seg in strips[y]:
            if region.x <= x < region.right and seg.style is not None:
                yield seg.text, seg.style
            x += seg.cell_length


class Slow(RandomStrategy):
    def __init__(self, rs: Any, gate: threading.Event) -> None:
        super().__init__(rs, seed=1)
        self.gate = gate

    def decide(self, state: State) -> Any:
        assert self.gate.wait(60)
        return super().decide(state)


@run
async def test_computer_plays_and_the_card_scrollbar_can_be_seen(store: Any) -> None:
    gate = threading.Event()
    people = [PlayerSpec(n) for n in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus")]
    app = make_app(Launch(variant="maxi-yatzy", players=[*people, PlayerSpec("Cpu", "expert")]),
                   store=store, strategy_factory=lambda level, rs: Slow(rs, gate),
                   rng=random.Random(1))
    app.config.speed, app.config.sound = "instant", False
    app.config.computer_pause = app.config.next_player_pause = False
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            g = game(pilot)
            g.table.pause_between_people = False
            for _ in people:  # the people score: the computer's turn (it waits)
                g.table.act(LOCAL, Roll())
                g.table.act(LOCAL, ScoreBox(g.table.view().state.placements()[0].category))
            for _ in range(100):
                await pilot.pause(0.02)
                if g.table.view().computer_turn:
                    break
            g.refresh_all()
            await pilot.pause()
            button = g.query_one("#roll")
            assert button.disabled and str(button.label) == "Computer plays"
            words = [(t, s) for t, s in cells(app, button.region) if t.strip()]
            assert words
            for _text, style in words:
                assert style.color is not None and style.bgcolor is not None
                assert min(contrasts(style.color, style.bgcolor)) >= 4.5, style
            card = g.query_one("#card")
            assert card.max_scroll_y > 0  # it scrolls: its scrollbar shows
            thumb = card.styles.scrollbar_color.rich_color
            for other in (card.styles.scrollbar_background, card.styles.background):
                assert min(contrasts(thumb, other.rich_color)) >= 3, other
            bar = card.vertical_scrollbar.region
            drawn = {s.color.name if s.reverse and s.color else s.bgcolor.name
                     for _t, s in cells(app, bar) if s.bgcolor is not None}
            assert thumb.name in drawn  # (the thumb as drawn, in its colour)
    finally:
        gate.set()
