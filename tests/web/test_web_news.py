"""News between server processes, in one process: two hubs on one store, joined by an
in-memory bus in place of Redis. What a busy site found: news heard while a table was
loading was lost, the listener waited for the store on every piece of news, a failed
publish was never sent again. Here each of those is made to happen on purpose."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from yacht.engine import action_to_json
from yacht.session.table import Table
from yacht.store import Store, open_store
from yacht.web.hub import Hub
from yacht.web.live import LiveTable
from yacht.web.news import News
from yacht.web.protocol import CLIENT, TableRequest


class Bus:
    """Redis pub/sub in miniature: what one member publishes every other hears, in order."""

    def __init__(self) -> None:
        self.members: list[BusNews] = []
        self.dead: set[str] = set()  # members killed (their keys expired)


class BusNews(News):
    shared = True

    def __init__(self, bus: Bus, name: str) -> None:
        self.bus = bus
        self.me = name
        self.ok = True
        self.failures = 0  # publishes that fail from now on
        self.sent: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.listener: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None
        self.task: asyncio.Task[None] | None = None
        bus.members.append(self)

    async def start(self, listener: Callable[[str, dict[str, Any]], Awaitable[None]]) -> None:
        self.listener = listener
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            table_id, body = await self.inbox.get()
            assert self.listener is not None
            await self.listener(table_id, body)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def publish(self, table_id: str, message: dict[str, Any]) -> bool:
        if self.failures:
            self.failures -= 1
            return False
        self.sent.append(message)
        for other in self.bus.members:
            if other is not self:  # (as Redis carries it: a copy, through JSON)
                other.inbox.put_nowait((table_id, orjson.loads(orjson.dumps(
                    {**message, "from": self.me}))))
        return True

    async def lease(self, table_id: str) -> bool:
        return self.me == "a"

    async def alive(self, processes: set[str]) -> set[str]:
        return {m.me for m in self.bus.members if m.me not in self.bus.dead} & processes


class CountingStore:
    """Counts the reads of a game's actions (what taking up news should not need)."""

    def __init__(self, store: Store) -> None:
        self.reads = 0
        self.store = store
        real = store.progress

        def progress(game_id: str) -> tuple[int, bool]:
            self.reads += 1
            return real(game_id)

        store.progress = progress  # type: ignore[method-assign]


async def settle(*hubs: Hub, seconds: float = 30.0) -> None:
    """Until every bus message is taken up and every hub is idle (a busy machine may
    take a while: bounded in time, not in rounds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        await asyncio.sleep(0.01)
        busy = any(not h.news.inbox.empty() for h in hubs if isinstance(h.news, BusNews)) \
            or any(h.cluster.busy() for h in hubs)
        if not busy:
            await asyncio.sleep(0.02)
            return
    raise AssertionError("the hubs did not settle")


async def two_hubs(tmp_path: Path) -> tuple[Hub, Hub, Bus]:
    path = tmp_path / "site.sqlite3"
    bus = Bus()
    a = Hub(open_store(str(path)), news=BusNews(bus, "a"), workers=4)
    b = Hub(open_store(str(path)), news=BusNews(bus, "b"), workers=4)
    await a.launch()
    await b.launch()
    return a, b, bus


async def close(*hubs: Hub) -> None:
    for h in hubs:
        await h.close()
        h.store.close()


def with_two_hubs(tmp_path: Path, body: Callable[[Hub, Hub], Awaitable[None]]) -> None:
    """Run ``body(a, b)`` on two hubs of one site, closed afterwards whatever happens."""

    async def go() -> None:
        a, b, _bus = await two_hubs(tmp_path)
        try:
            await body(a, b)
        finally:
            await close(a, b)

    asyncio.run(go())


async def until(ready: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait until ``ready()`` (a busy machine may take a while: bounded in time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not ready() and loop.time() < deadline:
        await asyncio.sleep(0.05)


async def friends_table(a: Hub, b: Hub) -> tuple[LiveTable, LiveTable, str, str]:
    """Ann's table made on hub A, Bob joining through hub B: the game starts on B."""
    spec = TableRequest.model_validate({"variant": "yatzy", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "here": False}]})
    live_a, ann = await a.create(spec)
    live_b = await b.get(live_a.id)
    bob = await b.join(live_b, b.connect(live_b, None), 1, "Bob", None)
    await settle(a, b)
    assert live_a.table is not None and live_b.table is not None
    return live_a, live_b, ann, bob


