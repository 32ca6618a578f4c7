"""Text output fits 78 columns in a pipe: every sub-command's help and a few outputs of the
widest kind (options, two columns, long situations), run as a person pipes them."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from yacht.engine import Player, Record, Roll, State, random_turn
from yacht.rules import get
from yacht.session import ScoreBox
from yacht.session.table import LOCAL, Table
from yacht.store import open_store

WIDTH = 78

#: runs in a child whose output is a pipe: each command's output after a line "## ARGV"
SCRIPT = """
import sys
from yacht.cli import main, make_parser

def names():
    parser = make_parser()
    for action in parser._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield name

commands = [["--help"]] + [[name, "--help"] for name in names()]
commands += [line.split("\\t") for line in sys.argv[1:]]
for argv in commands:
    print("## " + " ".join(argv), flush=True)
    try:
        main(argv)
    except SystemExit:
        pass
    sys.stdout.flush()
"""


def saved_games(db: Path) -> tuple[str, str]:
    """A two-column game of three people with long names (a person on turn), and a
    game of a long variant title on a computer's turn."""
    with open_store(str(db)) as store:
        t = Table.new(get("ancient-yacht-double"),
                      [Player.from_json({"name": "Zoë Aaronson-Bartholomew"}), Player("Ann"),
                       Player("Bob")],
                      store=store, rng=random.Random(1))
        t.act(LOCAL, Roll())
        two = t.view().game_id
        t = Table.new(get("generala", {"servida": "points", "straight": "any"}),
                      [Player("Ann"), Player("Expert", "computer", "expert")], store=store,
                      rng=random.Random(2))
        t.act(LOCAL, Roll(), ScoreBox("sixes"))
        long = t.view().game_id
    assert two is not None and long is not None
    return two, long


def test_help_and_outputs_fit_78_columns_in_a_pipe(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    two, long = saved_games(db)
    state = State(get("yatzy"), [Player("Ann"), Player("Bob")], rng=random.Random(4))
    while not state.is_terminal():
        random_turn(state, random.Random(len(state.log)))
    record = tmp_path / "g.json"
    Record.from_state(state).save(record)
    late = ("32413 r1 fours=4,four_of_a_kind=0,small_straight=0,large_straight=0,"
            "full_house=0,yatzy=0")
    runs = [["variants"], ["rules", "generala"], ["score", "generala", "55555"],
            ["resume", "--db", str(db)], ["resume", two, "--show", "--db", str(db)],
            ["resume", long, "--show", "--db", str(db)],
            ["simulate", "generala", "-n", "20", "-w", "1", "--seed", "1"],
            ["analyse", str(record), "--win-games", "0"], ["advise", "yatzy", late],
            ["replay", str(record)]]
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *("\t".join(r) for r in runs)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    out = done.stdout
    heads = [line for line in out.splitlines() if line.startswith("## ")]
    assert "## analyse --help" in heads and "## daily --help" in heads
    assert len(heads) >= 18 + len(runs)
    for part in out.split("\n## ")[1:]:
        name, _, text = part.partition("\n")
        assert text.strip(), f"{name}: no output"
        wide = [line for line in text.splitlines() if len(line) > WIDTH]
        assert not wide, (name, wide)
    # what was wrapped is still there: the analyse list's lines under their first column,
    # a long variant's options under its first, the Actions of a game whole
    assert "  luck          result - expected score at the start + loss: what the dice\n" \
           "                decided" in out
    assert "generala" in out and "                       straight=plain|ace_high|any" in out
    assert "Actions: computer | take-back\n" in out
    assert "score sixes 2" in out and "score yacht 2" in out


def test_an_options_value_goes_on_under_its_text() -> None:
    """`yacht rules yahtzee`: a value's explanation too long for a line goes on under its
    text, not under the mark before it."""
    from yacht.rules import all_variants, rules_text

    lines = rules_text(get("yahtzee")).splitlines()
    i = lines.index("    * forced (default) - official: upper box of its face first, then a "
                    "lower")
    assert lines[i + 1] == "      box"
    for rs in all_variants():  # every value's line is under its text, or a value of its own
        text = rules_text(rs)
        options = text[text.find("Options (--option"):] if rs.options else ""
        for line in options.splitlines()[1:]:  # (a value: "    * v" or "      v")
            assert not (line.startswith("    ") and line[4] not in "* "), (rs.id, line)
