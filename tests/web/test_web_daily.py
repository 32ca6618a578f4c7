"""The daily challenge online (issue 24, item 3): POST /api/daily starts today's game on
the day's seed, GET /api/daily shows the day's commitment, the expert's total and the
standings; today's seed is in no answer before the day is over - not in the table's
snapshot, not in the game's verify, not in the standings - and yesterday's is."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from yacht.engine import verify
from yacht.session.daily import today
from yacht.store import Store

from .browser import Browser


def play_out(page: Browser) -> dict[str, Any]:
    """Roll once and score the first open box, every turn, to the end."""
    while True:
        s = page.snap
        if s["over"] and s["pause"] is None:
            return s
        if s["pause"] is not None:
            page.act({"type": "go_on"})
        elif not s["dice"]:
            page.act({"type": "roll"})
        else:
            page.act({"type": "score", "category": s["previews"][0]["category"]})


def everything(client: TestClient, table_id: str, game_id: str | None) -> str:
    """Every answer a stranger or the player could get about the table and its game."""
    out = [client.get(f"/api/tables/{table_id}").text]
    if game_id is not None:
        out.append(client.get(f"/api/games/{game_id}/verify").text)
    out.append(client.get("/api/daily?variant=tommys-crag").text)
    return "\n".join(out)


def test_todays_game_on_the_days_seed_and_its_seed_kept(client: TestClient,
                                                        store: Store) -> None:
    day = today()
    made = client.post("/api/daily", json={"variant": "crag", "name": "Ann"})
    assert made.status_code == 200, made.text
    body = made.json()
    daily = store.daily(day, "tommys-crag")
    with Browser(client, body["id"], body["token"]) as page:
        s = page.snap
        assert s["daily"] == day and s["dice_seed"]["commitment"] == daily.commitment
        end = play_out(page)
        assert end["over"] and "seed" not in (end["dice_seed"] or {})
        game_id = end["game_id"]
        seen = everything(client, body["id"], game_id) + json.dumps(page.snap)
    assert daily.seed.hex() not in seen
    got = client.get("/api/daily", params={"variant": "tommys-crag", "game": game_id}).json()
    assert got["date"] == day and got["commitment"] == daily.commitment
    assert got["seed"] is None and got["over"] is False
    assert got["expert"] == store.daily(day, "tommys-crag").expert
    assert isinstance(got["expert"], int)
    [entry] = got["standings"]
    assert entry["name"] == "Ann" and entry["place"] == 1 and entry["game_id"] == game_id
    assert got["mine"]["share"].startswith(f"Yacht daily {day}, Tommy's Crag: {entry['score']} "
                                           f"(the expert {got['expert']}), 1st of 1")
    # the game is in the record with its day, and its seed is the day's
    record = store.load_record(game_id)
    assert record.meta["daily"] == day and record.dice_seed.seed is None
    assert store.load_seed(game_id) == daily.seed


def test_yesterdays_seed_is_shown_and_its_games_verify(client: TestClient, store: Store) -> None:
    from yacht.session.daily import open_daily
    from yacht.session.table import LOCAL

    t = open_daily(store, "tommys-crag", "Bo", day="2026-11-30", source="test")
    from yacht.engine import Roll, Score

    while not t.view().over or t.view().pause is not None:
        if t.view().pause is not None:
            from yacht.session.commands import GoOn

            t.act(LOCAL, GoOn())
            continue
        t.act(LOCAL, Roll())
        t.act(LOCAL, Score(t.view().state.placements()[0].category))
    got = client.get("/api/daily", params={"variant": "tommys-crag", "date": "2026-11-30"}).json()
    assert got["over"] is True
    assert got["seed"] == store.daily("2026-11-30", "tommys-crag").seed.hex()
    assert [e["name"] for e in got["standings"]] == ["Bo"]
    check = client.get(f"/api/games/{t.game_id}/verify").json()
    assert verify(store.load_record(t.game_id)).code == "verified"
    assert check["code"] == "verified", check


def test_bad_daily_requests_are_refused_in_the_documented_shape(client: TestClient) -> None:
    for method, url, body, status in (
            ("post", "/api/daily", {"variant": "nope", "name": "Ann"}, 404),
            ("post", "/api/daily", {"variant": "yatzy"}, 400),
            ("post", "/api/daily", {"variant": "yatzy", "name": "Ann", "seed": "00"}, 400),
            ("post", "/api/daily", {"variant": "yatzy", "name": ""}, 400),
            ("get", "/api/daily?variant=yatzy&date=2999-01-01", None, 400),
            ("get", "/api/daily?variant=yatzy&date=yesterday", None, 400),
            ("get", "/api/daily?variant=nope", None, 404),
            ("get", "/api/daily?variant=yatzy&game=../../etc", None, 404)):
        r = client.request(method.upper(), url, json=body)
        assert r.status_code == status, (url, body, r.status_code, r.text)
        got = r.json()
        assert set(got) == {"error", "code"} and "\n" not in got["error"], got
