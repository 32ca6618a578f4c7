"""The core commands: variants, rules, score, replay, selfplay — output and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Record
from yacht.rules import all_variants, get, rules_text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_variants_lists_all_13(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == [rs.id for rs in all_variants()]
    y = next(r for r in rows if r["id"] == "yahtzee")
    joker = y["options"]["joker"]
    assert (joker["values"], joker["default"]) == (["forced", "free", "none"], "forced")
    assert joker["help"] and len(joker["value_help"]) == 3  # what the setup shows
    a10 = next(r for r in rows if r["id"] == "ancient-yacht-10")
    assert (a10["dice"], a10["rolls"], a10["categories"]) == (10, 5, 12)
    code, out, _ = run(capsys, "variants")
    assert code == 0 and "tommys-crag" in out and "rolls=3|4|5" in out


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_rules_text_matches_the_ruleset(rs: object, capsys: pytest.CaptureFixture[str]) -> None:
    from yacht.rules import Ruleset
    assert isinstance(rs, Ruleset)
    code, out, _ = run(capsys, "rules", rs.id)
    assert code == 0 and out == rules_text(rs)
    for c in rs.categories:
        assert c.label in out and f"[{c.id}]" in out


def test_rules_with_options_and_alias(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "challenge", "--option", "rolls=3")
    assert code == 0 and "up to 3 rolls" in out
    code, out, _ = run(capsys, "rules", "yahtzee", "-o", "joker=free", "--json")
    data = json.loads(out)
    assert data["options"] == {"joker": "free", "bonus": "on"} and "Joker (free)" in data["text"]


def test_score_json_shape_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "yatzy", "2,4,4,2,2", "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["variant", "dice", "scores"]
    assert data["variant"] == "yatzy" and data["dice"] == [2, 4, 4, 2, 2]
    assert data["scores"] == get("yatzy").scores([2, 4, 4, 2, 2])
    code, out2, _ = run(capsys, "score", "yatzy", "24422", "--json")
    assert json.loads(out2) == data
    code, out3, _ = run(capsys, "score", "yatzy", "2", "4", "4", "2", "2", "--json")
    assert code == 0 and json.loads(out3) == data


def test_score_ten_dice_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "ancient-yacht-10", "6666555443", "--json")
    assert json.loads(out)["scores"]["double_full_house"] == 50
    code, out, _ = run(capsys, "score", "crag", "6,6,1")
    assert code == 0 and "Crag" in out and "50" in out


def test_score_says_which_rules_change_the_boxes_in_a_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The boxes' own points, then the special rules that change them in a game: Doble
    Generala's 100 is a 0 while Generala is open."""
    code, out, _ = run(capsys, "score", "generala", "6", "6", "6", "6", "6")
    lines = out.splitlines()
    assert code == 0 and "Doble Generala  100" in out
    notes = lines[lines.index("In a game, these rules can change them:") + 1:]
    text = " ".join(line.strip() for line in notes)
    assert "Doble Generala scores only while the Generala box holds its points" in text
    assert text.count("Served") == 2 and all(len(line) <= 78 for line in lines)
    code, out, _ = run(capsys, "score", "yatzy", "66666")
    assert code == 0 and "In a game" not in out


