"""Errors' lines: no file path of the server's, and nothing else taken for one (QA s20)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from yacht.store import Store

from .conftest import new_table


def test_the_sites_own_addresses_are_told_as_they_are(client: TestClient) -> None:
    """A line naming one of the site's own addresses said "a file" instead (the
    redaction of file paths took ``/api/variants`` and ``/d/GROUP`` for paths): a wrong
    variant said "see a file", and a duplicate card's watcher was told to "watch the
    field at a file" (found by sending a number as the variant, and by watching a
    started card)."""
    r = client.post("/api/tables", json={"variant": 1, "seats": [
        {"kind": "person", "name": "Ann"}]})
    assert r.status_code == 400 and "/api/variants" in r.json()["error"], r.text
    assert "a file" not in r.json()["error"]
    t = new_table(client, "yatzy", dice="duplicate", seats=[
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "expert", "name": "Max"}])
    from .browser import Browser

    with Browser(client, t["id"], t["token"]) as ann:
        ann.wait(lambda table: table.get("phase") == "game")
        r = client.get(f"/api/tables/{t['id']}")
        assert r.status_code == 403, r.text
        assert f"/d/{t['group']}" in r.json()["error"] and "a file" not in r.json()["error"]


def test_a_names_escapes_are_not_taken_for_a_file_path(client: TestClient) -> None:
    """A name of right-to-left marks is refused naming the mark (in words: its code and
    name); its escapes
    (``\\u202e\\u202e...``) were taken for a Windows path and the line said "player name
    'a file'" (found by asking the statistics of such a name)."""
    r = client.get("/api/stats", params={"player": "\u202e" * 30})
    assert r.status_code == 400
    line = r.json()["error"]
    assert "a file" not in line and "U+202E RIGHT-TO-LEFT OVERRIDE" in line, line
    # a real path is still not told
    from yacht.web.errors import redact

    assert redact(r"cannot open C:\srv\yacht\db.sqlite") == "cannot open a file"
    assert redact(r"cannot open \\srv\share\db.sqlite") == "cannot open a file"


def test_an_error_never_repeats_kilobytes_of_the_request(client: TestClient) -> None:
    """A query's or a path's variant (or option) of any length came back whole in the
    error's line: 30 KB asked, 30 KB answered "unknown variant 'xxx...'" (QA s20, against
    /api/daily, /api/scores and /api/variants/ID/rules). They are bounded as a body's
    are (a variant id 64 characters, an option's name and value 40, 16 options)."""
    long = "x" * 5000
    for path, params in [("/api/daily", {"variant": long}),
                         ("/api/scores", {"variant": long}),
                         (f"/api/variants/{long}/rules", {}),
                         ("/api/scores", {"variant": "yahtzee", "joker": long}),
                         ("/api/variants/yahtzee/rules", {long: "free"}),
                         ("/api/variants/yahtzee/rules",
                          {f"k{i}": "v" for i in range(40)})]:
        r = client.get(path, params=params)
        assert r.status_code in (400, 404), (path, r.text[:200])
        assert len(r.text) < 300, (path, r.text[:200])
        assert r.json()["code"] in ("bad_request", "not_found")
    r = client.get("/api/scores", params={"variant": "yahtzee", "joker": "free"})
    assert r.status_code == 200  # (a real option still reads)


