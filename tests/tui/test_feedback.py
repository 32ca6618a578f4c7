"""Feedback on every wait, keys that are not carried over, messages that replace each
other, words a person can read."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from textual import events
from textual.widgets import ProgressBar, Static
from tui_helpers import game, messages, run, settle

from yacht.engine import Roll, State
from yacht.rules import Ruleset
from yacht.session import Launch, PlayerSpec
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL
from yacht.strategy import RandomStrategy
from yacht.tui import YachtApp, make_app
from yacht.tui.screens.dialogs import ChoiceDialog, TextDialog

App = Callable[..., YachtApp]
CRAG = Launch(variant="tommys-crag", players=[PlayerSpec("Ann")])


class Slow(RandomStrategy):
    """A computer player that thinks until it is let go."""

    def __init__(self, rs: Ruleset, gate: threading.Event) -> None:
        super().__init__(rs, seed=1)
        self.gate = gate

    def decide(self, state: State) -> Any:
        assert self.gate.wait(60)
        return super().decide(state)


@run
async def test_a_long_wait_shows_what_and_a_progress_bar(store: Any) -> None:
    gate = threading.Event()
    app = make_app(Launch(variant="tommys-crag", players=[PlayerSpec("Max", "beginner")]),
                   store=store, strategy_factory=lambda level, rs: Slow(rs, gate),
                   rng=random.Random(1))
    app.config.speed, app.config.sound = "instant", False
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            busy = None
            for _ in range(600):  # the computer rolls, then thinks (and thinks...)
                await pilot.pause(0.01)
                screen = app.screen
                found = screen.query("#busy")
                if found and found.first().display:
                    busy = found.first()
                    break
            assert busy is not None, "no sign of the wait"
            what = str(app.screen.query_one("#busy-what", Static).render())
            assert what.startswith("Max is thinking"), what
            assert app.screen.query_one("#busy-bar", ProgressBar).display
            assert not app.screen.query_one("#helpbar").display
            gate.set()
            for _ in range(600):
                await pilot.pause(0.01)
                if not busy.display:
                    break
            assert not busy.display and app.screen.query_one("#helpbar").display
    finally:
        gate.set()


@run
async def test_keys_typed_before_the_turn_passed_are_not_carried_over(new_app: App) -> None:
    app = new_app(Launch(variant="tommys-crag",
                         players=[PlayerSpec("Ann"), PlayerSpec("Cpu", "beginner")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r")
        await settle(pilot)
        g.table.act(LOCAL, ScoreBox(g.table._game.state.placements()[0].category))
        await settle(pilot)
        assert g.paused
        await pilot.press("enter")  # the computer plays its turn; then Ann's turn
        await settle(pilot)
        st = g.table._game.state
        assert st.current == 0 and not st.dice
        # an r typed while the computer played, read only now: not Ann's first roll
        early = events.Key("r", "r")
        early.time = g.stage_at - 0.5
        app.post_message(early)
        await settle(pilot)
        assert not st.dice
        late = events.Key("r", "r")  # typed now: it rolls
        app.post_message(late)
        await settle(pilot)
        assert st.dice


@run
async def test_repeated_keys_replace_their_message(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "b", "b", "b")  # the bell on, off, on, off
        await pilot.pause()
        assert messages(app) == ["Sound off"]
        await pilot.press("r", "y", "y", "y")  # no box has y (Crag has no Yacht box)
        await pilot.pause()
        shown = messages(app)
        assert len(shown) == 1 and shown[0].startswith("y: no box has this letter")


@run
async def test_one_hint_window_at_a_time_in_values(new_app: App) -> None:
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((1, 1, 5)))
        g.refresh_all()
        await pilot.press("h", "enter", "h", "h")  # (the first asks first)
        for _ in range(200):
            await settle(pilot)
            if isinstance(app.screen, TextDialog):
                break
        await pilot.press("h")
        await settle(pilot)
        assert sum(isinstance(s, TextDialog) for s in app.screen_stack) == 1
        text = app.screen.text
        assert "roll again die" not in text and "roll again dice" not in text
        keeps = [line for line in text.splitlines() if "Keep" in line]
        assert all("and roll the other" in line for line in keeps), keeps


async def first_hint(pilot: Any) -> None:
    """Crag at 80x24: the dice 1 5 5 rolled, the game's first hint asked (and its
    question answered) and shown."""
    await settle(pilot)
    g = game(pilot)
    g.table.real_dice = True  # the test says what the dice show
    g.table.act(LOCAL, Roll((1, 5, 5)))
    g.refresh_all()
    await pilot.press("h", "enter")  # (the game's first hint asks first)
    for _ in range(200):
        await settle(pilot)
        if isinstance(pilot.app.screen, TextDialog):
            return


@run
async def test_the_hint_shows_the_best_to_win_when_it_differs(new_app: App,
                                                             monkeypatch: Any) -> None:
    from yacht.session.advice import Advice, Moves, WinAdvice
    from yacht.session.table import Table

    def hint(table: Table, seat: str = LOCAL, limit: int = 5) -> Moves:
        moves = Moves([Advice("Keep 5 5 and roll the other one", 30.5, 0.0, (0,)),
                       Advice("Score Crag for 50", 30.1, 0.4, (), "crag")])
        moves.to_win = WinAdvice("Best to win", "exact: the opponents have finished", True,
                                 True, ((moves[1], 0.625), (moves[0], 0.5)))
        return moves

    monkeypatch.setattr(Table, "hint", hint)
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await first_hint(pilot)
        text = app.screen.text
        assert "Best for your score\n1. Keep 5 5 and roll the other one" in text
        assert "Best to win (exact: the opponents have finished)\n" \
               "1. Score Crag for 50   (chance 62.5%)\n" in text


@run
async def test_both_rankings_fit_an_80x24_hint_window_unscrolled(new_app: App,
                                                                 monkeypatch: Any) -> None:
    """The longest hint: five moves for the score, five to win under Generala's long
    explanation, and the line that the game is now marked. At 80x24 the window scrolled
    (QA s21); in a short terminal the window now gives the text every line."""
    from textual.containers import VerticalScroll

    from yacht.session.advice import Advice, Moves, WinAdvice
    from yacht.session.table import Table

    how = ("exact if the opponents play on as the expert (this turn played to win, the "
           "expert's play after it); the chance of a served Generala, which ends the "
           "game, counted")

    def hint(table: Table, seat: str = LOCAL, limit: int = 5) -> Moves:
        moves = Moves(Advice("Keep 1 2 3 4 and roll the other one", 254.5 - i, float(i),
                             (4,)) for i in range(5))
        moves.to_win = WinAdvice("Best to win", how, True, True,
                                 tuple((m, 0.6 - i / 10) for i, m in enumerate(moves)))
        moves.marked = True
        return moves

    monkeypatch.setattr(Table, "hint", hint)
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await first_hint(pilot)
        assert isinstance(app.screen, TextDialog) and app.screen.has_class("-short")
        assert "This game is now marked assisted." in app.screen.text
        await settle(pilot)
        assert app.screen.query_one(VerticalScroll).max_scroll_y == 0


@run
async def test_the_hint_says_the_chance_to_win_of_the_same_best_move(new_app: App,
                                                                  monkeypatch: Any) -> None:
    """Against opponents the hint always says something of winning: when the best to win
    is the best for the score, its chance (the line game and the browser said it, the
    terminal said nothing); and only the game's first hint says it made the game
    assisted."""
    from yacht.session.advice import Moves, WinAdvice
    from yacht.session.table import Table

    real_hint = Table.hint

    def hint(table: Table, seat: str = LOCAL, limit: int = 5) -> Moves:
        moves = real_hint(table, seat, limit)  # (marks the game assisted)
        assert isinstance(moves, Moves)
        moves.to_win = WinAdvice("Best to win", "exact if the opponents play on as the "
                                 "expert", True, False, ((moves[0], 0.625),))
        return moves

    monkeypatch.setattr(Table, "hint", hint)
    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # the test says what the dice show
        g.table.act(LOCAL, Roll((1, 5, 5)))
        g.refresh_all()
        texts = []
        for keys in (("h", "enter"), ("h",)):  # (the game's first hint asks first)
            await pilot.press(*keys)
            for _ in range(200):
                await settle(pilot)
                if app.screen.name == "hint":
                    break
            texts.append(" ".join(app.screen.text.split()))  # (wrapped to the window)
            await pilot.press("escape")
            await settle(pilot)
        for text in texts:
            assert "Best to win: the same move, chance 62.5%; exact if the opponents " \
                   "play on as the expert" in text
        assert "This game is now marked assisted." in texts[0]
        assert "marked assisted" not in texts[1]


@run
async def test_quitting_names_the_command_that_resumes(new_app: App) -> None:
    app = new_app(CRAG)
    said: list[Any] = []
    real_exit = app.exit

    def exit_and_say(*args: Any, **kw: Any) -> None:
        said.append(kw.get("message"))
        real_exit(*args, **kw)

    app.exit = exit_and_say  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r")
        await settle(pilot)
        gid = g.table.view().game_id
        assert gid
        await pilot.press("q")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert f"yacht resume {gid}" in dialog.text
        await pilot.press("1")  # leave, keep it saved
        await settle(pilot)
    # after the full screen is gone, the terminal keeps the command
    assert app.return_value == 0
    assert said and f"`yacht resume {gid}`" in str(said[-1])


@run
async def test_an_enter_too_many_does_not_play_again(new_app: App) -> None:
    from tui_helpers import fast_forward

    from yacht.tui.screens.end import EndScreen

    app = new_app(CRAG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        fast_forward(g, leave=0)
        await pilot.press("enter")  # the results
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        early = events.Key("enter", "\r")  # typed before they were on the screen
        early.time = end.shown_at - 0.5
        app.post_message(early)
        await settle(pilot)
        assert app.screen is end  # not Play again
        await pilot.press("enter")  # on Play again, now
        await settle(pilot)
        assert app.screen is not end


@run
async def test_a_refusal_names_the_boxes_and_leaves_the_card_in_view(new_app: App) -> None:
    """A box that cannot take the dice: the message says the boxes' names (not their ids),
    and at 80x24 it covers no part of the card (the Grand total is the last row)."""
    from textual.widgets._toast import Toast

    from yacht.tui.widgets import ScoreCard

    app = new_app(Launch(variant="yahtzee", options={"joker": "forced"},
                         players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        g = game(pilot)
        g.table.real_dice = True  # (the test says what the dice show)
        g.table.act(LOCAL, Roll((6, 6, 6, 6, 6)), ScoreBox("yahtzee"), Roll((6, 6, 6, 6, 6)))
        g.refresh_all()  # a second Yahtzee of sixes: the joker rule wants Sixes
        await pilot.press("k")  # 3 of a Kind
        await settle(pilot)
        assert messages(app) == [
            "3 of a Kind cannot be scored now (open to these dice: Sixes)"]
        toast = app.screen.query_one(Toast)
        card = g.query_one(ScoreCard)
        assert toast.region.area > 0
        assert not toast.region.overlaps(card.region), (toast.region, card.region)
        assert "Grand total" in "\n".join(card_text(app))  # still on the screen


def card_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]
