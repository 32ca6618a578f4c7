"""Online tables that keep going: a turn clock the server keeps, a seat handed to the
computer while its person is away (and taken back), and a new game at the same link."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from fastapi.testclient import TestClient

from yacht.engine import Score
from yacht.store import Store

from .browser import Browser
from .conftest import new_table
from .test_web_tables import play_my_turn

FRIENDS = [{"kind": "person", "name": "Ann", "here": True}, {"kind": "person", "here": False}]


def friends(client: TestClient, names: list[str], **kw: Any) -> tuple[str, list[Browser]]:
    """A table of people: the first here, each other joining from a browser of their own."""
    seats = [{"kind": "person", "name": names[0], "here": True}] + [
        {"kind": "person", "here": False} for _ in names[1:]]
    t = new_table(client, kw.pop("variant", "tommys-crag"), seats=seats, **kw)
    pages = [Browser(client, t["id"], t["token"])]
    for i, name in enumerate(names[1:], 1):
        page = Browser(client, t["id"])
        joined = page.ask("join", seat=i, name=name)
        assert joined["type"] == "joined", joined
        page.token = joined["token"]
        pages.append(page)
    for p in pages:
        p.wait(lambda t: t["phase"] == "game")
    return t["id"], pages


def scores(store: Store, game_id: str) -> list[Score]:
    return [a for a in store.load_record(game_id).actions if isinstance(a, Score)]


def test_a_clock_out_of_its_limits_is_refused(client: TestClient) -> None:
    body: dict[str, Any] = {"variant": "yatzy", "seats": FRIENDS}
    for clock in ({"kind": "turn", "seconds": 4}, {"kind": "turn", "seconds": 601},
                  {"kind": "bank", "seconds": 10, "minutes": 0}, {"kind": "turn", "seconds": "30"},
                  {"kind": "sand", "seconds": 30}, {"kind": "turn", "seconds": 30, "extra": 1}):
        r = client.post("/api/tables", json={**body, "clock": clock})
        assert r.status_code == 400 and r.json()["code"] == "bad_request", (clock, r.text)
        assert "\n" not in r.json()["error"]
    r = client.post("/api/tables", json={**body, "absent_after": 5})
    assert r.status_code == 400
    assert client.get("/api/tables").json() == []  # nothing was made


def test_the_clock_plays_the_turn_of_a_player_who_does_not(client: TestClient,
                                                           store: Store) -> None:
    table, (ann, bob) = friends(client, ["Ann", "Bob"],
                                clock={"kind": "turn", "seconds": 5})
    clock = ann.snap["clock"]
    assert clock["kind"] == "turn" and clock["player"] == 0 and clock["text"] == "5 s a turn"
    left = clock["deadline"] - time.time() * 1000
    assert 0 < left <= 5000
    assert ann.act({"type": "roll"})["type"] == "ack"  # ... and then Ann does nothing
    bob.wait(lambda t: t["snapshot"]["current"] == 1)
    s = bob.snap
    assert s["cards"][0]["played_by"][0]["by"] == "clock" and s["assisted"]
    assert s["clock"]["player"] == 1
    assert any(e["kind"] == "clock" and e["player"] == 0 for e in bob.events)
    assert [sc.by for sc in scores(store, s["game_id"])] == ["clock"]  # once
    # Bob plays his turn in time: nothing of his is the clock's
    play_my_turn(bob, random.Random(1))
    ann.wait(lambda t: t["snapshot"]["current"] == 0)
    assert [sc.by for sc in scores(store, s["game_id"])] == ["clock", None]
    assert store.game_info(s["game_id"]).assisted  # ranked like an assisted game
    for p in (ann, bob):
        p.close()


def test_a_vote_hands_an_absent_seat_to_the_computer_and_its_owner_takes_it_back(
        client: TestClient, store: Store) -> None:
    table, (ann, bob, cy, dee) = friends(client, ["Ann", "Bob", "Cy", "Dee"], variant="yatzy",
                                         absent_after=30)
    watcher = Browser(client, table)
    live = client.app.state.hub.find(table)  # type: ignore[attr-defined]
    dee_token = dee.token
    dee.close()
    bob.wait(lambda t: not t["seats"][3]["connected"])
    assert bob.table["seats"][3]["absent"] is not None and not bob.table["seats"][3]["can_vote"]
    refused = bob.ask("away", seat=3)
    assert refused["code"] == "conflict" and re.match(
        r"Dee has been away \d+ s: the seat can be handed to the computer after 30 s away",
        refused["message"]), refused
    live.absent[3] -= 60  # (a minute passes)
    assert watcher.ask("away", seat=3)["code"] == "not_your_turn"
    assert bob.ask("away", seat=1)["code"] == "conflict"  # his own seat
    assert bob.ask("away", seat=2)["code"] == "conflict"  # Cy is here
    assert bob.ask("away", seat=5)["code"] == "bad_request"  # no such seat
    assert bob.ask("away", seat=3, on=False)["code"] == "conflict"  # no vote to take back
    assert bob.ask("away", seat=3)["type"] == "ack"
    seat = bob.wait(lambda t: t["seats"][3]["votes"] == 1)["seats"][3]
    assert not seat["away"] and seat["needed"] == 2 and seat["voted"]
    assert cy.ask("away", seat=3)["type"] == "ack"  # two of Ann, Bob and Cy
    s = ann.wait(lambda t: t["seats"][3]["away"])["snapshot"]
    assert s["stand_ins"] == [3]
    pick = random.Random(3)
    for me in (ann, bob, cy):
        me.wait(lambda t: t["snapshot"]["seat"]["my_turn"])
        play_my_turn(me, pick)
    ann.wait(lambda t: t["snapshot"]["current"] == 0)  # the computer played Dee's turn
    assert [sc.by for sc in scores(store, s["game_id"])] == [None, None, None, "stand_in"]
    dee = Browser(client, table, dee_token)  # Dee opens her link again
    for p in (ann, bob, cy, dee):  # (the seat back is a new version of the table)
        p.wait(lambda t: not t["seats"][3]["away"] and t["snapshot"]["stand_ins"] == [])
    for me in (ann, bob, cy):
        me.wait(lambda t: t["snapshot"]["seat"]["my_turn"])
        play_my_turn(me, pick)
    s = dee.wait(lambda t: t["snapshot"]["seat"]["my_turn"])["snapshot"]
    assert s["can"]["roll"]  # her own turn again
    # her card says which of her turns the computer played (the page counts those since
    # she last left from it: tests/web_browser/test_played_for_you.py)
    assert [(b["by"], b["turn"]) for b in s["cards"][3]["played_by"]] == [("stand_in", 1)]
    for p in (ann, bob, cy, dee, watcher):
        p.close()


def test_the_host_hands_a_seat_over_alone_but_not_at_a_table_with_a_clock(
        client: TestClient) -> None:
    table, (ann, bob, cy) = friends(client, ["Ann", "Bob", "Cy"], absent_after=30)
    live = client.app.state.hub.find(table)  # type: ignore[attr-defined]
    bob.close()
    ann.wait(lambda t: not t["seats"][1]["connected"])
    live.absent[1] -= 60
    assert ann.ask("away", seat=1)["type"] == "ack"  # Ann made the table
    ann.wait(lambda t: t["seats"][1]["away"])
    for p in (ann, cy):
        p.close()
    clocked, (dee, eve) = friends(client, ["Dee", "Eve"], clock={"kind": "turn", "seconds": 60})
    client.app.state.hub.find(clocked).absent[1] = 0.0  # type: ignore[attr-defined]
    eve.close()
    assert "clock" in dee.ask("away", seat=1)["message"]
    dee.close()


def finish(pages: list[Browser]) -> dict[str, Any]:
    """Play the game to its end and past its results."""
    pick = random.Random(4)
    by_seat = dict(enumerate(pages))
    for _ in range(500):
        s = pages[0].snap
        if s["finished"]:
            return s
        me = by_seat[0] if s["over"] or s["pause"] else by_seat[s["current"]]
        me.wait(lambda t, v=s["version"]: t["snapshot"]["version"] >= v)
        if me.snap["over"]:
            me.act({"type": "go_on"})
            pages[0].wait(lambda t: t["snapshot"]["finished"])
            continue
        if me.snap["version"] == s["version"]:
            play_my_turn(me, pick)
        pages[0].wait(lambda t, v=s["version"]: t["snapshot"]["version"] > v)
    raise AssertionError("the game did not end")


def test_play_again_at_the_same_link(client: TestClient, store: Store) -> None:
    table, (ann, bob) = friends(client, ["Ann", "Bob"])
    watcher = Browser(client, table)
    assert ann.ask("again")["code"] == "not_finished"  # the game is under way
    assert ann.table["snapshot"]["speed"] == "instant"  # (the tests' tables)
    assert bob.ask("speed", speed="fast")["type"] == "ack"  # kept for the next game too
    assert store.load_table(table).speed == "fast"
    first = finish([ann, bob])
    assert ann.wait(lambda t: t["can_again"])["series"] == {"games": 0, "wins": [0, 0]}
    assert watcher.ask("again")["code"] == "not_your_turn"
    assert ann.ask("again")["type"] == "ack"
    lobby = bob.wait(lambda t: t["phase"] == "lobby")
    assert [s["ready"] for s in lobby["seats"]] == [True, False] and lobby["speed"] == "fast"
    winners = {first["players"][i]["name"] for i in first["winners"]}
    assert lobby["series"] == {"games": 1, "wins": [int("Ann" in winners),
                                                    int("Bob" in winners)]}
    assert bob.ask("again")["type"] == "ack"  # Bob accepts: the new game starts
    for p in (ann, bob, watcher):
        s = p.wait(lambda t: t["phase"] == "game"
                   and t["snapshot"]["game_id"] != first["game_id"])["snapshot"]
        assert s["turn"] == 1 and not s["over"] and s["speed"] == "fast"
    assert ann.snap["players"][0]["mine"] and bob.snap["players"][1]["mine"]  # same seats
    assert ann.table["series"]["games"] == 1
    assert store.game_info(first["game_id"]).finished is not None  # the first one stays
    assert ann.ask("leave")["code"] == "conflict"  # (a game is under way)
    for p in (ann, bob, watcher):
        p.close()


def test_who_leaves_is_not_waited_for(client: TestClient) -> None:
    table, (ann, bob) = friends(client, ["Ann", "Bob"])
    finish([ann, bob])
    bob.wait(lambda t: t["can_again"])
    assert bob.ask("again")["type"] == "ack"
    ann.wait(lambda t: t["phase"] == "lobby")
    assert ann.ask("leave")["type"] == "ack"
    s = bob.wait(lambda t: t["phase"] == "game")["snapshot"]
    assert [p["name"] for p in s["players"]] == ["Bob"]
    ann.wait(lambda t: t["phase"] == "game" and t["snapshot"]["seat"] is None)  # watching
    for p in (ann, bob):
        p.close()


def test_a_bank_clock_says_each_players_bank(client: TestClient) -> None:
    table, (ann, bob) = friends(client, ["Ann", "Bob"],
                                clock={"kind": "bank", "minutes": 2, "seconds": 10})
    clock = bob.snap["clock"]
    assert clock["kind"] == "bank" and clock["banks"] == [120_000, 120_000]
    assert clock["text"] == "2 min each + 10 s a turn" and 0 < clock["left"] <= 130_000
    lobby_clock = client.get(f"/api/tables/{table}").json()["snapshot"]["clock"]
    assert lobby_clock["per_turn"] == 10
    for p in (ann, bob):
        p.close()


def test_a_clocked_game_no_one_looks_at_plays_on(client: TestClient) -> None:
    """Everyone closed the tab: the table stays loaded while its clock plays on (a table
    without a clock is unloaded, and taken up from the store when someone comes back)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    clocked, pages = friends(client, ["Ann", "Bob"], clock={"kind": "turn", "seconds": 60})
    plain, more = friends(client, ["Cy", "Dee"])
    for p in pages + more:
        p.close()
    for _ in range(200):
        if not hub.find(clocked).connections and not hub.find(plain).connections:
            break
        time.sleep(0.01)
    unloaded = client.portal.call(hub.unload_idle, -1.0)  # type: ignore[union-attr]
    assert unloaded == 1 and hub.find(plain) is None and hub.find(clocked) is not None
