"""The plain game driven through a pipe, as a script or a screen reader would."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from yacht.engine import Player, Roll
from yacht.plain import PlainGame
from yacht.rules import get
from yacht.session import category_keys
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL, Table

CRAG_LETTERS = list(category_keys(get("tommys-crag")).values())


def play(args: list[str], text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "yacht", "play", *args], input=text,
                          capture_output=True, text=True, env=env, timeout=120)


def whole_crag_game() -> str:
    # each turn: roll, then score the next box by its letter
    return "".join(f"\n{k}\n" for k in CRAG_LETTERS)


def test_a_whole_game_from_a_pipe(tmp_path: Path) -> None:
    r = play(["tommys-crag", "--players", "Ann", "--seed", "4"], whole_crag_game(), tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = r.stdout
    assert out.count("Ann scores ") == 13
    assert "Game over." in out and "Grand total" in out
    total = int(re.search(r"Ann scored (-?\d+)\.", out).group(1))  # type: ignore[union-attr]
    assert "the expert's average of 149.8" in out
    assert re.search(rf"1\. Ann\s+{total} .*\*new\*", out)
    # the same seed gives the same game
    again = play(["tommys-crag", "--players", "Ann", "--seed", "4", "--plain"],
                 whole_crag_game(), tmp_path)
    assert f"Ann scored {total}." in again.stdout
    # the end line knows the first game: the same score, the best so far
    assert (f"Ann's best game of Tommy's Crag so far (the 1 before it averaged {total}.0)."
            in " ".join(again.stdout.split())), again.stdout
    assert "Ann's first game of Tommy's Crag." in " ".join(out.split())


def test_end_of_input_saves_and_resume_continues(tmp_path: Path) -> None:
    first = "".join(f"\n{k}\n" for k in CRAG_LETTERS[:5])
    r = play(["crag", "--players", "Ann", "--seed", "2"], first, tmp_path)
    assert r.returncode == 0, r.stderr
    m = re.search(r"yacht resume (\w+)", r.stdout)
    assert m, r.stdout
    # a start without a game named mentions the saved one
    other = play(["--plain"], "", tmp_path)
    assert f"yacht resume {m.group(1)}" in other.stdout
    assert "Unfinished: Tommy's Crag, turn 6 of 13 (Ann " in other.stdout
    rest = "".join(f"\n{k}\n" for k in CRAG_LETTERS[5:])
    r2 = play(["--resume", m.group(1)[:6]], rest, tmp_path)  # a unique start of the id will do
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout.count("Ann scores ") == 8
    assert "Game over." in r2.stdout


def test_bad_input_is_answered_and_the_game_goes_on(tmp_path: Path) -> None:
    script = "zz\n\n9\n1 7\nqq\nthirteen 3\n?\nc\nb\n" + "".join(
        f"\n{k}\n" for k in CRAG_LETTERS)
    r = play(["crag", "--players", "Ann", "--seed", "1"], script, tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Unknown action 'zz'" in out
    assert "There is no die 9 (accepted: positions 1-3)." in out
    assert "Unknown action 'qq'" in out
    assert "Box letters:" in out  # the help, with where Tommy's letters moved a box
    assert "Ones is k here (e is Even Straight, as in the original)." in out
    assert "Game over." in out


def test_reroll_singlets_oops_and_computer_turns(tmp_path: Path) -> None:
    keys = category_keys(get("tommys-crag"))
    script = f"\n1 2\n{keys['crag']}\no\n{keys['twos']}\n" + whole_crag_game()
    r = play(["crag", "--players", "Ann,Cpu=cpu:beginner", "--seed", "3"], script, tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Roll 2 of 2." in out
    assert "Taken back." in out
    assert re.search(r"Cpu rolls: \d \d \d\.", out)
    assert "Cpu scores " in out


def test_errors_on_the_command_line_are_one_line(tmp_path: Path) -> None:
    for args, match in [(["nosuch"], "unknown variant"),
                        (["yahtzee", "--players", "a,,b"], "separated by commas"),
                        (["yahtzee", "-o", "joker=maybe"], "joker"),
                        (["--resume", "feedbeef0000"], "no game")]:
        r = play([*args, "--plain"], "", tmp_path)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and match in lines[0], r.stderr


def yacht(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "yacht", *args], capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.slow
def test_real_dice_are_entered_marked_and_not_verified(tmp_path: Path) -> None:
    crag = CRAG_LETTERS.index(category_keys(get("tommys-crag"))["crag"])
    turns = [f"\n{k}\n" for k in CRAG_LETTERS]
    turns[crag] = f"roll 6,6,1\n{CRAG_LETTERS[crag]}\n"  # the real dice show a crag
    r = play(["tommys-crag", "--players", "Ann"], "".join(turns), tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.count("this game is now marked dice entered") == 1
    assert "Ann scores Crag for 50." in out
    assert "Top ten (dice entered):" in out
    assert re.search(r"1\. Ann\s+\d+ +\S+ \(dice entered\) \*new\*", out), out
    # an honest game beside it: the dice of the store, verified
    honest = play(["tommys-crag", "--players", "Bo"], whole_crag_game(), tmp_path)
    assert honest.returncode == 0 and "dice entered" not in honest.stdout
    listed = yacht(["resume", "--finished", "--json"], tmp_path)
    games = {g["players"][0]["name"]: g for g in json.loads(listed.stdout)}
    assert games["Ann"]["dice_entered"] and not games["Bo"]["dice_entered"]
    ann = yacht(["verify", games["Ann"]["id"]], tmp_path)
    assert ann.returncode == 1 and "entered by hand" in ann.stdout
    bo = yacht(["verify", games["Bo"]["id"]], tmp_path)
    assert bo.returncode == 0 and bo.stdout.startswith("verified: all 39 dice")
def test_messages_name_the_boxes_not_their_ids() -> None:
    """A box refused, a box unknown: the line game says the boxes' names."""
    table = Table.new(get("yahtzee", {"joker": "forced"}), [Player("Ann")],
                      rng=random.Random(1))
    table.real_dice = True  # (the test says what the dice show)
    table.act(LOCAL, Roll((6, 6, 6, 6, 6)), ScoreBox("yahtzee"), Roll((6, 6, 6, 6, 6)))
    out = io.StringIO()
    PlainGame(table, io.StringIO("3 of a kind\nscore zz\nq\n"), out).run()
    text = out.getvalue()
    assert "3 of a Kind cannot be scored now (open to these dice: Sixes)." in text
    assert "Yahtzee has no box 'zz' (boxes: Ones, Twos, Threes, Fours, Fives, Sixes, " \
           "3 of a Kind, 4 of a Kind, Full House, Small Straight, Large Straight, " \
           "Yahtzee, Chance; or their letters)." in text
    assert "three_of_a_kind" not in text and "sixes" not in text


