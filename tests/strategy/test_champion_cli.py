"""The champion and target chances from the command line: solve --target, hint, simulate,
play."""

from __future__ import annotations

import json

import pytest

from yacht.cli import main

CRAG_LATE = ("121 r0 ones=1,twos=4,threes=3,fives=10,sixes=12,high_straight=20,"
             "odd_straight=20,even_straight=20,crag=50,thirteen=26")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_target_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "tommys-crag", "--target", "150", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "tommys-crag" and data["target"] == 150 and data["exact"]
    assert data["chance"] == pytest.approx(0.581997, abs=1e-6)
    # the expert's chance, from its exact score distribution: below the best one
    assert 0.4 < data["expert_chance"] < data["chance"]
    code, out, _ = run(capsys, "solve", "tommys-crag", "--target", "150")
    assert code == 0 and "best chance of finishing with at least 150 points: 0.581997" in out
    assert f"the expert's (playing for the most points): {data['expert_chance']:.6f}" in out


@pytest.mark.parametrize("argv, message", [
    (["solve", "ancient-yacht-double", "--target", "100"], "accepted: ancient-yacht,"),
    (["solve", "tommys-crag", "--target", "-1"], "accepted: 0-100000"),
    (["solve", "tommys-crag", "--target", "many"], "accepted: 0-100000"),
    (["hint", "ancient-yacht-double", "12345 r0", "--target", "100"], "one-column variants"),
])
def test_bad_target_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                          argv: list[str], message: str) -> None:
    try:
        code = main(argv)
    except SystemExit as e:   # (argparse)
        code = int(e.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and message in err
    assert len(err.strip().splitlines()) == 1


def test_hint_shows_both_bests_when_they_differ(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", "tommys-crag", CRAG_LATE, "--target", "175")
    assert code == 0
    assert "best for your score: score Low Straight for 0" in out
    assert "best to reach 175: score Fours for 0 (chance 28.26%" in out
    code, out, _ = run(capsys, "advise", "tommys-crag", CRAG_LATE, "--target", "175", "--json")
    data = json.loads(out)
    assert data["differ"] is True and data["to_win"]["exact"] is True
    assert data["to_win"]["options"][0]["category"] == "fours"
    assert data["actions"][0]["category"] == "low_straight"


def test_hint_without_target_in_the_last_turns(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --target: the default target (the expert's expected score), from a small
    table of the last turns."""
    code, out, _ = run(capsys, "hint", "tommys-crag", CRAG_LATE, "--json")
    data = json.loads(out)
    assert code == 0 and data["to_win"]["goal"] == "target"
    assert data["to_win"]["target"] == 150


def test_simulate_champion_with_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "tommys-crag", "-p", "champion", "--target", "150",
                       "-n", "20", "--seed", "1", "-w", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["player"] == "champion" and data["target"] == 150
    assert 0 <= data["reached"] <= 1


def test_play_a_champion_alone_with_a_target(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "tommys-crag", "--players", "cpu:champion",
                       "--target", "150", "--plain", "--seed", "3", "--speed", "instant")
    assert code == 0 and "Champion scored" in out
