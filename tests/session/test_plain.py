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


def flat(text: str) -> str:
    """The line game's words, whatever the lines they were wrapped into (78 columns)."""
    return " ".join(text.split())


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
    assert "the expert's average of 149.8" in flat(out)
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
    m = re.search(r"`yacht play --plain --resume (\w+)` continues it", r.stdout)
    assert m, r.stdout
    # a start without a game named mentions the saved one
    other = play(["--plain"], "", tmp_path)
    assert f"yacht play --plain --resume {m.group(1)}" in other.stdout
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
    text = flat(out.getvalue())
    assert "3 of a Kind cannot be scored now (open to these dice: Sixes)." in text
    assert "Yahtzee has no box 'zz' (boxes: Ones, Twos, Threes, Fours, Fives, Sixes, " \
           "3 of a Kind, 4 of a Kind, Full House, Small Straight, Large Straight, " \
           "Yahtzee, Chance; or their letters)." in text
    assert "three_of_a_kind" not in text and "sixes" not in text


@pytest.mark.parametrize(("typed", "said"), [
    ("Full Houze", "Yahtzee has no box 'Full Houze': Full House (l) is the nearest."),
    ("score smal straigt", "Yahtzee has no box 'smal straigt': Small Straight (m) is the "
                           "nearest."),
    ("large", "Yahtzee has no box 'large': Large Straight (j) is the nearest."),
    ("thr", "Unknown action 'thr'. Accepted here: the dice"),  # (Threes or 3 of a Kind: not said)
])
def test_a_misspelt_box_is_told_the_nearest(typed: str, said: str) -> None:
    """A misspelt box ('Full Houze') was an unknown action, answered with the notation
    of `yacht resume --action`: the nearest box is named, with its letter (QA s23)."""
    table = Table.new(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    table.act(LOCAL, Roll())
    out = io.StringIO()
    PlainGame(table, io.StringIO(f"{typed}\nq\n"), out).run()
    assert said in flat(out.getvalue())


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
    lines = flat(out.getvalue()).split("Unfinished: ")[1:]
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
    assert "Die 1 chosen: Enter rolls it, or score a box?" in turn3
    assert "Roll 2 of 3." in turn3
    assert "(letter/id)" not in out and "(a letter or a name)" in out


def test_input_ending_says_what_happened(tmp_path: Path) -> None:
    from yacht.plain.game import resume_hint
    from yacht.store import open_store

    out = flat(line_game(""))  # nothing: not even the first roll
    assert "Game over unfinished" not in out
    assert out.endswith("The input ended before the first roll: nothing was "
                        "played, so there is nothing to save.")
    out = flat(line_game("\n"))  # a roll, no store
    assert out.endswith("The input ended. This game was not saved (there is no store).")
    store = open_store(str(tmp_path / "db.sqlite3"))
    out = flat(line_game("\nq\n", store=store))
    gid = store.unfinished_games()[0].id
    store.close()
    # the line game's own way back (`yacht resume ID` would open the full-screen game)
    assert out.endswith(f"Game saved. {resume_hint(gid)}.")
    assert resume_hint(gid) == f"`yacht play --plain --resume {gid}` continues it"


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
    out = flat(line_game("roll 6,6,1,2,3\nh\nn\nh\ny\nh\nq\n"))
    notice = ("A hint marks the game assisted: Ann's score goes to the list apart from the "
              "top ten. Show the hint? (y/n)")
    assert out.count(notice) == 2  # asked the first time, and again after a no
    assert "No hint: the game stays as it was." in out
    first = out.index("No hint: the game stays as it was.")
    assert "This game is now marked assisted." not in out[:first]
    # said with the hint that marked it, not again at the next hint (given at once)
    assert out.count("This game is now marked assisted.") == 1
    assert out.count("1. Keep") + out.count("1. Score") == 2  # (two hints given)


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


class Echoed(io.StringIO):
    """Input typed at a terminal: each line read shows on the output, as a terminal echoes
    it (so a prompt and what follows it are lines of their own, as a person sees them)."""

    def __init__(self, text: str, out: io.StringIO) -> None:
        super().__init__(text)
        self.out = out

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(-1 if size is None else size)
        self.out.write(line)
        return line


def seen(variant: str, script: str, players: list[Player], options: Any = None,
         store: Any = None) -> str:
    """The line game of ``variant`` as a person at a terminal sees it, fed ``script``."""
    table = Table.new(get(variant, options or {}), players, store=store, rng=random.Random(5))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, Echoed(script, out), out).run()
    return out.getvalue()


