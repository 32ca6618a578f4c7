"""The exact solver: published values, consistency of its tables, the disk cache."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from yacht.rules import all_variants, get
from yacht.strategy.solver import cache as diskcache
from yacht.strategy.solver import (
    clear_memory_cache,
    compile_ruleset,
    fast_selfplay,
    solve,
)
from yacht.strategy.solver.backend import current
from yacht.strategy.solver.build import reachable_states


@pytest.mark.slow
@pytest.mark.parametrize("name, value", [
    ("yahtzee-free", 254.5896), ("yahtzee-forced", 254.5877), ("yahtzee-none", 253.9702),
    ("yahtzee-none-off", 245.8708), ("yatzy", 248.4400)])
def test_published_values(published: dict[str, float], name: str, value: float) -> None:
    assert round(published[name], 4) == value


def test_every_variant_compiles() -> None:
    for rs in all_variants():
        spec = compile_ruleset(rs)
        assert spec.score.shape == (spec.nbox, spec.dice.nfull)


def test_empty_card_value_is_expected_score() -> None:
    sol = solve(get("tommys-crag"))
    assert sol.value(sol.ruleset.new_card(), 0) == pytest.approx(sol.expected_score)
    assert sol.states == 2 ** 13


def _check_turns(name: str, opts: dict[str, str] | None = None, samples: int = 40) -> None:
    """The scalar per-state kernel gives back the table's value for sampled states."""
    sol = solve(get(name, opts))
    spec = sol.spec
    t = spec.dice
    rng = np.random.default_rng(1)
    ms, ax = reachable_states(spec)
    full = (1 << spec.nbox) - 1
    for i in rng.choice(np.flatnonzero(ms < full), samples):
        m, a = int(ms[i]), int(ax[i])
        E0 = np.empty(t.nfull)
        Ks = np.empty((spec.rolls, t.nall))
        current().state_turn(spec, sol.V, m, a, E0, Ks)
        assert Ks[-1, 0] == pytest.approx(float(sol.V[m, a]), abs=1e-9)


def test_turn_kernel_matches_table_yahtzee() -> None:
    _check_turns("yahtzee", {"joker": "forced"})


def test_turn_kernel_matches_table_repeat_fixed_point() -> None:
    _check_turns("tommys-yahtzee")


def test_forced_first_turn_value() -> None:
    sol = solve(get("tommys-yacht"))
    spec = sol.spec
    assert spec.forced is not None
    rest = float(sol.V[1 << spec.forced.box, 0])
    # the forced turn is worth between the floor and 50
    assert -95 < sol.expected_score - rest < 50
    assert sol.forced_keep is not None and sol.forced_keep.shape[0] == spec.forced.last_roll + 1


def test_ten_dice_three_rolls_solves() -> None:
    sol = solve(get("ancient-yacht-10", {"rolls": "3"}))
    # far above the single-column 5-dice game, below the maximum
    assert 200 < sol.expected_score < 1000
    r = fast_selfplay(sol, 200, seed=3)
    assert abs(r.mean - sol.expected_score) < 6 * r.totals.std() / np.sqrt(200) + 1


# --- self-play ------------------------------------------------------------------

def test_selfplay_is_deterministic_across_workers() -> None:
    sol = solve(get("yahtzee"))
    a = fast_selfplay(sol, 300, seed=5, workers=1)
    b = fast_selfplay(sol, 300, seed=5, workers=2)
    assert (a.totals == b.totals).all() and (a.yachts == b.yachts).all()
    c = fast_selfplay(sol, 300, seed=6, workers=2)
    assert not (a.totals == c.totals).all()


@pytest.mark.parametrize("name", ["tommys-crag", "tommys-yacht", "tommys-yahtzee", "yatsee"])
def test_selfplay_mean_matches_expectation(name: str) -> None:
    sol = solve(get(name))
    r = fast_selfplay(sol, 4000, seed=11)
    stderr = r.totals.std() / np.sqrt(len(r.totals))
    assert abs(r.mean - sol.expected_score) < 4.5 * stderr
    if sol.spec.U > 1:
        assert 0.3 < r.upper_bonus.mean() < 0.95
    else:
        assert not r.upper_bonus.any()
    assert r.yachts.min() >= 0


