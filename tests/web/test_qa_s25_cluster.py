"""`yacht web` for many players, as an operator starts it (QA s25): a Redis the server
cannot use is one line and exit 2 before anything serves, not a server that runs on
with its computer players and clocks waiting for a Redis that never comes."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yacht.cli import main


@pytest.fixture
def busy_port() -> Iterator[str]:
    """A port already taken: the old code went on to it (one line of its own, exit 2)
    instead of serving for ever without Redis."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield str(busy.getsockname()[1])


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class FakeRedis:
    """A loopback server that answers every command with ``reply`` (None: never)."""

    def __init__(self, reply: bytes | None) -> None:
        self.reply = reply
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = int(self.sock.getsockname()[1])
        self.conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        try:
            while conn.recv(4096):
                if self.reply is not None:
                    conn.sendall(self.reply)
        except OSError:
            pass

    def close(self) -> None:
        self.sock.close()
        for c in self.conns:
            c.close()


def refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, port: str,
            *redis: str) -> str:
    assert main(["web", *redis, "--port", port, "--db", str(tmp_path / "w.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_redis_that_is_not_there_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str) -> None:
    url = f"redis://127.0.0.1:{closed_port()}/0"
    err = refused(capsys, tmp_path, busy_port, "--redis", url)
    assert err.startswith(f"yacht: error: cannot use Redis at {url}: ")
    assert "refused" in err and "is it running there? check --redis" in err


def test_a_redis_from_the_environment_is_named_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_REDIS", f"redis://127.0.0.1:{closed_port()}")
    err = refused(capsys, tmp_path, busy_port)
    assert "cannot use Redis at redis://127.0.0.1:" in err and "check YACHT_REDIS" in err


def test_a_redis_that_refuses_says_why_without_the_password(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str) -> None:
    fake = FakeRedis(b"-WRONGPASS invalid username-password pair or user is disabled.\r\n")
    try:
        err = refused(capsys, tmp_path, busy_port, "--redis",
                      f"redis://:s3cret@127.0.0.1:{fake.port}/3")
    finally:
        fake.close()
    assert f"cannot use Redis at redis://:***@127.0.0.1:{fake.port}/3: " in err
    assert "invalid username-password pair" in err and "(check --redis)" in err
    assert "s3cret" not in err


def test_a_redis_that_wants_a_password_says_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str) -> None:
    fake = FakeRedis(b"-NOAUTH HELLO must be called with the client already authenticated, "
                     b"otherwise the HELLO AUTH <user> <pass> option can be used\r\n")
    try:
        err = refused(capsys, tmp_path, busy_port, "--redis", f"redis://127.0.0.1:{fake.port}")
    finally:
        fake.close()
    assert "it asks for a password (in the URL: redis://:PASSWORD@HOST:PORT/DB" in err
    assert "HELLO" not in err


def test_a_database_number_redis_does_not_have(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str) -> None:
    fake = FakeRedis(b"-ERR DB index is out of range\r\n")
    try:
        err = refused(capsys, tmp_path, busy_port, "--redis",
                      f"redis://127.0.0.1:{fake.port}/99")
    finally:
        fake.close()
    assert "DB index is out of range (check --redis)" in err


def test_a_redis_that_never_answers_is_waited_for_a_while(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from yacht.cli.commands import web

    monkeypatch.setattr(web, "REDIS_WAIT", 0.3)
    fake = FakeRedis(None)
    try:
        err = refused(capsys, tmp_path, busy_port, "--redis", f"redis://127.0.0.1:{fake.port}")
    finally:
        fake.close()
    assert "cannot use Redis at" in err and "Timeout" in err


# --- Redis away: the browsers of a table that plays by itself hear why it stands still --

class _News:
    """Redis news as the cluster sees it: heard or not (``ok``), a lease held or not."""

    shared = True

    def __init__(self) -> None:
        self.ok = False
        self.held = False

    async def lease(self, table_id: str) -> bool:
        return self.held


class _Table:
    def sync(self) -> None:
        pass


class _Live:
    """A table of this process with a computer player, not driven here."""

    id = "t1"
    table = _Table()
    playing = True
    needs_driver = True
    driver = None
    connections: set[object] = set()


class _Site:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning_heard(self, live: Any, text: str) -> None:
        self.warnings.append(text)

    async def io_call(self, fn: Any, *args: Any) -> Any:
        return None

    def drive(self, live: Any) -> None:
        live.driver = object()  # (driven here from now on)

    async def stop_driving(self, live: Any) -> None:
        live.driver = None


def test_a_table_no_process_may_drive_says_why_once_an_outage() -> None:
    import asyncio

    from yacht.web.cluster import Cluster
    from yacht.web.tasks import Tasks

    news, site, live = _News(), _Site(), _Live()
    cluster = Cluster(news, site, Tasks("test"))  # type: ignore[arg-type]

    async def keep_up(times: int = 3) -> None:
        for _ in range(times):  # (the lease is tried every 2 s while the table plays)
            await cluster.lease(live)  # type: ignore[arg-type]

    asyncio.run(keep_up())  # no browser at the table yet: no one to tell
    assert site.warnings == []
    live.connections = {object()}
    asyncio.run(keep_up())  # Redis away: no lease, and the browsers are told, once
    assert len(site.warnings) == 1, "the table stood still without a word"
    said = site.warnings[0]
    assert "(Redis)" in said and "computer players" in said
    assert "people's moves go on" in said
    news.ok = news.held = True  # back: driven here again, nothing said
    asyncio.run(keep_up())
    assert live.driver is not None and site.warnings == [said]
    news.ok = news.held = False  # away again: the driver stops, and it is said again
    asyncio.run(keep_up())
    assert live.driver is None and site.warnings == [said, said]
    news.ok = True  # heard again, another process drives: nothing to say
    asyncio.run(keep_up())
    assert site.warnings == [said, said]
