"""A player's name is taken by one check everywhere (``yacht.parsing.check_name``): the
line and terminal games' players, ``yacht daily --name``, ``yacht stats NAME``, a web
table's seats, joins, the daily challenge and ``/api/stats``, and the session's daily
game. The same names are refused everywhere, with the same length limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from yacht.cli import main
from yacht.engine import NAME_LENGTH
from yacht.parsing import InputError
from yacht.session.daily import open_daily
from yacht.store import open_store

#: names no interface takes: a control character, blanks that are letters or symbols to
#: Unicode, zero-width and format characters, marks with nothing under them or piled up,
#: one character too many
REFUSED = {"escape": "c\x1b[31m", "hangul-filler": "\u3164", "braille-blank": "\u2800",
           "choseong-filler": "\u115f", "zero-width": "\u200b", "soft-hyphen": "Ann\u00ad",
           "marks-only": "\u0301\u0302", "piled-marks": "A" + "\u0301" * 19,
           "too-long": "y" * (NAME_LENGTH + 1), "thirty": "y" * 30}
#: what each refusal names
SAYS = {"escape": "invisible", "hangul-filler": "U+3164", "braille-blank": "U+2800",
        "choseong-filler": "U+115F", "zero-width": "invisible", "soft-hyphen": "invisible",
        "marks-only": "combining mark", "piled-marks": "marks on one character",
        "too-long": f"longer than {NAME_LENGTH}", "thirty": f"longer than {NAME_LENGTH}"}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_every_command_refuses_the_same_names(kind: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht daily --name` took control characters, invisible names and 40 characters
    that `yacht play --players` refused (and `yacht stats NAME` could not look up)."""
    name, db = REFUSED[kind], str(tmp_path / "g.sqlite3")
    for argv in (["daily", "tommys-crag", "--plain", "--name", name, "--db", db],
                 ["play", "tommys-crag", "--plain", "--players", name],
                 ["stats", name, "--db", db]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and SAYS[kind] in lines[0], (argv, err)
        assert lines[0].isprintable() and "\x1b" not in err and "Traceback" not in err


def test_the_daily_game_takes_a_name_as_every_game_does(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "g.sqlite3")) as store:
        for name in REFUSED.values():
            with pytest.raises(InputError):
                open_daily(store, "tommys-crag", name, source="test")
        assert store.unfinished_games() == []
        t = open_daily(store, "tommys-crag", "  Zoe\u0308  ", source="test")
        assert t.view().state.players[0].name == "Zoë"


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_the_web_refuses_the_same_names(kind: str, tmp_path: Path) -> None:
    from .web.conftest import serve

    name = REFUSED[kind]
    with open_store(str(tmp_path / "w.sqlite3")) as store:
        for client in serve(store):
            _refused_on_the_web(client, name, SAYS[kind])


def _refused_on_the_web(client: TestClient, name: str, says: str) -> None:
    for r in (client.post("/api/tables", json={"variant": "yatzy", "seats": [
                  {"kind": "person", "name": name, "here": True}]}),
              client.post("/api/tables", json={"variant": "yatzy", "seats": [
                  {"kind": "person", "name": "Ann", "here": True},
                  {"kind": "expert", "name": name}]}),
              client.post("/api/daily", json={"variant": "yatzy", "name": name}),
              client.get("/api/stats", params={"player": name})):
        assert r.status_code == 400 and r.json()["code"] == "bad_request", r.text
        assert says in r.json()["error"], r.text
    made = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "person", "here": False}]})
    with client.websocket_connect(f"/ws/{made.json()['id']}") as ws:
        ws.send_json({"type": "hello", "token": None})
        ws.send_json({"type": "join", "seat": 1, "name": name, "id": 1})
        while (msg := ws.receive_json()).get("id") != 1:
            pass
        assert msg["type"] == "error" and says in msg["message"], msg
    assert client.get("/api/tables").json()[0]["open_seats"] == 1
