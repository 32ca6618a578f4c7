"""The less-played commands as a new user tries them (advise, replay, scores): bad input
is one line naming the problem and what is accepted, exit status 2; the output fits the
terminal and says things in words."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Player, Roll
from yacht.session import LOCAL, open_store_for_games, open_table

from .test_cli_input import fail, run


def test_a_tommys_yacht_card_filled_before_its_yacht_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every first turn goes to the Yacht box: a card with Ones filled and the Yacht open
    is no game's. Before, advise ended in a traceback ('the forced first turn is not
    solved by chance tables', from the ranking to reach a score)."""
    for argv in (["advise", "tommys-yacht", "23422 r2 ones=2"],
                 ["hint", "tommys-yacht", "--dice", "23422", "--rolls-left", "1",
                  "--card", "ones=2,chance=20"]):
        assert fail(capsys, *argv) == (
            "yacht: error: the first turn goes to the Yacht box, so a card with boxes "
            "filled has it filled too (e.g. yacht=50; it holds 50 down to -95 in steps of "
            "5)\n")
    out = run(capsys, "advise", "tommys-yacht", "23422 r2 ones=2,yacht=-95", "--top", "1")
    assert "[23422 r2 ones=2,yacht=-95]" in out
    assert "keep" in run(capsys, "advise", "tommys-yacht", "23422 r2", "--top", "1")


