"""The words that tell how to play say it the device's way: a player at a desktop is told
the keys and clicks ("1-5, n, or click it", "Press a move (or Tab to it, Enter)", the
keys one step from the rules); a phone (a screen that only takes touches) taps and names
the buttons, never a key ("tap it, or Hold none", "Tap a move", the settings alone, "Tapping
a die"); a watcher is not told the keys of moves they cannot make. The server's help line
names the buttons, no key and no click."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page

from .conftest import Server
from .play import (
    Tab,
    after,
    chromium,
    new_context,
    open_tab,
    screenshot,
    seat_token,
    set_pref,
    shown,
    wait_game,
)
from .test_key_letters import alone

#: words a touch-only screen has no use for
KEYS = ("click", "Enter", "Tab", "1-5", " or F1", "Shift")


def keyless(text: str) -> bool:
    return not any(k in text for k in KEYS)


async def said(page: Page) -> dict[str, Any]:
    """At a turn's first roll: the help line; what Roll says with every die held; the
    hint's line of how to play a move; the rules' way to the keys; the dialog it opens."""
    s = await shown(page)
    out: dict[str, Any] = {"help": await page.text_content("#help-line") or ""}
    await page.click("#roll")
    s = await after(page, s["version"])
    await page.click("[data-select=all]")
    await after(page, s["version"])
    await page.wait_for_function("() => !document.querySelector('.die.rolling')")
    await page.click("#roll")
    out["held"] = await page.locator("#toast:not([hidden])").text_content() or ""
    await page.click("#hint")
    await page.click("#hint-confirm [data-hint=yes]")
    await page.wait_for_selector("#hint-dialog .hint-play", timeout=120_000)
    out["hint"] = await page.locator("#hint-dialog p.muted").last.text_content() or ""
    await page.keyboard.press("Escape")
    await page.locator("dialog").wait_for(state="detached")
    out.update(await rules_lead(page))
    return out


async def rules_lead(page: Page) -> dict[str, Any]:
    """The rules' line to the keys, and the dialog its button opens (its title, whether
    it lists the keys, its words)."""
    await page.click("#rules-btn")
    lead = page.locator("dialog[open] .rules-lead")
    await lead.wait_for()
    out: dict[str, Any] = {"lead": (await lead.text_content() or "").strip()}
    await lead.locator("button").click()
    dialog = page.locator("#keys-dialog")
    await dialog.wait_for()
    out["title"] = (await dialog.locator("h2").first.text_content() or "").strip()
    out["keys"] = await dialog.locator(".keys-help").count()
    out["dialog"] = await dialog.text_content() or ""
    return out


async def holding_at(browser: Browser, server: Server, made: dict[str, Any],
                     phone: bool) -> Tab:
    """This browser's seat at the table made (a click, a tap holds a die), the game drawn."""
    tab = await open_tab(await new_context(browser, phone=phone), server.url("/"))
    await set_pref(tab.page, "dice_mark", "hold")
    await seat_token(tab.page, server, made)
    await tab.page.goto(server.url(made["url"]))
    await wait_game(tab.page)
    return tab


def test_a_desktop_is_told_the_keys_a_phone_the_taps_a_watcher_no_keys(
        server: Server, shots: Path) -> None:
    desk = alone(server, "yahtzee")
    hand = alone(server, "yahtzee")

    async def main() -> None:
        async with chromium() as browser:
            # Ann at her desktop: the keys, and clicks
            tab = await holding_at(browser, server, desk, phone=False)
            page = tab.page
            ann = await said(page)
            assert "press Roll" in ann["help"] and "click" not in ann["help"], ann
            assert "(1-5, n, or click it)" in ann["held"], ann
            assert ann["hint"].startswith("Press a move (or Tab to it, Enter) to play it"), ann
            assert ann["lead"] == "The keys ? or F1 at the table", ann
            assert ann["title"] == "Keys" and ann["keys"] == 1, ann
            assert "Clicking a die" in ann["dialog"], ann
            await screenshot(page, shots, "words-desktop", full=False)
            await page.keyboard.press("Escape")

            # a watcher of her table: no keys of moves, the settings alone
            watch = await open_tab(await new_context(browser), server.url(desk["url"]))
            await wait_game(watch.page)
            watcher = await rules_lead(watch.page)
            assert watcher["lead"] == "Settings", watcher
            assert watcher["title"] == "Settings" and watcher["keys"] == 0, watcher
            assert keyless(watcher["dialog"]), watcher

            # Ann on her phone: taps and the buttons' names, never a key
            hands = await holding_at(browser, server, hand, phone=True)
            phone = hands.page
            tapped = await said(phone)
            for what in ("help", "held", "hint", "lead", "dialog"):
                assert keyless(tapped[what]), (what, tapped)
            assert "press Roll" in tapped["help"], tapped
            assert "(tap it, or Hold none)" in tapped["held"], tapped
            assert tapped["hint"].startswith("Tap a move to play it"), tapped
            assert tapped["lead"] == "Settings", tapped
            assert tapped["title"] == "Settings" and tapped["keys"] == 0, tapped
            assert "Tapping a die" in tapped["dialog"], tapped
            await screenshot(phone, shots, "words-phone-settings", full=False)
            await phone.keyboard.press("Escape")
            await phone.locator("dialog").wait_for(state="detached")
            # ? typed on the phone: it has a keyboard after all, and is told the keys
            await phone.keyboard.press("?")
            await phone.locator("#keys-dialog .keys-help").wait_for()
            await phone.keyboard.press("Escape")
            await phone.locator("dialog").wait_for(state="detached")
            await phone.click("#roll")
            await phone.locator("#toast:not([hidden])").wait_for()
            await screenshot(phone, shots, "words-phone", full=False)
            for t in (tab, watch, hands):
                t.check()

    asyncio.run(main())
