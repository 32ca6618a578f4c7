"""Kismet's coloured dice and Maxi Yatzy's saved rolls on a phone (390 px), in Chromium
against the real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .conftest import Server
from .play import after, chromium, new_context, open_tab, screenshot, table_id, wait_game


async def _table(server: Server, browser: object, variant: str) -> object:
    table = server.post("/api/tables", {"variant": variant, "speed": "instant", "seats": [
        {"kind": "person", "name": "You", "here": True},
        {"kind": "person", "name": "Bo", "here": True}]})
    ctx = await new_context(browser, phone=True)  # type: ignore[arg-type]
    tab = await open_tab(ctx, server.url("/"))
    await tab.page.evaluate("([id, t]) => localStorage.setItem(`yacht.token.${id}`, "
                            "JSON.stringify(t))", [table["id"], table["token"]])
    await tab.page.goto(server.url(table["url"]))
    return tab


@pytest.mark.slow
def test_kismet_dice_say_their_colour_by_shape_and_name(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await _table(server, browser, "kismet")
            page = tab.page  # type: ignore[attr-defined]
            s = await wait_game(page)
            await page.click("#roll")
            await after(page, s["version"])
            await page.wait_for_timeout(1500)  # the roll's animation ends
            colours = {1: "black", 2: "red", 3: "green", 4: "green", 5: "red", 6: "black"}
            shapes = {"black": "circle", "red": "polygon", "green": "rect"}
            for die in await page.locator(".die").all():
                label = await die.get_attribute("aria-label") or ""
                value = int(label.split("showing ")[1].split()[0])
                assert f"({colours[value]})" in label
                pips = die.locator(f".pip-{colours[value]}")
                assert await pips.count() == value
                assert await pips.first.evaluate("e => e.tagName") == shapes[colours[value]]
            await screenshot(page, shots, "kismet-phone", full=False)
            tab.check()  # type: ignore[attr-defined]

    asyncio.run(main())


#: each die (its button, as laid out: a die chosen or under the pointer is lifted by a
#: transform): its top and sides, its picture's size; and the screen's width
DICE_ROW = """() => ({
  width: document.documentElement.clientWidth,
  page: document.documentElement.scrollWidth,
  dice: [...document.querySelectorAll('.dice .die')].map(d => {
    const r = d.querySelector('.die-svg').getBoundingClientRect();
    const b = d.getBoundingClientRect();
    return {top: b.top, left: Math.min(r.left, b.left), right: Math.max(r.right, b.right),
            size: r.width};
  }),
})"""


async def one_row(page: object) -> None:
    """The six dice sit on one row (their tops equal), inside the screen."""
    row = await page.evaluate(DICE_ROW)  # type: ignore[attr-defined]
    assert len(row["dice"]) == 6
    assert len({round(d["top"]) for d in row["dice"]}) == 1, row
    assert all(d["left"] >= 0 and d["right"] <= row["width"] for d in row["dice"]), row
    assert row["page"] <= row["width"], "the page scrolls sideways"
    assert all(d["size"] >= 36 for d in row["dice"]), row  # still a die a finger can hit


@pytest.mark.slow
def test_maxi_yatzy_shows_the_saved_rolls(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await _table(server, browser, "maxi-yatzy")
            page = tab.page  # type: ignore[attr-defined]
            s = await wait_game(page)
            assert await page.locator(".die").count() == 6
            await one_row(page)  # on a 390 px phone: not 5 + 1
            await page.click("#roll")
            s = await after(page, s["version"])
            await page.wait_for_timeout(1000)  # the roll's animation ends
            await one_row(page)
            for i in (0, 2, 5):  # held dice (their keys say Hold) stay in the row too
                await page.click(f".die[data-index='{i}']")
            await page.wait_for_timeout(300)
            await one_row(page)
            await screenshot(page, shots, "maxi-phone-dice", full=False)
            await page.locator(".score-btn").first.click()
            s = await after(page, s["version"])
            if s["label"] == "Go on":
                await page.click("#roll")
                s = await after(page, s["version"])
            for _ in range(2):  # You, then Bo: each scores after the first roll
                await page.click("#roll")
                s = await after(page, s["version"])
                await page.locator(".score-btn").first.click()
                s = await after(page, s["version"])
                if s["label"] == "Go on":
                    await page.click("#roll")
                    s = await after(page, s["version"])
            snap = server.snapshot(table_id(page))["snapshot"]
            assert snap["saved_rolls"] == 2 and snap["rolls_text"] == "3 + 2 saved"
            assert await page.locator(".saved-rolls").text_content() == "+ 2 saved"
            label = await page.get_attribute(".dot-row", "aria-label")
            assert label == "5 rolls left: 3 + 2 saved"
            tab.check()  # type: ignore[attr-defined]

    asyncio.run(main())


#: what sticks out sideways at the phone's width: the page's scrolling, the cards' own
#: frame's, and any element past the screen's edge (outside the cards' frame)
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const frame = document.querySelector('.cards-scroll');
  const cut = [...document.querySelectorAll('body *')]
    .filter(el => el.getClientRects().length && !el.closest('.cards-scroll'))
    .filter(el => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.left < -1 || r.right > width + 1);
    })
    .map(el => el.outerHTML.slice(0, 80));
  return {width, page: document.documentElement.scrollWidth, cut,
          frame: frame.clientWidth, cards: frame.scrollWidth,
          columns: document.querySelectorAll('.scorecard thead .player-head').length};
}"""


