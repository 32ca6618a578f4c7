"""What a new player tripped on in the terminal game (QA s24)."""

from __future__ import annotations

from collections.abc import Callable

from tui_helpers import fast_forward, game, messages, run, settle

from yacht.session import Launch, PlayerSpec
from yacht.session.present import TERMINAL
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.end import EndScreen
from yacht.tui.widgets import ScoreCard

App = Callable[..., YachtApp]


@run
async def test_a_next_bonus_row_blank_for_everyone_is_left_out_of_the_card(
        new_app: App) -> None:
    """A finished Kismet card showed a 'Next bonus' row with nothing in it (no step left
    to reach on a full Basic section), as the line game did before s22."""
    app = new_app(Launch(variant="kismet", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        card = screen.query_one("#card", ScoreCard)
        assert "total-bonus_next" in card._values  # (63→35: the step to reach)
        fast_forward(screen, leave=0)
        await pilot.press("enter")  # the results
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        snap = end.table.snapshot(LOCAL, TERMINAL)
        assert snap["cards"][0]["cells"]["bonus_next"] == [""]  # (nothing to say)
        final = end.query_one("#final-card", ScoreCard)
        assert "total-upper_bonus" in final._values
        assert "total-bonus_next" not in final._values


@run
async def test_a_box_named_straight_alone_keeps_its_name_in_a_tight_card(
        new_app: App) -> None:
    """Kismet's Straight was 'j Str.' at 60x20 (the shorter names of a tight card), a word
    a new player has to guess, and no narrower a card: 'Full House Same Color' is wider."""
    app = new_app(Launch(variant="kismet", players=[PlayerSpec("Ann"), PlayerSpec("Bob"),
                                                    PlayerSpec("Cyd")]))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        card = game(pilot).query_one("#card", ScoreCard)
        assert card.style_now.short  # (the tight card)
        assert card._values["straight"][1].plain == "Straight"
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann"), PlayerSpec("Bob"),
                                                     PlayerSpec("Cyd")]))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        card = game(pilot).query_one("#card", ScoreCard)
        if card.style_now.short:  # (the others still lose their "Straight")
            assert card._values["small_straight"][1].plain == "Small Str."


@run
async def test_oops_after_the_next_roll_says_a_roll_came_since_the_last_score(
        new_app: App) -> None:
    """Bob's Oops after his first roll said 'No score to take back: nothing has been
    scored yet' though he had scored the turn before (the roll ends the undo)."""
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    app.config.next_player_pause = False
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "v")  # Ann: Chance
        await settle(pilot)
        await pilot.press("r", "v", "r")  # Bob: Chance; Ann rolls
        await settle(pilot)
        assert g.table.view().state.current == 0 and g.table.view().state.dice
        await pilot.press("o")
        said = messages(app)[-1]
        assert said.startswith("Nothing to undo"), said
        assert "Ann has rolled since the last score" in said, said
        assert "nothing has been scored yet" not in said
