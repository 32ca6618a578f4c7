"""The wait while the advisor's tables are built: what it is for, in words on a line of
their own, and how far, with a time left that does not jump about."""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

import pytest
from tui_helpers import game, run, settle

from yacht.session import Launch, PlayerSpec
from yacht.tui import YachtApp
from yacht.tui.screens.game import WaitEstimate

App = Callable[..., YachtApp]
WORDS = "The advisor is getting ready (the Tommy's Crag tables)…"


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


@run
async def test_the_advisors_wait_says_what_it_is_for_and_a_steady_time_left(
        new_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 60x20 the bar of the advisor's first hint left its words a third of the line
    ('The advisor is getting' and no more) beside '9% --:--:--', then a time left
    ('00:00:11', '00:00:02', '00:00:01', '00:00:02') that went up and down with the pace
    of the last steps. The words have the line above the bar; beside it how far in
    percent, and after a couple of seconds the time left in round numbers, from the
    average pace since the start: a slower step does not put it up again."""
    import yacht.session.table as table_module
    import yacht.strategy

    steps: queue.Queue[int] = queue.Queue()
    built = [False]

    def prepare(level: str, rs: Any, progress: Any = None) -> None:  # (no table built)
        while (done := steps.get(timeout=30)) < 1000:
            progress(done, 1000)
        built[0] = True

    monkeypatch.setattr(table_module, "_ready", lambda level, rs: built[0])
    monkeypatch.setattr(yacht.strategy, "prepare", prepare)
    now = [0.0]
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    try:
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            g = game(pilot)
            g.wait_estimate = WaitEstimate(lambda: now[0])
            await pilot.press("r")
            await settle(pilot)
            await pilot.press("h", "1")  # a hint (the game is marked assisted)
            busy = g.query_one("#busy")

            async def shows(far: str) -> list[str]:
                for _ in range(500):
                    await pilot.pause(0.01)
                    lines = screen_text(app)
                    if busy.display and any(far in line for line in lines):
                        return lines
                raise AssertionError(f"no {far!r} in {screen_text(app)}")

            steps.put(100)  # 10% at once: too soon to tell the time left
            lines = await shows("10%")
            assert any(line.strip() == WORDS for line in lines), lines
            bar = next(line for line in lines if "10%" in line)
            assert bar.rstrip().endswith("10%") and ":" not in bar, bar
            now[0] = 10.0
            steps.put(250)  # 25% in 10 s: 30 s left
            bar = next(line for line in await shows("25%") if "25%" in line)
            assert bar.rstrip().endswith("25% - about 30 s left"), bar
            now[0] = 14.0
            steps.put(300)  # a slower step (33 s left at the pace so far): still 30
            bar = next(line for line in await shows("30%") if "30%" in line)
            assert bar.rstrip().endswith("30% - about 30 s left"), bar
            now[0] = 16.0
            steps.put(450)  # faster again: less
            bar = next(line for line in await shows("45%") if "45%" in line)
            assert bar.rstrip().endswith("45% - about 20 s left"), bar
            steps.put(1000)  # built: the hint
            for _ in range(500):
                await pilot.pause(0.01)
                if not busy.display:
                    break
            await settle(pilot)
            assert not busy.display and g.query_one("#helpbar").display
    finally:
        steps.put(1000)
