"""A whole evening by keyboard only, as a person without a mouse plays it: from the home
page a game of eight (you and seven computers) made with Tab, Enter and the selects'
letters; the game played by its keys; the hint, the rules and the keys' help opened and
closed with Esc, the focus back where it was; the results, the analysis and Play again.
The live region says whose turn it is when a game begins, the first one and the next."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from playwright.async_api import Page

from .conftest import Server
from .play import chromium, new_context, open_tab, play_alone, screenshot, wait_end, wait_game

FOCUSED = """() => { const e = document.activeElement;
  return e ? (e.id || e.getAttribute('aria-label') || e.textContent.trim()).slice(0, 60) : ''; }"""
LIVE = "() => [...document.querySelectorAll('#live p')].map(p => p.textContent)"


async def focused(page: Page) -> str:
    name: str = await page.evaluate(FOCUSED)
    return name


async def tab_to(page: Page, name: str, back: bool = False, most: int = 80) -> None:
    """Tab (Shift+Tab) until the focus is on ``name`` (an id, a label or a text)."""
    seen = []
    for _ in range(most):
        await page.keyboard.press("Shift+Tab" if back else "Tab")
        seen.append(await focused(page))
        if seen[-1] == name:
            return
    raise AssertionError(f"Tab never reached {name!r}: {seen}")


async def visible_focus(page: Page) -> None:
    """The focused control shows it: an outline (or the die's own ring)."""
    ring = await page.evaluate("""() => { const e = document.activeElement;
      const lift = e.querySelector('.die-lift');
      const cs = lift ? getComputedStyle(lift, '::before') : getComputedStyle(e);
      return lift ? cs.borderTopWidth : cs.outlineStyle === 'none' ? '0px' : cs.outlineWidth; }""")
    assert ring != "0px", await focused(page)


async def closes_with_esc(page: Page, opener: str) -> None:
    """The dialog open now closes with Esc, the focus back on ``opener``; no focus left
    outside the dialog while it was open (Tab stays inside)."""
    await page.wait_for_selector("dialog[open]")
    for _ in range(6):
        await page.keyboard.press("Tab")
        assert await page.evaluate(
            "() => document.querySelector('dialog[open]').contains(document.activeElement)"
            " || document.activeElement === document.body")
    await page.keyboard.press("Escape")
    # (the dialog's close event comes a moment after Esc: then it is gone from the page)
    await page.wait_for_function("() => !document.querySelector('dialog')")
    assert await focused(page) == opener


def test_a_game_of_eight_by_keyboard_only(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await tab_to(page, "variant")
            await page.keyboard.type("Tommy's C")
            assert await page.input_value("#variant") == "tommys-crag"
            await tab_to(page, "+ Add a player")
            for n in range(3, 9):
                await page.keyboard.press("Enter")
                assert await focused(page) == f"p{n - 1}-kind"  # the new player's row
                await visible_focus(page)
                if n < 8:  # (eight is the most: the button is off then)
                    await tab_to(page, "+ Add a player")
            assert await page.locator(".player-row").count() == 8
            await tab_to(page, "speed")
            await page.keyboard.type("Instant")
            await tab_to(page, "start")
            await page.keyboard.press("Enter")

            # the table: the first turn is said, and played by its keys
            await wait_game(page)
            assert len(await page.locator(".player-name").all_text_contents()) == 8
            await page.wait_for_function(f"() => ({LIVE})().includes('Your turn.')")
            await page.keyboard.press("r")
            await page.wait_for_function(
                "() => document.querySelector('.score-btn')")
            # every control of the turn by Tab, each showing its focus: the bar, the
            # dice, the felt's buttons, the boxes of the card
            await tab_to(page, "rules-btn")
            await visible_focus(page)
            await page.keyboard.press("Enter")
            await closes_with_esc(page, "rules-btn")
            await tab_to(page, "keys-btn", back=True)
            await page.keyboard.press("Enter")
            await closes_with_esc(page, "keys-btn")
            await tab_to(page, "rules-btn")
            await page.keyboard.press("Tab")
            assert (await focused(page)).startswith("Die 1, showing")
            await visible_focus(page)
            await tab_to(page, "hint")
            await visible_focus(page)
            await page.keyboard.press("Enter")  # the first asks before
            await page.wait_for_selector("#hint-confirm [data-hint=yes]")
            assert await focused(page) == "Show the hint"
            await page.keyboard.press("Enter")
            await page.wait_for_selector(".hint-list li", timeout=120_000)
            await closes_with_esc(page, "hint")
            await page.keyboard.press("Tab")
            assert (await focused(page)).startswith("Score ")
            await visible_focus(page)

            await play_alone(page, "keyboard", seed=8)
            await wait_end(page)
            assert await focused(page) == "end-title"
            await tab_to(page, "analysis-btn")
            await page.keyboard.press("Enter")
            await page.wait_for_selector(".analysis-player", timeout=120_000)
            assert await focused(page) == "analysis-title"
            await screenshot(page, shots, "keyboard-analysis")
            await tab_to(page, "play-again", back=True)
            before = len(await page.evaluate(LIVE))
            await page.keyboard.press("Enter")
            await page.wait_for_function("() => document.querySelector('.game:not(.is-over)')")
            assert await focused(page) == "roll"
            # the next game is said too
            await page.wait_for_function(
                f"n => ({LIVE})().slice(-6).some(t => t === 'Your turn.')", arg=min(before, 5))
            tab.check()

    asyncio.run(main())


def test_seating_people_at_this_screen_by_keyboard(server: Server) -> None:
    """The lobby's 'Seat 2 for them' goes away once the seat is taken: the focus goes on to
    the name field for the next one (its text ready to be typed over), not to nothing."""
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
                "variant": "tommys-crag", "options": {}, "players": [
                    {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""},
                    {"kind": "friend", "name": ""}, {"kind": "expert", "name": "Max"}],
                "demo": False, "speed": "instant"}))
            await page.reload()
            await page.wait_for_selector("#start")
            await tab_to(page, "start")
            await page.keyboard.press("Enter")
            await page.wait_for_selector(".lobby")
            await tab_to(page, "join-name")
            await page.keyboard.type("Bea")
            await tab_to(page, "take-1")
            await page.keyboard.press("Enter")
            await page.wait_for_function(f"() => ({LIVE})().includes('You took seat 2 as Bea.')")
            await page.wait_for_function("() => !document.querySelector('#take-1')")
            assert await focused(page) == "join-name"
            await page.keyboard.type("Cy")  # over the name that was there
            assert await page.input_value("#join-name") == "Cy"
            await tab_to(page, "take-2")
            await page.keyboard.press("Enter")
            await wait_game(page)
            assert await page.locator(".player-name").all_text_contents() == [
                "Ann", "Bea", "Cy", "Max"]
            tab.check()

    asyncio.run(main())
