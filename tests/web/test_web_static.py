"""The page's files keep the promises the CSP and the issue make: nothing from elsewhere,
no inline scripts or style attributes, names never parsed as markup."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "src" / "yacht" / "web" / "static"
FILES = sorted(p for p in STATIC.rglob("*") if p.is_file())


def test_nothing_comes_from_elsewhere() -> None:
    # (the PNGs: the icons a phone's home screen takes, drawn from icons/icon.svg)
    assert {p.suffix for p in FILES} <= {".html", ".js", ".css", ".svg", ".png"}
    assert {p.name for p in FILES if p.suffix == ".png"} == {
        "icon-192.png", "icon-512.png", "icon-maskable-512.png", "apple-touch-icon.png"}
    for path in FILES:
        if path.suffix == ".png":
            continue
        text = path.read_text("utf-8")
        urls = re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s'\"]*", text)
        assert [u for u in urls if "www.w3.org/2000/svg" not in u] == [], path.name
        assert "@import" not in text, path.name


def test_no_inline_script_or_style_and_no_markup_from_text() -> None:
    html = (STATIC / "index.html").read_text("utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert " style=" not in html and "<style" not in html
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
    for path in STATIC.rglob("*.js"):
        code = path.read_text("utf-8")
        for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                      "eval(", "new Function", 'setAttribute("style"'):
            assert risky not in code, (path.name, risky)


def test_every_module_is_served(client: TestClient) -> None:
    """Each module the page imports is served as JavaScript, under the CSP."""
    imported = {"/static/main.js"}
    for path in STATIC.rglob("*.js"):
        for name in re.findall(r'from "(\./[a-z/]+\.js)"', path.read_text("utf-8")):
            target = (path.parent / name).resolve().relative_to(STATIC.resolve())
            imported.add(f"/static/{target.as_posix()}")
    assert len(imported) >= 10
    for url in sorted(imported):
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.headers["content-type"].startswith("text/javascript"), url
        assert "script-src 'self'" in r.headers["content-security-policy"]


def test_the_home_page_offers_every_computer_level() -> None:
    from yacht.strategy.base import PLAYER_LEVELS

    home = (STATIC / "js" / "home.js").read_text(encoding="utf-8")
    kinds = home[home.index("const KINDS"):home.index("];", home.index("const KINDS"))]
    for level in PLAYER_LEVELS:
        assert f'["{level}",' in kinds, level


def test_the_page_names_the_dice_setting_as_the_terminal_does() -> None:
    """What a click on a die does, in the words of the terminal's setup (the page has
    its own copy of them: it cannot import Python)."""
    from yacht.session.present import DICE_MARK_WORDS

    prefs = (STATIC / "js" / "prefs.js").read_text(encoding="utf-8")
    line = next(x for x in prefs.splitlines() if x.startswith("export const DICE_MARKS"))
    assert re.findall(r'\["(\w+)", "([^"]+)"\]', line) == list(DICE_MARK_WORDS.items())


def test_the_page_can_be_installed(client: TestClient) -> None:
    """The web app manifest (the home page's, a table's), its icons and the service
    worker: from this server, under its security policy."""
    home = client.get("/manifest.webmanifest")
    assert home.status_code == 200
    assert home.headers["content-type"] == "application/manifest+json"
    assert "manifest-src 'self'" in home.headers["content-security-policy"]
    assert home.json()["start_url"] == "/" and home.json()["scope"] == "/"
    table = client.get("/t/0123456789ab/manifest.webmanifest").json()
    assert table["start_url"] == table["id"] == "/t/0123456789ab"
    assert table["icons"] == home.json()["icons"]
    for icon in table["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.headers["content-type"] == "image/png", icon
        width, height = int.from_bytes(r.content[16:20]), int.from_bytes(r.content[20:24])
        assert f"{width}x{height}" == icon["sizes"], icon
    for bad in ("ZZZ", "0123456789abcdef0123456789abcdef0", "..%2f..%2fetc"):
        r = client.get(f"/t/{bad}/manifest.webmanifest")
        assert r.status_code == 404 and r.json()["code"] == "not_found", bad
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "fetch" not in worker.text  # it handles no request: nothing offline
    html = (STATIC / "index.html").read_text("utf-8")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html


def test_an_address_of_no_table_is_404_and_the_page_says_so(client: TestClient) -> None:
    """/t/nonexistent was a 200 with just 'Nothing here' (QA s18 web item 6): now a 404
    whose page says the table does not exist or has ended, with a link home."""
    for path in ("/t/nonexistent", "/d/nonexistent"):
        got = client.get(path)
        assert got.status_code == 404 and "text/html" in got.headers["content-type"]
    assert client.get("/t/0123456789ab").status_code == 200  # (the page asks the socket)
    main = (Path(__file__).parents[2] / "src/yacht/web/static/main.js").read_text("utf-8")
    assert "This table does not exist or has ended." in main
