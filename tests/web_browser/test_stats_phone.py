"""The home page's statistics on a 360-pixel phone (QA audit, item 3): the table stays in
its own box and scrolls there (the name column staying in view), with no word broken and
no figure wrapped."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from playwright.async_api import Route, ViewportSize

from .conftest import Server
from .play import chromium, open_tab, screenshot

NARROW: ViewportSize = {"width": 360, "height": 740}


#: long names and figures: a row of the statistics as GET /api/stats gives it
STATS = [{"name": "Annabelle Longname", "title": "Tommy's Crag", "games": 1234,
          "multiplayer_games": 1200, "wins": 1000, "average": 187.25, "best": 312,
          "upper_bonus_rate": 0.6, "yachts": 345},
         {"name": "Bo", "title": "Yahtzee (joker free)", "games": 3, "multiplayer_games": 0,
          "wins": 0, "average": 201.0, "best": 250, "upper_bonus_rate": None, "yachts": 1}]


#: every cell of the statistics table: does a word in it break over two lines, does it
#: take more than one line though it is a figure; and the box it scrolls in
CELLS = """() => {
  const box = document.querySelector('#h-stats').parentElement.querySelector('.table-scroll');
  const cells = [...box.querySelectorAll('th, td')].map(c => {
    const words = [];
    const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const re = /\\S+/g;
      for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
        words.push({word: m[0], lines: tops.size});
      }
    }
    const all = document.createRange();
    all.selectNodeContents(c);
    const lines = new Set([...all.getClientRects()].map(x => Math.round(x.top))).size;
    return {text: c.textContent, num: c.classList.contains('num'), lines, words};
  });
  const b = box.getBoundingClientRect();
  return {cells, left: b.left, right: b.right, scroll: box.scrollWidth > box.clientWidth,
          overflow: getComputedStyle(box).overflowX, page: document.documentElement.scrollWidth};
}"""


def test_the_statistics_table_fits_a_phone(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport=NARROW)

            async def stats(route: Route) -> None:
                await route.fulfill(status=200, content_type="application/json",
                                    body=json.dumps(STATS))

            await ctx.route("**/api/stats", stats)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#h-stats + .table-scroll table")
            seen = await page.evaluate(CELLS)
            assert seen["page"] <= 360, seen["page"]  # the page itself never scrolls sideways
            assert seen["left"] >= 0 and seen["right"] <= 360
            assert seen["overflow"] == "auto"  # what does not fit scrolls in its box
            for cell in seen["cells"]:
                assert all(w["lines"] == 1 for w in cell["words"]), cell  # no word broken
                if cell["num"]:
                    assert cell["lines"] == 1, cell  # "1000 of 1200" on one line
            # the name stays in view while the box scrolls to the last column
            box = page.locator("#h-stats + .table-scroll")
            await box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
            name = await page.locator("#h-stats + .table-scroll tbody th").first.bounding_box()
            assert name and name["x"] >= seen["left"] - 1
            await box.evaluate("b => { b.scrollLeft = 0; }")
            await box.scroll_into_view_if_needed()
            await screenshot(page, shots, "stats-360", full=False)
            tab.check()

    asyncio.run(main())
