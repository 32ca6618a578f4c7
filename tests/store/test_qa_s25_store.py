"""An older SQLite database upgraded by a command that writes (QA s25): the upgrade and
the copy kept of the file as it was are said, in one line, where before the copy was
made without a word."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from store_helpers import OLD_GAME, database_at

from yacht.cli import main


def test_resume_action_says_the_database_was_upgraded_and_where_the_copy_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    assert main(["resume", "abcdef", "--action", "roll", "--db", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["applied"]  # (--json's output stays JSON: the note is on stderr)
    copy = tmp_path / "old.db.bak-yacht_0001"
    assert copy.is_file()
    assert err == (f"yacht: {path} is upgraded for this version of yacht; the file as it "
                   f"was is kept as {copy}\n")
    # said once: the next write finds the database upgraded already
    assert main(["resume", "abcdef", "--action", "choose 1", "--db", str(path)]) == 0
    assert "upgraded" not in capsys.readouterr().err


def test_web_says_the_database_was_upgraded(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    with socket.socket() as busy:  # (the server does not start: its port is taken)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        assert main(["web", "--port", port, "--db", str(path)]) == 2
    out, err = capsys.readouterr()
    assert f"yacht: {path} is upgraded for this version of yacht; the file as it was is " \
           f"kept as {tmp_path / 'old.db.bak-yacht_0001'}" in out
    assert "cannot listen" in err


def test_a_current_database_says_nothing_of_upgrades(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.db"
    assert main(["resume", "--db", str(path)]) == 0  # (made, not upgraded)
    assert main(["resume", "abc", "--delete", "--db", str(path)]) == 2
    assert "upgraded" not in capsys.readouterr().err


def test_the_readme_counts_a_server_process_s_database_connections() -> None:
    """Each `yacht web` process on PostgreSQL keeps its engine's pool and its event
    loop's own connection (store/onloop.py): the README said 20, the pool alone, so a
    `max_connections` sized by it ran out with every process busy."""
    import re

    from yacht.store import opening

    engine = opening.make_engine(opening.resolve("postgresql+psycopg://u@127.0.0.1:1/x"))
    try:
        pool = engine.pool
        most = pool.size() + pool._max_overflow + 1  # type: ignore[attr-defined]
    finally:
        engine.dispose()
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    said = re.search(r"process keeps up to (\d+) database connections", readme)
    assert said is not None and int(said.group(1)) == most
    assert f"`max_connections`\nabove {most} times the number of processes" in readme


def test_a_postgresql_driver_that_is_not_installed_names_the_one_that_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    if importlib.util.find_spec("psycopg2") is not None:
        pytest.skip("psycopg2 is installed here: the URL would reach for the server")
    url = "postgresql+psycopg2://yacht@127.0.0.1:1/yacht"
    assert main(["scores", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err == (f"yacht: error: cannot use {url}: its driver is not installed (No module "
                   "named 'psycopg2'); yacht reaches PostgreSQL through psycopg: "
                   "postgresql+psycopg://USER@HOST/DB\n")


def test_a_saved_game_is_handed_to_a_browser_on_every_backend(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume ID --web` keeps the table's host as "claim:" and a SHA-256 (70
    characters): PostgreSQL refused it in the column of 64 ("value too long for type
    character varying(64)"), SQLite did not look."""
    from store_helpers import play_into

    from yacht.engine import Player, State
    from yacht.rules import get
    from yacht.store import open_store

    with open_store(db_url) as store:
        state = State(get("yatzy"), [Player("Ann"), Player("Bob")])
        gid = play_into(store, state)
    assert main(["resume", gid, "--web", "--db", db_url, "--json"]) == 0
    handed = json.loads(capsys.readouterr().out)
    assert handed["game"] == gid and "#claim=" in handed["url"]
    with open_store(db_url) as store:
        row = store.table_of_game(gid)
        assert row is not None and row.id == handed["table"]
        assert row.host is not None and row.host.startswith("claim:") and len(row.host) == 70


def test_an_older_database_with_tables_is_upgraded_for_the_claims(db_url: str) -> None:
    """A database of yacht_0011 (its tables' hosts in 64 characters) takes a claim once
    upgraded; and down again, a claim that no longer fits is dropped, not refused."""
    from store_helpers import downgrade_to, play_into

    from yacht.engine import Player, State
    from yacht.rules import get
    from yacht.store import open_store

    with open_store(db_url) as store:
        gid = play_into(store, State(get("yatzy"), [Player("Ann")]))
    assert main(["resume", gid, "--web", "--db", db_url]) == 0
    assert downgrade_to(db_url, "yacht_0011",
                        "SELECT count(*) FROM web_tables WHERE host IS NULL") == [1]
    with open_store(db_url) as store:  # (upgraded again on opening)
        assert store.table_of_game(gid) is not None
    assert main(["resume", gid, "--web", "--db", db_url]) == 0


def test_a_refused_postgresql_connection_says_why_without_the_severity(
        pg_server: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PostgreSQL's 'FATAL:  ' (two spaces) stood in the line before its reason."""
    url = pg_server.rsplit("/", 1)[0] + "/no_such_db_qa"
    assert main(["scores", "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yacht: error: cannot connect to postgresql+psycopg://"), err
    assert err.endswith('/no_such_db_qa: database "no_such_db_qa" does not exist\n'), err