@pytest.mark.parametrize("variant", ["yahtzee", "ancient-yacht-double", "maxi-yatzy",
                                     "ancient-yacht-10-double", "generala", "tommys-yacht"])
def test_every_line_of_the_line_game_fits_78_columns(variant: str) -> None:
    """The prompts, the help, the errors and the cards: none wider than the line (the
    roll prompt was about 100 columns, an unknown action 170, the help's box letters 190)."""
    people = [Player("Ann"), Player("Bob"), Player.from_json({"name": "Zoë Aaronson-Bartholomew"})]
    script = ("\n?\nzzz\nf 3\nb\nc\nh\nmaybe\nn\nchoose 1,2\nthree of a kind\n"
              "full house 9\n\n1 2\n\nq\n")
    text = seen(variant, script, people)
    assert "Type ? for help" in flat(text) and "Box letters:" in text
    wide = [line for line in text.splitlines() if len(line) > 78]
    assert not wide, wide


def test_the_roll_prompt_asks_on_a_line_of_its_own() -> None:
    text = seen("yahtzee", "roll 1,2,3,3,5\nchoose 1\nq\n", [Player("Ann")])
    assert ("Roll 1 of 3. Dice: 1 2 3 3 5.\nRe-roll which dice (e.g. 1 3), or score a box "
            "(a letter or a name)? choose 1\n") in text
    assert "Die 1 chosen: Enter rolls it, or score a box? q\n" in text


def test_one_die_to_roll_is_spoken_of_as_one() -> None:
    """'Dice 5 chosen: Enter rolls them' and 'Roll needs 1 values 1-6 for the dice
    rolled' for a single die (QA s24)."""
    text = seen("yahtzee", "roll 5,5,6,6,3\nchoose 5\nroll 9\nroll 4,4\nchoose 1,2\n"
                "roll 7\nq\n", [Player("Ann")])
    said = flat(text)
    assert "Die 5 chosen: Enter rolls it, or score a box?" in said
    assert "Roll needs 1 value 1-6 for the die rolled, not '9'." in said
    assert "Roll needs 1 value 1-6 for the die rolled, not '4,4'." in said
    assert "Dice 1,2 chosen: Enter rolls them, or score a box?" in said
    assert "Roll needs 2 values 1-6 for the dice rolled, not '7'." in said
    assert "1 values" not in said and "Dice 5 " not in said


def test_a_served_generala_ends_the_game_without_asking_for_a_roll() -> None:
    text = seen("generala", "roll 5,5,5,5,5\n\n", [Player("Pia"), Player("Quin")])
    assert "Pia wins at once with a served Generala" in flat(text)
    # the winning dice are said (before, no line showed them: the game was over)
    assert "Pia rolls: 5 5 5 5 5.\n" in text
    assert "roll again" not in text and "No box takes these dice" not in text


def test_a_line_at_the_pause_that_is_no_command_is_said_not_taken_as_enter() -> None:
    """At 'Enter: Quin's turn (o: Oops...)' a roll typed for the next player went on
    as Enter, the dice dropped without a word (QA s21)."""
    text = seen("generala", "roll 1,2,3,4,6\nones\nroll 5,5,5,5,5\n\nq\n",
                [Player("Pia"), Player("Cy", "computer", "expert")])
    said = flat(text)
    assert ("Not now: 'roll 5,5,5,5,5' (accepted here: Enter for Cy's turn, o to take "
            "back the last score, or ? for the commands).") in said
    # the pause stayed: Enter then went on to Cy's turn
    after = said.split("Not now:")[1]
    assert "Enter: Cy's turn" in after and "Cy scores" in after


