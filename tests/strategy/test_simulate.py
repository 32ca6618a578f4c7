"""Simulation: reproducible games, the statistics, and the `yacht simulate` command."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yacht.cli import main
from yacht.rules import get
from yacht.strategy import UnknownLevel
from yacht.strategy.simulate import CHUNK, SimulationResult, play_games, simulate


def test_same_seed_same_games() -> None:
    rs = get("tommys-crag")
    a = simulate(rs, "beginner", games=30, seed=3, workers=1)
    b = simulate(rs, "beginner", games=30, seed=3, workers=1)
    assert a == b
    assert np.array_equal(a.scores, b.scores)
    c = simulate(rs, "beginner", games=30, seed=4, workers=1)
    assert a != c


def test_results_do_not_depend_on_the_workers() -> None:
    rs = get("yatzy")
    games = 2 * CHUNK + 7  # three chunks, the last one short
    one = simulate(rs, "beginner", games=games, seed=12, workers=1)
    two = simulate(rs, "beginner", games=games, seed=12, workers=2)
    assert one == two
    assert two.workers == 2 and len(two.scores) == games


def test_a_prefix_of_the_games_is_the_same_games() -> None:
    """Chunks are seeded by their index: more games only add games."""
    rs = get("sackson-yacht")
    short = simulate(rs, "random", games=CHUNK, seed=8, workers=1)
    long = simulate(rs, "random", games=2 * CHUNK, seed=8, workers=1)
    assert np.array_equal(long.scores[:CHUNK], short.scores)


def test_random_level_is_reproducible() -> None:
    rs = get("windows-yacht")
    a = simulate(rs, "random", games=10, seed=1, workers=1)
    b = simulate(rs, "random", games=10, seed=1, workers=1)
    assert a == b


def test_statistics() -> None:
    r = simulate(get("windows-yacht"), "beginner", games=40, seed=5, workers=1)
    s = r.scores
    assert r.games == 40
    assert r.mean == pytest.approx(s.mean())
    assert r.std == pytest.approx(s.std(ddof=1))
    assert r.se == pytest.approx(s.std(ddof=1) / np.sqrt(40))
    assert (r.min, r.max) == (s.min(), s.max())
    pct = r.percentiles()
    assert list(pct) == [5, 25, 50, 75, 95]
    assert pct[50] == pytest.approx(np.median(s))
    assert r.min <= pct[5] <= pct[25] <= pct[50] <= pct[75] <= pct[95] <= r.max
    hist = r.histogram()
    assert sum(n for _, _, n in hist) == 40
    assert hist[0][0] == r.min and hist[-1][0] <= r.max <= hist[-1][1]
    assert r.bonus is not None and r.bonus.shape == (40, 1)
    rates = r.bonus_rate
    assert rates is not None and 0.0 <= rates[0] <= 1.0
    assert r.games_per_second > 0


def test_bonus_is_the_cards_bonus() -> None:
    rs = get("yatzy")
    totals, bonuses, _ = play_games(rs, "intermediate", seed=2, chunk=0, games=6)
    # a game with the bonus has it in its total: the upper-bonus amount is 50
    assert len(totals) == len(bonuses) == 6
    assert all(len(b) == 1 for b in bonuses)
    assert any(b[0] for b in bonuses)


def test_no_bonus_variant_has_no_bonus_rate() -> None:
    r = simulate(get("ancient-yacht-double"), "beginner", games=3, seed=1, workers=1)
    assert r.bonus is None and r.bonus_rate is None
    assert r.to_json()["bonus_rate"] is None


def test_yachts_are_counted() -> None:
    # Tommy's Yacht: the first turn rolls on until all dice match (almost never sunk)
    r = simulate(get("tommys-yacht"), "beginner", games=20, seed=9, workers=1)
    assert r.yacht_rate >= 0.9
    assert r.yachts_per_game >= 1.0
    # random play on Tommy's Crag (3 dice) sometimes scores three of a kind
    r = simulate(get("tommys-crag"), "random", games=30, seed=9, workers=1)
    assert 0.0 < r.yacht_rate < 1.0


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    simulate(get("tommys-crag"), "beginner", games=CHUNK + 1, seed=1, workers=1,
             progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (0, CHUNK + 1)
    assert calls[-1] == (CHUNK + 1, CHUNK + 1)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_bad_arguments() -> None:
    rs = get("yatzy")
    with pytest.raises(ValueError, match="games"):
        simulate(rs, "beginner", games=0, seed=1)
    with pytest.raises(ValueError, match="workers"):
        simulate(rs, "beginner", games=5, seed=1, workers=0)
    with pytest.raises(UnknownLevel, match="accepted"):
        simulate(rs, "grandmaster", games=5, seed=1)


def test_json_shape() -> None:
    r = simulate(get("yatcy"), "beginner", games=5, seed=2, workers=1)
    data = r.to_json()
    assert json.loads(json.dumps(data)) == data
    for key in ("games", "mean", "std", "se", "min", "max", "percentiles", "histogram",
                "bonus_rate", "yacht_rate", "seed", "player", "variant", "games_per_second"):
        assert key in data
    assert data["games"] == 5 and data["player"] == "beginner" and data["variant"] == "yatcy"
    assert set(data["percentiles"]) == {"5", "25", "50", "75", "95"}


def test_result_equality_ignores_timing() -> None:
    rs = get("tommys-crag")
    a = simulate(rs, "beginner", games=4, seed=2, workers=1)
    b = SimulationResult(rs, "beginner", 2, 7, a.scores.copy(), a.bonus, a.yachts.copy(), 99.0)
    assert a == b
    b.scores[0] += 1
    assert a != b


# --- the command ----------------------------------------------------------------------

def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "tommys-crag", "--games", "30", "--player", "beginner",
                 "--seed", "3", "--workers", "1", "--json"])
    assert code == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert {"games", "mean", "std"} <= set(data)
    assert data["games"] == 30
    assert err == ""
    again = simulate(get("tommys-crag"), "beginner", games=30, seed=3, workers=2)
    assert data["mean"] == pytest.approx(again.mean)


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "windows", "-n", "12", "-p", "intermediate", "--seed", "1",
                 "-w", "1"])
    assert code == 0
    out = capsys.readouterr().out
    assert "Windows Yacht" in out and "intermediate, 12 games, seed 1" in out
    for word in ("mean", "std dev", "percentiles", "upper bonus", "yachts", "games/s"):
        assert word in out
    assert out.count("|") >= 2  # the histogram


def test_cli_options_are_passed(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "yahtzee", "-o", "joker=free", "-n", "3", "-p", "random",
                 "--seed", "1", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["options"]["joker"] == "free"


@pytest.mark.parametrize("argv", [
    ["simulate", "yatzy", "--games", "0", "--player", "beginner"],
    ["simulate", "yatzy", "--games", "-5", "--player", "beginner"],
    ["simulate", "yatzy", "--games", "many", "--player", "beginner"],
    ["simulate", "yatzy", "--games", "5", "--player", "wizard"],
    ["simulate", "nosuchgame", "--games", "5", "--player", "beginner"],
    ["simulate", "yatzy", "-o", "joker=free", "--games", "5", "--player", "beginner"],
    ["simulate", "ancient-yacht-10", "-o", "rolls=9", "--games", "5"],
    ["simulate", "yatzy", "--seed", "x", "--games", "5"],
    ["simulate", "yatzy", "--workers", "0", "--games", "5"],
])
def test_cli_bad_input_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0]
    assert "Traceback" not in captured.err


def test_progress_bar_draws_and_erases() -> None:
    import io

    from yacht.cli.commands.simulate import ProgressBar

    stream = io.StringIO()
    bar = ProgressBar(stream, "yatzy beginner", delay=0.0, width=10)
    bar(5, 10)
    assert "[#####.....] 5/10 games" in stream.getvalue()
    bar(10, 10)
    bar.close()
    assert stream.getvalue().endswith("\r")
    quiet = io.StringIO()
    slow = ProgressBar(quiet, "x", delay=3600.0)
    slow(1, 2)
    slow.close()
    assert quiet.getvalue() == ""


def test_expert_through_the_kernel_and_through_the_engine() -> None:
    rs = get("tommys-crag")
    fast = simulate(rs, "expert", 200, seed=6, workers=1)
    assert fast.source == "kernel" and fast.games == 200
    assert fast == simulate(rs, "expert", 200, seed=6, workers=2)
    slow = simulate(rs, "expert", 6, seed=6, workers=1, use_kernel=False)
    assert slow.source == "engine" and slow.games == 6
    assert fast.to_json()["source"] == "kernel"


def test_progress_bars_are_shorter_than_the_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A line as wide as the terminal wraps, and each redraw then starts a new line (an
    80-column terminal showed 'solving maxi-yatzy;bonus=100@84;saved_rolls=off [...]' once
    per step): the bars fit, shortening the label."""
    import io

    from yacht.cli.commands.simulate import ProgressBar
    from yacht.strategy.solver.build import _bar

    monkeypatch.setenv("COLUMNS", "40")
    stream = io.StringIO()
    bar = ProgressBar(stream, "working out the chances of winning", delay=0.0, unit="%")
    for done in range(0, 101, 20):
        bar(done, 100)
    draws = stream.getvalue().split("\r")[1:]
    assert len(draws) == 6 and all(len(d) < 40 for d in draws), draws
    assert all(d.startswith("working") and "…" in d for d in draws)
    bar.close()
    assert stream.getvalue().endswith("\r" + " " * len(draws[-1]) + "\r")
    show = _bar("solving Maxi Yatzy - Saved rolls: off (3 rolls every turn) (once)")
    for done in range(0, 21, 5):
        show(done, 20)
    err = capsys.readouterr().err
    lines = [part for line in err.split("\n") for part in line.split("\r") if part]
    assert len(lines) == 5 and all(len(x) < 40 for x in lines), lines
    assert lines[-1].endswith("] 20/20") and err.endswith("\n")
