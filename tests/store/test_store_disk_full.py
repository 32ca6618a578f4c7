"""A full disk is called a full disk: SQLite says only "disk I/O error" when its -wal or
-shm file cannot grow, which read as "damaged or not a yacht database" of a sound file."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from yacht.store.errors import describe_db_error


def test_an_io_error_on_a_full_disk_says_disk_full(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    where = str(tmp_path / "x.db")
    monkeypatch.setattr(os, "statvfs", lambda _p: SimpleNamespace(f_bavail=3, f_frsize=4096))
    assert describe_db_error(Exception("disk I/O error"), where, "opening") \
        == f"disk full opening {where}"


def test_an_io_error_with_room_on_the_disk_is_still_damage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    where = str(tmp_path / "x.db")
    monkeypatch.setattr(os, "statvfs",
                        lambda _p: SimpleNamespace(f_bavail=1 << 20, f_frsize=4096))
    assert "is damaged" in describe_db_error(Exception("disk I/O error"), where)
    # (a server's database: its disk is not looked at)
    assert "is damaged" in describe_db_error(Exception("disk I/O error"),
                                             "postgresql+psycopg://db/yacht")