def test_a_column_the_game_has_not_is_named_not_unknown() -> None:
    text = seen("ancient-yacht-double", "\nf 3\nf x\nq\n", [Player("Ann")])
    assert "There is no column 3 (accepted: 1-2)." in text
    assert "There is no column 'x' (accepted: 1-2)." in text
    assert "Unknown action" not in text


def test_the_hint_question_takes_only_yes_or_no() -> None:
    text = flat(seen("yahtzee", "roll 6,6,1,2,3\nh\nmaybe\n\ny\nq\n", [Player("Ann")]))
    assert "Answer y (show the hint), n (no hint) or q (quit), not 'maybe':" in text
    assert "Answer y (show the hint), n (no hint) or q (quit), not '':" in text
    assert "No hint:" not in text and "This game is now marked assisted." in text


def test_q_at_the_hint_question_quits() -> None:
    """q (quit, at every prompt) at the first hint's y/n question was answered 'Answer y
    (show the hint) or n (no hint), not 'q'': the game quits, saved, unmarked."""
    text = flat(seen("yahtzee", "roll 6,6,1,2,3\nh\nq\n", [Player("Ann")]))
    assert "not 'q'" not in text and "assisted." not in text.split("Show the hint?")[1]
    assert text.endswith("This game was not saved (there is no store).")


def test_refusals_keep_the_capitals_of_box_names() -> None:
    text = seen("yahtzee", "roll 6,6,6,6,6\nyahtzee\nroll 6,6,6,6,6\nfull house\nroll\n"
                "q\n", [Player("Ann")], {"joker": "forced"})
    assert "Not now: Full House cannot be scored now" in flat(text)
    assert "full House" not in text
    assert "Not now: choose at least one die to roll again, or score." in flat(text)


def test_tommys_yacht_first_turn_rolls_are_its_own_not_saved() -> None:
    """Tommy's Yacht's first turn rolls up to 32 times; those are not saved rolls (Maxi
    Yatzy's rule), as its prompt said: "Roll 1 of 32 (2 + 29 saved left)"."""
    from yacht.render import rolls_split, rolls_text

    text = seen("tommys-yacht", "roll 1,2,3,4,6\nq\n", [Player("Ann")])
    assert "Roll 1 of 32. Dice: 1 2 3 4 6.\n" in text and "saved left" not in text
    yacht = get("tommys-yacht")
    assert rolls_split(yacht, 1, 31) == (31, 0) and rolls_text(yacht, 1, 31) == "31"
    assert rolls_text(get("maxi-yatzy"), 0, 7) == "3 + 4 saved"
    assert rolls_text(get("maxi-yatzy", {"saved_rolls": "off"}), 0, 3) == "3"


