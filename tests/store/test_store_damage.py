"""Damaged, foreign, newer, read-only and full databases: one clear error, file untouched."""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from store_helpers import OLD_GAME, database_at, play_into, random_game

from yacht.cli import main
from yacht.engine import Player, Record
from yacht.rules import get
from yacht.store import StoreError, open_store
from yacht.store.errors import describe_db_error
from yacht.store.schema import HEAD


def fingerprint(path: Path) -> tuple[str, int, list[str]]:
    """Bytes, mtime and the directory listing: all must stay as they were."""
    st = path.stat()
    return (hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns,
            sorted(os.listdir(path.parent)))


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a store command that must fail: exit 2, one line on stderr, no traceback."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("yacht: error: "), err
    assert "Traceback" not in err
    return err


def make_populated(path: Path, games: int = 30) -> None:
    with open_store(str(path)) as s:
        for seed in range(games):
            st = random_game(get("yatzy"), [Player(f"P{seed}")], seed)
            s.finish_game(play_into(s, st), st)


def stamp(url: str, version: str) -> None:
    eng = create_engine(url)
    with eng.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": version})
    eng.dispose()


def sa_url(db_url: str) -> str:
    return db_url if "://" in db_url else f"sqlite:///{db_url}"


# --- both backends ----------------------------------------------------------------
def test_a_newer_schema_is_refused_and_left_alone(db_url: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    open_store(db_url).close()
    stamp(sa_url(db_url), "yacht_0099")
    before = fingerprint(Path(db_url)) if "://" not in db_url else None
    with pytest.raises(StoreError, match=r"newer yacht-dice \(schema yacht_0099.*upgrade"):
        open_store(db_url)
    err = cli_error(capsys, "scores", "--db", db_url)
    assert "newer yacht-dice" in err
    if before is not None:
        assert fingerprint(Path(db_url)) == before
    eng = create_engine(sa_url(db_url))
    with eng.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() \
            == "yacht_0099"
    eng.dispose()


def test_a_database_of_another_program_is_refused(db_url: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    eng = create_engine(sa_url(db_url))
    with eng.begin() as conn:
        conn.execute(text("CREATE TABLE foreign_stuff (x INTEGER)"))
        conn.execute(text("INSERT INTO foreign_stuff VALUES (42)"))
    eng.dispose()
    before = fingerprint(Path(db_url)) if "://" not in db_url else None
    with pytest.raises(StoreError, match="not a yacht database.*foreign_stuff"):
        open_store(db_url)
    cli_error(capsys, "resume", "--db", db_url)
    if before is not None:
        assert fingerprint(Path(db_url)) == before
    eng = create_engine(sa_url(db_url))
    with eng.connect() as conn:
        assert conn.execute(text("SELECT x FROM foreign_stuff")).scalar() == 42
        assert "games" not in [r[0] for r in conn.execute(text(
            "SELECT table_name FROM information_schema.tables") if "://" in db_url
            else text("SELECT name FROM sqlite_master"))]
    eng.dispose()


def test_an_older_schema_is_migrated_with_its_data(db_url: str) -> None:
    from yacht.store import opening

    target = opening.resolve(db_url)
    database_at(db_url, "yacht_0001", OLD_GAME)
    with open_store(db_url) as s:
        assert [g.players[0].name for g in s.unfinished_games()] == ["Old"]
        s.record_decision_loss("abcdef123456", 1.0, player=0)  # the new table exists
        if target.path is not None:
            assert s.backup == f"{target.path}.bak-yacht_0001"
            con = sqlite3.connect(s.backup)
            assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (
                "yacht_0001",)
            assert con.execute("SELECT id FROM games").fetchall() == [("abcdef123456",)]
            con.close()
        else:
            assert s.backup is None
    with open_store(db_url) as s:  # already current: no second copy
        assert s.backup is None


# --- SQLite files -----------------------------------------------------------------
def test_a_file_of_garbage_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(os.urandom(5000))
    before = fingerprint(path)
    with pytest.raises(StoreError, match=f"{path} is not a yacht database"):
        open_store(str(path))
    for cmd in (["scores"], ["resume"], ["stats"], ["scores", "yatzy", "--json"]):
        err = cli_error(capsys, *cmd, "--db", str(path))
        assert str(path) in err
    assert fingerprint(path) == before


def test_a_text_file_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    Record("yatzy", {}, [Player("Ann")]).save(path)
    before = fingerprint(path)
    with pytest.raises(StoreError, match="not an SQLite file"):
        open_store(str(path))
    assert fingerprint(path) == before


def test_a_truncated_database_is_refused(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.db"
    make_populated(path)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])
    before = fingerprint(path)
    with pytest.raises(StoreError, match=f"{path} is damaged"):
        open_store(str(path))
    cli_error(capsys, "stats", "--db", str(path))
    assert fingerprint(path) == before


def test_a_database_damaged_inside_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    make_populated(path)
    data = bytearray(path.read_bytes())
    page = 4096
    data[2 * page: 3 * page] = os.urandom(page)  # a page of the tables, not the header
    path.write_bytes(bytes(data))
    before = fingerprint(path)
    with pytest.raises(StoreError, match="damaged"):
        open_store(str(path))
    assert fingerprint(path) == before


def test_an_empty_file_becomes_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with open_store(str(path)) as s:
        assert s.unfinished_games() == []
    assert path.stat().st_size > 0


def test_paths_that_cannot_be_databases(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(StoreError, match="is not a file"):
        open_store(str(tmp_path))
    missing = tmp_path / "no" / "such" / "dir" / "x.db"
    with pytest.raises(StoreError, match="does not exist"):
        open_store(str(missing))
    assert not (tmp_path / "no").exists()
    err = cli_error(capsys, "scores", "--db", "nosuchdriver://x/y")
    assert "nosuchdriver" in err
    cli_error(capsys, "scores", "--db", "://")


def test_an_unreachable_server_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens here
    url = f"postgresql://ann:secret@127.0.0.1:{port}/yacht"
    with pytest.raises(StoreError) as e:
        open_store(url)
    assert "secret" not in str(e.value) and f"127.0.0.1:{port}" in str(e.value)
    err = cli_error(capsys, "stats", "--db", url)
    assert "secret" not in err


def test_the_default_store_lives_in_the_user_data_dir(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from yacht.store import default_path

    path = default_path()
    assert str(path).startswith(str(tmp_path / "xdg-data"))
    with open_store() as s:
        assert s.location == str(path)
    assert path.is_file()
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "env.db"))
    with open_store() as s:
        assert s.location == str(tmp_path / "env.db")


def test_errors_are_described_in_one_line() -> None:
    assert describe_db_error(Exception("database or disk is full"), "/x.db", "writing") == \
        "disk full writing /x.db"
    assert "read-only" in describe_db_error(
        Exception("attempt to write a readonly database"), "/x.db")
    assert "\n" not in describe_db_error(Exception("line one\nline two"), "/x.db")


def test_no_space_to_create_a_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def full(path: object, flags: int, *a: object) -> int:
        if str(path).endswith("new.db"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, flags, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", full)
    with pytest.raises(StoreError, match="cannot create .*new.db: disk full"):
        open_store(str(tmp_path / "new.db"))
    assert not (tmp_path / "new.db").exists()


def test_a_full_disk_while_writing_is_injected(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite reporting a full disk in the middle of a write: StoreError, nothing lost."""
    from sqlalchemy import event

    path = tmp_path / "x.db"
    s = open_store(str(path))
    gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
    from yacht.engine import Roll

    s.append_action(gid, 0, Roll((1, 2, 3, 4, 5)))

    def boom(conn: object, cursor: object, statement: str, *a: object) -> None:
        if statement.startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")

    event.listen(s._engine, "before_cursor_execute", boom)
    from yacht.engine import Score

    with pytest.raises(StoreError, match=f"disk full writing {path}"):
        s.append_action(gid, 1, Score("chance"))
    event.remove(s._engine, "before_cursor_execute", boom)
    assert s.load_record(gid).actions == [Roll((1, 2, 3, 4, 5))]
    s.close()


# --- real read-only and full file systems (a small tmpfs; needs root to mount) ----------
@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({p.stderr.strip() or 'not root'}); the "
                    f"injected-fault tests cover the messages")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_read_only_directory(tmpfs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmpfs / "games.db"
    make_populated(path, games=3)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    before = fingerprint(path)
    with pytest.raises(StoreError) as e:
        with open_store(str(path)) as s:
            s.start_game(Record("yatzy", {}, [Player("Ann")]))
    assert str(path) in str(e.value) and "read-only" in str(e.value)
    # reading commands work (and create nothing); writing ones say it cannot be written
    assert main(["scores", "--db", str(path)]) == 0
    assert "P0" in capsys.readouterr().out
    with open_store(str(path), readonly=True) as s:
        gid = s.finished_games()[0].id
    err = cli_error(capsys, "resume", gid, "--delete", "--db", str(path))
    assert "cannot be written" in err and "read-only" in err
    with pytest.raises(StoreError, match="cannot create .*new.db: the directory is read-only"):
        open_store(str(tmpfs / "new.db"))
    assert fingerprint(path) == before


def test_a_full_disk(tmpfs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmpfs / "games.db"
    s = open_store(str(path))
    kept: list[str] = []
    filler = tmpfs / "filler"
    with open(filler, "wb") as f:  # leave only a little room
        try:
            f.write(b"\0" * (1024 * 1024))
        except OSError:
            pass
    assert filler.stat().st_size > 0
    err: StoreError | None = None
    for seed in range(400):
        st = random_game(get("yatzy"), [Player(f"P{seed}")], seed)
        try:
            gid = play_into(s, st)
            s.finish_game(gid, st)
            kept.append(gid)
        except StoreError as e:
            err = e
            break
    s.close()
    assert err is not None and str(err) == f"disk full writing {path}"
    size = path.stat().st_size
    filler.unlink()
    with open_store(str(path)) as s:
        assert path.stat().st_size >= size
        finished = {g.id for g in s.finished_games()}
        assert set(kept) <= finished
    assert HEAD


def test_a_damaged_game_row_is_named_and_can_be_deleted(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from yacht.engine import Roll

    with open_store(db_url) as s:
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")], [Roll((1, 2, 3, 4, 5))]))
        good = s.start_game(Record("yatzy", {}, [Player("Bob")]))
    eng = create_engine(sa_url(db_url))
    with eng.begin() as conn:
        conn.execute(text("UPDATE actions SET action = '{\"type\": \"dance\"}' "
                          "WHERE game_id = :g"), {"g": gid})
    eng.dispose()
    with open_store(db_url) as s:
        with pytest.raises(StoreError, match=f"game {gid} .* is damaged .*unknown action"):
            s.load_record(gid)
        with pytest.raises(StoreError, match=f"game {gid}"):
            s.unfinished_games()
        assert s.load_record(good).players == [Player("Bob")]
    assert gid in cli_error(capsys, "resume", "--db", db_url)
    assert gid in cli_error(capsys, "resume", gid, "--db", db_url)
    assert main(["resume", gid, "--delete", "--db", db_url]) == 0
    capsys.readouterr()
    with open_store(db_url) as s:
        assert [g.id for g in s.unfinished_games()] == [good]
