"""Keepalive pings only for browsers gone quiet (yacht.web.keepalive), through a real
uvicorn on a loopback port and raw sockets that see every frame, pings included."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from yacht.store import Store
from yacht.web.keepalive import WS_PROTOCOL

from .conftest import ThreadServer, random_players

EVERY = 0.4  # the ping interval and timeout of these servers (seconds)
PING, PONG, CLOSE, TEXT = 0x9, 0xA, 0x8, 0x1


def new_table(server: ThreadServer) -> Any:
    return server.post("/api/tables", {"variant": "yatzy", "speed": "slow", "seats": [
        {"kind": "person", "name": "Ann", "here": True}]})


def _frame(opcode: int, data: bytes) -> bytes:
    """A client's (masked) frame."""
    mask = os.urandom(4)
    assert len(data) < 126
    return bytes([0x80 | opcode, 0x80 | len(data)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(data))


class Raw:
    """A browser's socket seen frame by frame: it counts the pings it gets, answers them
    (or not), and sends a message when told."""

    def __init__(self, port: int, table: str, token: str | None, *, pong: bool = True) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), 5)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                          .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0]
        self.buf = b""
        self.pong = pong
        self.pings: list[float] = []
        self.closed_at: float | None = None
        self.send_json({"type": "hello", "token": token})

    def send_json(self, msg: Any) -> None:
        self.sock.sendall(_frame(TEXT, json.dumps(msg).encode()))

    def pump(self, seconds: float) -> None:
        """Read every frame for ``seconds`` (answering pings if it does)."""
        end = time.monotonic() + seconds
        while self.closed_at is None and (left := end - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return
            if not chunk:
                self.closed_at = time.monotonic()
                return
            self.buf += chunk
            while (frame := self._frame()) is not None:
                opcode, data = frame
                if opcode == PING:
                    self.pings.append(time.monotonic())
                    if self.pong:
                        self.sock.sendall(_frame(PONG, data))
                elif opcode == CLOSE:
                    self.closed_at = time.monotonic()

    def _frame(self) -> tuple[int, bytes] | None:
        if len(self.buf) < 2:
            return None
        n, at = self.buf[1] & 0x7F, 2
        if n == 126:
            if len(self.buf) < 4:
                return None
            n, at = int.from_bytes(self.buf[2:4], "big"), 4
        elif n == 127:
            if len(self.buf) < 10:
                return None
            n, at = int.from_bytes(self.buf[2:10], "big"), 10
        if len(self.buf) < at + n:
            return None
        opcode, data = self.buf[0] & 0x0F, self.buf[at:at + n]
        self.buf = self.buf[at + n:]
        return opcode, data

    def close(self) -> None:
        self.sock.close()


def chat(sockets: list[Raw], chatty: list[Raw], seconds: float, every: float = 0.1) -> None:
    """Pump every socket for ``seconds``, the chatty ones sending a ping message (the
    protocol's, not a WebSocket ping) every ``every`` seconds."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for s in chatty:
            s.send_json({"type": "ping"})
        for s in sockets:
            s.pump(every / len(sockets))


@pytest.fixture
def server(store: Store) -> Iterator[ThreadServer]:
    from yacht.web import make_app

    app = make_app(store, strategy_factory=random_players, allowed_hosts=["127.0.0.1"])
    with ThreadServer(app, ping=EVERY, ws=WS_PROTOCOL) as s:  # yacht web's protocol
        yield s


def test_a_browser_that_speaks_is_not_pinged_and_a_quiet_one_is(server: ThreadServer) -> None:
    made = new_table(server)
    talker = Raw(server.port, made["id"], made["token"])
    listener = Raw(server.port, made["id"], None)
    try:
        chat([talker, listener], [talker], 8 * EVERY)
        assert talker.pings == [], "a browser heard from every 0.1 s was pinged"
        assert len(listener.pings) >= 4, listener.pings  # about one an interval
        assert talker.closed_at is None and listener.closed_at is None
        # the talker goes quiet: pinged an interval after its last message, then as before
        quiet_from = time.monotonic()
        chat([talker, listener], [], 4 * EVERY)
        assert talker.pings, "a browser that went quiet was never pinged"
        assert talker.pings[0] - quiet_from < 2 * EVERY
        assert len(talker.pings) >= 2 and talker.closed_at is None
    finally:
        talker.close()
        listener.close()


def test_a_browser_that_goes_quiet_and_does_not_answer_is_dropped(server: ThreadServer) -> None:
    made = new_table(server)
    gone = Raw(server.port, made["id"], made["token"], pong=False)
    try:
        chat([gone], [gone], 4 * EVERY)
        assert gone.pings == [] and gone.closed_at is None
        quiet_from = time.monotonic()
        gone.pump(6 * EVERY)
        assert gone.closed_at is not None, "a silent browser that answers no ping stayed"
        # pinged an interval after its last message, dropped a timeout later
        assert gone.closed_at - quiet_from < 3 * EVERY + 0.5
    finally:
        gone.close()