def log_of(live: LiveTable) -> list[Any]:
    assert live.table is not None
    return live.table.actions_since(0)


async def act(hub: Hub, live: LiveTable, token: str, command: dict[str, Any]) -> None:
    conn = hub.connect(live, token)
    msg = CLIENT.validate_python({"type": "command", "command": command, "version": 0})
    try:
        await hub.command(live, conn, msg.command, None)  # type: ignore[union-attr]
    finally:
        hub.disconnect(live, conn)


async def play_some(hub: Hub, live: LiveTable, tokens: list[str], turns: int) -> None:
    """Roll and score the first box offered, ``turns`` times, whoever is on turn."""
    for _ in range(turns):
        assert live.table is not None
        who = tokens[live.table.view().state.current]
        await act(hub, live, who, {"type": "roll"})
        box = live.table.view().state.placements()[0]
        await act(hub, live, who, {"type": "score", "category": box.category,
                                   "column": box.column})


def test_actions_travel_with_the_news(tmp_path: Path) -> None:
    """The other process plays what the news carries, without reading the store."""

    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        counting = CountingStore(b.store)
        await play_some(a, live_a, [ann, bob], 4)
        await settle(a, b)
        await play_some(b, live_b, [ann, bob], 4)
        await settle(a, b)
        assert log_of(live_a) == log_of(live_b) and len(log_of(live_a)) == 16
        assert counting.reads == 0
        sent = [m for m in a.news.sent if m["kind"] != "here"]  # type: ignore[attr-defined]
        assert sent and all("actions" in m for m in sent[1:])

    with_two_hubs(tmp_path, body)


def test_news_out_of_order_or_with_a_gap_reads_the_store(tmp_path: Path) -> None:
    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        # A plays two turns while B hears nothing (the news is lost on the way) ...
        b.live.pop(live_b.id)
        await play_some(a, live_a, [ann, bob], 2)
        await settle(a, b)
        b.live[live_b.id] = live_b
        assert len(log_of(live_b)) == 0
        # ... then news of one more action, starting past what B has: B reads the store
        await act(a, live_a, ann, {"type": "roll"})
        await settle(a, b)
        assert log_of(live_b) == log_of(live_a) and len(log_of(live_a)) == 5
        # the same news again (heard twice) changes nothing
        b.news.inbox.put_nowait((live_b.id, {  # type: ignore[attr-defined]
            "kind": "changed", "start": 0,
            "actions": [{"type": "roll", "result": [1, 1, 1, 1, 1]}]}))
        await settle(a, b)
        assert log_of(live_b) == log_of(live_a)

    with_two_hubs(tmp_path, body)


def test_news_heard_while_a_table_loads_is_taken_up_after(tmp_path: Path) -> None:
    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        async with live_b.loading:  # B is (re)loading the table meanwhile
            await play_some(a, live_a, [ann, bob], 3)
            # lobby news in the same batch: the row is read, and the game's news is
            # still taken up
            b.news.inbox.put_nowait((live_b.id, {"kind": "lobby"}))  # type: ignore[attr-defined]
            await until(lambda: live_b.heard.catching_up  # B heard it, and waits for the load
                        and b.news.inbox.empty())  # type: ignore[attr-defined]
            assert live_b.heard.catching_up and len(log_of(live_b)) == 0
        await settle(a, b)
        assert log_of(live_b) == log_of(live_a) and len(log_of(live_a)) == 6

    with_two_hubs(tmp_path, body)


