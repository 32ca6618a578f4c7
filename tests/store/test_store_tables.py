"""Online tables in the store: created with their seats, changed only at the version
read (two friends racing for one seat: one wins), listed until closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from yacht.store import Store, StoreError
from yacht.store.core import SeatRow


def test_a_table_round_trips_and_changes_at_its_version(store: Store) -> None:
    seats = [SeatRow("Ann", "person", None, "h1"), SeatRow(None), SeatRow("Max", "computer",
                                                                          "expert")]
    t = store.create_table("yatzy", {}, "normal", seats)
    assert store.load_table(t.id) == t and t.version == 1 and t.game_id is None
    assert t.seats == tuple(seats) and t.closed is None
    bob = store.update_table(t.id, t.version,
                             seats=[seats[0], SeatRow("Bob", token="h2"), seats[2]])
    assert bob.version == 2 and bob.seats[1].name == "Bob"
    # a second friend read version 1 too: refused, nothing changed
    with pytest.raises(StoreError, match="changed meanwhile"):
        store.update_table(t.id, t.version, seats=[seats[0], SeatRow("Cy", token="h3"),
                                                   seats[2]])
    assert store.load_table(t.id).seats[1].name == "Bob"
    started = store.update_table(t.id, bob.version, game_id="abc123")
    assert started.game_id == "abc123" and started.seats == bob.seats
    assert [x.id for x in store.open_tables()] == [t.id]
    store.update_table(t.id, started.version, closed=True)
    assert store.open_tables() == [] and store.load_table(t.id).closed is not None


def test_a_lobby_left_alone_is_no_longer_listed(store: Store) -> None:
    """Tables waiting for players are listed while they change (a lobby left alone, or
    made by the hundred, drops off the list); a game under way is listed until closed."""
    from datetime import UTC, datetime, timedelta

    lobby = store.create_table("yatzy", {}, "normal", [SeatRow("Ann", token="h"), SeatRow(None)])
    game = store.create_table("yatzy", {}, "normal", [SeatRow("Bo", token="i"), SeatRow(None)])
    game = store.update_table(game.id, game.version, game_id="g1")
    hour_ago = datetime.now(UTC) - timedelta(hours=1)
    later = datetime.now(UTC) + timedelta(minutes=1)   # (as if an hour had gone by)
    assert {t.id for t in store.open_tables(lobby_since=hour_ago)} == {lobby.id, game.id}
    assert [t.id for t in store.open_tables(lobby_since=later)] == [game.id]
    assert {t.id for t in store.open_tables()} == {lobby.id, game.id}


def test_missing_tables_are_one_line(store: Store) -> None:
    with pytest.raises(StoreError, match="no table nope"):
        store.load_table("nope")
    with pytest.raises(StoreError, match="changed meanwhile"):
        store.update_table("nope", 1, closed=True)


def test_damaged_seats_are_reported(store: Store) -> None:
    from sqlalchemy import update

    from yacht.store.schema import web_tables

    t = store.create_table("yatzy", {}, "normal", [SeatRow("Ann", token="h")])
    with store._engine.begin() as conn:
        conn.execute(update(web_tables).where(web_tables.c.id == t.id).values(seats="[{}]"))
    with pytest.raises(StoreError, match="damaged"):
        store.load_table(t.id)


def test_group_commits_keep_each_writers_outcome(store: Store) -> None:
    """Many threads writing at once: one transaction for what waits together, and every
    writer still gets its own answer (a conflicting action fails alone)."""
    import random
    import threading

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.store import GameMovedOn

    store.group_commits()
    games = []
    for seed in range(8):
        s = State(get("yatzy"), [Player("Ann")], rng=random.Random(seed))
        games.append((store.start_game(Record.from_state(s)), s))
    errors: list[BaseException] = []

    def play(gid: str, s: State) -> None:
        try:
            for _ in range(10):
                s.apply(Roll())
                store.append_action(gid, len(s.log) - 1, s.log[-1])
                s.apply(s.legal_actions()[-1])
                store.append_action(gid, len(s.log) - 1, s.log[-1])
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def conflict() -> None:  # meanwhile, a different first action for game 0
        gid = games[0][0]
        while store.progress(gid)[0] == 0:
            pass
        try:
            store.append_action(gid, 0, Roll((9, 9, 9, 9, 9)))
        except GameMovedOn as e:
            errors.append(e)

    threads = [threading.Thread(target=play, args=g) for g in games]
    threads.append(threading.Thread(target=conflict))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(errors) == 1 and "different action 1" in str(errors[0])  # that one alone
    for gid, s in games:
        assert store.load_record(gid).actions == s.log


def test_group_commits_write_what_the_general_path_writes(store: Store) -> None:
    """The group commit writes the usual action straight on the driver: the same rows
    as the general path (read back by it, times as times), and every unusual case (a
    repeated or conflicting action, a finished game) still answered as before."""
    import random

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.store import GameMovedOn

    s = State(get("yatzy"), [Player("Ann"), Player("Bob")], rng=random.Random(3))
    plain = State(get("yatzy"), [Player("Ann"), Player("Bob")], rng=random.Random(3))
    gid = store.start_game(Record.from_state(s))
    other = store.start_game(Record.from_state(plain))
    before = store.game_info(gid).last_played
    store.group_commits()
    while not s.is_terminal():
        s.apply(Roll() if s.to_roll() and not s.dice else s.legal_actions()[-1])
        store.append_action(gid, len(s.log) - 1, s.log[-1], new=True)
    assert store._batcher is not None and store._batcher.writer.direct == len(s.log)
    assert store.load_record(gid).actions == s.log
    info = store.game_info(gid)
    assert info.actions == len(s.log) and info.last_played >= before
    # the same action again: a retry, nothing written; as a new one: refused
    store.append_action(gid, len(s.log) - 1, s.log[-1])
    with pytest.raises(GameMovedOn, match="already has an action"):
        store.append_action(gid, len(s.log) - 1, s.log[-1], new=True)
    with pytest.raises(GameMovedOn, match="different action"):
        store.append_action(gid, 0, Roll((9, 9, 9, 9, 9)))
    store.finish_game(gid, s)
    with pytest.raises(GameMovedOn, match="is finished"):
        store.append_action(gid, len(s.log), Roll((1, 1, 1, 1, 1)), new=True)
    # the same game without group commits (the general path) stores the same rows
    direct = store._batcher.writer.direct
    store._batcher.stop()
    store._batcher = None
    assert direct == len(s.log)  # the unusual ones all went the general way
    for i, action in enumerate(s.log):
        store.append_action(other, i, action, new=True)
    assert store.load_record(other).actions == store.load_record(gid).actions
    assert store.progress(other)[0] == store.progress(gid)[0] == len(s.log)


def test_group_commits_fall_back_when_the_driver_fails(store: Store) -> None:
    """An error on the direct path (here: a statement the database refuses) rolls the
    batch back and writes it the general way: nothing lost, nothing twice."""
    import random

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get

    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(5))
    gid = store.start_game(Record.from_state(s))
    store.group_commits()
    assert store._batcher is not None
    writer = store._batcher.writer
    writer.add = writer.add.replace("actions", "no_such_table", 1)
    writer.batch = writer.batch.replace("INSERT INTO actions", "INSERT INTO no_such_table")
    for _ in range(6):
        s.apply(Roll() if not s.dice else s.legal_actions()[-1])
        store.append_action(gid, len(s.log) - 1, s.log[-1], new=True)
    assert writer.direct == 0 and writer.conn is None
    assert store.load_record(gid).actions == s.log and store.progress(gid)[0] == 6


def test_a_group_commit_of_many_games_writes_each_as_the_general_path_would(
        store: Store) -> None:
    """One batch with several actions of one game, a game finished meanwhile, an action
    already there, a gap and a roll entered by hand: what can go straight goes (on
    PostgreSQL in one statement), the rest the general way, in order, each with its own
    answer."""
    import random

    from sqlalchemy import select, update

    from yacht.engine import Player, Record, Roll, State, action_to_json
    from yacht.rules import get
    from yacht.store import GameMovedOn
    from yacht.store.core import _Append, _Batcher, _dump, _now
    from yacht.store.schema import games

    states = [State(get("yatzy"), [Player("Ann")], rng=random.Random(seed))
              for seed in range(5)]
    ids = [store.start_game(Record.from_state(s)) for s in states]
    for s in states:
        for _ in range(3):
            s.apply(Roll() if not s.dice else s.legal_actions()[-1])
    store.append_action(ids[2], 0, states[2].log[0])  # game 2: its first action is in
    store._tx(lambda c: c.execute(update(games).where(games.c.id == ids[3])  # finished
                                  .values(finished=_now())))

    def item(g: int, i: int, action: object = None) -> _Append:
        a = states[g].log[i] if action is None else action
        return _Append(ids[g], i, a, _dump(action_to_json(a)))  # type: ignore[arg-type]

    batch = [item(0, 0), item(1, 0), item(0, 1), item(2, 0), item(3, 0), item(0, 2),
             item(1, 2), item(4, 0, Roll((1, 2, 3, 4, 5), entered=True)), item(2, 1)]
    batcher = _Batcher(store, 256)
    try:
        slow = batcher.writer.write(batch)
        store._append_many(slow)
    finally:
        batcher.stop()
    by_game = {(ids.index(x.game_id), x.index): x for x in batch}
    assert [ids.index(x.game_id) for x in slow] == [2, 3, 1, 4, 2]
    assert store.load_record(ids[0]).actions == states[0].log[:3]
    assert store.load_record(ids[1]).actions == states[1].log[:1]  # (a gap at 1)
    assert isinstance(by_game[1, 2].error, GameMovedOn)
    assert store.load_record(ids[2]).actions == states[2].log[:2]
    assert isinstance(by_game[3, 0].error, GameMovedOn)
    assert store.progress(ids[4])[0] == 1
    assert store._read(lambda c: c.execute(select(games.c.dice_entered)
                                           .where(games.c.id == ids[4])).scalar())
    assert all(x.error is None for k, x in by_game.items() if k not in ((1, 2), (3, 0)))


def test_group_commits_leave_checkpoints_to_their_own_thread(tmp_path: Path) -> None:
    """SQLite: the writer's commits never copy the log into the database file (that
    held up every table for up to 0.2 s); a thread of the store's does it, passively."""
    import random
    import sqlite3
    import time

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.store import open_store

    path = tmp_path / "cp.sqlite3"
    store = open_store(str(path))
    try:
        store.group_commits()
        batcher = store._batcher
        assert batcher is not None and batcher.checkpoints is not None
        s = State(get("yatzy"), [Player("Ann")], rng=random.Random(9))
        gid = store.start_game(Record.from_state(s))
        for _ in range(20):
            s.apply(Roll() if not s.dice else s.legal_actions()[-1])
            store.append_action(gid, len(s.log) - 1, s.log[-1], new=True)
        cur = batcher.writer.conn.cursor()
        assert cur.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        cur.close()
        runs = batcher.checkpoints.runs
        batcher.checkpoints.restart_after = 0  # (the rare case: a log that never restarts)
        deadline = time.monotonic() + 20
        while batcher.checkpoints.runs < runs + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert batcher.checkpoints.runs >= runs + 2 and batcher.checkpoints.restarts >= 1
        s.apply(Roll() if not s.dice else s.legal_actions()[-1])  # one more after that
        store.append_action(gid, len(s.log) - 1, s.log[-1], new=True)
        runs = batcher.checkpoints.runs
        while batcher.checkpoints.runs < runs + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        # everything written is in the database file itself: a copy of it without
        # its log has every action
        import shutil

        shutil.copy(path, tmp_path / "file-only.sqlite3")
        other = sqlite3.connect(tmp_path / "file-only.sqlite3")
        n = other.execute("SELECT count(*) FROM actions WHERE game_id = ?", (gid,)).fetchone()
        other.close()
        assert n[0] == len(s.log) > 0
        assert store.load_record(gid).actions == s.log
    finally:
        store.close()
    assert not batcher.checkpoints.thread.is_alive()


