"""A whole game alone, by mouse only and by keyboard only, in two variants each (the
10-dice game by mouse, the two-column game by keyboard), from the home page to the
results, in Chromium against the real server."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from .conftest import Server
from .play import (
    after,
    at_the_table,
    chromium,
    new_context,
    open_tab,
    play_alone,
    screenshot,
    table_id,
    wait_end,
    wait_game,
)


async def plant_setup(page: Page, setup: dict[str, Any]) -> None:
    """The setup the home page remembers (as if chosen there last time)."""
    await page.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps(setup))
    await page.reload()
    await page.wait_for_selector("#start")


async def check_end(page: Page, server: Server, name: str) -> dict[str, Any]:
    """The results on the page are the server's: result, each card's total, the chart,
    the new top-ten line."""
    await wait_end(page)
    snap: dict[str, Any] = server.snapshot(table_id(page))["snapshot"]
    assert snap["finished"] and snap["over"]
    assert await page.text_content("#end-title") == snap["result"]
    assert snap["result"].startswith(f"{name} scored")
    totals = await page.locator(".player-total").all_text_contents()
    assert totals == [str(p["total"]) for p in snap["players"]]
    # the chart: one line per player through every turn
    points = await page.get_attribute(".chart .chart-line", "points")
    assert points is not None and len(points.split()) == snap["turns"] + 1
    # the new top-ten line is marked
    await page.wait_for_selector(".topten tr.is-new")
    row = await page.locator(".topten tr.is-new").first.text_content() or ""
    assert name in row and str(snap["players"][0]["total"]) in row
    comments = await page.locator(".comments li").all_text_contents()
    assert comments == [c["text"] for c in snap["comments"]]
    # the dice: from the seed the game committed to, which anyone may check now
    proof = await page.locator(".end-dice").text_content() or ""
    assert snap["dice_seed"]["commitment"][:16] in proof and snap["dice_seed"]["seed"]
    await page.click("#verify-btn")
    await page.locator(".dice-verdict", has_text="verified: all").wait_for()
    return snap


@pytest.mark.slow
def test_games_alone_by_mouse(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            # the setup: Yatzy, one person, the computers' pace does not matter
            await page.select_option("#variant", "yatzy")
            await page.fill("#p0-name", "Mo")
            await page.click("[aria-label='Remove player 2']")
            assert await page.locator(".player-row").count() == 1
            await page.click("#start")
            first = await wait_game(page)
            assert first["label"] == "Roll" and first["roll"]
            player = await play_alone(page, "mouse", seed=1)
            snap = await check_end(page, server, "Mo")
            assert player.actions >= snap["turns"] * 2  # a roll and a score a turn at least
            sounds = await page.evaluate("window.yachtSounds")
            assert {"roll", "end"} <= set(sounds) and ({"score", "zero", "bonus"} & set(sounds))
            await screenshot(page, shots, "end-yatzy")

            # New game: the setup is remembered; now the 10-dice game with 3 rolls
            await page.click("#new-game")
            await page.wait_for_selector("#start")
            assert await page.input_value("#variant") == "yatzy"
            assert await page.input_value("#p0-name") == "Mo"
            await page.select_option("#variant", "ancient-yacht-10")
            await page.select_option("#opt-rolls", "3")
            await page.click("#start")
            s = await wait_game(page)
            assert len(s["dice"]) == 10
            await play_alone(page, "mouse", seed=2)
            snap = await check_end(page, server, "Mo")
            assert snap["ruleset"]["options"] == {"rolls": "3"}
            tab.check()
            await ctx.close()
        # both games are in the top tens
        for variant in ("yatzy", "ancient-yacht-10&rolls=3"):
            top = server.get(f"/api/scores?variant={variant}")
            assert top[0]["entries"][0]["name"] == "Mo"

    asyncio.run(main())


async def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until ``selector`` has the focus."""
    for _ in range(limit):
        await page.keyboard.press("Tab")
        if await page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_games_alone_by_keyboard(server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await page.wait_for_selector("#start")
            await plant_setup(page, {"variant": "tommys-crag", "options": {},
                                     "players": [{"kind": "here", "name": "Kim"}],
                                     "demo": False, "speed": "normal"})
            await tab_to(page, "#start")
            await page.keyboard.press("Enter")
            s = await wait_game(page)
            assert len(s["dice"]) == 3

            # the rules and the keys, and back
            await page.keyboard.press("?")
            dialog = page.locator("dialog[open]")
            await dialog.wait_for()
            text = await dialog.text_content() or ""
            assert "Crag" in text and "choose dice 1-3 to roll again" in text
            assert "Shift+letter" not in text  # (one column)
            await page.keyboard.press("Escape")
            await dialog.wait_for(state="detached")

            # the sound toggle is remembered
            assert await page.get_attribute("#sound-btn", "aria-pressed") == "true"
            await page.keyboard.press("b")
            assert await page.get_attribute("#sound-btn", "aria-pressed") == "false"
            assert await page.evaluate("localStorage.getItem('yacht.sound')") == "false"

            # roll with r; then Tab to the dice: Space chooses, the arrows move, Enter rolls
            v = s["version"]
            await page.keyboard.press("r")
            s = await after(page, v)
            await tab_to(page, ".die")
            focus_ring = await page.evaluate(
                "getComputedStyle(document.activeElement.querySelector('.die-lift'), "
                "'::before').borderTopWidth")
            assert focus_ring == "3px"  # the focus is visible
            await page.keyboard.press("Space")
            s = await after(page, s["version"])
            assert s["chosen"][0] and "chosen to roll again" in s["dice"][0]
            await page.keyboard.press("ArrowRight")
            assert await page.evaluate("document.activeElement.dataset.index") == "1"
            await page.keyboard.press("Enter")  # rolls the chosen die
            s = await after(page, s["version"])
            assert not any(s["chosen"])
            live = await page.text_content("#live") or ""
            assert "Kim rolled dice 1 again" in live

            await play_alone(page, "keyboard", seed=3)
            await check_end(page, server, "Kim")
            assert await page.evaluate("window.yachtSounds || []") == []  # sound was off
            # p: play again, the same players and variant: a new game at the same link
            old = table_id(page)
            first = server.snapshot(old)["snapshot"]["game_id"]
            await page.keyboard.press("p")
            await page.wait_for_function(
                "() => document.querySelector('.game:not(.is-over)') && "
                "document.querySelector('#series-line')")
            s = await wait_game(page)
            assert table_id(page) == old and server.snapshot(old)["snapshot"]["game_id"] != first
            assert await page.text_content(".bar-title") == "Tommy's Crag"
            assert await page.locator(".player-name").all_text_contents() == ["Kim"]

            # the two-column game: column 2 by Shift+letter
            await page.evaluate("localStorage.setItem('yacht.sound', 'true')")
            await page.goto(server.url("/"))
            await plant_setup(page, {"variant": "ancient-yacht-double", "options": {},
                                     "players": [{"kind": "here", "name": "Kim"}],
                                     "demo": False, "speed": "normal"})
            await tab_to(page, "#start")
            await page.keyboard.press("Enter")
            s = await wait_game(page)
            await page.keyboard.press("r")
            s = await after(page, s["version"])
            box = next(b for b in s["scores"] if b["column"] == 1)
            await page.keyboard.press(f"Shift+Key{box['letter'].upper()}")
            await after(page, s["version"])
            snap = server.snapshot(table_id(page))["snapshot"]
            label = next(r["id"] for r in snap["rows"] if r["category"] == box["category"])
            assert snap["cards"][0]["cells"][label][1] != ""  # scored in column 2
            assert snap["cards"][0]["cells"][label][0] == ""
            await play_alone(page, "keyboard", seed=4)
            await check_end(page, server, "Kim")
            await screenshot(page, shots, "end-two-columns")
            tab.check()
            await ctx.close()

    asyncio.run(main())


def test_what_a_page_shows_is_the_servers_state(server: Server) -> None:
    """Dice, chosen dice, rolls left and the previews on the page match the snapshot."""
    async def main() -> None:
        table = server.post("/api/tables", {"variant": "yahtzee", "speed": "instant", "seats": [
            {"kind": "person", "name": "Ann", "here": True}]})
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            await tab.page.evaluate("([id, t]) => localStorage.setItem(`yacht.token.${id}`, "
                                    "JSON.stringify(t))", [table["id"], table["token"]])
            page = tab.page
            await page.goto(server.url(table["url"]))
            s = await wait_game(page)
            assert all("not rolled yet" in d for d in s["dice"])
            assert await page.get_attribute(".dot-row", "aria-label") == "3 rolls left of 3"
            await page.click("#roll")
            s = await after(page, s["version"])
            await page.locator(".die").nth(2).click()
            s = await after(page, s["version"])
            snap = server.snapshot(table["id"])["snapshot"]
            for i, value in enumerate(snap["dice"]):
                assert f"showing {value}" in s["dice"][i]
            # (Yahtzee's way: the die clicked is held; the record saves the choice of the
            # other dice, to roll again)
            assert [i for i, c in enumerate(s["chosen"]) if c] == [2]
            assert snap["chosen"] == [0, 1, 3, 4]
            assert snap["marks"] == ["", "", "held", "", ""] and "Hold 3" in s["keys"]
            assert await page.get_attribute(".dot-row", "aria-label") == "2 rolls left of 3"
            # the watcher's snapshot has the previews too: the page shows each as a button
            previews = {(p["category"], p["column"]): p["text"] for p in snap["previews"]}
            buttons = await page.locator(".score-btn").evaluate_all(
                "bs => bs.map(b => [b.dataset.category, Number(b.dataset.column), b.textContent])")
            assert {(c, col): t for c, col, t in buttons} == previews
            assert await page.text_content("#help-line") == snap["help"]  # the server's words
            # Oops: give back the held die (hold none)
            await page.click("#oops")
            await page.click("dialog [data-oops=give_back]")
            s = await after(page, s["version"])
            assert not any(s["chosen"])
            tab.check()
            await ctx.close()

    asyncio.run(main())


def test_a_game_saved_in_the_terminal_comes_by_its_one_time_link(server: Server,
                                                                  tmp_path: Path) -> None:
    """A game of the terminal (saved, one roll made) is no stranger's: the home page of
    a browser does not offer it. Its owner's link (`yacht resume ID --web`) opens it where
    it was, once; then the home page of that browser lists it to continue."""
    import subprocess
    import sys

    from yacht.engine import Player as EnginePlayer
    from yacht.engine import Roll
    from yacht.rules import get
    from yacht.session import LOCAL, Table
    from yacht.store import open_store

    store = open_store(str(server.db))
    try:
        table = Table.new(get("yatzy"), [EnginePlayer("Zoe")], store=store,
                          meta={"source": "tui"})
        table.act(LOCAL, Roll())  # (the table rolls: a terminal's game enters no dice)
        dice = [str(d) for d in table.view().state.dice]
        game_id = table.view().game_id
    finally:
        store.close()
    said = subprocess.run([sys.executable, "-m", "yacht", "resume", str(game_id), "--db",
                           str(server.db), "--web", server.base], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "HOME": str(tmp_path)})
    assert said.returncode == 0, said.stderr
    link = said.stdout.strip().splitlines()[-1]
    assert link.startswith(server.base + "/t/") and "#claim=" in link

    async def main() -> None:
        async with chromium() as browser:
            stranger = await new_context(browser)
            tab = await open_tab(stranger, server.url("/"))
            await tab.page.locator("#h-resume ~ p").wait_for()
            await tab.page.locator("#h-tables ~ *").first.wait_for()
            assert await tab.page.get_by_text("Zoe").count() == 0  # not offered to anyone
            ctx = await new_context(browser)
            tab = await open_tab(ctx, link)
            page = tab.page
            s = await wait_game(page)
            assert "#claim" not in page.url  # the key is not kept in the address
            assert [d.split("showing ")[1] for d in s["dice"]] == dice
            assert s["label"] == "Roll again" and s["scores"]
            tid = table_id(page)
            assert server.snapshot(tid)["snapshot"]["game_id"] == game_id
            await page.locator(".score-btn").first.click()
            await after(page, s["version"])
            # back home: the game is listed as this browser's, to continue at its table
            await page.click(".home-link")
            await page.get_by_role("link", name="Continue Yatzy with Zoe").click()
            await wait_game(page)
            assert table_id(page) == tid
            tab.check()
            # the link again, in another browser: it is spent, that one only watches
            late = await open_tab(stranger, link)
            await late.page.get_by_text("used already").wait_for()
            assert await late.page.locator(".score-btn:not([disabled])").count() == 0

    asyncio.run(main())


