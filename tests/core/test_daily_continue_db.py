"""A command printed for the user to type next carries the options it needs to find the
same game: `yacht daily --db FILE` left mid-game said "`yacht resume ID` goes on with it
today", which looked in the default database and did not find the game (QA s25)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest


def flat(text: str) -> str:
    return " ".join(text.split())


def yacht(args: list[str], text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # (the default database is another file: a command without --db does not find the game)
    env = dict(os.environ, YACHT_DB=str(tmp_path / "default.sqlite3"),
               YACHT_CONFIG_DIR=str(tmp_path / "cfg"), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "yacht", *args], input=text,
                          capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)


def test_a_daily_game_of_another_database_is_found_by_the_command_it_prints(
        tmp_path: Path) -> None:
    (tmp_path / "my games").mkdir()
    db = str(tmp_path / "my games" / "daily.db")  # (a blank in the path: quoted)
    r = yacht(["daily", "crag", "--name", "Ann", "--plain", "--db", db], "\nq\n", tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    out = flat(r.stdout)
    m = re.search(r"The challenge is saved: `(yacht [^`]+)` goes on with it today\.", out)
    assert m, out
    words = shlex.split(m.group(1))
    assert words[-2:] == ["--db", db], words
    assert f"Game saved. `{m.group(1)}` continues it." in out
    again = yacht(words[1:], "\n", tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Tommy's Crag. Players: Ann." in again.stdout
    assert m.group(1) in flat(again.stdout)  # (and the line game there says it so too)

    # yacht resume ID --db FILE, shown in a pipe: both ways on carry --db
    gid = words[words.index("--resume") + 1]
    shown = flat(yacht(["resume", gid, "--db", db], "", tmp_path).stdout)
    assert f"`yacht play --plain --resume {gid} --db {shlex.quote(db)}` plays it on" in shown
    assert f"in a terminal `yacht resume {gid} --db {shlex.quote(db)}` opens it" in shown
    listed = flat(yacht(["resume", "--db", db], "", tmp_path).stdout)
    assert f"`yacht resume ID --db {shlex.quote(db)}` continues a game" in listed


def test_the_options_carried_are_the_run_s_own(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A run after one with --db (in the same process) carries none; a command that
    takes no --db is printed without it."""
    from yacht.cli import main
    from yacht.session.opening import carry_options, command_line

    db = str(tmp_path / "a b.db")
    assert main(["resume", "--db", db]) == 0
    capsys.readouterr()
    assert main(["resume", "--db", db, "--finished", "ab12"]) == 2
    assert f"(`yacht resume --finished --db '{db}'`)" in capsys.readouterr().err
    assert command_line("resume", "ab12") == "yacht resume ab12"
    assert main(["resume", "--finished", "ab12"]) == 2
    assert "(`yacht resume --finished`)" in capsys.readouterr().err
    carry_options({"--db": db}, {"--db": ["resume"]})
    try:
        assert command_line("rules", "yatzy") == "yacht rules yatzy"
        assert command_line("resume", "--db", "x") == "yacht resume --db x"
    finally:
        carry_options({}, {})


def test_a_finished_game_s_refusal_names_scores_of_its_database(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import random

    from yacht.cli import main
    from yacht.engine import Player, Record, Roll, Score, State
    from yacht.rules import get
    from yacht.store import open_store

    db = str(tmp_path / "old games.db")
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(2))
    for box in s.ruleset.categories:
        s.apply(Roll())
        s.apply(Score(box.id))
    assert s.is_terminal()
    with open_store(db) as store:
        gid = store.start_game(Record.from_state(s))
        store.finish_game(gid, s)
    assert main(["resume", gid, "--db", db, "--action", "roll"]) == 2
    err = capsys.readouterr().err
    assert f"(see `yacht scores --db '{db}'`)" in err, err


