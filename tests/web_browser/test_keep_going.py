"""A table that keeps going (issue 23): two players and a watcher at a table with a turn
clock; one player closes the tab in the middle of the game and the clock plays their turns
to the end; the one who stays plays again at the same link."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import Page

from .conftest import Server
from .play import (
    Player,
    Tab,
    chromium,
    new_context,
    open_tab,
    quickly_to_the_end,
    screenshot,
    seat_token,
    table_id,
    wait_end,
    wait_game,
)

#: the clock's shortest turn: the test's turns run out quickly
CLOCK = 5
#: the turns Bob plays before he leaves (of Tommy's Crag's 13: the clock plays the rest)
STAYS = 10


@pytest.mark.slow
def test_the_clock_plays_for_the_player_who_left_and_the_others_play_again(
        server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            made = server.post("/api/tables", {
                "variant": "tommys-crag", "speed": "instant",
                "clock": {"kind": "turn", "seconds": CLOCK},
                "seats": [{"kind": "person", "name": "Ann", "here": True},
                          {"kind": "person", "here": False}]})
            tid = made["id"]
            contexts = [await new_context(browser), await new_context(browser),
                        await new_context(browser, phone=True)]
            ann = await open_tab(contexts[0], server.url("/"))
            await seat_token(ann.page, server, made)
            await ann.page.goto(server.url(made["url"]))
            await ann.page.wait_for_selector(".lobby")
            assert f"clock {CLOCK} s a turn" in (await ann.page.text_content(".lobby") or "")
            bob = await open_tab(contexts[1], server.url(made["url"]))
            await bob.page.wait_for_selector("#take-1")
            await bob.page.fill("#join-name", "Bob")
            await bob.page.click("#take-1")
            watcher = await open_tab(contexts[2], server.url(made["url"]))
            tabs: list[Tab] = [ann, bob, watcher]
            for t in tabs:
                await wait_game(t.page)
            # the clock counts down on every page: Ann's own, and hers for the others
            # (waited for, not read once: on a loaded machine Ann's first 5 s may run out
            # while the tabs open, and the clock is then Bob's until her next turn)
            await ann.page.wait_for_selector("#turn-clock:not([hidden])")
            shows = "text => document.querySelector('#turn-clock')?.textContent.includes(text)"
            await ann.page.wait_for_function(shows, arg="Your time")
            await watcher.page.wait_for_function(shows, arg="Ann's time")
            first = await ann.page.text_content("#turn-clock .clock-face")
            await asyncio.sleep(1.2)
            assert await ann.page.text_content("#turn-clock .clock-face") != first
            await screenshot(ann.page, shots, "clock-desktop")
            await screenshot(watcher.page, shots, "clock-phone")

            # both play their turns up to the last few (the first through their sockets,
            # quickly, two on their pages), then Bob closes the tab (the clock then plays
            # those few: each waits out its 5 s)
            await quickly_to_the_end(server, ann.page, bob.page, leave=13 - (STAYS - 2))
            players = [Player(ann.page, "mouse", 3), Player(bob.page, "keyboard", 4)]
            for _ in range(3000):
                if server.snapshot(tid)["snapshot"]["players"][1]["turns_taken"] >= STAYS:
                    break
                moved = [await p.step() for p in players]
                if not any(moved):
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("Ann and Bob did not play their turns")
            await bob.page.close()
            await ann.page.wait_for_function(
                "() => document.querySelector('[data-seat=\"1\"] .seat-state')"
                "?.textContent.includes('gone')")
            # Ann plays on; Bob's turns run out, and the clock plays them
            for _ in range(3000):
                snap = server.snapshot(tid)["snapshot"]
                if snap["finished"]:
                    break
                if not await players[0].step():
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("the game did not end")
            for t in (ann, watcher):
                await wait_end(t.page)
            snap = server.snapshot(tid)["snapshot"]
            by_clock = snap["cards"][1]["played_by"]
            assert len(by_clock) >= snap["turns"] - STAYS
            assert {b["by"] for b in by_clock} == {"clock"}
            marked = watcher.page.locator(".cell.by-computer[data-player='1']")
            assert await marked.count() == len(by_clock)
            await screenshot(ann.page, shots, "clock-end")

            # Ann plays again at the same link; Bob is not there to answer: she starts
            await ann.page.click("#play-again")
            await ann.page.wait_for_selector("#lobby-title")
            assert "Play again" in (await ann.page.text_content("#lobby-title") or "")
            await ann.page.wait_for_selector("#start-now")
            # the series score is readable on the lobby's panel (it was cream on cream)
            assert await contrast(ann.page, "#series-line") >= 4.5
            await ann.page.click("#start-now")
            await ann.page.wait_for_function(
                "() => document.querySelector('.game') && "
                "document.querySelector('#series-line')")
            assert table_id(ann.page) == tid
            again = server.snapshot(tid)["snapshot"]
            assert again["game_id"] != snap["game_id"] and not again["over"]
            assert [p["name"] for p in again["players"]] == ["Ann"]
            line = await ann.page.text_content("#series-line") or ""
            assert line.startswith("Series after 1 game")
            await watcher.page.wait_for_function(
                "id => document.querySelector('.game') && "
                "document.querySelector('#series-line')", arg=again["game_id"])
            for t in (ann, watcher):
                t.check()

    asyncio.run(main())


@pytest.mark.slow
def test_a_vote_hands_an_absent_seat_to_the_computer_and_its_owner_takes_it_back(
        server: Server, shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            made = server.post("/api/tables", {
                "variant": "tommys-crag", "speed": "instant", "absent_after": 30,
                "seats": [{"kind": "person", "name": "Ann", "here": True},
                          {"kind": "person", "here": False}, {"kind": "person", "here": False}]})
            tid = made["id"]
            contexts = [await new_context(browser) for _ in range(3)]
            ann = await open_tab(contexts[0], server.url("/"))
            await seat_token(ann.page, server, made)
            await ann.page.goto(server.url(made["url"]))
            tabs = [ann]
            for i, name in ((1, "Bob"), (2, "Cy")):
                tab = await open_tab(contexts[i], server.url(made["url"]))
                await tab.page.wait_for_selector(f"#take-{i}")
                await tab.page.fill("#join-name", name)
                await tab.page.click(f"#take-{i}")
                tabs.append(tab)
            for t in tabs:
                await wait_game(t.page)
            ann, bob, cy = tabs
            cy_token = await cy.page.evaluate(
                "id => JSON.parse(localStorage.getItem(`yacht.token.${id}`))", tid)
            assert cy_token
            await cy.page.close()
            # after the table's 30 seconds the others may vote: Bob votes, Ann (the
            # table's host) hands the seat over
            vote = "[data-seat='2'] button"
            await bob.page.wait_for_selector(vote, timeout=45_000)
            assert "Vote" in (await bob.page.text_content(vote) or "")
            await bob.page.click(vote)
            await bob.page.wait_for_function(
                "() => document.querySelector(\"[data-seat='2'] button\")"
                "?.textContent.includes('Take back my vote (1/2)')")
            await ann.page.wait_for_selector(vote)
            assert "Hand to the computer" in (await ann.page.text_content(vote) or "")
            await ann.page.click(vote)
            await bob.page.wait_for_selector("[data-seat='2'].is-away")
            await screenshot(bob.page, shots, "away-vote")
            players = [Player(ann.page, "mouse", 1), Player(bob.page, "keyboard", 2)]
            for _ in range(400):  # a round: the computer plays Cy's turn
                snap = server.snapshot(tid)["snapshot"]
                if snap["players"][2]["turns_taken"] >= 1:
                    break
                if not any([await p.step() for p in players]):
                    await asyncio.sleep(0.05)
            assert server.snapshot(tid)["snapshot"]["cards"][2]["played_by"][0]["by"] \
                == "stand_in"
            # Cy opens her link again: from her next turn the seat is hers
            cy = await open_tab(await new_context(browser), server.url("/"))
            await seat_token(cy.page, server, {"id": tid, "token": cy_token})
            await cy.page.goto(server.url(made["url"]))
            await wait_game(cy.page)
            await ann.page.wait_for_selector("[data-seat='2']:not(.is-away)")
            for _ in range(400):
                snap = server.snapshot(tid)["snapshot"]
                if snap["current"] == 2 and not snap["stand_ins"]:
                    break
                if not any([await p.step() for p in players]):
                    await asyncio.sleep(0.05)
            await cy.page.wait_for_selector("#roll:not([aria-disabled='true'])")
            assert await Player(cy.page, "mouse", 3).step()
            for t in (ann, bob, cy):
                t.check()

    asyncio.run(main())


async def contrast(page: Page, selector: str) -> float:
    """The contrast ratio of an element's text against the first background behind it."""
    fg, bg = await page.evaluate("""sel => {
        const el = document.querySelector(sel);
        let at = el, bg = "rgba(0, 0, 0, 0)";
        while (at && (bg === "rgba(0, 0, 0, 0)" || bg === "transparent")) {
            bg = getComputedStyle(at).backgroundColor; at = at.parentElement;
        }
        return [getComputedStyle(el).color, bg];
    }""", selector)

    def luminance(css: str) -> float:
        r, g, b = (int(float(v)) / 255 for v in css[css.index("(") + 1:-1].split(",")[:3])
        return sum(w * (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
                   for w, c in zip((0.2126, 0.7152, 0.0722), (r, g, b), strict=True))

    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_short_turn_clock_tells_the_seconds_it_has(server: Server) -> None:
    """QA s25: at a table of 5 s a turn, the page told its player "Ten seconds left." as
    each of their turns began (the last ten seconds were the whole turn). It tells the
    seconds the turn has."""
    made = server.post("/api/tables", {
        "variant": "yahtzee", "speed": "instant", "clock": {"kind": "turn", "seconds": CLOCK},
        "seats": [{"kind": "person", "name": "Ann", "here": True}]})

    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser, phone=True), server.url("/"))
            await seat_token(tab.page, server, made)
            await tab.page.goto(server.url(made["url"]))
            await wait_game(tab.page)
            said = "() => [...document.querySelectorAll('#live p')].map(p => p.textContent)"
            await tab.page.wait_for_function(
                f"() => ({said})().some(t => t.endsWith('left.'))")
            lines = [t for t in await tab.page.evaluate(said) if t.endswith("left.")]
            # (the seconds the turn still has when the page is there: fewer than 5 on a
            # loaded machine, never ten)
            assert re.fullmatch(r"(1 second|[2-5] seconds) left\.", lines[0]), lines
            tab.check()

    asyncio.run(main())
