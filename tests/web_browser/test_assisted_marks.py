"""Whose game is assisted is each player's own (8a6a74c): at an online table where Ann
asked the advisor, Ann's page marks her game and shows the list apart at the end; Felix's
page names Ann as assisted and shows him the top ten itself; the new lines are told each
with its list."""

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
from .test_hint import open_hint
from .test_online import join, play_together


def test_only_the_player_who_asked_is_marked(server: Server, shots: Path) -> None:
    made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "person", "here": False}]})
    tid = made["id"]

    async def main() -> None:
        async with chromium() as browser:
            ann = await open_tab(await new_context(browser), server.url("/"))
            await seat_token(ann.page, server, made)
            await ann.page.goto(server.url(made["url"]))
            felix = await open_tab(await new_context(browser), server.url(made["url"]))
            await join(felix.page, "Felix", 1)
            for t in (ann, felix):
                await wait_game(t.page)
            await ann.page.keyboard.press("r")
            await open_hint(ann.page)
            await ann.page.keyboard.press("Escape")
            for _ in range(100):
                if server.snapshot(tid)["snapshot"]["assisted_players"] == [0]:
                    break
                await asyncio.sleep(0.05)
            await felix.page.wait_for_function(
                "() => [...document.querySelectorAll('.chip')]"
                ".some((c) => c.textContent === 'assisted: Ann')")
            chips = await ann.page.locator(".chip").all_text_contents()
            assert "assisted" in chips, chips
            await quickly_to_the_end(server, ann.page, felix.page, leave=2)
            await play_together(server, tid, [Player(ann.page, "mouse", 5),
                                              Player(felix.page, "keyboard", 6)], [])
            for t in (ann, felix):
                await wait_end(t.page)
            heads = {}
            for name, t in (("Ann", ann), ("Felix", felix)):
                await t.page.wait_for_selector(".end-scores h3")
                heads[name] = await t.page.text_content(".end-scores h3")
            assert heads["Ann"] == "Top ten (games apart: assisted, or dice entered)", heads
            assert heads["Felix"] == "Top ten", heads
            # Felix's score is in the top ten itself, Ann's in the list apart
            await felix.page.wait_for_selector(".end-topten table")
            listed = await felix.page.text_content(".end-topten") or ""
            assert "Felix" in listed and "Ann" not in listed, listed
            # the live region tells each new line with its list (QA s25: "New in the top
            # ten: Felix, 80, place 1; Ann, 60, place 1", two first places of one list)
            said = await felix.page.evaluate(
                "() => [...document.querySelectorAll('#live p')].map(p => p.textContent)")
            new = [line for line in said if line.startswith("New in the top ten")]
            assert len(new) == 2, said
            assert "Felix" in new[0] and "Ann" not in new[0], new
            assert new[1].startswith("New in the top ten apart (assisted, or dice entered): "
                                     "Ann, "), new
            await screenshot(felix.page, shots, "assisted-marks-felix")
            for t in (ann, felix):
                t.check()

    asyncio.run(main())
