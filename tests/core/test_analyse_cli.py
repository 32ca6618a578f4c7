"""`yacht analyse GAME_ID|RECORD_FILE`: a record file or a saved game; bad input is one line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Player, Record, State
from yacht.rules import get
from yacht.store import open_store
from yacht.strategy.base import make_player, play_turn


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _finished(name: str = "tommys-crag", seed: int = 4) -> State:
    rs = get(name)
    s = State(rs, [Player("Ann"), Player("Cpu", "computer", "expert")], rng=random.Random(seed))
    players = [make_player(rs, "beginner"), make_player(rs, "expert")]
    while not s.is_terminal():
        play_turn(s, players[s.current])
    return s


def test_record_file_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = _finished()
    path = tmp_path / "game.json"
    Record.from_state(s).save(path)
    code, out, err = run(capsys, "analyse", str(path), "--win-games", "100")
    assert code == 0 and err == ""
    assert "Analysis of a game of Tommy's Crag" in out
    assert "of Ann's" in out and "decisions lost points" in out and "costliest:" in out
    assert "Every one of Cpu's" in out
    assert "Expected final score after each turn" in out
    assert "Chance of winning after each turn" in out
    code, out, _ = run(capsys, "analyse", str(path), "--json", "--win-games", "100")
    data = json.loads(out)
    assert code == 0 and data["format"] == "yacht-analysis"
    ann, cpu = data["players"]
    assert (ann["score"], cpu["score"]) == tuple(s.returns())
    assert cpu["loss"] == 0 and cpu["accuracy"] == 100
    assert ann["loss"] > 0 and len(ann["costliest"]) == 3
    # Tommy's Crag has exact score distributions: no games sampled
    assert data["win"]["games"] == 0 and data["win"]["exact"]
    last = data["win"]["moments"][-1]["chances"]
    assert sorted(last) == [0.0, 1.0] or last == [1.0, 1.0]
    code, out, _ = run(capsys, "analyze", str(path), "--json", "--win-games", "0")
    assert code == 0 and json.loads(out)["win"] is None


def test_saved_game_by_id_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "y.sqlite3"
    # (Tommy's Crag: its tables and score distributions are small and shared with other
    # tests; Yatzy's distributions, built here alone, took most of two minutes)
    s = _finished("tommys-crag", 2)
    with open_store(str(db)) as store:
        rec = Record.from_state(s)
        gid = store.start_game(rec)
        store.finish_game(gid, s)
    code, out, err = run(capsys, "analyse", gid[:6], "--db", str(db), "--json",
                         "--win-games", "50")
    assert code == 0, err
    data = json.loads(out)
    assert data["variant"] == "tommys-crag" and data["finished"]
    assert [p["score"] for p in data["players"]] == s.returns()
    assert data["win"]["exact"] and len(data["win"]["moments"]) == len(data["turns"]) + 1


@pytest.mark.parametrize("argv, message", [
    (["nothing-here.json"], "cannot read"),
    (["abc123"], "no game abc123"),
    (["--win-games", "-1", "x"], "--win-games"),
])
def test_bad_input_is_one_line(argv: list[str], message: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "analyse", *argv, "--db", str(tmp_path / "db.sqlite3"))
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_damaged_record_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    data = Record.from_state(_finished()).to_json()
    data["actions"][3] = {"type": "score", "category": "nowhere"}
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "analyse", str(path))
    assert code == 2 and out == "" and "cannot be replayed" in err and err.count("\n") == 1
    path.write_text("{")
    code, _, err = run(capsys, "analyse", str(path))
    assert code == 2 and "not valid JSON" in err


def test_help_defines_luck_accuracy_and_win_chances(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyse", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "result = expected start + luck - loss" in flat
    assert "100 x (expected start - loss) / expected start" in flat
    assert "shared first place counts as a win" in flat
    assert "1/sqrt(GAMES)" in flat


def test_help_says_generala_chances_are_exact(capsys: pytest.CaptureFixture[str]) -> None:
    """Generala's chances of winning are exact (its distributions count the served
    Generala that ends the game): the help named it among the sampled variants."""
    from yacht.strategy.solver.dist import available

    assert available(get("generala")) and not available(get("maxi-yatzy"))
    _, out, _ = run(capsys, "analyse", "--help")
    flat = " ".join(out.split())
    sampled = flat[flat.index("in every variant but"):flat.index("sampled from GAMES")]
    assert "Generala" not in sampled and "Maxi Yatzy" in sampled
    assert "in Generala the chance that a served Generala ends the game at once is " \
           "counted" in flat


def test_text_as_wide_as_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide terminal shows every turn of a long game in the charts; a narrow one (or a
    pipe: 80 columns) every other, each chart row whole."""
    rs = get("tommys-crag")
    s = State(rs, [Player(f"P{i}", "computer", "expert") for i in range(8)],
              rng=random.Random(2))
    expert = make_player(rs, "expert")
    while not s.is_terminal():
        play_turn(s, expert)
    path = tmp_path / "eight.json"
    Record.from_state(s).save(path)
    for columns, thinned in (("80", True), ("200", False)):
        monkeypatch.setenv("COLUMNS", columns)
        code, out, _ = run(capsys, "analyse", str(path))
        assert code == 0
        chart = out[out.index("Chance of winning"):]
        assert (", a column per 2 turns" in " ".join(chart.split())) == thinned
        rows = [line for line in chart.splitlines() if " |" in line]
        assert len(rows) == 8 and all(len(r) <= int(columns) - 2 for r in rows)
