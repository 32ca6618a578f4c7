"""Fixtures for the web tests: a server on a private store, in this process."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yacht.rules import Ruleset
from yacht.store import Store, open_store
from yacht.strategy import RandomStrategy


def random_players(level: str, rs: Ruleset) -> RandomStrategy:
    """Every computer level plays seeded random moves: quick and deterministic."""
    return RandomStrategy(rs, seed=5)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(str(tmp_path / "web.sqlite3"))
    yield s
    s.close()


def serve(store: Store, **kw: Any) -> Iterator[TestClient]:
    """The server in this process; pages a failed test left open are closed before it
    stops (it would wait for them)."""
    from yacht.web import make_app

    from .browser import OPEN

    kw.setdefault("allowed_hosts", ["testserver"])
    kw.setdefault("new_tables", None)   # (many tests make many tables: test_web_limits.py)
    with TestClient(make_app(store, strategy_factory=random_players, **kw),
                    base_url="http://testserver") as c:
        try:
            yield c
        finally:
            for page in list(OPEN):
                page.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    yield from serve(store)


def new_table(client: TestClient, variant: str = "tommys-crag", **kw: Any) -> dict[str, Any]:
    body = {"variant": variant, "speed": "instant",
            "seats": [{"kind": "person", "name": "Ann", "here": True}], **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


class ThreadServer:
    """uvicorn in a thread of this process, on a loopback port, with quick keepalives
    (every ``ping`` seconds, dropped as long after; ``ws``: uvicorn's WebSocket
    protocol)."""

    def __init__(self, app: Any, ping: float = 1.0, ws: str = "auto") -> None:
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_config=None, ws=ws, ws_ping_interval=ping,
            ws_ping_timeout=ping, ws_per_message_deflate=False, lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def post(self, path: str, body: Any) -> Any:
        import urllib.request

        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                     json.dumps(body).encode(),
                                     {"content-type": "application/json"}, method="POST")
        return json.loads(urllib.request.urlopen(req, timeout=10).read())
