"""The dice of an online game: the server's, from the game's committed seed. What a seat
sends beyond which dice to roll changes none of them, and a finished game's dice can be
checked by anyone (GET /api/games/ID/verify)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yacht.engine import Record, Roll, die_face, verify
from yacht.engine.dice import commitment_of
from yacht.store import Store

from .browser import Browser
from .conftest import serve

SEED = bytes(range(7, 39))


def solo(client: TestClient) -> Browser:
    made = client.post("/api/tables", json={"variant": "yatzy", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann", "here": True}]}).json()
    return Browser(client, made["id"], made["token"])


#: what a seat may send while it decides what to roll: choices made and unmade, given
#: back, refused (a roll with dice, fields the commands do not have, an old version)
NOISE = st.one_of(
    st.builds(lambda p: {"type": "toggle", "position": p}, st.integers(0, 4)),
    st.sampled_from([{"type": "select", "which": w} for w in ("all", "none", "singlets")]),
    st.builds(lambda d: {"type": "choose", "dice": sorted(set(d))},
              st.lists(st.integers(0, 4), max_size=5)),
    st.just({"type": "give_back"}),
    st.builds(lambda r: {"type": "roll", "result": r}, st.lists(st.integers(1, 6), min_size=1,
                                                                max_size=5)),
    st.builds(lambda f: {"type": "roll", f: [6, 6, 6, 6, 6]},
              st.sampled_from(["dice", "values", "seed"])),
    st.just({"type": "take_back"}), st.just({"type": "go_on"}))


def play(page: Browser, noise: list[list[dict[str, Any]]], keeps: list[list[int]]) -> \
        list[tuple[int, int, list[int], list[int]]]:
    """Two turns: before each re-roll, ``noise`` then choosing ``keeps``'s positions;
    the dice of every roll as (turn, roll, positions rolled, dice)."""
    seen = []
    steps = iter(zip(noise, keeps, strict=True))
    for turn in range(2):
        page.act({"type": "roll"})
        seen.append((turn, 1, [0, 1, 2, 3, 4], list(page.snap["dice"])))
        rolls = 1
        for _ in (2, 3):
            junk, reroll = next(steps)
            for command in junk:
                page.ask_now("command", command=command, version=page.snap["version"]
                             if len(command) % 2 else 0)
            page.act({"type": "choose", "dice": reroll} if reroll else {"type": "give_back"})
            if not reroll:
                continue
            page.act({"type": "roll"})
            rolls += 1
            seen.append((turn, rolls, reroll, [page.snap["dice"][i] for i in reroll]))
        box = page.snap["previews"][0]
        assert page.act({"type": "score", "category": box["category"],
                         "column": box["column"]})["type"] == "ack"
    return seen


def test_a_seats_dice_depend_only_on_which_dice_it_rolls(store: Store) -> None:
    for client in serve(store, rate=1e9, burst=10**9, seeds=lambda: SEED):
        same_dice_at(client)


def same_dice_at(client: TestClient) -> None:
    """Two tables of one seed: one seat sends noise before each choice, the other not."""
    @settings(max_examples=12, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(st.lists(NOISE, max_size=6), min_size=4, max_size=4),
           st.lists(st.lists(st.integers(0, 4), unique=True).map(sorted),
                    min_size=4, max_size=4))
    def same_dice(noise: list[list[dict[str, Any]]], keeps: list[list[int]]) -> None:
        with solo(client) as noisy, solo(client) as plain:
            got = play(noisy, noise, keeps)
            quiet = play(plain, [[] for _ in noise], keeps)
        # the same dice whatever else was sent, and exactly the seed's
        assert got == quiet and len(got) >= 2
        for turn, roll, positions, dice in got:
            assert dice == [die_face(SEED, turn, roll, p, 6) for p in positions]

    same_dice()


def test_a_finished_games_dice_are_verified_by_anyone(client: TestClient,
                                                      store: Store) -> None:
    made = client.post("/api/tables", json={"variant": "tommys-crag", "seats": [
        {"kind": "person", "name": "Ann", "here": True}]}).json()
    with Browser(client, made["id"], made["token"]) as ann:
        commitment = ann.snap["dice_seed"]["commitment"]
        assert ann.snap["dice_seed"].get("seed") is None  # secret while the game is on
        gid = ann.snap["game_id"]
        r = client.get(f"/api/games/{gid}/verify")
        assert r.status_code == 409 and r.json()["code"] == "not_finished"
        assert "seed" not in json.dumps(client.get(f"/api/tables/{made['id']}").json()
                                        ["snapshot"]["dice_seed"])
        while not ann.snap["over"]:
            ann.act({"type": "roll"})
            box = ann.snap["previews"][0]
            ann.act({"type": "score", "category": box["category"], "column": box["column"]})
        if ann.snap["can"]["go_on"]:
            ann.act({"type": "go_on"})
        ann.wait(lambda t: t["snapshot"]["dice_seed"].get("seed") is not None)
        seed = bytes.fromhex(ann.snap["dice_seed"]["seed"])
    assert commitment_of(seed) == commitment
    said = client.get(f"/api/games/{gid}/verify").json()
    assert said["ok"] and said["code"] == "verified" and said["seed"] == seed.hex()
    assert said["line"].startswith("verified: all ") and said["rolls"] >= 13, said
    # one die changed in the record: not verified, and the verdict says where
    record = store.load_record(gid)
    first = next(i for i, a in enumerate(record.actions) if isinstance(a, Roll))
    roll = record.actions[first]
    assert isinstance(roll, Roll) and roll.result is not None
    forged = (roll.result[0] % 3 + 1, *roll.result[1:])
    record.actions[first] = Roll(forged)
    verdict = verify(Record.from_json(record.to_json()))
    assert not verdict.ok and verdict.code == "mismatch" and verdict.action == first + 1
    for wrong in ("nope", "0123456789ab"):
        r = client.get(f"/api/games/{wrong}/verify")
        assert r.status_code == 404 and set(r.json()) == {"error", "code"}


def test_every_finished_game_of_the_server_verifies(client: TestClient, store: Store) -> None:
    """Games of every kind played to the end at the server - alone, with a take-back,
    computers only - and each finished game in its database verifies."""
    alone = client.post("/api/tables", json={"variant": "tommys-crag", "seats": [
        {"kind": "person", "name": "Ann", "here": True}]}).json()
    with Browser(client, alone["id"], alone["token"]) as ann:
        took_back = False
        while not ann.snap["over"]:
            ann.act({"type": "roll"})
            box = ann.snap["previews"][0]
            ann.act({"type": "score", "category": box["category"], "column": box["column"]})
            if not took_back and not ann.snap["over"]:
                took_back = ann.act({"type": "take_back"})["type"] == "ack"
        if ann.snap["can"]["go_on"]:
            ann.act({"type": "go_on"})
        ann.wait(lambda t: t["snapshot"]["finished"])
    demo = client.post("/api/tables", json={"variant": "yatzy", "speed": "instant", "seats": [
        {"kind": "beginner", "name": "B"}, {"kind": "expert", "name": "E"}]}).json()
    with Browser(client, demo["id"], demo["token"]) as host:
        host.wait(lambda t: t["snapshot"]["finished"], limit=20000)
    finished = store.finished_games()
    assert len(finished) == 2 and took_back
    for info in finished:
        verdict = verify(store.load_record(info.id))
        assert verdict.ok, verdict.line
