"""The setup's lists, the key bar, the card's widths and headers, the Joker rule's help."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Input, OptionList, Static
from tui_helpers import click_key, game, mouse_box, play_out, run, settle, tap

from yacht.engine import Roll
from yacht.rules import get
from yacht.session import Launch, PlayerSpec, category_keys
from yacht.session.commands import GoOn, ScoreBox
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import HelpScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.widgets import Choice, KeyBar, ScoreCard
from yacht.tui.widgets.choice import ChoiceList

App = Callable[..., YachtApp]


def helpbar(pilot: Any) -> str:
    return str(game(pilot).query_one("#helpbar", Static).render())


def card_lines(card: ScoreCard) -> list[str]:
    return [strip.text for strip in
            card.render_lines(Region(0, 0, card.size.width, card.size.height))]


# --- the setup's lists (Choice) -------------------------------------------------------

@run
async def test_a_variant_chosen_from_the_list_by_mouse(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.query("#opt-joker")  # Yahtzee (the default) has its options
        assert await pilot.click("#variant")
        await settle(pilot)  # (the list is mounted: a loaded machine took longer, CI s22)
        listing = app.screen
        assert isinstance(listing, ChoiceList)
        options = listing.query_one(OptionList)
        assert options.highlighted == [rs.id for rs in setup_variants()].index("yahtzee")
        row = [rs.id for rs in setup_variants()].index("yatzy")
        assert await pilot.click(options, offset=(3, 1 + row))  # below the list's border
        await settle(pilot)
        assert app.screen is setup
        assert setup.query_one("#variant", Choice).value == "yatzy"
        assert get("yatzy").description in str(setup.query_one("#description").render())
        assert not setup.query("#opt-joker")  # Yatzy has no options
        # a click beside an open list keeps the value
        await pilot.click("#kind-0")
        assert isinstance(app.screen, ChoiceList)
        await pilot.click(offset=(1, 1))
        assert app.screen is setup
        assert setup.query_one("#kind-0", Choice).value == "person"


def setup_variants() -> list[Any]:
    from yacht.rules import all_variants

    return all_variants()


@run
async def test_a_kind_and_an_option_chosen_by_keys(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        setup = app.screen
        kind = setup.query_one("#kind-1", Choice)
        assert kind.value == "intermediate"
        kind.focus()
        await pilot.press("enter")  # the list, on the value shown
        assert isinstance(app.screen, ChoiceList)
        await pilot.press("down", "enter")
        assert app.screen is setup and kind.value == "expert"
        assert kind.has_focus  # back where it was
        await pilot.press("space", "escape")  # opened and closed: no change
        assert kind.value == "expert"
        values = kind.values
        after = values[(values.index("expert") + 1) % len(values)]
        await pilot.press("right")  # the arrows step through the values
        assert kind.value == after
        await pilot.press("left", "left")
        assert kind.value == "intermediate"
        setup.query_one("#opt-joker", Choice).value = "free"
        await pilot.press("f5")
        await settle(pilot)
        g = game(pilot)
        assert g.table._game.ruleset.option_values["joker"] == "free"
        assert g.table._game.players[1].level == "intermediate"


@run
async def test_enter_in_a_name_still_starts(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.screen.query_one("#name-0", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert game(pilot).table._game.players[0].name == "You"


# --- the key bar ------------------------------------------------------------------------

@run
async def test_the_key_bar_shows_the_keys_and_a_click_presses_one(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        setup = app.screen
        bar = setup.query_one(KeyBar)
        assert str(bar.render()).startswith(" F5 Start  F2 Demo  F3 + Player ")
        await pilot.hover(KeyBar, offset=(bar._spans[2][0] + 1, 0))
        assert bar.hover == 2  # the key under the pointer is set apart
        await pilot.hover("#title")
        assert bar.hover == -1
        count = setup.count
        await click_key(pilot, "add_player")
        assert setup.count == count + 1
        await click_key(pilot, "start")
        await settle(pilot)
        g = game(pilot)
        bar = g.query_one(KeyBar)
        # every key of the game, the speed keys and the demo too, in 80 columns
        assert str(bar.render()).strip() == ("r Roll  o Oops  h Hint  b Bell  +/- Speed  "
                                             "F2 Demo  ? Help  Esc Setup  q Quit")
        assert bar._spans[-1][1] <= 80
        await pilot.click("#roll")  # the focus moves about: the same bar, not rebuilt
        await pilot.click("#die-0")
        assert g.query_one(KeyBar) is bar and len(g.query(KeyBar)) == 1
        await click_key(pilot, "help")
        assert isinstance(app.screen, HelpScreen)


# --- the card -----------------------------------------------------------------------------

@run
async def test_the_card_has_its_widths_from_the_first_frame(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann"), PlayerSpec("Bo")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        s = g.table._game
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((1, 2, 3)))
        g.table.act(LOCAL, ScoreBox(s.state.placements()[0].category), GoOn())
        g.refresh_all()  # Bo's turn: the card is built again
        # a frame drawn before the table's idle pass (a quick click after an Oops)...
        first = card_lines(card)
        ones = category_keys(get("tommys-crag"))["ones"]
        # Tommy's board 1 is Ones; not "One": cut to the width of "Box"
        assert first[1].split()[:3] == [ones, "#1", "Ones"], first[1]
        await pilot.pause()
        # ... stays right once the table is idle (it kept the cut frame in its cache)
        assert card_lines(card) == first
        # and a click lands on the box it shows
        await pilot.press("r")
        cat = s.state.placements()[-1].category
        await mouse_box(pilot, cat)
        assert s.state.turns_taken(1) == 1


@run
async def test_four_cards_of_two_columns_fit_beside_the_dice(new_app: App) -> None:
    names = ["You", "Computer", "Player 3", "Player 4"]  # the setup's names for 4 seats
    app = new_app(Launch(variant="ancient-yacht-double",
                         players=[PlayerSpec(n) for n in names]))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(4):  # each player on turn in turn, with previews on the card
            await pilot.press("r")
            await pilot.pause()
            card = game(pilot).query_one(ScoreCard)
            assert card.virtual_size.width <= card.scrollable_content_region.width
            assert card.max_scroll_x == 0
            head = card_lines(card)[0] + card_lines(card)[1]
            for name in names:
                assert name in head
            await pilot.press("y" if game(pilot).table._game.state.current % 2 else "Y")
            await settle(pilot)


@run
@pytest.mark.slow
async def test_every_card_of_eight_players_is_reachable_by_mouse(new_app: App) -> None:
    names = [f"Player {i}" for i in range(1, 9)]
    app = new_app(Launch(variant="ancient-yacht-double",
                         players=[PlayerSpec(n) for n in names]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        card = g.query_one(ScoreCard)
        for p in range(8):
            if g.paused:
                await tap(pilot, "#roll")  # Next player (people share the screen)
                await settle(pilot)
            await tap(pilot, "#roll")
            await settle(pilot)
            # the card of the one on turn is on the screen, all of it, no scrolling
            assert p in card.shown and card.max_scroll_x == 0
            column = p % 2  # column 1 or 2 of each player in turn
            await mouse_box(pilot, "yacht", column)
            await settle(pilot)
            assert st.card(p).boxes[column][get("ancient-yacht-double").index("yacht")] \
                is not None


# --- the Joker rule and the Yahtzee bonus ---------------------------------------------------

async def second_yahtzee(pilot: Any, face: int = 5) -> Any:
    """Ann scores a Yahtzee, then rolls another one of ``face``."""
    g = game(pilot)
    g.table.real_dice = True  # the test says what the dice show
    g.table.act(LOCAL, Roll((face,) * 5))
    g.table.act(LOCAL, ScoreBox("yahtzee"))
    g.table.act(LOCAL, Roll((face,) * 5))
    g.refresh_all()
    await pilot.pause()
    return g


@run
async def test_the_forced_joker_says_why_only_that_box(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = await second_yahtzee(pilot)
        assert [p.category for p in g.table._game.state.placements()] == ["fives"]
        text = helpbar(pilot)
        assert text.startswith("Joker rule: this Yahtzee must go in Fives (+100 Yahtzee "
                               "bonus)."), text
        assert len(text) <= 2 * 78  # two lines of the help bar at 80 columns
        # Fives filled: a lower box, as a joker
        await pilot.press("i")  # Fives
        s = g.table._game
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((5,) * 5))
        g.refresh_all()
        await pilot.pause()
        assert {p.category for p in s.state.placements()} == {
            c.id for c in s.ruleset.categories if c.section == "lower" and c.id != "yahtzee"}
        text = helpbar(pilot)
        assert text.startswith("Joker rule (Fives filled): this Yahtzee goes in a lower box, "
                               "as a joker (+100 Yahtzee bonus)."), text
        assert len(text) <= 2 * 78


@run
async def test_a_free_joker_needs_no_reason_but_the_bonus_is_told(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", options={"joker": "free"},
                         players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await second_yahtzee(pilot)
        assert helpbar(pilot).startswith("Yahtzee again: the previews hold the +100 bonus.")


@run
async def test_tommys_yacht_first_turn_says_it_must_be_the_yacht(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-yacht", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((2,) * 5))
        g.refresh_all()
        await pilot.pause()
        assert helpbar(pilot).startswith("The first turn must go in Yacht.")


@run
async def test_a_preview_with_the_yahtzee_bonus_shows_it(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = await second_yahtzee(pilot)
        card = g.query_one(ScoreCard)
        assert card.get_cell("fives", "p0c0").plain == "(25+100)"
        assert "(25+100)" in "\n".join(card_lines(card))  # and its column is wide enough
        await pilot.press("i")
        assert g.table._game.state.totals(0).grand == 50 + 25 + 100
        assert card.get_cell("fives", "p0c0").plain == "25"


@run
async def test_the_store_opens_once_the_first_screen_is_drawn(isolated: Any) -> None:
    from yacht.tui import make_app
    from yacht.tui.screens.game import GameScreen

    app = make_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    app.config.sound = False
    seen: list[str] = []
    opener = app.open_store_in_background

    def open_store() -> None:  # what the screen shows when the store starts opening
        screen = app.screen
        seen.append(str(screen.query_one("#helpbar", Static).render())
                    if isinstance(screen, GameScreen) else type(screen).__name__)
        opener()

    app.open_store_in_background = open_store  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):  # the store opens in a thread: wait for it
            await settle(pilot)
            if app.store_ready:
                break
            await pilot.pause(0.05)
        assert app.store_ready and app.store is not None, app.store_problem
        assert game(pilot).table._game.store is app.store  # the game is saved from now on
    assert seen == ["Ann: press r or Enter, or click Roll, to roll the dice."]


@run
async def test_the_cycle_collector_rests_only_until_the_first_screen(new_app: App) -> None:
    import gc

    assert gc.isenabled()
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    assert not gc.isenabled()  # the start makes no garbage worth looking for
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game(pilot)
        assert gc.isenabled()
    assert gc.isenabled()


@run
async def test_names_with_brackets_are_shown_as_typed(new_app: App, store: Any) -> None:
    from yacht.tui.screens.end import EndScreen
    from yacht.tui.screens.resume import ResumeScreen

    odd = [PlayerSpec("[/]Ann"), PlayerSpec("[b]Bo", "beginner")]  # no markup in a name
    app = new_app(Launch(variant="tommys-crag", players=odd))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "e")  # Ann scores Ones; the Next player pause names Bo
        await settle(pilot)
        assert "[/]Ann" in str(g.query_one("#log").render())
        assert "[b]Bo" in helpbar(pilot)
        await pilot.press("q", "1")  # leave, the game kept
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)  # the saved game, with its names
        await pilot.press("enter")
        await settle(pilot)
        g = game(pilot)
        # (back in the Next player pause it was left in: the title names Bo, who is next)
        assert "[b]Bo" in str(g.query_one("#title").render())
        assert "[/]Ann" in g.query_one("#players").render().plain
        play_out(g)  # the rest quickly, from here, to the end screen
        await pilot.press("r")  # See results
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert "[/]Ann" in str(app.screen.query_one("#result").render()) or \
            "[b]Bo" in str(app.screen.query_one("#result").render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run
async def test_the_help_is_wrapped_once_for_the_width_it_is_shown_at(new_app: App,
                                                                     size: tuple[int, int]
                                                                     ) -> None:
    """The rules and the keys are wrapped for the dialog's width (its key column hanging),
    never wrapped again by the screen (a line broken for a wider window, then again)."""
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for key in ("question_mark", "f1"):  # the game's help; the setup's rules
            await pilot.press(key)
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, HelpScreen)
            shown = dialog.query_one(".dialog-text")
            width = shown.content_size.width
            lines = dialog.text.split("\n")
            assert max(map(len, lines)) <= width
            assert max(map(len, lines)) >= width - 8  # the width is used
            assert shown.content_size.height == len(lines)  # each line on one line
            if key == "question_mark":
                # a key's words go on under its words, not under the key
                at = next(i for i, line in enumerate(lines) if line.startswith("  letters"))
                column = lines[at].index("score the box")
                assert lines[at + 1].startswith(" " * column + lines[at + 1].strip())
                await pilot.press("escape", "escape")
                await settle(pilot)
                await pilot.press("1")  # (leave the game: the setup)
                await settle(pilot)
