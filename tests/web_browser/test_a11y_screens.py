"""The screens the main scan (test_screens.py) does not reach, scanned by axe-core for
every finding but the minor ones: a lobby of eight seats, the analysis at a game's end,
a daily challenge's end, a duplicate table's field page; each at a phone's width too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server
from .play import (
    at_the_table,
    chromium,
    new_context,
    open_tab,
    play_alone,
    quickly_to_the_end,
    screenshot,
    seat_token,
    wait_end,
)
from .test_screens import ALL_BUT_MINOR, axe


@pytest.mark.slow
def test_the_other_screens_pass_axe(server: Server, shots: Path, axe_script: Path) -> None:
    async def main() -> None:
        found: dict[str, list[dict[str, Any]]] = {}
        async with chromium() as browser:
            for phone in (False, True):
                size = "phone" if phone else "desktop"
                ctx = await new_context(browser, phone=phone, bypass_csp=True)
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                await page.wait_for_selector("#start")
                # the lobby of eight seats, two of them open to friends
                await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
                    "variant": "yatzy", "options": {}, "players": [
                        {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""},
                        {"kind": "friend", "name": ""}] + [
                        {"kind": "expert", "name": f"Cpu {i}"} for i in range(1, 6)],
                    "demo": False, "speed": "instant"}))
                await page.reload()
                await page.click("#start")
                await page.wait_for_selector(".lobby")
                await screenshot(page, shots, f"a11y-lobby-{size}")
                found[f"lobby, {size}"] = await axe(page, axe_script, ALL_BUT_MINOR)

                # the end of a game and its analysis
                made = server.post("/api/tables", {
                    "variant": "tommys-crag", "speed": "instant",
                    "seats": [{"kind": "person", "name": "Ann", "here": True},
                              {"kind": "expert", "name": "Max"}]})
                await seat_token(page, server, made)
                await page.goto(server.url(made["url"]))
                await quickly_to_the_end(server, page, leave=2)
                await play_alone(page, "keyboard", seed=5)
                await wait_end(page)
                await page.click("#analysis-btn")
                await page.wait_for_selector(".analysis-player")
                await screenshot(page, shots, f"a11y-analysis-{size}")
                found[f"analysis, {size}"] = await axe(page, axe_script, ALL_BUT_MINOR)

                # a daily challenge's end
                await page.goto(server.url("/"))
                await page.wait_for_selector("#daily-play")
                await page.select_option("#daily-variant", "tommys-crag")
                await page.fill("#daily-name", f"Kim {size}")
                await page.click("#daily-play")
                await quickly_to_the_end(server, page, leave=2)
                await play_alone(page, "mouse", seed=4)
                await wait_end(page)
                await page.locator(".end-daily #daily-share").wait_for()
                await screenshot(page, shots, f"a11y-daily-{size}")
                found[f"daily, {size}"] = await axe(page, axe_script, ALL_BUT_MINOR)

                # a duplicate table's field page
                made = server.post("/api/tables", {
                    "variant": "tommys-crag", "speed": "instant", "dice": "duplicate",
                    "seats": [{"kind": "person", "name": "Ann", "here": True},
                              {"kind": "person", "name": "Bob", "here": False},
                              {"kind": "expert", "name": "Expert"}]})
                await page.goto(server.url(made["group_url"]))
                await page.wait_for_selector(".group-page #field")
                await screenshot(page, shots, f"a11y-field-{size}")
                found[f"field, {size}"] = await axe(page, axe_script, ALL_BUT_MINOR)
                tab.check()
                await ctx.close()
        assert found == {k: [] for k in found}, found

    asyncio.run(main())


HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter(e => e.getClientRects().length).map(e => [Number(e.tagName[1]), e.textContent])"""


def test_each_part_of_the_table_has_its_heading(server: Server) -> None:
    """A screen reader goes from part to part of the table by its headings: the dice, the
    score cards, who is at the table; none skips a level."""
    made = server.post("/api/tables", {"variant": "yahtzee", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "beginner", "name": "Cpu"}]})

    async def main() -> None:
        async with chromium() as browser:
            tab = await at_the_table(await new_context(browser), server, made)
            heads = await tab.page.evaluate(HEADINGS)
            assert heads == [[1, "Yahtzee"], [2, "The dice"], [2, "Score cards"],
                             [2, "At the table"]], heads
            for section, title in ((".felt", "The dice"), (".cards-panel", "Score cards")):
                label = await tab.page.evaluate(
                    "s => document.getElementById(document.querySelector(s)"
                    ".getAttribute('aria-labelledby')).textContent", section)
                assert label == title
            tab.check()

    asyncio.run(main())
