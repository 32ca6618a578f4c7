"""The home page's daily challenge box says which game of the day is ranked as the server
counts it (QA audit, item 7): a name's first game *started* that day (README)."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab


def test_the_daily_box_ranks_the_first_game_started(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            home = await open_tab(await new_context(browser), server.url("/"))
            # the ranked game of the day is the first one started (README, the server)
            await home.page.locator("p", has_text="first game a name starts today").wait_for()
            assert "first finished" not in (await home.page.text_content("body") or "")
            home.check()

    asyncio.run(main())
