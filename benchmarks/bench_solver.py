"""Solver benchmarks, side by side with the PyPI package yatzy-solver 1.0.0 (Rust).

Run from the repository root (see benchmarks/README.md):

    .venv/bin/python benchmarks/bench_solver.py            # process advice selfplay ten
    .venv/bin/python benchmarks/bench_solver.py process     # one part: process, fresh,
                                                            # advice, selfplay, ten, double

* ``process``: whole processes as a user runs them (start-up, imports and
  kernel loading included): ``yacht solve VARIANT`` with an empty table cache
  ("cold") and again with the table cached ("warm"), against a Python process
  that builds yatzy-solver's table (cold) or loads its table file (warm); the
  best of three, interleaved, all times shown. Also ours with the numba
  kernels (numba cache warm), the fallback when no C compiler is found.
* ``fresh``: first use after a fresh install: clones this repository, runs the
  README's set-up command in a new venv (timed), then the first ``yacht solve
  yahtzee`` (nothing compiled, no .pyc, empty caches), and the numba fallback's
  first use (empty numba cache), against yatzy-solver's whole process.
* ``advice``: one situation per call and batches, for both solvers.
* ``selfplay``: expert games per second, both solvers, 2 threads.
* ``ten`` / ``double``: the 10-dice and two-column tables (ours only).

Every measurement runs in a fresh subprocess.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
YACHT = os.path.join(os.path.dirname(PY), "yacht")
REPEATS = 3

# (our variant, our options, their variant)
TABLES = [("yahtzee", {"joker": "forced"}, "american+forced-joker"),
          ("yahtzee", {"joker": "free"}, "american"),
          ("yatzy", {}, "yatzy-scandinavian")]


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def timed(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Wall seconds and max RSS of one whole process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    _, status, ru = os.wait4(p.pid, 0)
    sec = time.perf_counter() - t0
    out = p.stdout.read().decode() if p.stdout else ""
    err = p.stderr.read().decode() if p.stderr else ""
    if status != 0:
        return {"error": (err.strip().splitlines() or ["failed"])[-1], "cmd": cmd}
    return {"seconds": sec, "max_rss_mb": ru.ru_maxrss / 1024, "out": out.strip()}


def env_with(**kv: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(kv)
    return env


# --- whole processes ---------------------------------------------------------------------

def theirs_cmd(variant: str, table: str | None = None) -> list[str]:
    if table is None:
        code = (f"import yatzy_solver as ys\ns = ys.Solver.build(ys.Variant({variant!r}))\n"
                "print(s.state_value('upper 0 | filled -'))")
    else:
        code = (f"import yatzy_solver as ys\ns = ys.Solver.load({table!r}, "
                f"ys.Variant({variant!r}))\nprint(s.state_value('upper 0 | filled -'))")
    return [PY, "-c", code]


def ours_cmd(variant: str, opts: dict[str, str]) -> list[str]:
    cmd = [YACHT, "solve", variant, "--json"]
    for k, v in opts.items():
        cmd += ["-o", f"{k}={v}"]
    return cmd


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in runs if "seconds" in r]
    if not ok:
        return runs[0]
    b = dict(min(ok, key=lambda r: r["seconds"]))
    b["all_seconds"] = [round(r["seconds"], 3) for r in ok]
    b.pop("out", None)
    return b


def part_process() -> None:
    tmp = tempfile.mkdtemp(prefix="yacht-bench-")
    try:
        for variant, opts, theirs in TABLES:
            table = os.path.join(tmp, theirs + ".tbl")
            subprocess.run([PY, "-c", f"import yatzy_solver as ys\nys.Solver.build_table("
                                      f"ys.Variant({theirs!r}), {table!r})"], check=True)
            rows: dict[str, list[dict[str, Any]]] = {k: [] for k in (
                "ours_cold", "ours_warm", "theirs_cold", "theirs_warm", "ours_numba_cold")}
            # the numba kernels compiled once (not timed): their load is part of each run
            subprocess.run(ours_cmd("tommys-crag", {}) + ["--no-cache"], check=True,
                           capture_output=True, env=env_with(YACHT_SOLVER_BACKEND="numba"))
            for i in range(REPEATS):
                cache = os.path.join(tmp, f"cache-{variant}-{len(opts)}-{i}")
                env = env_with(YACHT_CACHE_DIR=cache, YACHT_SOLVER_BACKEND="native")
                rows["ours_cold"].append(timed(ours_cmd(variant, opts), env))
                rows["theirs_cold"].append(timed(theirs_cmd(theirs)))
                rows["ours_warm"].append(timed(ours_cmd(variant, opts), env))
                rows["theirs_warm"].append(timed(theirs_cmd(theirs, table)))
                envn = env_with(YACHT_CACHE_DIR=cache + "-numba", YACHT_SOLVER_BACKEND="numba")
                rows["ours_numba_cold"].append(timed(ours_cmd(variant, opts), envn))
            res = {k: best(v) for k, v in rows.items()}
            for k in ("ours_cold", "ours_warm", "ours_numba_cold"):
                if "seconds" in res[k] and "seconds" in res["theirs_cold"]:
                    res[k]["theirs_cold_over_this"] = res["theirs_cold"]["seconds"] / res[k][
                        "seconds"]
            out = next((r["out"] for r in rows["ours_cold"] if "out" in r), "{}")
            value = json.loads(out).get("expected_score") if out.startswith("{") else None
            show(f"whole process: yacht solve {variant} {opts} vs {theirs} (value {value}; "
                 f"load {load()})", [{"run": k, **v} for k, v in res.items()])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def part_fresh() -> None:
    """A fresh clone, the README's set-up, first uses."""
    tmp = tempfile.mkdtemp(prefix="yacht-fresh-")
    try:
        clone = os.path.join(tmp, "yacht")
        subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
        t0 = time.perf_counter()
        setup = subprocess.run(
            f"cd {clone} && python3 -m venv .venv && .venv/bin/pip install -q -c "
            "requirements.lock -e '.[test]'", shell=True, capture_output=True, text=True)
        install = time.perf_counter() - t0
        built = any(f.startswith("_native") and f.endswith(".so") for f in os.listdir(
            os.path.join(clone, "src/yacht/strategy/solver")))
        yacht = os.path.join(clone, ".venv/bin/yacht")
        rows = [{"what": "README set-up command (venv + pip install, compiles the extension)",
                 "seconds": install, "returncode": setup.returncode, "extension_built": built}]
        env = env_with(YACHT_CACHE_DIR=os.path.join(tmp, "cache1"))
        first = timed([yacht, "solve", "yahtzee", "--json"], env)
        first.pop("out", None)
        rows.append({"what": "first `yacht solve yahtzee` after the install (native)", **first})
        env = env_with(YACHT_CACHE_DIR=os.path.join(tmp, "cache2"), YACHT_SOLVER_BACKEND="numba",
                       NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        first_numba = timed([yacht, "solve", "yahtzee", "--json"], env)
        first_numba.pop("out", None)
        rows.append({"what": "first use with the numba fallback (compiles its kernels)",
                     **first_numba})
        theirs = timed(theirs_cmd("american+forced-joker"))
        theirs.pop("out", None)
        rows.append({"what": "yatzy-solver whole process (american+forced-joker)", **theirs})
        show(f"first use after a fresh install (load {load()})", rows)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- advice ------------------------------------------------------------------------------

def _situations(n: int, seed: int) -> list[tuple[tuple[int, ...], int, tuple[int, ...], int]]:
    """Random mid-game Yatzy situations: (filled boxes, upper total, dice, rolls left)."""
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randrange(0, 14)
        filled = tuple(sorted(rng.sample(range(15), k)))
        upper_filled = [i for i in filled if i < 6]
        upper = sum((i + 1) * rng.randrange(0, 6) for i in upper_filled)
        dice = tuple(sorted(rng.randrange(1, 7) for _ in range(5)))
        out.append((filled, upper, dice, rng.randrange(0, 3)))
    return out


def _cards(sits: list[tuple[tuple[int, ...], int, tuple[int, ...], int]]) -> list[Any]:
    """Cards for the situations: upper boxes holding legal multiples summing to the total."""
    from yacht.rules import Scorecard

    cards = []
    for filled, upper, _dice, _r in sits:
        boxes: list[int | None] = [None] * 15
        left = upper
        for i in filled:
            boxes[i] = 0
        for i in sorted((i for i in filled if i < 6), reverse=True):
            c = min(5, left // (i + 1))
            boxes[i] = c * (i + 1)
            left -= c * (i + 1)
        cards.append(Scorecard((tuple(boxes),)))
    return cards


def _their_texts(sits: list[Any], cards: list[Any]) -> list[str]:
    import yatzy_solver as ys

    names = list(ys.Variant("yatzy-scandinavian").categories)
    texts = []
    for (filled, _u, dice, r), card in zip(sits, cards, strict=True):
        upper = sum(v for v in card.boxes[0][:6] if v)
        fl = ",".join(str(names[i]) for i in filled) or "-"
        texts.append(f"dice {' '.join(map(str, dice))} | rolls {r} | upper {min(upper, 63)} "
                     f"| filled {fl}")
    return texts


def per_call(fn: Any, items: list[Any], rounds: int = 3) -> float:
    """Microseconds per call, the best of ``rounds`` passes over ``items``."""
    fn(items[0])
    best_t = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        best_t = min(best_t, time.perf_counter() - t0)
    return best_t / len(items) * 1e6


def single_calls(n: int, rounds: int = 7) -> dict[str, Any]:
    """One situation per call, both solvers in one process, their passes interleaved
    (so that both see the same load); the best pass of each, in microseconds per call."""
    import yatzy_solver as ys

    import yacht
    from yacht.strategy.api import Situation
    from yacht.strategy.solver.batch import situation_values

    y = yacht.solve("yatzy")
    sol, rs, t = y.solution, y.ruleset, y.solution.spec.dice
    theirs = ys.Solver.build(ys.Variant("yatzy-scandinavian"))
    sits = _situations(n, 5)
    cards = _cards(sits)
    args = [(*sol.spec.state_of(c), t.index_of(d) - t.full_start, r)
            for c, (_f, _u, d, r) in zip(cards, sits, strict=True)]
    texts = [Situation.of(rs, c, d, r).text() for c, (_f, _u, d, r) in zip(cards, sits,
                                                                            strict=True)]
    their_texts = _their_texts(sits, cards)
    calls = {
        "yacht situation_values (numbers)": lambda: [situation_values(sol, *a) for a in args],
        "yacht SolvedVariant.options(text)": lambda: [y.options(x) for x in texts],
        "yatzy-solver option_values(text)": lambda: [theirs.option_values(x)
                                                     for x in their_texts],
    }
    best_t = {k: float("inf") for k in calls}
    for _ in range(rounds):
        for k, fn in calls.items():
            t0 = time.perf_counter()
            fn()
            best_t[k] = min(best_t[k], time.perf_counter() - t0)
    res: dict[str, Any] = {k: v / n * 1e6 for k, v in best_t.items()}
    res["situations"] = n
    return res


def ours_advice(n: int, nbatch: int) -> dict[str, Any]:
    import numpy as np

    import yacht
    from yacht.strategy.advisor import advise_card
    from yacht.strategy.solver.batch import option_values, situation_values

    y = yacht.solve("yatzy")
    sol = y.solution
    rs = y.ruleset
    t = sol.spec.dice
    sits = _situations(n, 5)
    cards = _cards(sits)
    states = [sol.spec.state_of(c) for c in cards]
    args = [(m, a, t.index_of(d) - t.full_start, r)
            for (m, a), (_f, _u, d, r) in zip(states, sits, strict=True)]
    from yacht.strategy.api import Situation

    texts = [Situation.of(rs, c, d, r).text() for c, (_f, _u, d, r) in zip(cards, sits,
                                                                            strict=True)]
    objs = [Situation.parse(rs, x) for x in texts]
    res: dict[str, Any] = {"who": "yacht", "situations": n}
    res["situation_values_us"] = per_call(lambda a: situation_values(sol, *a), args)
    res["options_text_us"] = per_call(y.options, texts)
    res["options_situation_us"] = per_call(y.options, objs)
    res["advise_card_us"] = per_call(
        lambda i: advise_card(rs, cards[i], len(sits[i][0]), sits[i][2], sits[i][3], sol),
        list(range(n)), rounds=1)
    bs = _situations(nbatch, 6)
    bc = _cards(bs)
    st = [sol.spec.state_of(c) for c in bc]
    ms = np.array([s[0] for s in st], dtype=np.int64)
    ax = np.array([s[1] for s in st], dtype=np.int64)
    ds = np.array([t.index_of(d) - t.full_start for _f, _u, d, _r in bs], dtype=np.int64)
    rl = np.array([r for _f, _u, _d, r in bs], dtype=np.int64)
    option_values(sol, ms[:64], ax[:64], ds[:64], rl[:64])
    for workers in (1, 2):
        best_t = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            option_values(sol, ms, ax, ds, rl, workers=workers)
            best_t = min(best_t, time.perf_counter() - t0)
        res[f"batch_{workers}_threads_us_per_situation"] = best_t / nbatch * 1e6
    res["batch_us_per_situation"] = res["batch_2_threads_us_per_situation"]
    res["batch_size"] = nbatch
    return res


def theirs_advice(n: int, nbatch: int) -> dict[str, Any]:
    import yatzy_solver as ys

    v = ys.Variant("yatzy-scandinavian")
    solver = ys.Solver.build(v)
    sits = _situations(n, 5)
    texts = _their_texts(sits, _cards(sits))
    res: dict[str, Any] = {"who": "yatzy-solver", "situations": n}
    res["option_values_text_us"] = per_call(solver.option_values, texts)
    bs = _situations(nbatch, 6)
    arrays = v.situation_arrays(_their_texts(bs, _cards(bs)))
    solver.option_values_batch(**{k: a[:64] for k, a in arrays.items()})
    best_t, cpu = float("inf"), 0.0
    for _ in range(3):
        c0, t0 = time.process_time(), time.perf_counter()
        solver.option_values_batch(**arrays)
        if time.perf_counter() - t0 < best_t:
            best_t, cpu = time.perf_counter() - t0, time.process_time() - c0
    res["batch_us_per_situation"] = best_t / nbatch * 1e6
    res["batch_cpu_over_wall"] = cpu / best_t  # > 1: it runs on several threads
    return res


# --- self-play, big tables -----------------------------------------------------------------

def ours_selfplay(variant: str, games: int) -> dict[str, Any]:
    from yacht.rules import get
    from yacht.strategy.solver import fast_selfplay, solve

    sol = solve(get(variant))
    fast_selfplay(sol, 100, seed=0)
    r = fast_selfplay(sol, games, seed=1, workers=2)
    return {"who": "yacht", "variant": variant, "games": games, "seconds": r.seconds,
            "games_per_s": games / r.seconds, "mean": r.mean}


def theirs_selfplay(variant: str, games: int) -> dict[str, Any]:
    import yatzy_solver as ys

    solver = ys.Solver.build(ys.Variant(variant))
    solver.simulate(100, seed=0)
    t0 = time.perf_counter()
    res = solver.simulate(games, seed=1)
    sec = time.perf_counter() - t0
    return {"who": "yatzy-solver", "variant": variant, "games": games, "seconds": sec,
            "games_per_s": games / sec, "mean": float(res["scores"].mean())}


def ours_big(variant: str, options: dict[str, str]) -> dict[str, Any]:
    import resource

    from yacht.rules import get
    from yacht.strategy.solver import solve

    t0 = time.perf_counter()
    sol = solve(get(variant, options), cache=False)
    return {"who": "yacht", "variant": variant, "options": options, "states": sol.states,
            "seconds": time.perf_counter() - t0, "expected": sol.expected_score,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


ONE = {"single_calls": single_calls, "ours_advice": ours_advice, "theirs_advice": theirs_advice,
       "ours_selfplay": ours_selfplay, "theirs_selfplay": theirs_selfplay, "ours_big": ours_big}


def sub(name: str, *args: Any) -> dict[str, Any]:
    env = env_with(YACHT_CACHE_DIR=os.path.join(tempfile.gettempdir(), "yacht-bench-cache"))
    out = subprocess.run([PY, __file__, "--one", name, json.dumps(args)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1:] or ["failed"], "name": name}
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def show(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n## {title}", flush=True)
    for r in rows:
        print("  " + json.dumps({k: (round(v, 4) if isinstance(v, float) else v)
                                  for k, v in r.items()}), flush=True)


def main(parts: list[str]) -> None:
    want = set(parts) or {"process", "advice", "selfplay", "ten"}
    print(f"machine: {os.cpu_count()} cores, load average {load()}")
    if "process" in want:
        part_process()
    if "fresh" in want:
        part_fresh()
    if "advice" in want:
        show(f"advice, one Yatzy situation per call, interleaved (load {load()})",
             [sub("single_calls", 2000)])
        a = sub("ours_advice", 2000, 20000)
        b = sub("theirs_advice", 2000, 20000)
        if "situation_values_us" in a and "option_values_text_us" in b:
            a["single_ratio_theirs_over_situation_values"] = (
                b["option_values_text_us"] / a["situation_values_us"])
            a["single_ratio_theirs_over_options_text"] = (
                b["option_values_text_us"] / a["options_text_us"])
            a["batch_ratio_2_threads"] = (b["batch_us_per_situation"]
                                          / a["batch_us_per_situation"])
        show(f"advice, Yatzy, random mid-game situations (load {load()})", [a, b])
    if "selfplay" in want:
        a = sub("ours_selfplay", "yatzy", 20000)
        b = sub("theirs_selfplay", "yatzy-scandinavian", 20000)
        if "games_per_s" in a and "games_per_s" in b:
            a["ratio_vs_yatzy_solver"] = a["games_per_s"] / b["games_per_s"]
        show(f"expert self-play, Yatzy, 2 threads (load {load()})", [a, b])
    if "ten" in want:
        show(f"10-dice one-column table, in-process build (load {load()})",
             [sub("ours_big", "ancient-yacht-10", {"rolls": "5"}),
              sub("ours_big", "ancient-yacht-10", {"rolls": "3"})])
    if "double" in want:
        show(f"ancient-yacht-double, 2^24 category sets (load {load()})",
             [sub("ours_big", "ancient-yacht-double", {})])


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        fn = ONE[sys.argv[2]]
        args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else []
        print(json.dumps(fn(*args)))
    else:
        main(sys.argv[1:])
