"""`yacht solve` and `yacht advise` from the command line."""

from __future__ import annotations

import json

import pytest

from yacht.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "tommys-crag", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "tommys-crag" and data["options"] == {}
    assert data["states"] == 8192 and data["seconds"] >= 0
    assert 140 < data["expected_score"] < 160
    assert data["exact"] is True


def test_solve_text_with_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "yahtzee", "-o", "joker=none", "-o", "bonus=off")
    assert code == 0
    assert "245.8708" in out and "card states" in out and "peak memory" in out


@pytest.mark.parametrize("argv, message", [
    (["solve", "nosuch"], "unknown variant"),
    (["solve", "yahtzee", "-o", "joker=wild"], "cannot be 'wild'"),
    (["advise", "yahtzee", "--dice", "1,2,3"], "5 dice"),
    (["advise", "yahtzee", "--dice", "1,2,3,4,5", "--rolls-left", "5"], "rolls left"),
    (["advise", "yahtzee", "--dice", "1,2,3,4,5", "--card", "sixes=7"], "cannot hold 7"),
    (["advise", "yahtzee", "--dice", "12345", "--card", "bogus=1"], "unknown box"),
])
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_advise_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", "yahtzee", "--dice", "1,3,3,5,6", "--rolls-left", "2",
                       "--card", "ones=3,fours=12,full_house=25", "--top", "3")
    assert code == 0
    # (the heading goes on under itself when the situation does not fit the width)
    lines = out.strip().split("  action ")[1].splitlines()
    assert len(lines) == 1 + 3
    assert "keep 3 3" in lines[1] and "0.0000" in lines[1]
    assert "[13356 r2 ones=3,fours=12,full_house=25]" in out


def test_advise_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "advise", "yatzy", "--dice", "66666", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rolls_left"] == 0 and data["turn"] == 0
    best = data["actions"][0]
    assert best == {**best, "kind": "score", "category": "yatzy", "points": 50, "loss": 0.0}


def test_advise_help_documents_card_notation(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    out = capsys.readouterr().out
    assert "col2:BOX=POINTS" in out and "extra=N" in out
