"""Duplicate tables (issue 24, items 1, 2 and 4): every seat plays its own card at once
on one seed; a seat never sees a die or a box of a turn it has not finished - not over
the socket (its state, its field), not by the HTTP API, not in the snapshot; the end
ranks the totals beside the expert's actual total on the same dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from yacht.cli import main
from yacht.engine.dice import commitment_of
from yacht.store import Store
from yacht.web.protocol import SameDiceView, server_adapter

from .browser import Browser


class Player(Browser):
    """A page at a card: also keeps every field message it was sent."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None) -> None:
        self.fields: list[dict[str, Any]] = []
        super().__init__(client, table_id, token)

    def recv(self) -> dict[str, Any]:
        msg = super().recv()
        if msg.get("type") == "field":
            self.fields.append(msg)
        return msg

    def field_when(self, pred: Any) -> dict[str, Any]:
        """Until the newest field message satisfies ``pred`` (it may have come already)."""
        if self.fields and pred(self.fields[-1]):
            return self.fields[-1]
        return self.until(lambda m: m.get("type") == "field" and pred(m))

    @property
    def field(self) -> dict[str, Any]:
        if not self.fields:
            self.until(lambda m: m.get("type") == "field")
        return self.fields[-1]


def duplicate(client: TestClient, *seats: dict[str, Any], variant: str = "tommys-crag",
              **kw: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"variant": variant, "speed": "instant",
                                         "dice": "duplicate", "seats": list(seats), **kw})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


ANN = {"kind": "person", "name": "Ann", "here": True}
BOB = {"kind": "person", "name": "Bob", "here": False}


def turn(page: Player, pick: int = 0) -> None:
    """One turn: roll once, score the ``pick``-th open box."""
    s = page.wait(lambda t: t["phase"] == "game" and t["snapshot"]["seat"]["my_turn"]
                  and not t["snapshot"]["dice"])
    assert page.act({"type": "roll"})["type"] == "ack"
    s = page.wait(lambda t: bool(t["snapshot"]["dice"]))["snapshot"]
    assert page.act({"type": "score", "category": s["previews"][pick]["category"]},
                    s["version"])["type"] == "ack"


def analysis(client: TestClient, game_id: str) -> dict[str, Any]:
    """A finished game's analysis (asked again while the server is working on it)."""
    for _ in range(300):
        r = client.get(f"/api/games/{game_id}/analysis")
        if r.status_code != 202:
            break
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def check_field(field: dict[str, Any], done_here: int) -> None:
    """A player's field: no card shows a turn past the player's own finished ones."""
    assert field["upto"] == done_here or field["end"] is not None
    for card in field["cards"]:
        assert card["shown"] == len(card["turns"]) <= max(field["upto"], 0)
        assert all(t["turn"] <= field["upto"] for t in card["turns"])


