"""What a new user met playing the terminal game (notes/s19/qa-tui2.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_helpers import game, run, settle

from yacht.session import Launch, PlayerSpec
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import HelpScreen, TextDialog

App = Callable[..., YachtApp]


@run
async def test_a_hint_that_comes_while_the_help_is_open_is_shown(new_app: App) -> None:
    """The first hint of a game can take a while (the advisor's tables); a player who
    opened the help meanwhile never saw it: the help counted as the hint's window, the
    ranking was dropped and the game marked assisted all the same."""
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r")
        await settle(pilot)
        moves: Any = g.table.hint(LOCAL)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        g._hinting = True
        g._show_hint(moves, None)  # the advisor answers now
        await pilot.pause()
        assert isinstance(app.screen, TextDialog) and app.screen.name == "hint"
        assert "1. " in app.screen.text
        g._show_hint(moves, None)  # a second answer: still one hint window
        await pilot.pause()
        assert sum(s.name == "hint" for s in app.screen_stack) == 1
        await pilot.press("escape")
        assert isinstance(app.screen, HelpScreen)  # the help is still there under it


@run
async def test_the_assisted_lists_heading_wraps_at_80_columns(new_app: App) -> None:
    """'Assisted games (the advisor was asked, the computer played a person's turns, or
    dice entered by hand)' ran off an 80-wide screen after 'turns,'."""
    from textual.widgets import Label

    from yacht.tui.screens.topten import TopTenScreen

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(TopTenScreen("Tommy's Crag", lambda assisted: [], True))
        await pilot.pause()
        head = app.screen.query_one("#topten-head", Label)
        assert head.region.right <= 80 and head.region.height >= 2, head.region
        shown = " ".join(app.screen.query_one("#topten-head", Label).render().plain.split())
        assert shown.endswith("or dice entered by hand)"), shown


@run
async def test_a_narrow_title_drops_the_speed_whole_not_its_value(new_app: App) -> None:
    """At 80 columns the title of a two-column game cut 'speed instant' to 'speed' (or
    'speed ins', after a hint): a setting without its value. The settings at its end
    now go whole."""
    from yacht.tui.widgets.cells import cell_len

    app = new_app(Launch(variant="ancient-yacht-double",
                         players=[PlayerSpec("Bartholomew Cubbins"),
                                  PlayerSpec("Computer", "expert")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table._game.assisted = True  # (as after a hint)
        g.refresh_all()
        title = str(g.query_one("#title").render())
        assert cell_len(title) <= 80, title
        assert title.endswith("Ancient Yacht · assisted · ♪ off"), title
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        title = str(game(pilot).query_one("#title").render())
        assert title.endswith("Ancient Yacht, two columns · assisted · ♪ off · speed instant")


@run
async def test_the_help_says_what_the_dice_shapes_and_the_served_mark_mean(
        new_app: App) -> None:
    """Kismet's dice show ● ◆ ■ pips and a Generala card shows '25s': the game's help said
    the colours' faces (1/6, 2/5, 3/4) but never which shape is which colour, and nothing
    anywhere said what the s after a box's points is."""
    for variant, said in [("kismet", "◆ red (2 and 5)"),
                          ("generala", "an s after the points (25s) marks a box scored "
                                       "served"),
                          ("yahtzee", None)]:
        app = new_app(Launch(variant=variant, players=[PlayerSpec("Ann")]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = " ".join(app.screen.text.split())
            if said is None:
                assert "What the marks mean" not in text
            else:
                assert "What the marks mean" in text and said in text, (variant, text)


@run
async def test_f6_shows_the_top_ten_at_the_end_too(new_app: App) -> None:
    """The setup teaches F6 for the top ten; at the end of a game F6 did nothing (only t
    worked there), and F6 did not close the page it opened from the setup."""
    from tui_helpers import fast_forward

    from yacht.tui.screens.end import EndScreen
    from yacht.tui.screens.setup import SetupScreen
    from yacht.tui.screens.topten import TopTenScreen

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        fast_forward(g, leave=1)
        await pilot.press("r")
        await settle(pilot)
        placement = g.table._game.state.placements()[0]
        g.score(placement.category, None)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, TopTenScreen)
        await pilot.press("f6")
        await settle(pilot)
        assert app.screen is end
        await pilot.press("n")  # the setup: F6 opens the page and closes it
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, TopTenScreen)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)


@run
async def test_each_look_key_brings_a_hidden_card_onto_the_screen(new_app: App) -> None:
    """Eight players, ten dice, two columns at 80x24: four cards fit. The first > said
    'Looking at Ann's card' while Ann's card was on the screen already, and nothing
    changed; it took four presses to see player 5. Each > (and <) now shows a card that
    was not on the screen."""
    from yacht.tui.widgets import ScoreCard

    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    app = new_app(Launch(variant="ancient-yacht-10-double",
                         players=[PlayerSpec(n) for n in names]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        assert len(card.shown) < 8
        for key in ("greater_than_sign", "greater_than_sign", "less_than_sign"):
            before = set(card.shown)
            await pilot.press(key)
            await settle(pilot)
            assert g.looking is not None and g.looking not in before, (key, before)
            assert g.looking in card.shown


@run
async def test_a_demo_from_the_setup_does_not_call_a_computer_you(new_app: App) -> None:
    """The demo ticked in the setup made the seat 'You' a computer that kept the name:
    'You keep 5 5' while no one played, and at the end 'You: Excellent! A score to be
    proud of.' for the computer's score. The demo's seat now has a computer's name for
    that game; the setup keeps 'You' for the next one."""
    from textual.widgets import Checkbox, Input

    from yacht.session import load_config
    from yacht.tui.screens.setup import SetupScreen

    app = new_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#variant").value = "tommys-crag"
        setup.query_one("#name-0", Input).value = "You"
        setup.query_one("#name-1", Input).value = "Computer"
        setup.query_one("#kind-1").value = "expert"
        setup.query_one("#demo", Checkbox).value = True
        await pilot.pause()
        await pilot.press("f5")
        await settle(pilot)
        table = getattr(app.screen, "table")  # noqa: B009 (the game, or its end: instant)
        names = [p.name for p in table._game.players]
        assert names == ["Computer 1", "Computer"], names
        assert all(p.is_computer for p in table._game.players)
    assert [p.name for p in load_config().players] == ["You", "Computer"]


@run
async def test_an_open_list_follows_its_choice_when_the_window_changes(
        new_app: App) -> None:
    """The setup's drop-down list stayed where it was drawn when the window was made
    narrower while it was open: its right part cut off ('points - scores like any other
    five' at 60 columns). It now takes its choice's new place and width."""
    from textual.widgets import OptionList

    from yacht.tui.widgets.choice import ChoiceList

    app = new_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        setup = app.screen
        setup.query_one("#variant").value = "generala"
        await pilot.pause()
        choice = setup.query_one("#opt-servida")
        choice.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceList)
        await pilot.resize_terminal(60, 18)
        for _ in range(5):
            await pilot.pause()
        listing = app.screen.query_one(OptionList)
        assert listing.region.right <= 60, (listing.region, choice.region)
        assert listing.region.x == choice.region.x
        assert listing.region.width == choice.region.width
