"""The main screens: an accessibility scan (axe-core) of home, lobby, table and the
game's end; the phone size (390x844: nothing cut off, no sideways scrolling of the
page); the screenshots of each."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from .conftest import Server
from .play import (
    after,
    chromium,
    new_context,
    open_tab,
    play_alone,
    screenshot,
    seat_token,
    shown,
    wait_game,
)

#: what the main screens are scanned for: every finding but the minor ones
ALL_BUT_MINOR = ("moderate", "serious", "critical")


async def axe(page: Page, script: Path,
              impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """The violations axe-core finds on the page as it is (the serious and critical ones
    unless ``impacts`` says)."""
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.add_script_tag(path=str(script))
    result: dict[str, Any] = await page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in impacts]


async def play_some_turns(page: Page, turns: int) -> None:
    """Roll and score ``turns`` times (the first box offered), by mouse."""
    for _ in range(turns):
        s = await shown(page)
        await page.click("#roll")
        s = await after(page, s["version"])
        if s["label"] == "Go on":
            continue
        points = [int(re.search(r" for (\d+)", b["label"]).group(1))  # type: ignore[union-attr]
                  for b in s["scores"]]
        await page.locator(".score-btn").nth(points.index(max(points))).click()
        s = await after(page, s["version"])
        while s["label"] in ("Go on", "See the results") and s["roll"]:
            await page.click("#roll")
            s = await after(page, s["version"])
        # the computer's turn, shown step by step, until it is ours again
        await page.wait_for_function(
            "() => document.querySelector('#roll').getAttribute('aria-disabled') !== 'true'")


@pytest.mark.slow
def test_main_screens_pass_axe(server: Server, shots: Path, axe_script: Path) -> None:
    async def main() -> None:
        found: dict[str, list[dict[str, Any]]] = {}
        async with chromium() as browser:
            # axe's script is added to the page: only this context lets it past the CSP
            ctx = await new_context(browser, bypass_csp=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await page.wait_for_selector("#h-stats")
            found["home"] = await axe(page, axe_script, ALL_BUT_MINOR)

            # the lobby: a friend's seat open
            await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
                "variant": "yahtzee", "options": {}, "players": [
                    {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""},
                    {"kind": "expert", "name": "Max"}], "demo": False, "speed": "fast"}))
            await page.reload()
            await page.click("#start")
            await page.wait_for_selector(".lobby")
            found["lobby"] = await axe(page, axe_script, ALL_BUT_MINOR)
            await page.click("#start-now")

            # the table in the middle of a turn: some boxes filled, dice chosen
            s = await wait_game(page)
            await play_some_turns(page, 5)
            s = await shown(page)
            await page.click("#roll")
            s = await after(page, s["version"])
            for i in (0, 3):
                await page.locator(".die").nth(i).click()
                s = await after(page, s["version"])
            await page.mouse.move(0, 0)
            await page.wait_for_function("() => !document.querySelector('.die.rolling')")
            await screenshot(page, shots, "table", full=False)
            found["table"] = await axe(page, axe_script, ALL_BUT_MINOR)

            # the hint: the game's first says what it does before it is given
            await page.keyboard.press("h")
            await page.wait_for_selector("#hint-confirm [data-hint=yes]")
            assert "marks the game assisted" in (await page.text_content("#hint-confirm") or "")
            found["hint-confirm"] = await axe(page, axe_script, ALL_BUT_MINOR)
            await page.click("#hint-confirm [data-hint=yes]")
            await page.wait_for_selector(".hint-list li", timeout=120_000)
            assert "assisted" in (await page.text_content("#hint-dialog") or "")
            await screenshot(page, shots, "hint", full=False)
            found["hint"] = await axe(page, axe_script, ALL_BUT_MINOR)
            await page.keyboard.press("Escape")
            assert "assisted" in (await page.text_content(".chips") or "").lower()

            # the computers' pace: - slower, + faster, told by the server to every page
            assert await page.input_value("#speed-select") == "fast"
            await page.keyboard.press("-")
            await page.wait_for_function(
                "() => document.querySelector('#speed-select').value === 'normal'")
            await page.keyboard.press("+")
            await page.wait_for_function(
                "() => document.querySelector('#speed-select').value === 'fast'")

            # the end of a game
            made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "instant",
                                               "seats": [{"kind": "person", "name": "Ann",
                                                          "here": True},
                                                         {"kind": "beginner", "name": "Cpu"}]})
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await play_alone(page, "mouse", seed=9)
            await page.wait_for_selector(".topten")
            await screenshot(page, shots, "end")
            found["end"] = await axe(page, axe_script, ALL_BUT_MINOR)

            # home again, its lists filled: a game to continue, a table, scores, stats
            await page.click("#new-game")
            await page.wait_for_selector(".list-item")
            await page.select_option("#scores-variant", "tommys-crag")
            await page.wait_for_selector(".topten")
            await page.wait_for_selector("#h-stats + .table-scroll")
            assert await page.locator("#h-resume ~ .list a", has_text="Continue").count() >= 1
            await screenshot(page, shots, "home")
            found["home, filled"] = await axe(page, axe_script, ALL_BUT_MINOR)
            tab.check()
        assert found == {k: [] for k in found}, found

    asyncio.run(main())


OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const cut = [...document.querySelectorAll('button, a, input, select, h1, h2, .die, .dot-row')]
    .filter(el => el.offsetParent !== null && !el.closest('.cards-scroll, .table-scroll'))
    .filter(el => {
      const r = el.getBoundingClientRect();
      return r.left < -1 || r.right > width + 1;
    })
    .map(el => el.outerHTML.slice(0, 80));
  return {scroll: document.documentElement.scrollWidth, width, cut};
}"""


