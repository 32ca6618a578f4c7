"""The buttons under the dice in plain words (QA audit, item 4): "Hold matched" and
"Unmatched", never "singlets", in either way of marking the dice and in the Keys
dialog; on a 360-pixel phone the three share one line."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .conftest import Server
from .play import at_the_table, chromium, new_context, screenshot, set_pref, wait_game


def test_the_dice_buttons_say_plain_words(server: Server, shots: Path) -> None:
    made = server.post("/api/tables", {"variant": "yatzy", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann", "here": True}]})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await at_the_table(ctx, server, made)
            page = tab.page
            await page.click("#roll")
            await page.wait_for_selector(".select-row:not([hidden])")
            words = await page.locator(".select-row button").all_text_contents()
            assert words == ["Hold all", "Hold matched", "Hold none"]  # (Yatzy holds)
            title = await page.get_attribute("[data-select=singlets]", "title") or ""
            assert "matches another" in title
            await screenshot(page, shots, "hold-matched")
            await page.keyboard.press("?")
            await page.wait_for_selector("#keys-dialog")
            keys = await page.text_content("#keys-dialog") or ""
            assert "matched" in keys and "singlet" not in keys.lower()
            await page.keyboard.press("Escape")
            # the other way: marking dice to roll again
            await set_pref(page, "dice_mark", "reroll")
            await page.reload()
            await wait_game(page)
            await page.wait_for_selector(".select-row:not([hidden])")
            words = await page.locator(".select-row button").all_text_contents()
            assert words == ["All", "Unmatched", "None"]
            assert not any("singlet" in w.lower() for w in words)
            # on a 360-pixel phone the three buttons share one line, inside the felt
            await set_pref(page, "dice_mark", "hold")
            await page.set_viewport_size({"width": 360, "height": 740})
            await page.reload()
            await wait_game(page)
            await page.wait_for_selector(".select-row:not([hidden])")
            felt = await page.locator(".felt").bounding_box()
            boxes = [await b.bounding_box() for b in await page.locator(".select-row button").all()]
            assert felt and all(b for b in boxes)
            assert len({round(b["y"]) for b in boxes if b}) == 1, boxes
            assert all(b["x"] + b["width"] <= felt["x"] + felt["width"] for b in boxes if b)
            await screenshot(page, shots, "hold-matched-360", full=False)
            tab.check()

    asyncio.run(main())
