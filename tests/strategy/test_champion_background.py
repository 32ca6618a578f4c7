"""The champion on a new install: it plays the expert's moves at once while its score
distributions are built in the background, and plays to win once they are ready.

Every test here has a cache of its own (the distributions missing at first) and says
when the build runs: a runner the test holds (nothing runs until it says so), or a
real thread whose build waits for an event the test holds. No choice depends on time.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.strategy import background_builds as builds
from tests.strategy.background_builds import RS, mid_game

from yacht.engine import Player, State
from yacht.rules import get
from yacht.session.advice import rank_moves
from yacht.strategy import make_player, preparation
from yacht.strategy.champion import preparing
from yacht.strategy.solver import background, dist

#: the shared fixtures (a fresh cache, a held runner), found by pytest by these names
fresh, held = builds.fresh, builds.held


def _situation() -> State:
    """Two-player Tommy's Crag, both playing as the expert, at the champion's last roll of
    its 6th turn (8 boxes open: too many for a table from its card, the old champion's
    way): the expert scores 5 2 5 as a low straight, the best chance of winning is in
    the threes (found with the distributions: 19.6 % against 18.4 %)."""
    s = mid_game(Player("C", "computer", "champion"))
    assert tuple(s.dice) == (5, 2, 5)
    return s


def _category(decision: Any) -> str:
    assert decision.score is not None
    return str(decision.score.category)


EXPERT, TO_WIN = "low_straight", "threes"


def test_it_plays_the_experts_move_until_the_build_has_run_then_to_win(
        fresh: None, held: list[Callable[[], None]]) -> None:
    state = _situation()
    champ = make_player(RS, "champion")
    assert preparation(champ, state) is None   # nothing to wait for
    assert _category(champ.decide(state)) == EXPERT
    assert len(held) == 1                      # one build asked for, not run yet
    job = preparing(state)
    assert job is not None and not job.finished.is_set() and job.fraction == 0.0
    assert _category(champ.decide(state)) == EXPERT
    assert len(held) == 1                      # asked once per process
    held[0]()                                  # the build runs (here, to its end)
    assert job.finished.is_set() and job.error is None and job.fraction == 1.0
    assert dist.is_ready(RS)
    assert preparing(state) is None
    assert _category(champ.decide(state)) == TO_WIN


def test_the_first_move_does_not_wait_for_a_build_under_way(
        fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    go = threading.Event()
    started = threading.Event()
    real = dist.build

    def blocked(*args: Any, **kwargs: Any) -> Any:
        started.set()
        assert go.wait(120)
        return real(*args, **kwargs)

    monkeypatch.setattr(dist, "build", blocked)
    state = _situation()
    champ = make_player(RS, "champion")
    try:
        assert _category(champ.decide(state)) == EXPERT
        job = preparing(state)
        assert job is not None
        assert started.wait(60)                # the build is under way, held by the test
        assert not job.finished.is_set()
        assert _category(champ.decide(state)) == EXPERT
    finally:
        go.set()
    assert job.join(timeout=120) and job.error is None
    assert _category(champ.decide(state)) == TO_WIN


def test_the_hint_says_its_chances_are_being_prepared(
        fresh: None, held: list[Callable[[], None]]) -> None:
    state = _situation()
    moves = rank_moves(state)
    win = getattr(moves, "to_win", None)
    assert win is not None and win.moves == () and win.preparing == 0.0
    assert win.line.startswith("Best to win: being prepared (0%)")
    assert len(held) == 1
    held[0]()
    win = getattr(rank_moves(state), "to_win", None)
    assert win is not None and win.preparing is None and win.exact
    assert win.differ and win.moves[0][0].category == TO_WIN


def test_progress_is_told_and_a_failed_build_is_not_retried(
        held: list[Callable[[], None]]) -> None:
    monkey_jobs: dict[Any, background.Job] = {}
    background._JOBS, saved = monkey_jobs, background._JOBS
    try:
        def build(progress: Any) -> None:
            progress(1, 4)
            assert job.fraction == 0.25 and job.percent == 25
            raise ValueError("no room on the disk")

        job = background.request("k", build)
        assert background.running("k") is job and job.percent == 0
        held[0]()
        assert job.finished.is_set() and job.error == "no room on the disk"
        assert background.running("k") is None and job.percent == 100
        assert background.request("k", build) is job and len(held) == 1
        background.forget("k")
        assert background.request("k", build) is not job and len(held) == 2
    finally:
        background._JOBS = saved


def test_the_analysis_follows_a_build_under_way(
        fresh: None, held: list[Callable[[], None]]) -> None:
    job = dist.in_background(RS)
    told: list[tuple[int, int]] = []
    result: list[Any] = []
    waiter = threading.Thread(target=lambda: result.append(
        dist.joined(RS, progress=lambda d, n: told.append((d, n)))))
    waiter.start()
    for _ in range(6000):   # (until the waiter follows the job: then the build runs)
        if job._listeners:
            break
        time.sleep(0.01)
    assert job._listeners
    held[0]()
    waiter.join(120)
    assert job.finished.is_set() and result and result[0].cells > 0
    assert len(told) > 2 and told[-1][0] == told[-1][1]


def test_at_a_table_its_first_move_comes_without_getting_ready(
        fresh: None, held: list[Callable[[], None]]) -> None:
    from yacht.session.table import Event, Table

    table = Table.new(RS, [Player("Champ", "computer", "champion"),
                           Player("Cpu", "computer", "expert")],
                      rng=random.Random(2), speed="instant")
    events: list[Event] = []
    table.subscribe(events.append)
    table.run_due(until=lambda: table.view().state.turns_taken(0) >= 1)
    assert table.view().state.turns_taken(0) == 1           # it played its first turn
    said = [e.data["what"] for e in events if e.kind == "computer_thinking"]
    assert not [w for w in said if "distributions" in w], said   # without waiting for them
    assert len(held) == 1 and not dist.is_ready(RS)        # which are asked for, not built
    held[0]()
    assert dist.is_ready(RS)
    table.run_due(until=lambda: table.view().state.is_terminal())
    assert table.view().state.is_terminal()


def test_builds_beyond_the_waiting_ones_are_refused_until_one_ends(
        held: list[Callable[[], None]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A stranger's many tables cannot start many builds: one runs, WAITING wait, the
    next is refused at once (busy) and not kept, so that it may be asked again."""
    monkeypatch.setattr(background, "_JOBS", {})
    built: list[int] = []
    jobs = [background.request(("k", i), lambda progress, i=i: built.append(i))
            for i in range(background.WAITING + 1)]
    assert not any(j.finished.is_set() for j in jobs) and len(held) == len(jobs)
    refused = background.request(("k", "more"), lambda progress: built.append(-1))
    assert refused.finished.is_set() and refused.error == background.BUSY
    assert len(held) == len(jobs) and background.running(("k", "more")) is None
    held[0]()                                  # one ends: room for one more
    assert jobs[0].finished.is_set() and jobs[0].error is None and built == [0]
    again = background.request(("k", "more"), lambda progress: built.append(-1))
    assert again is not refused and not again.finished.is_set() and len(held) == len(jobs) + 1
    assert background.request(("k", 1), lambda progress: None) is jobs[1]   # (kept)


def test_big_builds_run_one_at_a_time_whoever_asks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads asking for two variants' distributions at once: the second computes
    only once the first has ended (each holds hundreds of MB while it runs). Each build
    waits at a barrier for the other: together they would meet there at once; one at a
    time, the barrier breaks (after its timeout) and each build runs alone."""
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    dist.clear_memory()
    meet = threading.Barrier(2, timeout=2)
    inside: list[int] = []
    most: list[int] = []
    real = dist.build

    def build(*args: Any, **kwargs: Any) -> Any:
        inside.append(1)
        most.append(len(inside))
        try:
            meet.wait()
        except threading.BrokenBarrierError:
            pass
        try:
            return real(*args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(dist, "build", build)
    threads = [threading.Thread(target=dist.distributions, args=(get(v),),
                                kwargs={"cache": False})
               for v in ("tommys-crag", "sackson-yacht")]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
    finally:
        dist.clear_memory()
    assert not any(t.is_alive() for t in threads)
    assert len(most) == 2 and max(most) == 1, most