def test_yacht_play_plays_in_the_database_named(tmp_path: Path) -> None:
    """`yacht play --db FILE` (the way on a game of `yacht daily --db FILE` prints) saves
    there; a database named that cannot be opened is refused, not played unsaved."""
    db = str(tmp_path / "my games.db")
    r = yacht(["play", "yatzy", "--players", "Ann", "--plain", "--db", db], "\nq\n", tmp_path)
    assert r.returncode == 0, r.stderr
    m = re.search(r"Game saved\. `(yacht [^`]+)` continues it\.", flat(r.stdout))
    assert m and shlex.split(m.group(1))[-2:] == ["--db", db], r.stdout
    listed = yacht(["resume", "--db", db], "", tmp_path)
    assert "Ann" in listed.stdout, listed.stdout
    assert not (tmp_path / "default.sqlite3").exists()

    missing = str(tmp_path / "no such folder" / "g.db")
    r = yacht(["play", "yatzy", "--plain", "--db", missing], "\nq\n", tmp_path)
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert r.stderr == (f"yacht: error: cannot create {missing}: the directory "
                        f"{tmp_path / 'no such folder'} does not exist\n"), r.stderr



def test_a_game_handed_to_a_browser_names_yacht_web_of_its_database(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The link is kept in the database: `yacht web` of another one does not know it."""
    from yacht.cli import main
    from yacht.engine import Player, Record, State
    from yacht.rules import get
    from yacht.store import open_store

    db = str(tmp_path / "my games.db")
    with open_store(db) as store:
        gid = store.start_game(Record.from_state(State(get("yatzy"), [Player("Ann")])))
    assert main(["resume", gid, "--web", "--db", db]) == 0
    out = flat(capsys.readouterr().out)
    assert f"(with `yacht web --db {shlex.quote(db)}` running on that address)" in out, out


def test_an_exported_record_s_replay_is_quoted_and_works(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'(`yacht replay /tmp/my dir/game.json`)' read as two words in a shell; the
    record's replay needs no --db."""
    from yacht.cli import main
    from yacht.engine import Player, Record, State
    from yacht.rules import get
    from yacht.store import open_store

    db = str(tmp_path / "games.db")
    with open_store(db) as store:
        gid = store.start_game(Record.from_state(State(get("yatzy"), [Player("Ann")])))
    (tmp_path / "my dir").mkdir()
    path = tmp_path / "my dir" / "game.json"
    assert main(["resume", gid, "--db", db, "--export", str(path)]) == 0
    out = capsys.readouterr().out
    m = re.search(r"\(`(yacht replay [^`]+)`\)", out)
    assert m and m.group(1) == f"yacht replay '{path}'", out
    assert main(shlex.split(m.group(1))[1:]) == 0
    assert "Yatzy. Players: Ann." in capsys.readouterr().out


def test_daily_s_last_lines_fit_the_width_with_the_command_whole(tmp_path: Path) -> None:
    """'The challenge is saved: `...` goes on with it today.' was printed whole (91
    columns with --db: the terminal cut it mid-word); it is wrapped, the command on one
    line."""
    r = yacht(["daily", "crag", "--name", "山田太郎", "--plain", "--db", "my g.db"], "\nq\n",
              tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The challenge is"))
    assert all(len(line) <= 78 for line in lines[start:]), r.stdout
    assert any(re.search(r"`yacht play --plain --resume \w+ --db 'my g.db'`", line)
               for line in lines[start:]), r.stdout


def test_the_terminal_games_goodbye_carries_the_database(tmp_path: Path) -> None:
    """The terminal game's last line and its Leave dialog name the resume command and the
    game to start with the run's --db (they said `yacht resume ID` and "start yacht",
    which look in the default database)."""
    from yacht.session.commands import resume_command, resume_hint, start_command
    from yacht.session.opening import carry_options

    db = str(tmp_path / "a b.db")
    carry_options({"--db": db}, {"--db": ["resume", "play"]})
    try:
        assert resume_command("ab12") == f"yacht resume ab12 --db {shlex.quote(db)}"
        assert resume_hint("ab12") == f"`yacht resume ab12 --db {shlex.quote(db)}` continues it"
        assert start_command() == f"yacht play --db {shlex.quote(db)}"
    finally:
        carry_options({}, {})
    assert resume_command("ab12") == "yacht resume ab12"
