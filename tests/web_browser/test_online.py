"""Friends online: two browsers play a game to its end with a third watching; a page
reloaded in the middle of a turn; the server killed (-9) and started again in the middle
of a game, the pages reconnecting by themselves."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from .conftest import Server
from .play import (
    Player,
    Tab,
    after,
    chromium,
    new_context,
    open_tab,
    quickly_to_the_end,
    screenshot,
    seat_token,
    shown,
    table_id,
    wait_end,
    wait_game,
)

#: a name with markup in it: it must show as these characters, never as an element
BOB = "<b>Bob</b>"


async def make_friends_table(server: Server, ann: Page, seats: list[dict[str, Any]]) -> str:
    """Ann sets up a game on the home page with a friend's open seat; the lobby's link."""
    await ann.wait_for_selector("#start")
    await ann.evaluate("s => localStorage.setItem('yacht.setup', s)", json.dumps({
        "variant": "tommys-crag", "options": {}, "players": seats, "demo": False,
        "speed": "instant"}))
    await ann.reload()
    await ann.click("#start")
    await ann.wait_for_selector(".lobby")
    link = await ann.input_value("#share-link")
    assert link == server.url(f"/t/{table_id(ann)}")
    return link


async def join(page: Page, name: str, seat: int) -> None:
    await page.wait_for_selector(f"#take-{seat}")
    await page.fill("#join-name", name)
    await page.click(f"#take-{seat}")


async def play_together(server: Server, tid: str, players: list[Player],
                        watchers: list[Page], limit: int = 3000) -> None:
    """Until the game's end: whoever may act acts, once their page shows the newest state."""
    pages = [p.page for p in players] + watchers
    for _ in range(limit):
        snap = server.snapshot(tid)["snapshot"]
        if snap["finished"]:
            return
        for page in pages:  # every page catches up with the server
            await page.wait_for_function(
                "v => Number(document.querySelector('.game')?.dataset.version) >= v",
                arg=snap["version"])
        acted = False
        for p in players:
            if await p.step():
                acted = True
                break
        if not acted:
            await asyncio.sleep(0.02)  # a computer is playing
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_two_browsers_play_online_to_the_end_with_a_watcher(server: Server,
                                                            shots: Path) -> None:
    async def main() -> None:
        async with chromium() as browser:
            tabs: list[Tab] = []
            contexts = [await new_context(browser) for _ in range(3)]
            ann = await open_tab(contexts[0], server.url("/"))
            tabs.append(ann)
            link = await make_friends_table(server, ann.page, [
                {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""},
                {"kind": "beginner", "name": "Cpu"}])
            tid = table_id(ann.page)
            await screenshot(ann.page, shots, "lobby")
            assert await ann.page.locator(".seat.is-open").count() == 1

            bob = await open_tab(contexts[1], link)
            tabs.append(bob)
            await join(bob.page, BOB, 1)
            for t in (ann, bob):
                await wait_game(t.page)
            watcher = await open_tab(contexts[2], link)
            tabs.append(watcher)
            await wait_game(watcher.page)
            assert "watching" in (await watcher.page.text_content(".chips") or "")

            # names are text: Bob's markup shows as typed, nowhere as an element
            for t in tabs:
                names = await t.page.locator(".player-name").all_text_contents()
                assert names == ["Ann", BOB, "Cpu"]
                assert await t.page.locator(".player-name b").count() == 0
            # who is here: both players, and one watcher
            await ann.page.wait_for_function(
                "() => document.querySelector('.presence')?.textContent.includes('1 watcher')")
            here = await ann.page.text_content(".presence") or ""
            assert "Ann" in here and BOB in here

            # the watcher can do nothing: every control says so
            w = await shown(watcher.page)
            assert not w["roll"] and not w["scores"]

            players = [Player(ann.page, "mouse", 5), Player(bob.page, "keyboard", 6)]
            await play_together(server, tid, players, [watcher.page])
            for t in tabs:
                await wait_end(t.page)
            snap = server.snapshot(tid)["snapshot"]
            for t in tabs:
                assert await t.page.text_content("#end-title") == snap["result"]
                assert await t.page.locator(".chart .series").count() == 3
            # the players may play again; the watcher starts a game of its own
            assert await ann.page.locator("#play-again").count() == 1
            assert await watcher.page.locator("#play-again").count() == 0
            await screenshot(watcher.page, shots, "end-online-watcher")
            assert players[0].actions > 10 and players[1].actions > 10
            for t in tabs:
                t.check()

    asyncio.run(main())


