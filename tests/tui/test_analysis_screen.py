"""The game's analysis from the end screen (a): loss, luck, accuracy, the costliest
decisions with their position, the charts; worked out off the screen's thread, with a
progress bar while it lasts."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import ProgressBar, Static
from tui_helpers import click_key, fast_forward, game, run, settle

from yacht.rules import get
from yacht.session import Launch, PlayerSpec
from yacht.tui import YachtApp
from yacht.tui.screens.analysis import AnalysisScreen, analysis_text, position_text
from yacht.tui.screens.end import EndScreen
from yacht.tui.widgets import KeyBar

App = Callable[..., YachtApp]
NAMES = ["Ann", "Bartholomew Bartolom"]   # (a name has at most 20 characters)


async def to_the_end(pilot: Pilot[Any]) -> EndScreen:
    await settle(pilot)
    fast_forward(game(pilot), leave=0)
    await pilot.press("enter")  # the results
    await settle(pilot)
    end = pilot.app.screen
    assert isinstance(end, EndScreen)
    return end


async def until(pilot: Pilot[Any], ok: Callable[[], bool], what: str,
                seconds: float = 300) -> None:
    """Wait for ``ok()`` (the analysis runs in a thread of its own: no fixed time)."""
    for _ in range(int(seconds / 0.05)):
        if ok():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"waited in vain for {what}")


def two_people(new_app: App) -> YachtApp:
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec(n) for n in NAMES]))
    app.config.next_player_pause = False
    return app


@run
async def test_a_shows_the_analysis_of_the_game(new_app: App) -> None:
    app = two_people(new_app)
    async with app.run_test(size=(80, 24)) as pilot:
        end = await to_the_end(pilot)
        assert any(key[2] == "analysis" for key in end.query_one(KeyBar).keys)  # said
        await pilot.press("a")
        page = app.screen
        assert isinstance(page, AnalysisScreen)
        await until(pilot, lambda: page.job.done, "the analysis")
        await pilot.pause()
        text = page.text
        assert page.job.error is None, page.job.error
        assert not page.query_one("#analysis-wait").display
        for word in ("Loss", "Luck", "Accuracy", "costliest", "Expected final score",
                     "Chance of winning", *NAMES):
            assert word in text, word
        assert all(len(line) <= 76 for line in text.splitlines())  # 80 columns
        a = page.job.result
        assert a is not None
        for p in a.players:  # the figures of the table, each player's own
            loss = f"{p.loss:.1f}"  # never signed
            luck = "0.0" if abs(p.luck) < 0.05 else f"{p.luck:+.1f}"
            assert f"{p.score:>5}  {loss:>6}  {luck:>6}" in text
        # the positions in box names, never ids
        assert "three_of_a_kind" not in text and "col2:" not in text
        body = page.query_one("#analysis-body")
        assert body.max_scroll_y > 0  # more than a screen: it scrolls
        await pilot.press("end")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is end
        await click_key(pilot, "analysis")  # again: shown at once, worked out once
        await pilot.pause()
        again = app.screen
        assert isinstance(again, AnalysisScreen) and again.job is page.job
        assert again.text == text


@run
async def test_the_wait_shows_a_progress_bar_and_a_failure_says_so(
        new_app: App, monkeypatch: Any) -> None:
    import yacht.session.review as review
    import yacht.strategy.analysis as analysis
    from yacht.engine import RecordError

    gate = threading.Event()

    def slow(record: Any, **kw: Any) -> Any:
        assert gate.wait(120)
        raise RecordError("this record does not replay")

    monkeypatch.setattr(analysis, "analyse", slow)
    monkeypatch.setattr(review, "analyse", slow)  # (what the page calls: analyse_game)
    app = two_people(new_app)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            end = await to_the_end(pilot)
            await pilot.press("a")
            page = app.screen
            assert isinstance(page, AnalysisScreen)
            await until(pilot, lambda: "Comparing every decision" in str(
                page.query_one("#analysis-what", Static).render()), "the wait's words")
            assert page.query_one("#analysis-wait").display
            assert page.query_one("#analysis-bar", ProgressBar).display
            await pilot.press("a")  # back, while it works
            await pilot.pause()
            assert app.screen is end
            await pilot.press("a")  # and there again: the same work, not a second one
            await pilot.pause()
            page = app.screen
            assert isinstance(page, AnalysisScreen) and page.job is end.analysis
            gate.set()
            await until(pilot, lambda: page.job.done, "the analysis")
            await until(pilot, lambda: not page.query_one("#analysis-wait").display,
                        "the page to show the end of the wait")
            assert "No analysis: this record does not replay" in page.text
    finally:
        gate.set()


@run
async def test_the_decisions_show_while_the_chances_are_worked_out(
        new_app: App, monkeypatch: Any) -> None:
    import yacht.session.review as review
    import yacht.strategy.analysis as analysis

    real = analysis.analyse
    gate = threading.Event()
    calls: list[int] = []

    def chances_later(record: Any, **kw: Any) -> Any:
        calls.append(kw.get("win_games", analysis.WIN_GAMES))
        if kw.get("win_games") != 0:
            assert gate.wait(120)
        return real(record, **kw)

    monkeypatch.setattr(analysis, "analyse", chances_later)
    monkeypatch.setattr(review, "analyse", chances_later)  # (the page: analyse_game)
    app = two_people(new_app)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_end(pilot)
            await pilot.press("a")
            page = app.screen
            assert isinstance(page, AnalysisScreen)
            await until(pilot, lambda: "Loss" in page.text, "the decisions")
            assert not page.job.done and page.job.partial
            assert "Chance of winning after each turn of the game: being worked out" \
                in page.text
            assert page.query_one("#analysis-wait").display  # the wait goes on, said
            assert "chances of winning" in str(
                page.query_one("#analysis-what", Static).render())
            gate.set()
            await until(pilot, lambda: page.job.done, "the chances")
            await until(pilot, lambda: "being worked out" not in page.text, "the chart")
            assert "exact if all play on as the expert" in " ".join(page.text.split())
            assert not page.query_one("#analysis-wait").display
            assert calls == [0, analysis.WIN_GAMES]
    finally:
        gate.set()


def test_the_text_keeps_names_whole_and_the_width() -> None:
    import random

    from yacht.engine import Player, Record, State
    from yacht.strategy.analysis import analyse
    from yacht.strategy.base import make_player, play_turn

    # a name longer than today's 20 characters, as an older version's record holds it
    long = "Wolfgang Amadeus Mozart the Third of Salzburg, Austria"
    old_player = Player.from_json({"name": long, "kind": "computer", "level": "beginner"})
    s = State(get("tommys-crag"), [Player("Ann", "computer", "beginner"), old_player],
              rng=random.Random(3))
    beginner = make_player(s.ruleset, "beginner")
    while not s.is_terminal():
        play_turn(s, beginner)
    a = analyse(Record.from_state(s), win_games=50)
    text = analysis_text(a, 60)
    assert all(len(line) <= 60 for line in text.splitlines())
    joined = " ".join(line.strip() for line in text.splitlines())
    assert long in joined  # whole, if wrapped
    assert "loss" in text and "luck" in text  # the players a few lines each
    assert "1 Ann" in text and "2 Wolfgang" in text


def test_positions_name_the_boxes() -> None:
    rs = get("ancient-yacht-double")
    assert position_text(rs, "ones=3,col2:choice=20,col2:yacht=0,extra=5") == \
        "column 1: Ones 3; column 2: Choice 20, Yacht 0; bonus points 5"
    assert position_text(rs, "") == "nothing yet"


def test_the_modules_examples() -> None:
    import doctest

    import yacht.tui.screens.analysis as module

    result = doctest.testmod(module)
    assert result.attempted >= 4 and result.failed == 0  # (the dice: yacht.render's)


@run
async def test_the_end_line_compares_with_the_expert_your_games_and_then_luck(
        new_app: App, store: Any) -> None:
    from yacht.engine import Player, Record, Roll, Score, State

    rs = get("tommys-crag")
    for dice in ((6, 6, 1), (1, 2, 4)):  # two earlier games of Ann's
        st = State(rs, [Player("Ann")])
        while not st.is_terminal():
            st.apply(Roll(dice))
            st.apply(Score(st.placements()[0].category))
        store.finish_game(store.start_game(Record.from_state(st)), st)
    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        end = await to_the_end(pilot)

        def said() -> str:
            return " ".join(str(end.query_one(".comment", Static).render()).split())

        text = said()
        assert "possible" not in text and "the expert's average of 149.8" in text, text
        assert ("Ann's 2 earlier games of Tommy's Crag" in text
                or "Ann's best game of Tommy's Crag so far (the 2 before it" in text), text
        assert "Luck" not in text  # not known before the analysis
        await pilot.press("a")
        page = app.screen
        assert isinstance(page, AnalysisScreen)
        await until(pilot, lambda: page.job.done, "the analysis")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is end
        a = page.job.result
        assert a is not None
        luck = f"{abs(a.players[0].luck):.1f}"
        assert f"Luck: the dice gave Ann {luck} points" in said(), said()
        assert f"Ann's decisions lost {a.players[0].loss:.1f}." in said()


def test_every_analysis_text_shows_coloured_dice_with_their_marks_and_the_accuracy_in_percent(
        ) -> None:
    """Kismet's dice in an analysis carry their colours' marks (``2◆``), as the table's do,
    in the terminal's page, `yacht analyse`'s text and the JSON the browser draws (one rule:
    yacht.render.dice_text); the accuracy is a percentage in every one of them."""
    from yacht.strategy.analysis import Analysis, DecisionAnalysis, Move, PlayerAnalysis
    from yacht.strategy.ranking import Ranked

    rs = get("kismet")
    keep = Ranked("keep", 290.0, 3.5, keep=(2, 5), reroll=(1, 3, 4))
    best = Ranked("keep", 293.5, 0.0, keep=(1, 1), reroll=(2, 3, 4))
    assert keep.describe(rs) == "keep 2◆ 5◆, roll the other three"
    decision = DecisionAnalysis(0, 1, 1, "11254 r2", (1, 1, 2, 5, 4), 2, "",
                                Move.of(keep, rs), Move.of(best, rs))
    player = PlayerAnalysis(0, "Ann", "person", None, True, 280, 280.0, 315.18, 31.5, 40, 9,
                            (decision,), (315.18, 280.0))
    a = Analysis(rs, True, True, 315.18, (player,), (decision,), (), None, 0)
    dice = "1● 1● 2◆ 5◆ 4■"
    terminal, command = analysis_text(a, 78), a.text(78)
    assert f"Turn 1, dice {dice}, 2 rolls left" in terminal
    assert f"turn 1, dice {dice}: 11254 r2" in command
    for text in (terminal, command):
        # ('keep 2◆ 5◆, roll 3' read as 'roll the 3' where a die showed 3)
        flat = " ".join(text.split())  # (a line may wrap in it)
        assert "played: keep 2◆ 5◆, roll the other three" in flat
        assert "expert: keep 1● 1●, roll the other three" in flat
        assert "90.0%" in text  # 100 x (315.18 - 31.5) / 315.18
    shown = a.to_json()
    assert shown["die_colours"] == ["black", "red", "green", "green", "red", "black"]
    assert shown["players"][0]["costliest"][0]["dice_text"] == dice
    assert shown["decisions"][0]["dice_text"] == dice
    assert shown["players"][0]["shown"] == {"loss": "31.5", "luck": "-3.7",
                                           "accuracy": "90.0%"}
    # plain dice stay plain
    plain = get("yatzy")
    assert keep.describe(plain) == "keep 2 5, roll the other three"
    assert Ranked("keep", 1.0, 0.0, reroll=(0, 1, 2, 3, 4)).describe(plain) == \
        "keep nothing, roll all five"
    assert shown["decisions"][0]["played"]["text"] == "keep 2◆ 5◆, roll the other three"


@run
async def test_a_game_the_demo_finished_is_not_the_persons_to_be_judged_by(
        new_app: App) -> None:
    """Ann plays two turns, then the demo (F2) plays her other eleven: the end screen does
    not praise or blame her for the score, the analysis leaves the computer's turns out
    of her decisions and says so, and the list apart the game went to says the computer
    played a person's turns (it named only the advisor and dice entered by hand)."""
    from yacht.tui.screens.topten import TopTenScreen

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        st = g.table._game.state
        for _ in range(2):
            await pilot.press("r")
            await settle(pilot)
            first = st.placements()[0]
            g.score(first.category, None)
            await settle(pilot)
        await pilot.press("f2")
        for _ in range(100):
            await settle(pilot)
            if isinstance(app.screen, EndScreen):
                break
            if g.table.view().over:
                await pilot.press("enter")
        end = app.screen
        assert isinstance(end, EndScreen)
        said = " ".join(str(end.query_one(".comment", Static).render()).split())
        assert "The computer played 11 of Ann's 13 turns" in said, said
        assert "expert's average" not in said
        await pilot.press("a")
        page = app.screen
        assert isinstance(page, AnalysisScreen)
        await until(pilot, lambda: page.job.done, "the analysis")
        text = " ".join(page.text.split())
        assert "The computer played 11 of Ann's 13 turns (left out here)" in text, text
        a = page.job.result
        assert a is not None and a.players[0].decisions <= 2 * 3  # her own two turns
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TopTenScreen)
        head = str(app.screen.query_one("#topten-head").render())
        assert "the computer played a person's turns" in head, head
