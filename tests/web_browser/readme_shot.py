"""Makes docs/online.png (not a test): a Yahtzee table with a 30-second clock, Ann on
turn, Bob's reaction beside his name. Run: .venv/bin/python -m tests.web_browser.readme_shot"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from .conftest import Server
from .play import Player, chromium, new_context, open_tab, seat_token, wait_game


async def main(out: Path) -> None:
    server = Server(Path(tempfile.mkdtemp()))
    server.start()
    try:
        async with chromium() as browser:
            made = server.post("/api/tables", {
                "variant": "yahtzee", "speed": "fast",
                "clock": {"kind": "turn", "seconds": 30},
                "seats": [{"kind": "person", "name": "Ann", "here": True},
                          {"kind": "person", "here": False},
                          {"kind": "expert", "name": "Max"}]})
            ann_ctx, bob_ctx = await new_context(browser), await new_context(browser)
            ann = await open_tab(ann_ctx, server.url("/"))
            await seat_token(ann.page, server, made)
            await ann.page.goto(server.url(made["url"]))
            bob = await open_tab(bob_ctx, server.url(made["url"]))
            await bob.page.wait_for_selector("#take-1")
            await bob.page.fill("#join-name", "Bob")
            await bob.page.click("#take-1")
            await wait_game(ann.page)
            await wait_game(bob.page)
            a, b = Player(ann.page, "mouse", 5), Player(bob.page, "mouse", 6)
            tid = made["id"]
            # a few turns each, then Ann's third turn after one roll
            for _ in range(2000):
                snap = server.snapshot(tid)["snapshot"]
                if snap["turn"] >= 4 and snap["current"] == 0 and snap["pause"] is None \
                        and not snap["dice"]:
                    break
                page = a if snap["current"] == 0 else b if snap["current"] == 1 else None
                if page is None or not await page.step():
                    await asyncio.sleep(0.1)
            await ann.page.click("#roll")
            await asyncio.sleep(0.6)
            await bob.page.click(".reaction-btn[data-reaction=luck]")
            await asyncio.sleep(0.5)
            await ann.page.screenshot(path=str(out), full_page=False)
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/online.png")))
