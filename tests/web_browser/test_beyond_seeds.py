"""Kismet's coloured dice and Maxi Yatzy's saved rolls on a phone (390 px), in Chromium
against the real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .conftest import Server
from .play import after, chromium, new_context, open_tab, screenshot, table_id, wait_game


async def _table(server: Server, browser: object, variant: str) -> object:
    table = server.post("/api/tables", {"variant": variant, "speed": "instant", "seats": [
        {"kind": "person", "name": "You", "here": True},
        {"kind": "person", "name": "Bo", "here": True}]})
    ctx = await new_context(browser, phone=True)  # type: ignore[arg-type]
    tab = await open_tab(ctx, server.url("/"))
    await tab.page.evaluate("([id, t]) => localStorage.setItem(`yacht.token.${id}`, "
                            "JSON.stringify(t))", [table["id"], table["token"]])
    await tab.page.goto(server.url(table["url"]))
    return tab


@pytest.mark.slow
def test_kismet_dice_say_their_colour_by_shape_and_name(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await _table(server, browser, "kismet")
            page = tab.page  # type: ignore[attr-defined]
            s = await wait_game(page)
            await page.click("#roll")
            await after(page, s["version"])
            await page.wait_for_timeout(1500)  # the roll's animation ends
            colours = {1: "black", 2: "red", 3: "green", 4: "green", 5: "red", 6: "black"}
            shapes = {"black": "circle", "red": "polygon", "green": "rect"}
            for die in await page.locator(".die").all():
                label = await die.get_attribute("aria-label") or ""
                value = int(label.split("showing ")[1].split()[0])
                assert f"({colours[value]})" in label
                pips = die.locator(f".pip-{colours[value]}")
                assert await pips.count() == value
                assert await pips.first.evaluate("e => e.tagName") == shapes[colours[value]]
            await screenshot(page, shots, "kismet-phone", full=False)
            tab.check()  # type: ignore[attr-defined]

    asyncio.run(main())


@pytest.mark.slow
def test_maxi_yatzy_shows_the_saved_rolls(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await _table(server, browser, "maxi-yatzy")
            page = tab.page  # type: ignore[attr-defined]
            s = await wait_game(page)
            assert await page.locator(".die").count() == 6
            for _ in range(2):  # You, then Bo: each scores after the first roll
                await page.click("#roll")
                s = await after(page, s["version"])
                await page.locator(".score-btn").first.click()
                s = await after(page, s["version"])
                if s["label"] == "Go on":
                    await page.click("#roll")
                    s = await after(page, s["version"])
            snap = server.snapshot(table_id(page))["snapshot"]
            assert snap["saved_rolls"] == 2 and snap["rolls_text"] == "3 + 2 saved"
            assert await page.locator(".saved-rolls").text_content() == "+ 2 saved"
            label = await page.get_attribute(".dot-row", "aria-label")
            assert label == "5 rolls left: 3 + 2 saved"
            tab.check()  # type: ignore[attr-defined]

    asyncio.run(main())