def test_a_failed_publish_is_sent_again(tmp_path: Path) -> None:
    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        a.news.failures = 2  # type: ignore[attr-defined]
        await act(a, live_a, ann, {"type": "roll"})
        await until(lambda: len(log_of(live_b)) == 1)  # sent again a second later
        assert log_of(live_b) == log_of(live_a) and len(log_of(live_a)) == 1

    with_two_hubs(tmp_path, body)


def test_without_news_the_store_is_polled_in_one_read(tmp_path: Path) -> None:
    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        watcher = b.connect(live_b, None)  # someone looks at the table on B
        b.live.pop(live_b.id)  # B hears nothing ...
        await play_some(a, live_a, [ann, bob], 2)
        await settle(a, b)
        b.live[live_b.id] = live_b
        reads: list[list[str]] = []
        real = b.store.progress_many

        def progress_many(ids: Any) -> dict[str, int]:
            reads.append(list(ids))
            return real(ids)

        b.store.progress_many = progress_many  # type: ignore[method-assign, assignment]
        await b.cluster.poll()  # ... and, the news being down, polls the store
        await settle(a, b)
        assert reads == [[live_b.row.game_id]]
        assert log_of(live_b) == log_of(live_a) and len(log_of(live_a)) == 4
        await b.cluster.poll()  # nothing new: nothing read but the one count
        await settle(a, b)
        assert len(reads) == 2
        b.disconnect(live_b, watcher)

    with_two_hubs(tmp_path, body)


@pytest.mark.parametrize("kind", ["lobby", "changed"])
def test_news_of_an_unknown_table_or_garbage_is_ignored(tmp_path: Path, kind: str) -> None:
    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        for body in ({"kind": kind, "start": "x", "actions": "y"},
                     {"kind": kind, "start": 0, "actions": [{"type": "nope"}]},
                     {"kind": kind, "start": -1, "actions": [{"type": "roll"}]}):
            b.news.inbox.put_nowait(("nosuchtable", body))  # type: ignore[attr-defined]
            b.news.inbox.put_nowait((live_b.id, body))  # type: ignore[attr-defined]
        await settle(a, b)
        await act(a, live_a, ann, {"type": "roll"})
        await settle(a, b)
        assert log_of(live_b) == log_of(live_a) and len(log_of(live_a)) == 1

    with_two_hubs(tmp_path, body)



def differences(x: Any, y: Any, at: str = "") -> list[str]:
    """Where two JSON values differ (the first few paths)."""
    if isinstance(x, dict) and isinstance(y, dict):
        return [d for k in sorted(set(x) | set(y), key=str)
                for d in differences(x.get(k), y.get(k), f"{at}.{k}")][:8]
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return [d for i, (p, q) in enumerate(zip(x, y, strict=True))
                for d in differences(p, q, f"{at}[{i}]")][:8]
    return [] if x == y else [f"{at}: {x!r} != {y!r}"[:300]]


def snapshots_of(hub: Hub, live: LiveTable, tokens: list[str]) -> list[Any]:
    """The snapshot each seat's browser and a watcher at ``live`` get from ``hub`` (as
    JSON; who is connected where is each process's own)."""
    out = []
    for token in [*tokens, None]:
        conn = hub.connect(live, token)
        try:
            view: Any = hub.fanout.state(live, conn)["table"]
            out.append(orjson.loads(orjson.dumps(view["snapshot"])))
        finally:
            hub.disconnect(live, conn)
    return out


