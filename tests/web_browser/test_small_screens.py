"""Phones in both orientations (360x740, 320x568, 740x360): the home page's setup of
eight, a table of eight (and its hint), the 10-dice two-column game and Maxi Yatzy
mid-turn, and the end with its charts: the page never scrolls sideways, nothing is cut
off, every control is a finger's size (about 40 px) and every text, the charts' labels
too, is at least 12 px on the screen."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, ViewportSize

from .conftest import Server
from .play import after, chromium, open_tab, screenshot, seat_token, wait_game

SIZES: list[ViewportSize] = [{"width": 360, "height": 740}, {"width": 320, "height": 568},
                             {"width": 740, "height": 360}]

#: what a phone's screen shows too small or cut off: controls under 38 px (a die of Maxi
#: Yatzy's six on a 320 px phone is 38 px wide), text under 12 px, also in the charts
#: (an SVG's type is scaled with its picture)
SMALL = """() => {
  const width = document.documentElement.clientWidth;
  const seen = el => el.offsetParent !== null && !el.closest('.sr-only, dialog:not([open])');
  const out = {scroll: document.documentElement.scrollWidth, width, cut: [], small: [], tiny: []};
  const controls = 'button, input, select, summary, .btn, [tabindex="0"]';
  for (const el of document.querySelectorAll(controls)) {
    if (!seen(el)) continue;
    const r = el.getBoundingClientRect();
    if (!el.closest('.cards-scroll, .table-scroll') && (r.left < -1 || r.right > width + 1))
      out.cut.push(el.outerHTML.slice(0, 80));
    const labelled = el.type === 'checkbox' || el.type === 'radio';  // their label is the target
    if (!labelled && Math.min(r.width, r.height) < 38)
      out.small.push(`${Math.round(r.width)}x${Math.round(r.height)} ${el.outerHTML.slice(0, 80)}`);
  }
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    if (!walk.currentNode.textContent.trim() || !el || el.closest('.sr-only, title')) continue;
    const svg = el.closest('svg');
    if (svg ? svg.getBoundingClientRect().width === 0 : !seen(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
      size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (size < 11.95) out.tiny.push(`${size.toFixed(1)}px ${el.tagName}.`
      + `${el.getAttribute('class')} "${walk.currentNode.textContent.trim().slice(0, 20)}"`);
  }
  out.small = [...new Set(out.small)].slice(0, 8);
  out.tiny = [...new Set(out.tiny)].slice(0, 8);
  return out;
}"""


async def check(page: Page, what: str) -> None:
    box: dict[str, Any] = await page.evaluate(SMALL)
    assert box["scroll"] <= box["width"], (what, box)
    assert box["cut"] == [] and box["small"] == [] and box["tiny"] == [], (what, box)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def test_phones_in_both_orientations(server: Server, shots: Path, size: ViewportSize) -> None:
    # one size a test: the sizes run side by side on the suite's workers
    name = f"{size['width']}x{size['height']}"

    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport=size, device_scale_factor=2,
                                            is_mobile=True, has_touch=True)
            # the home page's setup of eight: each player's Remove beside their name
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
                # (Yahtzee's two option menus; not Maxi Yatzy: the home page's daily
                # box would have the server work out its expert's total, a table build
                # of minutes, beside the test)
                "variant": "yahtzee", "options": {}, "players": [
                    {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""}] + [
                    {"kind": "expert", "name": f"Cpu {i}"} for i in range(1, 7)],
                "demo": False, "speed": "instant"}))
            await page.reload()
            await page.wait_for_selector("#start")
            await check(page, f"home at {name}")
            apart = await page.evaluate("""() => [...document.querySelectorAll('.player-row')]
              .filter(row => { const n = row.querySelector('.name').getBoundingClientRect();
                const x = row.querySelector('.btn-icon').getBoundingClientRect();
                return x.top >= n.bottom || x.bottom <= n.top; }).length""")
            assert apart == 0, (name, apart)
            await page.close()

            for variant, players in (("yahtzee", 8), ("ancient-yacht-10-double", 8),
                                     ("maxi-yatzy", 6)):
                made = server.post("/api/tables", {
                    "variant": variant, "speed": "instant",
                    "seats": [{"kind": "person", "name": "Ann", "here": True}] + [
                        {"kind": "beginner", "name": f"Computer {i}"}
                        for i in range(1, players)]})
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                await seat_token(page, server, made)
                await page.goto(server.url(made["url"]))
                s = await wait_game(page)
                await page.tap("#roll")
                s = await after(page, s["version"])
                await page.locator(".die").nth(1).tap()
                await after(page, s["version"])
                await check(page, f"{variant} at {name}")
                # the player's own column says "you" (the other kinds make way on a
                # phone), inside its column
                inside = await page.evaluate("""() => {
                  const you = document.querySelector('.player-head .player-kind.you');
                  if (!you || !you.getBoundingClientRect().width) return false;
                  const r = you.getBoundingClientRect();
                  const c = you.closest('th').getBoundingClientRect();
                  return r.left >= c.left - 0.5 && r.right <= c.right + 0.5; }""")
                assert inside, (variant, name)
                await screenshot(page, shots, f"small-{variant}-{name}")
                if variant == "yahtzee":  # the hint's moves, a finger's size too
                    await page.tap("#hint")
                    await page.tap("#hint-confirm [data-hint=yes]")
                    await page.wait_for_selector(".hint-list li", timeout=120_000)
                    await check(page, f"the hint at {name}")
                    await page.locator("dialog[open] .btn-icon").tap()
                tab.check()
                await page.close()

            # the end of a game of computers, its running totals and the analysis
            made = server.post("/api/tables", {
                "variant": "tommys-crag", "speed": "instant",
                "seats": [{"kind": "beginner", "name": "Bea"},
                          {"kind": "expert", "name": "Max"}]})
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            await page.wait_for_selector("#analysis-btn")
            await page.tap("#analysis-btn")
            await page.wait_for_selector(".analysis-player")
            await page.wait_for_selector(".analysis-chart svg >> nth=1")
            await check(page, f"the end and its analysis at {name}")
            await screenshot(page, shots, f"small-analysis-{name}")
            tab.check()
            await ctx.close()

    asyncio.run(main())


def test_a_long_name_on_turn_stays_in_its_column_on_a_phone(server: Server) -> None:
    """QA s25: on a 390 px phone a name of 20 letters, its player on turn, ran under the
    next player's column (the turn's mark beside it took no room from it: the end of the
    name hidden). The mark and the name share the column's width."""
    made = server.post("/api/tables", {"variant": "yahtzee", "speed": "instant", "seats": [
        {"kind": "person", "name": "B" * 20, "here": True},
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "beginner", "name": "Robo"}]})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport={"width": 390, "height": 844},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
            tab = await open_tab(ctx, server.url("/"))
            await seat_token(tab.page, server, made)
            await tab.page.goto(server.url(made["url"]))
            await wait_game(tab.page)
            await tab.page.locator(".player-head.is-current .player-name",
                                   has_text="B" * 20).wait_for()
            spill = await tab.page.evaluate("""() => [...document.querySelectorAll(
              '.player-head')].map(th => th.querySelector('.player-name').getBoundingClientRect()
              .right - th.getBoundingClientRect().right)""")
            assert all(over <= 0.5 for over in spill), spill
            tab.check()

    asyncio.run(main())
