"""QA s25: a stranger on the network against a running server (uvicorn on the loopback,
as ``yacht web`` serves): what the older trust and fuzz tests did not try."""

from __future__ import annotations

import json
import logging

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from yacht.store import Store

from .conftest import ThreadServer, random_players


def test_a_text_frame_not_utf8_is_closed_without_a_traceback(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """A text frame whose bytes are not UTF-8 closed its socket (1007) with uvicorn's
    traceback in the log at the error level: any stranger could fill the server's log
    with them. The socket is closed as before, with one line; the server goes on."""
    from yacht.web import make_app
    from yacht.web.keepalive import WS_PROTOCOL

    caplog.set_level(logging.INFO)
    app = make_app(store, strategy_factory=random_players, allowed_hosts=["127.0.0.1"])
    with ThreadServer(app, ws=WS_PROTOCOL) as server:
        made = server.post("/api/tables", {"variant": "yatzy", "seats": [
            {"kind": "person", "name": "Ann", "here": True}]})
        url = f"ws://127.0.0.1:{server.port}/ws/{made['id']}"
        for first in (False, True):  # (before the hello, and after it)
            with connect(url, open_timeout=10) as ws:
                if first:
                    ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                    assert json.loads(ws.recv(10))["type"] in ("welcome", "state")
                ws.send(b'{"type": "ping", "id": "\xff\xfe"}', text=True)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        ws.recv(10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        with connect(url, open_timeout=10) as ws:  # the server still answers
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            ws.send(json.dumps({"type": "ping", "id": 1}))
            while (msg := json.loads(ws.recv(10))).get("id") != 1:
                pass
            assert msg["type"] == "pong"
    assert [r.getMessage() for r in caplog.records
            if r.exc_info or r.levelno >= logging.ERROR] == []
    assert any("not UTF-8" in r.getMessage() for r in caplog.records)
