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


def test_every_way_out_of_a_game_says_how_to_resume_it(
        store: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """q (asked first), Ctrl+C and Ctrl+Q (at once, from a dialog too) leave the same
    words: the game is saved and `yacht resume ID` goes on with it (Ctrl+C and Ctrl+Q
    printed nothing). A game over says nothing: there is nothing to go on with, and it
    counts as finished."""
    import asyncio

    from tui_helpers import fast_forward, game, random_players, settle

    from yacht.session import Launch, PlayerSpec
    from yacht.tui import make_app

    async def leave(keys: list[str], over: bool = False) -> tuple[Any, str]:
        app = make_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]),
                       store=store, strategy_factory=random_players, rng=random.Random(1))
        app.config.speed, app.config.sound = "instant", False
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            g = game(pilot)
            await pilot.press("r", "e")
            if over:
                fast_forward(g, leave=0)
            game_id = g.table.view().game_id
            await pilot.press(*keys)
            await settle(pilot)
        return app, str(game_id)

    capsys.readouterr()
    for keys in (["q", "1"], ["ctrl+c"], ["ctrl+q"], ["o", "ctrl+c"]):
        app, game_id = asyncio.run(leave(keys))
        words = " ".join(capsys.readouterr().err.split())  # (printed as the app ends)
        assert words.startswith("The game is saved.") and f"yacht resume {game_id}" in words, \
            (keys, words)
    app, game_id = asyncio.run(leave(["ctrl+c"], over=True))
    assert not capsys.readouterr().err.strip()
    assert store.load_record(game_id).final_state().is_terminal()
    assert game_id not in {g.id for g in store.unfinished_games()}
