"""Visible focus: on every screen each Tab stop shows that it has the focus, in colour and
without colour (NO_COLOR: by its text style alone), and there is no Tab stop unseen."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from rich.style import Style
from textual.pilot import Pilot
from textual.widget import Widget
from tui_helpers import every_die_again, fast_forward, game, run, settle

from yacht.rules import get
from yacht.session import Config, Launch, PlayerSpec, category_keys, save_config
from yacht.tui import YachtApp

App = Callable[..., YachtApp]

#: the text attributes a terminal shows without colour
ATTRS = ("bold", "dim", "italic", "underline", "reverse", "strike", "blink", "overline")


def cells(app: Any, widget: Widget, colour: bool) -> list[tuple[str, tuple[Any, ...]]]:
    """What the terminal shows where ``widget`` is: each cell's character and style (its
    attributes only when ``colour`` is False: what NO_COLOR leaves)."""
    region = widget.region
    strips = app.screen._compositor.render_strips()
    out = []
    for y in range(region.y, region.bottom):
        x = 0
        for seg in strips[y]:
            style = seg.style or Style()
            for ch in seg.text:
                if region.x <= x < region.right:
                    attrs = tuple(bool(getattr(style, a)) for a in ATTRS)
                    out.append((ch, (attrs, style.color, style.bgcolor) if colour else attrs))
                x += 1
    return out


Look = tuple[list[tuple[str, tuple[Any, ...]]], list[tuple[str, tuple[Any, ...]]]]


async def steady_look(pilot: Pilot[Any], widget: Widget) -> Look:
    """How ``widget`` looks (without colour, with colour) once two frames agree: a
    style change (the focus going or coming) may show a frame or two later."""
    app = pilot.app
    await pilot.pause()
    look = (cells(app, widget, False), cells(app, widget, True))
    for _ in range(20):
        await pilot.pause(0.01)
        now = (cells(app, widget, False), cells(app, widget, True))
        if now == look:
            break
        look = now
    return look


async def check_focus_chain(pilot: Pilot[Any], where: str) -> list[str]:
    """Tab through the screen's focus chain: every stop is on the screen and looks
    different focused and not (with colour and without). Returns the stops' names."""
    app = pilot.app
    screen = app.screen
    chain = list(screen.focus_chain)
    assert chain, f"{where}: nothing takes the focus"
    seen = []
    for widget in chain:
        assert widget.display and widget.region.area > 0, \
            f"{where}: {widget!r} takes the focus but is not on the screen"
        had_focus = screen.focused is widget
        before = await steady_look(pilot, widget) if had_focus else None
        screen.set_focus(None)
        blurred = await steady_look(pilot, widget)
        # (a widget that had the focus, e.g. a screen's first button, loses its focused
        # look a frame or more later on a loaded machine: waited for by the clock too;
        # a look that never changes still fails below)
        deadline = time.monotonic() + 10
        while before is not None and time.monotonic() < deadline and (
                blurred[0] == before[0] or blurred[1] == before[1]):
            await pilot.pause(0.02)
            blurred = (cells(app, widget, False), cells(app, widget, True))
        widget.focus()
        # (the focused look comes a frame or more later on a loaded machine: waited for,
        # by the clock, and judged after)
        deadline = time.monotonic() + 10
        focused = await steady_look(pilot, widget)
        while time.monotonic() < deadline and (focused[0] == blurred[0]
                                               or focused[1] == blurred[1]):
            await pilot.pause(0.02)
            focused = (cells(app, widget, False), cells(app, widget, True))
        assert focused[0] != blurred[0], \
            f"{where}: {widget!r} looks the same focused and not without colour"
        assert focused[1] != blurred[1], f"{where}: {widget!r} shows no focus in colour"
        seen.append(type(widget).__name__ + (f"#{widget.id}" if widget.id else ""))
    return seen


