"""Found trying the terminal game as a new user (QA s25)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tui_helpers import click_key, run, settle, until

from yacht.tui import YachtApp
from yacht.tui.widgets import KeyBar
from yacht.tui.widgets.cells import cell_len

App = Callable[..., YachtApp]


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


@run
async def test_the_setup_at_45_columns_shows_every_key_on_two_lines(new_app: App) -> None:
    """At 45 columns the setup's key bar left out F3 (+ Player), F4 (- Player) and F6
    (Top ten) behind a '…', and its help is the rules: a player could not learn them
    (the buttons there say '+ Player' alone). The bar takes a second line when one is
    not enough; a click on a key of the second line does what the key does; at 80
    columns it is one line as before."""
    from yacht.tui.screens.setup import SetupScreen
    from yacht.tui.screens.topten import TopTenScreen

    app = new_app()
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        bar = app.screen.query_one(KeyBar)
        assert bar.region.height == 2 and bar.region.bottom == 14
        bottom = "\n".join(screen_text(app)[-2:])
        for words in ("F5 Start", "F2 Demo", "F3 + Player", "F4 - Player", "F1 Rules",
                      "F6 Top ten"):
            assert words in bottom, bottom
        assert "…" not in bottom
        assert all(line.rstrip() == line.rstrip()[:45] for line in screen_text(app))
        await click_key(pilot, "top_ten")  # (on the second line)
        await until(pilot, lambda: isinstance(app.screen, TopTenScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        assert bar.region.height == 1 and bar.region.bottom == 24
        assert "F6 Top ten" in screen_text(app)[-1]


def test_a_long_name_in_the_news_is_cut_before_the_news_is() -> None:
    """The log beside the players showed a message of a player with a long name as the
    name alone ('漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢…'): the name is cut, the news kept."""
    from yacht.tui.widgets.newslog import news_lines

    wide = "漢" * 20
    assert news_lines([f"{wide}: Chance for 12"], 31, 1, [wide, "Dan"]) == [
        "漢漢漢漢漢漢漢…: Chance for 12"]
    # (a name cut only when the message does not fit; another message as before)
    assert news_lines([f"{wide}: Chance for 12"], 31, 2, [wide]) == [
        "漢" * 15, "漢漢漢漢漢: Chance for 12"]
    assert news_lines(["Dan keeps 4 5 3 and more"], 10, 1, [wide]) == ["Dan keeps…"]


@run
async def test_the_game_screen_logs_a_wide_name_s_score_with_its_points(new_app: App) -> None:
    from yacht.session import Launch, PlayerSpec

    wide = "漢" * 20
    app = new_app(Launch(variant="yatzy", players=[
        PlayerSpec(wide), PlayerSpec("字" * 20, "expert"), PlayerSpec("😀" * 20),
        PlayerSpec("Dan", "expert")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("v")  # (Chance)
        await settle(pilot)
        log = app.screen.query_one("#log")
        lines = screen_text(app)[log.region.y:log.region.bottom]
        assert log.region.height == 2, lines  # (a blank line, one of news)
        assert any("…: Chance for" in line[:log.region.right] for line in lines), lines


class Waiting:
    """An analysis that is still working out the chances of winning (it never ends)."""

    @staticmethod
    def job() -> Any:
        import time

        from yacht.tui.screens.analysis import AnalysisJob, Progress

        class Job(AnalysisJob):
            def start(self) -> None:
                self.started = time.monotonic() - 9

        job = Job(None)  # type: ignore[arg-type]
        job.progress = Progress("Working out the chances of winning (the rest is below)",
                                3, 40)
        return job


@run
async def test_the_analysis_wait_says_its_words_whole_in_a_narrow_window(new_app: App
                                                                          ) -> None:
    """At 45 columns the words beside the analysis' progress bar were cut to 'Working
    out the / chances of' (two lines of 17 cells): they go under the bar, whole, when
    they do not fit beside it; at 80 columns they stay beside it."""
    from yacht.tui.screens.analysis import AnalysisScreen

    app = new_app()
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        page = AnalysisScreen("Yatzy", Waiting.job())
        await app.push_screen(page)
        await pilot.pause()
        await pilot.pause()
        said = " ".join(line.strip() for line in screen_text(app)[1:6])
        # (the seconds go on: a loaded machine may say 10 s)
        assert re.search(r"Working out the chances of winning \(the rest is below\)… "
                         r"\(\d+ s\)", said), said
        what = page.query_one("#analysis-what")
        assert what.region.right <= 45 and what.region.y > page.query_one(
            "#analysis-bar").region.y
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        wait = page.query_one("#analysis-wait")
        assert wait.region.height == 2 and what.region.y == wait.region.y
        said = " ".join(line.strip() for line in screen_text(app)[1:3])
        assert re.search(r"chances of winning \(the rest is below\)… \(\d+ s\)", said), said


@run
async def test_a_player_added_at_45x14_shows_the_name_field_that_has_the_focus(
        new_app: App) -> None:
    """F3 at 45x14 gave the focus to the new player's name below the window (the form
    stayed at its top): the name typed next went where no one saw it. The new row is
    brought into view."""
    from textual.containers import VerticalScroll
    from textual.widgets import Input

    app = new_app()
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        await pilot.pause()
        name = app.focused
        assert isinstance(name, Input) and name.id == "name-2", name
        form = app.screen.query_one("#setup", VerticalScroll)
        assert form.region.contains_region(name.region), (name.region, form.region)
        await pilot.press("Z", "e", "d")
        await settle(pilot)
        assert any("3. Zed" in line for line in screen_text(app)), screen_text(app)


def test_the_players_list_says_how_to_see_the_other_cards_in_its_width() -> None:
    """At 45x14 the end screen's list of players (15 columns) said '(< > the' and no
    more: '(< > the others)' was wrapped in a line of its own height. Its words fit the
    list's width."""
    from yacht.tui.widgets.standings import standing_lines

    snap = {"players": [{"name": n, "total": 10} for n in ("Ann", "Bob", "Cleo")],
            "current": 0, "over": True, "winners": [0]}
    for width in (8, 12, 15, 16, 40):
        lines = [line.plain for line in standing_lines(snap, width, shown=[0])]
        assert all(cell_len(line) <= width for line in lines), (width, lines)
        assert lines[-1].startswith("(< >") or width < 12, lines
    assert standing_lines(snap, 15, shown=[0])[-1].plain == "(< > others)"
    assert standing_lines(snap, 40, shown=[0])[-1].plain == "(< > shows 2, 3)"


@run
async def test_the_end_screen_s_title_says_game_over_at_45_columns(new_app: App) -> None:
    """At 45x14 the end of a two-column game was titled 'Ancient Yacht Challenge, two
    columns - game' ('over' cut off); the title drops what comes after the name's comma
    when it must, as the table's does, and has it back in a wider window."""
    from tui_helpers import game, play_out

    from yacht.session import Launch, PlayerSpec
    from yacht.tui.screens.end import EndScreen

    app = new_app(Launch(variant="ancient-yacht-10-double", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        play_out(game(pilot))
        await settle(pilot)
        await pilot.press("enter")  # (the results, after the game over's pause)
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.pause()
        whole = " Ancient Yacht Challenge, two columns - game over"
        assert screen_text(app)[0].rstrip() == whole
        await pilot.resize_terminal(45, 14)
        await settle(pilot)
        await pilot.pause()
        assert screen_text(app)[0].rstrip() == " Ancient Yacht Challenge - game over"
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.pause()
        assert screen_text(app)[0].rstrip() == whole


@run
async def test_the_table_s_title_cuts_a_wide_name_not_the_turn(new_app: App) -> None:
    """At 45 columns the title of a player named with 20 wide letters was '▶ 漢漢…漢 -':
    the turn cut off. The name is cut ('…'), the turn said; 80 columns show it whole."""
    from yacht.session import Launch, PlayerSpec

    wide = "漢" * 20
    app = new_app(Launch(variant="yatzy", players=[PlayerSpec(wide), PlayerSpec("Bob")]))
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        title = screen_text(app)[0]
        assert title.startswith(" ▶ 漢漢") and "… - turn 1" in title, title
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await pilot.pause()
        assert screen_text(app)[0].startswith(f" ▶ {wide} - turn 1   Yatzy")


@run
async def test_a_saved_game_s_line_wraps_under_itself_in_the_list(new_app: App,
                                                                  store: Any) -> None:
    """The list of unfinished games wrapped a long line at the list's left edge, where
    the ids are: 'Yahtzee, turn 1 of 13: You 16, Computer' and '0' under the ids, as if
    it were another entry. The lines after the first are indented, at 80 and 45
    columns."""
    import random

    from textual.widgets import OptionList

    from yacht.engine import Player, Roll
    from yacht.rules import get
    from yacht.session import ScoreBox
    from yacht.session.table import LOCAL, Table
    from yacht.tui.screens.resume import ResumeScreen

    names = ["Bartholomew-Maximili", "Cleopatra-Ann-Marie", "Alexandros-Kostas", "Ann"]
    t = Table.new(get("yatzy"), [Player(n) for n in names], store=store,
                  rng=random.Random(1))
    t.act(LOCAL, Roll(), ScoreBox("chance"))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        for size in ((80, 24), (45, 14)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            await pilot.pause()
            listing = app.screen.query_one(OptionList)
            lines = str(listing.get_option_at_index(0).prompt).split("\n")
            room = listing.scrollable_content_region.width - 2
            assert len(lines) > 1 and lines[0].startswith(str(t.view().game_id)), lines
            assert all(line.startswith("  ") and not line[2:3].isspace()
                       for line in lines[1:]), lines
            assert all(cell_len(line) <= room for line in lines), (room, lines)
            assert "Bartholomew-Maximili" in "\n".join(lines)  # (a name kept whole)


@run
async def test_the_top_ten_and_analysis_titles_fit_45_columns(new_app: App) -> None:
    """At 45 columns the top ten of a two-column game was titled 'Top ten - Ancient
    Yacht Challenge, two colum' (the analysis 'Analysis - Ancient Yacht Challenge, two
    colu'); the name's part after its comma goes first, back in a wider window."""
    from yacht.tui.screens.analysis import AnalysisScreen
    from yacht.tui.screens.topten import TopTenScreen

    name = "Ancient Yacht Challenge, two columns"
    app = new_app()
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        await app.push_screen(TopTenScreen(name, None))
        await pilot.pause()
        assert screen_text(app)[0].rstrip() == " Top ten - Ancient Yacht Challenge"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert screen_text(app)[0].rstrip() == f" Top ten - {name}"
        app.pop_screen()
        await pilot.resize_terminal(45, 14)
        await pilot.pause()
        await app.push_screen(AnalysisScreen(name, Waiting.job()))
        await pilot.pause()
        assert screen_text(app)[0].rstrip() == " Analysis - Ancient Yacht Challenge"


def test_the_top_ten_cuts_long_names_to_the_width_of_a_narrow_window() -> None:
    """At 45 columns a top ten with a name of 20 wide letters broke each line in three
    ('1*' / the name / '66  2026-12-07') and its heading in two: a name is cut to the
    page's width (whole where it fits)."""
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from yacht.tui.screens.topten import top_ten_text

    wide = "漢" * 20
    entries = [SimpleNamespace(game_id="g1", name=wide, score=66, rank=1,
                               date=datetime(2026, 12, 7, tzinfo=UTC),
                               dice_entered=False, ended_early=False),
               SimpleNamespace(game_id="g2", name="Bob", score=37, rank=2,
                               date=datetime(2026, 12, 7, tzinfo=UTC),
                               dice_entered=False, ended_early=False)]
    lines = top_ten_text(entries, width=41).plain.split("\n")
    assert len(lines) == 3 and all(cell_len(line) <= 41 for line in lines), lines
    assert "漢…" in lines[1] and lines[1].rstrip().endswith("66  2026-12-07"), lines
    whole = top_ten_text(entries, width=76).plain.split("\n")
    assert wide in whole[1] and all(cell_len(line) <= 76 for line in whole)


@run
async def test_the_results_are_a_key_away_in_a_window_too_small_for_the_table(
        new_app: App) -> None:
    """A 10-dice game over at 45x14 (its table needs 52x15) said 'Terminal too small'
    and refused Enter ('The table is not shown: make the window bigger first'), though
    the results fit the window: Enter (or r) shows them, and the screen says so."""
    from tui_helpers import game, play_out

    from yacht.session import Launch, PlayerSpec
    from yacht.tui.screens.end import EndScreen

    app = new_app(Launch(variant="ancient-yacht-10-double", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        play_out(game(pilot))
        await settle(pilot)
        await pilot.resize_terminal(45, 14)
        await settle(pilot)
        await pilot.pause()
        said = " ".join(line.strip() for line in screen_text(app))
        assert "Terminal too small" in said and "Enter shows the results" in said, said
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))


@run
async def test_f3_with_eight_players_and_f4_with_one_say_why_nothing_changes(
        new_app: App) -> None:
    """F3 with eight players and F4 with one did nothing and said nothing (the key bar
    offers both whatever the count): each says why."""
    from tui_helpers import messages

    from yacht.session import Config, PlayerSpec, save_config
    from yacht.tui.screens.setup import SetupScreen

    save_config(Config(variant="yatzy", players=[PlayerSpec("Ann")]))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen) and screen.count == 1
        await pilot.press("f4")
        await settle(pilot)
        assert screen.count == 1
        assert any("needs a player" in m for m in messages(app)), messages(app)
        for _ in range(7):
            await pilot.press("f3")
            await settle(pilot)
        assert screen.count == 8
        await pilot.press("f3")
        await settle(pilot)
        assert screen.count == 8
        assert any("8 players at most" in m for m in messages(app)), messages(app)


@run
async def test_a_refusal_is_said_as_a_sentence(new_app: App) -> None:
    """'a' before the first roll said 'roll first: there are no dice to hold' (the
    table's words, made to follow 'Not now: '), a message starting in lower case; it
    starts with a capital, a name at its start kept as typed."""
    from tui_helpers import messages

    from yacht.session import Launch, PlayerSpec

    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        said = messages(app)
        assert said and all(m[:1].isupper() for m in said), said
        assert any(m.startswith("Roll first: there are no dice") for m in said), said


@run
async def test_hint_and_demo_at_the_game_s_end_say_the_game_is_over(new_app: App) -> None:
    """At the game-over pause h said 'A hint is for your own turn' (no turn was left)
    and F2 did nothing and said nothing, both keys still in the bar: each says the game
    is over."""
    from tui_helpers import game, messages, play_out

    from yacht.session import Launch, PlayerSpec

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        play_out(game(pilot))
        await settle(pilot)
        assert game(pilot).table.view().over
        await pilot.press("h")
        await settle(pilot)
        assert any(m.startswith("The game is over: no turn") for m in messages(app)), \
            messages(app)
        app.clear_notifications()
        await pilot.press("f2")
        await settle(pilot)
        assert any(m.startswith("The game is over: the demo") for m in messages(app)), \
            messages(app)


@run
async def test_no_hint_is_said_as_the_line_game_says_it(new_app: App) -> None:
    """'No hint: roll first: the advice is about the dice showing' (two colons): the
    terminal game says why there is no hint in the line game's sentence (one function,
    session.present.no_hint_text), a reason with a colon of its own after 'No hint.'."""
    from tui_helpers import game, messages

    from yacht.session import Launch, PlayerSpec

    app = new_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        g._show_hint(None, "roll first: the advice is about the dice showing")
        g._show_hint(None, "the advisor is not available in this installation")
        await pilot.pause()
        said = messages(app)
        assert "No hint. Roll first: the advice is about the dice showing." in said, said
        assert "No hint: the advisor is not available in this installation." in said, said


@run
async def test_an_older_database_upgraded_as_the_game_opens_it_is_said(isolated: Any) -> None:
    """An older SQLite file was upgraded and copied aside (FILE.bak-REVISION) without a
    word in the terminal game (`yacht web` and `yacht resume` said so): a notice says it
    (session.opening.upgrade_note, the line game's words)."""
    import sys
    from pathlib import Path

    from tui_helpers import messages

    from yacht.session import Launch, PlayerSpec
    from yacht.tui import make_app

    sys.path.insert(0, str(Path(__file__).parents[1] / "store"))
    from store_helpers import OLD_GAME, database_at

    path = isolated / "db.sqlite3"  # (the fixture's $YACHT_DB)
    database_at(str(path), "yacht_0001", OLD_GAME)
    app = make_app(Launch(variant="yatzy", players=[PlayerSpec("Ann")]))
    app.config.sound = False
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.store_ready)
        await settle(pilot)
        assert app.store is not None, app.store_problem
        note = (f"{path} is upgraded for this version of yacht; the file as it was is kept "
                f"as {path}.bak-yacht_0001")
        assert note in messages(app), messages(app)
