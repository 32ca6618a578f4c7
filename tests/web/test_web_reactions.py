"""Reactions: a fixed few, from a seated player or a watcher to everyone at the table;
no free text, a limit per browser and per table, off by a table setting, and never a
game action (nothing stored, no new version)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from yacht.store import Store
from yacht.web import reactions
from yacht.web.protocol import REACTIONS

from .browser import Browser
from .conftest import new_table


class Page(Browser):
    """A browser that keeps every reaction it is sent (``reactions``), in order."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        self.reactions: list[dict[str, Any]] = []
        super().__init__(*args, **kw)

    def recv(self) -> dict[str, Any]:
        msg = super().recv()
        if msg.get("type") == "reaction":
            self.reactions.append(msg)
        return msg


def friends(client: TestClient, **kw: Any) -> tuple[dict[str, Any], Page, Page]:
    """Ann and Bob at a table whose game has started (Ann's page, Bob's page)."""
    made = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                              {"kind": "person", "here": False}], **kw)
    ann = Page(client, made["id"], made["token"])
    bob = Page(client, made["id"])
    assert bob.ask("join", seat=1, name="Bob")["type"] == "joined"
    ann.wait(lambda t: t["phase"] == "game")
    bob.wait(lambda t: t["phase"] == "game")
    return made, ann, bob


def reaction(page: Page) -> dict[str, Any]:
    """The oldest reaction the page has not looked at yet."""
    if not page.reactions:
        page.until(lambda m: m.get("type") == "reaction")
    return page.reactions.pop(0)


def test_a_reaction_reaches_everyone_at_the_table_and_changes_nothing(
        client: TestClient, store: Store) -> None:
    made, ann, bob = friends(client)
    watcher = Page(client, made["id"])
    with ann, bob, watcher:
        version = ann.snap["version"]
        assert ann.table["reactions"] is True
        assert ann.ask("react", reaction="clap")["type"] == "ack"
        for page in (ann, bob, watcher):
            assert reaction(page) == {"type": "reaction", "reaction": "clap", "seats": [0],
                                      "names": ["Ann"]}
        assert watcher.ask("react", reaction="luck")["type"] == "ack"
        for page in (ann, bob, watcher):  # a watcher is no one's seat and has no name
            assert reaction(page) == {"type": "reaction", "reaction": "luck", "seats": [],
                                      "names": []}
        assert bob.ask("ping")["type"] == "pong"
        assert bob.snap["version"] == version  # no new version of the table
        assert store.load_record(ann.snap["game_id"]).actions == []  # nothing stored


def test_reactions_past_the_limit_are_refused_and_heard_by_no_one(client: TestClient) -> None:
    made, ann, bob = friends(client)
    with ann, bob:
        for name in REACTIONS[:reactions.PER_SENDER]:
            assert ann.ask("react", reaction=name)["type"] == "ack"
        refused = ann.ask("react", reaction="sad")
        assert refused["type"] == "error" and refused["code"] == "flood"
        assert refused["message"] == "at most 3 reactions in 10 seconds: wait a moment"
        # Bob's own are his: the limit is each browser's
        assert bob.ask("react", reaction="wow")["type"] == "ack"
        assert bob.ask("ping")["type"] == "pong"
        # what Bob's page heard, in order: Ann's three and his own, not the refused one
        assert [m["reaction"] for m in bob.reactions] == [*REACTIONS[:3], "wow"]


def test_many_watchers_never_silence_the_players(client: TestClient) -> None:
    """Watchers at one address are one sender however many sockets they open (3 in the
    window), and the players keep their own share (QA s25: 5 watchers took all 12)."""
    made, ann, bob = friends(client)
    watchers = [Browser(client, made["id"]) for _ in range(5)]
    try:
        answers = [w.ask("react", reaction="dice") for w in watchers for _ in range(3)]
        taken = [a for a in answers if a["type"] == "ack"]
        refused = [a for a in answers if a["type"] == "error"]
        assert len(taken) == reactions.PER_SENDER and len(refused) == 12
        assert {a["code"] for a in refused} == {"flood"}
        assert "at most 3 reactions in 10 seconds" in refused[0]["message"]
        for player in (ann, bob):
            assert [player.ask("react", reaction="clap")["type"] for _ in range(3)] == \
                ["ack"] * 3
    finally:
        for w in watchers:
            w.close()
        ann.close()
        bob.close()


def test_a_window_lets_reactions_again_once_the_oldest_is_old_enough() -> None:
    window = reactions.Window(3, 10.0)
    for at in (0.0, 1.0, 2.0):
        assert window.free(at)
        window.take(at)
    assert not window.free(9.9)
    assert window.free(10.0)  # the first one is 10 seconds old
    window.take(10.0)
    assert not window.free(10.5)


