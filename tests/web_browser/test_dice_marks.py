"""The page: a click on a die holds it (Yatsee and the modern games) or marks it to roll
again (the old programs), the other way a setting this browser remembers (the table's
bar on a desktop, the keys' dialog, the new game's form: a phone's); the pause before a computer is
one too; the game's first hint asks before it marks the game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .conftest import Server
from .play import (
    after,
    at_the_table,
    chromium,
    new_context,
    open_tab,
    screenshot,
    seat_token,
    shown,
    wait_game,
)


def alone(server: Server, variant: str = "yahtzee", computer: bool = False,
          speed: str = "instant") -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"kind": "person", "name": "Ann", "here": True}]
    if computer:
        seats.append({"kind": "beginner", "name": "Cpu"})
    made: dict[str, Any] = server.post("/api/tables", {"variant": variant, "speed": speed,
                                                       "seats": seats})
    return made


def test_yahtzee_holds_the_dice_clicked_and_the_bar_offers_the_other_way(
        server: Server, shots: Path) -> None:
    made = alone(server)

    async def main() -> None:
        async with chromium() as browser:
            tab = await at_the_table(await new_context(browser), server, made)
            page = tab.page
            s = await shown(page)
            assert s["mark"] == "hold"
            assert await page.is_visible("#mark-select")
            assert "as the variant (holds it)" in (await page.text_content("#mark-select") or "")
            await page.click("#roll")
            s = await after(page, s["version"])
            for i in (0, 2):
                await page.locator(".die").nth(i).click()
                s = await after(page, s["version"])
            assert s["keys"] == ["Hold 1", "2", "Hold 3", "4", "5"]
            assert s["chosen"] == [True, False, True, False, False]
            assert s["dice"][0].endswith(", held") and "held" not in s["dice"][1]
            assert s["label"] == "Roll 3 dice" and "roll the 3 dice not held" in s["help"]
            await page.mouse.move(0, 0)
            await page.wait_for_function("() => !document.querySelector('.die.rolling')")
            await screenshot(page, shots, "dice-held", full=False)
            held = [s["dice"][0], s["dice"][2]]
            await page.click("#roll")
            s = await after(page, s["version"])
            assert [s["dice"][0], s["dice"][2]] == held  # the held dice stayed...
            assert s["keys"][:3] == ["Hold 1", "2", "Hold 3"]  # ...held for the next roll
            # the other way, from the bar: the same dice, marked to roll again
            await page.select_option("#mark-select", "reroll")
            await page.wait_for_function(
                "() => document.querySelector('.dice').dataset.mark === 'reroll'")
            s = await shown(page)
            assert s["keys"] == ["1", "2", "3", "4", "5"]
            assert s["chosen"] == [False, True, False, True, True]
            assert await page.locator(".die.is-chosen").count() == 3
            assert "chosen to roll again" in s["dice"][1]
            assert await page.evaluate("localStorage.getItem('yacht.dice_mark')") == '"reroll"'
            await screenshot(page, shots, "dice-marked", full=False)
            # remembered: a new page of this browser marks them too
            await page.reload()
            s = await wait_game(page)
            assert s["mark"] == "reroll" and await page.input_value("#mark-select") == "reroll"
            await page.select_option("#mark-select", "variant")
            await page.wait_for_function(
                "() => document.querySelector('.dice').dataset.mark === 'hold'")
            # the keys' dialog has both settings
            await page.keyboard.press("?")
            dialog = page.locator("dialog[open]")
            await dialog.locator(".keys-settings summary").click()
            assert await dialog.locator("#keys-mark").input_value() == "variant"
            await dialog.locator("#keys-pause").uncheck()
            await page.wait_for_function(
                "() => localStorage.getItem('yacht.computer_pause') === 'false'")
            await screenshot(page, shots, "keys-settings", full=False)
            await page.keyboard.press("Escape")
            tab.check()

    asyncio.run(main())


def test_on_a_phone_the_setting_is_in_the_new_game_form(server: Server, shots: Path) -> None:
    """No room in a phone's bar: the home page's form sets it, for every table after."""
    made = alone(server, "tommys-crag")

    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser, phone=True), server.url("/"))
            page = tab.page
            await page.select_option("#variant", "tommys-crag")
            assert "as the variant (marks it)" in (await page.text_content("#dice-mark") or "")
            await page.select_option("#dice-mark", "hold")
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            s = await wait_game(page)
            assert s["mark"] == "hold"  # Tommy's Crag, held as this browser chose
            assert not await page.is_visible("#mark-select")  # (no room in the bar)
            await page.click("#roll")
            s = await after(page, s["version"])
            await page.locator(".die").nth(1).click()
            s = await after(page, s["version"])
            assert s["keys"] == ["1", "Hold 2", "3"] and s["label"] == "Roll 2 dice"
            sizes = await page.evaluate("() => [document.documentElement.scrollWidth, "
                                        "document.documentElement.clientWidth]")
            assert sizes[0] <= sizes[1], sizes
            await page.wait_for_function("() => !document.querySelector('.die.rolling')")
            await screenshot(page, shots, "dice-held-phone", full=False)
            tab.check()

    asyncio.run(main())


#: every label the Roll button shows, in order (the page's own record, read at the end)
LABELS = """() => {
  window.labels = [];
  const roll = document.querySelector('#roll');
  new MutationObserver(() => window.labels.push(roll.textContent))
    .observe(roll, {childList: true, characterData: true, subtree: true});
}"""


def test_the_new_game_form_remembers_both_settings(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            page = tab.page
            await page.wait_for_selector("#dice-mark")
            await page.select_option("#variant", "tommys-crag")
            assert "as the variant (marks it)" in (await page.text_content("#dice-mark") or "")
            # the short words in the menu, in full under it (what for)
            said = await page.text_content("#dice-mark-help")
            assert said == "A click marks the die to roll again: Roll rolls the marked dice.", said
            await page.select_option("#variant", "yatzy")
            assert "as the variant (holds it)" in (await page.text_content("#dice-mark") or "")
            said = await page.text_content("#dice-mark-help")
            assert said == "A click holds the die: Roll rolls the others.", said
            await page.select_option("#dice-mark", "reroll")
            said = await page.text_content("#dice-mark-help")
            assert said.startswith("A click marks the die to roll again"), said
            await page.select_option("#dice-mark", "variant")
            assert await page.is_checked("#computer-pause")
            await page.uncheck("#computer-pause")
            await page.reload()
            await page.wait_for_selector("#dice-mark")
            assert not await page.is_checked("#computer-pause")
            assert await page.evaluate("localStorage.getItem('yacht.computer_pause')") == "false"
            # a game against a computer with no pause: Ann's score, then the computer plays
            # by itself (no Go on) and Ann's turn comes again
            made = alone(server, "tommys-crag", computer=True)
            await seat_token(page, server, made)
            await page.goto(server.url(made["url"]))
            s = await wait_game(page)
            await page.evaluate(LABELS)
            await page.click("#roll")
            s = await after(page, s["version"])
            await page.locator(".score-btn").first.click()
            for _ in range(200):
                snap = server.snapshot(made["id"])["snapshot"]
                if snap["players"][1]["turns_taken"] == 1 and snap["current"] == 0:
                    break
                await asyncio.sleep(0.1)
            assert snap["current"] == 0 and snap["pause"] is None
            labels = await page.evaluate("window.labels")
            assert "Go on" not in labels, labels
            tab.check()

    asyncio.run(main())


def test_the_first_hint_asks_and_never_mind_leaves_the_game_as_it_was(server: Server) -> None:
    made = alone(server, "tommys-crag")

    async def main() -> None:
        async with chromium() as browser:
            tab = await at_the_table(await new_context(browser), server, made)
            page = tab.page
            s = await shown(page)
            await page.click("#roll")
            await after(page, s["version"])
            await page.keyboard.press("h")
            await page.wait_for_selector("#hint-confirm")
            text = await page.text_content("#hint-confirm") or ""
            assert "A hint marks the game assisted: Ann's score goes to the list apart from " \
                   "the top ten." in text
            await page.click("#hint-confirm button:text-is('Never mind')")
            await page.locator("dialog").wait_for(state="detached")
            assert not server.snapshot(made["id"])["snapshot"]["assisted"]
            assert await page.locator("#hint-dialog").count() == 0
            assert "assisted" not in (await page.text_content(".chips") or "").lower()
            tab.check()

    asyncio.run(main())

