"""A name the home page lets through but the server refuses (an invisible character, a
mark before its letter): the server names the seat and escapes the name ('\\u200b'),
and the page, which looked for the name as typed, said it in a toast ("seat 1: player
name ...") with the focus gone (QA s21). It is said under that player's field, as the
page's own checks are, the field focused, the page where it was."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab

SAID = """() => ({error: (document.querySelector('#p1-error') || {}).textContent || null,
  focused: document.activeElement && document.activeElement.id,
  toast: document.querySelector('#toast').textContent})"""


def test_a_name_the_server_refuses_is_said_under_its_field(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#p1-name")
            await page.select_option("#p1-kind", "here")
            for name, words in (("Bo\u200b", "invisible character"),
                                ("\u0301Bo", "combining mark")):
                await page.fill("#p1-name", name)
                await page.click("#start")
                await page.wait_for_selector("#p1-error")
                said = await page.evaluate(SAID)
                assert said["error"].startswith("Player 2: The name 'Bo' "), said
                assert words in said["error"] and "seat" not in said["error"], said
                assert said["focused"] == "p1-name" and not said["toast"], said
                assert page.url == server.url("/")
            tab.check()

    asyncio.run(main())


def test_names_the_server_reads_as_one_are_said_under_the_field(server: Server) -> None:
    """"Ann Lee" beside "Ann  Lee" (two spaces), "Zoë" typed composed beside "Zoë" typed
    with its accent after the letter: the page took them for two names, and the server's
    "two players are called Ann Lee" came in a toast with the focus gone (QA s21)."""
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#p1-name")
            await page.select_option("#p1-kind", "here")
            for first, second in (("Ann Lee", "Ann  Lee"), ("Zo\u00eb", "Zoe\u0308")):
                await page.fill("#p0-name", first)
                await page.fill("#p1-name", second)
                await page.click("#start")
                await page.wait_for_selector("#p1-error")
                said = await page.evaluate(SAID)
                assert said["error"] == (f"Players 1 and 2 are both called {first}: "
                                         "give each their own name."), said
                assert said["focused"] == "p1-name" and not said["toast"], said
                assert page.url == server.url("/")
            tab.check()

    asyncio.run(main())