class Interrupting(io.StringIO):
    """Input that is interrupted (Ctrl-C) once its lines are read."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(-1 if size is None else size)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_says_whether_the_game_is_saved_and_how_it_goes_on(tmp_path: Path) -> None:
    from yacht.plain.game import resume_hint
    from yacht.store import open_store

    store = open_store(str(tmp_path / "db.sqlite3"))
    try:
        table = Table.new(get("yahtzee"), [Player("Bob")], store=store, rng=random.Random(21))
        out = io.StringIO()
        with pytest.raises(KeyboardInterrupt):  # (the command then ends with status 130)
            PlainGame(table, Interrupting("\n1 2\n"), out).run()
        gid = table.view().game_id
        assert gid is not None
        assert flat(out.getvalue()).endswith(f"Game saved. {resume_hint(gid)}.")
        assert store.load_state(gid).rolls == 2  # the dice as they were
        out = io.StringIO()  # nothing played: nothing saved, and it says so
        with pytest.raises(KeyboardInterrupt):
            PlainGame(Table.new(get("yahtzee"), [Player("Bob")], store=store),
                      Interrupting(""), out).run()
        assert flat(out.getvalue()).endswith("Interrupted before the first roll: nothing "
                                             "was played, so there is nothing to save.")
    finally:
        store.close()


def test_the_cli_says_ctrl_c_saved_the_game(tmp_path: Path) -> None:
    """`yacht play --plain` interrupted: the game's line, then `yacht: interrupted`, 130."""
    import signal
    import time

    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "yacht", "play", "yahtzee", "--plain",
                             "--players", "Bob", "--seed", "21"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    seen_text = ""
    while "Re-roll which dice" not in seen_text and time.monotonic() < deadline:
        seen_text += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "yacht: interrupted" in err
    assert re.search(r"Game saved\. `yacht play --plain --resume \w+` continues it\.",
                     flat(out)), out


def test_maxi_yatzys_capital_o_scores_five_of_a_kind_not_oops() -> None:
    """Maxi Yatzy's box list says 'O 5 of a Kind', but O typed in the line game (or given
    to `yacht resume --action`) was taken as o, Oops: 'Oops is not possible...' and the
    box could not be scored by its letter (QA s22). A lower-case o is still Oops."""
    from yacht.engine import TakeBack
    from yacht.session.commands import parse_command

    text = flat(seen("maxi-yatzy", "roll 3,3,3,3,3,1\nO\no\nq\n", [Player("Ann"), Player("Bob")]))
    assert "Ann scores 5 of a Kind for 15." in text
    assert "Oops is not possible" not in text.split("Ann scores")[0]
    state = Table.new(get("maxi-yatzy"), [Player("Ann")])._game.state
    assert parse_command("O", state) == [ScoreBox("five_of_a_kind")]
    assert parse_command("T", state) == [ScoreBox("three_pairs")]
    assert parse_command("o", state) == [TakeBack()]
    yahtzee = Table.new(get("yahtzee"), [Player("Ann")])._game.state
    assert parse_command("O", yahtzee) == [TakeBack()]


def test_a_game_taken_up_mid_turn_says_whose_turn_it_is() -> None:
    """A game of two resumed with dice showing began 'Roll 1 of 3. Dice: ...', never
    saying whose dice they were: the name only came with 'press Enter to roll' (QA s22)."""
    table = Table.new(get("kismet"), [Player("Ann"), Player("Bob")], rng=random.Random(5))
    table.real_dice = True
    table.act(LOCAL, Roll((1, 2, 3, 4, 5)))
    table.act(LOCAL, ScoreBox("yarborough"))
    table.run_due()
    if table.view().pause is not None:
        from yacht.session.commands import GoOn
        table.act(LOCAL, GoOn())
    table.act(LOCAL, Roll((6, 6, 6, 2, 2)))
    out = io.StringIO()
    PlainGame(table, Echoed("q\n", out), out).run()
    head = out.getvalue().split("Roll 1 of 3")[0]
    assert "Bob's turn 1." in head, out.getvalue()


def test_the_second_kismet_penalty_is_told() -> None:
    """Ann's second Kismet wrote 0 in Bob's Twos without a word in the line game (the
    terminal and the browser list it among the news) (QA s22)."""
    text = flat(seen("kismet", "roll 6,6,6,6,6\ny\nroll 1,2,3,4,5\ne\nroll 5,5,5,5,5\ng\nq\n",
                     [Player("Ann"), Player("Bob")]))
    after = text.split("Ann scores 4 of a Kind for 50.")[1]
    assert "Bob writes 0 in Twos" in after.split("Bob, turn 2")[0], after


