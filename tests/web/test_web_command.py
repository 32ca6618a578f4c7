"""`yacht web` as a person starts it: the address printed, JSON logs, a clean stop that
tells the browsers to reconnect."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from yacht.cli import main


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_server_starts_logs_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "yacht", "web", "--port", str(port), "--db",
         str(tmp_path / "w.sqlite3"), "--log-format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, YACHT_CACHE_DIR=str(tmp_path / "c")))
    try:
        first = server.stdout.readline()  # type: ignore[union-attr]
        assert f"http://localhost:{port}/" in first
        deadline = time.monotonic() + 60  # a loaded machine takes its time to import
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        body = json.dumps({"variant": "yatzy", "seats": [{"kind": "person", "name": "Ann"}]})
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", body.encode(),
                                     {"content-type": "application/json"}, method="POST")
        table = json.loads(urllib.request.urlopen(req, timeout=10).read())
        with connect(f"ws://127.0.0.1:{port}/ws/{table['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": table["token"]}))
            ws.recv(10)
            server.send_signal(signal.SIGTERM)
            said = []
            try:
                for _ in range(20):
                    said.append(json.loads(ws.recv(20)).get("type"))
            except Exception as e:  # the server closed the socket
                closed = e
            assert "reconnect" in said and getattr(closed, "rcvd", None).code == 1012
        assert server.wait(20) in (0, -signal.SIGTERM)  # uvicorn ends as the signal asks
    finally:
        if server.poll() is None:
            server.kill()
    lines = [json.loads(x) for x in server.stderr.read().splitlines()  # type: ignore[union-attr]
             if x.startswith("{")]
    assert any(x["msg"] == "serving" and x["logger"] == "yacht.web" for x in lines)
    assert all({"time", "level", "logger", "msg"} <= set(x) for x in lines)


def test_bad_arguments_are_one_line(capsys: object, tmp_path: Path) -> None:
    assert main(["web", "--workers", "2", "--db", str(tmp_path / "x.db")]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "needs --redis" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as stopped:  # (argparse's own refusal)
        main(["web", "--flush", "sometimes", "--db", str(tmp_path / "x.db")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "invalid choice: 'sometimes'" in err and len(err.strip().splitlines()) == 1
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["web", "--port", str(port), "--db", str(tmp_path / "x.db")]) == 2
    assert "cannot listen" in capsys.readouterr().err  # type: ignore[attr-defined]


def test_the_command_knows_the_stores_flushes() -> None:
    from yacht.cli.commands.web import FLUSH
    from yacht.store.core import FLUSH as STORE_FLUSH

    assert FLUSH == STORE_FLUSH


def test_a_bad_flush_in_the_environment_is_one_line(capsys: object, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_FLUSH", "sometimes")
    assert main(["web", "--db", str(tmp_path / "x.db")]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "YACHT_FLUSH='sometimes' is not a flush (accepted: each, interval)" in err
    assert len(err.strip().splitlines()) == 1


def test_the_command_knows_the_largest_message() -> None:
    from yacht.cli.commands import web
    from yacht.web.protocol import MAX_MESSAGE

    assert web.MAX_MESSAGE == MAX_MESSAGE


def test_the_command_serves_with_quiet_pings() -> None:
    from uvicorn.importer import import_from_string

    from yacht.cli.commands import web
    from yacht.web.keepalive import WS_PROTOCOL, QuietPings

    assert web.WS_PROTOCOL == WS_PROTOCOL
    assert import_from_string(WS_PROTOCOL) is QuietPings


def _serve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """A `yacht web` that lets an address make one new table (YACHT_NEW_TABLES=1)."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "yacht", "web", "--port", str(port), "--db",
         str(tmp_path / "w.sqlite3"), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
        env=dict(os.environ, YACHT_CACHE_DIR=str(tmp_path / "c"), YACHT_NEW_TABLES="1"))
    deadline = time.monotonic() + 60  # a loaded machine takes its time to import
    while time.monotonic() < deadline and server.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server, port
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise AssertionError("the server did not start")


def _new_table(port: int, browser: str) -> int:
    """POST /api/tables through a proxy that says the browser is at ``browser``."""
    body = json.dumps({"variant": "yatzy", "seats": [{"kind": "person", "name": "Ann"}]})
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables", body.encode(),
        {"content-type": "application/json", "x-forwarded-for": browser}, method="POST")
    try:
        return int(urllib.request.urlopen(req, timeout=10).status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_the_limits_count_the_browsers_behind_a_proxy_named(tmp_path: Path) -> None:
    """Behind a load balancer every request comes from its address: without a word on
    it, all its browsers would share one address's limits (30 new tables in 10
    minutes, 200 open sockets for a whole site). `--proxy ADDRESS` names the proxy whose
    X-Forwarded-For is believed; a proxy not named cannot choose the address counted."""
    server, port = _serve(tmp_path, "--proxy", "127.0.0.0/8")
    try:
        assert _new_table(port, "203.0.113.5") == 200
        assert _new_table(port, "203.0.113.6") == 200    # another browser: its own limit
        assert _new_table(port, "203.0.113.5") == 429    # the first one's is used up
        # an IPv6 /64 is one address (one home or machine holds all of it), as for the
        # messages' budget: its limit is not had again from the next address of it
        assert _new_table(port, "2001:db8:1:2::5") == 200
        assert _new_table(port, "2001:db8:1:2::6") == 429
        assert _new_table(port, "2001:db8:1:3::5") == 200
    finally:
        server.kill()
        server.wait(10)
    server, port = _serve(tmp_path, "--proxy", "192.0.2.1")   # not the one asking
    try:
        assert _new_table(port, "203.0.113.5") == 200
        assert _new_table(port, "203.0.113.6") == 429    # the header is not believed
    finally:
        server.kill()
        server.wait(10)
