"""Widths in terminal cells, not characters: an emoji in a name takes two cells, and a
list laid out by characters wrapped (and pushed its last player out) or lost its columns."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from rich.cells import cell_len
from tui_helpers import game, run, settle

from yacht.session import Launch, PlayerSpec
from yacht.tui import YachtApp
from yacht.tui.widgets import Standings
from yacht.tui.widgets.standings import standing_lines

App = Callable[..., YachtApp]

#: 18 characters, 19 cells (the emoji takes two), markup shown as typed
WIDE = "Zoë 🎲 <b>[red]x[/]"
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", WIDE, "Hal"]


def snap_of(names: list[str], current: int = 0) -> dict[str, Any]:
    return {"players": [{"name": n, "total": 10 * i} for i, n in enumerate(names)],
            "current": current, "over": False, "winners": []}


def test_a_wide_name_keeps_its_line_in_the_width() -> None:
    for width in (19, 25, 31, 60):
        lines = standing_lines(snap_of(NAMES), width)
        assert all(cell_len(line.plain) <= width for line in lines), (width, lines)
        if width >= 31:  # room for every name and total on its line
            assert len(lines) == len(NAMES), lines
            assert lines[6].plain.endswith(" 60") and WIDE in lines[6].plain


def test_names_wrapped_by_cells_and_cut_when_the_lines_run_out() -> None:
    names = ["🎲" * 10, "Bartholomew-Maximili", "Ann"]
    lines = standing_lines(snap_of(names), 19)
    assert all(cell_len(line.plain) <= 19 for line in lines)
    assert "".join(x.plain for x in lines).count("🎲") == 10  # whole, over two lines
    short = standing_lines(snap_of(names), 19, room=4)
    assert len(short) == 4 and short[-1].plain.endswith(" 20")
    assert all(cell_len(line.plain) <= 19 for line in short)
    assert sum("…" in line.plain for line in short) == 1  # one name cut, the first whole


@run
async def test_a_wide_name_does_not_push_the_last_player_out(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=[PlayerSpec(n) for n in NAMES]))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        region = game(pilot).query_one(Standings).region
        assert region.height == len(NAMES)
        strips = app.screen._compositor.render_strips()
        lines = ["".join(seg.text for seg in strip) for strip in strips]
        shown = [line[region.x:region.x + region.width + 1]
                 for line in lines[region.y:region.bottom]]  # (+1: the emoji's cell)
        assert shown[-1].startswith(" 8 Hal") and WIDE in shown[6], shown
        assert shown[6].rstrip().endswith(" 0"), shown


def test_the_top_ten_keeps_its_columns_with_a_wide_name() -> None:
    from yacht.tui.screens.topten import top_ten_text

    day = datetime(2026, 1, 2, tzinfo=UTC)
    entries = [SimpleNamespace(rank=i + 1, name=n, score=300 - i, game_id=str(i), date=day,
                               dice_entered=False, ended_early=False)
               for i, n in enumerate(["Ann", "Zoë 🎲🎲", "Bartholomew"])]
    lines = top_ten_text(entries).plain.splitlines()
    ends = {cell_len(line[:line.index(str(e.score)) + 3]) for line, e in
            zip(lines[1:], entries, strict=True)}
    assert len(ends) == 1, lines  # the scores end in one column
    assert cell_len(lines[0][:lines[0].index("Score") + 5]) in ends


def test_the_analysis_table_keeps_its_columns_with_a_wide_name() -> None:
    from yacht.engine import Player, Record, State
    from yacht.rules import get
    from yacht.strategy.analysis import analyse
    from yacht.strategy.base import make_player, play_turn
    from yacht.tui.screens.analysis import analysis_text

    s = State(get("tommys-crag"), [Player("Ann", "computer", "beginner"),
                                   Player("Zoë 🎲🎲", "computer", "beginner")],
              rng=random.Random(3))
    beginner = make_player(s.ruleset, "beginner")
    while not s.is_terminal():
        play_turn(s, beginner)
    a = analyse(Record.from_state(s), win_games=50)
    lines = analysis_text(a, 78).splitlines()
    assert all(cell_len(line) <= 78 for line in lines)
    rows = [line for line in lines if line.startswith(("1 Ann", "2 Zoë"))]
    assert len(rows) == 2
    assert len({cell_len(row[:row.index(str(p.score)) + len(str(p.score))])
                for row, p in zip(rows, a.players, strict=True)}) == 1, rows


def test_the_modules_examples() -> None:
    import doctest

    import yacht.cells as cells
    import yacht.tui.widgets.newslog as newslog
    import yacht.tui.widgets.standings as standings

    for module in (cells, newslog, standings):
        result = doctest.testmod(module)
        assert result.attempted >= 2 and result.failed == 0, module


@run
async def test_the_title_measures_a_wide_name_in_cells(new_app: App) -> None:
    """Fifteen emoji (30 cells) on turn in 'Ancient Yacht Challenge, two columns' at 80
    columns: the title is too wide by its cells, not its characters, and the variant's
    name loses its part after the comma (the sound's mark was cut off instead)."""
    from textual.widgets import Static

    app = new_app(Launch(variant="ancient-yacht-10-double",
                         players=[PlayerSpec("🎲" * 15)]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        title = str(game(pilot).query_one("#title", Static).render())
        assert "two columns" not in title and title.rstrip().endswith("♪ off"), title
        assert cell_len(title.rstrip()) <= 80
