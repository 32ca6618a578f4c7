"""What a newcomer hits in the browser (issue 22): many players' cards never scroll the
page sideways and no name is cut; keys typed with no gap (and answers that come late)
are applied in order; after a server restart the table's recent moves are shown again;
one rule for who sets a demo's pace, and the name "You" in the second person; a start
refused for a name says whose, and marks and focuses its field; the game's end takes the
focus (the axe scan of the main screens is in test_screens); ``?`` shows the keys first,
the rules one step further."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, WebSocketRoute
from playwright.async_api import TimeoutError as PlaywrightTimeout

from yacht.engine import Choose, Roll, Score

from .conftest import Server
from .play import (
    after,
    at_the_table,
    chromium,
    new_context,
    open_tab,
    play_alone,
    screenshot,
    seat_token,
    set_pref,
    shown,
    wait_game,
)

DESKTOP_800: ViewportSize = {"width": 1280, "height": 800}


async def context(browser: Browser, phone: bool) -> BrowserContext:
    """1280x800, or a 390x844 phone."""
    if phone:
        return await new_context(browser, phone=True)
    return await browser.new_context(viewport=DESKTOP_800)


def people_and_computers(server: Server, names: list[str], variant: str = "yahtzee",
                         speed: str = "instant") -> dict[str, Any]:
    """A table where the first name is a person of this browser, the rest computers."""
    seats = [{"kind": "person", "name": names[0], "here": True}] + [
        {"kind": "beginner", "name": n} for n in names[1:]]
    made: dict[str, Any] = server.post("/api/tables", {"variant": variant, "speed": speed,
                                                       "seats": seats})
    return made


# --- item 8: many players ------------------------------------------------------------
WIDTHS = """() => ({
  page: document.documentElement.scrollWidth,
  width: document.documentElement.clientWidth,
  spilled: [...document.querySelectorAll('.player-head')]
    .filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent),
  names: [...document.querySelectorAll('.player-name')].map(e => ({
    name: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
    shown: (() => {
      const frame = document.querySelector('.cards-scroll').getBoundingClientRect();
      const r = e.getBoundingClientRect();
      return r.left >= frame.left - 1 && r.right <= frame.right + 1;
    })()})),
})"""


@pytest.mark.slow
def test_many_players_never_scroll_the_page_sideways(server: Server, shots: Path) -> None:
    """5 and 8 players at 1280x800 and on a 390x844 phone: the cards scroll inside their
    frame, the page never; no name is cut short; on the phone 4 players fit whole."""
    async def main() -> None:
        async with chromium() as browser:
            for phone in (False, True):
                width = 390 if phone else 1280
                for n in (4, 5, 8):
                    names = ["Ann", "Bea", "Cpu", "Champion", "Dora", "Computer 6",
                             "Maximilian Alexander", "Computer 8"][:n]
                    made = people_and_computers(server, names)
                    ctx = await context(browser, phone)
                    tab = await at_the_table(ctx, server, made)
                    page = tab.page
                    s = await shown(page)
                    await page.click("#roll")
                    await after(page, s["version"])  # the previews in Ann's column
                    seen = await page.evaluate(WIDTHS)
                    assert seen["width"] == width
                    assert seen["page"] <= width, (phone, n, seen["page"])
                    assert [x["name"] for x in seen["names"] if x["cut"]] == [], (phone, n)
                    assert seen["spilled"] == [], (phone, n)  # a heading's kind, for one
                    if phone and n == 4:  # the whole card in view: no name at its edge
                        assert all(x["shown"] for x in seen["names"]), seen["names"]
                    await screenshot(page, shots, f"players-{n}-{'phone' if phone else 'desktop'}",
                                     full=False)
                    tab.check()
                    await ctx.close()

    asyncio.run(main())


# --- item 9: a typist's keys -----------------------------------------------------------
TOASTS = """() => {
  window.toasts = [];
  new MutationObserver(() => {
    const t = document.getElementById('toast');
    if (t && !t.hidden) window.toasts.push(t.textContent);
  }).observe(document.getElementById('toast'), {attributes: true, childList: true, subtree: true});
}"""

#: keys pressed in one go: no time passes between them (the fastest typist there is)
BURST = """keys => { for (const key of keys) document.dispatchEvent(
  new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true})); }"""


async def slow_answers(page: Page, seconds: float) -> None:
    """Every message of the server reaches the page ``seconds`` late (in order)."""
    loop = asyncio.get_running_loop()

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))

        def later(message: str | bytes) -> None:
            loop.call_later(seconds, ws.send, message)

        server.on_message(later)

    await page.route_web_socket("**/ws/*", route)


def actions_of(server: Server, game_id: str) -> list[Any]:
    from yacht.store import open_store

    store = open_store(str(server.db))
    try:
        return list(store.load_record(game_id).actions)
    finally:
        store.close()


def test_keys_typed_with_no_gap_are_applied_in_order(server: Server) -> None:
    """A whole turn typed at once (roll, choose dice 1 and 3, roll them, choose die 2,
    roll it, score a box): the game has exactly those actions, no key refused; the same
    with every answer of the server a quarter of a second late. And the same keys where
    they hold the dice (Yatzy's way): hold dice 1 and 3, roll the others, hold die 2 too,
    roll the last two."""
    pick = random.Random(22)
    #: by the way a key treats a die: the versions the keys make, the actions, the dice
    #: each choice rolls again, and how many dice each roll after the first rolls
    ways = {"reroll": (7, [Roll, Choose, Choose, Roll, Choose, Roll, Score],
                       [[0], [0, 2], [1]], (2, 1)),
            # (a hold is saved as the choice of the other dice, and the holds kept after a
            # roll again: 4893e4d)
            "hold": (8, [Roll, Choose, Choose, Roll, Choose, Choose, Roll, Score],
                     [[1, 2, 3, 4], [1, 3, 4], [1, 3, 4], [3, 4]], (3, 2))}

    async def main() -> None:
        async with chromium() as browser:
            for mark, late in (("reroll", 0.0), ("reroll", 0.25), ("hold", 0.0),
                               ("hold", 0.25)):
                versions, kinds, choices, rolled = ways[mark]
                made = people_and_computers(server, ["Kim"], variant="yatzy")
                ctx = await context(browser, phone=False)
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                if late:
                    await slow_answers(page, late)
                if mark == "reroll":  # (Yatzy holds: this browser chose the other way)
                    await set_pref(page, "dice_mark", "reroll")
                await seat_token(page, server, made)
                await page.goto(server.url(made["url"]))
                s = await wait_game(page)
                await page.evaluate(TOASTS)
                game_id = server.snapshot(made["id"])["snapshot"]["game_id"]
                for turn in range(4):
                    snap = server.snapshot(made["id"])["snapshot"]
                    open_rows = [r for r in snap["rows"] if r.get("letter")
                                 and snap["cards"][0]["cells"][r["id"]][0] == ""]
                    row = pick.choice(open_rows)
                    before = len(actions_of(server, game_id))
                    await page.evaluate(BURST, ["r", "1", "3", "r", "2", "r", row["letter"]])
                    s = await page_at(page, s["version"] + versions)
                    done = actions_of(server, game_id)[before:]
                    assert [type(a) for a in done] == kinds, (mark, late, turn, done)
                    assert [sorted(a.dice) for a in done if isinstance(a, Choose)] == choices
                    assert done[-1].category == row["category"]
                    rolls = [a for a in done if isinstance(a, Roll)]
                    assert tuple(len(r.result or ()) for r in rolls[1:]) == rolled
                assert await page.evaluate("window.toasts") == []
                tab.check()
                await ctx.close()

    asyncio.run(main())


async def page_at(page: Page, version: int) -> dict[str, Any]:
    """Until the page shows version ``version`` of the table (or a newer one)."""
    try:
        await page.wait_for_function(
            "v => Number(document.querySelector('.game').dataset.version) >= v", arg=version)
    except PlaywrightTimeout:
        raise AssertionError(f"the page stays at {await shown(page)}, not version {version}; "
                             f"it said {await page.evaluate('window.toasts')}") from None
    return await shown(page)


# --- item 10: the recent moves after a restart -------------------------------------------
def test_the_recent_moves_are_shown_again_after_a_server_restart(own_server: Server) -> None:
    server = own_server

    async def main() -> None:
        made = people_and_computers(server, ["Ann", "Cpu"], variant="yatzy")
        async with chromium() as browser:
            ctx = await context(browser, phone=False)
            tab = await at_the_table(ctx, server, made)
            page = tab.page
            for _ in range(2):  # Ann scores twice, the computer plays its turns
                s = await shown(page)
                await page.click("#roll")
                s = await after(page, s["version"])
                await page.locator(".score-btn").first.click()
                s = await after(page, s["version"])
                await page.click("#roll")  # Go on: the computer's turn
                await page.wait_for_function(
                    "() => document.querySelector('#roll').textContent === 'Roll'")
            news = await page.locator(".news li").all_text_contents()
            assert len(news) == 4 and any("Cpu: " in line for line in news), news

            server.kill9()
            await page.wait_for_selector(".conn-banner:not([hidden])")
            server.start()
            await page.wait_for_selector(".conn-banner", state="hidden", timeout=30_000)
            await wait_game(page)
            assert await page.locator(".news li").all_text_contents() == news
            tab.check()

    asyncio.run(main())


# --- item 11: a demo's pace, and "You" ---------------------------------------------------
async def speed_of(page: Page, server: Server, tid: str, want: str) -> None:
    """The menu shows the pace at once; the server has it when its answer is in (the
    page does not wait for it), so the server is asked until it agrees, 10 s at most."""
    await page.wait_for_function(
        "s => document.querySelector('#speed-select').value === s", arg=want)
    deadline = time.monotonic() + 10
    while (speed := server.snapshot(tid)["snapshot"]["speed"]) != want:
        assert time.monotonic() < deadline, f"the server's pace is {speed}, not {want}"
        await asyncio.sleep(0.05)


def test_who_sets_a_demos_pace_and_you_are_playing(server: Server) -> None:
    """The browser that started a demo sets its pace with the menu and with + and -
    alike; a watcher can do neither (the page says so). The computer called You "is"
    nothing: You are playing, your turn."""
    async def main() -> None:
        async with chromium() as browser:
            ctx = await context(browser, phone=False)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
                "variant": "yahtzee", "options": {}, "players": [
                    {"kind": "here", "name": "You"}, {"kind": "expert", "name": "Max"}],
                "demo": True, "speed": "slow"}))
            await page.reload()
            await page.click("#start")
            await wait_game(page)
            tid = page.url.rsplit("/", 1)[-1]
            # You (played by the computer) begin: the page speaks to You
            label = await page.text_content("#roll") or ""
            turn = await page.text_content("#turn-line") or ""
            assert label == "You are playing", label
            assert turn.startswith("Your turn"), turn
            assert (await page.title()).startswith("Your turn")
            # the pace: the menu and the keys, one rule
            assert not await page.is_disabled("#speed-select")
            await page.keyboard.press("+")
            await speed_of(page, server, tid, "normal")
            await page.select_option("#speed-select", "fast")
            await speed_of(page, server, tid, "fast")
            await page.keyboard.press("-")
            await speed_of(page, server, tid, "normal")

            # a watcher (another browser) sees the pace and cannot change it
            other = await context(browser, phone=False)
            watcher = await open_tab(other, server.url(f"/t/{tid}"))
            await wait_game(watcher.page)
            # (the pace in words: a menu greyed out said nothing of why, QA s23)
            assert await watcher.page.is_hidden("#speed-select")
            assert await watcher.page.text_content("#speed-text") == "Normal"
            assert "Only a player at the table" in (
                await watcher.page.get_attribute("#speed-text", "title") or "")
            assert await page.is_hidden("#speed-text")
            await watcher.page.keyboard.press("+")
            await watcher.page.wait_for_selector("#toast:not([hidden])")
            assert "pace" in (await watcher.page.text_content("#toast") or "")
            assert server.snapshot(tid)["snapshot"]["speed"] == "normal"
            tab.check()
            watcher.check()
            await other.close()
            await ctx.close()

    asyncio.run(main())


# --- item 12: whose name is missing -----------------------------------------------------
async def plant(page: Page, players: list[dict[str, str]]) -> None:
    await page.wait_for_selector("#start")
    await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
        "variant": "yatzy", "options": {}, "players": players, "demo": False,
        "speed": "fast"}))
    await page.reload()
    await page.wait_for_selector("#start")


MARKED = """() => [...document.querySelectorAll('.player-row input.name')].map(i => ({
  id: i.id, invalid: i.getAttribute('aria-invalid') === 'true',
  says: (i.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
    .map(id => document.getElementById(id).textContent).join(' '),
  focused: document.activeElement === i}))"""


def test_a_start_refused_for_a_name_says_whose_and_marks_it(server: Server,
                                                            shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            for phone in (False, True):
                ctx = await context(browser, phone)
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                tables = len(server.get("/api/tables"))
                await plant(page, [{"kind": "here", "name": "Ann"},
                                   {"kind": "expert", "name": "Max"},
                                   {"kind": "here", "name": "  "}])
                await page.click("#start")
                await page.wait_for_function(
                    "() => document.activeElement && document.activeElement.id === 'p2-name'")
                marks = await page.evaluate(MARKED)
                assert [m["invalid"] for m in marks] == [False, False, True], marks
                assert "Player 3" in marks[2]["says"] and "name" in marks[2]["says"], marks
                assert page.url == server.url("/")  # still the setup: nothing was made
                assert len(server.get("/api/tables")) == tables
                await screenshot(page, shots, f"name-missing-{'phone' if phone else 'desktop'}",
                                 full=False)
                # typing a name takes the mark away; the same name twice is marked too
                await page.fill("#p2-name", "ann")
                assert not (await page.evaluate(MARKED))[2]["invalid"]
                await page.click("#start")
                await page.wait_for_function(
                    "() => document.activeElement && document.activeElement.id === 'p2-name'")
                marks = await page.evaluate(MARKED)
                assert [m["invalid"] for m in marks] == [False, False, True], marks
                assert "Ann" in marks[2]["says"], marks
                await page.fill("#p2-name", "Bo")
                await page.click("#start")
                await wait_game(page)
                tab.check()
                await ctx.close()

    asyncio.run(main())


# --- item 14: the end takes the focus ---------------------------------------------------
def test_the_games_end_takes_the_focus(server: Server) -> None:
    """A game started on the home page and played by keyboard alone (the focus on the
    page's heading all along): at its end the focus is on the result."""
    async def main() -> None:
        async with chromium() as browser:
            ctx = await context(browser, phone=False)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await plant(page, [{"kind": "here", "name": "Kim"}])
            await page.select_option("#variant", "tommys-crag")
            await page.click("#start")
            await wait_game(page)
            assert await page.evaluate("document.activeElement.className") == "bar-title"
            await play_alone(page, "keyboard", seed=14)
            await page.wait_for_function(
                "() => document.activeElement && document.activeElement.id === 'end-title'")
            tab.check()
            await ctx.close()

    asyncio.run(main())


# --- item 15: ? shows the keys ----------------------------------------------------------
IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


def test_the_question_mark_shows_the_keys_and_the_rules_are_one_step_further(
        server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            for phone in (False, True):
                size = "phone" if phone else "desktop"
                ctx = await context(browser, phone)
                tab = await at_the_table(ctx, server, people_and_computers(server, ["Ann", "Cpu"]))
                page = tab.page
                await page.keyboard.press("?")
                dialog = page.locator("dialog[open]")
                await dialog.locator(".keys-help").wait_for()
                # the keys, whole, in view at once; the rules not yet
                assert await page.evaluate(IN_VIEW, "dialog[open] .keys-help"), size
                assert await dialog.locator(".rules-text").count() == 0
                text = await dialog.text_content() or ""
                assert "roll" in text and "Box letters" in text
                await screenshot(page, shots, f"keys-{size}", full=False)
                # one step further: the rules
                await dialog.get_by_role("button", name="The rules of Yahtzee").click()
                await page.locator("dialog[open] .rules-text").wait_for()
                assert await page.locator("dialog[open]").count() == 1
                assert await page.locator("dialog[open] .keys-help").count() == 0
                await screenshot(page, shots, f"rules-{size}", full=False)
                await page.keyboard.press("Escape")
                await page.locator("dialog").wait_for(state="detached")
                # the bar's Rules button: the rules, and the keys one step from them (a
                # phone's, that only takes touches: the settings alone)
                await page.click("#rules-btn")
                await page.locator("dialog[open] .rules-text").wait_for()
                await page.get_by_role("button", name="Settings" if phone else "The keys").click()
                await page.locator("dialog[open] #keys-mark").wait_for(state="attached")
                assert await page.locator("dialog[open] .keys-help").count() == (0 if phone else 1)
                await page.keyboard.press("Escape")
                await page.locator("dialog").wait_for(state="detached")
                tab.check()
                await ctx.close()

    asyncio.run(main())
