"""The daily challenge in the browser (issue 24, item 3): the home page's box starts
today's game, the game ends with the place, the expert's total on the same dice and a
line to share, and the box then lists the game in today's standings."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from playwright.async_api import Page
from websockets.sync.client import connect
from websockets.typing import Origin

from .conftest import Server
from .play import (
    at_the_table,
    chromium,
    new_context,
    open_tab,
    play_alone,
    quickly_to_the_end,
    screenshot,
    table_id,
    wait_end,
)


async def own_snapshot(page: Page, server: Server) -> dict[str, Any]:
    """The daily table's snapshot as its player's seat sees it (a daily game is private:
    GET /api/tables/ID is 403 before the day is over)."""
    tid = table_id(page)
    token = json.loads(await page.evaluate(f"() => localStorage.getItem('yacht.token.{tid}')"))

    def ask() -> dict[str, Any]:
        url = server.url(f"/ws/{tid}").replace("http", "ws", 1)
        with connect(url, origin=Origin(server.base)) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg.get("type") == "state":
                    snap: dict[str, Any] = msg["table"]["snapshot"]
                    return snap

    return await asyncio.to_thread(ask)


def test_todays_challenge_from_the_home_page_to_the_standings(server: Server,
                                                              shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#daily-play")
            await page.select_option("#daily-variant", "tommys-crag")
            await page.locator(".daily-today", has_text="No finished game yet").wait_for()
            await page.fill("#daily-name", "Kim")
            await page.click("#daily-play")
            await quickly_to_the_end(server, page, leave=2)
            await play_alone(page, "mouse", seed=4)
            await wait_end(page)
            snap = await own_snapshot(page, server)
            assert snap["daily"] and snap["finished"]
            # a daily game is no one else's to watch or analyse before the day is over
            await page.locator("#analysis-later").wait_for()
            assert await page.locator("#analysis-btn").count() == 0
            total = snap["players"][0]["total"]
            box = page.locator(".end-daily")
            await box.locator("#daily-share").wait_for()
            line = await page.input_value("#daily-share")
            st = server.get(f"/api/daily?variant=tommys-crag&game={snap['game_id']}")
            assert line == st["mine"]["share"]
            assert line.startswith(f"Yacht daily {snap['daily']}, Tommy's Crag: {total} ")
            text = await box.text_content() or ""
            assert "Your place: 1st of 1." in text and f"these dice: {st['expert']}" in text
            # today's seed is nowhere on the page, though the game is over
            assert "seed" not in (snap["dice_seed"] or {})
            await screenshot(page, shots, "daily-end")
            # home again: the box lists the game in today's standings
            await page.click("#new-game")
            await page.wait_for_selector("#daily-play")
            await page.select_option("#daily-variant", "tommys-crag")
            row = page.locator(".daily-today .daily-standings li")
            await row.first.wait_for()
            assert "Kim" in (await row.first.text_content() or "")
            await screenshot(page, shots, "daily-home")
            tab.check()
            await ctx.close()

    asyncio.run(main())


def test_the_same_name_again_goes_back_to_its_game_and_another_browser_is_refused(
        server: Server) -> None:
    """QA s18 item 3: a name's second daily table, beside its first, showed the dice the
    ranked game was still to meet. The home page's button with the name of a game under
    way takes this browser back to that game; another browser is told why it cannot
    start one; once the game is over, the next is practice."""

    async def start(page: object, name: str) -> None:
        await page.wait_for_selector("#daily-play")  # type: ignore[attr-defined]
        await page.select_option("#daily-variant", "tommys-crag")  # type: ignore[attr-defined]
        await page.fill("#daily-name", name)  # type: ignore[attr-defined]
        await page.click("#daily-play")  # type: ignore[attr-defined]

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await start(page, "Lee")
            await page.wait_for_url("**/t/*")
            first = table_id(page)
            await page.goto(server.url("/"))  # home, mid-game, and the button again
            await start(page, "lee")
            await page.locator("#toast", has_text="Going on with lee's game").wait_for()
            await page.wait_for_url(f"**/t/{first}")
            # a stranger's browser, the same name: refused (under the name's field), and
            # the page stays
            other = await new_context(browser)
            stranger = await open_tab(other, server.url("/"))
            await start(stranger.page, "Lee")
            await stranger.page.locator("#daily-name-error",
                                        has_text="one game of the day at a time").wait_for()
            assert "/t/" not in stranger.page.url
            await play_alone(page, "mouse", seed=5)
            await wait_end(page)
            await page.click("#play-again")  # "Again, for practice"
            await page.wait_for_function("id => !location.pathname.endsWith(id)", arg=first)
            snap = await own_snapshot(page, server)
            assert snap["daily"]
            st = server.get("/api/daily?variant=tommys-crag")
            lee = [e for e in st["standings"] if e["name"] == "Lee"]
            assert len(lee) == 1 and lee[0]["ranked"]  # (the practice game is under way)
            tab.check()
            stranger.check()
            await ctx.close()
            await other.close()

    asyncio.run(main())


def test_the_home_page_asks_for_no_day_before_the_first_challenge(server: Server) -> None:
    """On a database whose first challenge is today, the home page does not ask for
    yesterday's standings (a 400, a console error at every load): it says no one played
    it (QA s18 web item 5)."""
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            failed: list[str] = []
            asked: list[str] = []
            ctx.on("response", lambda r: failed.append(f"{r.status} {r.url}")
                   if r.status >= 400 else None)
            ctx.on("request", lambda r: asked.append(r.url) if "/api/daily" in r.url else None)
            tab = await open_tab(ctx, server.url("/"))
            await tab.page.locator(".daily-yesterday", has_text="No one played it").wait_for()
            first = server.get("/api/daily?variant=yahtzee")["first"]
            if first == server.get("/api/daily?variant=yahtzee")["date"]:
                assert not any("date=" in u for u in asked), asked
            assert failed == [], failed
            tab.check()
            await ctx.close()

    asyncio.run(main())


def test_a_daily_game_says_what_it_is_while_it_is_played(server: Server) -> None:
    """QA s25: during a daily game (and after a reload, the tab closed and opened again)
    nothing on a phone's page said it was the day's challenge (the same dice for everyone):
    only its end did. Its heading says so from the first roll; another game's does not."""

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser, phone=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#daily-play")
            await page.select_option("#daily-variant", "tommys-crag")
            await page.fill("#daily-name", "Noa")
            await page.click("#daily-play")
            await page.wait_for_selector(".game[data-version]")
            chip = page.locator(".chips .chip", has_text="daily challenge")
            await chip.wait_for()
            assert "the same dice for everyone" in (await chip.get_attribute("title") or "")
            await page.reload()
            await chip.wait_for()
            # the heading fits the phone's width
            wide = await page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= 390, wide
            # a game of one's own is no challenge
            made = server.post("/api/tables", {"variant": "tommys-crag", "options": {},
                                               "speed": "instant", "seats": [
                                                   {"kind": "person", "name": "Noa",
                                                    "here": True}]})
            other = await at_the_table(ctx, server, made)
            assert await other.page.locator(".chips .chip").count() == 0
            tab.check()
            other.check()

    asyncio.run(main())


