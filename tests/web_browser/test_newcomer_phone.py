"""A newcomer on a phone (390x844) starts Kismet from the home page with three computer
players, plays it to the end with taps and opens the analysis (issue 25): the page never
scrolls sideways, every label of the card stays inside its column (a tiered bonus's
"(≥63/71/78)" breaks after a "/"), a bonus step no box is left to reach is not offered at
the end, and the analysis shows every player, the dice of its decisions coloured and
marked as the table's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import Page

from .conftest import Server
from .play import after, chromium, new_context, open_tab, screenshot, shown, wait_end

FITS = """() => ({
  page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  labels: [...document.querySelectorAll('.scorecard th.label')].filter(e => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return r.getBoundingClientRect().right > e.getBoundingClientRect().right + 1;
  }).map(e => e.textContent),
})"""


async def play_quickly(page: Page) -> None:
    """Tap Roll, then a box (the first one open), until the results: the computers play
    at once in between."""
    for _ in range(400):
        s = await shown(page)
        if s["end"]:
            return
        if s["roll"] and s["label"] in ("Go on", "See the results"):
            await page.click("#roll")
        elif s["scores"]:
            box = s["scores"][0]
            await page.click(f".score-btn[data-category={box['category']}]"
                             f"[data-column='{box['column']}']")
        elif s["roll"]:
            await page.click("#roll")
        await after(page, s["version"])
    raise AssertionError("the game did not end")


async def fits(page: Page) -> None:
    found = await page.evaluate(FITS)
    assert found["page"] <= 0, "the page scrolls sideways"
    assert found["labels"] == [], "labels past their column"


@pytest.mark.slow
def test_a_newcomer_plays_kismet_on_a_phone_to_the_end_and_reads_the_analysis(
        server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser, phone=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.select_option("#variant", "kismet")
            await page.select_option("#speed", "instant")
            for _ in range(2):  # "+ Add a player": two more computers (intermediate)
                await page.get_by_role("button", name="+ Add a player").click()
            assert await page.locator(".player-row").count() == 4
            await page.click("#start")
            await page.wait_for_selector(".game[data-version]")
            await fits(page)
            await screenshot(page, shots, "newcomer-kismet-phone-start", full=False)
            await play_quickly(page)
            await wait_end(page)
            await fits(page)
            # the upper boxes are all filled: each "Next bonus" is blank, or "max"
            nexts = await page.locator(".row-id-bonus_next .cell").all_text_contents()
            assert len(nexts) == 4 and all(t.strip() in ("", "max") for t in nexts), nexts
            await screenshot(page, shots, "newcomer-kismet-phone-end")
            await page.click("#analysis-btn")
            await page.wait_for_selector(".analysis-player", timeout=90_000)
            assert await page.locator(".analysis-player").count() == 4
            # the costliest decisions' dice as the table's: each colour with its shape,
            # and in words with its mark
            colours = {1: "black", 2: "red", 3: "green", 4: "green", 5: "red", 6: "black"}
            shapes = {"black": "circle", "red": "polygon", "green": "rect"}
            marks = {"black": "●", "red": "◆", "green": "■"}
            dice = page.locator(".costly-dice")
            assert await dice.count() > 0
            for i in range(await dice.count()):
                label = (await dice.nth(i).get_attribute("aria-label") or "").split()
                values = [int(word[:-1]) for word in label[1:]]
                assert label[1:] == [f"{v}{marks[colours[v]]}" for v in values], label
                for v, svg in zip(values, await dice.nth(i).locator("svg").all(),
                                  strict=True):
                    pips = svg.locator(f".pip-{colours[v]}")
                    assert await pips.count() == v
                    assert await pips.first.evaluate("e => e.tagName") == \
                        shapes[colours[v]]
            await fits(page)
            await screenshot(page, shots, "newcomer-kismet-phone-analysis")
            tab.check()

    asyncio.run(main())
