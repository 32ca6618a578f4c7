"""Text wrapped in the cells of a terminal, not in characters: a wide letter ("山田太郎")
or an emoji takes two cells, and render.wrap_text (the line game's every line), the
line game's box list and yacht replay's heading ran past the width with them (QA s25)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from yacht.cells import cell_len
from yacht.render import wrap_text

NAMES = ["山田太郎山田太郎山田太郎", "佐藤花子佐藤花子佐藤", "🎲鈴木一郎🎲"]


@pytest.mark.parametrize("width", [20, 31, 40, 78])
def test_wrap_text_keeps_every_line_within_the_width_in_cells(width: int) -> None:
    text = ("山田太郎 scored 32 in Chance and 50 in Yahtzee; 🎲🎲 佐藤花子 and Zoë 🎲 "
            "played on\n  山田太郎   roll the dice, or go on to the next player\n"
            "1. 山田太郎佐藤花子鈴木一郎山田太郎佐藤花子鈴木一郎 keeps 6 6   (expect 240.1)")
    out = wrap_text(text, width)
    assert all(cell_len(line) <= width for line in out.splitlines()), out
    assert out.split() == text.split() or width < 78  # (the words, in order, whole)
    assert "".join(out.split()) == "".join(text.split())  # (nothing lost where cut)


def test_wrap_text_hangs_a_wide_first_column_by_its_cells() -> None:
    assert wrap_text("  山田   roll the dice, or go on", 24).splitlines() == [
        "  山田   roll the dice,", "         or go on"]


def test_the_line_games_lines_with_wide_names_fit_its_width() -> None:
    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.plain.game import WIDTH
    from yacht.rules import get
    from yacht.session.table import Table

    t = Table.new(get("yahtzee"), [Player(n) for n in NAMES], rng=random.Random(1))
    out = io.StringIO()
    PlainGame(t, io.StringIO("\nh\nn\nq\n"), out).run()
    text = out.getvalue()
    lines = text.splitlines()
    welcome = lines.index(next(line for line in lines if line.startswith("Yahtzee. Players:")))
    assert all(cell_len(line) <= WIDTH for line in lines[welcome:welcome + 2]), text
    asked = [line for line in lines if "A hint marks the game assisted" in line]
    assert asked, text
    start = lines.index(asked[0])
    for line in [asked[0].split("? ", 1)[-1], lines[start + 1].split("(y/n)")[0] + "(y/n)"]:
        assert cell_len(line) <= WIDTH, text


def test_replay_s_heading_fits_the_width_in_cells(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from yacht.cli import main
    from yacht.engine import Player, Record, Roll, Score, State
    from yacht.rules import get

    s = State(get("yatzy"), [Player(n) for n in NAMES], rng=random.Random(3))
    s.apply(Roll())
    s.apply(Score("chance"))
    path = tmp_path / "game.json"
    Record.from_state(s).save(path)
    monkeypatch.setenv("COLUMNS", "50")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    heading = out.split("\n\n")[0].splitlines()
    assert heading[0].startswith("Yatzy. Players:"), out
    assert all(cell_len(line) <= 48 for line in heading[:3]), out
    turn = [line for line in out.splitlines() if line.startswith("Turn 1 - ")]
    assert turn and cell_len(turn[0]) <= 48, out  # (the turn's line too)


@pytest.mark.parametrize("width", [64, 70, 78])
def test_a_command_to_type_is_not_broken_where_it_fits_a_line(width: int) -> None:
    """A command with a quoted path (command_line quotes a path with blanks) broken at
    its blank was copied from two lines with a line break in the path."""
    command = "yacht play --plain --resume 1ab3af1a2d7d --db 'my games.db'"
    out = wrap_text(f"Game saved. `{command}` continues it, and the score is entered "
                    "then.", width)
    assert any(f"`{command}`" in line for line in out.splitlines()), out
    assert all(cell_len(line) <= width for line in out.splitlines()), out
