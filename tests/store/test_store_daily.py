"""A day's challenge asked for at once by several server processes: every one of them
gets the one saved first (found by hand: three `yacht web` processes on PostgreSQL,
POST /api/daily sent to each at the same moment on a day with no challenge yet
answered two of them 503 'conflicting write ... duplicate key value violates unique
constraint "dailies_pkey"')."""

from __future__ import annotations

import threading

import pytest

from yacht.store import Store
from yacht.store.core import Daily


def test_a_challenge_made_meanwhile_by_another_process_is_taken(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = store.daily("2026-01-02", "yatzy")  # (made by "another process")
    looked = []
    find = store.find_daily

    def not_yet_then_found(day: str, variant: str) -> Daily | None:
        looked.append(day)
        return None if len(looked) == 1 else find(day, variant)

    monkeypatch.setattr(store, "find_daily", not_yet_then_found)
    assert store.daily("2026-01-02", "yatzy") == theirs  # (it was not there when looked for)


def test_many_asking_at_once_get_one_challenge(store: Store) -> None:
    for day in ("2026-02-01", "2026-02-02", "2026-02-03"):
        got: list[Daily | Exception] = []
        start = threading.Barrier(6)

        def ask(day: str = day, start: threading.Barrier = start,
                got: list[Daily | Exception] = got) -> None:
            start.wait(10)
            try:
                got.append(store.daily(day, "yahtzee"))
            except Exception as e:
                got.append(e)

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(got) == 6 and all(isinstance(g, Daily) for g in got), got
        assert len({g.seed for g in got if isinstance(g, Daily)}) == 1