def test_a_listener_shows_what_the_mover_shows_after_1000_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann plays on process A, Bob on process B, at several tables at once: rolls, dice
    chosen and rolled again, scores, take-backs (news that cannot just be played: B or A
    reads the store). Each process shows the other's moves from the news, taking the
    position from the mover and making each seat's own part itself: after 1,000 moves
    every seat and a watcher see the same on both processes, and the position was taken
    from the news for most moves."""
    import random

    taken = [0, 0]  # positions from the news taken, ignored
    real_take = Table.take_position

    def take_position(self: Table, upto: int, pos: dict[str, Any]) -> bool:
        ok = real_take(self, upto, pos)
        taken[0 if ok else 1] += 1
        return ok

    monkeypatch.setattr(Table, "take_position", take_position)

    async def body(a: Hub, b: Hub) -> None:
        pick = random.Random(28)
        tables = [await friends_table(a, b) for _ in range(12)]
        moves = 0

        async def turn(live_a: LiveTable, live_b: LiveTable, ann: str, bob: str) -> int:
            assert live_a.table is not None
            st = live_a.table.view().state
            if st.is_terminal():
                return 0
            hub, live, who = (a, live_a, ann) if st.current == 0 else (b, live_b, bob)
            done = 0
            await act(hub, live, who, {"type": "roll"})
            done += 1
            assert live.table is not None
            while live.table.view().state.rolls_left > 0 and pick.random() < 0.5:
                dice = sorted(pick.sample(range(5), pick.randint(1, 5)))
                await act(hub, live, who, {"type": "choose", "dice": dice})
                await act(hub, live, who, {"type": "roll"})
                done += 2
            boxes = live.table.view().state.placements()
            box = pick.choice(boxes)
            await act(hub, live, who, {"type": "score", "category": box.category,
                                       "column": box.column})
            done += 1
            if pick.random() < 0.05:  # oops (a rewind: the others read the store)
                await act(hub, live, who, {"type": "take_back"})
                await act(hub, live, who, {"type": "score", "category": box.category,
                                           "column": box.column})
                done += 2
            return done

        while moves < 1000:
            played = await asyncio.gather(*(turn(*t) for t in tables))
            moves += sum(played)
            await settle(a, b)
            assert sum(played) or moves >= 1000, "every game ended before 1,000 moves"
            if pick.random() < 0.2:  # now and then, in the middle of play
                for live_a, live_b, ann, bob in tables:
                    assert not differences(snapshots_of(a, live_a, [ann, bob]),
                                           snapshots_of(b, live_b, [ann, bob]))
        await settle(a, b)
        for live_a, live_b, ann, bob in tables:
            assert log_of(live_a) == log_of(live_b)
            assert not differences(snapshots_of(a, live_a, [ann, bob]),
                                   snapshots_of(b, live_b, [ann, bob]))
        assert moves >= 1000
        assert taken[0] > 0.8 * moves and taken[1] == 0

    with_two_hubs(tmp_path, body)


def test_a_position_that_does_not_fit_is_not_taken(tmp_path: Path) -> None:
    """News whose position does not fit what its actions lead to (other dice, or not a
    position at all): the listener makes the snapshot itself."""

    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        b.live.pop(live_b.id)  # B hears nothing of A's roll ...
        await act(a, live_a, ann, {"type": "roll"})
        await settle(a, b)
        b.live[live_b.id] = live_b
        log, real = live_a.table.position()  # type: ignore[union-attr]
        upto = len(log)
        actions = [action_to_json(a) for a in log_of(live_a)]
        for wrong in ({**real, "dice": [7, 7, 7, 7, 7]}, {"cards": "nope"}, "x"):
            b.news.inbox.put_nowait((live_b.id, {  # type: ignore[attr-defined]
                "kind": "changed", "start": 0, "actions": actions, "upto": upto,
                "position": wrong}))
            await settle(a, b)
            assert log_of(live_b) == log_of(live_a)
            assert not differences(snapshots_of(a, live_a, [ann, bob]),
                                   snapshots_of(b, live_b, [ann, bob]))

    with_two_hubs(tmp_path, body)


def test_a_row_read_before_a_join_does_not_undo_it(tmp_path: Path) -> None:
    """A process reading the table's row while a friend joins through it: the read ends
    after the join and must not put the open seat back (a game then never started)."""

    async def body(a: Hub, b: Hub) -> None:
        spec = TableRequest.model_validate({"variant": "yatzy", "speed": "instant", "seats": [
            {"kind": "person", "name": "Ann"}, {"kind": "person", "here": False}]})
        live_a, _ann = await a.create(spec)
        live_b = await b.get(live_a.id)
        before = live_b.row  # what a slow read started now will bring back
        await b.join(live_b, b.connect(live_b, None), 1, "Bob", None)
        real = b.store.load_table
        b.store.load_table = lambda _id: before  # type: ignore[method-assign, assignment]
        await b.reload_row(live_b)  # the slow read ends
        b.store.load_table = real  # type: ignore[method-assign]
        assert live_b.row.seats[1].name == "Bob" and live_b.row.game_id is not None
        await settle(a, b)
        assert live_a.table is not None and live_b.table is not None

    with_two_hubs(tmp_path, body)


def test_a_browser_at_another_process_is_at_the_table(tmp_path: Path) -> None:
    """Who is at a table counts every process's browsers: Bob playing through process B
    is not absent for process A (nobody there may vote his seat to the computer), until
    his browser leaves or B stops; a process that shows the table later asks."""

    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, ann, bob = await friends_table(a, b)
        at_b = next(iter(live_b.connections))
        assert at_b.seats == frozenset({1})
        at_a = a.connect(live_a, ann)
        await settle(a, b)
        assert live_a.absent_for(1) is None and live_b.absent_for(0) is None
        seats = a.fanout.seats(live_a, at_a)
        assert [s["connected"] for s in seats] == [True, True]
        assert a.fanout.presence(live_a) == [{"seats": [0], "names": ["Ann"]},
                                             {"seats": [1], "names": ["Bob"]}]
        b.disconnect(live_b, at_b)  # Bob's browser goes
        await settle(a, b)
        assert live_a.absent_for(1) is not None and live_a.absent_for(0) is None
        again = b.connect(live_b, bob)  # ... and comes back
        await settle(a, b)
        assert live_a.absent_for(1) is None
        # a third process that shows the table now asks who is there
        bus = a.news.bus  # type: ignore[attr-defined]
        c = Hub(open_store(str(tmp_path / "site.sqlite3")), news=BusNews(bus, "c"), workers=4)
        await c.launch()
        try:
            live_c = await c.get(live_a.id)
            await settle(a, b, c)
            assert live_c.absent_for(0) is None and live_c.absent_for(1) is None
            # B is killed (no goodbye): its browsers stop counting once its key expires
            bus.dead.add("b")
            await a.cluster.forget_the_gone()
            await c.cluster.forget_the_gone()
            assert live_a.absent_for(1) is not None and live_c.absent_for(1) is not None
            assert live_c.absent_for(0) is None
        finally:
            await close(c)
        b.disconnect(live_b, again)
        a.disconnect(live_a, at_a)

    with_two_hubs(tmp_path, body)


def test_a_process_heard_of_during_the_look_up_is_not_forgotten(tmp_path: Path) -> None:
    """The walk that forgets killed processes asks Redis which of the processes it knows
    still run; one that says "here" while that question is out was not asked about, and
    stays (it is asked about next time) instead of being taken for gone."""

    async def body(a: Hub, b: Hub) -> None:
        live_a, live_b, _ann, _bob = await friends_table(a, b)
        await settle(a, b)
        assert set(live_a.elsewhere) == {"b"}
        real = a.news.alive
        asked: list[set[str]] = []

        async def alive(processes: set[str]) -> set[str]:
            asked.append(set(processes))
            live_a.elsewhere["d"] = frozenset({1})  # heard while the answer is awaited
            return await real(processes)

        a.news.alive = alive  # type: ignore[method-assign]
        await a.cluster.forget_the_gone()
        assert asked == [{"b"}]
        assert set(live_a.elsewhere) == {"b", "d"}
        a.news.bus.dead.add("b")  # type: ignore[attr-defined]
        a.news.alive = real  # type: ignore[method-assign]
        await a.cluster.forget_the_gone()  # now both are asked about: d never ran
        assert live_a.elsewhere == {}
        assert live_b.table is not None

    with_two_hubs(tmp_path, body)