def test_only_the_listed_reactions_no_text_and_no_other_field(client: TestClient) -> None:
    made, ann, bob = friends(client)
    with ann, bob:
        for bad in ({"reaction": "hug"}, {"reaction": "👏"}, {"reaction": "clap" * 900},
                    {"reaction": "clap", "text": "well played"}, {"reaction": None},
                    {"reaction": ["clap"]}, {}):
            refused = ann.ask("react", **bad)
            assert refused["type"] == "error" and refused["code"] == "bad_request", bad
            assert "\n" not in refused["message"]
        assert ann.ask("react", reaction="hug")["message"] == \
            "reaction: one of clap, wow, laugh, dice, luck, sad"
        assert ann.ask("react", reaction="clap")["type"] == "ack"
        # a frame longer than the protocol's limit closes that socket, as any other
        ann.ws.send_json({"type": "react", "reaction": "clap" * 1100})
        with pytest.raises(WebSocketDisconnect) as closed:
            ann.until(lambda m: False)
        assert closed.value.code == 1009
        assert bob.ask("react", reaction="wow")["type"] == "ack"  # the table goes on


def test_a_table_made_without_reactions_refuses_them(client: TestClient) -> None:
    made, ann, bob = friends(client, reactions=False)
    with ann, bob:
        assert ann.table["reactions"] is False and bob.table["reactions"] is False
        refused = bob.ask("react", reaction="clap")
        assert refused["type"] == "error" and refused["code"] == "reactions_off"
        assert refused["message"] == "this table was made without reactions"
    assert client.get(f"/api/tables/{made['id']}").json()["reactions"] is False
    refused_body = client.post("/api/tables", json={
        "variant": "yatzy", "reactions": "no", "seats": [{"kind": "person", "name": "Ann"}]})
    assert refused_body.status_code == 400
    assert refused_body.json()["error"] == "reactions: true or false (the table takes reactions)"


def test_no_reactions_in_the_lobby(client: TestClient) -> None:
    made = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                              {"kind": "person", "here": False}])
    with Browser(client, made["id"], made["token"]) as ann:
        assert ann.table["phase"] == "lobby" and ann.table["reactions"] is True
        refused = ann.ask("react", reaction="clap")
        assert refused["type"] == "error" and refused["code"] == "not_started"


def test_a_flood_of_reactions_reaches_no_one_past_the_limit(client: TestClient) -> None:
    """A stranger's socket sends reactions as fast as it can (as if 10,000 a second):
    three are shown, the rest are refused, the socket that keeps on is closed, and the
    players' game goes on."""
    made, ann, bob = friends(client)
    with ann, bob:
        stranger = Page(client, made["id"], "forged" * 5)  # (a token of no seat: a watcher)
        for i in range(400):
            stranger.ws.send_json({"type": "react", "reaction": "laugh", "id": i})
        answers: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                msg = stranger.recv()
                if "id" in msg:
                    answers.append(msg)
        assert closed.value.code == 1008  # it kept on flooding
        stranger.close()
        assert [a["type"] for a in answers[:3]] == ["ack"] * 3
        assert {(a["type"], a["code"]) for a in answers[3:]} == {("error", "flood")}
        assert bob.ask("ping")["type"] == "pong"
        assert [m["names"] for m in bob.reactions] == [[], [], []]  # three, and a watcher's
        assert ann.act({"type": "roll"})["type"] == "ack"


def test_another_processs_reaction_is_checked_again(store: Store) -> None:
    """News from another process names a known reaction and seats of this table; the
    names shown are this table's own, whatever the news says."""
    from yacht.rules import get
    from yacht.store.core import SeatRow
    from yacht.web.live import LiveTable

    row = store.create_table("yatzy", {}, "normal", [SeatRow("Ann", token="a"),
                                                     SeatRow("Bob", token="b")])
    live = LiveTable(row.id, row, get("yatzy"))
    assert reactions.heard(live, {"reaction": "wow", "seats": [1], "names": ["Mallory"]}) == {
        "type": "reaction", "reaction": "wow", "seats": [1], "names": ["Bob"]}
    from_a_watcher = reactions.heard(live, {"reaction": "sad", "seats": []})
    assert from_a_watcher is not None and from_a_watcher["names"] == []
    for bad in ({"reaction": "hug", "seats": [0]}, {"reaction": "wow", "seats": [2]},
                {"reaction": "wow", "seats": [-1]}, {"reaction": "wow", "seats": [True]},
                {"reaction": "wow", "seats": "0"}, {"reaction": "wow"},
                {"reaction": "wow", "seats": list(range(100))}, {"seats": [0]}):
        assert reactions.heard(live, bad) is None, bad
    off = store.create_table("yatzy", {}, "normal", [SeatRow("Ann", token="a")],
                             settings={"reactions": False})
    assert store.load_table(off.id).settings == {"reactions": False}
    quiet = LiveTable(off.id, off, get("yatzy"))
    assert reactions.heard(quiet, {"reaction": "wow", "seats": [0]}) is None
