"""Tables over WebSockets: a game alone, friends at one table with a watcher, reloads,
seats and tokens, and every kind of bad message answered to its sender only."""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from yacht.store import Store

from .browser import Browser
from .conftest import new_table


def play_my_turn(b: Browser, pick: random.Random) -> None:
    """Roll, maybe roll some dice again, score a random box: as the page would."""
    s = b.snap
    if s["can"]["go_on"] and not (s["seat"] and s["seat"]["my_turn"]):
        reply = b.act({"type": "go_on"}, s["version"])
        if reply["type"] != "ack":
            # the pause ended meanwhile (the computer's pace on a loaded machine): the
            # refusal says so, and the table has gone on
            assert reply.get("code") in ("stale", "illegal"), reply
            b.wait(lambda t, v=s["version"]: t["snapshot"]["version"] > v
                   or t["snapshot"]["pause"] is None)
        return
    if not s["dice"]:
        assert b.act({"type": "roll"}, s["version"])["type"] == "ack"
        s = b.snap
    while s["can"]["choose"] and (not s["previews"] or pick.random() < 0.3):
        assert b.act({"type": "select", "which": "all"})["type"] == "ack"
        assert b.act({"type": "roll"})["type"] == "ack"
        s = b.snap
    box = pick.choice(s["previews"])
    reply = b.act({"type": "score", "category": box["category"], "column": box["column"]})
    assert reply["type"] == "ack", reply


