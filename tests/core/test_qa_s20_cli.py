"""QA s20, the commands as a new user meets them: a database that cannot be used says
why in the one error line, and a blank database setting is refused, showing what was
typed."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Player, Roll
from yacht.session import open_store_for_games, open_table


def saved_game(path: Path) -> str:
    store, problem = open_store_for_games(str(path))
    assert store is not None, problem
    table = open_table(store, source="test", variant="yatzy", players=[Player("Ann")])
    from yacht.session import LOCAL

    table.act(LOCAL, Roll())
    gid = table.view().game_id
    store.close()
    assert gid is not None
    return gid


def test_resuming_from_a_read_only_database_says_why_in_the_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    gid = saved_game(path)
    monkeypatch.setenv("YACHT_DB", str(path))
    import yacht.store.opening as opening

    real_access = os.access
    monkeypatch.setattr(opening.os, "access", lambda p, mode, **kw: (
        False if mode & os.W_OK else real_access(p, mode, **kw)))
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--resume", gid[:6], "--plain"]) == 2
    out, err = capsys.readouterr()
    # before: 'games are not saved: ... read-only' and then 'there is no store to resume
    # from'; now the error line itself names the reason and what to do
    assert err.count("\n") == 1, err
    assert "there is no store" not in err
    assert f"game {gid} cannot be played on: {path} cannot be written (the file is read-only)" \
        in err
    assert "make it writable" in err and f"yacht resume {gid} --show" in err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("argv", [["scores"], ["stats"], ["resume"], ["verify", "ab12cd"],
                                  ["daily", "yatzy", "--standings"]])
def test_a_blank_yacht_db_is_refused_not_taken_for_the_default(
        argv: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("YACHT_DB", "   ")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == ("yacht: error: YACHT_DB='   ': give a database file or URL, or unset "
                   "YACHT_DB for the file in the user data directory\n")


def test_a_blank_yacht_db_warns_that_the_line_game_is_not_saved(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("YACHT_DB", "  ")
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "yatzy", "--players", "Ann", "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Warning: games are not saved: YACHT_DB='  ': give a database")


@pytest.mark.parametrize("argv", [["scores"], ["resume", "--finished"], ["verify", "ab12cd"],
                                  ["daily", "yatzy", "--standings"], ["web"]])
def test_a_blank_db_option_is_refused_as_typed(argv: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--db", "   "]) == 2
    err = capsys.readouterr().err
    # (it said --db '' whatever was typed; yacht web took it for no --db at all)
    assert err == ("yacht: error: --db '   ': give a database file or URL (without --db: "
                   "$YACHT_DB, else the file in the user data directory)\n")


@pytest.mark.parametrize("extra", [[], ["--demo"]])
def test_target_without_players_is_checked_against_the_setups_players(
        extra: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht play --target 250` without --players played the setup's players (You and
    an intermediate computer) and ignored the target silently."""
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--target", "250", "--plain", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("yacht: error: --target 250 is for a cpu:champion playing alone (it plays "
                   "to reach that score): give --players NAME=cpu:champion\n")


@contextlib.contextmanager
def another_writer(path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], None]]:
    """A function that makes another program take the database's write lock (from then
    on, for a second); the store tells a wait after 0.2 s."""
    import sqlite3
    import threading
    import time

    from yacht.store import core

    monkeypatch.setattr(core, "WAIT_NOTICE", 0.2)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    def release() -> None:
        time.sleep(1.0)
        other.execute("COMMIT")

    def lock() -> None:
        other.execute("BEGIN IMMEDIATE")  # another program writes, from now on
        threading.Thread(target=release).start()

    try:
        yield lock
    finally:
        other.close()


def test_resume_action_says_when_it_waits_for_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume ID --action roll` with the database locked by another program waited
    (up to 20 minutes) without a word."""
    import yacht.cli.commands.store as store_command

    path = tmp_path / "games.db"
    gid = saved_game(path)
    real = store_command._table
    with another_writer(path, monkeypatch) as lock:
        def then_locked(store: object, game_id: str) -> object:
            table = real(store, game_id)  # type: ignore[arg-type]
            lock()
            return table

        monkeypatch.setattr(store_command, "_table", then_locked)
        assert main(["resume", gid, "--action", "choose 1", "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ("yacht: waiting for the database: another program is writing to it "
                   "(Ctrl-C stops; the action is then not applied)\n")
    assert out.startswith("Applied: ")


def test_the_store_opens_while_another_program_writes(tmp_path: Path) -> None:
    """Opening the store checked its schema under SQLite's write lock: with another
    program writing, every start (the line game, `yacht resume --action`, the server)
    waited without a word for up to 30 s, then failed ('stayed busy'). An up-to-date
    file is now checked by a read."""
    import sqlite3
    import threading

    from yacht.store import open_store

    path = tmp_path / "games.db"
    gid = saved_game(path)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    got: list[object] = []

    def opening() -> None:
        with open_store(str(path)) as store:
            got.append(store.game_info(gid).actions)

    t = threading.Thread(target=opening, daemon=True)
    t.start()
    t.join(10)
    try:
        assert got == [1]
    finally:
        other.execute("COMMIT")
        other.close()
        t.join(60)


def test_resume_delete_says_when_it_waits_for_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume ID --delete` with the database locked by another program waited (up
    to 20 minutes) without a word, as --action did."""
    from yacht.store import core

    path = tmp_path / "games.db"
    gid = saved_game(path)
    real = core.Store.resolve_id
    with another_writer(path, monkeypatch) as lock:
        def then_locked(self: core.Store, prefix: str) -> str:
            found = real(self, prefix)
            lock()
            return found

        monkeypatch.setattr(core.Store, "resolve_id", then_locked)
        assert main(["resume", gid, "--delete", "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ("yacht: waiting for the database: another program is writing to it "
                   "(Ctrl-C stops; the game is then not deleted)\n")
    assert out == f"Game {gid} deleted.\n"
