"""The home page's statistics on a 320 px phone with a name of one long word
("WWWWWWWWWWWWWWWWWWWW", 20 characters): the name's column, which stays in view while
the table scrolls, was wider than the box, so the figures never showed beside it, however
far the box was scrolled (QA s21). The name goes on over lines; the figures show."""

from __future__ import annotations

import asyncio
import json

from playwright.async_api import Route

from .conftest import Server
from .play import chromium, open_tab

STATS = [{"name": "W" * 20, "title": "Tommy's Crag", "games": 12, "multiplayer_games": 10,
          "wins": 4, "average": 187.25, "best": 312, "upper_bonus_rate": 0.6, "yachts": 345}]

SEEN = """() => {
  const box = document.querySelector('#h-stats + .table-scroll');
  const b = box.getBoundingClientRect();
  const name = box.querySelector('tbody th').getBoundingClientRect();
  const last = box.querySelector('tbody td:last-child').getBoundingClientRect();
  return {box: [b.left, b.right], name: [name.left, name.right], last: [last.left, last.right]};
}"""


def test_a_long_name_leaves_room_for_the_figures(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568})

            async def stats(route: Route) -> None:
                await route.fulfill(status=200, content_type="application/json",
                                    body=json.dumps(STATS))

            await ctx.route("**/api/stats", stats)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#h-stats + .table-scroll table")
            box = page.locator("#h-stats + .table-scroll")
            await box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
            seen = await page.evaluate(SEEN)
            (left, right), name, last = seen["box"], seen["name"], seen["last"]
            assert name[0] >= left - 1 and name[1] <= left + (right - left) / 2, seen
            assert last[0] >= name[1] and last[1] <= right + 1, seen  # the Yachts shown
            tab.check()

    asyncio.run(main())
