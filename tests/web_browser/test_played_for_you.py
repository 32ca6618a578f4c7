"""A player back at the table is told in the page what the computer played for them
(QA audit, item 9): from their card's played_by in the snapshot, a line under the help
("The computer played 3 of your turns while you were away."), never on a watcher's page."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from playwright.async_api import WebSocketRoute

from .conftest import Server
from .play import chromium, new_context, open_tab, screenshot, seat_token, shown, wait_game


def played_for_ann(ws: WebSocketRoute) -> None:
    """The table's socket, its snapshots changed on the way: the computer played three of
    Ann's boxes while she was away and one when her clock ran out (as its played_by says)."""
    server = ws.connect_to_server()

    def from_server(message: str | bytes) -> None:
        msg: dict[str, Any] = json.loads(message)
        snap = msg.get("table", {}).get("snapshot") if msg.get("type") == "state" else None
        if snap:
            boxes = [r["category"] for r in snap["rows"] if r.get("category")][:4]
            snap["cards"][0]["played_by"] = [
                {"category": c, "column": 0, "by": "clock" if i == 3 else "stand_in",
                 "turn": i + 1} for i, c in enumerate(boxes)]
        ws.send(json.dumps(msg))

    server.on_message(from_server)
    ws.on_message(server.send)


def test_a_player_back_is_told_what_the_computer_played_for_them(server: Server,
                                                                 shots: Path) -> None:
    made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "expert", "name": "Expert"}]})

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            await seat_token(tab.page, server, made)
            page = tab.page
            await page.route_web_socket("**/ws/**", played_for_ann)
            await page.goto(server.url(made["url"]))
            await wait_game(page)
            line = page.locator("#played-for")
            await line.wait_for()
            assert await line.text_content() == (
                "The computer played 3 of your turns while you were away. Your time ran out "
                "on 1 turn: the computer played it. (Marked on the card.)")
            assert await page.locator(".cell.by-computer").count() == 4
            assert (await shown(page))["roll"]  # (the page plays on as before)
            await screenshot(page, shots, "played-for-you")
            # a watcher is told nothing of the kind: it is no one's own
            watcher = await open_tab(await new_context(browser), server.url("/"))
            await watcher.page.route_web_socket("**/ws/**", played_for_ann)
            await watcher.page.goto(server.url(made["url"]))
            await wait_game(watcher.page)
            assert await watcher.page.locator("#played-for").is_hidden()
            for t in (tab, watcher):
                t.check()

    asyncio.run(main())


def away_twice(ws: WebSocketRoute) -> None:
    """The table's socket, its snapshots changed on the way: the computer played Ann's
    turns 1-3 (she was away), she played turns 4 and 5, then it played turns 6 and 7 (away
    again) and her clock ran out on turn 8."""
    server = ws.connect_to_server()

    def from_server(message: str | bytes) -> None:
        msg: dict[str, Any] = json.loads(message)
        snap = msg.get("table", {}).get("snapshot") if msg.get("type") == "state" else None
        if snap:
            boxes = [r["category"] for r in snap["rows"] if r.get("category")][:6]
            snap["cards"][0]["played_by"] = [
                {"category": c, "column": 0, "by": "clock" if turn == 8 else "stand_in",
                 "turn": turn} for c, turn in zip(boxes, [1, 2, 3, 6, 7, 8], strict=True)]
        ws.send(json.dumps(msg))

    server.on_message(from_server)
    ws.on_message(server.send)


def test_the_line_counts_the_turns_played_since_the_player_left(server: Server) -> None:
    """The line counted every turn the computer played for the player in the whole game
    ("played 5 of your turns while you were away" to a player back from her second
    absence, of 2 turns): now the turns since she last left, from played_by's turns."""
    made = server.post("/api/tables", {"variant": "yatzy", "speed": "instant", "seats": [
        {"kind": "person", "name": "Ann", "here": True},
        {"kind": "expert", "name": "Expert"}]})

    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url("/"))
            await seat_token(tab.page, server, made)
            page = tab.page
            await page.route_web_socket("**/ws/**", away_twice)
            await page.goto(server.url(made["url"]))
            await wait_game(page)
            line = page.locator("#played-for")
            await line.wait_for()
            assert await line.text_content() == (
                "The computer played 2 of your turns while you were away. Your time ran out "
                "on 1 turn: the computer played it. (Marked on the card.)")
            assert await page.locator(".cell.by-computer").count() == 6  # (all marked)
            tab.check()

    asyncio.run(main())
