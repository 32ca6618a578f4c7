"""The lobby on a 320 px phone, for the table's host: an open seat's button ("Seat 2 for
them") took the row's width, and "Open seat" beside it stood a letter a line, the row
as tall as nine lines (QA s25). The seat's words keep room for themselves and the
button goes under them."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, open_tab, seat_token

#: each seat's words: how many lines they take, and the widest word's room
LINES = """() => [...document.querySelectorAll('.seat-who')].map(el => {
  const line = parseFloat(getComputedStyle(el.firstElementChild).lineHeight) || 24;
  return {text: el.textContent, lines: Math.round(el.getBoundingClientRect().height / line)};
})"""


def test_an_open_seats_words_stand_on_a_line_on_a_phone(server: Server) -> None:
    made = server.post("/api/tables", {
        "variant": "ancient-yacht-10-double", "speed": "instant",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "person", "here": False},
                  {"kind": "person", "name": "Bob Lee", "here": False}] + [
                     {"kind": "beginner", "name": f"Computer {i}"} for i in range(4, 9)]})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await page.wait_for_selector("#take-1")
            seats = await page.evaluate(LINES)
            assert len(seats) == 8, seats
            for seat in seats:  # ("Open seat, kept for Bob Lee" may take two)
                assert seat["lines"] <= 2, seats
            assert await page.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth")
            tab.check()

    asyncio.run(main())