def test_a_double_click_on_roll_rolls_once(server: Server) -> None:
    """A double-click on Roll is one roll (the second click is not a second roll that
    throws the first away unseen), and so is a double-click on a box (QA s18 web
    item 2)."""
    async def main() -> None:
        table = server.post("/api/tables", {"variant": "yahtzee", "speed": "instant", "seats": [
            {"kind": "person", "name": "Ann", "here": True}]})
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await at_the_table(ctx, server, table)
            page = tab.page
            s = await wait_game(page)
            await page.dblclick("#roll")
            s = await after(page, s["version"])
            await asyncio.sleep(1.0)  # (time for a second roll, were there one)
            snap = server.snapshot(table["id"])["snapshot"]
            assert snap["rolls_left"] == snap["max_rolls"] - 1, snap["rolls_left"]
            # two quick single clicks before the first answer: one roll too
            await page.locator(".die").nth(0).click()
            s = await after(page, s["version"])
            version = server.snapshot(table["id"])["snapshot"]["version"]
            await page.evaluate("() => { const b = document.querySelector('#roll'); "
                                "b.click(); b.click(); }")
            await asyncio.sleep(1.0)
            snap = server.snapshot(table["id"])["snapshot"]
            assert snap["rolls_left"] == snap["max_rolls"] - 2 and snap["version"] > version
            # a double-click on a box scores it once
            await page.locator(".score-btn").first.dblclick()
            await asyncio.sleep(1.0)
            snap = server.snapshot(table["id"])["snapshot"]
            assert not snap["dice"] and snap["rolls_left"] == snap["max_rolls"]
            tab.check()
            await ctx.close()

    asyncio.run(main())


