"""The home page's lists on a 320 px phone (unfinished games, tables online): a game of
eight players stood its names a name a line in a narrow column beside its Continue
button, the item as tall as eleven lines (QA s25). The words keep the item's width
and the button goes under them."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, open_tab, seat_token, wait_game

WIDTHS = """() => [...document.querySelectorAll('.list-item')].map(item => ({
  item: item.getBoundingClientRect().width,
  words: item.querySelector('.list-main').getBoundingClientRect().width,
  text: item.textContent.slice(0, 40)}))"""


def test_a_game_of_eight_reads_across_a_phone(server: Server) -> None:
    made = server.post("/api/tables", {
        "variant": "ancient-yacht-10-double", "speed": "instant",
        "seats": [{"kind": "person", "name": "Ann", "here": True}] + [
            {"kind": "beginner", "name": f"Computer {i}"} for i in range(2, 9)]})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await wait_game(page)
            await page.goto(server.url("/"))
            await page.wait_for_selector("#h-resume ~ .list .list-item")
            items = await page.evaluate(WIDTHS)
            assert items, items
            for item in items:
                assert item["words"] >= 0.9 * item["item"], items
            tab.check()

    asyncio.run(main())
