"""Playing the page as a person would: by mouse or by keyboard, reading only what the
page shows (its buttons, dice and card), with Chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from ..web.socket_page import play_through
from .conftest import CHROMIUM, Server

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: the longest wait for one thing on a page (ms)
WAIT = 20_000

DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Tab:
    """A page and the script errors it raised (a test ends with none)."""

    page: Page
    errors: list[str]

    def check(self) -> None:
        assert not self.errors, self.errors


async def open_tab(context: BrowserContext, url: str) -> Tab:
    page = await context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(msg: Any) -> None:  # the strict CSP refuses something the page tried
        if "Content Security Policy" in msg.text:
            errors.append(msg.text)

    page.on("console", console)
    await page.goto(url)
    return Tab(page, errors)


async def new_context(browser: Browser, phone: bool = False, **kw: Any) -> BrowserContext:
    if phone:
        return await browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                         has_touch=True, **kw)
    return await browser.new_context(viewport=DESKTOP, **kw)


async def set_pref(page: Page, key: str, value: Any) -> None:
    """What this browser remembers (as if set on the page before): ``dice_mark``..."""
    await page.evaluate("([k, v]) => localStorage.setItem(`yacht.${k}`, JSON.stringify(v))",
                        [key, value])


async def seat_token(page: Page, server: Server, table: dict[str, Any]) -> None:
    """Give this browser the seats of a table made over HTTP (as the home page does)."""
    await page.evaluate("([id, token]) => localStorage.setItem(`yacht.token.${id}`, "
                        "JSON.stringify(token))", [table["id"], table["token"]])


async def at_the_table(ctx: BrowserContext, server: Server, made: dict[str, Any]) -> Tab:
    """A new page at a table made over HTTP, its seats this browser's, the game drawn."""
    tab = await open_tab(ctx, server.url("/"))
    await seat_token(tab.page, server, made)
    await tab.page.goto(server.url(made["url"]))
    await wait_game(tab.page)
    return tab


def table_id(page: Page) -> str:
    return page.url.rstrip("/").rsplit("/", 1)[-1]


# --- what the page shows ----------------------------------------------------------------
READ = """() => {
  const game = document.querySelector('.game');
  if (!game) return null;
  const roll = document.querySelector('#roll');
  return {
    version: Number(game.dataset.version),
    over: game.dataset.over === 'true',
    end: !document.querySelector('.end-panel').hidden,
    label: roll.textContent,
    roll: roll.getAttribute('aria-disabled') !== 'true',
    choose: !document.querySelector('.select-row').hidden,
    dice: [...document.querySelectorAll('.die')].map(d => d.getAttribute('aria-label')),
    chosen: [...document.querySelectorAll('.die')].map(
      d => d.getAttribute('aria-pressed') === 'true'),
    keys: [...document.querySelectorAll('.die-key')].map(k => (getComputedStyle(k, '::before')
      .content.replace(/^none$/, '').replace(/"/g, '') + k.textContent).trim()),
    mark: (document.querySelector('.dice') || {dataset: {}}).dataset.mark,
    scores: [...document.querySelectorAll('.score-btn')].map(b => ({
      letter: b.dataset.letter, column: Number(b.dataset.column), category: b.dataset.category,
      label: b.getAttribute('aria-label')})),
    help: document.querySelector('#help-line').textContent,
  };
}"""


async def shown(page: Page) -> dict[str, Any]:
    """What the table page shows now (None-like {} before the game is drawn)."""
    state: dict[str, Any] | None = await page.evaluate(READ)
    return state or {}


async def wait_game(page: Page) -> dict[str, Any]:
    await page.wait_for_selector(".game[data-version]")
    return await shown(page)


async def after(page: Page, version: int) -> dict[str, Any]:
    """Until the page shows a newer version of the table than ``version``."""
    try:
        await page.wait_for_function(
            "v => { const g = document.querySelector('.game'); "
            "return g && Number(g.dataset.version) > v; }", arg=version, timeout=WAIT)
    except PlaywrightTimeout:
        raise AssertionError(f"the page stays at version {version}: {await shown(page)}; "
                             f"{await page.text_content('#toast')}") from None
    return await shown(page)


async def wait_end(page: Page) -> None:
    await page.wait_for_selector(".end-panel:not([hidden]) #end-title")


