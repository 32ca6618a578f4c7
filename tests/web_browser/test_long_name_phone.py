"""A player named with one long word ("WWWWWWWWWWWWWWWWWWWW", the 20 characters a name
may have) at a 320 px phone's table: the line under the dice ("WWW…: press Roll to roll
the dice"), the seat's line of "At the table", the end's word to the player, and to
another page the roll button's "WWW…'s turn" and the end's heading "WWW… wins with 12."
ran past the screen's edge, and the page scrolled sideways; in the analysis a player's
lines ("Luck: the dice gave WWW… 16.0 points fewer") ran past the player's box (QA s21).
They go on over lines."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import (
    chromium,
    open_tab,
    play_alone,
    quickly_to_the_end,
    seat_token,
    wait_end,
    wait_game,
)

WIDE = """() => document.documentElement.scrollWidth"""

#: the lines of the analysis's players that end past their player's box
OUT_OF_BOX = """() => {
  const out = [];
  for (const box of document.querySelectorAll('.analysis-player')) {
    const right = box.getBoundingClientRect().right;
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(walk.currentNode);
      if (range.getBoundingClientRect().right > right + 1) out.push(walk.currentNode.data);
    }
  }
  return out;
}"""


def test_a_long_name_keeps_the_table_in_a_narrow_phone(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            is_mobile=True, has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.select_option("#variant", "tommys-crag")
            await page.select_option("#speed", "instant")  # (the computer's turns at once)
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


def test_long_names_keep_a_watcher_s_page_in_a_narrow_phone(server: Server) -> None:
    made = server.post("/api/tables", {
        "variant": "tommys-crag", "speed": "fast",
        "seats": [{"kind": "person", "name": "W" * 20, "here": True},
                  {"kind": "person", "name": "M" * 20, "here": True}]})

    async def main() -> None:
        async with chromium() as browser:
            tabs = []
            for mine in (True, False):
                ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                                is_mobile=True, has_touch=True)
                tab = await open_tab(ctx, server.url("/"))
                if mine:
                    await seat_token(tab.page, server, made)
                await tab.page.goto(server.url(made["url"]))
                await wait_game(tab.page)
                tabs.append(tab)
            players, watcher = tabs
            await watcher.page.locator("#roll", has_text="W" * 20).wait_for()
            assert await watcher.page.evaluate(WIDE) <= 320
            await quickly_to_the_end(server, players.page)
            await play_alone(players.page, "mouse", seed=3)
            for tab in tabs:
                await wait_end(tab.page)
                assert await tab.page.evaluate(WIDE) <= 320
            await players.page.click("#analysis-btn")
            await players.page.locator(".analysis-player", has_text="Luck").first.wait_for()
            assert await players.page.evaluate(OUT_OF_BOX) == []
            for tab in tabs:
                tab.check()

    asyncio.run(main())
