"""The table's recent moves (the browser's "At the table") come back with a resumed game:
told again from the stored actions, as they were told when they happened."""

from __future__ import annotations

import random
from typing import Any

from yacht.engine import Player, Roll, TakeBack
from yacht.rules import get
from yacht.session.commands import GoOn, ScoreBox, Toggle
from yacht.session.table import LOCAL, Table


def test_a_resumed_table_tells_its_recent_moves_again(store: Any, factory: Any) -> None:
    t = Table.new(get("yatzy"), [Player("Ann"), Player("Cpu", "computer", "random")],
                  store=store, rng=random.Random(5), strategy_factory=factory, speed="instant")
    for turn in range(4):
        t.act(LOCAL, Roll())
        t.act(LOCAL, Toggle(0), Toggle(2), Roll())
        t.act(LOCAL, ScoreBox(t.view().state.placements()[turn].category))
        if turn == 3:  # a slip taken back, then the same box scored
            t.act(LOCAL, TakeBack())
            t.act(LOCAL, ScoreBox(t.view().state.placements()[turn].category))
        t.act(LOCAL, GoOn())
        t.run_due()  # the computer's turn: what it keeps is told too
    told = t.view().news
    assert len(told) == 8 and any(" keeps " in line for line in told)
    assert "Ann: last score taken back" in told
    again = Table.resume(store, t.view().game_id or "", strategy_factory=factory)
    assert again.view().news == told
    # and a game just begun has nothing to tell
    fresh = Table.new(get("yatzy"), [Player("Bo")], store=store)
    assert fresh.view().news == ()


def test_a_served_box_is_told_as_served(store: Any, factory: Any) -> None:
    """Generala: a box scored from the turn's first roll carries the served extra; the
    card marks it (35s) and the news said only "Ann: Full for 35"."""
    t = Table.new(get("generala"), [Player("Ann"), Player("Bob")], store=store,
                  rng=random.Random(11), strategy_factory=factory, speed="instant")
    t.act(LOCAL, Roll())
    assert sorted(t.view().state.dice) == [4, 4, 4, 5, 5]
    t.act(LOCAL, ScoreBox("full"))
    if t.view().pause is not None:
        t.act(LOCAL, GoOn())
    t.act(LOCAL, Roll())
    t.act(LOCAL, Toggle(0), Roll())  # Bob rolls again: whatever he scores is not served
    t.act(LOCAL, ScoreBox(t.view().state.placements()[0].category))
    told = t.view().news
    assert "Ann: Full for 35 (served)" in told
    assert not any(line.startswith("Bob:") and "(served)" in line for line in told)
    again = Table.resume(store, t.view().game_id or "", strategy_factory=factory)
    assert again.view().news == told
