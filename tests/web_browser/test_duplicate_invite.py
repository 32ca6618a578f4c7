"""A duplicate table's invitations (QA audit, item 1): the player who made it is given
each open seat's link at the top of their page, and a friend's seat is called by one
number everywhere (the lobby's "Take seat 2" is the field's "Player 2")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .conftest import Server
from .play import PHONE, at_the_table, chromium, new_context, open_tab, screenshot


def test_the_invite_is_on_top_and_the_seat_has_the_fields_number(server: Server,
                                                                   shots: Path) -> None:
    made = server.post("/api/tables", {
        "variant": "tommys-crag", "speed": "fast", "dice": "duplicate",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "person", "here": False},
                  {"kind": "expert", "name": "Expert"}]})
    group = server.get(f"/api/groups/{made['group']}")
    bob_card = group["cards"][1]
    assert bob_card["open"] and bob_card["url"]

    async def main() -> None:
        async with chromium() as browser:
            ann = await at_the_table(await new_context(browser, phone=True), server, made)
            page = ann.page
            # the open seat's own link, above the dice (not at the foot of the page)
            await page.wait_for_selector("#invite #invite-1")
            link = await page.input_value("#invite-1")
            assert link == server.url(bob_card["url"])
            label = await page.text_content("label[for='invite-1']") or ""
            assert "Player 2 (seat 2)" in label
            invite = await page.locator("#invite").bounding_box()
            felt = await page.locator(".felt").bounding_box()
            assert invite and felt and invite["y"] + invite["height"] <= felt["y"]
            assert invite["y"] < PHONE["height"] / 2  # in view as the page opens
            await screenshot(page, shots, "duplicate-invite-phone", full=False)

            # the friend opens it: seat 2, as the field calls it
            bob = await open_tab(await new_context(browser), link)
            await bob.page.wait_for_selector("#take-0")
            await bob.page.wait_for_function(
                "() => document.querySelector('#take-0').textContent === 'Take seat 2'")
            assert await bob.page.text_content(".seat.is-open .seat-num") == "2"
            row = bob.page.locator("#field tr[data-card='1']")
            assert "Player 2" in (await row.text_content() or "")
            assert "seat 2" in (await row.text_content() or "")
            await screenshot(bob.page, shots, "duplicate-seat-lobby")
            await bob.page.fill("#join-name", "Bob")
            await bob.page.click("#take-0")
            await bob.page.wait_for_selector(".game[data-version]")
            # no seat open: the invitation goes
            await page.wait_for_selector("#invite", state="detached")
            assert await page.locator(".invite-box").is_hidden()
            for t in (ann, bob):
                t.check()

    asyncio.run(main())
