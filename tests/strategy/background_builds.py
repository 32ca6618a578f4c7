"""What the tests of builds in the background share (the champion's on a new install:
tests/strategy/test_champion_background.py; the hint's "Best to win" while they run:
tests/session/test_hint_to_win.py): the variant, a fresh cache, a runner the test
holds, and a game in its middle.

A test module takes the fixtures by binding them to their names (pytest finds a
module's fixtures by name; an import of them only would read as unused)::

    from tests.strategy import background_builds as builds

    fresh, held = builds.fresh, builds.held
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from yacht.engine import Choose, Player, Roll, State
from yacht.rules import get
from yacht.strategy.advisor import advise
from yacht.strategy.solver import background, dist, target

RS = get("tommys-crag")


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Builds in the background (not the suite's ``wait``), an empty cache, no build
    known to this process (nor a target table an earlier test of the process left in
    memory: alone, the hint would have said what it reaches)."""
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(background.ENV, "background")
    monkeypatch.setattr(background, "_JOBS", {})
    dist.clear_memory()
    target.clear_memory()
    assert not dist.is_ready(RS)
    yield
    dist.clear_memory()
    target.clear_memory()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[Callable[[], None]]:
    """A runner that runs nothing until the test calls what it holds."""
    works: list[Callable[[], None]] = []
    monkeypatch.setattr(background, "RUNNER", works.append)
    return works


def mid_game(first: Player) -> State:
    """Two players of Tommy's Crag, ``first`` and an expert, both played as the expert
    from seed 215 to the first player's last roll of their 6th turn (8 boxes open: the
    chances of winning need the distributions)."""
    s = State(RS, [first, Player("E", "computer", "expert")], rng=random.Random(215))
    while not (s.current == 0 and s.turns_taken(0) == 5 and s.dice and s.rolls_left == 0):
        if not s.dice:
            s.apply(Roll())
            continue
        d = advise(s)[0].decision()
        if d.score is not None:
            s.apply(d.score)
        else:
            s.apply(Choose(tuple(sorted(d.reroll))))
            s.apply(Roll())
    return s
