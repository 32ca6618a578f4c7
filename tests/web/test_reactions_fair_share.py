"""Reactions are shared fairly (QA s25: one watcher used a table's 12 reactions in 10
seconds, from a few sockets or by opening a socket afresh, and the players' own were
refused). Each sender has its share - a seated player as their seat, a watcher as
their address, whatever sockets it opens - and the watchers all together a share of
their own, so the players can always react. Over the loopback, from several client
addresses (127.0.0.x)."""

from __future__ import annotations

from yacht.store import Store
from yacht.web import reactions

from .conftest import ThreadServer, random_players
from .real_sockets import RealPage

FRIENDS = {"variant": "yatzy", "seats": [{"kind": "person", "name": "Ann", "here": True},
                                         {"kind": "person", "here": False}]}


def react(page: RealPage) -> dict[str, object]:
    return page.ask({"type": "react", "reaction": "laugh"})


def test_a_watcher_cannot_silence_the_players(store: Store) -> None:
    from yacht.web import make_app

    app = make_app(store, strategy_factory=random_players, allowed_hosts=["127.0.0.1"])
    with ThreadServer(app) as server:
        made = server.post("/api/tables", FRIENDS)
        path = f"/ws/{made['id']}"
        ann = RealPage(server.port, path, "127.0.0.2", {"type": "hello",
                                                        "token": made["token"]})
        bob = RealPage(server.port, path, "127.0.0.3")
        assert bob.ask({"type": "join", "seat": 1, "name": "Bob"})["type"] == "joined"
        ann.until(lambda m: m["type"] == "state" and m["table"]["phase"] == "game")

        # a watcher's share is its address's: four sockets, one after the other and at
        # once, send three each; three are heard
        mallory = [RealPage(server.port, path, "127.0.0.9") for _ in range(2)]
        answers = [react(mallory[0]) for _ in range(3)]
        mallory[0].close()
        mallory += [RealPage(server.port, path, "127.0.0.9") for _ in range(2)]
        answers += [react(page) for page in mallory[1:] for _ in range(3)]
        assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"] * 9
        assert {a.get("code") for a in answers[3:]} == {"flood"}
        assert answers[3]["message"] == f"at most {reactions.PER_SENDER} reactions in 10 " \
                                        "seconds: wait a moment"
        # the watchers together have a share: another watcher's three fill it, a third's
        # are refused
        eve = RealPage(server.port, path, "127.0.0.10")
        assert [react(eve)["type"] for _ in range(3)] == ["ack"] * 3
        trent = RealPage(server.port, path, "127.0.0.11")
        refused = react(trent)
        assert refused["code"] == "flood" and refused["message"] == \
            f"the watchers' reactions are at most {reactions.WATCHERS} in 10 seconds " \
            "together: wait a moment"
        # the players' own shares are untouched: each is heard by everyone
        for player in (ann, bob):
            assert [react(player)["type"] for _ in range(3)] == ["ack"] * 3
            assert react(player)["code"] == "flood"   # (a seat's share is three too)
        assert trent.ask({"type": "ping"})["type"] == "pong"
        heard = [m["names"] for m in trent.seen if m["type"] == "reaction"]
        assert heard == [["Ann"]] * 3 + [["Bob"]] * 3
        # a second tab of a seat is the same sender as the first
        ann_again = RealPage(server.port, path, "127.0.0.4", {"type": "hello",
                                                              "token": made["token"]})
        assert react(ann_again)["code"] == "flood"
        for page in (ann, bob, ann_again, eve, trent, *mallory[1:]):
            page.close()
