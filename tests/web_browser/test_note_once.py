"""The scoring note (Generala's served boxes, a joker's boxes) is said once to the player
on turn: their help line says it already, so the note line under it stays hidden (QA s22:
'Served (first roll): Escalera score +5.' twice, one under the other); the others at the
table, whose help line says whose turn it is, still read it in the note line."""

from __future__ import annotations

import asyncio
import random

from yacht.engine import Player, Roll, State
from yacht.rules import get

from .conftest import Server
from .play import at_the_table, chromium, new_context
from .test_hint import saved_at_a_table


def test_the_served_note_is_said_once(server: Server) -> None:
    state = State(get("generala"), [Player("Ann")], rng=random.Random(1))
    state.apply(Roll((1, 2, 3, 4, 5)))  # a served Escalera
    made = saved_at_a_table(server, state)

    async def main() -> None:
        async with chromium() as browser:
            tab = await at_the_table(await new_context(browser), server, made)
            page = tab.page
            await page.wait_for_selector(".die:not(.is-blank)")
            help_text = await page.locator("#help-line").text_content() or ""
            assert "Served (first roll)" in help_text, help_text
            note = page.locator(".note-line:not(.played-for)")
            assert await note.is_hidden(), await note.text_content()
            tab.check()

    asyncio.run(main())
