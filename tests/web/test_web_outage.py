"""The database away for a while under a running server: the tables that play by
themselves (computers, a clock, a stand-in) wait and go on once it is back.

(The same seen by hand with three `yacht web` processes on PostgreSQL stopped for 10 s:
a table of two computers stopped for good at the move the outage met, its driver's
task dead with a traceback; notes/s20/qa-cluster.md.)
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yacht.engine import Record
from yacht.store import Store, StoreError

from .browser import Browser
from .conftest import ThreadServer, new_table, random_players


def test_computers_play_on_once_the_database_is_back(
        client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    down = threading.Event()
    refused: list[int] = []
    append = store.append_action

    def append_or_fail(game_id: str, index: int, *args: Any, **kw: Any) -> None:
        if down.is_set():
            refused.append(index)
            raise StoreError("cannot connect to the database: connection refused")
        append(game_id, index, *args, **kw)

    monkeypatch.setattr(store, "append_action", append_or_fail)
    told: list[str] = []  # (what the other processes would hear: none here)
    monkeypatch.setattr(client.app.state.hub.cluster, "tell_warning",  # type: ignore[attr-defined]
                        lambda live, text: told.append(text))
    t = new_table(client, "tommys-crag", speed="slow",
                  seats=[{"kind": "beginner", "name": "Cpu1"},
                         {"kind": "beginner", "name": "Cpu2"}])
    watcher = Browser(client, t["id"])
    host = Browser(client, t["id"], t["token"])  # (made the table: sets its pace)
    # the database goes once the watcher is there (it hears of the outage as it comes:
    # set before, a loaded machine's first move failed before the watcher was told)
    down.set()
    assert host.ask("speed", speed="fast")["type"] == "ack"
    deadline = time.monotonic() + 10
    while not refused and time.monotonic() < deadline:
        time.sleep(0.05)
    assert refused, "no computer's move met the outage"
    time.sleep(1.5)  # away for a while: the driver tries again meanwhile
    down.clear()
    assert host.ask("speed", speed="instant")["type"] == "ack"
    game_id = client.get(f"/api/tables/{t['id']}").json()["snapshot"]["game_id"]
    deadline = time.monotonic() + 30
    while not client.get(f"/api/tables/{t['id']}").json()["snapshot"]["over"] \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.get(f"/api/tables/{t['id']}").json()["snapshot"]["over"], \
        "the computers stopped for good"
    record = store.load_record(game_id)
    state = Record(record.variant, record.options, record.players,
                   record.actions).final_state()
    assert state.is_terminal()  # every move once, in order: the record replays to the end
    # the watcher was told why the game stood still, and saw it to the end
    watcher.wait(lambda t: t["phase"] == "game" and t["snapshot"]["over"])
    warnings = [e for e in watcher.events if e["kind"] == "store_warning"]
    assert len(warnings) == 1 and "could not be saved" in warnings[0]["text"]
    assert "the game goes on when the database is back" in warnings[0]["text"]
    assert told == [warnings[0]["text"]]  # (once, and as the browsers here read it)
    watcher.close()
    host.close()


def test_a_driver_that_ended_is_not_counted_as_driving(store: Store) -> None:
    """/healthz's ``driving``: the tables whose driver runs here. A finished game's driver
    ends (its table stays in memory a while): it was still counted, so a process that had
    shown many games read as driving them all."""
    import asyncio
    from types import SimpleNamespace

    from yacht.web.hub import Hub

    hub = Hub(store)

    async def main() -> dict[str, int]:
        ended = asyncio.get_running_loop().create_future()
        ended.set_result(None)
        running = asyncio.get_running_loop().create_future()
        hub.live["ended"] = SimpleNamespace(driver=ended)  # type: ignore[assignment]
        hub.live["running"] = SimpleNamespace(driver=running)  # type: ignore[assignment]
        hub.live["none"] = SimpleNamespace(driver=None)  # type: ignore[assignment]
        status = hub.status()
        running.cancel()
        return status

    try:
        assert asyncio.run(main()) == {"tables": 3, "driving": 1}
    finally:
        hub.moves.shutdown()


def test_a_computers_save_that_hangs_holds_up_no_other_request(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database that stops answering (not refusing: frozen, a network that drops
    packets) while a computer's move is being saved: the server's other work goes on.
    Found by hand: PostgreSQL frozen (SIGSTOP) 10 s under a table of two computers, and
    the process driving it answered nothing, not even GET /, until it thawed - the
    computer's move was played, its commit waited for, on the event loop."""
    import json
    import urllib.request

    from yacht.web import make_app

    hang = threading.Event()
    held = threading.Event()
    release = threading.Event()
    append = store.append_action

    def append_or_hang(game_id: str, index: int, *args: Any, **kw: Any) -> None:
        if hang.is_set():
            held.set()
            release.wait(20)  # (the test lets go once it is answered, or gives up)
        append(game_id, index, *args, **kw)

    monkeypatch.setattr(store, "append_action", append_or_hang)
    app = make_app(store, strategy_factory=random_players, allowed_hosts=["127.0.0.1"],
                   new_tables=None)
    with ThreadServer(app) as server:
        hang.set()
        try:
            t = server.post("/api/tables", {
                "variant": "tommys-crag", "speed": "fast",
                "seats": [{"kind": "beginner", "name": "Cpu1"},
                          {"kind": "beginner", "name": "Cpu2"}]})
            assert held.wait(10), "no computer's move was saved"
            answered: list[int] = []

            def ask() -> None:
                with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/variants",
                                            timeout=15) as r:
                    answered.append(r.status)

            asking = threading.Thread(target=ask)
            asking.start()
            asking.join(10)  # (the old server answered only once the save went through)
            assert answered == [200], "the server stood still while a save hung"
        finally:
            hang.clear()
            release.set()
        url = f"http://127.0.0.1:{server.port}/api/tables/{t['id']}"
        game_id = json.loads(urllib.request.urlopen(url, timeout=10).read())[
            "snapshot"]["game_id"]
        deadline = time.monotonic() + 10
        while len(store.load_record(game_id).actions) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(store.load_record(game_id).actions) >= 3  # (and the game went on)