def test_the_unfinished_games_named_at_the_start_are_told_apart(tmp_path: Path) -> None:
    from yacht.plain import run_plain
    from yacht.session import Launch
    from yacht.store import open_store

    store = open_store(str(tmp_path / "db.sqlite3"))
    ids = []
    for dice in ((6, 6, 6, 1, 2), (1, 1, 2, 3, 5)):
        t = Table.new(get("yahtzee"), [Player("Ann")], store=store, rng=random.Random(1))
        t.real_dice = True  # (the test says what the dice show)
        t.act(LOCAL, Roll(dice), ScoreBox("chance"))
        ids.append(t.view().game_id)
    out = io.StringIO()
    run_plain(Launch(), io.StringIO(""), out, store=store)
    store.close()
    lines = [line for line in out.getvalue().splitlines() if line.startswith("Unfinished")]
    assert len(lines) == 2 and lines[0] != lines[1]
    for total, gid in ((21, ids[0]), (12, ids[1])):
        line = next(line for line in lines if str(gid) in line)
        assert f"Ann {total}" in line and "turn 2 of 13" in line, line


def line_game(script: str, players: list[str] | None = None, store: Any = None) -> str:
    """A Yahtzee game in the line game (in this process), fed ``script``."""
    table = Table.new(get("yahtzee"), [Player(n) for n in players or ["Ann"]], store=store,
                      rng=random.Random(5))
    table.real_dice = True  # real dice may be entered, as in `yacht play --plain`
    out = io.StringIO()
    PlainGame(table, io.StringIO(script), out).run()
    return out.getvalue()


def test_the_line_game_reads_the_notation_of_resume_action(tmp_path: Path) -> None:
    """One notation: what `yacht resume ID --action` takes works at every prompt."""
    out = line_game("roll\n3 of a kind\n"                  # `roll` at the start of a turn
                    "roll 6,6,6,2,1\nchoose 4,5\nroll 6,6\nsixes\n"  # real dice
                    "\nchoose 1\nr\nq\n")                   # nothing: roll; choose, then r
    assert "Press Enter to roll" not in out and "Unknown action" not in out
    assert "Ann scores 3 of a Kind" in out
    assert "Roll 1 of 3. Dice: 6 6 6 2 1." in out
    assert "Ann scores Sixes for 30." in out
    turn3 = out[out.index("Ann, turn 3"):]
    assert "Dice 1 chosen: Enter rolls them, or score a box?" in turn3
    assert "Roll 2 of 3." in turn3
    assert "(letter/id)" not in out and "(a letter or a name)" in out


