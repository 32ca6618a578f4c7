"""Play again at the same link with a friend and a computer (QA audit, items 5-6): the
next game's lobby speaks to the person asked on their own page ("Accept to join...", not
"Waiting for Felix" on Felix's page), and the computer speed chosen in the game before is
the next game's, shown in its menu."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .conftest import Server
from .play import (
    Player,
    chromium,
    new_context,
    open_tab,
    quickly_to_the_end,
    screenshot,
    seat_token,
    wait_end,
    wait_game,
)
from .test_online import join, play_together


def test_play_again_speaks_to_the_one_asked_and_keeps_the_speed(server: Server,
                                                                shots: Path) -> None:
    made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "fast", "seats": [
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "person", "here": False},
        {"kind": "expert", "name": "Expert"}]})
    tid = made["id"]

    async def main() -> None:
        async with chromium() as browser:
            ann = await open_tab(await new_context(browser), server.url("/"))
            await seat_token(ann.page, server, made)
            await ann.page.goto(server.url(made["url"]))
            felix = await open_tab(await new_context(browser, phone=True), server.url(made["url"]))
            await join(felix.page, "Felix", 1)
            for t in (ann, felix):
                await wait_game(t.page)
            # Ann makes the computer quicker: the table was made at "fast"
            await ann.page.select_option("#speed-select", "instant")
            for _ in range(100):
                if server.snapshot(tid)["snapshot"]["speed"] == "instant":
                    break
                await asyncio.sleep(0.05)
            await quickly_to_the_end(server, ann.page, felix.page, leave=2)
            await play_together(server, tid, [Player(ann.page, "mouse", 5),
                                              Player(felix.page, "keyboard", 6)], [])
            for t in (ann, felix):
                await wait_end(t.page)
            await ann.page.click("#play-again")
            # Felix's page speaks to Felix, Ann's about him
            await felix.page.wait_for_selector("#again-line")
            await felix.page.wait_for_function(
                "() => document.querySelector('#again-line').textContent.startsWith('Accept')")
            line = await felix.page.text_content("#again-line") or ""
            assert line == "Accept to join the next game, or leave the table.", line
            assert "Felix" not in line
            await screenshot(felix.page, shots, "again-asked-phone")
            await ann.page.wait_for_function(
                "() => document.querySelector('#again-line')?.textContent"
                " === 'Waiting for Felix to accept or leave.'")
            lobby = await ann.page.text_content(".lobby") or ""
            assert "computer speed instant" in lobby
            # no seat is open: the table's link is one to watch, not an invitation
            label = await ann.page.text_content("label[for=share-link]") or ""
            assert label == "This table's link: anyone with it can watch", label
            await felix.page.click("#accept-again")
            # the next game: at the speed Ann chose, and its menu says so
            await wait_game(ann.page)
            for _ in range(100):
                snap = server.snapshot(tid)["snapshot"]
                if snap["speed"] == "instant":
                    break
                await asyncio.sleep(0.05)
            assert snap["speed"] == "instant", snap["speed"]
            await ann.page.wait_for_function(
                "() => document.querySelector('#speed-select').value === 'instant'")
            assert not await ann.page.locator("#speed-select").is_hidden()
            for t in (ann, felix):
                t.check()

    asyncio.run(main())
