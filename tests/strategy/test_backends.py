"""The C extension: an install without it works and says what is missing, its build never
breaks an install, a stale one is not used, and tables are safe to share between threads
(the kernels' values: tests/strategy/test_reference.py)."""

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
from yacht.strategy.solver import build, solve
from yacht.strategy.solver.build import clear_memory_cache

ROOT = Path(__file__).resolve().parents[2]
NATIVE = be.native_module() is not None
needs_native = pytest.mark.skipif(not NATIVE, reason="the C extension is not built here")

def _hidden(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh process that cannot import the C extension (as an install
    without a compiler), with an empty table cache."""
    hide = "import sys\nsys.modules['yacht.strategy.solver._native'] = None\n"
    env = {**os.environ, "YACHT_CACHE_DIR": str(tmp_path)}
    env.pop(be.ENV, None)
    return subprocess.run([sys.executable, "-c", hide + code], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)


def test_without_the_extension_the_solver_levels_say_so_and_the_game_goes_on(
        tmp_path: Path) -> None:
    """No C extension: the expert, the hint and ``yacht solve`` answer one line naming the
    missing solver and how to mend it; a table's expert plays at random with that line;
    the intermediate level plays on."""
    code = ("import random\n"
            "from yacht.rules import get\n"
            "from yacht.engine import Player, Roll, State\n"
            "from yacht.session import Table\n"
            "from yacht.strategy import make_player\n"
            "from yacht.strategy.solver import UnsupportedRuleset\n"
            "from yacht.strategy.advisor import advise\n"
            "rs = get('tommys-crag')\n"
            "s = State(rs, [Player('A')], rng=random.Random(1))\n"
            "s.apply(Roll())\n"
            "print(make_player(rs, 'intermediate').decide(s) is not None)\n"
            "for what in (lambda: make_player(rs, 'expert').decide(s), lambda: advise(s)):\n"
            "    try:\n"
            "        what()\n"
            "    except UnsupportedRuleset as e:\n"
            "        print('refused:', e)\n"
            "t = Table.new(rs, [Player('Cpu', 'computer', 'expert')], rng=random.Random(2),\n"
            "              speed='instant')\n"
            "got = []\n"
            "t.subscribe(got.append)\n"
            "t.run_due()\n"
            "print(t._game.is_over())\n"
            "print('event:', [e.text for e in got if e.kind == 'store_warning'][0])\n")
    proc = _hidden(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "True"
    assert lines[1] == f"refused: {be.MISSING}" and lines[2] == lines[1]
    assert lines[3] == "True"
    assert lines[4] == (f"event: computer level expert is not available ({be.MISSING}); it "
                        "plays at random")
    assert "\n" not in be.MISSING and "pip install" in be.MISSING
    cli = _hidden("from yacht.cli import main\nraise SystemExit(main(['solve', 'tommys-crag']))",
                  tmp_path)
    assert cli.returncode == 2
    assert cli.stderr.strip() == f"yacht: error: {be.MISSING}"


def test_unknown_or_missing_backend_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(be, "_BY_ENV", {})
    monkeypatch.setenv(be.ENV, "numba")
    with pytest.raises(be.BackendUnavailable, match="'numba' is not a backend"):
        be.current()
    monkeypatch.setattr(be, "_NATIVE", [None])
    monkeypatch.setattr(be, "_WHY", [be.STALE])
    monkeypatch.setattr(be, "_BY_ENV", {})
    monkeypatch.setenv(be.ENV, "native")
    with pytest.raises(be.BackendUnavailable, match="older sources"):
        be.current()


def test_a_stale_extension_is_not_used() -> None:
    """An extension compiled from other sources than the ones beside it (sources changed,
    not reinstalled) or with another entry-point version is not used (the solver's levels
    then say to reinstall)."""
    import types

    old = types.SimpleNamespace(API_VERSION=be.API_VERSION, SOURCE_HASH="0123456789abcdef")
    assert not be._current(old)  # type: ignore[arg-type]
    other = types.SimpleNamespace(API_VERSION=be.API_VERSION + 1, SOURCE_HASH="")
    assert not be._current(other)  # type: ignore[arg-type]
    if NATIVE:
        assert be._current(be.native_module())  # type: ignore[arg-type]


def _build_ext(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--build-lib", str(tmp_path / "lib"),
         "--build-temp", str(tmp_path / "tmp")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, **env})


def test_a_failed_compile_only_warns(tmp_path: Path) -> None:
    """No working compiler: the build still succeeds, with a warning and no extension."""
    proc = _build_ext(tmp_path, CC="false")
    assert proc.returncode == 0, proc.stderr
    assert "without the exact solver" in proc.stderr
    assert not list(tmp_path.rglob("_native*.so"))
    proc = _build_ext(tmp_path, YACHT_BUILD_NATIVE="0")
    assert proc.returncode == 0 and "not building" in proc.stderr


def test_a_refused_flag_falls_back_to_simpler_flags(tmp_path: Path) -> None:
    """A compiler that rejects -march=native still gets the extension built.

    (The wrapper compiles with ``-O0`` last, which gcc obeys: the test is about the
    flags tried, not the code made, and the optimised build took half a minute.)"""
    wrapper = tmp_path / "cc"
    wrapper.write_text('#!/bin/sh\nfor a in "$@"; do [ "$a" = -march=native ] && exit 1; done\n'
                       'exec gcc "$@" -O0\n')
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
