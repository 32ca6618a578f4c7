"""The JSON API: the same shapes as the command line's --json, errors as one line."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from yacht.cli import main
from yacht.store import Store

from .conftest import new_table


def cli_json(capsys: object, *argv: str) -> object:
    assert main([*argv, "--json"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    return json.loads(out)


def test_the_api_answers_as_the_command_line_does(client: TestClient, capsys: object) -> None:
    assert client.get("/api/variants").json() == cli_json(capsys, "variants")
    page = client.get("/api/variants/yahtzee/rules?joker=free").json()
    cli = cli_json(capsys, "rules", "yahtzee", "-o", "joker=free")
    assert isinstance(cli, dict)
    # the same but its text: the page's has none of the commands' words (a box's id, how
    # an option is given), which the command's has
    assert {**page, "text": ""} == {**cli, "text": ""}
    assert "[full_house]" in cli["text"] and "--option KEY=VALUE" in cli["text"]
    assert "[full_house]" not in page["text"] and "--option" not in page["text"]
    assert "Full House" in page["text"] and "Options:" in page["text"]
    r = client.post("/api/score", json={"variant": "yatzy", "dice": [6, 6, 6, 2, 3]})
    assert r.json() == cli_json(capsys, "score", "yatzy", "66623")


def test_bad_requests_are_one_line_errors(client: TestClient) -> None:
    r = client.get("/api/variants/nosuch/rules")
    assert r.status_code == 404 and "unknown variant" in r.json()["error"]
    r = client.get("/api/variants/yahtzee/rules?joker=maybe")
    assert r.status_code == 400 and "joker" in r.json()["error"]
    r = client.post("/api/score", json={"variant": "yatzy", "dice": [6, 6, 6, 2, 9]})
    assert r.status_code == 400 and "each 1-6" in r.json()["error"]
    r = client.post("/api/score", json={"variant": "yatzy"})
    assert r.status_code == 400 and r.json() == {
        "error": "dice: missing (the dice's values, a list of at most 10 whole numbers)",
        "code": "bad_request"}
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "ann"}]})
    assert r.status_code == 400 and "Two players are called" in r.json()["error"]
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [{"kind": "wizard"}]})
    assert r.status_code == 400 and "kind: person or a computer level" in r.json()["error"]
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": []})
    assert r.status_code == 400
    assert client.get("/api/tables/zz").status_code == 404
    assert client.get("/api/tables/abcdef").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_every_answer_has_a_strict_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/static/style.css", "/api/variants", "/api/docs"):
        r = client.get(path)
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and r.headers["x-content-type-options"] == "nosniff"
    docs = client.get("/api/docs").text
    assert "/api/tables" in docs and "<script" not in docs
    spec = client.get("/api/openapi.json").json()
    assert "/api/score" in spec["paths"] and "/api/tables" in spec["paths"]


def test_tables_scores_stats_and_health(client: TestClient, store: Store) -> None:
    t = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                          {"kind": "person", "here": False}])
    listed = client.get("/api/tables").json()
    assert [x["id"] for x in listed] == [t["id"]] and listed[0]["open_seats"] == 1
    assert listed[0]["players"] == ["Ann"] and not listed[0]["started"]
    watched = client.get(f"/api/tables/{t['id']}").json()
    assert watched["phase"] == "lobby" and watched["seats"][1]["open"]
    assert client.get("/api/scores").json() == []
    assert client.get("/api/stats").json() == []
    health = client.get("/healthz").json()
    assert health["ok"] and health["tables"] == 1
