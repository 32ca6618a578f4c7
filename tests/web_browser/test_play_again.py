"""Play again at the same link with a friend and a computer (QA audit, item 6): the next
game's lobby speaks to the person asked on their own page ("Accept to join...", not
"Waiting for Felix" on Felix's page)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .conftest import Server
from .play import (
    Player,
    chromium,
    new_context,
    open_tab,
    screenshot,
    seat_token,
    wait_end,
    wait_game,
)
from .test_online import join, play_together


def test_play_again_speaks_to_the_one_asked(server: Server, shots: Path) -> None:
    made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "instant", "seats": [
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
            await felix.page.click("#accept-again")
            await wait_game(ann.page)
            for t in (ann, felix):
                t.check()

    asyncio.run(main())
