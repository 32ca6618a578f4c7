"""A phone held sideways (568x320, 640x360, 740x360): the table page's bar took half of
a 320 px screen (QA s25: its tools wrapped over three rows) and Roll was under the
fold. The bar is one row there, its tools behind Menu (all of them a tap away), and the
dice and Roll are in view without scrolling."""

from __future__ import annotations

import asyncio

from playwright.async_api import ViewportSize

from .conftest import Server
from .play import chromium, open_tab, seat_token, wait_game

SIZES: list[ViewportSize] = [{"width": 568, "height": 320}, {"width": 640, "height": 360},
                             {"width": 740, "height": 360}]

#: where the bar, the dice and Roll are on the screen, and how far the page is scrolled
PLACES = """() => {
  const box = s => { const r = document.querySelector(s).getBoundingClientRect();
                     return {top: r.top, bottom: r.bottom, height: r.height}; };
  return {bar: box('.table-bar'), dice: box('.dice'), roll: box('#roll'),
          scrolled: window.scrollY, height: window.innerHeight};
}"""


def test_the_bar_is_one_row_and_the_dice_and_roll_are_in_view(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            for size in SIZES:
                made = server.post("/api/tables", {
                    "variant": "yatzy", "speed": "instant",
                    "seats": [{"kind": "person", "name": "Ann", "here": True},
                              {"kind": "beginner", "name": "Bea"}]})
                ctx = await browser.new_context(viewport=size, device_scale_factor=2,
                                                is_mobile=True, has_touch=True)
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                await seat_token(page, server, made)
                await page.goto(server.url(made["url"]))
                await wait_game(page)
                at = await page.evaluate(PLACES)
                what = (size, at)
                assert at["scrolled"] == 0, what
                assert at["bar"]["height"] <= at["height"] / 4, what
                for part in ("dice", "roll"):
                    assert 0 <= at[part]["top"] and at[part]["bottom"] <= at["height"], what
                # the tools are a tap away, and the bar is as it was once they are put away
                assert not await page.is_visible("#rules-btn")
                await page.tap("#tools-btn")
                assert await page.get_attribute("#tools-btn", "aria-expanded") == "true"
                for tool in ("#rules-btn", "#sound-btn", "#speed-select"):
                    assert await page.is_visible(tool), (size, tool)
                await page.tap("#rules-btn")
                await page.wait_for_selector("dialog[open]")
                await page.locator("dialog[open] .btn-icon").tap()
                await page.tap("#tools-btn")
                assert await page.get_attribute("#tools-btn", "aria-expanded") == "false"
                assert not await page.is_visible("#rules-btn")
                # Roll is where it was seen: a tap there rolls
                await page.tap("#roll")
                await page.wait_for_selector(".die:not(.is-blank)")
                tab.check()
                await ctx.close()
            # a screen of a laptop keeps its bar as it was: every tool out, no Menu
            ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
            tab = await open_tab(ctx, server.url("/"))
            await seat_token(tab.page, server, made)
            await tab.page.goto(server.url(made["url"]))
            await wait_game(tab.page)
            assert await tab.page.is_visible("#rules-btn")
            assert not await tab.page.is_visible("#tools-btn")
            await ctx.close()

    asyncio.run(main())
