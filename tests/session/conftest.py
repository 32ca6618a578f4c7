"""Fixtures for the session tests: an in-memory store with the store's contract."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from yacht.engine import Action, Record, State
from yacht.rules import Ruleset
from yacht.store.errors import GameMovedOn
from yacht.strategy import RandomStrategy


@dataclass
class Entry:
    rank: int
    name: str
    score: int
    date: datetime
    game_id: str
    key: str
    assisted: bool
    dice_entered: bool = False
    ended_early: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "score": self.score,
                "game_id": self.game_id, "assisted": self.assisted,
                "dice_entered": self.dice_entered, "ended_early": self.ended_early}


@dataclass
class Game:
    record: Record
    finished: bool = False
    assisted: set[int | None] = field(default_factory=set)
    seed: bytes | None = None


class MemoryStore:
    """The parts of yacht.store.Store a session uses, kept in memory."""

    def __init__(self) -> None:
        self.games: dict[str, Game] = {}
        self.scores: list[Entry] = []
        self.fail = False

    def _check(self) -> None:
        if self.fail:
            raise RuntimeError("disk full writing /tmp/x.db")

    def start_game(self, record: Record, seed: bytes | None = None) -> str:
        self._check()
        gid = f"g{len(self.games) + 1:03d}"
        self.games[gid] = Game(Record(record.variant, dict(record.options),
                                      list(record.players), list(record.actions),
                                      dice_seed=record.dice_seed), seed=seed)
        return gid

    def load_seed(self, game_id: str) -> bytes | None:
        self._check()
        return self.games[game_id].seed

    def append_action(self, game_id: str, index: int, action: Action,
                      new: bool = False) -> None:
        self._check()
        log = self.games[game_id].record.actions
        if self.games[game_id].finished:
            raise GameMovedOn(f"game {game_id} is finished")
        if index < len(log):
            if new or log[index] != action:
                raise GameMovedOn(f"game {game_id} already has a different action {index + 1}")
            return
        if index > len(log):
            raise GameMovedOn(f"game {game_id} has {len(log)} actions; action {index + 1} "
                              "cannot come next")
        log.append(action)

    def update_meta(self, game_id: str, meta: dict[str, Any]) -> None:
        self._check()
        self.games[game_id].record.meta.update(meta)

    def set_assisted(self, game_id: str, player: int | None = None) -> None:
        self._check()
        self.games[game_id].assisted.add(player)

    def finish_game(self, game_id: str, state: State) -> list[Entry]:
        self._check()
        g = self.games[game_id]
        assert state.is_terminal()
        assert list(state.log) == g.record.actions
        if g.finished:
            return []
        g.finished = True
        new = []
        for p, total in zip(state.players, state.returns(), strict=True):
            if not p.is_computer:
                e = Entry(0, p.name, total, datetime.now(UTC), game_id, state.ruleset.key,
                          bool(g.assisted) or state.dice_entered, state.dice_entered)
                self.scores.append(e)
                new.append(e)
        self.scores.sort(key=lambda e: -e.score)
        for i, e in enumerate(self.scores, 1):
            e.rank = i
        return [e for e in new if e.rank <= 10]

    def game_info(self, game_id: str) -> Any:
        self._check()
        if game_id not in self.games:
            raise LookupError(f"no game {game_id} in memory")
        return SimpleNamespace(id=game_id, assisted=bool(self.games[game_id].assisted))

    def close(self) -> None:
        pass

    def progress(self, game_id: str) -> tuple[int, bool]:
        self._check()
        if game_id not in self.games:
            raise LookupError(f"no game {game_id} in memory")
        g = self.games[game_id]
        return len(g.record.actions), g.finished

    def resolve_id(self, prefix: str) -> str:
        found = [gid for gid in self.games if gid.startswith(prefix)]
        if len(found) != 1:
            raise LookupError(f"no game {prefix} in memory")
        return found[0]

    def load_record(self, game_id: str) -> Record:
        self._check()
        if game_id not in self.games:
            raise LookupError(f"no game {game_id} in memory")
        g = self.games[game_id]
        r = g.record
        shown = r.dice_seed
        if shown is not None and g.finished and g.seed is not None:
            shown = shown.revealed(g.seed)
        return Record(r.variant, dict(r.options), list(r.players), list(r.actions),
                      dice_seed=shown)

    def top_ten(self, ruleset: Ruleset, assisted: bool = False) -> list[Entry]:
        return [e for e in self.scores if e.key == ruleset.key][:10]

    def unfinished_games(self) -> list[Any]:
        return [gid for gid, g in self.games.items() if not g.finished]

    def delete_game(self, game_id: str) -> None:
        del self.games[game_id]


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "config"
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(d))
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "db.sqlite3"))
    return d


def random_factory(level: str, rs: Ruleset) -> RandomStrategy:
    return RandomStrategy(rs, seed=7)


@pytest.fixture
def factory() -> Any:
    return random_factory


@pytest.fixture
def rng() -> random.Random:
    return random.Random(5)
