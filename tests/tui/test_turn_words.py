"""What the table says and shows around a turn (QA s19 tui items 1-3): the column a
Shift+letter scored in, why Tommy's Yacht's first turn has no roll left, and the dice at
the start of a turn (not the previous player's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Static
from tui_helpers import game, messages, run, settle

from yacht.engine import Roll
from yacht.session import Launch, PlayerSpec
from yacht.session.commands import GoOn, ScoreBox, Toggle
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog

App = Callable[..., YachtApp]


def helpbar(pilot: Any) -> str:
    return str(game(pilot).query_one("#helpbar", Static).render())


def dice_shown(pilot: Any) -> tuple[int, ...]:
    return tuple(d.value for d in game(pilot).query("Die"))


@run
async def test_shift_letter_says_column_2_alone(new_app: App) -> None:
    app = new_app(Launch(variant="ancient-yacht-double", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True
        g.table.act(LOCAL, Roll((3, 3, 3, 5, 5)))
        await settle(pilot)
        await pilot.press("V")  # Shift+v: Choice in column 2
        await settle(pilot)
        assert g.table.view().state.card(0).boxes[1][6] == 19
        assert helpbar(pilot).startswith("Ann scored Choice (column 2) for 19. Ann: press r")
        await pilot.press("r", "v")  # column 1 says so too
        await settle(pilot)
        assert "Ann scored Choice (column 1) for" in helpbar(pilot)


@run
async def test_shift_letter_says_column_2_in_the_next_player_pause(new_app: App) -> None:
    app = new_app(Launch(variant="ancient-yacht-10-double",
                         players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    app.config.next_player_pause = True
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("V")
        await settle(pilot)
        assert g.paused
        text = helpbar(pilot)
        assert text.startswith("Ann scored Choice (column 2) for "), text
        assert "Bob's turn" in text


def tommys_yacht_on_roll(pilot: Any, rolls: int) -> None:
    g = game(pilot)
    g.table.real_dice = True
    for i in range(rolls):
        if i:
            g.table.act(LOCAL, *(Toggle(k) for k in range(5)))
        g.table.act(LOCAL, Roll((1, 2, 3, 4, 6) if i < rolls - 1 else (4,) * 5))
    g.refresh_all()


@run
async def test_tommys_yacht_on_roll_24_says_why_it_is_not_rolled_again(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-yacht", players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tommys_yacht_on_roll(pilot, 24)
        await pilot.pause()
        text = helpbar(pilot)
        assert "All 5 dice match on roll 24" in text and "No roll left" not in text, text
        for key in ("r", "1"):  # a roll, a die to roll again: not "no roll left"
            await pilot.press(key)
            await settle(pilot)
            said = messages(app)[-1]
            assert said.startswith("All 5 dice match on roll 24: the turn's rolling stops "
                                   "there (8 of its 32 rolls unused)."), said
        await pilot.press("o")  # the Oops menu's reason
        await settle(pilot)
        said = messages(app)[-1] if not isinstance(app.screen, ChoiceDialog) else ""
        assert "no dice to give back (all 5 dice match: the rolling stops there)" in said, said
        await pilot.press("y")  # the yacht, 50 less 5 for each roll after the 3rd
        await settle(pilot)
        assert game(pilot).table.view().state.card(0).boxes[0][-1] == -55


@run
async def test_the_next_turn_starts_with_no_dice_of_the_last_player(new_app: App) -> None:
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True
        g.table.act(LOCAL, Roll((6, 6, 6, 2, 2)))
        g.table.act(LOCAL, ScoreBox("full_house"))
        await settle(pilot)
        view = g.table.view()
        if view.pause is not None:  # (the Next player pause: Ann's dice, dimmed)
            assert dice_shown(pilot) == (6, 6, 6, 2, 2)
            g.table.act(LOCAL, GoOn())
            await settle(pilot)
        # Bob's turn, not rolled yet: blank dice, and the line says what Ann scored
        assert g.table.view().state.current == 1 and not g.table.view().state.dice
        assert dice_shown(pilot) == (0,) * 5
        assert not g.query_one("#dice").has_class("-previous")
        assert helpbar(pilot).startswith("Ann scored Full House for 22. Bob: press r")
        await pilot.press("r")
        await settle(pilot)
        assert dice_shown(pilot) == g.table.view().state.dice != ()