def test_replay_and_scores_name_the_options_in_words_within_the_width(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, replay's heading was the ruleset's key, one long word cut where the line
    ended ('...generala_points=5' over '  0;doble=on)'), and the scores' heading was the
    key on one line of 89 columns; both say the options as `yacht stats` does."""
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "g.db"))
    monkeypatch.setenv("COLUMNS", "80")
    record = tmp_path / "g.json"
    run(capsys, "selfplay", "generala", "--players", "2", "--seed", "7", "--out", str(record))
    out = run(capsys, "replay", str(record))
    assert out.startswith("Generala. Players: Random 1, Random 2.\n\nTurn 1 - Random 1: ")
    run(capsys, "selfplay", "yahtzee", "-o", "bonus=off", "-o", "joker=free", "--seed", "7",
        "--out", str(tmp_path / "y.json"))
    head = run(capsys, "replay", str(tmp_path / "y.json")).split("\n\n")[0]
    assert head == ("Yahtzee - Joker rule: free (any open box, joker values once that upper "
                    "box is\n  filled); Yahtzee bonus: off (no bonus). Players: Random 1.")
    assert run(capsys, "scores", "generala") == "Generala\n  no scores yet\n"
    out = run(capsys, "scores", "yahtzee", "-o", "joker=free", "--assisted")
    assert out.splitlines()[0] == "Yahtzee - Joker rule: free (any open box, joker values " \
                                  "once that upper box is"
    assert max(map(len, out.splitlines())) <= 78 and out.endswith(
        "  filled) - assisted\n  no scores yet\n")


def test_maxi_yatzy_saved_rolls_are_said_in_the_help_and_the_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A Maxi Yatzy turn may have more than 3 rolls (the rolls saved from earlier turns),
    written saved=N on the card; before, neither `yacht advise --help` nor the error for
    'r5' said so ('rolls left must be 0-2 in this turn, not 5', and nothing more)."""
    assert fail(capsys, "advise", "maxi-yatzy", "123456 r5 ones=1,twos=2") == (
        "yacht: error: rolls left must be 0-2 in this turn, not 5 (the turn's 3 rolls, plus "
        "the rolls saved from earlier turns, written saved=N on the card (here 0), less the "
        "first roll)\n")
    # (a variant that saves no rolls says nothing of them)
    assert fail(capsys, "advise", "yatzy", "12345 r5") == (
        "yacht: error: rolls left must be 0-2 in this turn, not 5\n")
    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "saved=N are the rolls saved from earlier turns" in text
    assert '"123456 r4 ones=1,chance=20,saved=2"' in text


def test_replay_takes_a_saved_games_id_as_analyse_and_verify_do(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`yacht replay` is 'the scorecards after each turn of a saved game', and analyse and
    verify take a saved game's id; before, replay took a file only ("cannot read
    'ID': No such file or directory")."""
    db = str(tmp_path / "g.db")
    store, problem = open_store_for_games(db)
    assert store is not None, problem
    table = open_table(store, source="test", variant="yatzy", players=[Player("Ann")])
    table.act(LOCAL, Roll())
    gid = table.view().game_id
    store.close()
    assert gid is not None
    out = run(capsys, "replay", gid[:6], "--db", db)
    assert out.startswith("Yatzy. Players: Ann.\n") and "The game is not finished." in out
    assert fail(capsys, "replay", "abcdef0", "--db", db) == (
        f"yacht: error: no game abcdef0 in {db} (and there is no file 'abcdef0')\n")


def test_a_tommys_yahtzee_box_of_repeats_took_a_turn_for_each_50(
        capsys: pytest.CaptureFixture[str]) -> None:
    """100 in Tommy's Yahtzee's Yahtzee box is a Yahtzee and a repeat (2 turns) or a 0 and
    two repeats (3 turns); before, advise took it for 1 turn, and so by default."""
    assert fail(capsys, "advise", "tommys-yahtzee", "66666 r0 t1 yahtzee=100") == (
        "yacht: error: this card is at least 2 turns into the game (each repeat of a box "
        "took a turn of its own), not 1\n")
    out = run(capsys, "advise", "tommys-yahtzee", "66666 r0 yahtzee=100", "--top", "1")
    assert out.startswith("Tommy's Yahtzee: dice 6 6 6 6 6, 0 roll(s) left, turn 3\n"
                          "    [66666 r0 yahtzee=100]\n")
    out = run(capsys, "advise", "tommys-yahtzee", "66666 r0 t3 yahtzee=100", "--top", "1")
    assert "turn 4" in out and "[66666 r0 t3 yahtzee=100]" in out


def test_a_doble_generala_without_the_generalas_points_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Doble Generala scores only while Generala holds its points: 100 in it with Generala
    open or scratched is no game's card; before, advise ranked the actions of it."""
    for card in ("doble_generala=100", "generala=0,doble_generala=100"):
        assert fail(capsys, "advise", "generala", f"44444 r0 {card}") == (
            "yacht: error: doble_generala=100 cannot be: Doble Generala scores only while "
            "Generala holds its points (give generala=50 too, or doble_generala=0)\n")
    assert "generala=60 too" in fail(capsys, "advise", "generala", "44444 r0 doble_generala=120",
                                     "-o", "generala_points=60")
    for card in ("generala=50,doble_generala=100", "doble_generala=0"):
        assert "expected" in run(capsys, "advise", "generala", f"44444 r0 {card}")


def test_advise_takes_its_situation_after_an_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    """'yacht advise generala --top 1 "44444 r0"': argparse gave the situation (an optional
    positional) nothing at the variant, and the command was refused ('unrecognized
    arguments: 44444 r0'); the words are read wherever they stand among the options."""
    want = run(capsys, "advise", "generala", "44444 r0", "--top", "1", "-o", "doble=on")
    assert want.startswith("Generala: dice 4 4 4 4 4, 0 roll(s) left, turn 1")
    for argv in (["advise", "generala", "--top", "1", "44444 r0", "-o", "doble=on"],
                 ["hint", "generala", "-o", "doble=on", "--top", "1", "44444 r0"],
                 ["advise", "--top", "1", "-o", "doble=on", "generala", "44444 r0"]):
        assert run(capsys, *argv) == want
    # what is still left over is refused, by name
    assert fail(capsys, "advise", "generala", "--top", "1", "44444 r0", "more") == (
        "yacht advise: error: unrecognized arguments: more (see `yacht advise --help`)\n")


def test_advise_json_top_shows_the_best_n_of_both_rankings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """--top N shows the best N actions; the JSON's ranking to reach the target had every
    action (18 here) beside the best N by score, where the text shows N of each."""
    import json

    data = json.loads(run(capsys, "advise", "tommys-crag", "661 r1", "--target", "150",
                          "--top", "2", "--json"))
    assert len(data["actions"]) == 2 and len(data["to_win"]["options"]) == 2
    assert data["to_win"]["options"][0]["category"] == "crag"
    data = json.loads(run(capsys, "advise", "tommys-crag", "661 r1", "--target", "150",
                          "--json"))
    assert len(data["actions"]) == len(data["to_win"]["options"]) == 18


def test_stats_of_computers_games_only_says_where_they_are(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A new player's first games are often demos (every seat a computer): `yacht stats`
    said 'No finished games.' with one finished; it says it was the computers'."""
    db = str(tmp_path / "g.db")
    monkeypatch.setenv("YACHT_DB", db)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    run(capsys, "play", "tommys-crag", "--demo", "--plain", "--speed", "instant", "--seed",
        "1", "--players", "Ann,cpu:beginner")
    assert run(capsys, "stats") == (
        "No finished games of people. (--computers counts the computer players too)\n")
    assert run(capsys, "stats", "Zed") == "No finished games for Zed.\n"
    assert "Ann (computer)" in run(capsys, "stats", "--computers")


def test_replay_says_a_served_generala_ended_the_game(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A served Generala wins at once with two players: the replay ended 'Winner: Bob with
    0' beside Ann's 6, the five of a kind that won never shown (no box was scored)."""
    import random

    from yacht.engine import Record, Score, State
    from yacht.rules import get

    s = State(get("generala"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    for action in (Roll((3, 3, 1, 2, 5)), Score("threes"), Roll((4, 4, 4, 4, 4))):
        s.apply(action)
    assert s.is_terminal() and s.winners() == [1]
    path = tmp_path / "served.json"
    Record.from_state(s).save(path)
    out = run(capsys, "replay", str(path))
    assert out.endswith(
        "\nTurn 1 - Bob: 4 4 4 4 4 -> won at once with a served Generala (five of a kind\n"
        "on the first roll), before the cards were full.\nWinner: Bob with 0\n")


def test_a_daily_challenge_takes_no_dice_typed_in(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The daily challenge has the same dice for everyone; before, 'roll 6 6 1' in its line
    game or `yacht resume ID --action "roll 6 6"` entered dice of one's choosing, and the
    game went first in the day's standings, marked (assisted) only."""
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "g.db"))
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nroll 6 6 1\n"))
    out = run(capsys, "daily", "tommys-crag", "--plain", "--name", "Sam")
    # (its help does not offer what it refuses; a game of one's own does)
    assert "choose 1,3" in out and "roll 6,6,2" not in out
    assert ("Not now. A daily challenge rolls its own dice, the same for everyone: their\n"
            "values cannot be given (roll without them).") in out
    import re

    found = re.search(r"`yacht play --plain --resume ([0-9a-f]{12})`", out)
    assert found is not None
    game_id = found.group(1)
    run(capsys, "resume", game_id, "--action", "roll")
    run(capsys, "resume", game_id, "--action", "choose 1")
    assert fail(capsys, "resume", game_id, "--action", "roll 6") == (
        "yacht: error: 'roll 6' is not allowed now: a daily challenge rolls its own dice, "
        "the same for everyone: their values cannot be given (roll without them)\n")
    assert "(dice entered)" not in run(capsys, "resume", game_id, "--show")
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n"))
    assert "roll 6,6,2" in run(capsys, "play", "tommys-crag", "--plain", "--players", "Sam")


def test_advise_says_on_a_terminal_that_a_table_is_being_built(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Maxi Yatzy's first advice took a minute without a word; on a terminal a line says
    that a table is being built (once), and nothing is said when it is ready."""
    import sys

    from yacht.strategy.solver import build, target

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(build, "is_ready", lambda rs, estimate=True: False)
    main(["advise", "tommys-crag", "661 r1", "--top", "1"])
    assert capsys.readouterr().err == (
        "yacht: building the expert's table for Tommy's Crag (once: it is kept in the "
        "cache)...\n")
    monkeypatch.setattr(build, "is_ready", lambda rs, estimate=True: True)
    monkeypatch.setattr(target, "is_ready", lambda rs, t, reach=False: False)
    main(["advise", "tommys-crag", "661 r1", "--top", "1", "--target", "150"])
    assert capsys.readouterr().err.startswith(
        "yacht: building the table for reaching 150 points (once: it is kept in the cache")
    monkeypatch.setattr(target, "is_ready", lambda rs, t, reach=False: True)
    main(["advise", "tommys-crag", "661 r1", "--top", "1", "--target", "150"])
    assert capsys.readouterr().err == ""


def test_rules_json_has_no_rule_of_a_box_left_off_the_card(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Generala with doble=off has no Doble Generala box; its rules JSON still listed the
    rule that the box needs Generala's points (the text, rightly, says nothing of it)."""
    import json

    names = [r["name"] for r in json.loads(run(capsys, "rules", "generala", "-o",
                                               "doble=off", "--json"))["special_rules"]]
    assert names == ["served_bonus", "served_win"]
    names = [r["name"] for r in json.loads(run(capsys, "rules", "generala",
                                               "--json"))["special_rules"]]
    assert names == ["served_bonus", "needs_box", "served_win"]


def test_the_dailys_standings_say_on_a_terminal_that_a_table_is_being_built(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`yacht daily maxi-yatzy --standings` worked out the expert's total on the day's dice
    first, the first time building its table: minutes without a word. On a terminal a
    line says so, as advice does; nothing when the total is known or the table ready."""
    import sys

    from yacht.strategy.solver import build

    monkeypatch.setenv("YACHT_DB", str(tmp_path / "g.db"))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(build, "is_ready", lambda rs, estimate=True: False)
    assert main(["daily", "generala", "--standings"]) == 0
    said = capsys.readouterr()
    assert said.err == ("yacht: building the expert's table for Generala (once: it is "
                        "kept in the cache)...\n")
    expert = [line for line in said.out.splitlines() if "expert" in line]
    assert expert and any(ch.isdigit() for ch in expert[0]), said.out  # (then its total)
    main(["daily", "generala", "--standings"])  # (the total is known now: no line)
    assert capsys.readouterr().err == ""
    main(["daily", "yatzy", "--standings", "--json"])  # (JSON: no words on the side)
    assert capsys.readouterr().err == ""
