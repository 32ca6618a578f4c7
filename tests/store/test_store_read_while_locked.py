"""Another process holding SQLite's write lock (a long write, a second server, a tool)
does not hold up the store's reads: in WAL mode a read takes no write lock, so the high
scores, the unfinished games and a game's progress are read at once, not after the other
writer is through (each read used to wait for the write lock, up to 30 s a try)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from store_helpers import play_into, random_game

from yacht.engine import Player
from yacht.rules import get
from yacht.store import open_store


def test_reads_go_on_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s:
        st = random_game(get("yatzy"), [Player("Ann")], 1)
        gid = play_into(s, st)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the other process's write, under way
        got: dict[str, Any] = {}

        def read() -> None:
            got["progress"] = s.progress(gid)
            got["unfinished"] = [g.id for g in s.unfinished_games()]
            got["top"] = s.top_ten(get("yatzy"))

        t = threading.Thread(target=read, daemon=True)
        t.start()
        t.join(timeout=20)
        done = not t.is_alive()
        other.execute("ROLLBACK")  # (lets a waiting read through, on the old code)
        other.close()
        t.join()
        assert done, "a read waited for another process's write lock"
        assert got["progress"] == (len(st.log), False) and got["unfinished"] == [gid]


def test_a_read_waits_for_this_process_s_own_write_under_way(tmp_path: Path) -> None:
    """What this process began writing before a read is what the read sees (a server
    closes a table, then lists the open ones): only another process's lock is not
    waited for."""
    from sqlalchemy import text

    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s:
        st = random_game(get("yatzy"), [Player("Ann")], 1)
        gid = play_into(s, st)
        started, release = threading.Event(), threading.Event()

        def finishing(conn: Any) -> None:
            conn.execute(text("UPDATE games SET finished = CURRENT_TIMESTAMP WHERE id = :g"),
                         {"g": gid})
            started.set()
            release.wait(20)

        w = threading.Thread(target=lambda: s._tx(finishing), daemon=True)
        w.start()
        assert started.wait(20)
        got: list[tuple[int, bool]] = []
        r = threading.Thread(target=lambda: got.append(s.progress(gid)), daemon=True)
        r.start()
        r.join(timeout=0.5)  # (not a measure of speed: the write is held until released)
        release.set()
        w.join()
        r.join()
        assert got == [(len(st.log), True)]
