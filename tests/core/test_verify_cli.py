"""`yacht verify RECORD`: one line, exit 0 when every die came from the committed seed, 1
when not (and why), 2 for bad input; `yacht resume --action "roll 6,6,1"` enters real dice
and marks the game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from yacht.engine import Player, Record, Roll, State, random_turn
from yacht.rules import get
from yacht.session.commands import GoOn, ScoreBox
from yacht.session.table import LOCAL, Table
from yacht.store import open_store

from .test_cli_core import run


def play_out(table: Table) -> str:
    """Play the table's game to its recorded end (random boxes); its id."""
    while not table.view().over:
        if not table._game.state.dice:
            table.act(LOCAL, Roll())
        table.act(LOCAL, ScoreBox(table._game.state.placements()[0].category))
    table.act(LOCAL, GoOn())
    assert table.view().finished
    gid = table.view().game_id
    assert gid is not None
    return gid


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "verify.sqlite3"


def stored_game(db: Path) -> str:
    with open_store(str(db)) as store:
        return play_out(Table.new(get("tommys-crag"), [Player("Ann")], store=store,
                                  speed="instant"))


def export(capsys: pytest.CaptureFixture[str], db: Path, gid: str, path: Path) -> dict[str, object]:
    code, _, err = run(capsys, "resume", gid, "--export", str(path), "--db", str(db))
    assert code == 0, err
    data: dict[str, object] = json.loads(path.read_text())
    return data


def test_a_finished_game_verifies_by_id_and_by_file(db: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    gid = stored_game(db)
    code, out, err = run(capsys, "verify", gid[:5], "--db", str(db))
    assert code == 0 and err == "" and out.count("\n") == 1
    assert out.startswith("verified: all 39 dice of the 13 rolls came from the committed seed")
    code, out, _ = run(capsys, "verify", gid, "--db", str(db), "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["code"] == "verified" and data["rolls"] == 13
    path = tmp_path / "game.json"
    export(capsys, db, gid, path)
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and out.startswith("verified:")


def test_a_changed_die_and_a_wrong_seed_fail(db: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    gid = stored_game(db)
    record = export(capsys, db, gid, tmp_path / "game.json")
    actions = record["actions"]
    assert isinstance(actions, list)
    seventh = actions[6]  # the fourth turn's roll
    assert seventh["type"] == "roll"
    seventh["result"][2] = seventh["result"][2] % 6 + 1
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(record))
    code, out, err = run(capsys, "verify", str(changed))
    assert code == 1 and err == ""
    assert out.startswith("not verified: action 7 (roll 1 of turn 4) shows ")
    wrong = export(capsys, db, gid, tmp_path / "again.json")
    seed = wrong["dice_seed"]
    assert isinstance(seed, dict)
    seed["seed"] = "00" * 32
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    code, out, _ = run(capsys, "verify", str(tmp_path / "wrong.json"), "--json")
    assert code == 1 and json.loads(out)["code"] == "bad_seed"


def test_games_that_cannot_be_verified_say_why(db: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    old = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(3))
    while not old.is_terminal():
        random_turn(old, random.Random(4))
    Record.from_state(old).save(tmp_path / "old.json")
    code, out, _ = run(capsys, "verify", str(tmp_path / "old.json"))
    assert code == 1 and "no committed seed" in out
    with open_store(str(db)) as store:
        t = Table.new(get("yatzy"), [Player("Ann")], store=store)
        t.act(LOCAL, Roll())
        gid = t.view().game_id
    assert gid is not None
    code, out, _ = run(capsys, "verify", gid, "--db", str(db))
    assert code == 1 and "not finished" in out


@pytest.mark.parametrize("argv, message", [
    (["nothing-here.json"], "cannot read"),
    (["abc123"], "no game abc123"),
    ([], "the following arguments are required"),
])
def test_bad_input_is_one_line(argv: list[str], message: str, db: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "verify", *argv, "--db", str(db))
    assert code == 2 and out == "" and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_file_that_is_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "yacht-record", "version": 1, "variant": "yatzy", '
                   '"players": [{"name": "A"}], "dice_seed": [], "actions": []}')
    code, _, err = run(capsys, "verify", str(bad))
    assert code == 2 and "dice_seed" in err and err.count("\n") == 1


def test_real_dice_entered_with_resume_action_mark_the_game(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(str(db)) as store:
        t = Table.new(get("tommys-crag"), [Player("Ann")], store=store)
        gid = t.save()
    assert gid is not None
    code, out, err = run(capsys, "resume", gid, "--action", "roll 6,6,1", "--db", str(db))
    assert code == 0, err
    header = out.split("\n\n")[0]  # (the game's line, wrapped to the width)
    assert "Applied: roll 6,6,1" in out and "(dice entered)" in header
    code, out, _ = run(capsys, "resume", gid, "--json", "--db", str(db))
    data = json.loads(out)
    assert data["game"]["dice_entered"] and data["table"]["dice_entered"]
    assert "seed" not in data["table"]["dice_seed"]
    with open_store(str(db)) as store:
        play_out(Table.resume(store, gid, speed="instant"))
        assert store.top_ten(get("tommys-crag")) == []
        apart = store.top_ten(get("tommys-crag"), assisted=True)
        assert [(e.game_id, e.dice_entered) for e in apart] == [(gid, True)]
    code, out, _ = run(capsys, "verify", gid, "--db", str(db))
    assert code == 1
    assert out == ("not verified: the dice of action 1 (roll 1 of turn 1) were entered by "
                   "hand (real dice), not drawn from the seed\n")
    code, out, _ = run(capsys, "scores", "tommys-crag", "--assisted", "--db", str(db))
    assert code == 0 and out.rstrip().endswith("(dice entered)")
    code, out, _ = run(capsys, "stats", "--json", "--db", str(db))
    assert [r["dice_entered"] for r in json.loads(out)] == [True]