@pytest.mark.parametrize(("argv", "message"), [
    (["score", "nosuch", "12345"], "unknown variant 'nosuch' (accepted: ancient-yacht"),
    (["score", "yatzy", "12340"], "die value 0 is not a face (accepted: 1-6)"),
    (["score", "yatzy", "1,2,3,4,7"], "die value 7 is not a face (accepted: 1-6)"),
    (["score", "yatzy", "1234"], "yatzy uses 5 dice, but 4 were given"),
    (["score", "yatzy", "1,2,x,4,5"], "die value 'x' is not a number"),
    (["score", "yatzy", "123456"], "yatzy uses 5 dice, but 6 were given"),
    (["score", "crag", "1,2,3,4,5"], "tommys-crag uses 3 dice, but 5 were given"),
    (["rules", "yahtzee", "--option", "joker=maybe"],
     "option joker cannot be 'maybe' (accepted: forced|free|none)"),
    (["rules", "yatzy", "--option", "rolls=3"], "yatzy has no option 'rolls' (options: none)"),
    (["rules", "yatzy", "--option", "rolls"], "option 'rolls' is not KEY=VALUE"),
    (["selfplay", "yatzy", "--players", "9", "--out", "x.json"],
         "players 9 is out of range (accepted: 1-8)"),
    (["score"], "the following arguments are required"),
    (["score", "yatzy", "1", "2", "3", "4", "7"], "die value 7 is not a face (accepted: 1-6)"),
    (["score", "yatzy", "1", "2", "3"], "yatzy uses 5 dice, but 3 were given"),
    (["score", "--bogus", "yatzy", "12345"],
     "yacht score: error: unrecognized arguments: --bogus (see `yacht score --help`)"),
    (["--bogus"], "yacht: error: unrecognized arguments: --bogus (see `yacht --help`)"),
    (["frobnicate"], "neither a command nor a variant"),
    (["advise", "yatzy", "12345 r2", "--top", "0"],  # (was taken: a heading, no action)
     "top 0 is out of range (accepted: 1-1000000)"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_selfplay_replay_reproduces_totals_and_seed(rs: object, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from yacht.rules import Ruleset
    assert isinstance(rs, Ruleset)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    code, out, _ = run(capsys, "selfplay", rs.id, "--players", "2", "--seed", "7",
                       "--out", str(a), "--json")
    assert code == 0
    result = json.loads(out)
    run(capsys, "selfplay", rs.id, "--players", "2", "--seed", "7", "--out", str(b))
    assert Record.load(a).actions == Record.load(b).actions
    code, out, _ = run(capsys, "replay", str(a), "--json")
    replay = json.loads(out)
    assert code == 0 and replay["finished"] and replay["totals"] == result["totals"]
    assert replay["turns"][-1]["totals"] == result["totals"]
    code, text, _ = run(capsys, "replay", str(a))
    assert code == 0 and "Grand total" in text
    assert f"with {max(result['totals'])}" in text or "Tie:" in text


def test_replay_of_eight_players_fits_the_terminal(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight players' cards of the two-column game are far wider than a terminal: the
    replay shows them in blocks as wide as it (``COLUMNS``), all of them there."""
    path = tmp_path / "eight.json"
    run(capsys, "selfplay", "ancient-yacht-double", "--players", "8", "--seed", "3",
        "--out", str(path))
    for columns in (80, 132):
        monkeypatch.setenv("COLUMNS", str(columns))
        code, text, _ = run(capsys, "replay", str(path))
        lines = text.splitlines()
        assert code == 0 and max(map(len, lines)) <= columns - 2
        last = text[text.rindex("\nTurn "):]
        assert all(f"Random {i} 1" in last and f"Random {i} 2" in last for i in range(1, 9))


def test_replay_of_damaged_or_missing_files(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and "not valid JSON" in err and len(err.splitlines()) == 1
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"hello": "world"}')
    code, _, err = run(capsys, "replay", str(foreign))
    assert code == 2 and "not a yacht game record" in err


def test_selfplay_to_an_unwritable_place(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "selfplay", "yatzy", "--out", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "cannot write" in err


def test_installed_command_and_module_entry_point() -> None:
    exe = Path(sys.executable).with_name("yacht")
    for cmd in ([str(exe), "score", "sackson-yacht", "33333", "--json"],
                [sys.executable, "-m", "yacht", "score", "sackson-yacht", "33333", "--json"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["scores"]["four_of_a_kind"] == 12
    proc = subprocess.run([str(exe), "score", "yatzy", "99999"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("yacht: error:")
    assert "Traceback" not in proc.stderr


def test_rules_json_gives_every_step_of_the_upper_bonus(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """Kismet's bonus is 35, 55 or 75 by the basic section's total: the JSON gave only
    its first step (35 at 63), so a program reading it had the wrong bonus above 70."""
    code, out, _ = run(capsys, "rules", "kismet", "--json")
    bonus = json.loads(out)["upper_bonus"]
    assert code == 0 and bonus["steps"] == [[63, 35], [71, 55], [78, 75]]
    code, out, _ = run(capsys, "rules", "yahtzee", "--json")
    assert json.loads(out)["upper_bonus"]["steps"] == [[63, 35]]


def test_a_variant_without_a_command_is_played(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`yacht kismet` was 'invalid choice: kismet (choose from play, web, ...)', though the
    help calls play the default command (QA s24): a variant's id or alias is played."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "crag", "--plain", "--players", "Ann", "--seed", "1")
    assert code == 0 and "Traceback" not in err, err
    assert "Tommy's Crag. Players: Ann." in out
    code, _, err = run(capsys, "Kismet", "--plain", "--bogus")
    assert code == 2 and "yacht play: error: unrecognized arguments: --bogus" in err
    code, _, err = run(capsys, "frobnicate")  # (not a variant: the commands are listed)
    assert code == 2 and err.startswith(
        "yacht: error: 'frobnicate' is neither a command nor a variant (commands: play, ")
    assert "`yacht variants` lists the variants" in err and len(err.splitlines()) == 1
