"""Smaller words that said the wrong thing (QA s18): a filled box, the top ten's keys and
mark, the table at the game's end, a computer named "You"."""

from __future__ import annotations

import re
from collections.abc import Callable

from textual.widgets import Input, Static
from tui_helpers import fast_forward, game, messages, play_out, run, settle

from yacht.session import Config, Launch, PlayerSpec, save_config
from yacht.tui import YachtApp
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.topten import TopTenScreen
from yacht.tui.widgets import Choice, KeyBar, ScoreCard

App = Callable[..., YachtApp]


@run
async def test_a_filled_box_is_said_to_be_filled(new_app: App) -> None:
    """e on a filled Ones said 'Ones cannot be scored now (open to these dice: ...)'; it
    says the box is filled, in the table's words (the screen's own copy left out the
    boxes open to the dice: 'score an open box', which?)."""
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "e")
        st = g.table._game.state
        ones = st.card(0).boxes[0][0]
        assert ones is not None
        await pilot.press("r", "e")
        said = messages(app)[-1]
        assert said.startswith(f"Ones is filled already ({ones}): score an open box (open "
                               "to these dice: "), said
        assert said.endswith(")") and "Chance" in said, said
        assert st.turns_taken(0) == 1 and st.dice  # nothing scored, the turn goes on
    app = new_app(Launch(variant="ancient-yacht-double", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r", "E", "r", "E")
        assert re.fullmatch(r"Ones is filled already in column 2 \(\d+\); it is open in "
                            "column 1", messages(app)[-1]), messages(app)


@run
async def test_the_table_at_the_end_counts_no_rolls_and_marks_no_turn(new_app: App) -> None:
    """The last score made, before the results: the table said 'Rolls left ● ● ●' and
    kept the ▶ of a player on turn over a card."""
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann"), PlayerSpec("Bob")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.pause_between_people = False
        play_out(g)
        await settle(pilot)
        assert g.table.view().over
        assert str(g.query_one("#rolls", Static).render()) == "Game over"
        card = g.query_one(ScoreCard)
        heads = [str(c.label) for c in card.columns.values()]
        assert not any("▶" in h for h in heads), heads


@run
async def test_the_top_ten_says_where_a_goes_and_marks_only_what_it_shows(
        new_app: App) -> None:
    """The key bar said 'a Assisted games' on the assisted list too, and '* a new entry'
    stood under '(no scores yet)'."""
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        fast_forward(game(pilot), leave=0)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("t")
        await settle(pilot)
        page = app.screen
        assert isinstance(page, TopTenScreen)

        def key_words() -> str:
            return next(k[1] for k in page.query_one(KeyBar).keys if k[2] == "assisted")

        assert key_words() == "Assisted games"
        assert page.query_one("#topten-new").display  # this game's entry, marked
        await pilot.press("a")
        await settle(pilot)
        assert "(no scores yet)" in str(page.query_one("#topten", Static).render())
        assert not page.query_one("#topten-new").display
        assert key_words() == "Top ten"
        await pilot.press("a")
        await settle(pilot)
        assert key_words() == "Assisted games" and page.query_one("#topten-new").display


@run
async def test_a_seat_named_you_made_a_computer_is_named_anew(new_app: App) -> None:
    """The setup's first seat is "You": made a computer it kept the name, and the game said
    'You keep 5' and 'You are playing' of a computer."""
    save_config(Config(variant="yahtzee", players=[PlayerSpec("You"),
                                                   PlayerSpec("Computer", "intermediate")]))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#kind-0", Choice).value = "expert"
        await settle(pilot)
        assert setup.query_one("#name-0", Input).value == "Computer 1"
        setup.query_one("#kind-1", Choice).value = "person"  # a person's name stays
        await settle(pilot)
        assert setup.query_one("#name-1", Input).value == "Computer"
