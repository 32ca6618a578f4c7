"""A stranger cannot fill the list of tables: an address makes at most so many tables in
a window (past that ``flood``, 429, nothing made), and a lobby left alone drops off the
list after a while (its link still works)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from yacht.store import Store
from yacht.web import api
from yacht.web.errors import WebError
from yacht.web.limits import PerAddress

from .conftest import serve

LOBBY = {"variant": "yatzy", "speed": "instant",
         "seats": [{"kind": "person", "name": "Ann", "here": True},
                   {"kind": "person", "here": False}]}


@pytest.fixture
def limited(store: Store) -> Iterator[TestClient]:
    yield from serve(store, new_tables=(3, 600.0))


def test_an_address_makes_so_many_tables_in_a_window(limited: TestClient) -> None:
    made = [limited.post("/api/tables", json=LOBBY) for _ in range(3)]
    assert [r.status_code for r in made] == [200, 200, 200]
    listed = {t["id"] for t in limited.get("/api/tables").json()}
    assert listed == {r.json()["id"] for r in made}
    r = limited.post("/api/tables", json=LOBBY)
    assert r.status_code == 429 and r.json()["code"] == "flood"
    assert r.json()["error"].startswith("too many new tables from this address: at most 3 "
                                        "in 10 minutes; try again in ")
    assert {t["id"] for t in limited.get("/api/tables").json()} == listed   # nothing made
    assert limited.get("/healthz").status_code == 200


def test_the_window_is_per_address_and_passes() -> None:
    limit = PerAddress(2, 60.0)
    limit.take("a", "tables", now=0.0)
    limit.take("a", "tables", now=1.0)
    with pytest.raises(WebError, match="try again in 59 s"):
        limit.take("a", "tables", now=1.0)
    limit.take("b", "tables", now=1.0)          # another address: its own window
    limit.take("a", "tables", now=60.0)         # the first one has left the window
    with pytest.raises(WebError):
        limit.take("a", "tables", now=60.5)
    unlimited = PerAddress(None)
    for _ in range(100):
        unlimited.take("a", "tables")


def test_a_lobby_left_alone_drops_off_the_list(client: TestClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = client.post("/api/tables", json=LOBBY).json()
    assert lobby["id"] in {t["id"] for t in client.get("/api/tables").json()}
    monkeypatch.setattr(api, "LOBBY_LISTED", timedelta(minutes=-1))   # (an hour on)
    assert lobby["id"] not in {t["id"] for t in client.get("/api/tables").json()}
    assert client.get(f"/api/tables/{lobby['id']}").status_code == 200   # its link works


def test_the_limit_is_the_environments(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from yacht.web import limits

    monkeypatch.delenv(limits.ENV, raising=False)
    assert limits.configured() == (limits.TABLES, limits.TABLES_WINDOW)
    monkeypatch.setenv(limits.ENV, "5")
    assert limits.configured() == (5, limits.TABLES_WINDOW)
    for off in ("0", "none"):
        monkeypatch.setenv(limits.ENV, off)
        assert limits.configured() is None
    monkeypatch.setenv(limits.ENV, "-3")
    assert limits.configured() == (limits.TABLES, limits.TABLES_WINDOW)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "YACHT_NEW_TABLES='-3' is not a number of tables" in err


def test_an_address_holds_so_many_sockets_open(store: Store,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """One stranger opened sockets without end (QA s20: 400 from one address, each kept
    with its memory, until the process runs out of files and no one else connects).
    An address holds at most so many open at once (``YACHT_SOCKETS``, per process):
    past that a new socket's handshake is refused; a socket closed frees its place."""
    from starlette.websockets import WebSocketDisconnect

    from yacht.web.limits import SOCKETS, configured_sockets

    from .browser import Browser
    from .conftest import new_table

    for client in serve(store, sockets=3):
        t = new_table(client, "yatzy")
        group = new_table(client, "yatzy", dice="duplicate", seats=[
            {"kind": "person", "name": "Ann", "here": True}, {"kind": "expert"}])["group"]
        pages = [Browser(client, t["id"]) for _ in range(2)]
        with client.websocket_connect(f"/ws/d/{group}") as field:  # (a field's counts too)
            field.send_json({"type": "hello"})
            assert field.receive_json()["type"] == "field"
            with pytest.raises(WebSocketDisconnect):
                Browser(client, t["id"])
            assert client.get("/healthz").status_code == 200  # (HTTP is not counted)
        pages.append(Browser(client, t["id"], t["token"]))  # its place is free again
        assert pages[-1].seats == [0]
        with pytest.raises(WebSocketDisconnect):
            Browser(client, t["id"])
        pages[0].close()
        pages[1].close()
        assert client.app.state.open_sockets.open == {"testclient": 1}  # type: ignore[attr-defined]
        pages[2].close()
    monkeypatch.setenv("YACHT_SOCKETS", "0")
    assert configured_sockets() is None
    monkeypatch.setenv("YACHT_SOCKETS", "12")
    assert configured_sockets() == 12
    monkeypatch.delenv("YACHT_SOCKETS")
    assert configured_sockets() == SOCKETS