@pytest.mark.parametrize("flush", ["each", "interval"])
def test_group_commits_flush_as_asked(store: Store, flush: str) -> None:
    """The writer's connection flushes each transaction, or leaves it to the interval
    (SQLite synchronous NORMAL, PostgreSQL synchronous_commit off); the moves are in
    the database either way."""
    import random

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get

    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(2))
    gid = store.start_game(Record.from_state(s))
    store.group_commits(flush=flush)
    for _ in range(4):
        s.apply(Roll() if not s.dice else s.legal_actions()[-1])
        store.append_action(gid, len(s.log) - 1, s.log[-1], new=True)
    assert store.load_record(gid).actions == s.log
    assert store._batcher is not None
    cur = store._batcher.writer.conn.cursor()
    if store._engine.dialect.name == "sqlite":
        cur.execute("PRAGMA synchronous")
        assert cur.fetchone()[0] == (2 if flush == "each" else 1)  # FULL / NORMAL
    else:
        cur.execute("SHOW synchronous_commit")
        assert cur.fetchone()[0] == ("on" if flush == "each" else "off")
    cur.close()
    store._batcher.writer.conn.rollback()


def test_group_commits_refuse_an_unknown_flush(store: Store) -> None:
    with pytest.raises(StoreError, match="flush 'sometimes': one of each, interval"):
        store.group_commits(flush="sometimes")


