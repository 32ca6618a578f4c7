"""What a stranger on the network tries: choosing the dice, extra fields, huge bodies and
frames, bytes, odd paths, another name for the server, someone else's saved game, a
socket that never reads. Nothing of it changes a die, a game or a score, and no client
mistake leaves a traceback in the log."""

from __future__ import annotations

import base64
import json
import logging
import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from yacht.store import Store
from yacht.web.protocol import MAX_BODY, MAX_MESSAGE, schema

from .browser import Browser
from .conftest import ThreadServer, new_table, random_players, serve

#: a valid form of every command the browser may send
COMMANDS: dict[str, dict[str, Any]] = {
    "roll": {"type": "roll"},
    "toggle": {"type": "toggle", "position": 0},
    "select": {"type": "select", "which": "all"},
    "choose": {"type": "choose", "dice": [0, 1]},
    "score": {"type": "score", "category": "chance", "column": None},
    "give_back": {"type": "give_back"},
    "take_back": {"type": "take_back"},
    "go_on": {"type": "go_on"},
}
#: every field the protocol knows, and what a forger would add
EXTRA_FIELDS = sorted({name for d in schema()["$defs"].values()
                       for name in d.get("properties", {})} - {"type"}
                      | {"result", "values", "seed", "points", "total", "player", "dice_values"})
FORGED = [[6, 6, 6, 6, 6], 6, "66666", {"dice": [6, 6, 6, 6, 6]}, None, True]


def stored(store: Store, game_id: str) -> list[Any]:
    return list(store.load_record(game_id).actions)


def test_the_protocol_knows_every_command() -> None:
    defs = schema()["$defs"]
    sent = {m["properties"]["type"]["const"] for m in (
        defs[r["$ref"].rsplit("/", 1)[1]] for r in defs["CommandMessage"]["properties"]
        ["command"]["oneOf"])}
    assert sent == set(COMMANDS)


def test_no_command_with_an_extra_field_is_taken_over_the_socket(store: Store) -> None:
    for client in serve(store, rate=1e9, burst=10**9):  # (hundreds of messages at once)
        _extra_fields_refused(client, store)


def _extra_fields_refused(client: TestClient, store: Store) -> None:
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as ann:
        assert ann.act({"type": "roll"})["type"] == "ack"
        gid, version, dice = ann.snap["game_id"], ann.snap["version"], ann.snap["dice"]
        before = stored(store, gid)
        refused = 0
        for kind, command in COMMANDS.items():
            for field in EXTRA_FIELDS:
                if field in command:
                    continue
                for value in FORGED[:2] if field != "result" else FORGED:
                    reply = ann.ask_now("command", command={**command, field: value},
                                        version=version)
                    assert reply["type"] == "error" and reply["code"] == "bad_request", \
                        (kind, field, reply)
                    refused += 1
        assert refused > 8 * len(EXTRA_FIELDS)
        assert stored(store, gid) == before
        assert (ann.snap["version"], ann.snap["dice"]) == (version, dice)
        # a roll as the browser may send it is still taken
        assert ann.act({"type": "select", "which": "all"})["type"] == "ack"
        assert ann.act({"type": "roll"})["type"] == "ack"


def test_no_http_body_with_an_extra_field_is_taken(client: TestClient, store: Store) -> None:
    good = {"variant": "yatzy", "speed": "instant",
            "seats": [{"kind": "person", "name": "Ann", "here": True}]}
    for field in ("seed", "dice", "rng", "result", "game_id", "token", "host"):
        r = client.post("/api/tables", json={**good, field: [6, 6, 6, 6, 6]})
        assert r.status_code == 400 and r.json()["code"] == "bad_request", field
        seat = {**good["seats"][0], field: "x"}  # type: ignore[index]
        r = client.post("/api/tables", json={**good, "seats": [seat]})
        assert r.status_code == 400 and r.json()["code"] == "bad_request", field
        r = client.post("/api/score", json={"variant": "yatzy", "dice": [1, 2, 3, 4, 5],
                                            field: 1})
        assert r.status_code == 400, field
    assert client.get("/api/tables").json() == []  # no table was made by any of them
    for wrong in ({"variant": 5, "seats": []}, {"variant": "yatzy", "seats": "all"},
                  {"variant": "yatzy", "speed": 1, "seats": good["seats"]},
                  {"variant": "yatzy", "seats": [{"kind": "person", "name": 7}]}):
        r = client.post("/api/tables", json=wrong)
        assert r.status_code == 400 and set(r.json()) == {"error", "code"}, wrong