@pytest.mark.slow
def test_four_players_fit_a_phone(server: Server, shots: Path) -> None:
    """Maxi Yatzy, Kismet and Generala with four players (a long name among them) at
    390 px: the page does not scroll sideways, nor do the cards in their frame: every
    player's column is in view beside the boxes' names."""
    async def main() -> None:
        async with chromium() as browser:
            for variant in ("maxi-yatzy", "kismet", "generala"):
                table = server.post("/api/tables", {
                    "variant": variant, "speed": "instant", "seats": [
                        {"kind": "person", "name": "You", "here": True},
                        {"kind": "intermediate", "name": "Intermediate"},
                        {"kind": "intermediate", "name": "Maxine"},
                        {"kind": "beginner", "name": "Beginner"}]})
                ctx = await new_context(browser, phone=True)
                tab = await open_tab(ctx, server.url("/"))
                page = tab.page
                await page.evaluate("([id, t]) => localStorage.setItem(`yacht.token.${id}`, "
                                    "JSON.stringify(t))", [table["id"], table["token"]])
                await page.goto(server.url(table["url"]))
                s = await wait_game(page)
                await page.click("#roll")  # the previews in the boxes: the widest the card is
                await after(page, s["version"])
                await page.wait_for_timeout(1000)  # the roll's animation ends
                box = await page.evaluate(OVERFLOW)
                assert box["width"] == 390 and box["page"] <= box["width"], (variant, box)
                assert box["cut"] == [], (variant, box["cut"])
                assert box["columns"] == 4 and box["cards"] <= box["frame"], (variant, box)
                await screenshot(page, shots, f"{variant}-four-phone", full=False)
                tab.check()
                await ctx.close()

    asyncio.run(main())


@pytest.mark.slow
def test_the_top_ten_lists_a_win_at_once_marked_and_not_the_cards_it_cut_short(
        server: Server, shots: Path) -> None:
    """A Generala a served Generala ended (its record written to the server's store): the
    home page's top ten lists the winner's card as it stood, marked "(won at once)" in
    the server's words, and not the loser's cut-short card."""
    import random

    from yacht.engine import Player, Record, Roll, Score, State
    from yacht.rules import get
    from yacht.store import open_store

    s = State(get("generala"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    for roll, box in (((2, 2, 3, 3, 3), "full"), ((1, 2, 4, 5, 6), "ones")):
        s.apply(Roll(roll))
        s.apply(Score(box))
    s.apply(Roll((4, 4, 4, 4, 4)))  # Ann's served Generala
    store = open_store(str(server.db))
    try:
        gid = store.start_game(Record.from_state(s))
        store.finish_game(gid, s)
    finally:
        store.close()

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser, phone=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.select_option("#scores-variant", "generala")
            rows = page.locator(".topten tbody tr")
            await rows.first.wait_for()
            assert await rows.count() == 1  # not Bob's 1
            cells = await rows.first.locator("td, th").all_text_contents()
            assert cells[:3] == ["1", "Ann (won at once)", "35"], cells
            # the statistics name the kind of game in words, as `yacht stats` does (not
            # every option's value of its key)
            games = await page.locator("#h-stats + .table-scroll tbody td:first-of-type"
                                       ).all_text_contents()
            assert games == ["Generala", "Generala"], games
            await page.locator(".topten").scroll_into_view_if_needed()
            await screenshot(page, shots, "generala-top-ten-phone", full=False)
            tab.check()

    asyncio.run(main())
