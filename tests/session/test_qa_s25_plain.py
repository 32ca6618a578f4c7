"""The line game and the commands around it, as a new user meets them (session 25)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def flat(text: str) -> str:
    """The words, whatever the lines they were wrapped into."""
    return " ".join(text.split())


def yacht(args: list[str], text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, YACHT_DB=str(tmp_path / "db.sqlite3"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "yacht", *args], input=text,
                          capture_output=True, text=True, env=env, timeout=120)


def test_a_daily_game_left_in_the_line_game_names_the_line_games_way_back(
        tmp_path: Path) -> None:
    """`yacht daily --plain` quit mid-game said "`yacht resume ID` goes on with it today"
    right under the line game's own "`yacht play --plain --resume ID` continues it": in a
    terminal the first opens the full-screen game. Both now name the line game's command,
    and it goes on with the day's game."""
    r = yacht(["daily", "crag", "--name", "Ann", "--plain"], "\nq\n", tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    out = flat(r.stdout)
    assert "`yacht resume " not in out, out
    m = re.search(r"The challenge is saved: `(yacht [^`]+)` goes on with it today\.", out)
    assert m, out
    words = m.group(1).split()
    assert words[:2] == ["yacht", "play"] and "--plain" in words, words
    gid = words[-1]
    assert f"Game saved. `{m.group(1)}` continues it." in out
    again = yacht(words[1:], "\n", tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Tommy's Crag. Players: Ann." in again.stdout
    assert f"`yacht play --plain --resume {gid}`" in flat(again.stdout)


def test_the_line_games_refusals_read_as_sentences_without_nested_brackets() -> None:
    """'No hint: roll first: the advice is about the dice showing.' (two colons) and
    'Unknown action 'xyz' (accepted here: the dice to roll again (e.g. 1 3), ...)'
    (brackets in brackets)."""
    import io
    import random

    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session.table import Table

    table = Table.new(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    out = io.StringIO()
    PlainGame(table, io.StringIO("h\n\nxyz\nq\n"), out).run()
    text = flat(out.getvalue())
    assert "No hint. Roll first: the advice is about the dice showing." in text, text
    assert "Unknown action 'xyz'. Accepted here: the dice to roll again, e.g. 1 3; a box's " \
           "letter or name; or ? for every command." in text
    for line in out.getvalue().splitlines():
        assert not re.search(r"\([^)]*\(", line), line
    for sentence in text.split(". "):
        assert sentence.count(": ") < 2 or sentence.startswith("Boxes: "), sentence


def _score_column(lines: list[str], scores: dict[str, int]) -> set[int]:
    """The terminal cell each name's score ends at, from the lines naming them."""
    from yacht.cells import cell_len

    ends = set()
    for name, score in scores.items():
        line = next(x for x in lines if name in x)
        head = line[:line.index(name) + len(name)]
        rest = line[len(head):]
        ends.add(cell_len(head) + rest.index(str(score)) + len(str(score)))
    return ends


def test_the_line_games_top_ten_lines_up_wide_names(tmp_path: Path) -> None:
    """'山田太郎' is 4 characters and 8 cells: padded to 20 characters, the name pushed
    its score 4 cells right of the others'."""
    import io
    import random

    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session import category_keys
    from yacht.session.table import Table
    from yacht.store import open_store

    rs = get("tommys-crag")
    script = "".join(f"\n{k}\n" for k in category_keys(rs).values())
    store = open_store(str(tmp_path / "db.sqlite3"))
    try:
        scores = {}
        for i, name in enumerate(["山田太郎", "Bob", "Zoë 🎲", "山田太郎" * 5]):
            table = Table.new(rs, [Player(name)], store=store, rng=random.Random(i))
            out = io.StringIO()
            PlainGame(table, io.StringIO(script), out).run()
            m = re.search(rf"{name} scored (\d+)\.", out.getvalue())
            assert m, out.getvalue()
            scores[name] = int(m.group(1))
    finally:
        store.close()
    top = out.getvalue().split("Top ten")[1].splitlines()
    del scores["山田太郎"]  # (its line is found by the longer name's)
    assert len(_score_column(top, scores)) == 1, top


def test_the_daily_standings_line_up_wide_names() -> None:
    from yacht.cli.commands.daily import standings_text
    from yacht.session.daily import Entry, Standings

    st = Standings("2026-12-06", "yatzy", "ab" * 32, None, 250,
                   (Entry(1, "山田太郎", 240, "g1", False), Entry(2, "Bob", 230, "g2", False),
                    Entry(None, "Zoë 🎲", 220, "g3", True),
                    Entry(3, "山田太郎" * 5, 210, "g4", False)))  # (40 cells)
    lines = standings_text(st, "Yatzy").splitlines()
    assert len(_score_column(lines, {"山田太郎" * 5: 210, "Bob": 230, "Zoë 🎲": 220})) == 1, \
        lines


def test_a_refusal_with_a_colon_of_its_own_is_not_run_on_after_another() -> None:
    """'Not now: roll first: there are no dice to score.' (a box typed before the roll)."""
    import io
    import random

    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session.table import Table

    table = Table.new(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    out = io.StringIO()
    PlainGame(table, io.StringIO("chance\n\n\n\nq\n"), out).run()
    text = flat(out.getvalue())
    assert "Not now. Roll first: there are no dice to score." in text, text
    # (a refusal without a colon of its own stays one sentence)
    assert "Not now: choose at least one die to roll again, or score." in text, text


def test_the_line_games_card_lines_up_wide_names() -> None:
    """The card's columns were as wide as a name's characters: '山田太郎' (8 cells) stood 2
    cells right of its column and pushed the next name's header 4 further."""
    import io
    import random

    from yacht.cells import cell_len
    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session.table import Table

    for variant in ("yatzy", "ancient-yacht-double"):
        table = Table.new(get(variant), [Player("山田太郎"), Player("Zoë 🎲"), Player("Bob")],
                          rng=random.Random(1))
        out = io.StringIO()
        PlainGame(table, io.StringIO("c\nq\n"), out).run()
        lines = ("Box " + out.getvalue().split("Box ", 1)[1]).splitlines()
        head, ones = lines[0], next(x for x in lines if x.startswith("Ones "))
        assert cell_len(head) == cell_len(ones), lines[:2]


def test_the_prompts_offer_a_box_only_where_one_takes_the_dice() -> None:
    """In Tommy's Yacht's first turn nothing is scored until all five dice match, yet the
    prompts asked 'Re-roll which dice (e.g. 1 3), or score a box ...?' and 'Dice 1,3
    chosen: Enter rolls them, or score a box?'."""
    import io
    import random

    from yacht.engine import Player
    from yacht.plain import PlainGame
    from yacht.rules import get
    from yacht.session.table import Table

    def prompts(variant: str) -> str:
        table = Table.new(get(variant), [Player("Ann")], rng=random.Random(4))
        out = io.StringIO()
        PlainGame(table, io.StringIO("\nchoose 1,2\nq\n"), out).run()
        return out.getvalue()

    first = prompts("tommys-yacht")
    assert "Re-roll which dice (e.g. 1 3)?" in first, first
    assert "chosen: Enter rolls them." in first, first
    assert "or score a box" not in first, first
    other = prompts("yatzy")
    assert "Re-roll which dice (e.g. 1 3), or score a box (a letter or a name)?" in other
    assert "chosen: Enter rolls them, or score a box?" in other, other
