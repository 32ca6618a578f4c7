"""`yacht daily` and `yacht resume ID` in a terminal upgraded an older database and printed
the line that says so just before the terminal game took the screen, where nobody saw it;
the game says it as a notice, as it does for `yacht play` (which opens the store itself).
A refusal with no game to show says it on the terminal (QA s25)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "store"))
from store_helpers import OLD_GAME, database_at  # noqa: E402

from yacht.cli import main  # noqa: E402


def said(path: Path) -> str:
    return (f"{path} is upgraded for this version of yacht; the file as it was is kept as "
            f"{path}.bak-yacht_0001")


class FakeApp:
    """The terminal game as far as the command sees it: what it is told when it runs."""

    runs: list[dict[str, Any]] = []

    def __init__(self, launch: Any, store: Any = None) -> None:
        self.launch, self.store = launch, store
        self.store_note: str | None = None

    def run(self) -> int:
        FakeApp.runs.append({"resume": self.launch.resume, "note": self.store_note,
                             "store": self.store is not None})
        return 0


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> type[FakeApp]:
    import yacht.tui

    FakeApp.runs = []
    monkeypatch.setattr(yacht.tui, "make_app", FakeApp)
    return FakeApp


def in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard input and output are a terminal (patched in the test itself: the output
    is capsys's only while the test runs)."""
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)


def test_yacht_daily_s_terminal_game_says_the_database_was_upgraded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: type[FakeApp],
        monkeypatch: pytest.MonkeyPatch) -> None:
    in_a_terminal(monkeypatch)
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    assert main(["daily", "tommys-crag", "--name", "Ann", "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    assert [run["note"] for run in terminal.runs] == [said(path)], (out, err)
    assert terminal.runs[0]["store"]  # (given: the game does not open it again)
    assert "upgraded" not in out + err  # (not printed under the game, where it was lost)
    assert main(["daily", "tommys-crag", "--name", "Ann", "--db", str(path)]) == 0
    assert terminal.runs[1]["note"] is None  # (said once)


def test_yacht_resume_s_terminal_game_says_the_database_was_upgraded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: type[FakeApp],
        monkeypatch: pytest.MonkeyPatch) -> None:
    in_a_terminal(monkeypatch)
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    assert main(["resume", "abcdef", "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    assert terminal.runs == [{"resume": "abcdef123456", "note": said(path), "store": True}], out
    assert "upgraded" not in out + err


def test_yacht_play_db_s_terminal_game_says_the_database_was_upgraded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: type[FakeApp],
        monkeypatch: pytest.MonkeyPatch) -> None:
    in_a_terminal(monkeypatch)
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    assert main(["play", "--resume", "abcdef", "--db", str(path)]) == 0
    assert terminal.runs == [{"resume": "abcdef123456", "note": said(path), "store": True}]
    assert "upgraded" not in "".join(capsys.readouterr())


def test_a_refusal_with_no_game_to_show_says_the_upgrade_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: type[FakeApp],
        monkeypatch: pytest.MonkeyPatch) -> None:
    in_a_terminal(monkeypatch)
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    assert main(["resume", "fedcba", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"yacht: {said(path)}\n" in err and "fedcba" in err, err
    assert terminal.runs == []


def test_a_daily_refused_before_its_game_says_the_upgrade_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], terminal: type[FakeApp],
        monkeypatch: pytest.MonkeyPatch) -> None:
    in_a_terminal(monkeypatch)
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    assert main(["daily", "tommys-crag", "--name", "x" * 21, "--db", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"yacht: {said(path)}\nyacht: error: --name: "), err
    assert out == "" and terminal.runs == []


def test_the_terminal_game_given_the_note_shows_it(tmp_path: Path) -> None:
    """The terminal game itself (not a stand-in) shows the note it is given with the store
    (yacht resume's and yacht daily's way) as a notice."""
    import asyncio

    from yacht.session import Launch, upgrade_note
    from yacht.store import open_store
    from yacht.tui import make_app

    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    store = open_store(str(path))
    note = upgrade_note(store)
    assert note == said(path)

    async def shown() -> list[str]:
        app = make_app(Launch(resume="abcdef123456"), store=store)
        app.store_note = note
        async with app.run_test(size=(100, 40)) as pilot:
            for _ in range(400):  # (bounded: until the notice is up)
                seen = [n.message for n in app._notifications._notifications.values()]
                if note in seen:
                    return seen
                await pilot.pause(0.01)
        return seen

    try:
        assert note in asyncio.run(shown())
    finally:
        store.close()
