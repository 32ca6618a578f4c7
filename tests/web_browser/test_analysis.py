"""The analysis at a game's end: the Analysis button asks the server, the page says it is
working, then shows each player's loss, luck and accuracy (the server's figures), the
costliest decisions with their dice, and the charts with their text alternatives; a
failure says so and may be tried again; the 10-dice two-column game's reference is said
to be the expert strategy; at 375x667 nothing is cut off."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from playwright.async_api import Page, Route, ViewportSize

from .conftest import Server
from .play import chromium, new_context, open_tab, screenshot, seat_token
from .test_screens import axe

PHONE_SMALL: ViewportSize = {"width": 375, "height": 667}
ROUTE = "**/api/games/*/analysis"


def computers_game(server: Server, players: int = 2) -> dict[str, Any]:
    """A table of computers at the instant pace (it plays itself to its end)."""
    seats = [{"kind": "beginner", "name": "Bea"}, {"kind": "expert", "name": "Max"}]
    made: dict[str, Any] = server.post("/api/tables", {
        "variant": "tommys-crag", "speed": "instant", "seats": seats[:players]})
    return made


async def open_end(page: Page, server: Server, made: dict[str, Any]) -> str:
    """The table's page at the game's end; the game's id."""
    await seat_token(page, server, made)
    await page.goto(server.url(made["url"]))
    await page.wait_for_selector("#analysis-btn")
    game_id: str = server.snapshot(made["id"])["snapshot"]["game_id"]
    return game_id


async def open_analysis(page: Page) -> None:
    await page.click("#analysis-btn")
    await page.wait_for_selector(".analysis-player")


async def check_figures(page: Page, analysis: dict[str, Any]) -> None:
    """The page shows the server's figures, decisions and charts."""
    players = analysis["players"]
    assert await page.locator(".analysis-player").count() == len(players)
    for p in players:
        card = page.locator(f".analysis-player[data-player='{p['index']}']")
        assert await card.locator(".analysis-name").text_content() == p["name"]
        for stat in ("score", "loss", "luck", "accuracy"):
            value = await card.locator(f"[data-stat={stat}]").get_attribute("data-value")
            assert value is not None and abs(float(value) - p[stat]) < 1e-9, (stat, value)
        # one word and no sign for the points lost, as the other interfaces say it
        assert await card.locator("[data-stat=loss]").text_content() == f"{p['loss']:.1f}"
        # every figure as the server writes it (yacht.render: the terminal's own words)
        for stat in ("loss", "luck", "accuracy"):
            assert await card.locator(f"[data-stat={stat}]").text_content() == \
                p["shown"][stat]
        assert "Skill" not in (await card.text_content() or "")
        assert await card.locator(".analysis-decisions").text_content() == p["decisions_text"]
        # how much was luck, in the end line's words
        assert await card.locator(".analysis-luck").text_content() == p["luck_text"]
        assert p["luck_text"].startswith(f"Luck: the dice gave {p['name']} ")
        assert "of" in p["decisions_text"] or "Every one" in p["decisions_text"]
        # a share in percent, as the terminal and `yacht analyse` write it
        # (the JSON's accuracy is rounded to 0.01, the words to 0.1 from the exact value:
        # 81.5549 is sent as 81.55 and shown as 81.6%, so compare within both roundings)
        shown = await card.locator("[data-stat=accuracy]").text_content() or ""
        assert re.fullmatch(r"\d{1,3}\.\d%", shown), shown
        assert abs(float(shown[:-1]) - p["accuracy"]) <= 0.05 + 0.005 + 1e-9, (shown, p)
        items = card.locator(".costly-item")
        assert await items.count() == len(p["costliest"])
        for i, d in enumerate(p["costliest"]):
            item = items.nth(i)
            assert await item.locator(".costly-played").text_content() == d["played"]["text"]
            assert await item.locator(".costly-best").text_content() == d["best"]["text"]
            assert await item.locator(".costly-loss").text_content() == \
                f"{d['loss']:.2f} points"
            assert await item.locator(".costly-dice").get_attribute("aria-label") == \
                "Dice " + " ".join(map(str, d["dice"])) == "Dice " + d["dice_text"]
            assert await item.locator(".costly-dice svg").count() == len(d["dice"])
            assert await item.locator(".costly-command").text_content() == \
                f'yacht advise {analysis["variant"]} "{d["situation"]}"'
    # the expected scores: one line per player through the start and every turn
    lines = page.locator(".chart-expected .chart-line")
    assert await lines.count() == len(players)
    for i, p in enumerate(players):
        points = await lines.nth(i).get_attribute("points") or ""
        assert len(points.split()) == len(p["expected"])
    # the chances of winning beside them: a point after every turn of the game
    moments = analysis["win"]["moments"]
    win = page.locator(".chart-win .chart-line")
    assert await win.count() == len(players)
    assert len((await win.first.get_attribute("points") or "").split()) == len(moments)
    # each chart says what it shows, and has its figures in a table
    for chart in (".chart-expected", ".chart-win"):
        title = await page.locator(f"{chart} title").text_content() or ""
        assert all(p["name"] in title for p in players), title
    assert await page.locator(".chart-data").count() == 2
    rows = page.locator(".analysis-chart").nth(1).locator("tbody tr")
    assert await rows.count() == len(moments)
    # how the chances were worked out, in the server's words (one rule for every view)
    said = await page.locator(".analysis-chart").nth(1).locator("p").first.text_content()
    assert f": {analysis['win']['how']}." in (said or ""), said
    assert "the optimal strategy (exact)" in (await page.text_content("#analysis-reference")
                                              or "")