def test_a_watcher_is_told_who_is_playing_not_the_movers_instructions(server: Server) -> None:
    """The snapshot's help is the mover's ("press Roll", "roll the 4 dice not held"):
    a page that does not hold the mover's seat says who is playing instead (QA s18 web
    item 5); the mover's page keeps the server's words."""
    async def main() -> None:
        table = server.post("/api/tables", {"variant": "yahtzee", "speed": "instant", "seats": [
            {"kind": "person", "name": "Ann", "here": True}]})
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await at_the_table(ctx, server, table)
            s = await wait_game(tab.page)
            other = await new_context(browser)
            watcher = await open_tab(other, server.url(table["url"]))
            await wait_game(watcher.page)
            line = await watcher.page.text_content("#help-line") or ""
            assert line == "Ann is playing: waiting for Ann to roll.", line
            await tab.page.click("#roll")
            s = await after(tab.page, s["version"])
            await after(watcher.page, s["version"] - 1)
            line = await watcher.page.text_content("#help-line") or ""
            assert line == "Ann is playing: choosing dice or a box (2 rolls left).", line
            snap = server.snapshot(table["id"])["snapshot"]
            assert await tab.page.text_content("#help-line") == snap["help"]
            tab.check()
            watcher.check()
            await ctx.close()
            await other.close()

    asyncio.run(main())


def test_a_table_that_does_not_exist_is_said_so_with_a_link_home(server: Server) -> None:
    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            page = await ctx.new_page()
            answer = await page.goto(server.url("/t/nonexistent"))
            assert answer is not None and answer.status == 404
            await page.locator("h1", has_text="No such table").wait_for()
            assert "does not exist or has ended" in (await page.text_content("#app") or "")
            await page.click("a[href='/']")
            await page.wait_for_url(server.url("/"))
            await ctx.close()

    asyncio.run(main())
