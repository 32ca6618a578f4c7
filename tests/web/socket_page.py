"""A page's socket to a real ``yacht web`` process (over the loopback, not in-process):
for the tests of several processes, and for browser tests that play a game's turns
quickly before a page plays the end they are about."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from websockets.sync.client import ClientConnection, connect

from .browser import answer


class Page:
    """A browser's socket to one server process (anything with a ``port``)."""

    def __init__(self, server: Any, table: str, token: str | None) -> None:
        self.server = server
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/{table}",
                                            open_timeout=10, legacy=True)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.table: dict[str, Any] = {}
        self.next_id = 0
        self._tokens, self._last = 30.0, time.monotonic()
        self.wait(lambda t: True)

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout))
        if msg.get("type") == "state":
            self.table = msg["table"]
        return msg

    def wait(self, pred: Callable[[dict[str, Any]], object],
             timeout: float = 30) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.table and pred(self.table)):
            if time.monotonic() > end:
                name = getattr(self.server, "name", self.server.port)
                raise AssertionError(f"no such state on {name}: "
                                     f"{json.dumps(self.table)[:300]}")
            self.recv(max(0.1, end - time.monotonic()))
        return self.table

    def send(self, kind: str, **fields: Any) -> int:
        """Send a message at no more than a page's pace (the server's limit: a burst of
        30, then 15 a second) and return its id."""
        now = time.monotonic()
        self._tokens = min(30.0, self._tokens + (now - self._last) * 15.0)
        self._last = now
        if self._tokens < 1.0:
            time.sleep((1.0 - self._tokens) / 15.0)
            self._tokens, self._last = 1.0, time.monotonic()
        self._tokens -= 1.0
        self.next_id += 1
        self.ws.send(json.dumps({"type": kind, "id": self.next_id, **fields}))
        return self.next_id

    def answer(self, msg_id: int, timeout: float = 30) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.1, end - time.monotonic()))
            if msg.get("id") == msg_id:
                return answer(msg)  # (a state with the id: the ack, as the page takes it)

    def act(self, command: dict[str, Any], version: int | None = None) -> dict[str, Any]:
        if version is None:  # (the newest state seen, as the page sends it)
            version = self.table.get("snapshot", {}).get("version", 0)
        return self.answer(self.send("command", command=command, version=version))

    @property
    def snap(self) -> dict[str, Any]:
        snap: dict[str, Any] = self.table["snapshot"]
        return snap

    def close(self) -> None:
        self.ws.close()


#: the errors of a move the table made stale meanwhile (its clock, a computer)
MOVED_ON = {"stale", "not_your_turn", "computer_turn", "paused"}


def play_through(server: Any, table: str, tokens: list[str], leave: int = 1) -> None:
    """Play the seats of ``tokens`` at ``table`` through their sockets, each turn one roll
    and the first box that takes it, until the player on turn has ``leave`` turns to
    play (computers play their own turns; a pause is gone on from). A test about a
    game's end plays only those last turns on its page."""
    pages = [Page(server, table, token) for token in tokens]
    try:
        def ready(t: dict[str, Any]) -> bool:
            if t.get("phase") != "game":
                return False
            s = t["snapshot"]
            return bool(s["over"] or s["can"]["go_on"] or s["seat"] and s["seat"]["my_turn"])

        for _ in range(2000):
            # (every page sees every state: the one whose turn it is acts)
            s = pages[0].wait(lambda t: t.get("phase") == "game")["snapshot"]
            mover = next((p for p in pages if p.table and ready(p.table)), None)
            if mover is None:
                pages[0].recv()
                continue
            s = mover.snap
            before = s["version"]
            if s["over"] or s["players"][s["current"]]["turns_taken"] >= s["turns"] - leave:
                return
            if s["can"]["go_on"]:
                reply = mover.act({"type": "go_on"})
            elif not s["dice"]:
                reply = mover.act({"type": "roll"})
            else:
                assert s["previews"], "play_through plays variants whose every roll has a box"
                box = s["previews"][0]
                reply = mover.act({"type": "score", "category": box["category"],
                                   "column": box["column"]})
            if reply["type"] == "error" and reply.get("code") in MOVED_ON:
                # (the table moved first: a turn's clock ran out...) the newer state
                if reply.get("code") == "stale":
                    mover.wait(lambda t, v=before: t["snapshot"]["version"] > v)
                else:
                    time.sleep(0.1)
                continue
            assert reply["type"] == "ack", reply
            for page in pages:  # (each sees the move before the next one is chosen)
                page.wait(lambda t, v=before: t["snapshot"]["version"] > v)
        raise AssertionError("play_through: the game did not get there in 2000 steps")
    finally:
        for page in pages:
            page.close()
