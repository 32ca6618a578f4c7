"""The rules on a 320 px phone: the boxes' table (a name, then its words in a column of
their own, wrapped at the terminal's width) scrolled sideways in its box, the words'
column off the screen with three letters of each line showing (QA s25). The boxes are
a list whose words wrap to the screen, each box's words whole; a table of another
shape (the options) stays as it was."""

from __future__ import annotations

import asyncio
from typing import Any

from .conftest import Server
from .play import chromium, open_tab

TERMS = """() => [...document.querySelectorAll('dialog[open] .rules-term')].map(row => {
  const dd = row.querySelector('dd'), r = dd.getBoundingClientRect();
  return {term: row.querySelector('dt').textContent, words: dd.textContent,
          right: r.right, scroll: dd.scrollWidth - dd.clientWidth};
})"""


def test_the_boxes_words_wrap_to_a_phone(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 320, "height": 568},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await page.select_option("#variant", "ancient-yacht-10-double")
            await page.click("button:text-is('Rules')")
            await page.wait_for_selector("dialog[open] .rules-text")
            terms: list[dict[str, Any]] = await page.evaluate(TERMS)
            assert [t["term"] for t in terms][:2] == ["Ones", "Twos"], terms
            assert len(terms) == 12, terms
            for t in terms:
                assert t["right"] <= 320 and t["scroll"] <= 1, t
            full = next(t for t in terms if t["term"] == "Double Full House")
            assert full["words"] == ("exactly four of one face, three of a second, two of a "
                                     "third and one of a fourth (no more of any face): "
                                     "scores the sum of all the dice")
            heads = await page.locator("dialog[open] .rules-terms-head").all_text_contents()
            assert heads == ["Upper section", "Lower section"], heads
            # the options' table stays a table (scrolling sideways if it must)
            options = await page.locator("dialog[open] .rules-table").all_text_contents()
            assert len(options) == 1 and "3 - hard" in options[0], options
            tab.check()

    asyncio.run(main())