def test_the_line_game_s_resume_hint_goes_on_in_the_line_game(tmp_path: Path) -> None:
    """The line game said "`yacht resume ID` continues it": from a pipe that command only
    shows the game, and in a terminal it opens the full-screen game, not the line game.
    The command it names now plays on with line prompts, as typed."""
    r = play(["crag", "--players", "Ann", "--seed", "2"], f"\n{CRAG_LETTERS[0]}\n\n", tmp_path)
    m = re.search(r"Game saved\. `(yacht [^`]+)` continues it\.", flat(r.stdout))
    assert m, r.stdout
    words = m.group(1).split()
    assert words[:2] == ["yacht", "play"] and "--plain" in words, words
    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), NO_COLOR="1")
    again = subprocess.run([sys.executable, "-m", "yacht", *words[1:]],
                           input=f"{CRAG_LETTERS[1]}\n", capture_output=True, text=True,
                           env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "Ann scores " in again.stdout and "Game saved." in again.stdout, again.stdout


def test_a_yahtzee_bonus_and_the_joker_rule_are_told_apart_from_the_box() -> None:
    """A second Yahtzee: the box list said 'x Sixes 130' with no word of why Sixes was the
    only box, and 'Ann scores Sixes for 130' while the card holds Sixes 30 and a Yahtzee
    bonus of 100."""
    out = flat(line_game("roll 6,6,6,6,6\ny\nroll 6,6,6,6,6\nx\nq\n"))
    assert "Boxes: x Sixes 30 + 100. Joker rule: this Yahtzee must go in Sixes (+100 " \
           "Yahtzee bonus)." in out
    assert "Ann scores Sixes for 30 and a Yahtzee bonus of 100. Total 180." in out
    assert "130" not in out


def test_a_served_box_and_a_repeat_are_named_in_the_scoring() -> None:
    """Generala's served Escalera scored 25 with no word of why not 20; Tommy's Yahtzee
    board taken again read as if it were filled the first time."""
    table = Table.new(get("generala"), [Player("Ann")], rng=random.Random(5))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, io.StringIO("roll 1,2,3,4,5\nescalera\nq\n"), out).run()
    assert "Ann scores Escalera for 25 (served). Total 25." in flat(out.getvalue())
    table = Table.new(get("tommys-yahtzee"), [Player("Ann")], rng=random.Random(5))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, io.StringIO("roll 6,6,6,6,6\ny\nroll 6,6,6,6,6\ny\nq\n"), out).run()
    assert "Ann scores Yahtzee again for 50. Total 100." in flat(out.getvalue())


def test_the_hint_says_what_to_type() -> None:
    """The hint keeps dice by their faces ('Keep 1 2 and roll the other one' for 2 5 1),
    and the line game takes the positions of the dice to roll again: typing '1 2' rolled
    the very dice the hint kept. Each move now says what to type."""
    table = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(5))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, io.StringIO("roll 2,5,1\nh\ny\nq\n"), out).run()
    text = flat(out.getvalue())
    assert "Keep 5 and roll the other two, type 1 3 (expect" in text
    assert "Keep 1 2 and roll the other one, type 2 (expect" in text
    assert "Roll all three dice again, type a (expect" in text
    out = io.StringIO()
    table = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(5))
    table.real_dice = True
    PlainGame(table, io.StringIO("roll 6,6,1\nh\ny\nq\n"), out).run()
    crag = category_keys(get("tommys-crag"))["crag"]
    assert f"Score Crag for 50, type {crag} (expect" in flat(out.getvalue())


