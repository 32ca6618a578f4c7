"""The terminal shows a game's turn clock (an online table's game, resumed here): whose
time and how much is left in the title, and the boxes the clock played on the card."""

from __future__ import annotations

import re
import time
from typing import Any

from tui_helpers import game, run, settle

from yacht.engine import Player
from yacht.session import Launch, open_table
from yacht.tui.widgets.card import ScoreCard


def clocked_game(store: Any, started: float) -> str:
    """A saved game of Ann and Bob with a 30-second clock whose turn began at ``started``."""
    t = open_table(store, source="web", variant="yatzy", options={},
                   players=[Player("Ann"), Player("Bob")],
                   meta={"clock": {"kind": "turn", "per_turn": 30, "bank": 0}})
    gid = t.save()
    assert gid is not None
    store.set_clock(gid, {"key": [0, 0], "started": started, "banks": [0, 0], "out": None})
    return gid


@run
async def test_the_title_counts_the_turn_clock_down(new_app: Any, store: Any) -> None:
    gid = clocked_game(store, time.time() - 10)
    app = new_app(Launch(resume=gid))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        title = str(game(pilot).query_one("#title").render())
        left = re.search(r"⏱ Ann 0:(\d\d)", title)
        assert left is not None and 0 < int(left.group(1)) <= 20, title  # (10 s were gone)
        assert game(pilot).snap["clock"]["player"] == 0


@run
async def test_a_turn_whose_time_ran_out_is_played_and_marked(new_app: Any,
                                                              store: Any) -> None:
    gid = clocked_game(store, time.time() - 60)  # her time ran out while no one looked
    app = new_app(Launch(resume=gid))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await pilot.pause(0.02)
            if game(pilot).table.view().state.current == 1:
                break
        await settle(pilot)
        screen = game(pilot)
        assert screen.snap["cards"][0]["played_by"][0]["by"] == "clock"
        assert "⏱ Bob" in str(screen.query_one("#title").render())
        card = screen.query_one("#card", ScoreCard)
        box = screen.snap["cards"][0]["played_by"][0]["category"]
        row = card.get_row(box)
        assert any(str(cell).endswith("*") for cell in row[2:])  # Ann's box: played by it
        assert "time is up" in str(screen.query_one("#log").render())
