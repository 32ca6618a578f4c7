"""How many moves a server process waits on at once: a database server's round trip
must not cap the moves a process carries (issue 28)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from yacht.store import Store, open_store
from yacht.web.hub import MOVERS, MOVERS_REMOTE, Hub


def most_at_once(hub: Hub, moves: int) -> int:
    """Play ``moves`` moves that each wait (as for their commit) until all that can be
    in flight are: how many were waiting at once."""
    inside = 0
    most = 0
    lock = threading.Lock()
    release = threading.Event()

    def move() -> None:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
            if most == moves:
                release.set()
        release.wait(0.5)  # (a pool smaller than ``moves`` never sets it: time out)
        with lock:
            inside -= 1

    async def main() -> None:
        await asyncio.gather(*(hub.move_call(move) for _ in range(moves)))

    asyncio.run(main())
    return most


def test_a_database_server_does_not_cap_the_moves_in_flight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Store, "dialect", property(lambda self: "postgresql"))
    store = open_store(str(tmp_path / "remote.sqlite3"))
    hub = Hub(store)
    try:
        assert MOVERS_REMOTE > MOVERS
        assert most_at_once(hub, MOVERS_REMOTE) == MOVERS_REMOTE
    finally:
        hub.moves.shutdown()
        store.close()


def test_a_sqlite_file_keeps_few_move_threads(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "local.sqlite3"))
    hub = Hub(store)
    try:
        assert most_at_once(hub, MOVERS + 4) == MOVERS
    finally:
        hub.moves.shutdown()
        store.close()
