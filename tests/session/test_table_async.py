"""A strict table's commands on an event loop (``Table.act_async``): played on the loop,
each move counting once the store's group commit has it, without a thread waiting per
move; a save that fails changes nothing; a race has one winner; a caller that goes away
does not stop a move half way."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from yacht.engine import Player, Roll
from yacht.rules import get
from yacht.session.commands import ScoreBox, Toggle
from yacht.session.table import LOCAL, Refused, Table
from yacht.store import Store, open_store


@pytest.fixture
def db(tmp_path: Path) -> Any:
    with open_store(str(tmp_path / "loop.sqlite3")) as store:
        store.group_commits()
        yield store


class Offload:
    """The blocking work handed to threads (counted)."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, fn: Callable[[], Any]) -> Any:
        self.calls += 1
        return await asyncio.to_thread(fn)


def strict_table(db: Store, players: list[Player], seed: int = 1) -> Table:
    return Table.new(get("yatzy"), players, store=db, rng=random.Random(seed), strict=True,
                     speed="instant", pauses=False)


def test_a_whole_game_on_a_loop_is_saved_move_by_move(db: Store) -> None:
    t = strict_table(db, [Player("Ann"), Player("Bob")])
    offload = Offload()

    async def play() -> int:
        moves = 0
        while not t._game.state.is_terminal():
            st = t._game.state
            if not st.dice:
                await t.act_async(LOCAL, Roll(), version=t.version, offload=offload)
            elif st.rolls_left and moves % 3:
                await t.act_async(LOCAL, Toggle(0), Roll(), version=t.version,
                                  offload=offload)
            else:
                box = next(a for a in st.legal_actions() if type(a).__name__ == "Score")
                await t.act_async(LOCAL, ScoreBox(box.category), version=t.version,
                                  offload=offload)
            moves += 1
            gid = t.view().game_id
            assert gid is not None
            # each move counts once it is stored: the store has the table's log
            assert db.load_record(gid).actions == t._game.state.log
        return moves

    moves = asyncio.run(play())
    gid = t.view().game_id
    assert gid is not None
    assert db.progress(gid) == (len(t._game.state.log), True)  # finished in the store
    # threads only for the game's start and its end (results, past games): no move waits
    # for its commit on a thread
    assert moves > 50 and offload.calls <= 3


def test_a_save_that_fails_changes_nothing(db: Store, monkeypatch: Any) -> None:
    t = strict_table(db, [Player("Ann")])
    offload = Offload()

    async def go() -> None:
        await t.act_async(LOCAL, Roll(), offload=offload)  # (the game is in the store now)
        before, version = list(t._game.state.log), t.version
        assert db._batcher is not None

        def broken(batch: Any) -> Any:
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(db._batcher.writer, "write", broken)
        with pytest.raises(Refused) as refused:
            await t.act_async(LOCAL, ScoreBox("chance"), offload=offload)
        assert refused.value.code == "store" and "disk on fire" in str(refused.value)
        assert t._game.state.log == before and t.version == version

    asyncio.run(go())


def test_a_race_on_a_loop_has_one_winner(db: Store) -> None:
    a = Table.new(get("tommys-crag"), [Player("Ann")], store=db, rng=random.Random(1),
                  strict=True, speed="instant", real_dice=True)
    a.act(LOCAL, Roll((2, 2, 3)))
    gid = a.view().game_id
    assert gid is not None
    b = Table.resume(db, gid, strict=True, speed="instant")
    offload = Offload()

    async def race() -> list[Any]:
        return await asyncio.gather(
            a.act_async(LOCAL, ScoreBox("twos"), offload=offload),
            b.act_async(LOCAL, ScoreBox("threes"), offload=offload),
            return_exceptions=True)

    got = asyncio.run(race())
    lost = [r for r in got if isinstance(r, Refused)]
    assert len(lost) == 1 and lost[0].code == "stale"
    # the loser took up the stored game: both copies and the store agree
    assert a._game.state.log == b._game.state.log == db.load_record(gid).actions
    assert a._game.state.totals(0).grand in (4, 3)


def test_commands_of_one_table_take_turns(db: Store) -> None:
    """Two commands sent at once against the same version: the second is checked once
    the first is played (refused by the version, not by a lost race in the store)."""
    t = strict_table(db, [Player("Ann")])
    offload = Offload()

    async def both() -> list[Any]:
        await t.act_async(LOCAL, Roll(), offload=offload)
        v = t.version
        return await asyncio.gather(
            t.act_async(LOCAL, ScoreBox("chance"), version=v, offload=offload),
            t.act_async(LOCAL, Toggle(0), version=v, offload=offload),
            return_exceptions=True)

    first, second = asyncio.run(both())
    assert isinstance(first, list) and "scored" in [e.kind for e in first]
    assert isinstance(second, Refused) and "has moved on (version" in str(second)
    gid = t.view().game_id
    assert gid is not None and db.load_record(gid).actions == t._game.state.log


def test_a_caller_gone_mid_save_does_not_stop_the_move(db: Store) -> None:
    t = strict_table(db, [Player("Ann")])
    offload = Offload()

    async def go() -> None:
        await t.act_async(LOCAL, Roll(), offload=offload)
        n = len(t._game.state.log)
        task = asyncio.ensure_future(t.act_async(LOCAL, ScoreBox("chance"),
                                                 offload=offload))
        await asyncio.sleep(0)  # (it is waiting for its commit now)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(200):  # the move goes on without its caller
            if len(t._game.state.log) == n + 1:
                break
            await asyncio.sleep(0.01)
        assert len(t._game.state.log) == n + 1

    asyncio.run(go())
    gid = t.view().game_id
    assert gid is not None and db.load_record(gid).actions == t._game.state.log