def test_a_solitaire_game_to_the_end(client: TestClient, store: Store,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # the hub closes a finished table after its browsers are told (hub.py _finished: a
    # store write, done when it is done); a slow one here, as on a loaded machine
    update_table = store.update_table

    def slow_update(*args: Any, **kw: Any) -> Any:
        if kw.get("closed"):
            time.sleep(0.3)
        return update_table(*args, **kw)

    monkeypatch.setattr(store, "update_table", slow_update)
    t = new_table(client, "tommys-crag")
    with Browser(client, t["id"], t["token"]) as b:
        assert b.seats == [0] and b.table["phase"] == "game"
        assert b.snap["can"]["roll"] and b.snap["seat"]["my_turn"]
        pick = random.Random(1)
        while not b.snap["finished"]:
            if b.snap["over"]:
                assert b.act({"type": "go_on"})["type"] == "ack"
                b.wait(lambda t: t["snapshot"]["finished"])
                break
            play_my_turn(b, pick)
        s = b.snap
        assert s["result"].startswith("Ann scored") and s["finished"]
        kinds = {e["kind"] for e in b.events}
        assert {"rolled", "scored", "game_over", "finished"} <= kinds
    # the game is in the store, finished, with Ann in the top ten
    top = client.get("/api/scores?variant=tommys-crag").json()
    assert top[0]["entries"][0]["name"] == "Ann"
    # closed (a moment after the end, hub.py _finished): not to join any more
    deadline = time.monotonic() + 10
    while (listed := client.get("/api/tables").json()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listed == []


def test_friends_online_with_a_watcher_and_a_computer(client: TestClient) -> None:
    t = new_table(client, "tommys-crag", seats=[
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "person", "here": False},
        {"kind": "beginner", "name": "Cpu"}])
    ann = Browser(client, t["id"], t["token"])
    assert ann.table["phase"] == "lobby" and ann.table["seats"][1]["open"]
    bob = Browser(client, t["id"])
    assert bob.seats == [] and not bob.table["can_start"]
    with pytest.raises(AssertionError):  # a watcher cannot act before joining
        assert bob.ask("start")["type"] == "ack"
    joined = bob.ask("join", seat=1, name="Bob")
    assert joined["type"] == "joined" and joined["seats"] == [1]
    bob.token = joined["token"]
    watcher = Browser(client, t["id"])
    for b in (ann, bob, watcher):
        b.wait(lambda t: t["phase"] == "game")
    assert [p["names"] for p in watcher.presence if p["seats"]] == [["Ann"], ["Bob"]]
    assert watcher.snap["seat"] is None and not any(watcher.snap["can"].values())
    # Bob may not play Ann's turn; the watcher may not play at all; nothing changes
    v = ann.snap["version"]
    assert bob.act({"type": "roll"})["code"] == "not_your_turn"
    assert watcher.act({"type": "roll"})["code"] == "not_your_turn"
    assert ann.snap["version"] == v
    pick = random.Random(2)
    players = {0: ann, 1: bob}
    for _ in range(2000):
        s = client.get(f"/api/tables/{t['id']}").json()["snapshot"]  # the server's truth
        if s["finished"]:
            break
        if s["players"][s["current"]]["kind"] == "computer" and s["pause"] is None \
                and not s["over"]:
            time.sleep(0.005)
            continue  # its driver plays on by itself
        # the page of whoever acts now, once it shows this version
        if s["pause"] == "next_player":
            me = players[s["last_score"]["player"]]
        else:
            me = players[0] if s["over"] else players[s["current"]]
        me.wait(lambda t, v=s["version"]: t["snapshot"]["version"] >= v)
        if me.snap["version"] != s["version"]:
            continue
        play_my_turn(me, pick)
    watcher.wait(lambda t: t["snapshot"]["finished"])
    assert watcher.snap["finished"], watcher.snap["help"]
    assert len(watcher.snap["winners"]) >= 1
    for b in (ann, bob, watcher):
        b.close()


def test_a_reload_comes_back_to_the_same_seat_and_state(client: TestClient) -> None:
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as b:
        b.act({"type": "roll"})
        b.act({"type": "toggle", "position": 1})
        before = b.snap
    with Browser(client, t["id"], t["token"]) as again:  # the page reloaded
        assert again.seats == [0]
        s = again.snap
        assert (s["dice"], s["chosen"], s["version"]) == (before["dice"], [1], before["version"])
        assert again.act({"type": "roll"})["type"] == "ack"
    with Browser(client, t["id"], "a-forged-token-of-enough-length") as forged:
        assert forged.seats == [] and forged.act({"type": "roll"})["code"] == "not_your_turn"


def test_bad_messages_get_an_error_for_their_sender_only(client: TestClient,
                                                          store: Store) -> None:
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as b, Browser(client, t["id"]) as other:
        b.act({"type": "roll"})
        version = b.snap["version"]
        other.wait(lambda t: t["snapshot"]["version"] == version)
        heard = list(other.events)
        assert [e["kind"] for e in heard][-1:] == ["rolled"]
        log = store.load_record(b.table["snapshot"]["game_id"]).actions
        cases: list[Any] = [
            "not json", "[1, 2]", json.dumps({"type": "dance"}),
            json.dumps({"type": "command", "command": {"type": "toggle", "position": 99}}),
            json.dumps({"type": "command", "command": "roll"}),
            json.dumps({"type": "command", "command": {"type": "roll"}, "version": "x"}),
            json.dumps({"type": "command", "command": {"type": "roll"}, "version": 0}),
            json.dumps({"type": "command", "command": {"type": "score", "category": 7}}),
            json.dumps({"type": "join", "seat": 5, "name": "Eve"}),
            json.dumps({"type": "speed", "speed": "warp"}),
            json.dumps({"type": "command", "command": {"type": "roll", "result": [6] * 5}}),
            "[" * 1000 + "]" * 1000,
        ]
        for raw in cases:
            b.ws.send_text(raw)
            reply = b.until(lambda m: m.get("type") == "error")
            assert reply["message"] and "\n" not in reply["message"], raw[:40]
            assert reply["code"] in ("bad_request", "stale", "conflict"), raw[:40]
        assert store.load_record(b.table["snapshot"]["game_id"]).actions == log
        assert other.ask("ping")["type"] == "pong"  # the other page heard none of it
        assert other.events == heard and other.snap["version"] == version


def test_a_flood_is_told_then_closed(client: TestClient) -> None:
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as b:
        for _ in range(300):
            b.ws.send_text(json.dumps({"type": "ping"}))
        codes = set()
        with pytest.raises(WebSocketDisconnect):
            for _ in range(1000):
                msg = b.recv()
                if msg.get("type") == "error":
                    codes.add(msg["code"])
        assert "flood" in codes
    with Browser(client, t["id"], t["token"]) as again:  # the table itself is fine
        assert again.act({"type": "roll"})["type"] == "ack"


def test_another_origin_is_refused(client: TestClient) -> None:
    t = new_table(client, "yatzy")
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
            f"/ws/{t['id']}", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    assert e.value.code == 1008
    with client.websocket_connect(f"/ws/{t['id']}",
                                  headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["type"] == "welcome"


def test_only_a_hash_of_a_seat_token_is_stored(client: TestClient, store: Store) -> None:
    t = new_table(client, "yatzy")
    row = store.load_table(t["id"])
    assert row.seats[0].token == hashlib.sha256(t["token"].encode()).hexdigest()
    assert t["token"] not in json.dumps([s.to_json() for s in row.seats])


def test_two_friends_racing_for_one_seat(client: TestClient) -> None:
    t = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                          {"kind": "person", "here": False}])
    with Browser(client, t["id"]) as bob, Browser(client, t["id"]) as cy:
        assert bob.ask("join", seat=1, name="Bob")["type"] == "joined"
        late = cy.ask("join", seat=1, name="Cy")
        assert late["type"] == "error" and "taken" in late["message"]
        assert cy.ask("join", seat=0, name="Ann")["code"] == "conflict"