def test_the_days_scores_stand_in_one_column_practice_or_not(server: Server) -> None:
    """QA s25: each line of the day's standings laid out its own columns, so a practice
    game's score (its line one mark longer) stood left of the ranked game's. The list is
    one grid: every score is under the one above it."""

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser, phone=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#daily-play")
            await page.select_option("#daily-variant", "tommys-crag")
            await page.fill("#daily-name", "Ida")
            await page.click("#daily-play")
            await play_alone(page, "keyboard", seed=7)
            await wait_end(page)
            first = table_id(page)
            await page.click("#play-again")  # "Again, for practice"
            await page.wait_for_function("id => !location.pathname.endsWith(id)", arg=first)
            await play_alone(page, "keyboard", seed=8)
            await wait_end(page)
            await page.goto(server.url("/"))
            await page.select_option("#daily-variant", "tommys-crag")
            rows = page.locator(".daily-today .daily-standings li", has_text="Ida")
            await rows.nth(1).wait_for()
            assert "practice" in (await rows.nth(1).text_content() or "") \
                or "practice" in (await rows.nth(0).text_content() or "")
            rights = [await rows.nth(i).locator(".daily-score").evaluate(
                "e => e.getBoundingClientRect().right") for i in range(2)]
            assert abs(rights[0] - rights[1]) < 1, rights
            tab.check()

    asyncio.run(main())


def test_a_strangers_browser_at_a_daily_games_link_is_told_it_is_private_once(
        server: Server) -> None:
    """QA s25: a daily game's link opened by another browser (it cannot be watched before
    the day is over) showed the refusal as a toast that went away, under "Connection lost:
    trying again in 4 s…", the page asking again and again. It says once, in its place,
    that the game is private, and asks no more."""
    made = server.post("/api/daily", {"variant": "yatzy", "name": "Quin"})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser, phone=True)
            hellos: list[str] = []
            tab = await open_tab(ctx, server.url("/"))
            tab.page.on("websocket", lambda ws: ws.on(
                "framesent", lambda payload: hellos.append(str(payload))
                if '"hello"' in str(payload) else None))
            await tab.page.goto(server.url(made["url"]))
            notice = tab.page.locator(".notice", has_text="cannot be watched")
            await notice.wait_for()
            assert "A private game" in (await notice.text_content() or "")
            await asyncio.sleep(3)
            assert len(hellos) == 1, hellos
            assert await tab.page.locator(".game").count() == 0
            tab.check()

    asyncio.run(main())
