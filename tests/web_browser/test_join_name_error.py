"""The lobby's name field, as a friend opening the link meets it: a name of spaces only,
or one a player at the table has already, was refused in a toast ("Give your name
first", which said nothing of what a name may be) with the focus left on the seat's
button (QA s21). The refusal is said under the field, with what is accepted, the field
is marked and focused to put it right, and the word goes once the name changes."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab, wait_game
from .test_online import make_friends_table

ERROR = """() => {
  const field = document.querySelector('#join-name');
  const error = document.querySelector('#join-name-error');
  return {text: error ? error.textContent : null, focused: document.activeElement === field,
          invalid: field.getAttribute('aria-invalid'),
          said: field.getAttribute('aria-describedby')};
}"""


def test_a_refused_name_is_said_under_the_lobby_s_field(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ann = await open_tab(await new_context(browser), server.url("/"))
            link = await make_friends_table(server, ann.page, [
                {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""}])
            tab = await open_tab(await new_context(browser, phone=True), link)
            page = tab.page
            await page.wait_for_selector("#take-1")
            await page.fill("#join-name", "   ")
            await page.click("#take-1")
            await page.wait_for_selector("#join-name-error")
            said = await page.evaluate(ERROR)
            assert "1-20 characters" in said["text"], said
            assert said["focused"] and said["invalid"] == "true", said
            assert said["said"] == "join-name-error", said

            await page.fill("#join-name", "ann")  # (typing takes the word away)
            await page.wait_for_selector("#join-name-error", state="detached")
            await page.click("#take-1")
            await page.wait_for_function(
                "() => /already/.test((document.querySelector('#join-name-error') || {})"
                ".textContent)")
            said = await page.evaluate(ERROR)
            assert said["text"].startswith("ann is at the table already: choose another name")
            assert said["focused"] and said["invalid"] == "true", said

            await page.keyboard.type("Bob")  # (the name was selected: typed over)
            await page.click("#take-1")
            await wait_game(page)
            assert await page.locator("#join-name-error").count() == 0
            tab.check()
            ann.check()

    asyncio.run(main())
