"""The new game's menus on a 360-pixel phone (QA audit, item 2): every menu shows its
choice whole and in words (never an id such as "100@84"), and the words that do not fit a
closed menu are said under it; a table's lobby says its options in the same words."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Page, ViewportSize

from .conftest import Server
from .play import chromium, new_context, open_tab, seat_token

NARROW: ViewportSize = {"width": 360, "height": 740}


#: every menu of the page shown: its id, the words of its choice, and whether they fit
#: the closed menu (their width in the menu's font against its inside, less the arrow)
MENUS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('select')].filter(s => s.offsetParent !== null).map(s => {
    const cs = getComputedStyle(s);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = s.options[s.selectedIndex].text;
    const inside = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
    return {id: s.id, text, fits: ctx.measureText(text).width <= inside,
            words: [...s.options].map(o => o.text)};
  });
}"""


def test_every_menu_reads_as_words_and_fits_a_phone(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport=NARROW)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#variant")
            values = "os => os.map(o => o.value)"
            variants = await page.eval_on_selector_all("#variant option", values)
            # a computer of every level in the players' list
            kinds = await page.eval_on_selector_all("#p1-kind option", values)
            for kind in kinds:
                await page.select_option("#p1-kind", kind)
                await check_menus(page, ["p1-kind"])
            for variant in variants:
                await page.select_option("#variant", variant)
                options = await page.eval_on_selector_all(
                    ".variant-options select", "ss => ss.map(s => s.id)")
                for sel in options:
                    for value in await page.eval_on_selector_all(f"#{sel} option", values):
                        await page.select_option(f"#{sel}", value)
                        await check_menus(page, [sel])
            await page.select_option("#variant", "maxi-yatzy")
            assert (await menu(page, "opt-bonus"))["words"] == [
                "100 at 84 or more", "50 at 75 or more"]
            # words that do not fit the closed menu are said under it, for the one chosen
            await page.select_option("#variant", "yahtzee")
            await page.select_option("#opt-joker", "free")
            assert "once that upper box is filled" in (
                await page.text_content("#opt-joker-help") or "")
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360
            await page.locator(".new-game-form").screenshot(
                path=str(shots / "home-form-360.png"))
            tab.check()

    asyncio.run(main())


async def menu(page: Page, sel: str) -> dict[str, Any]:
    found: dict[str, Any] = next(m for m in await page.evaluate(MENUS) if m["id"] == sel)
    return found


async def check_menus(page: Page, ids: list[str]) -> None:
    for m in await page.evaluate(MENUS):
        assert m["fits"] or m["id"] not in ids, m
        # a player reads words, never a value's id: "100@84", "ace_high", "100@84: ..."
        assert not any("@" in w or "_" in w for w in m["words"]), m


def test_the_lobby_says_the_options_in_words(server: Server) -> None:
    made = server.post("/api/tables", {
        "variant": "maxi-yatzy", "options": {"bonus": "50@75", "saved_rolls": "off"},
        "speed": "instant", "seats": [{"kind": "person", "name": "Ann", "here": True},
                                      {"kind": "person", "here": False}]})

    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            await seat_token(tab.page, server, made)
            await tab.page.goto(server.url(made["url"]))
            line = tab.page.locator(".lobby p.muted").first
            await line.filter(has_text="bonus: 50 at 75 or more").wait_for()
            text = await line.text_content() or ""
            assert "saved rolls: 3 rolls every turn, unused ones lost" in text, text
            assert "@" not in text and "_" not in text, text
            tab.check()

    asyncio.run(main())
