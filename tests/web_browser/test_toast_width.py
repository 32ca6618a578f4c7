"""A long word of the page's at the foot of the screen (a toast), on a 320 px phone: it
was at most half the screen wide (placed from the middle, it shrank to the room right of
there), so a sentence of the server's stood as a tall narrow column of three words a
line over the page (QA s21). It takes the screen's width less a margin."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, open_tab


def test_a_long_toast_takes_a_phone_s_width(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            is_mobile=True, has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.select_option("#variant", "tommys-crag")
            await page.fill("#p0-name", "Ann")
            await page.select_option("#p1-kind", "here")
            await page.fill("#p1-name", "Bea")
            await page.check("#duplicate")  # (one player here only: refused)
            await page.click("#start")
            toast = page.locator("#toast", has_text="duplicate table")
            await toast.wait_for()
            box = await toast.bounding_box()
            assert box and box["width"] >= 320 - 24 - 2, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= 320, box
            assert page.url == server.url("/")
            tab.check()

    asyncio.run(main())
