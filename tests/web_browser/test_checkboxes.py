"""The new game's check boxes are all one size, however long their label (QA s22: the
"Same dice for everyone" box, beside a label of three lines, was squeezed to 13 of its
20 pixels on a wide screen, and "Pause after my score" to 19.8)."""

from __future__ import annotations

import asyncio

import pytest

from .conftest import Server
from .play import chromium, open_tab

SIZES = """() => [...document.querySelectorAll('input[type=checkbox]')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.id, e.getBoundingClientRect().width, e.getBoundingClientRect().height])"""


@pytest.mark.parametrize("width", [1280, 390])
def test_every_check_box_keeps_its_size(server: Server, width: int) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": width, "height": 800})
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#duplicate")
            sizes = await page.evaluate(SIZES)
            assert len(sizes) >= 4, sizes
            assert all(w == 20 and h == 20 for _id, w, h in sizes), sizes
            tab.check()

    asyncio.run(main())
