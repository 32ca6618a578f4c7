"""A scripted browser for the in-process WebSocket tests."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from yacht.web.protocol import server_adapter

_ids = itertools.count(1)

#: pages still open (a failed test leaves some: the fixture closes them before the server)
OPEN: list[Browser] = []


def answer(msg: dict[str, Any]) -> dict[str, Any]:
    """The answer to a message as the page's socket.js takes it: a state carrying the
    message's id is its ack (the server sends one frame, not two, when a state is due)."""
    if msg.get("type") == "state" and "id" in msg:
        return {"type": "ack", "id": msg["id"]}
    return msg


class Browser:
    """One page at a table: says hello with its token, keeps the newest state."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None,
                 prefs: dict[str, Any] | None = None) -> None:
        """``prefs``: the page's choices, sent with its hello (a click holds a die...)."""
        self._cm = client.websocket_connect(f"/ws/{table_id}")
        self.ws = self._cm.__enter__()
        OPEN.append(self)
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if prefs is not None:
            hello["prefs"] = prefs
        self.ws.send_json(hello)
        self.token = token
        self._tokens, self._last = 30.0, time.monotonic()
        self.table: dict[str, Any] = {}
        self.presence: list[Any] = []
        self.events: list[dict[str, Any]] = []
        welcome = self.until(lambda m: m.get("type") == "welcome")
        self.seats: list[int] = welcome["seats"]
        self.until(lambda m: m.get("type") == "state")

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self._cm.__exit__(None, None, None)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.ws.receive_json()
        server_adapter().validate_python(msg)  # every message is of a declared type
        if msg.get("type") == "state":
            self.table = msg["table"]
            self.presence = msg["presence"]
            self.events.extend(msg["events"])
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError(f"no such message in {limit}")

    def wait(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        """Until the newest state of the table (``self.table``) satisfies ``pred``."""
        if self.table and pred(self.table):
            return self.table
        self.until(lambda m: m.get("type") == "state" and pred(self.table), limit)
        return self.table

    def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a message and return its answer (ack, joined, hint or error). Like the
        page, it keeps under the server's limit (a burst of 30, then 15 a second): on a
        fast machine a whole game's messages otherwise came faster than a person's."""
        now = time.monotonic()
        self._tokens = min(30.0, self._tokens + (now - self._last) * 15.0)
        self._last = now
        if self._tokens < 1.0:
            time.sleep((1.0 - self._tokens) / 15.0)
            self._tokens = 1.0
            self._last = time.monotonic()
        self._tokens -= 1.0
        return self.ask_now(kind, **fields)

    def ask_now(self, kind: str, **fields: Any) -> dict[str, Any]:
        """:meth:`ask` without a person's pace (for a server that takes any rate)."""
        msg_id = next(_ids)
        self.ws.send_json({"type": kind, "id": msg_id, **fields})
        return answer(self.until(lambda m: m.get("id") == msg_id))

    def act(self, command: dict[str, Any], version: int | None = None) -> dict[str, Any]:
        """A command against ``version`` (None: the newest state this page has seen, as
        the page sends it; 0 before a game shows)."""
        if version is None:
            version = self.table.get("snapshot", {}).get("version", 0)
        return self.ask("command", command=command, version=version)

    @property
    def snap(self) -> dict[str, Any]:
        snap: dict[str, Any] = self.table["snapshot"]
        return snap

    def wait_my_turn_or_end(self) -> dict[str, Any]:
        """Until it is this page's turn to roll or score, or the game is over."""
        def ready(m: dict[str, Any]) -> bool:
            if m.get("type") != "state" or self.table.get("phase") != "game":
                return False
            s = self.snap
            return s["over"] or s["seat"] is not None and s["seat"]["my_turn"] \
                or s["can"]["go_on"]
        if self.table.get("phase") == "game" and ready({"type": "state"}):
            return self.snap
        self.until(ready)
        return self.snap
