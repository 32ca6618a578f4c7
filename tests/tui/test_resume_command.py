"""`yacht resume ID` in a terminal opens the game where it was left."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from yacht.cli import main
from yacht.engine import Player, Record, Roll, State
from yacht.rules import get
from yacht.store import open_store


class _FakeApp:
    launched: list[tuple[Any, Any]] = []

    def __init__(self, launch: Any, store: Any) -> None:
        self.launch, self.store = launch, store

    def run(self) -> int:
        _FakeApp.launched.append((self.launch, self.store.load_record(self.launch.resume)))
        return 0


def test_resume_id_opens_the_game_in_a_terminal(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'y.sqlite3'}"
    store = open_store(db)
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    gid = store.start_game(Record.from_state(s))
    s.apply(Roll())
    store.append_action(gid, 0, s.log[0])
    store.close()

    import yacht.tui
    monkeypatch.setattr(yacht.tui, "make_app", lambda launch, store: _FakeApp(launch, store))
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["resume", gid[:6], "--db", db]) == 0
    launch, record = _FakeApp.launched[-1]
    assert launch.resume == gid and record.actions == s.log

    # --show prints the game instead, as it does when the output is not a terminal
    assert main(["resume", gid, "--db", db, "--show"]) == 0
    assert "Ann" in capsys.readouterr().out
    assert len(_FakeApp.launched) == 1