# --- disk cache -----------------------------------------------------------------

def test_cache_round_trip_and_damaged_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    rs = get("tommys-crag")
    clear_memory_cache()
    first = solve(rs)
    assert first.built
    path = diskcache.cache_path(rs.key)
    assert path.exists() and path.parent == tmp_path
    clear_memory_cache()
    again = solve(rs)
    assert not again.built
    assert np.array_equal(again.V, first.V)
    # damage one byte of the payload: rebuilt, never trusted
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    clear_memory_cache()
    third = solve(rs)
    assert third.built and np.array_equal(third.V, first.V)
    # a truncated file, and one that is not ours
    path.write_bytes(path.read_bytes()[:100])
    clear_memory_cache()
    assert solve(rs).built
    path.write_bytes(b"hello")
    clear_memory_cache()
    assert solve(rs).built
    clear_memory_cache()


def test_stale_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    rs = get("tommys-crag")
    path = diskcache.cache_path(rs.key)
    spec = compile_ruleset(rs)
    V = np.zeros((1 << spec.nbox, spec.A))
    assert diskcache.save(path, rs.key, "another-rules-fingerprint", {"V": V},
                          {"states": 1, "seconds": 0.0})
    clear_memory_cache()
    sol = solve(rs)
    assert sol.built and sol.expected_score > 100
    clear_memory_cache()


def test_unwritable_cache_warns_and_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("YACHT_CACHE_DIR", str(blocker / "cache"))
    clear_memory_cache()
    sol = solve(get("tommys-crag"))
    err = capsys.readouterr().err
    assert sol.expected_score > 100
    assert err.count("\n") == 1 and "warning" in err
    clear_memory_cache()


def test_cache_dir_default_is_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("YACHT_CACHE_DIR", raising=False)
    assert "yacht-dice" in str(diskcache.cache_dir())
    monkeypatch.setenv("YACHT_CACHE_DIR", os.sep + "somewhere")
    assert str(diskcache.cache_dir()) == os.sep + "somewhere"


def test_the_cache_keeps_to_its_limit_dropping_the_least_recently_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A web server's players may ask for every variant with every option: the cache
    holds at most YACHT_CACHE_LIMIT, the tables used longest ago going first (never the
    one just written); a table removed is built again when asked for."""
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(diskcache.LIMIT_ENV, "2500")   # bytes: two of these tables
    arrays = {"a": np.arange(100, dtype=np.float64)}   # 800 bytes + header each
    paths = [diskcache.cache_path(f"k{i}") for i in range(3)]
    for i, p in enumerate(paths[:2]):
        assert diskcache.save(p, f"k{i}", "fp", arrays, {})
        os.utime(p, (1000 + i, 1000 + i))       # k0 made first, then k1
    assert diskcache.load(paths[0], "k0", "fp") is not None   # k0 used now: k1 is older
    assert diskcache.save(paths[2], "k2", "fp", arrays, {})
    assert [p.exists() for p in paths] == [True, False, True]
    assert diskcache.load(paths[1], "k1", "fp") is None        # gone: it would be rebuilt
    monkeypatch.setenv(diskcache.LIMIT_ENV, "10")               # smaller than one table
    assert diskcache.save(paths[1], "k1", "fp", arrays, {})
    assert [p.exists() for p in paths] == [False, True, False]  # the new one stays
    monkeypatch.setenv(diskcache.LIMIT_ENV, "none")
    assert diskcache.save(paths[0], "k0", "fp", arrays, {}) and paths[1].exists()
    monkeypatch.setenv(diskcache.LIMIT_ENV, "1.5G")
    assert diskcache.cache_limit() == 3 << 29
    monkeypatch.setenv(diskcache.LIMIT_ENV, "lots")
    assert diskcache.cache_limit() == diskcache.DEFAULT_LIMIT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "YACHT_CACHE_LIMIT='lots' is not a size" in err
