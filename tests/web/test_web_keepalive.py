"""Keepalive pings only for browsers gone quiet (yacht.web.keepalive), through a real
uvicorn on a loopback port and raw sockets that see every frame, pings included."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
import urllib.request
from typing import Any

import pytest

from yacht.store import Store
from yacht.web.keepalive import WS_PROTOCOL

from .conftest import random_players

EVERY = 0.4  # the ping interval and timeout of these servers (seconds)
PING, PONG, CLOSE, TEXT = 0x9, 0xA, 0x8, 0x1


class Server:
    """The app on uvicorn in a thread, with ``yacht web``'s protocol and quick pings."""

    def __init__(self, store: Store) -> None:
        import uvicorn

        from yacht.web import make_app

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        app = make_app(store, strategy_factory=random_players, allowed_hosts=["127.0.0.1"])
        self.server = uvicorn.Server(uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_config=None, ws=WS_PROTOCOL,
            ws_ping_interval=EVERY, ws_ping_timeout=EVERY, ws_per_message_deflate=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def table(self) -> Any:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/tables", json.dumps({
                "variant": "yatzy", "speed": "slow",
                "seats": [{"kind": "person", "name": "Ann", "here": True}]}).encode(),
            {"content-type": "application/json"}, method="POST")
        return json.loads(urllib.request.urlopen(req, timeout=10).read())


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
def server(store: Store) -> Any:
    with Server(store) as s:
        yield s


def test_a_browser_that_speaks_is_not_pinged_and_a_quiet_one_is(server: Server) -> None:
    made = server.table()
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


def test_a_browser_that_goes_quiet_and_does_not_answer_is_dropped(server: Server) -> None:
    made = server.table()
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
