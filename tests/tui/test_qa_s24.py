"""What a new player tripped on in the terminal game (QA s24)."""

from __future__ import annotations

from collections.abc import Callable

from tui_helpers import fast_forward, game, messages, run, settle, until

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


@run
async def test_the_setup_at_60x20_cuts_no_control(new_app: App) -> None:
    """At 60x20 the setup ran off the right edge: the kinds' and the variant's arrows,
    '- Player (F4)', the dice setting ('Clicking a die as the') and the checkboxes ('Sound:
    be', '(as Ancient Yac') were cut. Every control is inside the form, whole; back at
    80 columns the long words come back."""
    from textual.containers import VerticalScroll
    from textual.widgets import Checkbox

    from yacht.session import Config, save_config
    from yacht.tui.screens.setup import SetupScreen

    save_config(Config(variant="yahtzee",
                       players=[PlayerSpec("You"), PlayerSpec("Computer", "intermediate")]))
    app = new_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        for _ in range(6):
            await pilot.press("f3")  # eight players: the form scrolls
        await settle(pilot)
        form = screen.query_one("#setup", VerticalScroll)
        seen = set()
        for end in (False, True):  # the top of the form, then its end
            if end:
                form.scroll_end(animate=False)
                await settle(pilot)
            right = form.scrollable_content_region.right
            for w in screen.query("Choice, Checkbox, Input, Button, Label"):
                if not w.display or not w.region:
                    continue  # (out of view)
                seen.add(w)
                assert w.region.right <= right, (w, w.region, right)
        assert len(seen) >= 30
        assert screen.query_one("#players-head").region.height == 1
        for tick in screen.query(Checkbox):
            assert tick.region.width >= len(str(tick.label)) + 4, tick.label
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "(time for Oops)" in str(screen.query_one("#computer-pause", Checkbox).label)


@run
async def test_a_hint_for_dice_rolled_again_meanwhile_is_not_shown(new_app: App) -> None:
    """The advisor took a while to get ready (its tables); Ann rolled again meanwhile, and
    the hint then said 'Keep 6 6' with no 6 showing: it was for the dice before."""
    import threading

    from yacht.tui.screens.dialogs import TextDialog

    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        ready = threading.Event()
        hint = g.table.hint

        def slow_hint(*args: object, **kw: object) -> object:
            ready.wait(30)  # (the tables being built)
            return hint(*args, **kw)  # type: ignore[arg-type]

        g.table.hint = slow_hint  # type: ignore[method-assign]
        await pilot.press("r", "h", "enter")  # the first hint asks first
        await pilot.pause(0.1)
        await pilot.press("r")  # every die again, the advisor still busy
        await pilot.pause(0.1)
        assert g.table.view().state.rolls == 2
        ready.set()
        await settle(pilot)
        for _ in range(50):
            await pilot.pause(0.02)
        assert not isinstance(app.screen, TextDialog)
        assert any("Press h for a hint on the dice now" in m for m in messages(app))
        await pilot.press("h")  # asked again: the dice now
        for _ in range(200):
            await settle(pilot)
            if isinstance(app.screen, TextDialog):
                break
        assert isinstance(app.screen, TextDialog) and "1. " in app.screen.text


@run
async def test_every_choice_of_the_quit_question_shows_in_a_small_window(
        new_app: App) -> None:
    """At 60x20 the quit question showed 'Yes, leave' and 'Yes, and delete this game' but
    not 'No, keep playing' (cut off by the window's height)."""
    from textual.widgets import Button

    from yacht.tui.screens.dialogs import ChoiceDialog

    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")  # (a game with nothing played is left without a question)
        await settle(pilot)
        for size in ((80, 24), (60, 20), (60, 19), (45, 14)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            await pilot.press("q")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ChoiceDialog), size
            frame = dialog.query_one(".dialog").region
            buttons = list(dialog.query(Button))
            assert len(buttons) == 3
            for b in buttons:
                assert b.region and frame.contains_region(b.region), (size, b, b.region)
                assert dialog.region.contains_region(b.region)
            await pilot.press("escape")
            await settle(pilot)


def test_the_final_card_of_a_45_column_window_shows_its_points() -> None:
    """At 45x14 the end screen gave the card 15 columns beside the results: the box names
    cut ('#7 Three of') and not a point to be seen. The results give way down to the
    folded card's least."""
    import random

    from yacht.engine import Player, Roll, Score
    from yacht.rules import get
    from yacht.session.table import Table
    from yacht.tui.screens.end import LEFT_FOLDED, end_layout
    from yacht.tui.widgets.card import card_width

    rs = get("tommys-crag")
    table = Table.new(rs, [Player("Alexandra Longnamess"), Player("Bob")],
                      rng=random.Random(3))
    st = table._game.state
    while not st.is_terminal():
        if not st.dice:
            table.act(LOCAL, Roll())
        pl = st.placements()[-1]  # (a box: every crag roll has some)
        table.act(LOCAL, Score(pl.category, pl.column))
    snap = table.snapshot(LOCAL, TERMINAL)
    left, style = end_layout(snap, 45, 14, (0,))
    width, _ = card_width(snap, style, preview=False, marker=False)
    assert left >= LEFT_FOLDED and left + width + 1 <= 45, (left, width)


@run
async def test_the_help_line_says_what_n_does_to_held_dice(new_app: App) -> None:
    """'r or Enter: roll the 3 dice not held - or score: ... n: none.' - none what? With
    dice held, n lets go of them all (the Oops menu's 'hold none')."""
    app = new_app(Launch(variant="kismet", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "1", "2")
        await settle(pilot)
        line = str(g.query_one("#helpbar").render())
        assert "roll the 3 dice not held" in line and line.endswith("n: hold none."), line
        await pilot.press("n")
        await settle(pilot)
        assert not g.table.view().held


@run
async def test_the_top_ten_names_its_options_and_why_a_game_is_not_in_it(
        new_app: App) -> None:
    """After a demo the top ten said "(no scores yet)" as if the game had been lost, and
    a game with options not the usual ones showed its list under the variant's name
    alone (QA s23): it names the options, and says a demo's game does not enter."""
    from yacht.tui.screens.topten import TopTenScreen

    for demo, want in ((False, ""), (True, "does not enter the top ten: a demo game")):
        app = new_app(Launch(variant="yahtzee", options={"bonus": "off"}, demo=demo,
                             players=[PlayerSpec("Ann")]))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            if not demo:  # (a demo plays itself to its results)
                fast_forward(game(pilot), leave=0)
                await pilot.press("enter")  # the results
            await until(pilot, lambda a=app: isinstance(a.screen, EndScreen))
            await pilot.press("t")
            await settle(pilot)
            page = app.screen
            assert isinstance(page, TopTenScreen)
            head = str(page.query_one("#topten-head").render())
            assert head == "Top ten of Yahtzee - Yahtzee bonus: off (no bonus)", head
            note = page.query_one("#topten-note")
            assert note.display == bool(want)
            assert want in str(note.render())
