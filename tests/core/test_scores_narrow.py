"""QA, the commands as a new user meets them: `yacht scores` wrote each entry of a top
ten on one line of 63 columns and more (a note after it), whatever the terminal's width;
below that it went past the edge. Where the lines do not fit, each entry's date and game
go under its name."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Player, Record, Roll, Score, State, random_turn
from yacht.rules import get
from yacht.store import open_store

NAMES = ("Zoë Aaronson-Barthol", "Ann", "Maximilian Featherst")


def saved(db: Path) -> None:
    """Three finished Yahtzee games of long names, and a Generala Ann won at once."""
    with open_store(str(db)) as store:
        for i, name in enumerate(NAMES):
            s = State(get("yahtzee"), [Player(name)], rng=random.Random(i))
            rng = random.Random(i)
            while not s.is_terminal():
                random_turn(s, rng)
            store.finish_game(store.start_game(Record.from_state(s)), s)
        s = State(get("generala"), [Player(NAMES[0]), Player("Bob")], rng=random.Random(1))
        for roll, box in (((2, 2, 3, 3, 3), "full"), ((1, 2, 4, 5, 6), "ones")):
            s.apply(Roll(roll))
            s.apply(Score(box))
        s.apply(Roll((4, 4, 4, 4, 4)))       # a served Generala: the game is over
        assert s.is_terminal() and s.ended_by == 0
        store.finish_game(store.start_game(Record.from_state(s)), s)


def scores(db: Path, columns: int, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["scores", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


@pytest.mark.parametrize("columns", [40, 50, 60])
def test_scores_fit_a_narrow_terminal(columns: int, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    saved(db)
    lines = scores(db, columns, monkeypatch, capsys)
    assert all(len(line) <= columns - 2 for line in lines), "\n".join(lines)
    text = "\n".join(lines)
    # nothing is cut: every name whole, each game's id, the note whole
    for name in NAMES:
        assert name in text
    assert text.count(" game ") == 4
    # (Generala's top ten comes first: Zoë alone, won at once)
    at = lines.index("Generala") + 1
    assert lines[at].startswith("   1. Zoë")
    assert lines[at + 1].startswith("      ") and " game " in lines[at + 1]
    assert "(won at once)" in lines[at + 1] + lines[at + 2]


def test_scores_stay_one_line_an_entry_where_they_fit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    saved(db)
    lines = scores(db, 100, monkeypatch, capsys)
    entries = [line for line in lines if line[:6].strip().rstrip(".").isdigit()]
    assert len(entries) == 4 and all(" game " in line for line in entries)
    assert any(line.endswith(" (won at once)") for line in entries)


def test_stats_of_dice_entered_fit_where_the_table_does_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht stats` set its table when the head fitted the width: a row's note after it
    ("dice entered") went 15 columns past the edge of a terminal of 64-78 columns."""
    db = tmp_path / "games.sqlite3"
    s = State(get("tommys-crag"), [Player(NAMES[2])], seed=bytes(range(32)))
    while not s.is_terminal():
        entered = s.turns_taken(0) == 3
        s.apply(Roll((6, 6, 1), entered=True) if entered else Roll())
        s.apply(Score(s.placements()[0].category))
    with open_store(str(db)) as store:
        store.finish_game(store.start_game(Record.from_state(s), seed=s.seed), s)
    for columns in (50, 70, 100):
        monkeypatch.setenv("COLUMNS", str(columns))
        assert main(["stats", "--db", str(db)]) == 0
        out = capsys.readouterr().out
        assert all(len(line) <= columns for line in out.splitlines()), out
        assert f"{NAMES[2]} " in out and "(dice entered)" in out
        assert ("player" in out) is (columns == 100)   # the table where it fits
