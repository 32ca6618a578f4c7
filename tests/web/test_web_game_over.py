"""A game over whose results no one asked for: the tab closed at "Game over" (the
table's pause before the results, where the last score can still be taken back).
When the table is put away (idle, or the server stopping) the game is recorded as
finished; it stayed unfinished in the store: out of the top ten and the statistics,
refused by the analysis, listed as being played (QA s22). And before the game: a hint
asked in the lobby says the game has not started."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from yacht.store import Store

from .browser import Browser
from .test_web_hint import behind_on_the_last_turn, resume_at_a_table


def test_a_game_over_left_at_its_pause_is_recorded_when_the_table_is_put_away(
        client: TestClient, store: Store) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    t = resume_at_a_table(client, store, behind_on_the_last_turn())
    with Browser(client, t["id"], t["token"]) as b:
        assert b.act({"type": "score", "category": "small_straight"})["type"] == "ack"
        b.wait(lambda tb: tb["snapshot"].get("pause") == "game_over")
        gid = b.snap["game_id"]
    assert store.game_info(gid).finished is None  # (Oops could still take it back)
    for _ in range(200):
        if not hub.find(t["id"]).connections:
            break
        time.sleep(0.01)
    assert client.portal.call(hub.unload_idle, -1.0) == 1  # type: ignore[union-attr]
    info = store.game_info(gid)
    assert info.finished is not None
    # no longer listed as a game being played (as after "See the results")
    assert t["id"] not in [x["id"] for x in client.get("/api/tables").json()]
    analysis = client.get(f"/api/games/{gid}/analysis")
    assert analysis.status_code == 200, analysis.text


def test_a_hint_in_the_lobby_says_the_game_has_not_started(client: TestClient) -> None:
    """It said "a hint is for your own turn", as though it were someone else's."""
    from .conftest import new_table

    made = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                              {"kind": "person", "here": False}])
    with Browser(client, made["id"], made["token"]) as ann:
        assert ann.table["phase"] == "lobby"
        refused = ann.ask("hint")
        assert refused["type"] == "error" and refused["code"] == "not_started"
        assert refused["message"] == "the game has not started: waiting for players"
