"""`yacht web` with Redis, in one process or several, tells its browsers to reconnect
before it closes their sockets when it is stopped (as the single process does:
test_web_command.py), so a page reconnects quietly instead of saying the connection is
lost. Redis is a private `redis-server` on a loopback port (skipped, saying so, where
it is not installed)."""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from .test_web_cluster import Redis, free_port

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def redis() -> Iterator[Redis]:
    r = Redis()
    r.start()
    try:
        yield r
    finally:
        r.stop()


@pytest.mark.parametrize(("workers", "stop"), [(2, signal.SIGTERM), (2, signal.SIGINT),
                                                (1, signal.SIGTERM)])
def test_the_processes_tell_their_browsers_to_reconnect(
        redis: Redis, tmp_path: Path, workers: int, stop: signal.Signals) -> None:
    port = free_port()
    env = dict(os.environ, HOME=str(tmp_path / "home"), YACHT_CACHE_DIR=str(tmp_path / "c"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), YACHT_DB=str(tmp_path / "w.sqlite3"))
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "yacht", "web", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--redis", redis.url, "--log-level", "info"],
            env=env, stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + 90  # a loaded machine takes its time to import
        seen: set[str] = set()  # every process up (the socket may go to any)
        while len(seen) < workers:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, (seen, log.read_text()[-3000:])
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                            timeout=2) as r:
                    seen.add(json.loads(r.read())["process"])
            except OSError:  # (503 included: Redis may still be connecting)
                time.sleep(0.1)
        body = json.dumps({"variant": "yatzy", "seats": [{"kind": "person", "name": "Ann"}]})
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", body.encode(),
                                     {"content-type": "application/json"}, method="POST")
        table = json.loads(urllib.request.urlopen(req, timeout=30).read())
        with connect(f"ws://127.0.0.1:{port}/ws/{table['id']}", open_timeout=30) as ws:
            ws.send(json.dumps({"type": "hello", "token": table["token"]}))
            ws.recv(30)  # (the socket is the table's)
            server.send_signal(stop)
            said: list[Any] = []
            closed: Exception | None = None
            try:
                for _ in range(20):
                    said.append(json.loads(ws.recv(20)).get("type"))
            except Exception as e:  # the server closed the socket
                closed = e
            rcvd = getattr(closed, "rcvd", None)
            assert "reconnect" in said, (said, closed, log.read_text()[-3000:])
            assert rcvd is not None and rcvd.code == 1012, (said, closed)
        assert server.wait(30) in (0, -stop), log.read_text()[-3000:]
        # every worker's own log lines are there (a worker is a fresh process: it logged
        # nothing before it set its logging up from the environment)
        serving = [line for line in log.read_text().splitlines() if '"serving"' in line]
        assert len(serving) == workers, log.read_text()[-3000:]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


def test_every_way_uvicorn_makes_a_worker_makes_ours() -> None:
    """uvicorn's supervisor makes its workers in several methods (at start, a dead one's
    replacement, SIGHUP, SIGTTIN); the Supervisor has each, or a worker of uvicorn's
    would stop without telling its browsers (a newer uvicorn may add one)."""
    from uvicorn.supervisors.multiprocess import Multiprocess

    from yacht.web.server import Supervisor

    making = {name for name, fn in inspect.getmembers(Multiprocess, inspect.isfunction)
              if "Process(" in inspect.getsource(fn)}
    assert making == {"init_processes", "restart_all", "keep_subprocess_alive",
                      "handle_ttin"}
    assert all(name in Supervisor.__dict__ for name in making)


def test_the_workers_stop_when_their_supervisor_is_killed(redis: Redis, tmp_path: Path) -> None:
    """A supervisor killed (SIGKILL, out of memory) left its workers serving on the port,
    with nothing to stop them or make new ones (QA s25); each now stops as if told to."""
    port = free_port()
    env = dict(os.environ, HOME=str(tmp_path / "home"), YACHT_CACHE_DIR=str(tmp_path / "c"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), YACHT_DB=str(tmp_path / "w.sqlite3"))
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "yacht", "web", "--host", "127.0.0.1", "--port", str(port),
             "--workers", "2", "--redis", redis.url, "--log-level", "info"],
            env=env, stdout=out, stderr=out)

    def workers() -> list[int]:  # the supervisor's children serving (not its resource tracker)
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                pid, rest = stat.read_text().split(" ", 1)
                cmd = (stat.parent / "cmdline").read_bytes()
            except OSError:
                continue
            fields = rest.rsplit(")", 1)[1].split()
            if b"spawn_main" in cmd and fields[0] != "Z" and int(fields[1]) == server.pid:
                found.append(int(pid))
        return found

    def alive(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    serving: list[int] = []
    try:
        deadline = time.monotonic() + 90
        seen: set[str] = set()
        while len(seen) < 2:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, (seen, log.read_text()[-3000:])
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                            timeout=2) as r:
                    seen.add(json.loads(r.read())["process"])
            except OSError:
                time.sleep(0.1)
        serving = workers()
        assert len(serving) == 2, serving
        server.kill()
        server.wait(10)
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in serving) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in serving), log.read_text()[-3000:]
        text = log.read_text()
        assert text.count(f"The supervisor (process {server.pid}) is gone") == 2, text[-3000:]
        with pytest.raises(OSError):  # nothing answers on the port
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
    finally:
        for pid in serving:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if server.poll() is None:
            server.kill()
            server.wait(10)
