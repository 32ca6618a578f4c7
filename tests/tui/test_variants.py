"""Every variant can be played with only the keyboard and with only the mouse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tui_helpers import click_box, fast_forward, game, run, settle

from yacht.rules import Ruleset, all_variants
from yacht.session import Launch, PlayerSpec, category_keys
from yacht.tui import YachtApp
from yacht.tui.screens.end import EndScreen

App = Callable[..., YachtApp]


def first_open(screen: Any) -> tuple[str, int]:
    pl = screen.session.state.placements()
    return pl[0].category, pl[0].column


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
@run
async def test_keyboard_turn_mouse_turn_and_the_end(new_app: App, rs: Ruleset) -> None:
    app = new_app(Launch(variant=rs.id, players=[PlayerSpec("Ann")]), seed=4)
    keys = category_keys(rs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.session.state
        # keyboard only: roll, choose two dice, roll again, score by letter
        await pilot.press("r")
        for _ in range(40):  # a forced first turn rolls on until all dice match
            if st.placements():
                break
            await pilot.press("a", "r")
        if st.may_reroll():
            await pilot.press("1", "2", "r")
        cat, col = first_open(g)
        await pilot.press(keys[cat] if col == 0 else keys[cat].upper())
        assert st.turns_taken(0) == 1
        # mouse only: the Roll button, a die, the Roll button, a box
        await pilot.click("#roll")
        assert st.dice
        if st.may_reroll() and st.placements():
            await pilot.click("#die-0")
            assert 0 in st.chosen
            await pilot.click("#roll")
        cat, col = first_open(g)
        await click_box(pilot, cat, col)
        assert st.turns_taken(0) == 2, (cat, col)
        # the rest quickly, the last box by key, and the end screen
        fast_forward(g)
        await pilot.press("r")
        cat, col = first_open(g)
        await pilot.press(keys[cat] if col == 0 else keys[cat].upper())
        assert st.is_terminal()
        await pilot.click("#roll")  # "See results"
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)


async def keyboard_turn(pilot: Any, rng: Any, keys: dict[str, str]) -> None:
    """One turn of the person on turn, with keys only: roll, maybe re-roll some, score."""
    g = game(pilot)
    st = g.session.state
    await pilot.press("r")
    for _ in range(40):  # Tommy's Yacht: the first turn rolls on until all dice match
        if st.placements():
            break
        await pilot.press("a", "r")
    while st.may_reroll() and rng.random() < 0.5:
        dice = rng.sample(range(len(st.dice)), rng.randint(1, len(st.dice)))
        await pilot.press(*[str((d + 1) % 10) for d in dice], "r")
    pl = rng.choice(st.placements())
    key = keys[pl.category]
    await pilot.press(key.upper() if pl.column == 1 else key)


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
@run
async def test_a_whole_game_with_the_keyboard_only(new_app: App, rs: Ruleset) -> None:
    import random

    app = new_app(Launch(variant=rs.id, players=[PlayerSpec("Ann")]), seed=7)
    keys = category_keys(rs)
    rng = random.Random(rs.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        st = game(pilot).session.state
        for turn in range(200):
            if st.is_terminal():
                break
            await keyboard_turn(pilot, rng, keys)
            assert st.turns_taken(0) == turn + 1
        assert st.is_terminal()
        assert all(b is not None for col in st.card(0).boxes for b in col)
        await pilot.press("enter")  # "See results"
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("p")  # play again: a new game of the same variant
        await settle(pilot)
        assert game(pilot).session.ruleset.id == rs.id
        assert not game(pilot).session.state.log


@pytest.mark.parametrize("variant", ["tommys-yacht", "ancient-yacht-double", "tommys-yahtzee",
                                     "ancient-yacht-10"])
@run
async def test_a_whole_game_with_the_mouse_only(new_app: App, variant: str) -> None:
    import random

    players = [PlayerSpec("Ann")]
    if variant.startswith("tommys"):  # and a computer: the Next player pause by mouse
        players.append(PlayerSpec("Cpu", "beginner"))
    app = new_app(Launch(variant=variant, players=players), seed=8)
    rng = random.Random(variant)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        st = game(pilot).session.state
        for _ in range(400):
            await settle(pilot)
            if st.is_terminal():
                break
            g = game(pilot)
            if g.paused:
                await pilot.click("#roll")  # "Next player"
                continue
            assert st.current == 0
            before = st.turns_taken(0)
            await pilot.click("#roll")
            for _ in range(40):  # Tommy's Yacht: the first turn rolls on
                if st.placements():
                    break
                for i in range(len(st.dice)):
                    await pilot.click(f"#die-{i}")
                await pilot.click("#roll")
            while st.may_reroll() and rng.random() < 0.5:
                for i in rng.sample(range(len(st.dice)), rng.randint(1, len(st.dice))):
                    await pilot.click(f"#die-{i}")
                await pilot.click("#roll")
            pl = rng.choice(st.placements())
            await click_box(pilot, pl.category, pl.column)
            assert st.turns_taken(0) == before + 1, (pl, before)
        assert st.is_terminal()
        assert game(pilot).paused  # the game-over pause holds until "See results"
        await pilot.click("#roll")  # "See results"
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.click("#new")
        await settle(pilot)
        from yacht.tui.screens.setup import SetupScreen

        assert isinstance(app.screen, SetupScreen)
