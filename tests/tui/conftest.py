"""Fixtures for the terminal game: a temporary store and config, seeded dice and players."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import random_players

from yacht.session import Launch
from yacht.tui import YachtApp, make_app


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "db.sqlite3"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


@pytest.fixture
def store(isolated: Path) -> Iterator[Any]:
    from yacht.store import open_store

    st = open_store(str(isolated / "db.sqlite3"))
    yield st
    st.close()


@pytest.fixture
def new_app(store: Any) -> Callable[..., YachtApp]:
    def build(launch: Launch | None = None, seed: int = 1, speed: str = "instant") -> YachtApp:
        app = make_app(launch, store=store, strategy_factory=random_players,
                       rng=random.Random(seed))
        app.config.speed = speed
        app.config.sound = False
        return app
    return build