def test_a_person_and_computers_play_at_once_and_see_no_turn_ahead(
        client: TestClient, store: Store, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    made = duplicate(client, ANN, {"kind": "expert"}, {"kind": "beginner", "name": "Cy"})
    with Player(client, made["id"], made["token"]) as ann:
        group = ann.field["group"]
        cards = store.load_group(group).cards
        assert cards[0] == made["id"] and len(cards) == 3
        # the computers play their own cards at once, to the end, without Ann
        watcher = client.get(f"/api/groups/{group}").json()
        assert watcher["upto"] == 0 and all(c["turns"] == [] for c in watcher["cards"])
        ann.field_when(lambda m: m["cards"][1]["done"] == 13 and m["cards"][2]["done"] == 13)
        for done in range(13):
            check_field(ann.field, done)
            assert ann.field["cards"][1]["done"] == 13  # (who is on which turn: shown)
            # Ann's own state holds no other card: her table has one player
            assert [p["name"] for p in ann.snap["players"]] == ["Ann"]
            turn(ann)
            ann.field_when(lambda m, d=done: m["cards"][0]["done"] == d + 1)
        end = ann.field["end"]
    assert end is not None
    records_ids = [store.load_table(c).game_id or "" for c in cards]
    records = [store.load_record(g) for g in records_ids]
    totals = [r.final_state().totals(0).grand for r in records]
    assert [p["total"] for p in sorted(end["ranking"], key=lambda p: p["card"])] == totals
    assert end["ranking"][0]["total"] == max(totals)
    assert end["expert"] == store.load_group(group).expert
    assert isinstance(end["expert"], int)
    # each turn's points against the mean of the others'
    points = [[t.points for t in r.turns()] for r in records]
    k = 4
    assert end["against"][0][k] == round(points[0][k] - (points[1][k] + points[2][k]) / 2, 2)
    assert end["best"][k] == [i for i in range(3) if points[i][k] == max(p[k] for p in points)]
    # yacht analyse of a card's game shows its group's games on the same dice
    capsys.readouterr()
    assert main(["analyse", records_ids[0], "--db", str(tmp_path / "web.sqlite3"),
                 "--win-games", "0", "--json"]) == 0
    same = json.loads(capsys.readouterr().out)["same_dice"]
    assert same == {k: end[k] for k in ("ranking", "expert", "against", "best")}
    assert main(["analyse", records_ids[0], "--db", str(tmp_path / "web.sqlite3"),
                 "--win-games", "0"]) == 0
    text = capsys.readouterr().out
    assert f"The expert's own game on these dice: {end['expert']}" in text
    assert "Ann, each turn against the mean of the others: " in text
    # ... and so does its analysis in the browser (GET /api/games/ID/analysis), each card
    # numbered among the games played, every turn shown, the end as the field's
    same_view = analysis(client, records_ids[1])["same_dice"]
    TypeAdapter(SameDiceView).validate_python(same_view)
    assert same_view["me"] == 1 and same_view["length"] == 13
    assert same_view["end"] == end
    assert [c["mine"] for c in same_view["cards"]] == [False, True, False]
    assert [[t["points"] for t in c["turns"]] for c in same_view["cards"]] == points
    assert [c["total"] for c in same_view["cards"]] == totals
    assert [c["name"] for c in same_view["cards"]] == [r.players[0].name for r in records]
    assert analysis(client, records_ids[2])["same_dice"]["me"] == 2
        # every card played the group's seed, and says so in its record
    seed = store.load_group(group).seed
    for c, r in zip(cards, records, strict=True):
        assert r.meta["duplicate"] == group and r.meta["table"] == c
        assert r.dice_seed is not None and r.dice_seed.commitment == commitment_of(seed)


def test_a_card_is_private_until_its_game_is_over(client: TestClient, store: Store) -> None:
    made = duplicate(client, ANN, {"kind": "expert"}, BOB, speed="slow")
    group_id = client.get(f"/api/tables/{made['id']}")
    assert group_id.status_code == 403 and group_id.json()["code"] == "private"
    assert client.get("/api/tables").json() == []
    with Player(client, made["id"], made["token"]) as ann:
        group = ann.field["group"]
        cards = store.load_group(group).cards
        # a watcher's socket at a started card is refused, and so is another card's token
        with client.websocket_connect(f"/ws/{cards[1]}") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["code"] == "private"
        with client.websocket_connect(f"/ws/{cards[0]}") as ws:
            ws.send_json({"type": "hello", "token": "x" * 32})
            assert ws.receive_json()["code"] == "private"
        # Bob's card waits for him: its lobby may be seen (to join it), not its game
        with Player(client, cards[2]) as bob:
            assert bob.table["phase"] == "lobby"
            joined = bob.ask("join", seat=0, name="Bob")
            assert joined["type"] == "joined"
            bob.wait(lambda t: t["phase"] == "game")
            assert bob.field["me"] == 2
            turn(ann)
            ann.field_when(lambda m: m["cards"][0]["done"] == 1)
            # Bob has finished no turn: he sees none of Ann's (nor the expert's)
            got = bob.field_when(lambda m: m["cards"][0]["done"] == 1)
            assert got["upto"] == 0 and all(c["turns"] == [] for c in got["cards"])
            assert client.get(f"/api/groups/{group}").json()["upto"] == 0
            # no take-back: the others may have seen the box
            assert ann.act({"type": "take_back"})["code"] == "illegal"
            turn(bob, pick=1)
            got = bob.field_when(lambda m: m["cards"][2]["done"] == 1)
            assert got["upto"] == 1 and len(got["cards"][0]["turns"]) == 1
            # the same dice: Ann's first roll is Bob's first roll
            first = [r.actions[0] for r in
                     (store.load_record(store.load_table(c).game_id or "") for c in cards[::2])]
            assert first[0] == first[1]


@pytest.mark.parametrize(("seats", "says"), [
    ([ANN], "2-"),
    ([ANN, {**ANN, "name": "Bo"}], "one player here"),
    ([BOB, {"kind": "expert"}], "one player here"),
    ([ANN, {**BOB, "name": "ann"}], "Two players are called"),
    ([ANN] + [{"kind": "expert"}] * 8, "seats"),
])
def test_a_duplicate_request_a_stranger_might_send(client: TestClient, seats: list[Any],
                                                   says: str) -> None:
    r = client.post("/api/tables", json={"variant": "yatzy", "dice": "duplicate",
                                         "seats": seats})
    assert r.status_code == 400 and says in r.json()["error"], r.text
    assert client.get("/api/tables").json() == []


def test_dice_is_own_or_duplicate(client: TestClient) -> None:
    r = client.post("/api/tables", json={"variant": "yatzy", "dice": "same",
                                         "seats": [ANN, {"kind": "expert"}]})
    assert r.status_code == 400 and r.json()["error"].startswith("dice: own or duplicate")
    refused = client.get("/api/groups/zzz")
    assert refused.status_code == 404
    assert refused.json()["error"] == "'zzz' is not a group id (12 hex digits)"  # (table id)
    with client.websocket_connect("/ws/d/zzz") as ws:
        said = ws.receive_json()
        assert said["code"] == "not_found" and "is not a group id" in said["message"], said
    assert client.get("/api/groups/0123456789ab").json()["code"] == "not_found"


def test_a_duplicate_table_goes_on_after_a_restart(store: Store) -> None:
    from .conftest import serve

    first = serve(store)
    client = next(first)
    made = duplicate(client, ANN, BOB)
    with Player(client, made["id"], made["token"]) as ann:
        group = ann.field["group"]
        turn(ann)
        ann.field_when(lambda m: m["cards"][0]["done"] == 1)
    first.close()  # the server stops
    again = serve(store)
    client = next(again)
    try:
        # Bob's seat is still open at its link; Ann's card is still hers alone
        bob_card = next(c["url"] for c in client.get(f"/api/groups/{group}").json()["cards"]
                        if c["open"]).rsplit("/", 1)[-1]
        assert client.get(f"/api/tables/{made['id']}").json()["code"] == "private"
        with Player(client, made["id"], made["token"]) as ann:
            assert ann.field["cards"][0]["done"] == 1 and ann.field["upto"] == 1
            turn(ann)
            ann.field_when(lambda m: m["cards"][0]["done"] == 2)
            with Player(client, bob_card) as bob:
                assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
                got = bob.field_when(lambda m: m["me"] == 1)
                # Bob starts on the group's dice, and sees none of Ann's turns yet
                assert got["upto"] == 0 and got["cards"][0]["turns"] == []
                assert got["cards"][0]["done"] == 2
        seeds = {store.load_seed(store.load_table(c).game_id or "")
                 for c in store.load_group(group).cards}
        assert seeds == {store.load_group(group).seed}
    finally:
        again.close()


def test_a_watcher_is_pushed_the_field_up_to_the_slowest_players_turn(
        client: TestClient, store: Store) -> None:
    made = duplicate(client, ANN, BOB)
    group = made["group"]
    cards = store.load_group(group).cards
    with client.websocket_connect(f"/ws/d/{group}") as watcher:
        watcher.send_json({"type": "hello", "token": None})
        seen: list[dict[str, Any]] = []

        def pushed(pred: Any) -> dict[str, Any]:
            """Until a pushed field satisfies ``pred``; every one checked on the way."""
            while True:
                msg = watcher.receive_json()
                server_adapter().validate_python(msg)
                assert msg["type"] == "field" and msg["me"] is None
                # never a turn past the slowest player's (a seat not taken: none)
                slowest = min(0 if c["open"] else c["done"] for c in msg["cards"])
                assert msg["upto"] == slowest
                assert all(c["shown"] == len(c["turns"]) <= slowest for c in msg["cards"])
                seen.append(msg)
                if pred(msg):
                    return msg

        first = pushed(lambda m: True)
        assert first["upto"] == 0 and first["cards"][1]["url"] == f"/t/{cards[1]}"
        with Player(client, made["id"], made["token"]) as ann:
            turn(ann)
            # Ann's turn is pushed (who is on which turn), not its box: Bob's seat is open
            got = pushed(lambda m: m["cards"][0]["done"] == 1)
            assert got["cards"][0]["turns"] == []
            with Player(client, cards[1]) as bob:
                assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
                got = pushed(lambda m: not m["cards"][1]["open"])
                assert got["cards"][1]["url"] is None and got["upto"] == 0
                turn(ann)
                got = pushed(lambda m: m["cards"][0]["done"] == 2)
                assert got["upto"] == 0
                turn(bob)
                got = pushed(lambda m: m["cards"][1]["done"] == 1)
                assert got["upto"] == 1
                assert [len(c["turns"]) for c in got["cards"]] == [1, 1]
        # a watcher's socket only pings
        watcher.send_json({"type": "ping", "id": 7})
        while (msg := watcher.receive_json())["type"] == "field":
            pass
        assert msg == {"type": "pong", "id": 7}
        watcher.send_json({"type": "command", "id": 8, "command": {"type": "roll"}})
        while (msg := watcher.receive_json())["type"] == "field":
            pass
        assert msg["type"] == "error" and msg["code"] == "bad_request" and msg["id"] == 8
    # a group that is not there
    with client.websocket_connect("/ws/d/0123456789ab") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_play_again_makes_a_new_duplicate_table_for_the_whole_group(
        client: TestClient, store: Store) -> None:
    made = duplicate(client, ANN, BOB, {"kind": "beginner", "name": "Cy"})
    group = made["group"]
    old = store.load_group(group)
    with Player(client, made["id"], made["token"]) as ann, \
            Player(client, old.cards[1]) as bob:
        bob_token = bob.ask("join", seat=0, name="Bob")["token"]
        bob.wait(lambda t: t["phase"] == "game")
        # before the end of one's own game: refused
        assert ann.ask("again")["code"] == "not_finished"
        for _ in range(13):
            turn(ann)
            turn(bob)
        ann.field_when(lambda m: m["end"] is not None)
        for page in (ann, bob):  # (past the end's pause)
            page.wait(lambda t: t["snapshot"]["can"]["go_on"])
            assert page.act({"type": "go_on"})["type"] == "ack"
            page.wait(lambda t: t["snapshot"]["finished"])
        assert ann.field["next"] is None
        # Ann asks first: a new duplicate table, the same seats and settings, new dice
        assert ann.ask("again")["type"] == "ack"
        mine = ann.field_when(lambda m: m["next"] is not None)["next"]
        theirs = bob.field_when(lambda m: m["next"] is not None)["next"]
        watched = client.get(f"/api/groups/{group}").json()["next"]
        new_group = watched.removeprefix("/d/")
        new = store.load_group(new_group)
        assert (new.variant, new.options) == (old.variant, old.options)
        assert new.seed != old.seed and new.commitment != old.commitment
        assert [mine, theirs] == [f"/t/{c}" for c in new.cards[:2]]
        rows = [store.load_table(c) for c in new.cards]
        old_rows = [store.load_table(c) for c in old.cards]
        assert [(r.seats[0].name, r.seats[0].kind, r.seats[0].level, r.seats[0].token)
                for r in rows] == [(r.seats[0].name, r.seats[0].kind, r.seats[0].level,
                                    r.seats[0].token) for r in old_rows]
        assert {r.speed for r in rows} == {old_rows[0].speed}
        # Ann's card and the computer's play at once; Bob's waits for him to accept
        assert rows[0].game_id is not None and rows[2].game_id is not None
        assert rows[1].game_id is None and not rows[1].seats[0].ready
        # Bob asks too (at his old card, as its end's Play again does): his card starts
        assert bob.ask("again")["type"] == "ack"
        assert store.load_table(new.cards[1]).game_id is not None
        assert store.load_group(group).cards == old.cards  # (no third table made)
    # each browser's own token holds its new card; the watcher's field shows both
    with Player(client, new.cards[1], bob_token) as bob:
        snap = bob.wait(lambda t: t["phase"] == "game")["snapshot"]
        assert [p["name"] for p in snap["players"]] == ["Bob"] and snap["seat"] is not None
        assert bob.field["group"] == new_group and bob.field["me"] == 1
    field = client.get(f"/api/groups/{new_group}").json()
    assert [c["open"] for c in field["cards"]] == [False, False, False]


def test_a_player_still_playing_is_not_sent_to_the_next_table(
        client: TestClient, store: Store) -> None:
    """Ann finishes first and asks to play again: Bob, mid-game, is not offered the next
    table (it would take him from his game) until his own card is full; the group's
    play-again lock goes with its last asker."""
    made = duplicate(client, ANN, BOB)
    old = store.load_group(made["group"])
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with Player(client, made["id"], made["token"]) as ann, \
            Player(client, old.cards[1]) as bob:
        assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
        for _ in range(13):
            turn(ann)
        for _ in range(12):
            turn(bob)
        ann.field_when(lambda m: m["cards"][0]["done"] == 13)
        ann.wait(lambda t: t["snapshot"]["can"]["go_on"])
        assert ann.act({"type": "go_on"})["type"] == "ack"
        ann.wait(lambda t: t["snapshot"]["finished"])
        assert ann.ask("again")["type"] == "ack"
        assert ann.field_when(lambda m: m["next"] is not None)["next"].startswith("/t/")
        assert hub.duplicates._again == {}
        # Bob's field has heard of the next table (Ann's card there), but he plays on
        got = bob.field_when(lambda m: m["cards"][0]["done"] == 13 and m["me"] == 1)
        assert got["next"] is None
        assert client.get(f"/api/groups/{made['group']}").json()["next"] is not None
        turn(bob)
        assert bob.field_when(lambda m: m["next"] is not None)["next"].startswith("/t/")


def shut_out(page: Player) -> list[dict[str, Any]]:
    """What a page at a card is sent until the server closes its socket (a game state
    of the card on the way fails at once: it must never come)."""
    from starlette.websockets import WebSocketDisconnect

    got: list[dict[str, Any]] = []
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            msg = page.recv()
            assert msg.get("type") != "state" or msg["table"]["phase"] == "lobby", \
                "a watcher was sent a started card's state"
            got.append(msg)
    assert closed.value.code == 4403
    return got


def test_a_watcher_of_a_card_in_its_lobby_is_shut_out_once_its_game_starts(
        client: TestClient, store: Store) -> None:
    """A stranger (or the other player, in a second tab) at a card's lobby without its
    seat's token: when its game starts, that socket is told ``private`` and closed
    (4403), as a new watcher is; it never gets the card's dice or boxes (QA s18 item 1)."""
    made = duplicate(client, ANN, BOB)
    bob_card = store.load_group(made["group"]).cards[1]
    with Player(client, made["id"], made["token"]) as ann:
        eve = Player(client, bob_card)  # no token: the card still waits for Bob
        mallory = Player(client, bob_card, made["token"])  # Ann's token: not this seat's
        assert eve.table["phase"] == mallory.table["phase"] == "lobby"
        with Player(client, bob_card) as bob:
            assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
            bob.wait(lambda t: t["phase"] == "game")
            turn(bob)
            turn(ann)
            for page in (eve, mallory):
                got = shut_out(page)
                errors = [m for m in got if m["type"] == "error"]
                assert [e["code"] for e in errors] == ["private"]
                assert f"/d/{made['group']}" in errors[0]["message"]
                page.close()
            # ... and they are no longer counted at the card: Bob alone is there
            assert bob.ask("ping")["type"] == "pong"
            bob.wait(lambda t: t["phase"] == "game")
            live = client.app.state.hub.live[bob_card]  # type: ignore[attr-defined]
            assert [c.seats for c in live.connections] == [frozenset({0})]


def test_a_watcher_at_another_process_is_shut_out_when_the_card_starts_here(
        tmp_path: Path) -> None:
    """Eve watches Bob's card's lobby through process B; Bob joins through process A,
    where the game starts: B hears of it and shuts Eve out (``private``, 4403); no state
    of the card is ever made for her there."""
    import asyncio

    from yacht.web.duplicate import group_of
    from yacht.web.live import Close, StateDue
    from yacht.web.protocol import TableRequest

    from .test_web_news import close, settle, two_hubs

    async def go() -> None:
        a, b, _bus = await two_hubs(tmp_path)
        try:
            spec = TableRequest.model_validate({"variant": "tommys-crag", "speed": "instant",
                                                "dice": "duplicate", "seats": [ANN, BOB]})
            live_a, _ann = await a.create(spec)
            group = group_of(live_a.row)
            assert group is not None
            bob_card = (await a.duplicates.group(group)).cards[1]
            at_b = await b.get(bob_card)
            b.duplicates.check_watch(at_b, None)  # (its lobby: anyone may look)
            eve = b.connect(at_b, None)
            at_a = await a.get(bob_card)
            await a.join(at_a, a.connect(at_a, None), 0, "Bob", None)
            await settle(a, b)
            assert at_b.table is not None  # B took up the game begun at A
            assert eve not in at_b.connections and eve.leaving
            sent = []
            while not eve.outbox.empty():
                sent.append(eve.outbox.get_nowait())
            assert sent[-1] == Close(4403, "private")
            assert sent[-2]["type"] == "error" and sent[-2]["code"] == "private"
            # a state queued for her before is never made now
            assert any(isinstance(m, StateDue) for m in sent)
            assert b.fanout.state(at_b, eve) is None
            # Bob (at A) is there; no watcher is
            assert b.fanout.presence(at_b) == [{"seats": [0], "names": ["Bob"]}]
        finally:
            await close(a, b)

    asyncio.run(go())


def test_joining_a_card_sends_its_field_once(client: TestClient, store: Store) -> None:
    """The join sent the joining browser its field, and the seat's news sent it the same
    field again (QA s23): each field a browser is sent differs from the one before."""
    made = duplicate(client, ANN, BOB, speed="slow")
    with Player(client, made["id"], made["token"]) as ann:
        group = ann.field["group"]
        with Player(client, store.load_group(group).cards[1]) as bob:
            assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
            bob.wait(lambda t: t["phase"] == "game")
            turn(ann)
            bob.field_when(lambda m: m["cards"][0]["done"] == 1)
            assert all(a != b for a, b in zip(bob.fields, bob.fields[1:], strict=False)), \
                bob.fields