def test_bodies_and_frames_are_limited_before_they_are_read(client: TestClient) -> None:
    big = b'{"variant": "' + b"y" * (MAX_BODY + 10) + b'"}'
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no length said beforehand
        for _ in range(100):
            yield b" " * 1024

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as ann:
        ann.ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE}))
        with pytest.raises(WebSocketDisconnect) as closed:
            ann.until(lambda m: False)
        assert closed.value.code == 1009
    with Browser(client, t["id"], t["token"]) as ann:
        ann.ws.send_bytes(b'{"type": "ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            ann.until(lambda m: False)
        assert closed.value.code == 1003
    for first in (b"\x00\x01", "x" * (MAX_MESSAGE + 1), '{"type": "ping"}',
                  '{"type": "hello", "token": 5}'):
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            if isinstance(first, bytes):
                ws.send_bytes(first)
            else:
                ws.send_text(first)
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(3):
                    ws.receive_json()
            assert closed.value.code in (1003, 1008, 1009), first[:20]
    with Browser(client, t["id"], t["token"]) as ann:  # and the table is as it was
        assert ann.act({"type": "roll"})["type"] == "ack"


@pytest.mark.parametrize("path", ["/static/main.js%00.png", "/static/..%2fapp.py",
                                  "/static/js/../../app.py", "/static/%2e%2e/app.py",
                                  "/static/js\\dom.js", "/static/", "/static/nothing.js",
                                  "/static/.hidden"])
def test_bad_static_paths_are_not_found(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404 and r.json()["code"] == "not_found", path


@pytest.mark.parametrize("name", ["a" * 256, "a" * 255 + ".js", "js/" + "b" * 300 + "/x.js",
                                  "a" * 4000, ("x" * 120 + "/") * 3 + "y"],
                         ids=["256", "259", "deep-300", "4000", "3x120"])
def test_a_static_name_too_long_for_the_system_is_not_found(
        client: TestClient, caplog: pytest.LogCaptureFixture, name: str) -> None:
    """A name the file system refuses to look up (ENAMETOOLONG) was a 500 and two
    tracebacks in the log."""
    caplog.set_level(logging.INFO)
    r = client.get("/static/" + name)
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert [x.getMessage() for x in caplog.records
            if x.exc_info or x.levelno >= logging.ERROR] == []


def test_only_the_servers_own_names_are_answered(store: Store) -> None:
    for client in serve(store, allowed_hosts=["localhost", "yacht.example"]):
        for name in ("localhost", "localhost:8000", "yacht.example", "YACHT.example:443"):
            assert client.get("/api/variants", headers={"host": name}).status_code == 200
        r = client.get("/api/variants", headers={"host": "rebound.attacker.example"})
        assert r.status_code == 421 and r.json()["code"] == "bad_host"
        assert "/" not in r.json()["error"].replace("yacht web --allowed-host", "")
        made = client.post("/api/tables", headers={"host": "localhost"}, json={
            "variant": "yatzy", "seats": [{"kind": "person", "name": "Ann"}]}).json()
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                f"/ws/{made['id']}", headers={"host": "rebound.attacker.example"}) as ws:
            ws.receive_json()
        assert closed.value.code == 1008


@pytest.mark.parametrize("host", ["127.0.0.1:8765@evil.example", "[::1]evil.example",
                                  "localhost@evil.example", "localhost:80:80", "local host",
                                  "[nothing]:80", "localhost/x", "localhost:8x"])
def test_a_malformed_host_header_is_refused(store: Store, host: str) -> None:
    """No browser sends these; the server took the name in front of them (its own)."""
    for allowed in (["localhost", "127.0.0.1", "::1"], None):
        for client in serve(store, allowed_hosts=allowed):
            r = client.get("/api/variants", headers={"host": host})
            assert r.status_code == 400 and r.json()["code"] == "bad_request", (host, allowed)
            assert "Host" in r.json()["error"]
            made = client.post("/api/tables", headers={"host": "localhost"}, json={
                "variant": "yatzy", "seats": [{"kind": "person", "name": "Ann"}]}).json()
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                    f"/ws/{made['id']}", headers={"host": host}) as ws:
                ws.receive_json()
            assert closed.value.code == 1008  # (refused before the handshake: HTTP 403)
            for good in ("localhost", "LOCALHOST:8000", "[::1]:80", "127.0.0.1:"):
                assert client.get("/api/variants", headers={"host": good}).status_code == 200


def test_the_allowed_names_by_default() -> None:
    from yacht.web.guard import allowed_hosts

    here = allowed_hosts("127.0.0.1")
    assert here is not None and {"localhost", "127.0.0.1", "::1"} <= here
    assert "example.org" not in here
    assert allowed_hosts("127.0.0.1", ["*"]) is None
    everywhere = allowed_hosts("0.0.0.0", ["yacht.example"])
    assert everywhere is not None and socket.gethostname().lower() in everywhere
    assert "yacht.example" in everywhere


