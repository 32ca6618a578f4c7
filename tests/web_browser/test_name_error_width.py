"""The home page's word on a name it cannot take (a name of spaces only) on a 320 px
phone: it stayed a line as wide as the player's row and began 36 px in, so its end
("(1-20 characters).") went past the card's edge, cut off (QA s21); it wraps inside."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, open_tab

FITS = """() => {
  const error = document.querySelector('#p0-error');
  const box = error.closest('.players-box').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(error);
  const text = range.getBoundingClientRect();
  return {error: error.getBoundingClientRect().right, text: text.right, box: box.right,
          width: document.documentElement.clientWidth};
}"""


def test_a_name_s_error_wraps_inside_a_narrow_phone(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            for width in (320, 390):
                ctx = await browser.new_context(viewport={"width": width, "height": 700},
                                                is_mobile=True, has_touch=True)
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                await page.fill("#p0-name", "   ")
                await page.click("text=Start the game")
                await page.wait_for_selector("#p0-error")
                assert "1-20 characters" in await page.text_content("#p0-error")
                at = await page.evaluate(FITS)
                assert at["error"] <= at["box"] and at["text"] <= at["box"], (width, at)
                assert page.url == server.url("/")
                tab.check()
                await ctx.close()

    asyncio.run(main())
