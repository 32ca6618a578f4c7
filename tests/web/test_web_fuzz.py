"""10,000 random, malformed, out-of-turn and forged messages: every one is answered, to
its sender only; the server stays up; no game's record changes."""

from __future__ import annotations

import json
import os
import random
import string
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yacht.store import Store

from .browser import Browser
from .conftest import serve

ANSWERS = {"error", "ack", "pong", "joined", "hint"}


@pytest.fixture
def fast_client(store: Store) -> Iterator[TestClient]:
    """A server that lets a connection send as fast as it likes (the fuzz is not a flood)."""
    yield from serve(store, rate=1e9, burst=10**9)


def junk(pick: random.Random, depth: int = 0) -> Any:
    """Any JSON value, deep or wide, odd numbers and text included."""
    kind = pick.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return pick.choice([True, False, 0, -1, 2**63, -(2**70), 1.5, float("1e308")])
    if kind == 2:
        return "".join(pick.choice(string.printable + "é²①٥\u202e\x00\ud7ff")
                       for _ in range(pick.randrange(0, 30)))
    if kind == 3:
        return pick.choice(["roll", "toggle", "score", "go_on", "command", "hello", "join",
                            "chance", "yatzy", "", "../../etc/passwd", "<script>"])
    if kind == 4:
        return pick.randrange(-5, 20)
    if kind == 5:
        return [junk(pick, depth + 1) for _ in range(pick.randrange(0, 4))]
    return {pick.choice(["type", "command", "id", "version", "seat", "name", "token",
                         "position", "which", "category", "column", "dice", "result",
                         "speed", "x"]): junk(pick, depth + 1)
            for _ in range(pick.randrange(0, 5))}


def bad_message(pick: random.Random) -> str:
    """Text a broken or hostile client might send."""
    kind = pick.randrange(10)
    cmd_types = ["roll", "toggle", "select", "choose", "score", "give_back", "take_back",
                 "go_on", "computer", "dance"]
    if kind == 0:
        return "".join(chr(pick.randrange(0, 0x3000)) for _ in range(pick.randrange(1, 60)))
    if kind == 1:
        return json.dumps(junk(pick))
    if kind == 2:  # a command of any shape, maybe out of turn, maybe stale
        extra = junk(pick, 3)
        command = {"type": pick.choice(cmd_types), **(extra if isinstance(extra, dict) else {})} \
            if pick.random() < 0.5 else junk(pick)
        return json.dumps({"type": "command", "id": pick.randrange(1000), "command": command,
                           "version": pick.choice([None, 0, 1, -1, 10**9, "1", []])})
    if kind == 3:
        return json.dumps({"type": "join", "seat": junk(pick), "name": junk(pick),
                           "token": junk(pick)})
    if kind == 4:
        return json.dumps({"type": pick.choice(["start", "hint", "speed", "hello", "ping"]),
                           "speed": junk(pick), "token": junk(pick)})
    if kind == 5:
        return "[" * pick.randrange(100, 2000) + "]" * pick.randrange(0, 2000)
    if kind == 6:  # (a longer one closes the socket: test_web_trust.py)
        return json.dumps({"type": "command", "pad": "x" * pick.randrange(1000, 3000)})
    if kind == 7:
        return json.dumps({"type": "command", "command": {
            "type": "score", "category": pick.choice(["chance", "yatzy", "ones", "nope"]),
            "column": pick.choice([None, 0, 1, 5, -1])}})
    if kind == 8:
        return json.dumps({"type": "command", "command": {
            "type": "toggle", "position": pick.choice([0, 4, 5, -1, 10**12, True, 1.0])}})
    return pick.choice(['{"type":', "null", "true", "1e999", '{"type": null}', "{}", "[]"])


@pytest.mark.slow
def test_ten_thousand_bad_messages_change_no_game(fast_client: TestClient, store: Store) -> None:
    client = fast_client
    # a game between two friends, Ann on turn with her dice rolled
    two = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "person", "here": False}]}).json()
    ann = Browser(client, two["id"], two["token"])
    bob = Browser(client, two["id"])
    bob.token = bob.ask("join", seat=1, name="Bob")["token"]
    ann.wait(lambda t: t["phase"] == "game")
    assert ann.act({"type": "roll"})["type"] == "ack"
    # a solitaire game half played, and a game of computers at its end
    solo = client.post("/api/tables", json={"variant": "tommys-crag", "seats": [
        {"kind": "person", "name": "Cy", "here": True}]}).json()
    cy = Browser(client, solo["id"], solo["token"])
    cy.act({"type": "roll"})
    cy.act({"type": "score", "category": cy.snap["previews"][0]["category"]})
    games = {t: (Browser(client, t, None).snap["game_id"]) for t in (two["id"], solo["id"])}
    records = {gid: store.load_record(gid).actions for gid in games.values()}

    # the fuzzers: Bob out of turn, watchers, forged tokens, Cy's table from a watcher
    fuzzers = [bob, Browser(client, two["id"]), Browser(client, two["id"], "forged" * 5),
               Browser(client, solo["id"]), Browser(client, solo["id"], "x" * 64)]
    # (YACHT_FUZZ_SEED=N hunts with other messages)
    pick = random.Random(int(os.environ.get("YACHT_FUZZ_SEED", "2026")))
    codes: Counter[str] = Counter()
    for i in range(10_000):
        page = fuzzers[i % len(fuzzers)]
        text = bad_message(pick)
        page.ws.send_text(text)
        reply = page.until(lambda m: m.get("type") in ANSWERS)
        assert "message" not in reply or "\n" not in reply["message"]
        # every message is understood as bad or refused: none ends in a server error
        assert reply.get("code") != "server", text[:200]
        codes[reply.get("code", reply["type"])] += 1
    assert sum(codes.values()) == 10_000
    assert {"bad_request", "not_your_turn"} <= set(codes), codes
    # nothing changed, and the server still plays
    assert {gid: store.load_record(gid).actions for gid in games.values()} == records
    assert ann.ask("ping")["type"] == "pong"
    assert ann.act({"type": "toggle", "position": 0})["type"] == "ack"
    assert client.get("/healthz").json()["ok"]
    for page in [ann, cy, *fuzzers]:
        page.close()