async def fits(page: Page, what: str) -> None:
    box = await page.evaluate(OVERFLOW)
    assert box["scroll"] <= box["width"] == 390, (what, box)
    assert box["cut"] == [], (what, box["cut"])


def test_phone_size(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser, phone=True, reduced_motion="reduce")
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await fits(page, "home")
            await screenshot(page, shots, "phone-home")

            # the lobby of a table for four, one seat open
            await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
                "variant": "ancient-yacht-10-double", "options": {"ancient-yacht-10-double": {
                    "rolls": "3"}}, "players": [
                    {"kind": "here", "name": "Ann"}, {"kind": "here", "name": "Bea"},
                    {"kind": "friend", "name": ""}, {"kind": "beginner", "name": "Cpu"}],
                "demo": False, "speed": "instant"}))
            await page.reload()
            await page.tap("#start")
            await page.wait_for_selector(".lobby")
            await fits(page, "lobby")
            await screenshot(page, shots, "phone-lobby")
            await page.tap("#start-now")

            # the ten dice, the Roll button and the cards of three players
            s = await wait_game(page)
            await page.tap("#roll")
            s = await after(page, s["version"])
            # less motion asked for: the dice do not tumble
            assert await page.locator(".die.rolling").count() == 0
            await page.locator(".die").nth(7).tap()
            s = await after(page, s["version"])
            assert s["chosen"][7]
            await fits(page, "table")
            roll = await page.locator("#roll").bounding_box()
            assert roll is not None and roll["y"] + roll["height"] <= 844  # no scrolling to roll
            await screenshot(page, shots, "phone-table")
            # the cards scroll sideways inside their own frame, never the page
            cards = await page.evaluate(
                "() => { const c = document.querySelector('.cards-scroll'); "
                "return [c.scrollWidth, c.clientWidth, c.getBoundingClientRect().right]; }")
            assert cards[2] <= 390
            await tab.page.close()

            # a whole game at phone size, to its end
            made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "instant",
                                               "seats": [{"kind": "person", "name": "Ann",
                                                          "here": True}]})
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await play_alone(page, "mouse", seed=11)
            await page.wait_for_selector(".topten")
            await fits(page, "end")
            await screenshot(page, shots, "phone-end")
            tab.check()

    asyncio.run(main())