def test_a_two_column_box_list_gives_each_box_once_with_its_capital() -> None:
    """Two columns: the box list named all 24 boxes over ten lines, and column 2's boxes
    with the lower-case letter ('e Ones (column 2) 2'), which scores column 1. A box open
    in both columns is now given once with both letters; one open in column 2 alone with
    its capital."""
    rs = get("ancient-yacht-double")
    table = Table.new(rs, [Player("Ann")], rng=random.Random(5))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, io.StringIO("roll 1,1,2,3,5\ne\nroll 1,1,2,3,5\nq\n"), out).run()
    text = flat(out.getvalue())
    assert "Boxes (a capital letter scores column 2): e/E Ones 2; t/T Twos 2;" in text
    assert "(column 1) 2;" not in text
    assert "Ann scores Ones (column 1) for 2." in text
    after = text[text.index("turn 2"):]
    assert "E Ones (column 2) 2" in after and "e/E" not in after


def test_an_unknown_command_is_answered_with_what_the_prompt_takes() -> None:
    """'xyz' was answered with the notation of `yacht resume --action`: 'roll [VALUES],
    choose POSITIONS (...), score BOX [COLUMN], give-back, take-back, computer, or a box's
    letter', three lines naming `computer` (no command of a person's turn) and neither the
    dice to roll again nor ? for the commands."""
    table = Table.new(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, io.StringIO("xyz\nroll 1,2,3,4,6\nxyz\n1\n1\nxyz\nq\n"), out).run()
    text = flat(out.getvalue())
    assert "Unknown action 'xyz'. Accepted here: Enter to roll, or ? for every command." \
        in text
    assert "Unknown action 'xyz'. Accepted here: the dice to roll again, e.g. 1 3; a box's " \
           "letter or name; or ? for every command." in text
    assert "Unknown action 'xyz'. Accepted here: a box's letter or name, or ? for every " \
           "command." in text
    assert "computer" not in text


def test_a_quick_build_says_no_time_left_of_0_s() -> None:
    """The advisor's tables of Tommy's Crag build in a moment, and the line game said
    '25% done, about 0 s left.' three times; a build says its quarters once it has taken
    two seconds, and never 0 s."""
    import time

    table = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    game = PlainGame(table, io.StringIO(""), out)
    game._since = (time.monotonic(), 0)
    for done in range(1, 101):
        game.progress(done, 100)
    assert out.getvalue() == ""
    game._since = (time.monotonic() - 3, 0)
    game.progress(50, 100)
    game.progress(74, 100)
    game.progress(75, 100)
    assert out.getvalue() == "50% done, about 3 s left.\n75% done, about 1 s left.\n"


