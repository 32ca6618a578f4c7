"""Simulation in steps that can be stopped: the solver's self-play in batches (the same
games as one call), a stop event that ends it at the next step, no worker left."""

from __future__ import annotations

import multiprocessing
import threading

import numpy as np
import pytest

from yacht.rules import get
from yacht.strategy import simulate as sim
from yacht.strategy.simulate import SimulationStopped, batch_seed, simulate


def test_batches_are_the_games_of_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    from yacht.strategy.solver import fast_selfplay, solve

    rs = get("yahtzee")
    one = fast_selfplay(solve(rs, estimate=False), games=500, seed=5, workers=1)
    monkeypatch.setattr(sim, "BATCH_SECONDS", 0.0)  # the smallest batches after the first: 64 games
    calls: list[int] = []
    real = fast_selfplay

    def counting(sol: object, games: int, seed: int, workers: int) -> object:
        calls.append(games)
        return real(sol, games=games, seed=seed, workers=workers)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "_kernel", lambda ruleset, workers, show: (
        counting, solve(ruleset, estimate=False)))
    r = simulate(rs, "expert", games=500, seed=5, workers=1)
    assert len(calls) > 2 and sum(calls) == 500
    assert r.source == "kernel" and np.array_equal(r.scores, one.totals.astype(np.int64))
    assert np.array_equal(r.yachts, one.yachts.astype(np.int64))
    assert r.bonus is not None and np.array_equal(r.bonus[:, 0], one.upper_bonus)
    assert batch_seed(5, 0) == 5


def test_a_stop_ends_the_kernel_games() -> None:
    stop = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done:
            stop.set()

    with pytest.raises(SimulationStopped):
        simulate(get("yatzy"), "expert", games=10**7, seed=1, workers=1, progress=progress,
                 stop=stop)
    assert 0 < seen[-1] < 10**7


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stop_ends_the_engine_games_and_their_workers(workers: int) -> None:
    stop = threading.Event()

    def progress(done: int, total: int) -> None:
        if done:
            stop.set()

    with pytest.raises(SimulationStopped):
        simulate(get("tommys-crag"), "random", games=10**6, seed=1, workers=workers,
                 progress=progress, stop=stop)
    assert not [p for p in multiprocessing.active_children() if p.is_alive()]