def test_names_are_text_never_markup(client: TestClient) -> None:
    t = new_table(client, "yatzy", seats=[
        {"kind": "person", "name": "<b>Ann</b>", "here": True},
        {"kind": "person", "name": "Bob", "here": True}])
    with Browser(client, t["id"], t["token"]) as b:
        names = [p["name"] for p in b.snap["players"]]
    assert names == ["<b>Ann</b>", "Bob"]  # kept as text (the page shows text)
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "\x1b[31mBob", "here": True}]})
    assert r.status_code == 400 and "control" in r.json()["error"]


def test_a_saved_game_continues_in_the_browser(client: TestClient, store: Store) -> None:
    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.web.claims import hand_to_browser

    s = State(get("yatzy"), [Player("Ann"), Player("Cpu", "computer", "expert")],
              rng=random.Random(3))
    s.apply(Roll())
    gid = store.start_game(Record.from_state(s, source="tui"))
    row, key = hand_to_browser(store, gid)  # what `yacht resume ID --web` links to
    r = client.post(f"/api/tables/{row.id}/claim", json={"key": key}).json()
    assert r["seats"] == [0] and r["token"] != key
    with Browser(client, r["id"], r["token"]) as b:
        assert b.seats == [0] and b.snap["dice"] == list(s.dice)
        assert b.snap["players"][1]["kind"] == "computer"
    again = client.post(f"/api/tables/{row.id}/claim", json={"key": key})
    assert again.status_code == 409 and "used already" in again.json()["error"]


def test_the_host_of_a_computers_game_sets_its_pace(client: TestClient) -> None:
    t = new_table(client, "tommys-crag", speed="slow",
                  seats=[{"kind": "expert", "name": "A"}, {"kind": "beginner", "name": "B"}])
    with Browser(client, t["id"], t["token"]) as host, Browser(client, t["id"]) as watcher:
        assert host.seats == [] and host.table["host"] and not watcher.table["host"]
        assert host.ask("speed", speed="instant")["type"] == "ack"
        assert watcher.ask("speed", speed="slow")["code"] == "not_your_turn"
        host.wait(lambda tb: tb["snapshot"]["speed"] == "instant")


def test_a_friends_seat_kept_under_a_name_is_taken_with_it(client: TestClient) -> None:
    t = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                          {"kind": "person", "name": "Bob", "here": False}])
    with Browser(client, t["id"]) as bob:
        assert bob.ask("join", seat=1, name="Bob")["type"] == "joined"