def test_the_analysis_of_a_finished_game(server: Server, shots: Path) -> None:
    made = computers_game(server)

    async def main() -> None:
        async with chromium() as browser:
            ctx = await new_context(browser)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            game_id = await open_end(page, server, made)
            analysis = server.get(f"/api/games/{game_id}/analysis")

            # the server fails: the page says so, and tries again when asked
            async def fail(route: Route) -> None:
                await route.fulfill(status=503, content_type="application/json",
                                    body=json.dumps({"error": "the database is away",
                                                     "code": "store"}))

            await page.route(ROUTE, fail)
            await page.click("#analysis-btn")
            assert await page.get_attribute("#analysis-btn", "aria-expanded") == "true"
            await page.wait_for_selector(".analysis-error[role=alert]")
            assert "the database is away" in (await page.text_content(".analysis-error")
                                              or "")
            await page.unroute(ROUTE, fail)

            # it works a while (the server says so, then takes its time): the page says
            # so until the answer comes
            release, chances = asyncio.Event(), asyncio.Event()
            asked = []

            async def hold(route: Route) -> None:
                asked.append(route.request.url)
                if len(asked) == 1:
                    await route.fulfill(status=202, content_type="application/json",
                                        body=json.dumps({"status": "working", "retry": 1}))
                    return
                await release.wait()
                if len(asked) == 2:  # all but the chances of winning, still worked out
                    await route.fulfill(status=200, content_type="application/json",
                                        body=json.dumps({**analysis, "win": None,
                                                         "win_pending": True, "retry": 1}))
                    return
                await chances.wait()
                if len(asked) == 3:  # the chances fail once
                    await fail(route)
                    return
                await route.continue_()

            await page.route(ROUTE, hold)
            await page.click("#analysis-retry")
            await page.wait_for_selector(".analysis-status[role=status] progress")
            assert await page.get_attribute("#analysis", "aria-busy") == "true"
            for _ in range(400):  # asked again after the 202 (within 20 s)
                if len(asked) >= 2:
                    break
                await page.wait_for_timeout(50)
            assert await page.locator(".analysis-status").count() == 1
            release.set()
            await page.wait_for_selector(".analysis-player")
            # the Try again button gone, the focus is on the view's heading
            assert await page.evaluate("document.activeElement.id") == "analysis-title"
            # the rest is shown, the chances of winning come a moment later
            await page.wait_for_selector(".chart-expected")
            pending = page.locator(".analysis-chart:has(#chart-win-title) [role=status]")
            assert "Working out" in (await pending.text_content() or "")
            await page.locator(".analysis-charts").screenshot(
                path=str(shots / "analysis-pending.png"))
            chances.set()
            await page.wait_for_selector("#chances-retry")
            assert "the database is away" in (
                await page.text_content(".analysis-chart [role=alert]") or "")
            await page.click("#chances-retry")
            await page.wait_for_selector(".chart-win")
            assert await page.evaluate("document.activeElement.id") == "chart-win-title"
            await page.unroute(ROUTE, hold)
            assert len(asked) == 4
            assert await page.get_attribute("#analysis", "aria-busy") == "false"
            await check_figures(page, analysis)
            await page.locator("#analysis").screenshot(path=str(shots / "analysis.png"))
            await screenshot(page, shots, "end-analysis")

            # the key a hides it and shows it again (asked once)
            await page.keyboard.press("a")
            await page.wait_for_selector("#analysis", state="hidden")
            await page.keyboard.press("a")
            await page.wait_for_selector(".analysis-player")
            tab.check()

    asyncio.run(main())


OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const cut = [...document.querySelectorAll('#analysis *')]
    .filter(el => el.getClientRects().length && !el.closest('.table-scroll'))
    .filter(el => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.left < -1 || r.right > width + 1);
    })
    .map(el => el.outerHTML.slice(0, 80));
  return {scroll: document.documentElement.scrollWidth, width, cut};
}"""


async def fits(page: Page) -> None:
    """Nothing of the analysis is cut off at the phone's width, nor scrolls the page."""
    box = await page.evaluate(OVERFLOW)
    assert box["scroll"] <= box["width"] == 375, box
    assert box["cut"] == [], box["cut"]


def test_the_analysis_on_a_phone(server: Server, shots: Path, axe_script: Path) -> None:
    """At 375x667: a game alone (no chances of winning), with the 10-dice two-column
    game's note (its analysis as the server would give it: the reference is the expert
    strategy, not the proven optimum); then a game of two, its figures unfolded."""
    made = computers_game(server, players=1)
    two = computers_game(server)

    async def main() -> None:
        async with chromium() as browser:
            # axe's script is added to the page: only this context lets it past the CSP
            ctx = await browser.new_context(viewport=PHONE_SMALL,
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True, reduced_motion="reduce",
                                            bypass_csp=True)
            tab = await open_tab(ctx, server.url("/"))
            page = tab.page
            game_id = await open_end(page, server, made)
            analysis = server.get(f"/api/games/{game_id}/analysis")
            reference = ("the expert strategy (exact turns, future valued by the one-column "
                         "tables), not the proven optimum")

            async def not_exact(route: Route) -> None:
                await route.fulfill(status=200, content_type="application/json",
                                    body=json.dumps({**analysis, "exact": False,
                                                     "reference": reference}))

            await page.route(ROUTE, not_exact)
            await page.tap("#analysis-btn")
            await page.wait_for_selector(".analysis-player")
            note = await page.text_content(".analysis-note") or ""
            assert "not the proven optimum" in note
            assert analysis["win"] is None and await page.locator(".analysis-player").count() == 1
            await page.wait_for_selector(".chart-expected")
            assert await page.locator(".chart-win, #chart-win-title").count() == 0
            await screenshot(page, shots, "phone-analysis", full=False)
            await page.locator(".chart-data summary").first.tap()
            if await page.locator(".costly-card").count():
                await page.locator(".costly-card summary").first.tap()
            await fits(page)
            # its parts
            await page.locator(".analysis-player").first.screenshot(
                path=str(shots / "phone-analysis-player.png"))
            await page.locator(".analysis-charts").screenshot(
                path=str(shots / "phone-analysis-charts.png"))
            found = {"alone": await axe(page, axe_script)}
            await page.unroute(ROUTE, not_exact)

            # a game of two: the chances of winning too
            await open_end(page, server, two)
            await page.tap("#analysis-btn")
            await page.wait_for_selector(".chart-win")
            for summary in await page.locator(".chart-data summary").all():
                await summary.tap()
            await fits(page)
            found["two"] = await axe(page, axe_script)
            assert found == {"alone": [], "two": []}, found
            tab.check()

    asyncio.run(main())