def test_a_terminal_game_is_not_a_strangers(client: TestClient, store: Store) -> None:
    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.web.claims import hand_to_browser

    s = State(get("yatzy"), [Player("Ann")])
    s.apply(Roll())
    gid = store.start_game(Record.from_state(s, source="tui"))
    # no list of everyone's games, no way to take one by its id
    assert client.get("/api/games").status_code in (404, 405)
    assert client.post(f"/api/games/{gid}/table").status_code in (404, 405)
    assert client.post("/api/my/games", json={"tables": {}}).json() == []
    row, key = hand_to_browser(store, gid)  # the owner asks for a link
    assert client.get("/api/tables/" + row.id).json()["snapshot"]["seat"] is None
    for wrong in ("w" * 32, key[:-1] + ("A" if key[-1] != "A" else "B")):
        r = client.post(f"/api/tables/{row.id}/claim", json={"key": wrong})
        assert r.status_code == 409 and r.json()["code"] == "conflict"
    # the key as a seat token holds nothing: only the claim trades it
    with Browser(client, row.id, key) as early:
        assert early.seats == [] and early.act({"type": "roll"})["code"] == "not_your_turn"
    r = client.post(f"/api/tables/{row.id}/claim", json={"key": key}).json()
    mine = client.post("/api/my/games", json={"tables": {row.id: r["token"]}}).json()
    assert [(g["id"], g["table"]) for g in mine] == [(gid, row.id)]
    assert client.post("/api/my/games",
                       json={"tables": {row.id: "z" * 32}}).json() == []


def test_errors_name_no_file_path(client: TestClient, store: Store) -> None:
    health = client.get("/healthz").json()
    assert health["ok"] and store.location not in json.dumps(health)
    assert health["database"] == "sqlite"
    from yacht.store import StoreError
    from yacht.web.errors import public

    said = public(StoreError(f"disk full writing {store.location}"), store.location)
    assert store.location not in str(said) and said.code == "store"
    said = public(StoreError(f"no game abc in {store.location}"), store.location)
    assert str(said) == "no game abc" and said.code == "not_found"
    r = client.get("/api/games/0123456789ab/analysis")
    assert r.status_code == 404 and store.location not in r.text
    assert set(r.json()) == {"error", "code"}
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = client.delete("/api/tables")
    assert r.status_code == 405 and set(r.json()) == {"error", "code"}


