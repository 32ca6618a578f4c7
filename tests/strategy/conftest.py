"""Shared fixtures: a private table cache for the whole session, brute-force helpers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every solver table of the test session goes to a temporary cache directory."""
    path = tmp_path_factory.mktemp("yacht-cache")
    old = os.environ.get("YACHT_CACHE_DIR")
    os.environ["YACHT_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("YACHT_CACHE_DIR", None)
    else:
        os.environ["YACHT_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def published() -> dict[str, float]:
    """Expected scores of the published variants, built once per session."""
    from yacht.rules import get
    from yacht.strategy.solver import solve

    out: dict[str, float] = {}
    for name, opts in [("yahtzee-free", {"joker": "free"}), ("yahtzee-forced", {"joker": "forced"}),
                       ("yahtzee-none", {"joker": "none"}),
                       ("yahtzee-none-off", {"joker": "none", "bonus": "off"})]:
        out[name] = solve(get("yahtzee", opts)).expected_score
    out["yatzy"] = solve(get("yatzy")).expected_score
    return out