def test_a_drivers_warning_reaches_the_browsers_of_the_other_processes(store: Store) -> None:
    """The process driving a table tells the others why its game stands still (news of
    kind "warning"); theirs show it as a store_warning taken up from elsewhere. (Found by
    hand: with PostgreSQL stopped under a computers' table, only the driving process's
    watchers heard why; the others' saw a game standing still.)"""
    import asyncio
    from types import SimpleNamespace

    from yacht.session.table import Event
    from yacht.web.hub import Hub
    from yacht.web.news import News

    class Sent(News):
        shared = True

        def __init__(self) -> None:
            self.sent: list[tuple[str, dict[str, Any]]] = []

        async def publish(self, table_id: str, message: dict[str, Any]) -> bool:
            self.sent.append((table_id, message))
            return True

    telling, hearing = Sent(), Sent()
    hubs = [Hub(store, news=telling), Hub(store, news=hearing)]
    line = "cannot connect to the database: Connection refused; the game goes on ..."

    async def main() -> list[tuple[Any, Event]]:
        heard: list[tuple[Any, Event]] = []
        live = SimpleNamespace(id="t1", table=SimpleNamespace(version=7))
        hubs[1].live["t1"] = live  # type: ignore[assignment]
        hubs[1].fanout.event = lambda live, event: heard.append((live, event))  # type: ignore[method-assign]
        hubs[0].cluster.tell_warning(live, line)  # type: ignore[arg-type]
        for _ in range(10):
            await asyncio.sleep(0)
        assert telling.sent == [("t1", {"kind": "warning", "text": line})]
        await hubs[1].cluster._on_news("t1", {**telling.sent[0][1], "from": "other"})
        await hubs[1].cluster._on_news("t1", {"kind": "warning", "text": 3})  # (not a line)
        return [(lv, e) for lv, e in heard if lv is live]

    try:
        heard = asyncio.run(main())
    finally:
        for hub in hubs:
            hub.moves.shutdown()
    assert [e for _, e in heard] == [Event("store_warning", 7, None, line, {"remote": True})]
