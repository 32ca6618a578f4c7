"""The daily challenge in the browser (issue 24, item 3): the home page's box starts
today's game, the game ends with the place, the expert's total on the same dice and a
line to share, and the box then lists the game in today's standings."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .conftest import Server
from .play import chromium, new_context, open_tab, play_alone, screenshot, table_id, wait_end


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
            await play_alone(page, "mouse", seed=4)
            await wait_end(page)
            snap = server.snapshot(table_id(page))["snapshot"]
            assert snap["daily"] and snap["finished"]
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
            seed = server.get(f"/api/games/{snap['game_id']}/verify")
            assert "seed" not in (snap["dice_seed"] or {}) and not seed.get("ok")
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
