"""Two copies of one stored game drive its computer at once (two server processes, for
the moment a lease changes hands): the copy behind takes up the stored game, and its
computer never plays a random move in a position its plan was not made for."""

from __future__ import annotations

from pathlib import Path

from yacht.engine import Player
from yacht.session import open_table
from yacht.store import open_store


def test_the_copy_behind_takes_up_the_stored_game_and_plays_no_random_move(
        tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "t.sqlite3"))
    try:
        a = open_table(store, source="web", variant="yatzy", strict=True, speed="instant",
                       players=[Player("Cpu", "computer", "beginner"), Player("Ann")])
        gid = a.save()
        b = open_table(store, source="web", resume=gid, strict=True, speed="instant")
        plan_a, plan_b = a.think(a.version), b.think(b.version)
        assert plan_a is not None and plan_b is not None
        a.step(plan_a)
        events = b.step(plan_b)   # saved against a game that went on: a conflict
        assert "computer_failed" not in [e.kind for e in events]
        stored = list(store.load_record(gid).actions)
        assert stored == list(a.view().state.log)          # only A's moves were saved
        assert list(b.view().state.log) == stored          # B took up the stored game
        # and B plays on from there, with a plan made for it
        plan = b.think(b.version)
        assert plan is not None and plan.failure is None
        b.step(plan)
        assert list(store.load_record(gid).actions) == list(b.view().state.log)
        assert len(b.view().state.log) > len(stored)
    finally:
        store.close()
