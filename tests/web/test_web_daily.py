"""The daily challenge online (issue 24, item 3): POST /api/daily starts today's game on
the day's seed, GET /api/daily shows the day's commitment, the expert's total and the
standings; today's seed is in no answer before the day is over - not in the table's
snapshot, not in the game's verify, not in the standings - and yesterday's is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from yacht.engine import verify
from yacht.session.daily import standings, today
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
            ("post", "/api/daily", {"variant": "nope", "name": "Ann"}, 400),
            ("post", "/api/daily", {"variant": "yatzy"}, 400),
            ("post", "/api/daily", {"variant": "yatzy", "name": "Ann", "seed": "00"}, 400),
            ("post", "/api/daily", {"variant": "yatzy", "name": ""}, 400),
            ("get", "/api/daily?variant=yatzy&date=2999-01-01", None, 400),
            ("get", "/api/daily?variant=yatzy&date=yesterday", None, 400),
            ("get", "/api/daily?variant=nope", None, 400),
            ("get", "/api/daily?variant=yatzy&game=../../etc", None, 400)):
        r = client.request(method.upper(), url, json=body)
        assert r.status_code == status, (url, body, r.status_code, r.text)
        got = r.json()
        assert set(got) == {"error", "code"} and "\n" not in got["error"], got


def test_a_name_cannot_scout_its_ranked_game_in_a_second_table(client: TestClient,
                                                               store: Store) -> None:
    """QA s18 item 3: POST /api/daily twice with one name gave two tables on the day's
    dice: play one to learn them, finish the other, ranked. Now while the name's game is
    under way a second POST is refused (409), or - from the browser holding it (its
    token sent in ``tables``) - answers that same table; once it is finished, the next
    is practice, and the first game started is the ranked one."""
    first = client.post("/api/daily", json={"variant": "crag", "name": "Zed"})
    assert first.status_code == 200, first.text
    a = first.json()
    assert a["resumed"] is False and a["ranked"] is True
    for name in ("Zed", "zed "):
        again = client.post("/api/daily", json={"variant": "tommys-crag", "name": name})
        assert again.status_code == 409 and again.json()["code"] == "conflict", again.text
        assert "one game of the day at a time" in again.json()["error"]
    # a token not this table's does not open it
    other = client.post("/api/daily", json={"variant": "crag", "name": "Amy"}).json()
    wrong = client.post("/api/daily", json={"variant": "crag", "name": "Zed",
                                            "tables": {a["id"]: other["token"]}})
    assert wrong.status_code == 409
    same = client.post("/api/daily", json={"variant": "crag", "name": "Zed",
                                           "tables": {a["id"]: a["token"]}})
    assert same.status_code == 200, same.text
    assert same.json() == {**a, "resumed": True}
    day = today()
    games = store.daily_games(day, "tommys-crag")
    assert [g.name for g in games] == ["Zed", "Amy"]  # (no table nor game for the rest)
    with Browser(client, a["id"], a["token"]) as page:
        game_id = play_out(page)["game_id"]
    later = client.post("/api/daily", json={"variant": "crag", "name": "Zed",
                                            "tables": {a["id"]: a["token"]}})
    assert later.status_code == 200, later.text
    b = later.json()
    assert b["id"] != a["id"] and b["resumed"] is False and b["ranked"] is False
    with Browser(client, b["id"], b["token"]) as page:
        practice = play_out(page)["game_id"]
    got = client.get("/api/daily", params={"variant": "tommys-crag"}).json()
    places = {e["game_id"]: e["place"] for e in got["standings"]}
    assert places == {game_id: 1, practice: None}


def test_a_day_asked_for_is_yyyy_mm_dd_in_the_days_kept_and_a_read_makes_none(
        client: TestClient, store: Store, tmp_path: Path) -> None:
    """QA s18 item 8: GET /api/daily?date= took 20250101, 2025-W01-1 and any day back to
    year 1, and stored a new challenge for each (a GET that wrote)."""
    import sqlite3

    def rows() -> int:
        with sqlite3.connect(tmp_path / "web.sqlite3") as db:
            return int(db.execute("select count(*) from dailies").fetchone()[0])

    assert client.get("/api/daily", params={"variant": "yatzy"}).status_code == 200
    store.daily("2026-11-20", "yatzy")  # a day gone by that someone played
    made = rows()
    for date, status, says in (
            ("20261120", 400, "give YYYY-MM-DD"), ("2026-W47-5", 400, "give YYYY-MM-DD"),
            ("2026-11-20T00:00", 400, "give YYYY-MM-DD"), ("0001-01-01", 400,
                                                          "from 2026-11-20, the first"),
            ("1999-05-05", 400, "up to today"), ("2999-01-01", 400, "has not come yet"),
            ("2026-11-21", 404, "no one played the Yatzy challenge of 2026-11-21")):
        r = client.get("/api/daily", params={"variant": "yatzy", "date": date})
        assert r.status_code == status and says in r.json()["error"], (date, r.text)
        assert "\n" not in r.json()["error"]
    r = client.get("/api/daily", params={"variant": "yahtzee", "date": "2026-11-20"})
    assert r.status_code == 404  # (that day's Yatzy was played, not its Yahtzee)
    assert rows() == made
    r = client.get("/api/daily", params={"variant": "yatzy", "date": "2026-11-20"})
    assert r.status_code == 200 and r.json()["date"] == "2026-11-20" and r.json()["over"]


def test_a_daily_game_begun_at_the_same_moment_as_another_of_the_name_is_refused(
        client: TestClient, store: Store, monkeypatch: Any) -> None:
    """Two requests (or processes) for one name at once: both look before and find none;
    each looks again once its game is saved, and the one that finds the other is taken
    back (409): its game deleted, its table closed."""
    import yacht.session.daily as daily
    from yacht.session.daily import open_daily

    earlier = open_daily(store, "tommys-crag", "Zed", source="test")  # the other request's
    real = daily.under_way
    calls: list[int] = []

    def missed_once(*args: Any, **kw: Any) -> str | None:
        calls.append(1)
        return None if len(calls) == 1 else real(*args, **kw)  # (the look before: too soon)

    monkeypatch.setattr(daily, "under_way", missed_once)
    r = client.post("/api/daily", json={"variant": "crag", "name": "zed"})
    assert r.status_code == 409 and r.json()["code"] == "conflict", r.text
    assert [g.game_id for g in store.daily_games(today(), "tommys-crag")] == [earlier.game_id]
    assert store.open_tables() == []  # (the table made for it is closed)
    assert client.get("/api/tables").json() == []


def test_a_daily_game_is_private_until_its_day_is_over(client: TestClient,
                                                       store: Store) -> None:
    """Every player of the day gets the same dice: a daily game is not listed, not
    watched (403 private, a socket without its seat refused and closed 4403), and its
    analysis and dice are refused until the day is over (QA s18 web item 1)."""
    from starlette.websockets import WebSocketDisconnect

    made = client.post("/api/daily", json={"variant": "crag", "name": "Hanna"}).json()
    assert [t for t in client.get("/api/tables").json() if t["id"] == made["id"]] == []
    got = client.get(f"/api/tables/{made['id']}")
    assert got.status_code == 403 and got.json()["code"] == "private"
    for token in (None, "x" * 32):
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["code"] == "private"
            try:
                ws.receive_json()
                raise AssertionError("the socket stayed open")
            except WebSocketDisconnect as e:
                assert e.code == 4403
    with Browser(client, made["id"], made["token"]) as page:  # its player plays on
        game_id = play_out(page)["game_id"]
    for what in ("analysis", "verify"):
        got = client.get(f"/api/games/{game_id}/{what}")
        assert got.status_code == 403 and got.json()["code"] == "private", got.text
    assert client.get(f"/api/tables/{made['id']}").status_code == 403


def test_a_daily_game_of_a_day_gone_by_may_be_watched_and_analysed(
        client: TestClient, store: Store, monkeypatch: Any) -> None:
    import yacht.session.daily as daily

    made = client.post("/api/daily", json={"variant": "crag", "name": "Hanna"}).json()
    with Browser(client, made["id"], made["token"]) as page:
        game_id = play_out(page)["game_id"]
    monkeypatch.setattr(daily, "today", lambda: "2999-01-01")
    assert client.get(f"/api/tables/{made['id']}").status_code == 200
    assert client.get(f"/api/games/{game_id}/verify").status_code == 200


def test_the_answer_names_the_first_day_so_the_page_asks_no_day_before_it(
        client: TestClient) -> None:
    """On a new database the home page asked for yesterday's standings and got a 400
    (a console error at every load); the answer now names the first day kept (QA s18
    web item 5)."""
    got = client.get("/api/daily", params={"variant": "yahtzee"}).json()
    assert got["first"] == today() == got["date"]
    static = Path(__file__).parents[2] / "src" / "yacht" / "web" / "static" / "js" / "daily.js"
    assert "st.first" in static.read_text("utf-8")


def test_options_sent_for_a_daily_game_are_refused_as_a_field_it_does_not_take(
        client: TestClient) -> None:
    """QA s25: options sent with a daily game (which is played with its variant's usual
    options) were refused with what a valid options object is, the one sent being such
    an object ('options: an object of at most 16 text values ..., e.g. {"joker": "free"}'):
    the answer says the request takes no options."""
    r = client.post("/api/daily", json={"variant": "yahtzee", "name": "Eve",
                                        "options": {"joker": "none"}})
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "options: no such field here", "code": "bad_request"}
    # a table's options out of shape are still told what they take
    r = client.post("/api/tables", json={"variant": "yahtzee", "options": {"joker": 3},
                                         "speed": "fast", "seats": [
                                             {"kind": "person", "name": "Eve", "here": True}]})
    assert r.status_code == 400 and "at most 16 text values" in r.json()["error"], r.text


def test_the_experts_total_worked_out_holds_up_no_answer(client: TestClient, store: Store,
                                                         monkeypatch: Any) -> None:
    """The expert's total on a day's dice may take minutes the first time (Maxi Yatzy
    builds its table): GET /api/daily answers without it meanwhile, starts the work once
    however many ask, and the store's other answers go on; then it is kept."""
    import threading

    from yacht.session import daily as daily_module
    from yacht.web import hub as hub_module

    release, started = threading.Event(), []
    quick = daily_module.expert_total

    def slow_expert(ruleset: Any, seed: bytes) -> int:
        started.append(ruleset.id)
        if ruleset.id != "kismet":
            return quick(ruleset, seed)
        assert release.wait(60)
        return 123

    monkeypatch.setattr(daily_module, "expert_total", slow_expert)
    monkeypatch.setattr(hub_module, "DAILY_EXPERT_WAIT", 0.2)
    try:
        for _ in range(3):  # (the old answer waited for the total: 123 after the release)
            got = client.get("/api/daily?variant=kismet")
            assert got.status_code == 200, got.text
            assert got.json()["expert"] is None
        assert started.count("kismet") == 1
        # the store answers others meanwhile: the daily of another variant, a table
        assert client.get("/api/daily?variant=tommys-crag").status_code == 200
        assert client.post("/api/tables", json={
            "variant": "yahtzee", "seats": [{"kind": "person", "name": "Ann"}]}).status_code == 200
    finally:
        release.set()
    for _ in range(200):
        if client.get("/api/daily?variant=kismet").json()["expert"] == 123:
            break
        threading.Event().wait(0.05)
    assert client.get("/api/daily?variant=kismet").json()["expert"] == 123
    assert standings(store, "kismet", expert=False).expert == 123  # kept
    assert started.count("kismet") == 1
