"""A duplicate table in the browser (issue 24, items 1-2): two people and the expert play
the same dice at once, each on a card of their own, while a watcher follows the group's
page (pushed over its socket, not polled); no page ever shows a card's turn past its own
player's finished turns (a watcher's: past the slowest player's), and the end ranks the
totals beside the expert's own game on the same dice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from .conftest import Server
from .play import at_the_table, chromium, new_context, open_tab, play_alone, screenshot, wait_end

#: what a page's field panel shows: its limit, and per card its turns finished and shown
FIELD = """() => {
  const f = document.querySelector('#field');
  if (!f) return null;
  return {upto: Number(f.dataset.upto), over: f.dataset.over === 'true',
          cards: [...f.querySelectorAll('tr[data-card]')].map(r => ({
            mine: r.classList.contains('mine'), done: Number(r.dataset.done),
            shown: Number(r.dataset.shown)}))};
}"""


async def field(page: Page) -> dict[str, Any] | None:
    got: dict[str, Any] | None = await page.evaluate(FIELD)
    return got


def check(seen: dict[str, Any] | None, watcher: bool = False) -> None:
    """No card shows a turn its viewer may not see yet."""
    if seen is None or seen["over"]:
        return
    cards = seen["cards"]
    limit = min(c["done"] for c in cards) if watcher else \
        next(c["done"] for c in cards if c["mine"])
    assert seen["upto"] <= limit and all(c["shown"] <= limit for c in cards), seen


def test_two_browsers_and_a_watcher_play_the_same_dice_at_once(server: Server,
                                                                shots: Path) -> None:
    made = server.post("/api/tables", {
        "variant": "tommys-crag", "speed": "fast", "dice": "duplicate",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "person", "name": "Bob", "here": False},
                  {"kind": "expert", "name": "Expert"}]})
    group = server.get(f"/api/groups/{made['group']}")
    bob_card = next(c["url"] for c in group["cards"] if c["open"])

    async def main() -> None:
        async with chromium() as browser:
            ann = await at_the_table(await new_context(browser), server, made)
            bob = await open_tab(await new_context(browser), server.url(made["group_url"]))
            await bob.page.click(f"a[href='{bob_card}']")
            await bob.page.wait_for_selector("#join-name")
            await bob.page.fill("#join-name", "Bob")
            await bob.page.click("#take-0")
            await bob.page.wait_for_selector(".game[data-version]")
            watcher = await open_tab(await new_context(browser, phone=True),
                                     server.url(made["group_url"]))
            # the watcher's field is pushed over the group's socket: no polling once open
            polls: list[str] = []
            watcher.page.on("request", lambda r: polls.append(r.url)
                            if "/api/groups/" in r.url else None)
            await watcher.page.wait_for_selector(".group-page[data-feed='socket']")
            polls.clear()
            done = asyncio.Event()
            checks = 0

            async def keep_checking() -> None:
                nonlocal checks
                while not done.is_set():
                    check(await field(ann.page))
                    check(await field(bob.page))
                    check(await field(watcher.page), watcher=True)
                    checks += 1
                    await asyncio.sleep(0.05)

            checker = asyncio.create_task(keep_checking())
            await asyncio.gather(play_alone(ann.page, "mouse", seed=3),
                                 play_alone(bob.page, "keyboard", seed=8))
            await wait_end(ann.page)
            await ann.page.wait_for_selector("#field[data-over='true'] .field-expert")
            done.set()
            await checker
            assert checks > 10
            text = await ann.page.text_content("#field") or ""
            end = server.get(f"/api/groups/{made['group']}")["end"]
            assert f"these dice: {end['expert']}" in text
            assert [p["name"] for p in end["ranking"]] and all(
                f"{p['name']}: {p['total']}" in text for p in end["ranking"])
            # (in the page, at once: a field the others' news draws again meanwhile is a new
            # element, and a locator's scroll waiting for the old one to be stable failed)
            await ann.page.evaluate("document.getElementById('field').scrollIntoView()")
            await screenshot(ann.page, shots, "duplicate-end")
            # the analysis of Ann's game shows the same comparison, drawn as the end is
            await ann.page.click("#analysis-btn")
            await ann.page.wait_for_selector("#analysis #same-dice .field-expert",
                                             timeout=60000)
            same = await ann.page.text_content("#same-dice") or ""
            assert f"these dice: {end['expert']}" in same and "← this game" in same
            assert all(f"{p['name']}: {p['total']}" in same for p in end["ranking"])
            await watcher.page.wait_for_selector("#field[data-over='true']", timeout=15000)
            assert polls == [], polls
            await screenshot(watcher.page, shots, "duplicate-watcher-phone")
            for tab in (ann, bob, watcher):
                tab.check()

    asyncio.run(main())
