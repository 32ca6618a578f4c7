"""The mover's keys pressed out of turn (QA audit, item 8): o (Oops) and h (hint) while
the computer plays say that it is not this page's turn, and whose it is; a watcher's page
says it is watching."""

from __future__ import annotations

import asyncio

from playwright.async_api import Page

from .conftest import Server
from .play import at_the_table, chromium, new_context, open_tab, set_pref, wait_game


async def toast_says(page: Page, text: str) -> None:
    await page.locator("#toast:not([hidden])", has_text=text).wait_for()


def test_oops_and_hint_out_of_turn_say_whose_turn_it_is(server: Server) -> None:
    made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "slow", "seats": [
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "expert", "name": "Expert"}]})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            first = await open_tab(ctx, server.url("/"))
            await set_pref(first.page, "computer_pause", False)
            tab = await at_the_table(ctx, server, made)
            page = tab.page
            watcher = await open_tab(await new_context(browser), server.url(made["url"]))
            await wait_game(watcher.page)
            await page.click("#roll")
            await page.wait_for_selector(".score-btn")
            await page.locator(".score-btn").first.click()
            # the expert's turn, once it has rolled (before, Ann may still take back her box)
            for _ in range(200):
                snap = server.snapshot(made["id"])["snapshot"]
                if snap["current"] == 1 and snap["dice"]:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the expert did not roll")
            await page.wait_for_function(
                "() => !document.querySelector('#roll').textContent.includes('Go on')")
            await page.keyboard.press("o")
            await toast_says(page, "Not your turn: Expert (computer) is playing")
            assert await page.locator("dialog[open]").count() == 0  # no Oops of nothing
            await page.keyboard.press("h")
            await toast_says(page, "Not your turn: Expert (computer) is playing")
            await watcher.page.keyboard.press("h")
            await toast_says(watcher.page, "You are watching: Expert (computer) is playing")
            for t in (first, tab, watcher):
                t.check()

    asyncio.run(main())
