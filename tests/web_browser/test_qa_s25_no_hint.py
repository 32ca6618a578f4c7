"""The page's 'No hint' reads as the line game's (session 25): 'No hint: roll first:
the advice is about the dice showing' had two colons in a row."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab


def test_no_hint_is_said_in_sentences_as_the_line_game_says_it(server: Server) -> None:
    """A reason with a colon of its own is a sentence after 'No hint.'; one without is
    said after 'No hint:' (the line game's 'No hint. Roll first: ...')."""

    async def main() -> list[str]:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.base + "/")
            said: list[str] = await tab.page.evaluate(
                """async () => {
                  const { noHintText } = await import("/static/js/table.js");
                  return ["roll first: the advice is about the dice showing",
                          "a hint is for your own turn", "x (a: b)"].map(noHintText);
                }""")
            tab.check()
            return said

    assert asyncio.run(main()) == [
        "No hint. Roll first: the advice is about the dice showing.",
        "No hint: a hint is for your own turn.",
        "No hint: x (a: b).",
    ]
