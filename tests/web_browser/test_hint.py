"""The hint dialog: both rankings where the best to win is not the best for the score,
each move a button that plays it (mouse or keyboard); Esc closes every dialog, and
q / Esc outside them do nothing; the rules on a phone stay inside the screen."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from yacht.engine import Choose, Record, Roll, State

from ..web.test_web_hint import behind_on_the_last_turn
from .conftest import Server
from .play import at_the_table, chromium, new_context, screenshot, shown
from .test_screens import axe

PHONE_SE = {"width": 375, "height": 667}


def saved_at_a_table(server: Server, state: State) -> dict[str, Any]:
    """The game saved (as the terminal game would) and continued at a table: {id, token,
    url}."""
    from yacht.store import open_store
    from yacht.web.claims import hand_to_browser

    store = open_store(str(server.db))
    try:
        gid = store.start_game(Record.from_state(state, source="tui"))
        row, key = hand_to_browser(store, gid)
    finally:
        store.close()
    made: dict[str, Any] = server.post(f"/api/tables/{row.id}/claim", {"key": key})
    return made


async def open_hint(page: Page) -> None:
    """h, and yes to the game's first hint (it says first that it marks the game)."""
    await page.keyboard.press("h")
    await page.click("#hint-confirm [data-hint=yes]")
    await page.wait_for_selector("#hint-dialog .hint-play", timeout=120_000)


async def no_horizontal_scroll(page: Page) -> None:
    sizes = await page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
        " document.body.scrollWidth]")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[1], sizes


def test_the_hint_shows_both_rankings_and_plays_the_best_to_win(server: Server, shots: Path,
                                                                 axe_script: Path) -> None:
    made = saved_at_a_table(server, behind_on_the_last_turn())

    async def main() -> None:
        async with chromium() as browser:
            # (axe's script is added to the page: only this context lets it past the CSP)
            tab = await at_the_table(await new_context(browser, bypass_csp=True), server, made)
            page = tab.page
            await open_hint(page)
            dialog = page.locator("#hint-dialog")
            heads = await dialog.locator(".hint-head").all_text_contents()
            assert heads == ["Best for your score", "Best to win"]
            assert "Exact: the opponents have finished." in (await dialog.text_content() or "")
            score = await dialog.locator(".hint-list:not(.hint-win) .hint-move").all_text_contents()
            assert score[0] == "Keep 4 5 and roll the other three"
            win = dialog.locator(".hint-win li")
            assert await win.first.locator(".hint-move").text_content() \
                == "Keep 5 5 5 and roll the other two"
            chances = await dialog.locator(".hint-chance").all_text_contents()
            assert all(re.fullmatch(r"chance \d+(\.\d+)?%", c) for c in chances), chances
            assert 5 < float(chances[0].split()[1][:-1]) < 20
            # the first move has the focus: Tab goes on through the moves
            assert await page.evaluate(
                "document.activeElement.closest('.hint-list:not(.hint-win)') !== null")
            await screenshot(page, shots, "hint-both", full=False)
            assert await axe(page, axe_script) == []
            # play the best to win from the keyboard: its button, Enter
            await win.first.locator(".hint-play").focus()
            await page.keyboard.press("Enter")
            await dialog.wait_for(state="detached")
            await page.wait_for_function(
                "() => document.querySelectorAll('.rolls-left .dot.full').length === 1")
            snap = server.snapshot(made["id"])["snapshot"]
            # (the dice kept stay held after the roll, saved: the others chosen, 4893e4d)
            assert snap["rolls_left"] == 1 and snap["chosen"] == [2, 4]
            assert [snap["dice"][i] for i in (0, 1, 3)] == [5, 5, 5]  # kept, the rest rolled
            assert snap["assisted"]

            tab.check()

    asyncio.run(main())


def test_a_box_in_the_hint_is_scored_by_a_click(server: Server) -> None:
    s = behind_on_the_last_turn()
    s.apply(Choose((1, 3)))
    s.apply(Roll((3, 6)))   # 5 3 4 6 2, the last roll still to come
    made = saved_at_a_table(server, s)

    async def main() -> None:
        async with chromium() as browser:
            tab = await at_the_table(await new_context(browser), server, made)
            page = tab.page
            await open_hint(page)
            box = page.locator("#hint-dialog .hint-play[data-category=small_straight]").first
            text = await box.locator(".hint-move").text_content()
            assert text == "Score Small Straight for 30"
            await box.click()
            await page.locator("#hint-dialog").wait_for(state="detached")
            await page.wait_for_function(
                "() => document.querySelector('.game').dataset.over === 'true'")
            snap = server.snapshot(made["id"])["snapshot"]
            assert snap["over"] and snap["players"][1]["total"] == 263

            tab.check()

    asyncio.run(main())


