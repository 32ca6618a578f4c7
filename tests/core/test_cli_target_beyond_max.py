"""QA, the commands as a new user meets them: a target above the highest total a game of
the variant can reach is refused in one line (it was a silent 0%, with the champion
playing towards it), and a target no game reached says so in words."""

from __future__ import annotations

import pytest

from yacht.cli import main


@pytest.mark.parametrize(("argv", "best"), [
    (["simulate", "yatzy", "--target", "375", "-n", "2", "-w", "1"], 374),
    (["simulate", "yahtzee", "-o", "bonus=off", "--target", "376", "-n", "2", "-w", "1",
      "--json"], 375),
    (["simulate", "generala", "--target", "5000", "-p", "champion", "-n", "2"], 360),
    (["solve", "tommys-crag", "--target", "245"], 244),
    (["solve", "ancient-yacht", "--target", "100000", "--json"], 288),
])
def test_a_target_no_game_can_reach_is_refused_in_one_line(
        argv: list[str], best: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert f"target {argv[argv.index('--target') + 1]} is more than any game of" in err
    assert f"(at most {best}; accepted: 0-{best})" in err


def test_the_highest_total_itself_is_a_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "yatzy", "--target", "374", "-n", "3", "-p", "random",
                 "-w", "1", "--seed", "1"]) == 0
    out, _ = capsys.readouterr()
    # (not "reached in 0.00% of games (95% interval +-0.00)")
    assert "  target       374: no game reached it (the best scored " in out
    assert "0.00%" not in out


def test_a_variant_without_a_limit_takes_any_target_and_says_none_reached_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Tommy's Yahtzee: the Yahtzee box may be scored again and again
    assert main(["simulate", "tommys-yahtzee", "--target", "5000", "-n", "3", "-p",
                 "random", "-w", "1", "--seed", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "target       5000: no game reached it" in out


def test_a_target_some_games_reached_keeps_its_share(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "yatzy", "--target", "0", "-n", "3", "-p", "random", "-w", "1",
                 "--seed", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "target       0: reached in 100.00% of games" in out


def test_the_advisor_refuses_such_a_target_too(capsys: pytest.CaptureFixture[str]) -> None:
    # (it built a table for it and ranked every action at a chance of 0.00%)
    assert main(["advise", "tommys-crag", "135 r1", "--target", "245"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "target 245 is more than any game of Tommy's Crag can score (at most 244; " \
        "accepted: 0-244)" in err