def test_input_ending_says_what_happened(tmp_path: Path) -> None:
    from yacht.session.commands import resume_hint
    from yacht.store import open_store

    out = line_game("")  # nothing: not even the first roll
    assert "Game over unfinished" not in out
    assert out.rstrip().endswith("The input ended before the first roll: nothing was "
                                 "played, so there is nothing to save.")
    out = line_game("\n")  # a roll, no store
    assert out.rstrip().endswith("The input ended. This game was not saved (there is no "
                                 "store).")
    store = open_store(str(tmp_path / "db.sqlite3"))
    out = line_game("\nq\n", store=store)
    gid = store.unfinished_games()[0].id
    store.close()
    # the terminal game's hint, word for word
    assert out.rstrip().endswith(f"Game saved. {resume_hint(gid)}.")
    assert resume_hint(gid) == f"`yacht resume {gid}` continues it"


def test_the_line_game_names_the_dice_to_roll_again_in_every_variant() -> None:
    """Yahtzee's clicks hold the dice (the terminal, the browser); the line game's words
    name the dice to roll again, in every variant, and its help says so."""
    out = line_game("roll 6,6,1,2,3\n"       # real dice
                    "?\n"                    # the help
                    "\n"                     # Enter with nothing chosen: no roll of all
                    "choose 3,4,5\nroll 6,6,6\nq\n")
    assert "The dice you name\nare always the ones to roll again" in out
    assert "Not now: choose at least one die to roll again, or score." in out
    assert "Roll 2 of 3. Dice: 6 6 6 6 6." in out


def test_the_first_hint_of_the_line_game_asks_first() -> None:
    out = line_game("roll 6,6,1,2,3\nh\nn\nh\ny\nh\nq\n")
    notice = ("A hint marks the game assisted: Ann's score goes to the list apart from the "
              "top ten. Show the hint? (y/n)")
    assert out.count(notice) == 2  # asked the first time, and again after a no
    assert "No hint: the game stays as it was." in out
    first = out.index("No hint: the game stays as it was.")
    assert "This game is now marked assisted." not in out[:first]
    assert out.count("This game is now marked assisted.") == 2  # the second hint: at once


def clocked_game(store: Any, started: float) -> str:
    """A saved game of Ann and Bob with a 30-second turn clock whose turn began at
    ``started`` (an online table's game, resumed in the line game)."""
    from yacht.session import open_table

    t = open_table(store, source="web", variant="yatzy", options={},
                   players=[Player("Ann"), Player("Bob")],
                   meta={"clock": {"kind": "turn", "per_turn": 30, "bank": 0}})
    gid = t.save()
    assert gid is not None
    store.set_clock(gid, {"key": [0, 0], "started": started, "banks": [0, 0], "out": None})
    return gid


def test_the_line_game_tells_the_turn_clock(tmp_path: Path) -> None:
    """A game with a turn clock: each prompt says whose time and how much is left, as the
    terminal game's title does; a turn whose time ran out is said and played."""
    import time

    from yacht.plain import run_plain
    from yacht.session import Launch
    from yacht.store import open_store

    store = open_store(str(tmp_path / "db.sqlite3"))
    try:
        out = io.StringIO()
        run_plain(Launch(resume=clocked_game(store, time.time() - 10)),
                  io.StringIO("\nq\n"), out, store=store)
        text = out.getvalue()
        prompts = re.findall(r"⏱ Ann 0:(\d\d)\. Ann, turn 1: press Enter to roll\.", text)
        assert prompts and 0 < int(prompts[0]) <= 20, text  # (10 s of 30 were gone)
        assert re.search(r"⏱ Ann 0:\d\d\. Roll 1 of 3\. Dice: ", text), text
        out = io.StringIO()
        run_plain(Launch(resume=clocked_game(store, time.time() - 60)),
                  io.StringIO("q\n"), out, store=store)
        text = out.getvalue()
        assert "Ann: time is up; the computer plays the turn." in text, text
        assert "⏱ Bob 0:" in text and "Bob, turn 1: press Enter to roll." in text, text
    finally:
        store.close()
    # a game without a clock says none
    assert "⏱" not in line_game("\nq\n")


def test_eight_cards_fit_the_line_width(tmp_path: Path) -> None:
    """Eight players' cards are wider than 78 columns: they come in blocks that fit, every
    player's column whole (a line wrapped by the terminal was a broken table)."""
    others = ",".join(f"Player {i}=cpu:beginner" for i in range(2, 9))
    r = play(["crag", "--players", f"Ann,{others}", "--seed", "2", "--speed", "instant"],
             "c\n" + whole_crag_game(), tmp_path)
    assert r.returncode == 0, r.stderr
    # (the prompt before it has no line end: what was typed is not echoed in a pipe)
    lines = [line[line.index("Box "):] if "Box " in line else line
             for line in r.stdout.splitlines()]
    heads = [line for line in lines if line.startswith("Box ")]
    table = [line for line in lines if line.startswith(("Box ", "Crag ", "Grand total"))]
    assert heads and all(len(line) <= 78 for line in table)
    first = heads[0].split()  # the card asked for at the start: two blocks of four
    assert first[1] == "Ann" and "Player 8" not in heads[0] and "Player 8" in heads[1]
    assert heads[0].count("Player") == 3 and heads[1].count("Player") == 4