def test_client_mistakes_log_no_traceback(client: TestClient,
                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    t = new_table(client, "yatzy")
    client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    client.post("/api/tables", json=[1, 2])
    client.get("/static/main.js%00.png")
    client.get("/api/variants/%00/rules")
    client.get("/api/tables/%00")
    with Browser(client, t["id"], t["token"]) as ann:
        for raw in ("{", "[]", '{"type": "command", "command": {"type": "roll", "x": 1}}',
                    '{"type": "join", "seat": 0, "name": "\\u0000"}'):
            ann.ws.send_text(raw)
            ann.until(lambda m: m.get("type") == "error")
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        ws.send_bytes(b"\xff")
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


# --- a browser that stops reading -----------------------------------------------------
def _frame(text: str) -> bytes:
    """A client's (masked) text frame."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else \
        bytes([0x81, 0x80 | 126]) + len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_browser_that_stops_reading_is_dropped(store: Store,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    from yacht.web import make_app

    caplog.set_level(logging.INFO)
    app = make_app(store, strategy_factory=random_players, send_within=2.0, watch_every=0.5,
                   allowed_hosts=["127.0.0.1"])
    with ThreadServer(app) as server:
        made = server.post("/api/tables", {"variant": "yahtzee", "speed": "slow", "seats": [
            {"kind": "beginner", "name": f"C{i}"} for i in range(8)]})
        hub = app.state.hub
        quiet = socket.socket()
        quiet.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        quiet.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        quiet.sendall(f"GET /ws/{made['id']} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                      f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}"
                      "\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += quiet.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0]
        quiet.sendall(_frame(json.dumps({"type": "hello", "token": made["token"]})))
        live = hub.live[made["id"]]
        deadline = time.monotonic() + 10
        while not live.connections and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(live.connections) == 1
        started = time.monotonic()
        # the host speeds the game up: a state a move, to a browser that reads none of them
        live.table.set_speed("instant")
        deadline = started + 30
        while live.connections and time.monotonic() < deadline:
            time.sleep(0.1)
        took = time.monotonic() - started
        assert not live.connections, "the browser that stopped reading still counts"
        assert took < 30
        # its socket is closed by the server: reading it now ends (after what was sent)
        quiet.settimeout(10)
        read_to_end(quiet)
        quiet.close()
        # and the server goes on
        again = server.post("/api/tables", {"variant": "yatzy", "seats": [
            {"kind": "person", "name": "Ann"}]})
        assert again["id"] in hub.live
    # (dropped by the keepalive, a send it did not take, or a close it did not take)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def read_to_end(sock: socket.socket) -> None:
    """Read a socket to its end (EOF or a reset); fails if it stays open."""
    got = 0
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return
            got += len(chunk)
    except ConnectionResetError:
        return
    except TimeoutError:
        raise AssertionError(f"the socket is still open ({got} bytes read)") from None


def test_a_refusal_from_the_store_tells_no_file_path(client: TestClient, store: Store) -> None:
    """A move another process saved first: the table's refusal carries the store's own
    line ("game X in /path/db is ..."); the browser is told it without the path."""
    from yacht.engine import Choose
    from yacht.web.errors import WebError

    t = new_table(client)
    with Browser(client, t["id"], t["token"]) as ann:
        assert ann.act({"type": "roll"})["type"] == "ack"
        game_id = ann.snap["game_id"]
        store.append_action(game_id, 1, Choose((0,)))  # (another process's move)
        said = ann.act({"type": "choose", "dice": [1]})
        assert said["type"] == "error" and said["code"] == "stale", said
        assert f"game {game_id}" in said["message"]  # (still says what happened)
        assert store.location not in said["message"] and "sqlite" not in said["message"]
        assert "/" not in said["message"], said["message"]
    # whatever a refusal was made from
    for line in (f"cannot open {store.location}", "disk full writing /srv/x y/db.sqlite",
                 "cannot connect to postgresql://ann@db.example/yacht: refused"):
        told = str(WebError(line, "store"))
        assert "/" not in told and "sqlite" not in told and "postgresql" not in told, told


def test_a_store_warning_tells_no_file_path(client: TestClient, store: Store,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose results the store could not record: the browsers are warned (an event,
    the snapshot's warning) without the database's location."""
    from yacht.store import StoreError

    def broken(*args: Any, **kw: Any) -> Any:
        raise StoreError(f"disk full writing {store.location}")

    monkeypatch.setattr(store, "finish_game", broken)
    t = new_table(client)
    with Browser(client, t["id"], t["token"]) as ann:
        while not (ann.snap["over"] and ann.snap["pause"] is None):
            s = ann.snap
            if s["pause"] is not None:
                ann.act({"type": "go_on"})
            elif not s["dice"]:
                ann.act({"type": "roll"})
            else:
                ann.act({"type": "score", "category": s["previews"][0]["category"]})
        if not any(e["kind"] == "store_warning" for e in ann.events):
            ann.until(lambda m: m.get("type") == "state" and any(
                e["kind"] == "store_warning" for e in ann.events), limit=50)
        warned = [e["text"] for e in ann.events if e["kind"] == "store_warning"]
        assert warned and all("disk full" in w for w in warned), warned
        told = json.dumps(warned) + json.dumps(ann.table)
        assert store.location not in told and "sqlite" not in told


def test_a_field_watcher_that_floods_is_told_so_then_closed(store: Store) -> None:
    """`/ws/d/GROUP` has the limits of a table's socket: past the rate every message with
    an id is answered `flood` (the socket stays), and one that keeps on is closed (1008).
    It was closed at its first message over the limit, with no word."""
    from yacht.web.channel import FLOOD_CLOSE

    for client in serve(store, rate=0.001, burst=3):
        made = client.post("/api/tables", json={"variant": "yatzy", "dice": "duplicate", "seats": [
            {"kind": "person", "name": "Ann", "here": True}, {"kind": "person", "here": False}]})
        assert made.status_code == 200, made.text
        with client.websocket_connect(f"/ws/d/{made.json()['group']}") as ws:
            ws.send_json({"type": "hello", "token": None})
            for i in range(6):
                ws.send_json({"type": "ping", "id": i})
            answers: list[dict[str, Any]] = []
            while len(answers) < 6:
                msg = ws.receive_json()
                if "id" in msg:
                    answers.append(msg)
            assert [a["id"] for a in answers] == list(range(6))
            assert [a["type"] for a in answers] == ["pong"] * 3 + ["error"] * 3
            assert {a.get("code") for a in answers[3:]} == {"flood"}
            for _ in range(FLOOD_CLOSE - 4):  # (quiet ones: no answer)
                ws.send_json({"type": "ping"})
            ws.send_json({"type": "ping", "id": 99})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    msg = ws.receive_json()
                    assert msg.get("code") == "flood" or msg["type"] == "field", msg
            assert closed.value.code == 1008
