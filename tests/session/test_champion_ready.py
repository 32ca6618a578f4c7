"""The champion's first move alone builds its target table: the table says what it builds
and how far it got (real progress, not a bar that only moves), before the move."""

from __future__ import annotations

import random

import pytest

from yacht.engine import Player
from yacht.rules import get
from yacht.session.table import Event, Table
from yacht.strategy import make_player
from yacht.strategy.solver.target import is_ready

#: a target no other test builds (the cache is shared by a test run)
TARGET = 143


def test_the_champion_says_what_it_builds_and_how_far_it_got() -> None:
    rs = get("tommys-crag")
    assert not is_ready(rs, TARGET)
    table = Table.new(rs, [Player("Champ", "computer", "champion")], rng=random.Random(2),
                      speed="instant",
                      strategy_factory=lambda level, r: make_player(r, level, target=TARGET))
    events: list[Event] = []
    table.subscribe(events.append)
    table.run_due(until=lambda: table.view().state.turns_taken(0) >= 1)
    said = [e for e in events if e.kind == "computer_thinking"]
    # (first, maybe, the expert's table it plays from too; then its target table)
    getting_ready = [e for e in said if f"to reach {TARGET} points" in e.data["what"]]
    assert getting_ready, [e.data["what"] for e in said]
    what = getting_ready[0].data["what"]
    assert what.startswith("Champ is getting ready"), what
    progress = [(e.data["done"], e.data["total"]) for e in events
                if e.kind == "computer_progress" and e.data["what"] == what]
    assert len(progress) >= 10, progress  # it moves on as it builds, not layer by layer
    assert len({total for _, total in progress}) == 1
    done = [d for d, _ in progress]
    assert done == sorted(done) and done[-1] == progress[-1][1]
    # then it plays: its first move comes after the table is built
    first = next(i for i, e in enumerate(events) if e.kind == "scored")
    assert first > events.index(getting_ready[0])
    assert is_ready(rs, TARGET)
    assert table.view().thinking is None


def test_the_line_game_says_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import itertools
    import types

    from yacht.plain import PlainGame
    from yacht.plain import game as plain_game

    # the line game says a build's quarters once it has taken 2 s (a quick one says
    # nothing more): its clock here moves a second each time it is read
    ticks = itertools.count(0.0, 1.0)
    monkeypatch.setattr(plain_game, "time", types.SimpleNamespace(monotonic=lambda: next(ticks)))

    rs = get("tommys-crag")
    target = TARGET + 1
    table = Table.new(rs, [Player("Champ", "computer", "champion")], rng=random.Random(2),
                      speed="instant",
                      strategy_factory=lambda level, r: make_player(r, level, target=target))
    out = io.StringIO()
    PlainGame(table, io.StringIO(""), out).run()
    text = out.getvalue()
    said = f"Champ is getting ready: its table to reach {target} points (built once)..."
    assert said in text
    after = text[text.index(said):]
    import re

    quarters = re.findall(r"(\d+)% done, about (\d+) s left\.", after)
    assert quarters and {q for q, _ in quarters} <= {"25", "50", "75"}, after[:300]
    assert all(int(s) >= 1 for _, s in quarters)  # (never "about 0 s")
    assert "Game over." in after