def test_a_body_the_framework_cannot_parse_is_told_in_the_sites_words(
        client: TestClient) -> None:
    """JSON nested deeper than the parser goes, or a number of thousands of digits: the
    line was FastAPI's own ("There was an error parsing the body")."""
    for body in ("[" * 5000 + "]" * 5000, '{"variant": ' + "9" * 5000 + "}"):
        r = client.post("/api/tables", content=body,
                        headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "the body could not be read: a JSON object is expected"
    # the server goes on
    assert client.get("/api/variants").status_code == 200


def test_an_unknown_variant_is_told_alike_wherever_it_is_named(client: TestClient) -> None:
    """An unknown variant was 400 at ``POST /api/tables`` but 404 at ``/api/scores``,
    ``POST /api/score`` and ``/api/daily`` (QA s23). The rule (API.md): a path naming
    what does not exist is 404; a value of a body or a query the API does not take is
    400; either way in the same words."""
    seat = [{"kind": "person", "name": "Ann", "here": True}]
    asked = [("POST", "/api/tables", {"json": {"variant": "nope", "seats": seat}}),
             ("POST", "/api/score", {"json": {"variant": "nope", "dice": [1, 2, 3, 4, 5]}}),
             ("GET", "/api/scores", {"params": {"variant": "nope"}}),
             ("GET", "/api/daily", {"params": {"variant": "nope"}}),
             ("POST", "/api/daily", {"json": {"variant": "nope", "name": "Ann"}})]
    lines = set()
    for method, path, kw in asked:
        r = client.request(method, path, **kw)
        assert (r.status_code, r.json()["code"]) == (400, "bad_request"), (path, r.text)
        lines.add(r.json()["error"])
    r = client.get("/api/variants/nope/rules")  # (the path names it: no such page)
    assert (r.status_code, r.json()["code"]) == (404, "not_found"), r.text
    lines.add(r.json()["error"])
    assert len(lines) == 1 and next(iter(lines)).startswith("unknown variant 'nope'"), lines
    # a variant id too long, and options past their bounds: a body's words in a query too
    long = "x" * 70
    lines = set()
    for method, path, kw in [
            ("POST", "/api/tables", {"json": {"variant": long, "seats": seat}}),
            ("POST", "/api/score", {"json": {"variant": long, "dice": [1, 2, 3, 4, 5]}}),
            ("GET", "/api/scores", {"params": {"variant": long}}),
            ("GET", "/api/daily", {"params": {"variant": long}})]:
        r = client.request(method, path, **kw)
        assert r.status_code == 400, (path, r.text)
        lines.add(r.json()["error"])
    assert lines == {"variant: a variant id (see /api/variants)"}, lines
    lines = set()
    for options in ({"joker": long}, {long: "free"}, {f"k{i}": "v" for i in range(20)}):
        r = client.post("/api/score", json={"variant": "yahtzee", "options": options,
                                            "dice": [1, 2, 3, 4, 5]})
        assert r.status_code == 400, r.text
        lines.add(r.json()["error"])
        r = client.get("/api/scores", params={"variant": "yahtzee", **options})
        assert r.status_code == 400, r.text
        lines.add(r.json()["error"])
    assert len(lines) == 1 and next(iter(lines)).startswith("options: "), lines
    # a malformed game id: the path's is no such game, the query's a bad value
    assert client.get("/api/games/nope/verify").status_code == 404
    r = client.get("/api/daily", params={"variant": "yatzy", "game": "nope"})
    assert r.status_code == 400 and r.json()["code"] == "bad_request", r.text
    # a query's true-or-false in the site's words, not pydantic's
    r = client.get("/api/stats", params={"computers": "maybe"})
    assert r.status_code == 400 and r.json()["error"].startswith("computers: true or false")


def test_a_method_a_path_does_not_take_is_405_with_allow(client: TestClient) -> None:
    """``DELETE``/``PUT`` were told ``bad_request`` (400's code), and ``Allow`` named only
    the path's first route (``GET`` at ``/api/tables``, which takes ``POST`` too); ``HEAD``
    was refused wherever ``GET`` is taken (QA s23). Now: 405 ``method_not_allowed`` in
    the site's shape, ``Allow`` every method the path takes, and ``HEAD`` answered as
    its ``GET`` without the body."""
    from yacht.web.errors import STATUS

    assert STATUS["method_not_allowed"] == 405
    for method, path, allow in [("DELETE", "/api/tables", "GET, HEAD, POST"),
                                ("PUT", "/api/tables", "GET, HEAD, POST"),
                                ("PATCH", "/api/daily", "GET, HEAD, POST"),
                                ("DELETE", "/api/tables/0123456789ab", "GET, HEAD"),
                                ("GET", "/api/my/games", "POST"),
                                ("PUT", "/api/score", "POST"),
                                ("POST", "/api/variants", "GET, HEAD"),
                                ("DELETE", "/", "GET, HEAD"),
                                ("OPTIONS", "/static/favicon.svg", "GET, HEAD")]:
        r = client.request(method, path)
        assert r.status_code == 405, (method, path, r.text)
        assert r.headers["allow"] == allow, (method, path, r.headers)
        assert r.json() == {"error": f"{method} is not answered here (it takes {allow})",
                            "code": "method_not_allowed"}, r.text
    for path in ("/api/variants", "/api/tables", "/", "/static/favicon.svg"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, (path, head.status_code)
        assert head.content == b"" and got.content
        assert head.headers["content-type"] == got.headers["content-type"]
    r = client.head("/api/my/games")  # (a POST alone: HEAD is no GET there)
    assert r.status_code == 405 and r.headers["allow"] == "POST" and r.content == b""
    assert client.head("/api/nothing").status_code == 404


def test_head_is_answered_by_a_real_server(store: Store) -> None:
    """uvicorn itself sends no body to a HEAD, and takes the answer's length as said."""
    import http.client

    from yacht.web import make_app

    from .conftest import ThreadServer

    app = make_app(store, allowed_hosts=["127.0.0.1"], new_tables=None)
    with ThreadServer(app) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("HEAD", "/api/variants")
        r = conn.getresponse()
        assert r.status == 200 and r.read() == b"" and int(r.headers["content-length"]) > 0
        conn.request("DELETE", "/api/tables")  # (the same connection: it is still good)
        r = conn.getresponse()
        assert r.status == 405 and r.headers["allow"] == "GET, HEAD, POST"
        assert b"method_not_allowed" in r.read()
        conn.close()


def test_a_sockets_address_asked_by_a_plain_request_is_426(client: TestClient) -> None:
    """``GET /ws/ID`` (a link followed, a script that forgot the handshake) was 404 "no
    such page", as if the address did not exist (QA s23). It is 426: the address takes
    the WebSocket protocol, with ``Upgrade: websocket``; the socket itself still opens."""
    made = client.post("/api/tables", json={
        "variant": "tommys-crag", "seats": [{"kind": "person", "name": "Ann", "here": True}]})
    tid = made.json()["id"]
    for path in (f"/ws/{tid}", "/ws/0123456789ab", "/ws/d/0123456789ab"):
        r = client.get(path)
        assert r.status_code == 426, (path, r.text)
        assert r.headers["upgrade"] == "websocket"
        assert r.json()["code"] == "upgrade_required"
        assert r.json()["error"].startswith("this address is a WebSocket"), r.text
    r = client.post(f"/ws/{tid}")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert client.get("/ws/a/b/c").status_code == 404  # (no socket's address)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": made.json()["token"]})
        assert ws.receive_json()["type"] == "welcome"
