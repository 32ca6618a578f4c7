"""Pilot tests: every flow of the terminal game, by keyboard and by mouse."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from textual.widgets import Button, Static
from tui_helpers import fast_forward, game, messages, run, settle

from yacht.engine import Roll
from yacht.rules import get
from yacht.session import Launch, PlayerSpec, category_keys, load_config
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.dialogs import ChoiceDialog, HelpScreen, TextDialog
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.game import GameScreen
from yacht.tui.screens.resume import ResumeScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.widgets import Choice, DiceRow, ScoreCard

App = Callable[..., YachtApp]
CRAG = Launch(variant="tommys-crag", players=[PlayerSpec("Ann")])
CRAG_KEYS = list(category_keys(get("tommys-crag")).values())


@run
async def test_setup_starts_the_chosen_game_and_remembers_it(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#variant", Choice).value = "ancient-yacht-10"
        await pilot.pause()
        # the variant's options appear: rolls for the 10 dice
        rolls = app.screen.query_one("#opt-rolls", Choice)
        rolls.value = "3"
        await pilot.click("#add")
        await pilot.pause()
        assert app.screen.count == 3
        await pilot.click("#start")
        await settle(pilot)
        g = game(pilot)
        assert g.table._game.ruleset.id == "ancient-yacht-10"
        assert g.table._game.ruleset.rolls == 3
        assert len(g.table._game.players) == 3
    cfg = load_config()
    assert cfg.variant == "ancient-yacht-10"
    assert cfg.options["ancient-yacht-10"] == {"rolls": "3"}
    assert len(cfg.players) == 3


@run
async def test_setup_keyboard_only_and_duplicate_names(new_app: App) -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.press("f3")  # one more player
        await pilot.pause()
        name = screen.query_one(f"#name-{screen.count - 1}")
        assert name.has_focus
        await pilot.press("ctrl+a", "ctrl+k", *"You")  # the same name as seat 1
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)  # refused, with a message, stays
        await pilot.press("ctrl+a", "ctrl+k", *"Zoe")
        await pilot.press("f2", "f5")  # demo on, start
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, (GameScreen, EndScreen))  # instant demo may be over
        assert screen.table._game.demo
        assert [p.name for p in screen.table._game.players][-1] == "Zoe"


@run
async def test_roll_choose_and_score_by_keyboard(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        await pilot.press("r")
        assert len(st.dice) == 3 and st.rolls == 1
        await pilot.press("1", "3")
        assert st.chosen == frozenset({0, 2})
        await pilot.press("3")
        assert st.chosen == frozenset({0})
        await pilot.press("a")
        assert st.chosen == frozenset({0, 1, 2})
        await pilot.press("n")
        assert st.chosen == frozenset()
        await pilot.press("r")  # nothing chosen: a message, no roll
        assert st.rolls == 1
        await pilot.press("2", "enter")  # focus is on the Roll button
        assert st.rolls == 2 and not st.may_reroll()
        dice = st.dice
        await pilot.press(category_keys(get("tommys-crag"))["thirteen"])  # by its letter
        assert st.card(0).boxes[0][get("tommys-crag").index("thirteen")] is not None
        assert st.turns_taken(0) == 1 and st.dice == ()
        # the last dice stay visible until the next roll
        shown = tuple(d.value for d in app.screen.query("Die"))
        assert shown == dice
        assert "Thirteen" in str(g.query_one("#log").render())


@run
async def test_tab_arrows_space_and_enter(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        dice_row = g.query_one(DiceRow)
        card = g.query_one(ScoreCard)
        await pilot.press("shift+tab")
        assert dice_row.has_focus
        await pilot.press("enter")  # Enter on the dice rolls
        assert st.rolls == 1
        await pilot.press("right", "space", "right", "space")
        assert st.chosen == frozenset({1, 2})
        await pilot.press("left", "space")
        assert st.chosen == frozenset({2})
        await pilot.press("tab", "tab")
        assert card.has_focus
        # down to Twos on Ann's card, then Enter scores it
        card.move_to("twos", 0, 0)
        await pilot.press("enter")
        assert st.turns_taken(0) == 1
        assert st.card(0).boxes[0][1] is not None


@run
async def test_mouse_only_turn(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        assert await pilot.click("#roll")
        assert st.rolls == 1
        await pilot.click("#die-1")
        assert st.chosen == frozenset({1})
        await pilot.click("#die-1")
        assert st.chosen == frozenset()
        await pilot.click("#die-0")
        await pilot.click("#roll")
        assert st.rolls == 2
        card = g.query_one(ScoreCard)
        # one click on Ann's Sixes box scores it
        row = next(r for (r, c), cell in card.cells.items()
                   if cell.category == "sixes" and cell.player == 0)
        col = next(c for (r, c), cell in card.cells.items()
                   if r == row and cell.player == 0)
        x = sum(card.columns[k].get_render_width(card) for k in list(card.columns)[:col]) + 2
        await pilot.click(ScoreCard, offset=(x, row + 1))
        assert st.turns_taken(0) == 1
        assert st.card(0).boxes[0][5] is not None


@run
async def test_both_oops(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        s = g.table._game
        await pilot.press("r", "1", "2", "o")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("1")  # give me back my dice
        assert s.state.chosen == frozenset()
        dice = s.state.dice
        await pilot.press("e")  # Ones
        assert s.state.turns_taken(0) == 1
        await pilot.press("o")
        await pilot.press("1")  # not possible now: stays open
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("2")  # I scored the wrong box
        assert s.state.turns_taken(0) == 0 and s.state.dice == dice
        assert isinstance(app.screen, type(g))
        await pilot.press("o")  # nothing to undo now: said, no menu
        assert app.screen is g and messages(app)[-1].startswith("Nothing to undo")


@run
async def test_oops_with_nothing_to_undo_says_why_without_a_menu(new_app: App) -> None:
    """Oops at the start of a game, and after the computer rolled: nothing to undo, said
    at once with the reasons (no menu of two impossible choices that then said only
    'that choice is not possible now'); with one undo possible, the other one's key says
    why it is not."""
    app = new_app(Launch(variant="yahtzee",
                         players=[PlayerSpec("Ann"), PlayerSpec("Cpu", "beginner")]))
    app.config.computer_pause = False
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("o")
        assert app.screen is g
        said = messages(app)[-1]
        assert said.startswith("Nothing to undo"), said
        assert "nothing has been scored yet" in said and "no roll yet" in said
        await pilot.press("r", "1", "o")  # a die held: it may be given back
        assert isinstance(app.screen, ChoiceDialog)
        assert "nothing has been scored yet" in app.screen.text
        await pilot.press("2")  # I scored the wrong box: not possible, and why
        assert isinstance(app.screen, ChoiceDialog)
        assert messages(app)[-1] == "No score to take back: nothing has been scored yet."
        await pilot.press("escape", "v")  # Ann scores Chance; the computer plays
        await settle(pilot)
        st = g.table.view().state
        assert st.current == 0 and st.turns_taken(1) == 1
        await pilot.press("o")
        assert app.screen is g
        said = messages(app)[-1]
        assert "the last score is Cpu's" in said and "no roll yet" in said, said


@run
async def test_computer_turn_step_by_step_after_the_pause(new_app: App) -> None:
    launch = Launch(variant="tommys-crag",
                    players=[PlayerSpec("Ann"), PlayerSpec("Cpu", "beginner")])
    app = new_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        s = g.table._game
        await pilot.press("r", "x")
        await settle(pilot)
        # the Next Player pause: the computer waits, Oops is still possible
        assert g.paused and s.is_computer_turn() and s.state.dice == ()
        assert str(g.query_one("#roll", Button).label) == "Next player"
        await pilot.press("1")  # a person's key does nothing to the computer's turn
        assert s.state.dice == ()
        await pilot.press("enter")
        await settle(pilot)
        assert s.state.current == 0 and s.state.turns_taken(1) == 1
        assert s.last_score is not None and s.last_score.player == 1
        # Ann's turn starts with no dice (the computer's are not hers): what it scored is
        # in the help line and the log
        assert tuple(d.value for d in g.query("Die")) == (0, 0, 0)
        assert str(g.query_one("#helpbar").render()).startswith("Cpu scored ")
        assert any("Cpu:" in m for m in g.messages)


@run
async def test_demo_plays_to_the_end(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", demo=True))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await settle(pilot)
            if isinstance(app.screen, EndScreen) and app.screen.query("#result"):
                break
        assert isinstance(app.screen, EndScreen)
        s = app.screen.table._game
        assert s.demo and s.is_over() and s.finished
        assert "wins" in str(app.screen.query_one("#result").render()) or \
            "tie" in str(app.screen.query_one("#result").render())


async def play_crag_to_the_end(pilot: Any) -> None:
    for key in CRAG_KEYS:
        await pilot.press("r", key)
    await settle(pilot)


@run
async def test_game_end_top_ten_and_play_again(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await play_crag_to_the_end(pilot)
        assert g.table._game.is_over() and g.paused
        await pilot.press("o", "2")  # the last scoring can still be taken back
        assert not g.table._game.is_over()
        await pilot.press(CRAG_KEYS[-1])
        await pilot.press("enter")
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        total = g.table._game.state.returns()[0]
        assert f"Ann scored {total}" in str(end.query_one("#result").render())
        assert "the expert's average of 149.8" in str(end.query_one(".comment").render())
        assert [e.name for e in end.new_entries] == ["Ann"]
        await pilot.press("t")  # the top ten on a page of its own
        await settle(pilot)
        page = str(app.screen.query_one("#topten").render()).splitlines()
        assert page[1].split()[:3] == ["1*", "Ann", str(total)], page
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is end
        await pilot.press("p")  # play again, same options
        await settle(pilot)
        again = game(pilot)
        assert again is not g and again.table._game.ruleset.id == "tommys-crag"
        assert again.table._game.state.turns_taken(0) == 0
        await pilot.press("q", "1")
    assert app.return_value == 0


@run
async def test_end_new_game_goes_to_setup(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        fast_forward(game(pilot))
        await pilot.press("r", CRAG_KEYS[-1], "enter")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)


@run
async def test_quit_saves_and_the_next_start_offers_resume(new_app: App, store: Any) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r", "e", "r", "t", "r")
        s = game(pilot).table._game
        key = s.state.position_key()
        await pilot.press("q")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")  # stay
        assert app.screen is game(pilot)
        await pilot.press("q", "1")
    assert [g.id for g in store.unfinished_games()] == [s.game_id]
    app2 = new_app(seed=9)
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app2.screen, ResumeScreen)
        await pilot.press("enter")
        await settle(pilot)
        back = game(pilot).table._game
        assert back.game_id == s.game_id and back.state.position_key() == key
        await pilot.press("f")  # and it goes on
        assert back.state.turns_taken(0) == 3


@run
async def test_resume_by_id_and_abandon(new_app: App, store: Any) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        gid = game(pilot).table._game.game_id
    app2 = new_app(Launch(resume=gid))
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert game(pilot).table._game.game_id == gid
        await pilot.press("escape")
        assert isinstance(app2.screen, ChoiceDialog)
        await pilot.press("2")  # leave and delete the game
        await settle(pilot)
        assert isinstance(app2.screen, SetupScreen)
    assert store.unfinished_games() == []
    app3 = new_app(Launch(resume="nosuchgame00"))
    async with app3.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app3.screen, SetupScreen)  # a message, then the setup


@run
async def test_hint(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("h")  # before the roll: a message only
        await settle(pilot)
        assert app.screen is g and not g.table._game.assisted
        await pilot.press("r", "h")
        await settle(pilot)
        # the game's first hint says first what it does to the game, and asks
        assert isinstance(app.screen, ChoiceDialog) and not g.table._game.assisted
        assert "marks the game assisted" in app.screen.text
        await pilot.press("enter")  # Show the hint
        for _ in range(100):
            await settle(pilot)
            if isinstance(app.screen, TextDialog) or not g.table._game.assisted:
                break
        assert isinstance(app.screen, TextDialog)
        assert "1. " in app.screen.text and "assisted" in app.screen.text
        assert g.table._game.assisted
        await pilot.press("escape")
        assert "assisted" in str(g.query_one("#title").render())


@run
async def test_help_shows_the_rules_and_keys(new_app: App) -> None:
    from yacht.rules import rules_text

    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        # the rules with the box names (their ids are for the commands, not shown here)
        assert rules_text(get("tommys-crag"), 64, ids=False) in app.screen.text
        assert "[thirteen]" not in app.screen.text
        assert "Shift+letter" in app.screen.text
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("enter")
        assert not isinstance(app.screen, HelpScreen)


@run
async def test_bell_toggles_and_rings(new_app: App) -> None:
    app = new_app(CRAG)
    rings: list[int] = []
    app.bell = lambda: rings.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        assert rings == []
        await pilot.press("b")
        assert app.config.sound
        await pilot.press("r" if game(pilot).table._game.state.chosen else "1", "r")
        assert len(rings) == 1
        await pilot.press("e")
        assert len(rings) == 2
    assert load_config().sound


@run
async def test_two_columns_shift_letter_scores_column_two(new_app: App) -> None:
    app = new_app(Launch(variant="ancient-yacht-double", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        s = game(pilot).table._game
        rs = s.ruleset
        letter = category_keys(rs)["choice"]
        await pilot.press("r", letter.upper())
        assert s.state.card(0).boxes[1][rs.index("choice")] is not None
        assert s.state.card(0).boxes[0][rs.index("choice")] is None
        await pilot.press("r", letter)  # column 1 is still open
        assert s.state.card(0).boxes[0][rs.index("choice")] is not None
        await pilot.press("r", letter)  # both full: a message, nothing changes
        assert s.state.turns_taken(0) == 2


@run
async def test_forced_first_turn_rolls_on_until_a_yacht(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-yacht", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        s = g.table._game
        await pilot.press("r")
        # keep rolling until a yacht: beyond the usual 3 rolls
        for _ in range(31):
            if not s.state.may_reroll():
                break
            await pilot.press("a", "r")
        assert s.state.rolls > 3 or not s.state.may_reroll()
        assert "of up to 32" in str(g.query_one("#rolls").render()) or \
            not s.state.may_reroll()
        await pilot.press("e")  # Ones may not take a first turn
        assert s.state.turns_taken(0) == 0
        await pilot.press("y")
        assert s.state.turns_taken(0) == 1


KEYS = ["r", "enter", "space", "tab", "shift+tab", "up", "down", "left", "right", "a", "s",
        "n", "1", "5", "0", "9", "e", "E", "x", "Y", "z", "o", "escape", "h", "b", "?",
        "f1", "pageup", "home", "end", "delete", "backspace", "ctrl+x", "@", "é"]


@run
async def test_no_key_crashes_in_any_state(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee",
                         players=[PlayerSpec("Ann"), PlayerSpec("Cpu", "expert")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        seen_states = set()
        for _ in range(2):
            for key in KEYS:
                await pilot.press(key)
                await settle(pilot)
                s = g.table._game.state
                seen_states.add((bool(s.dice), bool(s.chosen), g.paused,
                                 type(app.screen).__name__))
                if isinstance(app.screen, (ChoiceDialog, TextDialog)):
                    await pilot.press("escape")
                    await settle(pilot)
            if app.screen is not g:
                break
        assert app.is_running
        # the keys went through several states: before a roll, dice chosen, the pause, dialogs
        assert len(seen_states) >= 4, seen_states


@run
async def test_no_color_still_sets_chosen_dice_apart(new_app: App,
                                                     monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app(CRAG)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r", "2")
        dice = list(app.screen.query("Die"))
        marks = [str(d.render()).splitlines()[-1] for d in dice]
        assert "▲" in marks[1] and "▲" not in marks[0] and "▲" not in marks[2]


@run
async def test_setup_offers_saved_games_and_new_game(new_app: App, store: Any) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await pilot.press("q", "1")
    app2 = new_app()
    async with app2.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app2.screen, ResumeScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app2.screen, SetupScreen)
    assert len(store.unfinished_games()) == 1  # still there for later


@run
async def test_speed_keys(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag",
                         players=[PlayerSpec("Ann"), PlayerSpec("Cpu", "beginner")]),
                  speed="normal")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("minus")
        assert app.config.speed == "slow"
        await pilot.press("minus")
        assert app.config.speed == "slow"  # the slowest stays
        await pilot.press("plus", "plus", "plus", "plus")
        assert app.config.speed == "instant"
        assert "speed instant" in str(game(pilot).query_one("#title").render())
    assert load_config().speed == "instant"


FOUR = Launch(variant="ancient-yacht-10-double",
              players=[PlayerSpec(n) for n in ("Ann", "Bob", "Cyd", "Dan")])


@run
async def test_four_cards_of_ten_dice_stay_on_an_80_column_screen(new_app: App) -> None:
    app = new_app(FOUR)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        for turn in range(1, 4):  # Ann, Bob, Cyd score; the Next player pause, Enter
            await pilot.press("r", "g" if turn % 2 else "G")
            await settle(pilot)
            assert g.paused  # people share the screen: Ann's score stays readable
            await pilot.press("enter")
            await settle(pilot)
            await pilot.pause()
            me = g.table._game.state.current
            assert me == turn
            # every card on the screen: nothing scrolls away while another plays
            assert card.shown == (0, 1, 2, 3) and card.max_scroll_x == 0
            assert card.virtual_size.width <= card.scrollable_content_region.width
            assert card.cursor_coordinate.column == 2 + 2 * me
        # the one on turn comes first in the title line: a narrow terminal cuts the end
        title = str(g.query_one("#title", Static).render())
        assert title.lstrip().startswith("▶ Dan"), title


@run
async def test_many_players_get_small_dice_and_the_room_for_the_card(new_app: App) -> None:
    app = new_app(FOUR)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.pause()
        g = game(pilot)
        assert g.layout_name == "normal"  # four cards of two columns: no big dice
        assert g.query_one("#left").outer_size.width == 33
    app = new_app(CRAG)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.pause()
        g = game(pilot)
        assert g.layout_name == "big"  # one card: the big dice
        assert g.query_one("#left").outer_size.width == 62


@run
async def test_refusals_do_not_pile_up_over_the_card(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await pilot.press(*["r"] * 8)  # "choose the dice first", eight times quickly
        await pilot.pause()
        assert len(messages(app)) == 1


@run
async def test_singlets_with_none_to_choose_says_so(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((3, 3, 5, 5, 5)))
        g.refresh_all()
        await pilot.press("s")
        await pilot.pause()
        assert not g.table._game.state.chosen
        assert messages(app) == [
            "No unmatched die: every face shows at least twice"]


@run
async def test_a_preview_wider_than_the_name_is_not_cut(new_app: App) -> None:
    from yacht.engine import Choose

    app = new_app(Launch(variant="tommys-yacht", players=[PlayerSpec("Al")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        s = g.table._game
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((1, 2, 3, 4, 5)))
        g.refresh_all()
        await pilot.pause()
        while s.state.may_reroll():  # Tommy's Yacht: 32 rolls without a yacht
            g.table.act(LOCAL, Choose((0, 1, 2, 3, 4)), Roll((1, 2, 3, 4, 5)))
        g.refresh_all()
        await pilot.pause()
        card = g.query_one(ScoreCard)
        shown = card.get_cell("yacht", "p0c0")
        assert shown.plain == "(-95)"
        width = card.columns["p0c0"].get_render_width(card) - 2 * card.cell_padding
        assert width >= len("(-95)")


@run
async def test_one_click_on_a_box_is_one_selection(new_app: App) -> None:
    from tui_helpers import click_box

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann"),
                                                         PlayerSpec("Cpu", "beginner")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        selected: list[object] = []
        card = g.query_one(ScoreCard)
        orig = card.post_message

        def spy(message: Any) -> bool:
            if type(message).__name__ == "CellSelected":
                selected.append(message)
            return orig(message)

        card.post_message = spy  # type: ignore[method-assign]
        await pilot.click("#roll")
        cat = g.table._game.state.placements()[0].category
        await click_box(pilot, cat)
        await settle(pilot)
        assert len(selected) == 1
        assert g.paused  # the Next player pause holds: the computer waits for Enter
        assert g.table._game.state.current == 1 and not g.table._game.state.dice


@run
async def test_two_unfinished_games_are_told_apart(new_app: App, store: Any) -> None:
    """Two of Ann's Yahtzee games at the same turn, saved the same minute: the list of
    unfinished games shows each one's score and id."""
    from textual.widgets import OptionList

    from yacht.engine import Player
    from yacht.session.table import Table

    ids = []
    for dice in ((6, 6, 6, 1, 2), (1, 1, 2, 3, 5)):
        t = Table.new(get("yahtzee"), [Player("Ann")], store=store, rng=random.Random(1))
        t.real_dice = True  # (the test says what the dice show)
        t.act(LOCAL, Roll(dice), ScoreBox("chance"))
        ids.append(t.view().game_id)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        listing = app.screen.query_one(OptionList)
        lines = [str(listing.get_option_at_index(i).prompt) for i in range(2)]
        assert lines[0] != lines[1]
        for total, gid in ((21, ids[0]), (12, ids[1])):
            line = next(line for line in lines if str(gid) in line)
            assert f"Ann {total}" in line and "turn 2 of 13" in line, line
