"""Read-only databases and folders: reading commands work and create nothing beside the
file (no -wal/-shm), writing commands say in one line that the database cannot be written.

The tests run as root here, and root writes through file permissions: the reading
commands are checked by the files that appear (none may), a read-only folder and file
by a real read-only mount (skipped, saying why, where mounting is impossible), and
permissions by an unprivileged user where one can run this Python.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_helpers import OLD_GAME, database_at, play_into, random_game

from yacht.cli import main
from yacht.engine import Player, Record, Roll
from yacht.rules import get
from yacht.store import StoreError, open_store

READING = [["scores"], ["scores", "yatzy"], ["scores", "--json"], ["stats"],
           ["stats", "--computers", "--json"], ["resume"], ["resume", "--finished"],
           ["resume", "--json"]]


def folder_state(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file of ``folder``: its bytes' digest and modification time."""
    out = {}
    for p in sorted(folder.iterdir()):
        if p.is_file():
            out[p.name] = (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
    return out


def populate(path: Path) -> tuple[str, str]:
    """A database with two finished games and an unfinished one: (finished id, unfinished id)."""
    with open_store(str(path)) as s:
        done = ""
        for seed in range(2):
            st = random_game(get("yatzy"), [Player(f"P{seed}"), Player("Cpu", "computer")],
                             seed)
            done = play_into(s, st)
            s.finish_game(done, st)
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
        s.append_action(gid, 0, Roll((1, 2, 3, 4, 5)))
    return done, gid


def run_ok(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def reading_commands(done: str, gid: str) -> list[list[str]]:
    return READING + [["resume", gid, "--show"], ["resume", gid[:5], "--json"],
                      ["resume", done, "--show"], ["stats", "P0"]]


def test_reading_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    done, gid = populate(path)
    path.chmod(0o444)
    before = folder_state(tmp_path)
    assert set(before) == {"games.db"}  # closed: no -wal left
    for argv in reading_commands(done, gid):
        out = run_ok(capsys, [*argv, "--db", str(path)])
        assert folder_state(tmp_path) == before, argv
    assert "P0" in run_ok(capsys, ["scores", "--db", str(path)])
    assert "Ann" in run_ok(capsys, ["resume", "--db", str(path)])
    out = run_ok(capsys, ["resume", gid, "--show", "--db", str(path)])
    assert "Dice: 1 2 3 4 5" in out


def test_reading_while_another_process_writes(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """With the game open elsewhere (a live -wal), reading sees its latest action and still
    adds no file."""
    path = tmp_path / "games.db"
    done, gid = populate(path)
    with open_store(str(path)) as writer:
        writer.append_action(gid, 1, _score_chance())
        names = set(os.listdir(tmp_path))
        assert f"{path.name}-wal" in names
        out = run_ok(capsys, ["resume", gid, "--show", "--db", str(path)])
        assert "Chance" in out and set(os.listdir(tmp_path)) == names
        out = run_ok(capsys, ["resume", "--db", str(path)])
        assert gid in out


def _score_chance() -> object:
    from yacht.engine import Score

    return Score("chance")


def test_a_missing_database_is_an_empty_one(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none" / "games.db"
    assert "No high scores yet." in run_ok(capsys, ["scores", "--db", str(path)])
    assert "No unfinished games." in run_ok(capsys, ["resume", "--db", str(path)])
    assert "No finished games" in run_ok(capsys, ["stats", "--db", str(path)])
    assert main(["resume", "abc", "--db", str(path)]) == 2
    assert "no game abc" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_older_schema_is_read_from_a_copy(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    before = folder_state(tmp_path)
    assert "Old" in run_ok(capsys, ["resume", "--db", str(path)])
    assert folder_state(tmp_path) == before  # not migrated, no backup made
    with open_store(str(path), readonly=True) as s:
        with pytest.raises(StoreError, match="opened for reading only"):
            s.delete_game("abcdef123456")
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == ("yacht_0001",)
    con.close()


def test_a_read_only_store_refuses_every_write(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    done, gid = populate(path)
    before = folder_state(tmp_path)
    with open_store(str(path), readonly=True) as s:
        assert s.readonly and len(s.finished_games()) == 2
        for write in (lambda: s.start_game(Record("yatzy", {}, [Player("Bo")])),
                      lambda: s.append_action(gid, 1, _score_chance()),  # type: ignore[arg-type]
                      lambda: s.delete_game(gid), lambda: s.set_assisted(gid)):
            with pytest.raises(StoreError, match="opened for reading only"):
                write()
    assert folder_state(tmp_path) == before


# --- real read-only folders and files ---------------------------------------------------
@pytest.fixture
def ro_mount(tmp_path: Path) -> Iterator[tuple[Path, str, str]]:
    """A populated database on a tmpfs, then remounted read-only (needs root)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({p.stderr.strip() or 'not root'}); "
                    "test_reading_creates_nothing covers reading")
    try:
        done, gid = populate(mnt / "games.db")
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        yield mnt, done, gid
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_read_only_mount(ro_mount: tuple[Path, str, str],
                         capsys: pytest.CaptureFixture[str]) -> None:
    mnt, done, gid = ro_mount
    path = mnt / "games.db"
    before = folder_state(mnt)
    for argv in reading_commands(done, gid):
        run_ok(capsys, [*argv, "--db", str(path)])
    export = mnt.parent / "out.json"
    run_ok(capsys, ["resume", gid, "--export", str(export), "--db", str(path)])
    assert export.exists()
    for argv in (["resume", gid, "--action", "roll"], ["resume", gid, "--delete"]):
        assert main([*argv, "--db", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot be written" in err, err
    assert folder_state(mnt) == before


def _unprivileged_python() -> tuple[int, int] | None:
    """(uid, gid) of a user without privileges who can run this Python, or None."""
    if os.geteuid() != 0:
        return (os.geteuid(), os.getegid())
    try:
        probe = subprocess.run([sys.executable, "-c", "import yacht"], user=65534,
                               group=65534, capture_output=True, timeout=120)
    except OSError:  # the interpreter itself is out of reach
        return None
    return (65534, 65534) if probe.returncode == 0 else None


@pytest.fixture
def unprivileged() -> tuple[int, int]:
    who = _unprivileged_python()
    if who is None:
        pytest.skip("this Python cannot run as an unprivileged user here (its files are "
                    "not readable for them), and root writes through file permissions; "
                    "test_read_only_mount checks a read-only file system")
    return who


@pytest.mark.parametrize("what", ["file", "folder"])
def test_read_only_by_permissions(what: str, unprivileged: tuple[int, int]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="yacht-ro-"))
    try:
        path = folder / "games.db"
        done, gid = populate(path)
        folder.chmod(0o755 if what == "folder" else 0o777)
        path.chmod(0o666 if what == "folder" else 0o444)
        before = folder_state(folder)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

        def yacht(*argv: str) -> subprocess.CompletedProcess[str]:
            uid, gid_ = unprivileged
            return subprocess.run([sys.executable, "-m", "yacht", *argv, "--db", str(path)],
                                  user=uid if os.geteuid() == 0 else None,
                                  group=gid_ if os.geteuid() == 0 else None,
                                  capture_output=True, text=True, env=env, timeout=120)

        for argv in (["scores"], ["stats"], ["resume"], ["resume", gid, "--show"]):
            p = yacht(*argv)
            assert p.returncode == 0, p.stderr
        p = yacht("resume", gid, "--action", "roll")
        assert p.returncode == 2 and p.stderr.count("\n") == 1
        assert "cannot be written" in p.stderr and what in p.stderr
        assert folder_state(folder) == before
    finally:
        shutil.rmtree(folder, ignore_errors=True)
