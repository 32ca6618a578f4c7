"""The field's page of a duplicate table (/d/GROUP): its headings say what each part is
(its h2 said the h1's words again, "Same dice for everyone": a screen reader's list of
headings read the same line twice)."""

from __future__ import annotations

import asyncio

from .conftest import Server
from .play import chromium, new_context, open_tab


def test_the_field_pages_headings_differ(server: Server) -> None:
    made = server.post("/api/tables", {
        "variant": "tommys-crag", "speed": "fast", "dice": "duplicate",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "expert", "name": "Expert"}]})

    async def main() -> None:
        async with chromium() as browser:
            tab = await open_tab(await new_context(browser), server.url(made["group_url"]))
            await tab.page.wait_for_selector("#field h2")
            h1 = (await tab.page.text_content("h1") or "").strip()
            h2 = (await tab.page.text_content("#field h2") or "").strip()
            assert h1 == "Same dice for everyone"
            assert h2 and h2.lower() != h1.lower() and "dice for everyone" not in h2.lower()
            tab.check()

    asyncio.run(main())
