"""The daily challenge box's name field: a name of spaces only was refused in a toast
("Give your name for the standings", nothing of what a name may be), a name the server
refuses (an invisible character) in a toast with the focus gone, and the field took 40
characters where a name has at most 20 (QA s21). The refusal is said under the field
with what is accepted, the field marked and focused, the page where it was."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab

SAID = """() => {
  const field = document.querySelector('#daily-name');
  return {error: (document.querySelector('#daily-name-error') || {}).textContent || null,
          focused: document.activeElement === field, invalid: field.getAttribute('aria-invalid'),
          toast: document.querySelector('#toast').textContent};
}"""


def test_a_refused_daily_name_is_said_under_its_field(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser, phone=True), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#daily-play")
            await page.select_option("#daily-variant", "tommys-crag")
            await page.fill("#daily-name", "y" * 25)  # (20 characters, as the server counts)
            assert await page.input_value("#daily-name") == "y" * 20
            for name, words in (("   ", "1-20 characters"), ("Bo\u200b", "invisible character")):
                await page.fill("#daily-name", name)
                await page.click("#daily-play")
                await page.wait_for_selector("#daily-name-error")
                said = await page.evaluate(SAID)
                assert words in said["error"], said
                assert said["focused"] and said["invalid"] == "true" and not said["toast"], said
                assert page.url == server.url("/")
            await page.keyboard.type("Bo")
            await page.wait_for_selector("#daily-name-error", state="detached")
            tab.check()

    asyncio.run(main())
