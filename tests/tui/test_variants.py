"""Every variant can be played with only the keyboard and with only the mouse."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from textual.widgets import Button
from tui_helpers import (
    click_box,
    click_key,
    every_die_again,
    fast_forward,
    game,
    holding,
    marked,
    mouse_box,
    quick_waits,
    run,
    settle,
    tap,
)

from yacht.rules import Ruleset, all_variants
from yacht.session import Launch, PlayerSpec, category_keys
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.game import GameScreen
from yacht.tui.screens.setup import SetupScreen

App = Callable[..., YachtApp]


@pytest.fixture(autouse=True)
def _quick_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_waits(monkeypatch)


def first_open(screen: Any) -> tuple[str, int]:
    pl = screen.table._game.state.placements()
    return pl[0].category, pl[0].column


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
@run
async def test_keyboard_turn_mouse_turn_and_the_end(new_app: App, rs: Ruleset) -> None:
    app = new_app(Launch(variant=rs.id, players=[PlayerSpec("Ann")]), seed=4)
    keys = category_keys(rs)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        # keyboard only: roll, choose (or hold) two dice, roll again, score by letter
        await pilot.press("r")
        for _ in range(40):  # a forced first turn rolls on until all dice match
            if st.placements():
                break
            await pilot.press(every_die_again(g), "r")
        if st.may_reroll():
            await pilot.press("1", "2", "r")
        cat, col = first_open(g)
        await pilot.press(keys[cat] if col == 0 else keys[cat].upper())
        assert st.turns_taken(0) == 1
        # mouse only: the Roll button, a die, the Roll button, a box (the button's clicks
        # wait for it to take clicks again: it ignores them for 0.2 s after a press)
        await tap(pilot, "#roll")
        assert st.dice
        if st.may_reroll() and st.placements():
            await pilot.click("#die-0")
            assert marked(g) == {0}  # held, or marked to roll again: the variant's way
            rolls = st.rolls
            await tap(pilot, "#roll")
            assert st.rolls == rolls + 1
        cat, col = first_open(g)
        await click_box(pilot, cat, col)
        assert st.turns_taken(0) == 2, (cat, col)
        # the rest quickly, the last box by key, and the end screen
        fast_forward(g)
        await pilot.press("r")
        cat, col = first_open(g)
        await pilot.press(keys[cat] if col == 0 else keys[cat].upper())
        assert st.is_terminal()
        await tap(pilot, "#roll")  # "See results"
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)


#: variants whose whole games would go through the very code others' do. Windows Yacht
#: and Yatcy play as Ancient Yacht (with an upper bonus as Tommy's Yahtzee shows one);
#: Yatsee and Sackson Yacht as Yatzy. The two Ancient Yacht games of one kind only
#: (five dice on two columns, ten dice on one) play as Ancient Yacht (five dice, one
#: column) and Ancient Yacht Challenge Double (ten dice, five rolls, two columns): the
#: screen's code reads the dice, the rolls and the columns apart, so a whole game of
#: each value of each is what it can get wrong. Their own letters are checked in
#: tests/session/test_config_keys.py, and a keyboard turn, a mouse turn and the end of
#: each in test_keyboard_turn_mouse_turn_and_the_end; a whole game takes 5-15 s CPU.
PLAYED_AS = {"windows-yacht": "ancient-yacht", "yatcy": "ancient-yacht",
             "yatsee": "yatzy", "sackson-yacht": "yatzy",
             "ancient-yacht-double": "ancient-yacht-10-double",
             "ancient-yacht-10": "ancient-yacht-10-double"}
WHOLE_GAMES = [rs for rs in all_variants() if rs.id not in PLAYED_AS]


def test_the_whole_games_keep_every_kind_of_variant() -> None:
    """Every value of each thing the screens read apart (the dice, the rolls, the
    columns, the way a click marks a die, each special rule, an upper bonus with each
    way of marking) is in a whole game; a variant played as another differs from it
    only in those, each of which a whole game of another variant has."""
    features: dict[str, Callable[[Ruleset], object]] = {
        "dice": lambda rs: rs.dice, "rolls": lambda rs: rs.rolls,
        "columns": lambda rs: rs.columns, "mark": lambda rs: rs.dice_mark,
        "special": lambda rs: tuple(type(r).__name__ for r in rs.special),
        "bonus by mark": lambda rs: (rs.dice_mark, rs.upper_bonus is not None)}
    for name, of in features.items():
        assert {of(rs) for rs in all_variants()} == {of(rs) for rs in WHOLE_GAMES}, name
    played = {rs.id: rs for rs in WHOLE_GAMES}
    for rs in all_variants():
        if rs.id in PLAYED_AS:
            other = played[PLAYED_AS[rs.id]]
            assert (rs.dice_mark, rs.special) == (other.dice_mark, other.special), rs.id


async def keyboard_turn(pilot: Any, rng: Any, keys: dict[str, str]) -> None:
    """One turn of the person on turn, with keys only: roll, maybe re-roll some, score."""
    g = game(pilot)
    st = g.table._game.state
    await pilot.press("r")
    for _ in range(40):  # Tommy's Yacht: the first turn rolls on until all dice match
        if st.placements():
            break
        await pilot.press(every_die_again(g), "r")
    while st.may_reroll() and rng.random() < 0.5:
        dice = rng.sample(range(len(st.dice)), rng.randint(1, len(st.dice)))
        await pilot.press(*[str((d + 1) % 10) for d in dice], "r")
    pl = rng.choice(st.placements())
    key = keys[pl.category]
    await pilot.press(key.upper() if pl.column == 1 else key)


async def oops_by_mouse(pilot: Any, choice: str) -> None:
    """The Oops menu from the key bar at the bottom, and one of its buttons."""
    await click_key(pilot, "oops")
    assert isinstance(pilot.app.screen, ChoiceDialog)
    await tap(pilot, f"#choice-{choice}")
    assert isinstance(pilot.app.screen, GameScreen)


async def mouse_turn(pilot: Any, rng: Any, reroll: bool, oops: bool) -> None:
    """One turn of the person on turn by mouse only: Roll, maybe dice and Roll, a box.

    ``reroll``: choose some dice and roll them again (when the turn allows it);
    ``oops``: also give chosen dice back and take a score back through the Oops menu.
    """
    g = game(pilot)
    st = g.table._game.state
    hold = holding(g)
    await tap(pilot, "#roll")
    assert st.dice
    for _ in range(40):  # Tommy's Yacht: the first turn rolls on until all dice match
        if st.placements():
            break
        face = Counter(st.dice).most_common(1)[0][0]
        for i, d in enumerate(st.dice):
            if (d == face) == hold and i not in marked(g):
                await tap(pilot, f"#die-{i}")  # keep the most common face, roll the others
        await tap(pilot, "#roll")
    if reroll and st.may_reroll():
        dice = rng.sample(range(len(st.dice)), rng.randint(1, min(3, len(st.dice))))
        if hold and marked(g):  # (the holds of an earlier roll of the turn go first)
            await oops_by_mouse(pilot, "give")
        for i in dice:
            await tap(pilot, f"#die-{i}")
        # (a loaded machine may show the last click's mark a frame later: waited for)
        deadline = time.monotonic() + 10
        while marked(g) != frozenset(dice) and time.monotonic() < deadline:
            await pilot.pause(0.02)
        assert marked(g) == frozenset(dice)  # held, or marked to roll again
        if oops:
            await oops_by_mouse(pilot, "give")
            assert not marked(g)
            for i in dice:
                await tap(pilot, f"#die-{i}")
        rolls = st.rolls
        await tap(pilot, "#roll")
        assert st.rolls == rolls + 1
    me, turns = st.current, st.turns_taken(st.current)
    pl = rng.choice(st.placements())
    await mouse_box(pilot, pl.category, pl.column)
    assert st.turns_taken(me) == turns + 1, pl
    if oops and not st.is_terminal():
        await oops_by_mouse(pilot, "take")
        assert st.turns_taken(me) == turns and st.current == me
        assert not game(pilot).paused
        pl = rng.choice(st.placements())
        await mouse_box(pilot, pl.category, pl.column)
        assert st.turns_taken(me) == turns + 1, pl


WITH_COMPUTER = {"tommys-yacht", "tommys-crag"}


@pytest.mark.parametrize("rs", WHOLE_GAMES, ids=lambda r: r.id)
@run
@pytest.mark.slow
async def test_a_whole_game_by_keyboard_and_mouse_turn_about(new_app: App, rs: Ruleset) -> None:
    """Every turn by the keyboard alone or by the mouse alone, in turn (clicks, and the
    wheel when the card does not fit): between them every box of the card, by one or
    the other, and the end by keys in half the variants, by clicks in the others.

    Some mouse turns choose dice and roll again, one goes through the Oops menu; some
    keyboard turns roll again too. Two variants have a computer player, so its Next
    player pause is passed by key and by click: Tommy's Yacht (the forced first turn of
    both) and Tommy's Crag (an Oops during the pause).
    """
    import random

    index = [r.id for r in all_variants()].index(rs.id)
    by_keys_at_the_end = index % 2 == 0
    players = [PlayerSpec("Ann")]
    if rs.id in WITH_COMPUTER:
        players.append(PlayerSpec("Cpu", "beginner"))
    app = new_app(Launch(variant=rs.id, players=players), seed=8)
    keys = category_keys(rs)
    rng = random.Random(rs.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        st = game(pilot).table._game.state
        turn = pauses = 0
        for _ in range(100):
            await settle(pilot)
            if st.is_terminal():
                break
            g = game(pilot)
            if g.paused:
                assert "Next player" in str(g.query_one("#roll", Button).label)
                steps = len(st.log)
                if pauses % 2:
                    await tap(pilot, "#roll")
                else:
                    await pilot.press("enter")
                pauses += 1
                await settle(pilot)
                assert len(st.log) > steps  # the computer played its turn
                continue
            assert st.current == 0
            if turn % 2 == 0:
                await keyboard_turn(pilot, rng, keys)
                assert st.turns_taken(0) == turn + 1
            else:
                await mouse_turn(pilot, rng, reroll=turn % 4 == 1,
                                 oops=turn == 5 and index % 3 == 0)
            turn += 1
        assert st.is_terminal()
        assert turn == len(st.card(0).boxes) * len(rs.categories)
        assert all(b is not None for col in st.card(0).boxes for b in col)
        assert game(pilot).paused  # the game-over pause holds until "See results"
        if by_keys_at_the_end:
            await pilot.press("enter")  # "See results"
            await settle(pilot)
            assert isinstance(app.screen, EndScreen)
            await pilot.press("p")  # play again: a new game of the same variant
            await settle(pilot)
            assert game(pilot).table._game.ruleset.id == rs.id
            assert not game(pilot).table._game.state.log
        else:
            await tap(pilot, "#roll")  # "See results"
            await settle(pilot)
            assert isinstance(app.screen, EndScreen)
            await tap(pilot, "#new")
            await settle(pilot)
            assert isinstance(app.screen, SetupScreen)
