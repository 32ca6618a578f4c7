"""The database file deleted, moved or replaced while a store has it open: SQLite would
go on writing to the old file, which no one opens again, and every move would count as
saved and be lost. The store says so instead, at its next read or write."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from store_helpers import random_game

from yacht.engine import Player, Record, Roll
from yacht.plain import PlainGame
from yacht.rules import get
from yacht.session.commands import Toggle
from yacht.session.table import LOCAL, Table
from yacht.store import StoreGone, open_store


def test_writes_and_reads_after_the_file_was_deleted_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s:
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
        st = random_game(get("yatzy"), [Player("Ann")], 1)
        s.append_action(gid, 0, st.log[0])
        for p in tmp_path.iterdir():
            p.unlink()
        with pytest.raises(StoreGone, match="deleted or replaced while in use"):
            s.append_action(gid, 1, st.log[1])
        with pytest.raises(StoreGone):
            s.progress(gid)


def test_a_file_put_in_its_place_is_not_taken_for_it(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s, open_store(str(tmp_path / "other.sqlite3")) as o:
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
        o.close()
        os.replace(tmp_path / "other.sqlite3", path)  # (a backup put back, say)
        with pytest.raises(StoreGone):
            s.append_action(gid, 0, Roll((1, 2, 3, 4, 5), entered=True))


def test_the_group_commit_refuses_too(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s:
        s.group_commits()
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
        st = random_game(get("yatzy"), [Player("Ann")], 1)
        s.append_action(gid, 0, st.log[0])
        path.unlink()
        with pytest.raises(StoreGone):
            s.append_action(gid, 1, st.log[1])


def test_the_line_game_does_not_say_saved_after_its_file_went(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s:
        t = Table.new(get("yatzy"), [Player("Ann")], store=s, rng=random.Random(1),
                      real_dice=True)
        t.act(LOCAL, Roll((1, 2, 3, 4, 5)))
        path.unlink()
        events = t.act(LOCAL, Toggle(0))  # played on: the save fails, and says why
        assert any(e.kind == "store_warning" and "deleted or replaced while in use" in e.text
                   for e in events)
        out = io.StringIO()
        PlainGame(t, io.StringIO("q\n"), out).run()
        text = out.getvalue()
        assert "Game saved." not in text and "Saving failed" in text, text


def test_the_line_game_does_not_say_saved_when_the_file_went_while_it_waited(
        tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with open_store(str(path)) as s:
        t = Table.new(get("yatzy"), [Player("Ann")], store=s, rng=random.Random(1),
                      real_dice=True)
        t.act(LOCAL, Roll((1, 2, 3, 4, 5)))
        path.unlink()
        out = io.StringIO()
        PlainGame(t, io.StringIO("q\n"), out).run()
        text = out.getvalue()
        assert "Game saved." not in text and "deleted or replaced" in text, text