def test_a_failing_general_path_fails_only_its_own_actions(store: Store,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """One batch: an action the direct path saves, and one it leaves to the general
    path, which breaks. The saved one is answered as saved; only the other fails."""
    import random

    from yacht.engine import Player, Record, Roll, State, action_to_json
    from yacht.rules import get
    from yacht.store.core import _Append, _dump

    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(4))
    saved, other = (store.start_game(Record.from_state(s)) for _ in range(2))
    store.group_commits()
    batcher = store._batcher
    assert batcher is not None

    def broken(items: object) -> None:
        raise RuntimeError("the general path broke")

    monkeypatch.setattr(store, "_append_many", broken)
    roll = Roll((1, 2, 3, 4, 5))
    raw = _dump(action_to_json(roll))
    ok, odd = _Append(saved, 0, roll, raw, True), _Append(other, 7, roll, raw, True)
    with batcher.cond:  # both in one batch
        batcher.waiting += [ok, odd]
        batcher.cond.notify()
    assert ok.done.wait(10) and odd.done.wait(10)
    assert ok.error is None and store.load_record(saved).actions == [roll]
    assert odd.error is not None and "the general path broke" in str(odd.error)
    assert store.progress(other)[0] == 0


def test_moves_saved_from_an_event_loop_keep_their_order_and_answers(store: Store) -> None:
    """``append_action_nowait`` called on an event loop: on PostgreSQL the group commit is
    sent on that loop (no writer thread), on SQLite by the writer thread; either way the
    answers come to the loop, the rows are those of the general path, a game's actions
    stay in order, and every unusual case (an action already there, a different one, a
    finished game, a statement the database refuses) gets the general path's answer."""
    import asyncio
    import random
    import threading

    from sqlalchemy import update

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.store import GameMovedOn
    from yacht.store.core import _now
    from yacht.store.schema import games

    store.group_commits()
    assert store._batcher is not None
    batcher = store._batcher
    states = [State(get("yatzy"), [Player("Ann")], rng=random.Random(seed)) for seed in range(4)]
    ids = [store.start_game(Record.from_state(s)) for s in states]
    threads: set[int] = set()

    async def save(gid: str, index: int, action: object, new: bool = True) -> StoreError | None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[StoreError | None] = loop.create_future()

        def settle(error: StoreError | None) -> None:
            threads.add(threading.get_ident())
            loop.call_soon_threadsafe(done.set_result, error)

        assert store.append_action_nowait(gid, index, action, new, settle)  # type: ignore[arg-type]
        return await done

    async def play(gid: str, s: State) -> None:
        for _ in range(8):  # each move waits for the one before, as a table does
            s.apply(Roll() if not s.dice else s.legal_actions()[-1])
            assert await save(gid, len(s.log) - 1, s.log[-1]) is None

    written: list[int] = []

    async def main() -> list[StoreError | None]:
        await asyncio.gather(*(play(g, s) for g, s in zip(ids, states, strict=True)))
        s0, g0 = states[0], ids[0]
        answers = [
            await save(g0, len(s0.log) - 1, s0.log[-1], new=False),  # a retry: fine
            await save(g0, len(s0.log) - 1, s0.log[-1]),  # as a new one: refused
            await save(g0, 0, Roll((9, 9, 9, 9, 9)), new=False),  # a different one
        ]
        if batcher.on_loop:  # the database refuses the statement: the general way
            batcher.writer.batch = batcher.writer.batch.replace(
                "INSERT INTO actions", "INSERT INTO no_such_table")
            s1 = states[1]
            s1.apply(Roll() if not s1.dice else s1.legal_actions()[-1])
            assert await save(ids[1], len(s1.log) - 1, s1.log[-1]) is None
        store._tx(lambda c: c.execute(update(games).where(games.c.id == ids[2])  # finished
                                      .values(finished=_now())))
        answers.append(await save(ids[2], len(states[2].log), Roll((1, 1, 1, 1, 1))))
        written.extend(w.written for w in batcher.loops.values())
        await store.aclose_loop()
        return answers

    answers = asyncio.run(main())
    assert answers[0] is None
    assert isinstance(answers[1], GameMovedOn) and "already has an action" in str(answers[1])
    assert isinstance(answers[2], GameMovedOn) and "different action" in str(answers[2])
    assert isinstance(answers[3], GameMovedOn) and "is finished" in str(answers[3])
    for gid, s in zip(ids, states, strict=True):
        assert store.load_record(gid).actions == s.log
        assert store.progress(gid)[0] == len(s.log)
    if store.dialect == "postgresql":
        assert batcher.on_loop and threads == {threading.get_ident()}
        assert batcher.writer.direct == 0  # nothing by the thread's direct path
        assert written == [32]  # all the usual moves by the loop's one statement
        assert not batcher.loops  # closed by aclose_loop
    else:
        assert not batcher.on_loop and threading.get_ident() not in threads
        assert batcher.writer.direct == 32
