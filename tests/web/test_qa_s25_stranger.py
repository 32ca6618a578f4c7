"""QA s25: a stranger on the network against a running server (uvicorn on the loopback,
as ``yacht web`` serves): what the older trust and fuzz tests did not try."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from yacht.store import Store

from .browser import Browser
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


def test_a_finished_card_keeps_its_seed_while_another_card_is_played(
        client: TestClient, store: Store) -> None:
    """Every card of a duplicate table plays on one seed. A card finished first showed
    that seed (its snapshot's ``dice_seed``, and ``GET /api/games/ID/verify``) while a
    friend's card was still played on it: every die still to come of theirs, in every
    position, could be worked out and told them. The seed is shown once the field's end
    is there (every card taken is full)."""
    from yacht.engine.dice import commitment_of

    from .test_web_duplicate import ANN, BOB, Player, duplicate, turn

    made = duplicate(client, ANN, BOB)
    with Player(client, made["id"], made["token"]) as ann:
        group = ann.field["group"]
        length = ann.field["length"]
        cards = store.load_group(group).cards
        with Player(client, cards[1]) as bob:
            assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
            turn(bob)
            for _ in range(length):
                turn(ann)
            snap = _to_the_end(ann)
            assert "seed" not in snap["dice_seed"], snap["dice_seed"]
            r = client.get(f"/api/games/{snap['game_id']}/verify")
            assert r.status_code == 403 and r.json()["code"] == "private"
            assert "seed" not in json.dumps(client.get(f"/api/groups/{group}").json())
            for _ in range(length - 1):
                turn(bob)
            _to_the_end(bob)
            bob.field_when(lambda m: m["end"] is not None)
            # ... then it is shown, to both, and checked
            shown = ann.wait(lambda t: "seed" in t["snapshot"]["dice_seed"])
            seed = shown["snapshot"]["dice_seed"]["seed"]
            assert commitment_of(bytes.fromhex(seed)) == snap["dice_seed"]["commitment"]
            bob.wait(lambda t: t["snapshot"]["dice_seed"].get("seed") == seed)
            r = client.get(f"/api/games/{snap['game_id']}/verify")
            assert r.status_code == 200 and r.json()["ok"] and r.json()["seed"] == seed


def _to_the_end(page: Browser) -> dict[str, Any]:
    """A card whose last box is scored, past its pauses: its snapshot."""
    while (s := page.snap)["pause"] is not None or not s["over"]:
        if s["pause"] is not None:
            assert page.act({"type": "go_on"})["type"] == "ack"
        else:
            page.recv()
    return page.snap


@pytest.mark.parametrize(("extra", "says"), [
    ({"clock": {"kind": "weekly"}}, "clock.kind: none, turn or bank (the table's clock)"),
    ({"clock": {"kind": "turn", "seconds": 1}},
     "clock: a turn clock gives 5-600 seconds a turn, not 1"),
    ({"clock": {"kind": "turn", "seconds": "5"}}, "clock.seconds: a whole number of seconds"),
    ({"clock": {"kind": "bank", "minutes": 0}}, "clock: a bank gives each player 1-60 minutes"),
    ({"clock": "turn"}, "clock: a JSON object is expected"),
    ({"absent_after": 5}, "absent_after: a whole number of seconds, 30-3600"),
    ({"absent_after": "60"}, "absent_after: a whole number of seconds, 30-3600"),
])
def test_a_new_tables_clock_and_absence_are_told_in_the_sites_words(
        client: TestClient, extra: dict[str, Any], says: str) -> None:
    """A clock's kind was refused as 'person or a computer level (...)' (a seat's help),
    a clock out of its limits as 'clock: Value error, ...', and absent_after and a
    clock's numbers in the validator's own words ('Input should be ...')."""
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann", "here": True}], **extra})
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    said = r.json()["error"]
    assert said.startswith(says), said
    assert "Value error" not in said and "Input should" not in said and "level" not in said


@pytest.mark.parametrize("body", [b"[1]", b"null", b'"x"', b"5"])
def test_a_body_not_an_object_is_called_the_body(client: TestClient, body: bytes) -> None:
    """It was 'the message: ...', the word of a socket's message."""
    for path in ("/api/tables", "/api/score", "/api/my/games", "/api/daily"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, path
        assert r.json() == {"error": "the body: a JSON object is expected",
                            "code": "bad_request"}, path


def test_the_pace_is_set_in_the_lobby_by_a_seated_player_or_the_host(
        client: TestClient) -> None:
    """In the lobby a `speed` was refused to everyone, the host too, with 'only a player
    at the table (or its host) sets the pace'; it is the table's pace, and its game
    starts at it. A watcher is still refused."""
    made = client.post("/api/tables", json={"variant": "yatzy", "speed": "slow", "seats": [
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "person", "here": False},
        {"kind": "expert"}]}).json()
    with Browser(client, made["id"], made["token"]) as ann, \
            Browser(client, made["id"]) as stranger:
        assert ann.table["phase"] == "lobby"
        said = stranger.ask("speed", speed="instant")
        assert said["type"] == "error" and said["code"] == "not_your_turn"
        assert ann.ask("speed", speed="fast")["type"] == "ack"
        stranger.wait(lambda t: t["speed"] == "fast")
        assert client.get(f"/api/tables/{made['id']}").json()["speed"] == "fast"
        assert ann.ask("start")["type"] == "ack"
        assert ann.wait(lambda t: t["phase"] == "game")["snapshot"]["speed"] == "fast"
