"""A name of 20 characters, some of them emoji, as the server counts them (one each):
the page's name fields counted an emoji as two (JavaScript's UTF-16 length, and the
fields' maxlength), so the home page, the lobby and the daily box cut such a name
short that the server takes (QA s25). Each field takes 20 characters as the server
counts them, and no more."""

from __future__ import annotations

import asyncio

from playwright.async_api import Page

from .conftest import Server
from .play import chromium, new_context, open_tab

#: 20 characters to the server (5 letters and spaces, 15 dice): 35 UTF-16 units
NAME = "Dice " + "\U0001f3b2" * 15


async def typed(page: Page, selector: str, text: str) -> str:
    await page.fill(selector, "")
    await page.locator(selector).press_sequentially(text)
    value: str = await page.input_value(selector)
    return value


async def check_field(page: Page, selector: str) -> None:
    assert await typed(page, selector, NAME) == NAME
    # one more, typed or pasted, is left out (as the server would refuse 21)
    assert await typed(page, selector, NAME + "\U0001f3b2") == NAME
    await page.fill(selector, NAME + "xyz")
    assert await page.input_value(selector) == NAME
    # typed in the middle: what comes after the caret stays
    await page.fill(selector, "y" * 20)
    await page.locator(selector).press("Home")
    await page.keyboard.type("Z")
    assert await page.input_value(selector) == "y" * 20


def test_the_name_fields_count_as_the_server_does(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#daily-name")
            await check_field(page, "#daily-name")
            await page.wait_for_selector("#p0-name")
            await page.select_option("#p0-kind", "here")
            await check_field(page, "#p0-name")
            await typed(page, "#p0-name", NAME)
            await page.select_option("#p1-kind", "friend")
            await page.click("#start")
            # the table's lobby: the seat kept for a friend, a watcher's page to join it
            await page.wait_for_url("**/t/*")
            table = page.url.rstrip("/").rsplit("/", 1)[-1]
            seats = server.snapshot(table)["seats"]
            assert seats[0]["name"] == NAME, seats
            other = await open_tab(await new_context(browser), server.url(f"/t/{table}"))
            await other.page.wait_for_selector("#join-name")
            await check_field(other.page, "#join-name")
            await typed(other.page, "#join-name", "Ann " + "\U0001f340" * 16)
            await other.page.click("#take-1")
            await other.page.wait_for_function(
                "() => !document.querySelector('#join-name-error')"
                " && !document.querySelector('#take-1')")
            # (both seats taken: the game starts)
            names = [p["name"] for p in server.snapshot(table)["snapshot"]["players"]]
            assert names == [NAME, "Ann " + "\U0001f340" * 16], names
            tab.check()
            other.check()

    asyncio.run(main())