def test_a_reload_in_the_middle_of_a_turn(server: Server) -> None:
    async def main() -> None:
        table = server.post("/api/tables", {"variant": "yatzy", "speed": "instant", "seats": [
            {"kind": "person", "name": "Ann", "here": True}]})
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            await seat_token(page, server, table)
            await page.goto(server.url(table["url"]))
            s = await wait_game(page)
            await page.click("#roll")
            s = await after(page, s["version"])
            for i in (1, 3):
                await page.locator(".die").nth(i).click()
                s = await after(page, s["version"])
            before = s
            await page.reload()
            again = await wait_game(page)
            for key in ("version", "dice", "chosen", "label", "scores"):
                assert again[key] == before[key], key
            assert again["chosen"] == [False, True, False, True, False]  # held (Yatzy's way)
            await page.click("#roll")  # the turn goes on where it was
            s = await after(page, again["version"])
            # the held dice stayed, and are held for the next roll
            assert s["chosen"] == again["chosen"] and s["scores"]
            assert [s["dice"][i] for i in (1, 3)] == [again["dice"][i] for i in (1, 3)]
            await page.locator(".score-btn").first.click()
            await after(page, s["version"])
            snap = server.snapshot(table["id"])["snapshot"]
            assert snap["players"][0]["turns_taken"] == 1 and snap["rolls"] == 0
            tab.check()

    asyncio.run(main())


@pytest.mark.slow
def test_the_server_killed_and_started_again_mid_game(own_server: Server) -> None:
    server = own_server

    async def main() -> None:
        async with chromium() as browser:
            a_ctx, b_ctx = await new_context(browser), await new_context(browser)
            ann = await open_tab(a_ctx, server.url("/"))
            link = await make_friends_table(server, ann.page, [
                {"kind": "here", "name": "Ann"}, {"kind": "friend", "name": ""}])
            tid = table_id(ann.page)
            bob = await open_tab(b_ctx, link)
            await join(bob.page, "Bob", 1)
            players = [Player(ann.page, "mouse", 7), Player(bob.page, "mouse", 8)]
            for p in players:
                await wait_game(p.page)
            # two turns each, then Ann rolls and chooses a die
            for _ in range(400):
                snap = server.snapshot(tid)["snapshot"]
                if snap["players"][1]["turns_taken"] >= 2 and snap["current"] == 0:
                    break
                p = players[snap["current"]]
                await p.page.wait_for_function(
                    "v => Number(document.querySelector('.game').dataset.version) >= v",
                    arg=snap["version"])
                await p.step()
            s = await shown(ann.page)
            await ann.page.click("#roll")
            s = await after(ann.page, s["version"])
            await ann.page.locator(".die").nth(0).click()
            s = await after(ann.page, s["version"])
            before = s

            server.kill9()
            for t in (ann, bob):  # both pages see the connection go
                await t.page.wait_for_selector(".conn-banner:not([hidden])")
            server.start()
            for t in (ann, bob):  # and come back by themselves
                await t.page.wait_for_selector(".conn-banner", state="hidden", timeout=30_000)
            again = await shown(ann.page)
            for key in ("dice", "chosen", "scores", "label"):  # (the version starts anew)
                assert again[key] == before[key], key
            assert "Connected again." in (await ann.page.text_content("#live") or "")
            # the game goes on to its end: quickly through the sockets, the last turns
            # on the pages
            await quickly_to_the_end(server, ann.page, bob.page, leave=2)
            await play_together(server, tid, players, [])
            for t in (ann, bob):
                await wait_end(t.page)
            assert server.snapshot(tid)["snapshot"]["finished"]
            ann.check()
            bob.check()

    asyncio.run(main())
