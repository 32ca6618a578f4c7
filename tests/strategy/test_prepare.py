"""`yacht.strategy.ready` / `prepare`: what an interface asks before a computer move or
a hint, and the build it starts with a progress callback."""

from __future__ import annotations

from pathlib import Path

import pytest

from yacht.rules import get
from yacht.strategy import UnknownLevel, make_player, prepare, ready
from yacht.strategy.solver import approx, clear_memory_cache
from yacht.strategy.solver.build import is_ready


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    clear_memory_cache()
    yield tmp_path
    clear_memory_cache()


def test_expert_and_advisor_need_the_table(empty_cache: Path) -> None:
    rs = get("yahtzee", {"joker": "free"})
    assert not ready("expert", rs) and not ready("advisor", rs)
    assert ready("beginner", rs) and ready("intermediate", rs) and ready("random", rs)
    calls: list[tuple[int, int]] = []
    prepare("advisor", rs, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1]
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert ready("expert", rs) and ready("advisor", rs)
    clear_memory_cache()  # from the disk cache now
    assert ready("expert", rs)
    assert list(empty_cache.iterdir())
    make_player(rs, "expert")  # plays at once


def test_prepare_when_ready_still_reports_the_end(empty_cache: Path) -> None:
    rs = get("tommys-crag")
    prepare("expert", rs)
    calls: list[tuple[int, int]] = []
    prepare("expert", rs, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 1)]
    calls.clear()
    prepare("beginner", rs, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 1)]


def test_unknown_level_is_named() -> None:
    with pytest.raises(UnknownLevel, match="accepted"):
        ready("grandmaster", get("yatzy"))
    with pytest.raises(UnknownLevel):
        prepare("grandmaster", get("yatzy"))


def test_the_ten_dice_two_column_player_builds_only_its_strategy(
        empty_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer player needs the one-column table, not the simulated estimate or the
    bound (those are for `yacht solve`)."""
    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("the estimate is not needed to play")

    monkeypatch.setattr(approx, "skip_upper_bound", refuse)
    import yacht.strategy.solver.selfplay as selfplay

    monkeypatch.setattr(selfplay, "fast_selfplay", refuse)
    rs = get("ancient-yacht-10-double", {"rolls": "3"})
    assert not ready("expert", rs)
    prepare("expert", rs)
    assert ready("expert", rs) and ready("advisor", rs)
    assert not is_ready(rs, estimate=True)  # `yacht solve` would still simulate
    clear_memory_cache()
    assert ready("expert", rs)
    player = make_player(rs, "expert")
    assert player.level == "expert"
