"""Friends at a table who are not looking at it all the time: reactions shown beside the
name (and refused past the limit), "your turn" in the title, the icon and a notification
while the page is hidden (a chime while it is seen), and a page a phone can put on its
home screen (a manifest naming the table, its icons, the service worker)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, Page

from .conftest import Server
from .play import (
    Tab,
    after,
    chromium,
    new_context,
    open_tab,
    screenshot,
    seat_token,
    shown,
    wait_game,
)

#: a page whose visibility the test says: ``window.__hidden`` (set it, then dispatch
#: visibilitychange, as a browser does when its tab goes to the back)
HIDDEN = """
Object.defineProperty(Document.prototype, 'hidden', {
  configurable: true, get() { return Boolean(window.__hidden); } });
Object.defineProperty(Document.prototype, 'visibilityState', {
  configurable: true, get() { return window.__hidden ? 'hidden' : 'visible'; } });
"""

#: a reaction shown beside Ann's name (on the head of her column)
BESIDE_ANN = '.player-head[data-player="0"] .reaction-pop[data-reaction="{}"]'


async def set_hidden(page: Page, hidden: bool) -> None:
    await page.evaluate("h => { window.__hidden = h; "
                        "document.dispatchEvent(new Event('visibilitychange')); }", hidden)


def reactions_heard(page: Page) -> list[dict[str, Any]]:
    """Every reaction the page's sockets are sent from now on, in order."""
    heard: list[dict[str, Any]] = []

    def frame(payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "reaction":
            heard.append(msg)

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return heard


async def friends(server: Server, browser: Any, reactions: bool = True, phone: bool = False,
                  ) -> tuple[str, list[Tab], list[BrowserContext], list[dict[str, Any]]]:
    """Ann (this browser's seat) and Bob (his own browser) at a Yatzy table, the game
    drawn on both pages; and the reactions Bob's page is sent."""
    made = server.post("/api/tables", {"variant": "yatzy", "speed": "instant",
                                       "reactions": reactions, "seats": [
                                           {"kind": "person", "name": "Ann", "here": True},
                                           {"kind": "person", "here": False}]})
    contexts = [await new_context(browser), await new_context(browser, phone=phone)]
    for ctx in contexts:
        await ctx.add_init_script(HIDDEN)
    ann = await open_tab(contexts[0], server.url("/"))
    await seat_token(ann.page, server, made)
    await ann.page.goto(server.url(made["url"]))
    bob = await open_tab(contexts[1], server.url("/"))
    heard = reactions_heard(bob.page)
    await bob.page.goto(server.url(made["url"]))
    await bob.page.wait_for_selector("#take-1")
    await bob.page.fill("#join-name", "Bob")
    await bob.page.click("#take-1")
    for t in (ann, bob):
        await wait_game(t.page)
    return made["id"], [ann, bob], contexts, heard


async def notifications(page: Page, until: Any) -> list[list[str]]:
    """The notifications the page's service worker shows (title, body, the address a tap
    opens), once ``until`` them (the worker shows or closes them a moment later)."""
    got: list[list[str]] = []
    for _ in range(400):  # (up to 20 s: a loaded machine's worker can be slow to show it)
        got = await page.evaluate(
            "async () => (await (await navigator.serviceWorker.ready).getNotifications())"
            ".map(n => [n.title, n.body, n.data.url])")
        if until(got):
            break
        await asyncio.sleep(0.05)
    return got


async def pops(page: Page, where: str) -> list[str]:
    got: list[str] = await page.locator(f"{where} .reaction-pop").evaluate_all(
        "els => els.map(e => e.dataset.reaction + ':' + e.textContent)")
    return got


def test_reactions_shown_beside_the_name_and_held_back_past_the_limit(server: Server,
                                                                       shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tid, (ann, bob), _, heard = await friends(server, browser, phone=True)
            watcher = await open_tab(await new_context(browser), server.url(f"/t/{tid}"))
            await wait_game(watcher.page)
            await ann.page.click('.reaction-btn[data-reaction="clap"]')
            for t in (ann, bob, watcher):  # beside Ann's name on every page
                await t.page.wait_for_selector(BESIDE_ANN.format("clap"))
            await watcher.page.click('.reaction-btn[data-reaction="luck"]')
            await bob.page.wait_for_selector(
                '.watcher-reactions .reaction-pop[data-reaction="luck"]')
            assert await pops(bob.page, ".watcher-reactions") == ["luck:a watcher🍀"]
            live = await bob.page.text_content("#live") or ""
            assert "Ann: applause." in live and "A watcher: good luck." in live
            await screenshot(ann.page, shots, "reaction-desktop", full=False)
            await screenshot(bob.page, shots, "reaction-phone")

            # Ann's second and third are taken; then her buttons rest, and nothing goes out
            await ann.page.click('.reaction-btn[data-reaction="wow"]')
            await bob.page.wait_for_selector(BESIDE_ANN.format("wow"))
            await ann.page.click('.reaction-btn[data-reaction="laugh"]')
            await bob.page.wait_for_selector(BESIDE_ANN.format("laugh"))
            await ann.page.wait_for_selector(".reaction-bar[data-resting] .reaction-btn:disabled")
            await ann.page.locator('.reaction-btn[data-reaction="sad"]').click(force=True)
            # the page's own socket, past its buttons: a socket opened afresh is the same seat,
            # whose three are taken (QA s25: a fresh socket had three more)
            answer = await ann.page.evaluate("""async () => {
                const ws = new WebSocket(`ws://${location.host}/ws/${location.pathname.split('/')[2]}`);
                const said = [];
                await new Promise(r => ws.addEventListener('open', r));
                ws.addEventListener('message', e => said.push(JSON.parse(e.data)));
                ws.send(JSON.stringify({type: 'hello', token: localStorage.getItem(
                    'yacht.token.' + location.pathname.split('/')[2]).replaceAll('"', '')}));
                for (let i = 0; i < 4; i++)
                    ws.send(JSON.stringify({type: 'react', reaction: 'dice', id: i}));
                for (let n = 0; n < 100 && said.filter(m => m.id !== undefined).length < 4; n++)
                    await new Promise(r => setTimeout(r, 50));
                ws.close();
                return said.filter(m => m.id !== undefined).map(m => m.type + ':' + (m.code || ''));
            }""")
            assert answer == ["error:flood"] * 4
            # the refused ones reached no one
            assert [(m["reaction"], m["names"]) for m in heard] == [
                ("clap", ["Ann"]), ("luck", []), ("wow", ["Ann"]), ("laugh", ["Ann"])]
            assert "Ann: dice." not in (await bob.page.text_content("#live") or "")
            for t in (ann, bob, watcher):
                t.check()

    asyncio.run(main())


def test_a_table_made_without_reactions_shows_no_buttons(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            _, (ann, bob), _, _ = await friends(server, browser, reactions=False)
            for t in (ann, bob):
                assert await t.page.locator(".reaction-bar").is_hidden()
                t.check()

    asyncio.run(main())


def test_the_new_game_form_makes_a_table_without_reactions(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#reactions")
            assert await page.is_checked("#reactions")
            await page.uncheck("#reactions")
            await page.click("#start")
            await wait_game(page)
            tid = page.url.rsplit("/", 1)[-1]
            assert server.snapshot(tid)["reactions"] is False
            assert await page.locator(".reaction-bar").is_hidden()
            tab.check()

    asyncio.run(main())


def test_a_hidden_page_says_your_turn_when_it_comes(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tid, (ann, bob), contexts, _ = await friends(server, browser)
            await contexts[1].grant_permissions(["notifications"], origin=server.base)
            await bob.page.evaluate("localStorage.setItem('yacht.notify', 'true')")
            await bob.page.reload()
            await wait_game(bob.page)
            assert await bob.page.text_content("#notify-btn") == "🔔 Notify on"
            assert await ann.page.text_content("#notify-btn") == "🔔 Notify off"
            title = await bob.page.title()
            assert title == "Ann's turn · Yatzy"
            await set_hidden(bob.page, True)  # Bob looks at another tab

            s = await shown(ann.page)
            await ann.page.click("#roll")
            s = await after(ann.page, s["version"])
            assert await bob.page.title() == title  # (not his turn yet)
            await ann.page.locator(".score-btn").first.click()
            await bob.page.wait_for_function("() => document.title.startsWith('●')")
            assert await bob.page.title() == "● Your turn · Yatzy"
            icon = bob.page.locator('link[rel="icon"]')
            assert await icon.get_attribute("href") == "/static/favicon-turn.svg"
            notices = await bob.page.evaluate("window.yachtNotices")
            assert notices == [{"kind": "title", "text": "Your turn"},
                               {"kind": "notification", "text": "Your turn: Yatzy"}]
            shown_by_worker = await notifications(bob.page, lambda n: bool(n))
            assert shown_by_worker == [["Your turn: Yatzy", "Turn 1 of 15", f"/t/{tid}"]]
            # no chime for a page no one sees
            assert "turn" not in (await bob.page.evaluate("window.yachtSounds || []"))

            await set_hidden(bob.page, False)  # Bob comes back: as it was
            assert await bob.page.title() == "Your turn · Yatzy"
            assert await icon.get_attribute("href") == "/static/favicon.svg"
            assert await notifications(bob.page, lambda n: not n) == []

            # Ann's page is seen and her sound is on: her turn comes with a chime
            s = await shown(bob.page)
            await bob.page.click("#roll")
            s = await after(bob.page, s["version"])
            await bob.page.locator(".score-btn").first.click()
            await ann.page.wait_for_function("() => document.title === 'Your turn · Yatzy'")
            assert "turn" in await ann.page.evaluate("window.yachtSounds || []")
            assert await ann.page.evaluate("window.yachtNotices || []") == []
            for t in (ann, bob):
                t.check()

    asyncio.run(main())


def test_a_table_can_go_on_a_phones_home_screen(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            made = server.post("/api/tables", {"variant": "yatzy", "speed": "instant", "seats": [
                {"kind": "person", "name": "Ann", "here": True}]})
            ctx = await new_context(browser, phone=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            home = await page.evaluate("document.querySelector('link[rel=manifest]').href")
            assert home == server.url("/manifest.webmanifest")
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await wait_game(page)
            href = await page.evaluate("document.querySelector('link[rel=manifest]').href")
            assert href == server.url(f"/t/{made['id']}/manifest.webmanifest")
            manifest = await page.evaluate("async h => (await fetch(h)).json()", href)
            assert manifest["start_url"] == f"/t/{made['id']}" and manifest["scope"] == "/"
            assert manifest["display"] == "standalone"
            # every icon is there, of its size
            for icon in manifest["icons"]:
                size = await page.evaluate("""src => new Promise((ok, no) => {
                    const img = new Image(); img.onload = () => ok(img.naturalWidth + 'x' +
                    img.naturalHeight); img.onerror = no; img.src = src; })""", icon["src"])
                assert size == icon["sizes"], icon
            assert {i.get("purpose", "any") for i in manifest["icons"]} == {"any", "maskable"}
            # the service worker is the whole site's, and it handles no request
            scope = await page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
            assert scope == server.url("/")
            await screenshot(page, shots, "table-phone-installable", full=False)
            tab.check()  # nothing refused by the page's security policy

    asyncio.run(main())


def test_the_reaction_buttons_come_when_someone_else_is_at_the_table(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            made = server.post("/api/tables", {"variant": "yatzy", "speed": "instant", "seats": [
                {"kind": "person", "name": "Ann", "here": True}]})
            ann = await open_tab(await new_context(browser), server.url("/"))
            await seat_token(ann.page, server, made)
            await ann.page.goto(server.url(made["url"]))
            await wait_game(ann.page)
            bar = ann.page.locator(".reaction-bar")
            assert await bar.is_hidden()  # Ann alone: no one to see a reaction
            watcher = await open_tab(await new_context(browser), server.url(made["url"]))
            await wait_game(watcher.page)
            await bar.wait_for(state="visible")
            assert await watcher.page.locator(".reaction-bar").is_visible()
            await watcher.page.close()
            await bar.wait_for(state="hidden")
            ann.check()

    asyncio.run(main())
