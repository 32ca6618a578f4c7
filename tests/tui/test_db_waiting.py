"""A long write lock another program holds on the SQLite database: a save waits (up to
30 s a try, tried again for up to 20 minutes). The terminal game and the line game
used to freeze silently meanwhile; now they say after a moment that they wait for the
database, answer keys, and clear it once the save went through (QA s20)."""

from __future__ import annotations

import io
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import game, messages, run, settle

from yacht.engine import Player, Roll
from yacht.plain.game import PlainGame
from yacht.session import Launch, PlayerSpec, open_table
from yacht.session.table import LOCAL, STORE_WAITING
from yacht.store import core
from yacht.tui import YachtApp
from yacht.tui.screens.game import SAVING_TEXT

App = Callable[..., YachtApp]
YATZY = Launch(variant="yatzy", players=[PlayerSpec("Ann")])


@pytest.fixture(autouse=True)
def soon(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "WAIT_NOTICE", 0.2)  # (3 s in play)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another program holds the database's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("COMMIT")
        other.close()


async def told_waiting(pilot: Any, also: str | None = None) -> None:
    """Until the screen says the save waits for the database: the store says so once its
    first try has failed, later on a loaded machine than a fixed pause allowed (a bounded
    count of rounds, the lock held meanwhile)."""
    for _ in range(400):
        await pilot.pause(0.05)
        if any(m.startswith(STORE_WAITING) or m == also for m in messages(pilot.app)):
            return
    raise AssertionError(messages(pilot.app))


def test_the_store_tells_a_write_that_waits_and_when_it_is_through(store: Any,
                                                                    isolated: Path) -> None:
    table = open_table(store, source="test", variant="yatzy", players=[Player("Ann")])
    table.act(LOCAL, Roll())
    gid = table.view().game_id
    told: list[str] = []
    with store.telling_waits(told.append):
        with locked(isolated / "db.sqlite3"):
            ready = threading.Event()

            def write() -> None:
                with store.telling_waits(told.append):
                    ready.set()
                    store.set_assisted(gid)

            t = threading.Thread(target=write)
            t.start()
            ready.wait()
            time.sleep(0.6)
            assert told == ["waiting"]
        t.join(20)
        assert told == ["waiting", "through"]
        told.clear()
        store.set_assisted(gid, 0)  # a write that does not wait: nothing told
    assert told == []


def test_the_line_game_says_it_waits_for_the_database(store: Any, isolated: Path) -> None:
    table = open_table(store, source="plain", variant="yatzy", players=[Player("Ann")],
                       speed="instant", real_dice=True)
    table.act(LOCAL, Roll())  # (the game is in the store)
    out = io.StringIO()
    releases = threading.Event()

    lines = iter(["score chance\n", "q\n"])

    class Slow(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            return next(lines, "")

    lock = sqlite3.connect(isolated / "db.sqlite3", isolation_level=None,
                           check_same_thread=False)
    lock.execute("BEGIN IMMEDIATE")

    def release() -> None:
        time.sleep(1.0)
        lock.execute("COMMIT")
        releases.set()

    threading.Thread(target=release).start()
    PlainGame(table, Slow(), out).run()
    lock.close()
    text = " ".join(out.getvalue().split())  # (as said, in lines of 78)
    said = text.index(f"{STORE_WAITING}; the game goes on once it is saved...")
    assert text.index("The database is free again: saved.") > said
    assert table.view().saved


@run
async def test_the_terminal_game_says_it_waits_and_answers_keys_meanwhile(
        new_app: App, store: Any, isolated: Path) -> None:
    app = new_app(YATZY)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        await pilot.press("r")  # (the game goes to the store with it)
        await settle(pilot)
        assert screen.table.view().saved
        with locked(isolated / "db.sqlite3"):
            await pilot.press("1")  # the save of this die's choice waits
            # before: the screen froze with nothing said for as long as the lock was held
            await told_waiting(pilot)
            await pilot.press("r")  # answered, not played
            await pilot.pause(0.2)
            assert messages(app) == [SAVING_TEXT]
            assert screen.saving
        for _ in range(200):
            await pilot.pause(0.05)
            if not screen.saving:
                break
        await settle(pilot)
        assert not screen.saving
        assert messages(app) == ["The database is free again: saved"]
        view = screen.table.view()
        # the die's choice was played and saved, the roll answered only
        assert view.saved and view.state.rolls == 1 and len(view.state.log) == 2
        assert screen.snap["marks"][0] != ""


@run
async def test_ctrl_c_quits_at_once_while_a_save_waits(new_app: App, store: Any,
                                                       isolated: Path) -> None:
    """Ctrl+C while a move waits for the database: the app ends now (it waited for the
    lock to be let go, for letting go of the table), saying the last move is not saved."""
    app = new_app(YATZY)
    path = isolated / "db.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot)
            screen = game(pilot)
            await pilot.press("r")
            await settle(pilot)
            gid = screen.table.view().game_id
            other.execute("BEGIN IMMEDIATE")
            await pilot.press("1")
            await pilot.pause(0.5)
            assert screen.saving
            assert str(screen.closing_words()).startswith(
                "The last move was not saved: the database was busy")
            started = time.monotonic()
            await pilot.press("ctrl+c")
        assert time.monotonic() - started < 5
        assert app.return_value == 0
    finally:
        other.execute("COMMIT")
        other.close()
    assert gid is not None


@run
async def test_the_games_end_waits_for_the_database_without_freezing(
        new_app: App, store: Any, isolated: Path) -> None:
    """Going on from "Game over" records the finished game: that write ran on the screen's
    event loop, and froze it while the database was locked."""
    from yacht.session.commands import ScoreBox
    from yacht.tui.screens.end import EndScreen

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = game(pilot)
        table = screen.table
        for _ in table.ruleset.categories:
            table.act(LOCAL, Roll())
            table.act(LOCAL, ScoreBox(table.view().state.placements()[0].category))
        await settle(pilot)
        assert table.view().pause == "game_over"
        gid = table.view().game_id
        with locked(isolated / "db.sqlite3"):
            await pilot.press("r")
            # (the store's notice, or the screen's answer to a key while it waits: a
            # loaded CI run showed the latter alone; either says the game waits)
            await told_waiting(pilot, also=SAVING_TEXT)
            assert app.screen is screen and screen.saving
        # (the store retries with a growing wait: after a long lock on a loaded run its
        # next try may come several seconds after the lock is gone; a fresh-clone run
        # failed at 10 s here)
        deadline = time.monotonic() + 40
        while not isinstance(app.screen, EndScreen) and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert store.game_info(gid).finished is not None