# --- playing ----------------------------------------------------------------------------
class Player:
    """Plays the turns of one page, by ``mouse`` or by ``keyboard``, with random choices."""

    def __init__(self, page: Page, how: str, seed: int) -> None:
        assert how in ("mouse", "keyboard")
        self.page = page
        self.how = how
        self.pick = random.Random(seed)
        self.actions = 0
        self.seen = -1  # the version the last step saw

    async def roll(self) -> None:
        if self.how == "mouse":
            await self.page.click("#roll")
        else:
            await self.page.keyboard.press("r")

    async def go_on(self) -> None:
        if self.how == "mouse":
            await self.page.click("#roll")
        else:
            await self.page.keyboard.press("Enter")

    async def die(self, i: int) -> None:
        if self.how == "mouse":
            await self.page.locator(".die").nth(i).click()
        else:
            await self.page.keyboard.press("0" if i == 9 else str(i + 1))

    async def all_dice(self, hold: bool = False) -> None:
        """Every die to roll again: all of them (marking), none held (holding)."""
        which = "none" if hold else "all"
        if self.how == "mouse":
            await self.page.click(f"[data-select={which}]")
        else:
            await self.page.keyboard.press(which[0])

    async def score(self, box: dict[str, Any]) -> None:
        if self.how == "mouse":
            await self.page.click(f".score-btn[data-category={box['category']}]"
                                  f"[data-column='{box['column']}']")
        else:
            letter = box["letter"]
            await self.page.keyboard.press(f"Shift+Key{letter.upper()}" if box["column"] == 1
                                           else letter)

    async def step(self) -> bool:
        """One action of this page's player if it has one now; False when it has none."""
        s = await shown(self.page)
        if not s or s["end"]:
            return False
        v = self.seen = s["version"]
        try:
            if s["roll"] and s["label"] in ("Go on", "See the results"):
                await self.go_on()
            elif s["scores"] and (not s["choose"] or self.pick.random() < 0.4):
                await self.score(self.pick.choice(s["scores"]))
            elif s["choose"]:
                if not any(s["chosen"]):
                    n = len(s["dice"])
                    if s["scores"]:
                        for i in sorted(self.pick.sample(range(n),
                                                         self.pick.randint(1, min(3, n)))):
                            await self.die(i)
                            v = (await after(self.page, v))["version"]
                    else:  # no box takes these dice yet: roll them all again
                        await self.all_dice(hold=s["mark"] == "hold")
                        v = (await after(self.page, v))["version"]
                await self.roll()
            elif s["roll"]:
                await self.roll()
            else:
                return False
        except PlaywrightTimeout:
            # the button went away under the mouse: fine only if the table moved on
            # without this player (a turn's clock ran out, and the expert played it)
            now = await shown(self.page)
            if now and now["version"] > v:
                return False
            raise
        await after(self.page, v)
        self.actions += 1
        return True


async def play_alone(page: Page, how: str, seed: int, limit: int = 600) -> Player:
    """Play the game on ``page`` to its end (the results shown): this page's players
    act, computers play by themselves."""
    player = Player(page, how, seed)
    await wait_game(page)
    for _ in range(limit):
        if not await player.step():
            if (await shown(page)).get("end"):
                return player
            await after(page, player.seen)  # a computer's turn goes on
    raise AssertionError("the game did not end")


async def quickly_to_the_end(server: Server, *pages: Page, leave: int = 1) -> None:
    """The game at the table of ``pages``, played through their seats' sockets (a roll
    and the first box a turn) until the player on turn has ``leave`` turns to play: for
    a test about a game's end, which the pages then play (:func:`play_alone`...)."""
    for page in pages:
        await wait_game(page)
    tid = table_id(pages[0])  # (once the game is shown: a page may come from "/")
    tokens = []
    for page in pages:
        token = await page.evaluate(
            "id => JSON.parse(localStorage.getItem(`yacht.token.${id}`))", tid)
        assert token, "a page has no seat at the table"
        tokens.append(token)
    await asyncio.to_thread(play_through, server, tid, tokens, leave)


async def screenshot(page: Page, folder: Path, name: str, full: bool = True) -> Path:
    path = folder / f"{name}.png"
    await page.screenshot(path=str(path), full_page=full)
    return path
