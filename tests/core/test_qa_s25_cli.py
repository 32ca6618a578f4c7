"""The `yacht` commands as a new user meets them (session 25)."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.cli import main


def test_every_public_name_of_the_clis_common_module_is_exported() -> None:
    # (say_building, used by the commands that build an expert's table, was missing)
    from yacht.cli import common

    own = {name for name, obj in vars(common).items()
           if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
           and obj.__module__ == common.__name__}
    assert "say_building" in own
    assert own <= set(common.__all__), own - set(common.__all__)


def test_advise_refuses_a_target_the_card_can_no_longer_reach(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The target was checked against the variant's highest total (Tommy's Crag: 244)
    only: with seven boxes at 0 the card can end with 131 at most, and 200 was ranked at
    a chance of 0.00% for every action."""
    card = "135 r1 ones=0,twos=0,threes=0,fours=0,fives=0,sixes=0,crag=0"
    assert main(["advise", "tommys-crag", card, "--target", "132"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "target 132 cannot be reached from this card: its game ends with at most 131 " \
           "(accepted: 0-131)" in err
    # the highest itself is a target with a chance, ranked as before
    assert main(["advise", "tommys-crag", card, "--target", "131"]) == 0
    out, _ = capsys.readouterr()
    assert "best to reach 131: score Odd Straight for 20" in " ".join(out.split())


def test_the_bound_of_a_card_is_never_below_what_a_game_from_it_can_score() -> None:
    # every box left at its best, from a card of boxes at 0 and at their best
    from yacht.cli.commands.advise import most_from
    from yacht.parsing import parse_card
    from yacht.rules import get

    rs = get("yatzy")
    assert most_from(rs, rs.new_card()) == 374
    # the upper bonus out of reach (50 less), and Ones to Fours at 0, not at 5+10+15+20
    assert most_from(rs, parse_card(rs, "ones=0,twos=0,threes=0,fours=0")) == 374 - 50 - 50
    assert most_from(rs, parse_card(rs, "yatzy=50,chance=30")) == 374
    assert most_from(get("tommys-yahtzee"), get("tommys-yahtzee").new_card()) is None


def _ends(lines: list[str], values: dict[str, str]) -> set[int]:
    """The terminal cell where each name's value ends, from the line naming it."""
    from yacht.cells import cell_len

    ends = set()
    for name, value in values.items():
        line = next(x for x in lines if name in x)
        head = line[:line.index(name) + len(name)]
        rest = line[len(head):]
        ends.add(cell_len(head) + rest.index(value) + len(value))
    return ends


def test_scores_and_stats_line_up_wide_names() -> None:
    """`yacht scores` and `yacht stats` padded names by characters: '山田太郎' (8 cells)
    and 'Zoë 🎲🎲' (7) pushed their rows' figures right of the others'."""
    from types import SimpleNamespace

    from yacht.cli.commands.store import _entries_text, _stats_text

    entries = [{"rank": i + 1, "name": n, "score": s, "date": "2026-12-06",
                "game_id": f"{i}" * 12, "dice_entered": False, "ended_early": False}
               for i, (n, s) in enumerate([("山田太郎", 240), ("Bob", 230), ("Zoë 🎲🎲", 220),
                                           ("山田" * 10, 210)])]
    lines = _entries_text(entries, 78).splitlines()
    assert len(_ends(lines, {"山田太郎": "240", "Bob": "230", "Zoë 🎲🎲": "220",
                             "山田" * 10: "210"})) == 1, lines
    rows = [SimpleNamespace(key="yatzy", name=n, computer=False, games=g, wins=0,
                            multiplayer_games=0, average=200.0, best=b, upper_bonus_rate=None,
                            yachts=0, dice_entered=False)
            for n, g, b in [("山田太郎", 3, 241), ("Bob", 4, 232), ("Zoë 🎲🎲", 5, 223)]]
    lines = _stats_text(rows, 78).splitlines()
    assert len(_ends(lines, {"山田太郎": "241", "Bob": "232", "Zoë 🎲🎲": "223"})) == 1, lines
    assert len(_ends(lines, {"player": "games", "Bob": " 4"})) == 1, lines


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["variants", "--json"],
                                  ["play", "crag", "--players", "Ann", "--plain"]])
def test_output_to_a_full_disk_is_one_line_not_a_traceback(args: list[str],
                                                           tmp_path: Path) -> None:
    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"))
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "yacht", *args], stdout=full,
                           stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env=env, timeout=60)
    assert r.returncode == 1, r.stderr
    assert r.stderr == "yacht: error: writing failed: No space left on device\n", r.stderr


