"""The analysis's costliest decisions show their dice: ten of them (Ancient Yacht's
10-dice games) on a 320 px phone went nine on a line and one alone under them (QA s25).
They go in two rows of five, as the table shows them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Route

from .conftest import Server
from .play import chromium, open_tab
from .test_analysis import ROUTE, computers_game, open_end

ROWS = """() => [...document.querySelectorAll('.costly-dice')].map(row =>
  [...new Set([...row.children].map(d => Math.round(d.getBoundingClientRect().top)))]
    .map(top => [...row.children].filter(d => Math.round(d.getBoundingClientRect().top) === top)
      .length))"""


def ten_dice(analysis: dict[str, Any]) -> dict[str, Any]:
    """The game's analysis with every decision's dice made ten (as a 10-dice game's)."""
    out = json.loads(json.dumps(analysis))
    for p in out["players"]:
        for d in p.get("costliest", []):
            d["dice"] = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4]
            d["dice_text"] = "1 2 3 4 5 6 1 2 3 4"
    return out


def test_ten_dice_go_in_two_rows_of_five_on_a_phone(server: Server) -> None:
    made = computers_game(server)

    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            game_id = await open_end(page, server, made)
            analysis = ten_dice(server.get(f"/api/games/{game_id}/analysis"))
            assert any(p.get("costliest") for p in analysis["players"]), analysis

            async def answer(route: Route) -> None:
                await route.fulfill(status=200, content_type="application/json",
                                    body=json.dumps(analysis))

            await page.route(ROUTE, answer)
            await page.tap("#analysis-btn")
            await page.wait_for_selector(".costly-dice")
            rows = await page.evaluate(ROWS)
            assert rows and all(r == [5, 5] for r in rows), rows
            tab.check()

    asyncio.run(main())