def test_a_flood_still_answers_every_message_waiting_for_an_answer(client: TestClient) -> None:
    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as b:
        for i in range(60):
            b.ws.send_json({"type": "ping", "id": 1000 + i})
        answered = {b.until(lambda m: m.get("id", 0) >= 1000)["id"] for _ in range(60)}
        assert answered == set(range(1000, 1060))  # pongs, then flood errors, none lost


def test_games_say_their_table_and_tables_their_game(client: TestClient) -> None:
    t = new_table(client, "yatzy")
    listed = client.get("/api/tables").json()[0]
    assert listed["game_id"] is not None
    mine = client.post("/api/my/games", json={"tables": {t["id"]: t["token"]}}).json()
    assert [(g["table"], g["id"]) for g in mine] == [(t["id"], listed["game_id"])]


def test_a_resumed_table_counts_versions_from_its_actions(client: TestClient,
                                                          store: Store) -> None:
    from yacht.session.table import Table

    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as b:
        b.act({"type": "roll"})
        b.act({"type": "toggle", "position": 0})
        gid = b.snap["game_id"]
    assert Table.resume(store, gid).version == 2  # as after a restart


def test_a_page_sees_the_moves_another_process_played_since_the_table_was_loaded(
        client: TestClient, store: Store, tmp_path: Any) -> None:
    """The terminal game (``yacht resume``, another process on the same store) played on
    while the table was loaded here: a page that connects then is sent the game as the
    store has it, and its first move counts (it was refused as stale)."""
    from yacht.engine import Choose, Roll
    from yacht.session import LOCAL
    from yacht.session.table import Table
    from yacht.store import open_store

    t = new_table(client, "yatzy")
    with Browser(client, t["id"], t["token"]) as b:
        assert b.act({"type": "roll"})["type"] == "ack"
        gid, version = b.snap["game_id"], b.snap["version"]
    other = open_store(str(tmp_path / "web.sqlite3"))  # (the terminal's own connection)
    try:
        there = Table.resume(other, gid, pauses=False)
        there.act(LOCAL, Choose((0, 1, 2, 3, 4)), Roll())
        assert there.action_count == 3
    finally:
        other.close()
    with Browser(client, t["id"], t["token"]) as b:
        s = b.snap
        assert s["version"] > version and s["dice"] == list(there.view().state.dice)
        assert s["rolls"] == 2
        box = s["previews"][0]
        reply = b.act({"type": "score", "category": box["category"],
                       "column": box["column"]}, s["version"])
        assert reply["type"] == "ack", reply


def test_a_join_that_starts_the_game_sends_one_state(client: TestClient) -> None:
    """Joining the last open seat sent every browser at the table the same state twice,
    one after the other (QA s23): the game's start marked a state due, the join's
    await for the new seat's choices let it go out, and the join marked another one
    after it, with nothing changed between. One state now, carrying the game, then the
    ``joined``."""
    t = new_table(client, "yatzy", seats=[
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "person", "here": False}])

    def until_pong(b: Browser, tag: str) -> list[dict[str, Any]]:
        b.ws.send_json({"type": "ping", "id": tag})
        said: list[dict[str, Any]] = []
        while not said or said[-1].get("id") != tag:
            said.append(b.recv())
        return said

    with Browser(client, t["id"], t["token"]) as ann, \
            Browser(client, t["id"], prefs={"dice_mark": "hold"}) as bob:
        until_pong(ann, "before")  # (the state that shows Bob watching)
        bob.ws.send_json({"type": "join", "seat": 1, "name": "Bob", "id": "j"})
        said = until_pong(bob, "after")
        assert [m["type"] for m in said] == ["state", "joined", "pong"], said
        assert said[0]["table"]["phase"] == "game"
        snap = said[0]["table"]["snapshot"]
        assert snap["seat"] is not None and snap["dice_mark"] == "hold"  # (its choices)
        said = until_pong(ann, "after")
        assert [m["type"] for m in said] == ["state", "pong"], said
        assert said[0]["table"]["phase"] == "game"
