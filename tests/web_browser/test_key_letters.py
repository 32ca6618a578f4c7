"""The keys' letters (a card's column of box letters, a die's number, the bar's Keys) are
for a keyboard at a seat: a player at a desktop sees them; a watcher's page and a phone (a
screen that only takes touches) show none: the card's labels go to its edge (a second
column's numbers still above their boxes), a held die's key still says Hold."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from .conftest import Server
from .play import (
    after,
    at_the_table,
    chromium,
    new_context,
    open_tab,
    screenshot,
    seat_token,
    set_pref,
    shown,
    wait_game,
)

#: what of the keys shows: the card's letters, each die's key as seen ("Hold 1", "Hold",
#: "" for one not shown), the bar's Keys; where the labels begin (px from the card's
#: left) and how far a second column's number is from its boxes
SEEN = """() => {
  const seen = (e) => {
    for (let p = e; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.display === 'none') return false;
    }
    return getComputedStyle(e).visibility === 'visible' && e.getClientRects().length > 0;
  };
  const card = document.querySelector('.scorecard').getBoundingClientRect();
  const label = document.querySelector('.scorecard tbody th.label').getBoundingClientRect();
  const num = document.querySelector('.col-sub .col-num:last-child');
  const box = document.querySelector('.scorecard tbody tr:first-child .cell:last-child');
  return {
    letters: [...document.querySelectorAll('.scorecard kbd')].filter(seen).length,
    dice: [...document.querySelectorAll('.die-key')].map(k => seen(k)
      ? (getComputedStyle(k, '::before').content.replace(/^none$/, '').replace(/"/g, '')
         + k.innerText).trim() : ''),
    keys: seen(document.querySelector('#keys-btn')),
    label: Math.round(label.left - card.left),
    column: num && box ? Math.round(num.getBoundingClientRect().left
                                    - box.getBoundingClientRect().left) : 0,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    // the room between a player's name and their "you" tag on the same line (< 0: over it)
    you: (() => {
      const you = document.querySelector('.player-head .player-kind.you');
      if (!you) return null;
      const name = you.parentElement.querySelector('.player-name').getBoundingClientRect();
      const tag = you.getBoundingClientRect();
      return tag.top >= name.bottom ? 99 : Math.round(tag.left - name.right);
    })(),
  };
}"""


def alone(server: Server, variant: str) -> dict[str, Any]:
    made: dict[str, Any] = server.post("/api/tables", {
        "variant": variant, "speed": "instant",
        "seats": [{"kind": "person", "name": "Ann", "here": True}]})
    return made


async def seen(page: Page) -> dict[str, Any]:
    await page.mouse.move(0, 0)
    await page.wait_for_function("() => !document.querySelector('.die.rolling')")
    found: dict[str, Any] = await page.evaluate(SEEN)
    return found


async def hold_first_die(page: Page) -> None:
    """Roll, and hold the first die (this browser's way: a click holds it)."""
    s = await shown(page)
    await page.click("#roll")
    s = await after(page, s["version"])
    await page.locator(".die").first.click()
    await after(page, s["version"])


def test_a_player_at_a_desktop_sees_the_keys_a_watcher_and_a_phone_do_not(
        server: Server, shots: Path) -> None:
    made = alone(server, "yahtzee")
    double = alone(server, "ancient-yacht-double")

    async def main() -> None:
        async with chromium() as browser:
            # Ann at her desktop: every box's letter, each die's number, the bar's Keys
            tab = await at_the_table(await new_context(browser), server, made)
            page = tab.page
            await hold_first_die(page)
            ann = await seen(page)
            assert ann["letters"] == 13 and ann["keys"], ann
            assert ann["dice"] == ["Hold 1", "2", "3", "4", "5"], ann
            assert ann["label"] >= 28, ann
            await screenshot(page, shots, "keys-player", full=False)

            # a watcher of her table: no letter, no die's number, no Keys; the held die
            # says Hold
            watch = await open_tab(await new_context(browser), server.url(made["url"]))
            await wait_game(watch.page)
            assert "watching" in (await watch.page.text_content(".chips") or "")
            watcher = await seen(watch.page)
            assert watcher["letters"] == 0 and not watcher["keys"], watcher
            assert watcher["dice"] == ["Hold", "", "", "", ""], watcher
            assert watcher["label"] == 0, watcher
            await screenshot(watch.page, shots, "keys-watcher", full=False)

            # Ann on her phone at a game of two columns: no keys either
            ctx = await new_context(browser, phone=True)
            phone = await open_tab(ctx, server.url("/"))
            await set_pref(phone.page, "dice_mark", "hold")
            await seat_token(phone.page, server, double)
            await phone.page.goto(server.url(double["url"]))
            await wait_game(phone.page)
            await hold_first_die(phone.page)
            tapped = await seen(phone.page)
            assert tapped["letters"] == 0 and not tapped["keys"], tapped
            assert tapped["dice"] == ["Hold", "", "", "", ""], tapped
            assert tapped["label"] == 0 and tapped["sideways"] <= 0, tapped
            assert tapped["column"] == 0, tapped  # (the "2" above its boxes)
            assert tapped["you"] is not None and tapped["you"] >= 2, tapped  # (not on Ann)
            await screenshot(phone.page, shots, "keys-phone", full=False)
            for t in (tab, watch, phone):
                t.check()

    asyncio.run(main())
