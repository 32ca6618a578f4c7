"""A player named with one long word ("WWWWWWWWWWWWWWWWWWWW", the 20 characters a name
may have) at a 320 px phone's table: the line under the dice ("WWW…: press Roll to roll
the dice"), the seat's line of "At the table" and the end's word to the player ran past
the screen's edge, and the page scrolled sideways (QA s21); they go on over lines."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, open_tab, play_alone, quickly_to_the_end, wait_game

WIDE = """() => document.documentElement.scrollWidth"""


def test_a_long_name_keeps_the_table_in_a_narrow_phone(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            is_mobile=True, has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.select_option("#variant", "tommys-crag")
            await page.fill("#p0-name", "W" * 20)
            await page.click("#start")
            await wait_game(page)
            await page.locator("#help-line", has_text="W" * 20).wait_for()
            assert await page.evaluate(WIDE) <= 320
            await quickly_to_the_end(server, page)
            await play_alone(page, "mouse", seed=2)
            await page.locator(".comments", has_text="W" * 20).wait_for()
            assert await page.evaluate(WIDE) <= 320
            tab.check()

    asyncio.run(main())
