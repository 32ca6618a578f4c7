"""A page's socket over the loopback (a real uvicorn server, ``ThreadServer``), from an
address of the test's choosing: Linux answers every 127.x.y.z, so each is another
client address as the server sees it."""

from __future__ import annotations

import itertools
import json
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

_ids = itertools.count(1)


class RealPage:
    """One page's socket from ``address``: its hello sent, its answers read by id."""

    def __init__(self, port: int, path: str, address: str = "127.0.0.1",
                 hello: dict[str, Any] | None = None) -> None:
        # (max_queue: nothing unread holds the socket back, so a close is not kept
        # waiting behind the messages the test did not read)
        made = connect(f"ws://127.0.0.1:{port}{path}", open_timeout=10, proxy=None,
                       max_queue=None, source_address=(address, 0))
        assert isinstance(made, ClientConnection)
        self.ws = made.__enter__()   # (closed by close())
        self.seen: list[dict[str, Any]] = []
        self.ws.send(json.dumps(hello if hello is not None else {"type": "hello",
                                                                 "token": None}))

    def send(self, msg: dict[str, Any]) -> int:
        """Send ``msg`` with an id of its own (the id)."""
        msg_id = next(_ids)
        self.ws.send(json.dumps({**msg, "id": msg_id}))
        return msg_id

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(20))
        self.seen.append(msg)
        return msg

    def answer(self, msg_id: int) -> dict[str, Any]:
        """The answer to the message of ``msg_id`` (a state carrying it: its ack)."""
        while True:
            msg = self.recv()
            if msg.get("id") == msg_id:
                return {"type": "ack", "id": msg_id} if msg["type"] == "state" else msg

    def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        return self.answer(self.send(msg))

    def until(self, pred: Any) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if pred(msg):
                return msg

    def closed(self) -> int | None:
        """Read until the server closes the socket: the close's code."""
        try:
            while True:
                self.recv()
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd is not None else None

    def close(self) -> None:
        self.ws.close()
