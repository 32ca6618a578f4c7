"""Whose scores go to the list apart is a player's own mark, not the table's: at an online
table where one person asked the advisor, the others' end screens must not call their
games assisted. The snapshot names the marked players (``assisted_players``), and a
game taken up from the store keeps them (the store's mask per player)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yacht.engine import Player, Roll
from yacht.rules import get
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL, Table
from yacht.store import Store, open_store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(str(tmp_path / "games.sqlite3"))
    yield s
    s.close()


def test_the_snapshot_and_a_resumed_game_name_the_players_marked(
        store: Store, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann"), Player("Bob"), Player("Cy")],
                  store=store, rng=random.Random(4), strategy_factory=factory,
                  speed="instant", pauses=False)
    t.act(LOCAL, Roll())
    assert t.snapshot()["assisted_players"] == [] and not t.snapshot()["assisted"]
    first = t.hint(LOCAL)  # Ann asks
    # the line says whose score, the table having other persons; only her first hint
    assert getattr(first, "marked_line", None) == "Ann's score is now marked assisted."
    assert getattr(t.hint(LOCAL), "marked_line", "?") is None
    snap = t.snapshot()
    assert snap["assisted_players"] == [0] and snap["assisted"]
    gid = t.view().game_id
    assert gid is not None
    info = store.game_info(gid)
    assert info.assisted_players == (0,) and info.to_json()["assisted_players"] == [0]
    again = Table.resume(store, gid, strategy_factory=factory)
    assert again.snapshot()["assisted_players"] == [0]
    # Bob asks after the game is taken up: both marked, Cy still not
    again.act(LOCAL, ScoreBox(again.view().state.placements()[0].category))
    again.act(LOCAL, Roll())
    bobs = again.hint(LOCAL)  # (his first: the game was marked, his score was not)
    assert getattr(bobs, "marked_line", None) == "Bob's score is now marked assisted."
    assert again.snapshot()["assisted_players"] == [0, 1]
    assert store.game_info(gid).assisted_players == (0, 1)