def test_the_help_says_tommys_board_names_are_not_typed() -> None:
    """Tommy's help lists his board names beside the boxes ('1 Ones', 'A Odd Straight'),
    and in the line game 1 rolls die 1 again and A rolls every die: the help says so."""
    table = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    PlainGame(table, io.StringIO("?\nq\n"), out).run()
    assert "The board names (1-D) are not typed here: a number names dice to roll again " \
           "and a rolls them all; score a box by its letter or its name." in flat(out.getvalue())
    table = Table.new(get("yahtzee"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    PlainGame(table, io.StringIO("?\nq\n"), out).run()
    assert "board names" not in out.getvalue()


def test_the_help_says_what_the_dice_marks_and_the_served_mark_mean() -> None:
    """The line game shows Kismet's dice as '3■ 4■ 1●' and a served box on the card as
    '25s', and its help said what neither mark means (the terminal game's help does)."""
    table = Table.new(get("kismet"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    PlainGame(table, io.StringIO("?\nq\n"), out).run()
    assert "On the dice each colour has pips of its own shape: ● black (1 and 6), ◆ red " \
           "(2 and 5), ■ green (3 and 4)." in flat(out.getvalue())
    table = Table.new(get("generala"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    PlainGame(table, io.StringIO("?\nq\n"), out).run()
    assert "On the card an s after the points (25s) marks a box scored served" \
        in flat(out.getvalue())


def test_the_dice_given_back_by_oops_keep_their_colours() -> None:
    """Kismet: 'Taken back. Ann again, dice: 3 3 4 4 1.' lost the colour marks every
    other line of the game shows the dice with (3■ 3■ 4■ 4■ 1●)."""
    table = Table.new(get("kismet"), [Player("Ann")], rng=random.Random(5))
    table.real_dice = True
    out = io.StringIO()
    PlainGame(table, io.StringIO("roll 3,3,4,4,1\nv\no\nq\n"), out).run()
    assert "Taken back. Ann again, dice: 3■ 3■ 4■ 4■ 1●." in flat(out.getvalue())


def test_o_gives_back_the_chosen_dice_as_oops_does_elsewhere() -> None:
    """Oops has two parts (RULES.md), and o with dice chosen answered 'Oops is not
    possible: there is no scoring to take back'; it now gives the dice back (no scoring
    can be taken back once the turn has rolled) and says so."""
    out = flat(line_game("\nchoose 1,2\no\no\nq\n"))
    assert out.count("Dice given back: none is chosen to roll.") == 1
    assert out.count("Oops is not possible: there is no scoring to take back") == 1
    after = out[out.index("Dice given back"):]
    assert "Re-roll which dice" in after.split("Oops is not possible")[0]


def test_the_examples_of_dice_to_roll_again_are_dice_of_tommys_crag() -> None:
    """Tommy's Crag has three dice, and the line game's example was '1 5' ('Re-roll which
    dice (e.g. 1 5)', '1 5 or 15 roll dice 1 and 5 again'), which answers 'There is no
    die 5'; the examples name dice 1 and 3, which every variant has."""
    table = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    PlainGame(table, io.StringIO("?\n\n1 3\nq\n"), out).run()
    text = out.getvalue()
    assert "1 5" not in text and "1,5" not in text and "15 " not in text
    assert "Re-roll which dice (e.g. 1 3)" in text and "choose 1,3" in text
    assert "Roll 2 of 2." in text


def test_score_without_a_box_gives_an_example_of_the_variant() -> None:
    """'score' alone said 'Score needs a box, e.g. score chance', and Tommy's Crag has no
    Chance: 'score chance' then answered that the game has no such box."""
    table = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(5))
    out = io.StringIO()
    PlainGame(table, io.StringIO("\nscore\nq\n"), out).run()
    key = category_keys(get("tommys-crag"))["thirteen"]
    assert f"Score needs a box: its name or its letter, e.g. score thirteen or score {key}." \
        in flat(out.getvalue())


def test_a_player_whose_card_is_full_is_said_to_wait() -> None:
    """Tommy's Yahtzee: a Yahtzee taken again costs a turn, so Bob filled his card a turn
    before Ann, and the game went on with Ann's turns without a word of Bob's end."""
    keys = list(category_keys(get("tommys-yahtzee")).values())
    yahtzee = category_keys(get("tommys-yahtzee"))["yahtzee"]
    ann = [yahtzee, yahtzee] + [k for k in keys if k != yahtzee]
    script = ""
    for i, a in enumerate(ann):
        script += ("roll 6,6,6,6,6\n" if i < 2 else "roll 1,2,3,4,6\n") + f"{a}\n"
        if i < len(keys):
            script += f"roll 1,2,3,4,6\n{keys[i]}\n"
    text = flat(seen("tommys-yahtzee", script, [Player("Ann"), Player("Bob")]))
    assert text.count("filled every box") == 1
    said = text.index("Bob has filled every box; the game goes on for Ann.")
    last = list(category_keys(get("tommys-yahtzee")))[-1]
    assert text.index(f"Bob scores {get('tommys-yahtzee').category(last).label}") < said
    assert "Ann, turn 14" in text[said:] and "Game over." in text
    # an even game's last round says nothing of the kind
    even = "".join(f"roll 1,2,3,4,6\n{k}\n" * 3 for k in keys)
    text = flat(seen("tommys-yahtzee", even, [Player("Ann"), Player("Bob"), Player("Cy")]))
    assert "Game over." in text and "filled every box" not in text