def test_esc_closes_every_dialog_and_q_or_esc_outside_do_nothing(server: Server,
                                                                   shots: Path) -> None:
    # (the best for the score is the best to win here: one ranking, its chance said)
    made = saved_at_a_table(server, behind_on_the_last_turn((5, 5, 5, 5, 2)))

    async def main() -> None:
        async with chromium() as browser:
            tab = await at_the_table(await new_context(browser), server, made)
            page = tab.page
            before = await shown(page)
            for key, selector in (("?", ".keys-help"), ("o", "[data-oops]"),
                                  ("h", "[data-hint=yes]"), ("h", ".hint-play")):
                await page.keyboard.press(key)
                if selector == ".hint-play":  # (the game's first hint asks first)
                    await page.click("#hint-confirm [data-hint=yes]")
                await page.wait_for_selector(f"dialog[open] {selector}")
                if selector == ".hint-play":
                    text = await page.text_content("#hint-dialog") or ""
                    assert await page.locator(".hint-head").count() == 0
                    # (the explanation after a semicolon: it has brackets of its own)
                    assert "Best to win too: chance 30.6%; exact: the opponents have " \
                           "finished." in text, text
                    await screenshot(page, shots, "hint-agree", full=False)
                await page.keyboard.press("Escape")
                await page.locator("dialog").wait_for(state="detached")
            # outside the dialogs: q and Esc leave the table as it is
            await page.locator("#roll").focus()
            for key in ("q", "Escape", "Q"):
                await page.keyboard.press(key)
            await page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
            await page.keyboard.press("?")  # (a key the page answers: the ones before are done)
            await page.locator("dialog[open]").wait_for()
            await page.keyboard.press("Escape")
            await page.locator("dialog").wait_for(state="detached")
            now = await shown(page)
            assert page.url == server.url(made["url"])
            assert now["version"] == server.snapshot(made["id"])["snapshot"]["version"]
            assert (now["version"], now["dice"], now["chosen"]) == \
                (before["version"], before["dice"], before["chosen"])
            # the home page's rules too
            await page.click(".home-link")
            await page.click("button:text-is('Rules')")
            await page.wait_for_selector("dialog[open] .rules-text")
            await page.keyboard.press("Escape")
            await page.locator("dialog").wait_for(state="detached")

            tab.check()

    asyncio.run(main())


def test_the_rules_and_the_hint_fit_a_phone(server: Server, shots: Path) -> None:
    made = saved_at_a_table(server, behind_on_the_last_turn())

    async def main() -> None:
        async with chromium() as browser:
            ctx = await browser.new_context(viewport=PHONE_SE,  # type: ignore[arg-type]
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
            tab = await at_the_table(ctx, server, made)
            page = tab.page
            await no_horizontal_scroll(page)
            await page.click("#rules-btn")
            dialog = page.locator("dialog[open]")
            await dialog.locator(".rules-table").first.wait_for()
            await no_horizontal_scroll(page)
            # the dialog, the prose, the boxes and the options are inside the screen
            # (the boxes a list, the options' lines wrapped: QA s25)
            boxes: list[dict[str, Any]] = await page.evaluate(
                "() => [...document.querySelectorAll('dialog[open], .rules-text, "
                ".rules-text p, .rules-table, .keys-help')].map(e => { "
                "const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, "
                "scroll: e.scrollWidth - e.clientWidth, cls: e.className}; })")
            for b in boxes:
                assert b["left"] >= 0 and b["right"] <= PHONE_SE["width"], b
                assert b["scroll"] <= 1, b
            assert any(b["cls"] == "rules-table" for b in boxes), boxes
            await screenshot(page, shots, "rules-phone", full=False)
            await page.locator(".rules-term").first.scroll_into_view_if_needed()
            await screenshot(page, shots, "rules-phone-table", full=False)
            await page.keyboard.press("Escape")
            await dialog.wait_for(state="detached")
            # the hint's two rankings fit too (and the question before the first)
            await page.click("#hint")
            await page.wait_for_selector("#hint-confirm [data-hint=yes]")
            await no_horizontal_scroll(page)
            await page.click("#hint-confirm [data-hint=yes]")
            await page.wait_for_selector("#hint-dialog .hint-win .hint-play", timeout=120_000)
            await no_horizontal_scroll(page)
            right = await page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('#hint-dialog .hint-play')]"
                ".map(e => e.getBoundingClientRect().right))")
            assert right <= PHONE_SE["width"]
            await screenshot(page, shots, "hint-phone", full=False)
            await page.keyboard.press("Escape")
            await page.locator("dialog").wait_for(state="detached")
            # the home page's rules of the widest game
            await page.click(".home-link")
            await page.select_option("#variant", "ancient-yacht-10-double")
            await page.click("button:text-is('Rules')")
            await page.locator("dialog[open] .rules-table").first.wait_for()
            await no_horizontal_scroll(page)
            text = await page.locator("dialog[open] .rules-text").inner_text()
            assert "Double Full House" in text
            tab.check()

    asyncio.run(main())