@run
async def test_every_screen_shows_its_focus(new_app: App) -> None:
    save_config(Config(variant="tommys-crag", players=[PlayerSpec("Ann")], sound=False))
    app = new_app(speed="instant")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        stops = await check_focus_chain(pilot, "setup")
        assert "Button#start" in stops and "Choice#variant" in stops
        assert not any(s.startswith("VerticalScroll") for s in stops)
        await pilot.press("f6")  # the top ten of the variant chosen
        await settle(pilot)
        await check_focus_chain(pilot, "top ten")
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        g = game(pilot)
        stops = await check_focus_chain(pilot, "game")
        assert stops == ["DiceRow#dice", "Button#roll", "ScoreCard#card"], stops
        await pilot.press("r", "1", "o")  # the Oops menu (a die chosen: it may be given back)
        await settle(pilot)
        await check_focus_chain(pilot, "Oops")
        await pilot.press("escape")
        await pilot.press("question_mark")  # the help: its text scrolls by keys
        await settle(pilot)
        assert await check_focus_chain(pilot, "help") == ["Button#close"]
        await pilot.press("escape")
        await settle(pilot)
        fast_forward(g, leave=0)
        g.go_on()
        await settle(pilot)
        # the end screen focuses Play again when it is mounted: waited for by the clock
        # (on a loaded machine that came after the walk below had blurred the button,
        # focusing it again under the walk's feet)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and getattr(app.focused, "id", None) != "again":
            await pilot.pause(0.05)
        assert getattr(app.focused, "id", None) == "again", app.focused
        stops = await check_focus_chain(pilot, "end")
        assert stops == ["Button#again", "Button#new", "Button#topten-button",
                         "Button#analysis-button", "Button#quit"], stops


@run
async def test_no_color_shows_the_focus_too(new_app: App, monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await check_focus_chain(pilot, "game without colour")


@run
async def test_the_first_focus_is_on_the_screen_at_80x24(new_app: App) -> None:
    """What has the focus when a screen opens can be seen: not scrolled out of view."""
    save_config(Config(variant="yahtzee", players=[PlayerSpec("Ann"), PlayerSpec("Bob"),
                                                   PlayerSpec("Cpu", "expert")]))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        focused = app.focused
        assert focused is not None and focused.id == "start"  # Enter starts, as before
        assert focused.region.area > 0, "the focused Start button is out of view"
        screen = app.screen.region
        assert screen.contains_region(focused.region)


@pytest.mark.parametrize("variant", ["yahtzee", "ancient-yacht-10-double"])
@run
async def test_enter_rolls_whenever_the_help_line_says_so(new_app: App, variant: str) -> None:
    """The Roll button is disabled while a computer plays (and when no roll is left): the
    focus it had comes back with it, so Enter works as the help line says, every turn."""
    rs = get(variant)
    keys = category_keys(rs)
    app = new_app(Launch(variant=variant, players=[PlayerSpec("Cpu", "expert"),
                                                   PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        for turn in range(3):
            view = g.table.view()
            assert view.state.current == 1 and not view.state.dice, turn
            # the help line follows the computer's last event, and the button's focus
            # comes back with it (on a loaded machine, a frame or two apart: by the clock)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not (
                    "press r or Enter" in g.help_text()
                    and app.focused is g.query_one("#roll")):
                await pilot.pause(0.01)
            assert "press r or Enter" in g.help_text()
            assert app.focused is g.query_one("#roll")  # (Tab is not needed first)
            if turn == 2:  # on the card too: no dice to score yet, Enter rolls
                await pilot.press("tab")
                assert app.focused is g.query_one("#card")
            await pilot.press("enter")
            assert g.table.view().state.dice, f"turn {turn + 1}: Enter did not roll"
            if turn == 1:  # every roll, by Enter (the button goes off after the last)
                while g.table.view().state.may_reroll():
                    await pilot.press(every_die_again(g), "enter")
            place = g.table.view().state.placements()[0]
            await pilot.press(keys[place.category])
            await settle(pilot)
            assert g.table.view().pause is not None  # (against computers: Oops is offered)
            await pilot.press("enter")  # on to the computer's turn
            await settle(pilot)


@run
async def test_a_checkbox_on_and_off_differ_without_colour(new_app: App,
                                                           monkeypatch: Any) -> None:
    """On and off are told apart by what is drawn, not by its colour alone (NO_COLOR, a
    colour-blind player)."""
    from textual.widgets import Checkbox

    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for box in app.screen.query(Checkbox):
            box.value = True
            await pilot.pause()
            on = cells(app, box, False)
            box.value = False
            await pilot.pause()
            off = cells(app, box, False)
            assert [ch for ch, _ in on] != [ch for ch, _ in off], box.id