def test_a_blank_action_is_refused_not_taken_for_a_roll(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume ID --action ""` was the line game's Enter: at the start of a turn it
    rolled the dice and saved the roll."""
    import io
    import random

    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session.table import Table
    from yacht.store import open_store

    db = str(tmp_path / "db.sqlite3")
    monkeypatch.setenv("YACHT_DB", db)
    store = open_store(db)
    try:
        table = Table.new(get("tommys-crag"), [Player("Ann")], store=store,
                          rng=random.Random(1))
        PlainGame(table, io.StringIO("\nk\nq\n"), io.StringIO()).run()  # one turn played
        game_id = store.unfinished_games()[0].id
        before = len(store.load_record(game_id).actions)
    finally:
        store.close()
    capsys.readouterr()
    for blank in ("", "  "):
        assert main(["resume", game_id, "--action", blank]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("yacht: error: --action is "), err
        assert "give one action, e.g. --action roll" in err and err.count("\n") == 1
    store = open_store(db, readonly=True)
    try:
        assert len(store.load_record(game_id).actions) == before
    finally:
        store.close()


def test_the_lists_wrap_wide_names_in_cells(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume` wrapped its players' column by characters: two names of 20 wide
    letters made lines of 95 cells in a terminal of 80 (and `yacht stats`, narrow, too)."""
    import argparse
    from datetime import datetime
    from types import SimpleNamespace

    from yacht.cells import cell_len
    from yacht.cli.commands.store import _list_games, _stats_text

    monkeypatch.setenv("COLUMNS", "80")
    names = ["山田太郎" * 5, "花子" * 10, "Bob"]
    game = SimpleNamespace(id="31fdefac186e", key="tommys-crag", turn=1, turns=13,
                           last_played=datetime(2026, 12, 6, 23, 48),
                           players=[SimpleNamespace(name=n, is_computer=False) for n in names])
    store = SimpleNamespace(unfinished_games=lambda: [game])
    assert _list_games(store, argparse.Namespace(finished=False, json=False)) == 0  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert all(cell_len(line) <= 78 for line in out.splitlines()), out
    assert "".join(out.split()).count("山田太郎" * 5) == 1  # (every name, whole)
    rows = [SimpleNamespace(key="yatzy", name=n, computer=False, games=3, wins=0,
                            multiplayer_games=0, average=200.0, best=241,
                            upper_bonus_rate=None, yachts=0, dice_entered=False)
            for n in names]
    text = _stats_text(rows, 30)
    assert all(cell_len(line) <= 30 for line in text.splitlines()), text


@pytest.mark.parametrize(("argv", "best"), [
    (["play", "crag", "--players", "Ann=cpu:champion", "--target", "245", "--plain"], 244),
    # (no variant: the setup's, Yahtzee in a fresh setup)
    (["play", "--players", "Ann=cpu:champion", "--target", "1576", "--plain"], 1575),
])
def test_play_refuses_a_target_no_game_can_reach(
        argv: list[str], best: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht play --target 5000` let the champion play a whole game towards a total no
    game reaches (every chance 0), as simulate, solve and advise refuse it."""
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "db.sqlite3"))
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"target {argv[-2]} is more than any game of" in err
    assert f"(at most {best}; accepted: 0-{best})" in err


def test_a_game_shown_for_want_of_a_terminal_says_how_it_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume ID` from a pipe shows the game and stopped there: nothing said that
    the line game plays it on."""
    import io
    import random

    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session.table import Table
    from yacht.store import open_store

    db = str(tmp_path / "db.sqlite3")
    monkeypatch.setenv("YACHT_DB", db)
    store = open_store(db)
    try:
        table = Table.new(get("tommys-crag"), [Player("Ann")], store=store,
                          rng=random.Random(1))
        PlainGame(table, io.StringIO("\nq\n"), io.StringIO()).run()
        game_id = store.unfinished_games()[0].id
    finally:
        store.close()
    capsys.readouterr()
    assert main(["resume", game_id]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.endswith(f"`yacht play --plain --resume {game_id}` plays it on with line "
                        f"prompts; in a terminal `yacht resume {game_id}` opens it full "
                        "screen."), out
    assert main(["resume", game_id, "--show"]) == 0  # (asked to show it: shown, no more)
    assert "plays it on" not in capsys.readouterr().out


@pytest.mark.parametrize("name, said", [
    ("", "--name: the name is empty. Give a name of 1-20 characters."),
    ("Bo\u200b", "--name: the name 'Bo' has an invisible character (U+200B ZERO WIDTH SPACE)."),
])
def test_a_daily_name_refused_reads_on_after_its_option(
        name: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """'yacht daily --name ""' said '--name: The name is empty: give a name ...': a
    capital and a second colon after the option's."""
    assert main(["daily", "tommys-crag", "--plain", "--name", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert said in err, err
