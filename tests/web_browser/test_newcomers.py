"""What a newcomer hits in the browser (issue 22): many players' cards never scroll the
page sideways and no name is cut."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, ViewportSize

from .conftest import Server
from .play import (
    Tab,
    after,
    chromium,
    new_context,
    open_tab,
    screenshot,
    seat_token,
    shown,
    wait_game,
)

DESKTOP_800: ViewportSize = {"width": 1280, "height": 800}


async def context(browser: Browser, phone: bool) -> BrowserContext:
    """1280x800, or a 390x844 phone."""
    if phone:
        return await new_context(browser, phone=True)
    return await browser.new_context(viewport=DESKTOP_800)


def people_and_computers(server: Server, names: list[str], variant: str = "yahtzee",
                         speed: str = "instant") -> dict[str, Any]:
    """A table where the first name is a person of this browser, the rest computers."""
    seats = [{"kind": "person", "name": names[0], "here": True}] + [
        {"kind": "beginner", "name": n} for n in names[1:]]
    made: dict[str, Any] = server.post("/api/tables", {"variant": variant, "speed": speed,
                                                       "seats": seats})
    return made


async def at_table(ctx: BrowserContext, server: Server, made: dict[str, Any]) -> Tab:
    tab = await open_tab(ctx, server.url("/"))
    await seat_token(tab.page, server, made)
    await tab.page.goto(server.url(made["url"]))
    await wait_game(tab.page)
    return tab


# --- item 8: many players ------------------------------------------------------------
WIDTHS = """() => ({
  page: document.documentElement.scrollWidth,
  width: document.documentElement.clientWidth,
  names: [...document.querySelectorAll('.player-name')].map(e => ({
    name: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
    shown: (() => {
      const frame = document.querySelector('.cards-scroll').getBoundingClientRect();
      const r = e.getBoundingClientRect();
      return r.left >= frame.left - 1 && r.right <= frame.right + 1;
    })()})),
})"""


def test_many_players_never_scroll_the_page_sideways(server: Server, shots: Path) -> None:
    """5 and 8 players at 1280x800 and on a 390x844 phone: the cards scroll inside their
    frame, the page never; no name is cut short; on the phone 4 players fit whole."""
    async def main() -> None:
        async with chromium() as browser:
            for phone in (False, True):
                width = 390 if phone else 1280
                for n in (4, 5, 8):
                    names = ["Ann", "Bea", "Cpu", "Champion", "Dora", "Computer 6",
                             "Maximilian Alexander", "Computer 8"][:n]
                    made = people_and_computers(server, names)
                    ctx = await context(browser, phone)
                    tab = await at_table(ctx, server, made)
                    page = tab.page
                    s = await shown(page)
                    await page.click("#roll")
                    await after(page, s["version"])  # the previews in Ann's column
                    seen = await page.evaluate(WIDTHS)
                    assert seen["width"] == width
                    assert seen["page"] <= width, (phone, n, seen["page"])
                    assert [x["name"] for x in seen["names"] if x["cut"]] == [], (phone, n)
                    if phone and n == 4:  # the whole card in view: no name at its edge
                        assert all(x["shown"] for x in seen["names"]), seen["names"]
                    await screenshot(page, shots, f"players-{n}-{'phone' if phone else 'desktop'}",
                                     full=False)
                    tab.check()
                    await ctx.close()

    asyncio.run(main())
