"""The same words everywhere: a player's name as subject and possessive (second person
for the default name "You"), and one word and one sign for the points a player's
decisions lost (issue 22, item 16)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.engine import Player, Record, State
from yacht.render import possessive, verb
from yacht.rules import get
from yacht.session import category_keys
from yacht.session.table import Table
from yacht.strategy.analysis import Analysis, analyse
from yacht.strategy.base import RandomStrategy, make_player, play_turn
from yacht.tui.screens.analysis import analysis_text


def test_a_name_as_subject_and_possessive() -> None:
    assert verb("Ann", "is", "are") == "Ann is" and verb("You", "is", "are") == "You are"
    assert verb("you ", "keeps", "keep") == "you  keep"  # as typed, spoken to all the same
    assert possessive("Ann") == "Ann's" and possessive("Ann", start=True) == "Ann's"
    assert possessive("You") == "your" and possessive("You", start=True) == "Your"
    assert possessive("Youssef") == "Youssef's"


@pytest.fixture(scope="module")
def you_and_ann() -> Analysis:
    """Tommy's Crag: You play at random (many decisions lose points), Ann as the expert."""
    rs = get("tommys-crag")
    s = State(rs, [Player("You", "computer", "random"), Player("Ann", "computer", "expert")],
              rng=random.Random(3))
    players = [RandomStrategy(rs, 3), make_player(rs, "expert")]
    while not s.is_terminal():
        play_turn(s, players[s.current])
    return analyse(Record.from_state(s), win_games=0)


@pytest.mark.parametrize("where", ["command line", "terminal"])
def test_the_analysis_says_decisions_lost_points_and_speaks_to_you(
        you_and_ann: Analysis, where: str) -> None:
    a = you_and_ann
    you, ann = a.players
    assert you.mistakes > 3 and ann.mistakes == 0
    text = a.text() if where == "command line" else analysis_text(a, 78)
    flat = " ".join(text.split())
    assert "You's" not in text and "You keeps" not in text and "You is" not in text
    # how many decisions lost points, of how many, and how many points in all
    assert (f"{you.mistakes} of your {you.decisions} decisions lost points "
            f"({you.loss:.1f} points in all)") in flat, text
    assert f"Every one of Ann's {ann.decisions} decisions was as good as the expert's" in flat
    # one word and one sign for the points lost: "Loss", never signed; no "Skill"
    assert "skill" not in text.lower(), text
    assert "Loss" in text or "loss" in text
    assert f"-{you.loss:.1f}" not in text and f"{you.loss:.1f}" in text


def test_the_table_speaks_to_you_when_the_computer_plays_your_seat() -> None:
    t = Table.new(get("tommys-crag"), [Player("You", "computer", "expert")],
                  rng=random.Random(4), speed="instant")
    events: list[str] = []
    t.subscribe(lambda e: events.append(e.text))
    t.run_due(until=lambda: t.view().state.turns_taken(0) >= 4)
    said = [text for text in events if text.startswith("You ")]
    assert any(text.startswith("You keep ") for text in said), events
    assert not any(text.startswith(("You keeps", "You is ")) for text in said), said


def test_the_line_game_speaks_to_you(tmp_path: Path) -> None:
    letters = "".join(f"\n{k}\n" for k in category_keys(get("tommys-crag")).values())
    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), NO_COLOR="1")
    r = subprocess.run([sys.executable, "-m", "yacht", "play", "tommys-crag", "--players",
                        "You,Cpu=cpu:beginner", "--seed", "5", "--plain"], input=letters,
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "You score " in r.stdout and "Cpu scores " in r.stdout
    assert "You scores" not in r.stdout and "You's" not in r.stdout, r.stdout
