"""The old programs' habits: Tommy's boards and letters, Ancient Yacht's Next player pause,
Windows Yacht's and Yatsee's roll at the start of a turn, Tommy's F2 demo, the top ten
from the setup."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Checkbox
from tui_helpers import game, messages, run, settle

from yacht.engine import Roll
from yacht.rules import get
from yacht.session import Config, Launch, PlayerSpec, category_keys, load_config, save_config
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog, HelpScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.topten import TopTenScreen
from yacht.tui.widgets import ScoreCard

App = Callable[..., YachtApp]
TWO = [PlayerSpec("Ann"), PlayerSpec("Bob")]


def card_text(card: ScoreCard) -> list[str]:
    from textual.geometry import Region

    return [strip.text for strip in
            card.render_lines(Region(0, 0, card.size.width, card.size.height))]


@run
async def test_tommys_boards_and_letters(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        lines = card_text(g.query_one(ScoreCard))
        chance = next(i for i, line in enumerate(lines) if "C Chance" in line)
        assert "D Yahtzee" in lines[chance + 1]  # Chance before Yahtzee, his names
        assert any("7 Three of a Kind" in line for line in lines)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((3, 3, 3, 1, 2)))
        g.refresh_all()
        await pilot.press("t")  # Tommy's T(riplet)
        await settle(pilot)
        rs = get("tommys-yahtzee")
        assert g.table._game.state.card(0).boxes[0][rs.index("three_of_a_kind")] == 12
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        help_text = " ".join(app.screen.text.split())  # (wrapped for the window)
        assert "Q (Four of a Kind) is quit here" in help_text
        assert "S (Small Straight) is the unmatched dice here" in help_text
        assert "Tommy's F1 (sound) is this" in help_text  # a key of his that we keep


@run
async def test_a_next_player_pause_between_two_people(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", players=TWO))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((6, 6, 1)))
        g.refresh_all()
        await pilot.press(category_keys(get("tommys-crag"))["crag"])
        await settle(pilot)
        assert g.paused and g.table._game.state.current == 1  # Ann's score stays readable
        assert "Bob's turn" in str(g.query_one("#helpbar").render())
        await pilot.press("enter")
        await settle(pilot)
        assert not g.paused
    save_config(Config(variant="tommys-crag", players=TWO, next_player_pause=False,
                       sound=False))
    app = new_app(Launch(variant="tommys-crag", players=TWO))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True
        g.table.act(LOCAL, Roll((6, 6, 1)))
        g.table.act(LOCAL, ScoreBox("crag"))
        await settle(pilot)
        assert not g.paused and g.table._game.state.current == 1  # the option is off


@run
async def test_the_setup_offers_the_options_and_remembers_them(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert setup.query_one("#pause", Checkbox).value  # on by default
        assert not setup.query_one("#auto-roll", Checkbox).value
        setup.query_one("#pause", Checkbox).value = False
        setup.query_one("#auto-roll", Checkbox).value = True
        await pilot.press("f6")  # the top ten, from the setup
        await settle(pilot)
        assert isinstance(app.screen, TopTenScreen)
        assert "(no scores yet)" in str(app.screen.query_one("#topten").render())
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        game(pilot)
    cfg = load_config()
    assert not cfg.next_player_pause and cfg.auto_roll


@run
async def test_each_turn_can_start_with_a_roll(new_app: App) -> None:
    save_config(Config(variant="tommys-crag", players=[PlayerSpec("Ann")], auto_roll=True,
                       sound=False))
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        assert len(st.dice) == 3 and st.rolls == 1  # rolled without a key
        g.table.act(LOCAL, ScoreBox(st.placements()[0].category))
        await settle(pilot)
        assert len(st.dice) == 3 and st.turns_taken(0) == 1  # the next turn too


@run
async def test_f2_lets_the_computer_play_and_gives_the_turns_back(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("f2")
        await settle(pilot)
        st = g.table._game.state
        assert st.turns_taken(0) >= 1 or st.is_terminal()  # the computer played Ann's
        assert "demo" in str(g.query_one("#title").render())
        assert g.table._game.assisted_players == {0}  # her scores count as assisted
        await pilot.press("f2")
        await settle(pilot)
        if not st.is_terminal():
            turns = st.turns_taken(0)
            await settle(pilot)
            assert st.turns_taken(0) == turns  # Ann plays her own turns again
            await pilot.press("r")
            assert st.dice


@run
async def test_tommys_zero_is_none_when_there_is_no_tenth_die(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "1", "2", "0")
        assert g.table._game.state.chosen == frozenset()


@run
async def test_capital_command_letters_work_as_small_ones(new_app: App) -> None:
    """Caps Lock or Shift: R rolls, A S N choose (Tommy's A, S, N, as the help says), O
    opens Oops and Q asks to quit, as their small letters do (they said 'R: no box has
    this letter'); a capital box letter still scores (column 2 in a two-column game,
    Maxi Yatzy's O its own box)."""
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        await pilot.press("R")
        assert st.dice and st.rolls == 1
        await pilot.press("A")
        assert st.chosen == frozenset(range(3))
        await pilot.press("N")
        assert st.chosen == frozenset()
        await pilot.press("S")
        assert st.chosen == frozenset(i for i, v in enumerate(st.dice)
                                      if st.dice.count(v) == 1)
        await pilot.press("O")
        assert isinstance(app.screen, ChoiceDialog) or \
            messages(app)[-1].startswith("Nothing to undo")
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("escape")
        await pilot.press("Q")
        assert isinstance(app.screen, ChoiceDialog) and "Quit" in app.screen.title_text
        await pilot.press("escape")
        assert not any("no box has this letter" in m for m in messages(app))
    app = new_app(Launch(variant="ancient-yacht-double", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        await pilot.press("R", "E")  # Shift+letter: column 2
        rs = g.table.ruleset
        assert st.card(0).boxes[1][rs.index("ones")] is not None
        assert st.card(0).boxes[0][rs.index("ones")] is None
    app = new_app(Launch(variant="maxi-yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("R", "O")  # Maxi Yatzy's O: 5 of a Kind, not Oops
        rs = g.table.ruleset
        assert g.table._game.state.card(0).boxes[0][rs.index("five_of_a_kind")] is not None


@run
async def test_a_board_name_says_which_letter_to_press(new_app: App) -> None:
    """Tommy's Crag shows the original's board names beside the boxes (#D Thirteen), set
    apart from the box's letter; D (or d) says which letter to press instead of 'no box
    has this letter', which the screen seemed to contradict."""
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        lines = card_text(g.query_one(ScoreCard))
        assert any("v #D Thirteen" in " ".join(line.split()) for line in lines), lines
        await pilot.press("r", "D")
        said = messages(app)[-1]
        assert said.startswith("D is the original's board name of Thirteen: press v"), said
        await pilot.press("c")
        assert "board name of Crag: press g" in messages(app)[-1]
        await pilot.press("question_mark")
        await settle(pilot)
        help_text = " ".join(app.screen.text.split())
        assert "v Thirteen (the original's board D" in help_text
