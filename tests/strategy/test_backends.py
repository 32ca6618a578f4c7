"""The two kernel backends (the C extension and the numba kernels) agree, the native
path never loads numba, the extension's build never breaks an install, and tables
are safe to share between threads."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from yacht.rules import get
from yacht.strategy.solver import backend as be
from yacht.strategy.solver import build, fast_selfplay, solve
from yacht.strategy.solver.batch import option_values
from yacht.strategy.solver.build import build_table, clear_memory_cache, reachable_states
from yacht.strategy.solver.spec import compile_ruleset

ROOT = Path(__file__).resolve().parents[2]
NATIVE = be.native_module() is not None
needs_native = pytest.mark.skipif(not NATIVE, reason="the C extension is not built here")

# rule features: repeat box (fixed points), forced first turn, forced and free joker,
# no bonus, 3 dice / 2 rolls, 10 dice
CASES = [("tommys-yahtzee", None), ("tommys-yacht", None), ("yahtzee", {"joker": "forced"}),
         ("yahtzee", {"joker": "free"}), ("tommys-crag", None),
         ("ancient-yacht-10", {"rolls": "3"})]


def _with(monkeypatch: pytest.MonkeyPatch, name: str) -> be.Backend:
    monkeypatch.setenv(be.ENV, name)
    return be.current()


@needs_native
@pytest.mark.parametrize("name, opts", CASES, ids=lambda x: str(x))
def test_backends_build_the_same_table(monkeypatch: pytest.MonkeyPatch, name: str,
                                       opts: dict[str, str] | None) -> None:
    spec = compile_ruleset(get(name, opts))
    tables = {}
    for which in ("native", "numba"):
        assert _with(monkeypatch, which).name == which
        tables[which] = build_table(spec, workers=2)
    (vn, sn, _), (vb, sb, _) = tables["native"], tables["numba"]
    assert sn == sb and vn.shape == vb.shape
    ms, ax = reachable_states(spec)  # (the native build skips states no card reaches)
    assert len(ms) == sn
    assert np.abs(vn[ms, ax] - vb[ms, ax]).max() < 1e-9


@needs_native
@pytest.mark.parametrize("name, opts", CASES, ids=lambda x: str(x))
def test_backends_give_the_same_turns_advice_and_games(monkeypatch: pytest.MonkeyPatch,
                                                      name: str,
                                                      opts: dict[str, str] | None) -> None:
    sol = solve(get(name, opts))
    spec = sol.spec
    t = spec.dice
    rng = np.random.default_rng(3)
    full = (1 << spec.nbox) - 1
    umax = spec.umax()
    ms = rng.integers(0, full, 40)
    ax = np.array([rng.integers(0, umax[m] + 1) for m in ms])
    ax += spec.U * np.array([rng.integers(0, 2) if spec.nflag == 2 and (m >> spec.ybox) & 1
                             else 0 for m in ms])
    ds = rng.integers(0, t.nfull, 40)
    rl = rng.integers(0, spec.rolls, 40)
    out = {}
    for which in ("native", "numba"):
        b = _with(monkeypatch, which)
        turns = []
        for m, a in zip(ms[:8], ax[:8], strict=True):
            E0 = np.empty(t.nfull)
            Ks = np.empty((spec.rolls, t.nall))
            b.state_turn(spec, sol.V, int(m), int(a), E0, Ks)
            turns.append(Ks.copy())
        ov = option_values(sol, ms, ax, ds, rl) if not spec.rep_pts.any() else None
        games = fast_selfplay(sol, 200, seed=4, workers=2)
        out[which] = (turns, ov, games)
    (tn, on, gn), (tb, ob, gb) = out["native"], out["numba"]
    for a, b2 in zip(tn, tb, strict=True):
        assert np.abs(a - b2).max() < 1e-9
    if on is not None and ob is not None:
        np.testing.assert_array_equal(on.keep_index, ob.keep_index)
        np.testing.assert_allclose(on.keep_value, ob.keep_value, rtol=0, atol=1e-9)
        np.testing.assert_allclose(on.box_value, ob.box_value, rtol=0, atol=1e-9)
    # the same dice streams and decisions (up to exact ties, which either may break)
    assert (gn.totals == gb.totals).mean() > 0.97
    assert (gn.yachts == gb.yachts).mean() > 0.97


@needs_native
@pytest.mark.parametrize("name, opts", [("tommys-crag", None), ("tommys-yacht", None),
                                        ("sackson-yacht", None)], ids=lambda x: str(x))
def test_backends_build_the_same_distributions(monkeypatch: pytest.MonkeyPatch, name: str,
                                               opts: dict[str, str] | None) -> None:
    from yacht.strategy.solver.dist import build as build_dist

    sol = solve(get(name, opts))
    got = {}
    for which in ("native", "numba"):
        assert _with(monkeypatch, which).name == which
        got[which] = build_dist(sol, threads=2)
    a, b = got["native"], got["numba"]
    np.testing.assert_array_equal(a.off, b.off)
    np.testing.assert_array_equal(a.lo, b.lo)
    np.testing.assert_array_equal(a.length, b.length)
    assert np.abs(a.C.astype(np.int64) - b.C.astype(np.int64)).max() <= 1


@needs_native
def test_backends_agree_on_the_skip_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    from yacht.strategy.solver.approx import skip_upper_bound

    values = [skip_upper_bound(get("ancient-yacht-double"), 2)
              for _ in [_with(monkeypatch, "native"), _with(monkeypatch, "numba")]]
    assert abs(values[0] - values[1]) < 1e-9


@needs_native
def test_native_path_never_imports_numba(tmp_path: Path) -> None:
    code = ("import sys\n"
            "from yacht.rules import get\n"
            "from yacht.strategy.solver import solve, fast_selfplay\n"
            "from yacht.strategy.advisor import advise_card\n"
            "rs = get('tommys-yahtzee')\n"
            "sol = solve(rs)\n"
            "advise_card(rs, rs.new_card(), 0, (1, 2, 3, 4, 5), 2, sol)\n"
            "fast_selfplay(sol, 50, seed=1)\n"
            "print('numba' in sys.modules, 'llvmlite' in sys.modules)\n")
    env = {**os.environ, "YACHT_CACHE_DIR": str(tmp_path), be.ENV: "native"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]


def test_unknown_or_missing_backend_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(be, "_BY_ENV", {})
    monkeypatch.setenv(be.ENV, "cuda")
    with pytest.raises(be.BackendUnavailable, match="not a backend"):
        be.current()
    monkeypatch.setattr(be, "_NATIVE", [None])
    monkeypatch.setattr(be, "_BY_ENV", {})
    monkeypatch.setenv(be.ENV, "native")
    with pytest.raises(be.BackendUnavailable, match="not built"):
        be.current()
    monkeypatch.setattr(be, "_BY_ENV", {})
    monkeypatch.setenv(be.ENV, "auto")
    assert be.current().name == "numba"


def test_a_stale_extension_is_not_used(capsys: pytest.CaptureFixture[str]) -> None:
    """An extension compiled from other sources than the ones beside it (sources changed,
    not reinstalled) or with another entry-point version falls back, with one warning."""
    import types

    old = types.SimpleNamespace(API_VERSION=be.API_VERSION, SOURCE_HASH="0123456789abcdef")
    assert not be._current(old)  # type: ignore[arg-type]
    assert capsys.readouterr().err.count("older sources") == 1
    other = types.SimpleNamespace(API_VERSION=be.API_VERSION + 1, SOURCE_HASH="")
    assert not be._current(other)  # type: ignore[arg-type]
    capsys.readouterr()
    if NATIVE:
        assert be._current(be.native_module())  # type: ignore[arg-type]
        assert capsys.readouterr().err == ""


def _build_ext(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--build-lib", str(tmp_path / "lib"),
         "--build-temp", str(tmp_path / "tmp")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, **env})


def test_a_failed_compile_only_warns(tmp_path: Path) -> None:
    """No working compiler: the build still succeeds, with a warning and no extension."""
    proc = _build_ext(tmp_path, CC="false")
    assert proc.returncode == 0, proc.stderr
    assert "numba kernels" in proc.stderr
    assert not list(tmp_path.rglob("_native*.so"))
    proc = _build_ext(tmp_path, YACHT_BUILD_NATIVE="0")
    assert proc.returncode == 0 and "not building" in proc.stderr


def test_a_refused_flag_falls_back_to_simpler_flags(tmp_path: Path) -> None:
    """A compiler that rejects -march=native still gets the extension built."""
    wrapper = tmp_path / "cc"
    wrapper.write_text('#!/bin/sh\nfor a in "$@"; do [ "$a" = -march=native ] && exit 1; done\n'
                       'exec gcc "$@"\n')
    wrapper.chmod(0o755)
    proc = _build_ext(tmp_path, CC=str(wrapper), LDSHARED=f"{wrapper} -shared")
    assert proc.returncode == 0, proc.stderr
    assert "trying simpler flags" in proc.stderr
    assert list(tmp_path.rglob("_native*.so"))


# --- sharing between threads ---------------------------------------------------------

def test_two_threads_build_a_table_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = build.build_table
    gate = threading.Event()

    def counting(spec: object, progress: object = None, workers: object = None) -> object:
        calls.append(1)
        gate.wait(5)  # hold the first build until the other thread is waiting too
        return real(spec, progress, workers)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "build_table", counting)
    clear_memory_cache()
    rs = get("tommys-crag")
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(solve(rs, cache=False)))
               for _ in range(2)]
    for th in threads:
        th.start()
    threading.Timer(0.3, gate.set).start()
    for th in threads:
        th.join(30)
    assert len(calls) == 1
    assert len(results) == 2 and results[0] is results[1]
    clear_memory_cache()


def test_building_never_switches_tracemalloc_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import tracemalloc

    def refuse(*args: object) -> None:
        raise AssertionError("tracemalloc.start called")

    monkeypatch.setattr(tracemalloc, "start", refuse)
    clear_memory_cache()
    sol = solve(get("tommys-crag"), cache=False)
    assert sol.built and sol.peak_memory >= sol.V.nbytes
    assert not tracemalloc.is_tracing()
    clear_memory_cache()


def test_turn_tables_from_many_threads() -> None:
    sol = solve(get("yahtzee"))
    spec = sol.spec
    rng = np.random.default_rng(5)
    states = [(int(m), int(rng.integers(0, spec.umax()[m] + 1)))
              for m in rng.integers(0, (1 << spec.nbox) - 1, 300)]
    want = {}
    for m, a in states[:50]:
        E0 = np.empty(spec.dice.nfull)
        Ks = np.empty((spec.rolls, spec.dice.nall))
        be.current().state_turn(spec, sol.V, m, a, E0, Ks)
        want[m, a] = Ks
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        r = np.random.default_rng(seed)
        try:
            for _ in range(400):
                m, a = states[int(r.integers(0, len(states)))]
                _, Ks = sol.turn_tables(m, a)
                if (m, a) in want:
                    assert np.array_equal(Ks, want[m, a])
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    ths = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in ths:
        th.start()
    for th in ths:
        th.join(60)
    assert not errors
    assert len(sol._turns) <= 4096
