"""The lobby's name field at a screen people share: once a person takes a seat under the
name typed there, the field is empty for the next one (it kept "Bea" after Bea sat
down, and the next person at the screen had to clear it; QA s20)."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab, seat_token


def test_the_name_field_is_empty_once_its_person_is_seated(server: Server) -> None:
    made = server.post("/api/tables", {
        "variant": "yatzy", "speed": "fast",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "person", "here": False}, {"kind": "person", "here": False}]})

    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await page.wait_for_selector("#take-1")
            await page.fill("#join-name", "Bea")
            await page.click("#take-1")
            await page.wait_for_function("() => !document.querySelector('#take-1')")
            await page.wait_for_function(
                "() => document.querySelector('#join-name').value === ''")
            assert await page.locator(".seat-name").all_text_contents() == ["Ann", "Bea"]
            await page.fill("#join-name", "Cy")
            await page.click("#take-2")
            await page.wait_for_selector(".player-name")
            tab.check()

    asyncio.run(main())
