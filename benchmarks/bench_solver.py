"""Solver benchmarks, side by side with the PyPI package yatzy-solver 1.0.0 (Rust).

Run from the repository root (see benchmarks/README.md):

    .venv/bin/python benchmarks/bench_solver.py            # process advice selfplay ten
    .venv/bin/python benchmarks/bench_solver.py process     # one part: process, fresh,
                                                            # advice, selfplay, ten, double

* ``process``: whole processes as a user runs them (start-up, imports and
  kernel loading included): ``yacht solve VARIANT`` with an empty table cache
  ("cold") and again with the table cached ("warm"), against a Python process
  that builds yatzy-solver's table (cold) or loads its table file (warm); the
  best of three, interleaved, all times shown.
* ``fresh``: first use after a fresh install: clones this repository, runs the
  README's set-up command in a new venv (timed), then the first ``yacht solve
  yahtzee`` (nothing compiled, no .pyc, empty caches), against yatzy-solver's
  whole process.
* ``advice``: one situation per call (every call timed alone, the solvers' calls
  interleaved on the same situations of Yatzy games; median and 90th percentile)
  and batches, for both solvers.
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
                "ours_cold", "ours_warm", "theirs_cold", "theirs_warm")}
            for i in range(REPEATS):
                cache = os.path.join(tmp, f"cache-{variant}-{len(opts)}-{i}")
                env = env_with(YACHT_CACHE_DIR=cache, YACHT_SOLVER_BACKEND="native")
                rows["ours_cold"].append(timed(ours_cmd(variant, opts), env))
                rows["theirs_cold"].append(timed(theirs_cmd(theirs)))
                rows["ours_warm"].append(timed(ours_cmd(variant, opts), env))
                rows["theirs_warm"].append(timed(theirs_cmd(theirs, table)))
            res = {k: best(v) for k, v in rows.items()}
            for k in ("ours_cold", "ours_warm"):
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


def _game_situations(n: int, seed: int) -> list[Any]:
    """Situations of Yatzy games played by random legal moves (a copy of the game at
    every decision with dice showing): (state, card, turn, dice, rolls left)."""
    import copy
    import random

    from yacht.engine import Choose, Player, Roll, Score, State
    from yacht.rules import get

    rs = get("yatzy")
    rng = random.Random(seed)
    out: list[Any] = []
    game = 0
    while len(out) < n:
        s = State(rs, [Player("A")], rng=random.Random(seed * 1000 + game))
        game += 1
        while not s.is_terminal() and len(out) < n:
            if not s.dice:
                s.apply(Roll())
            r = s.rolls_left if s.may_reroll() else 0
            # (the copy shares the ruleset, as the states of one game do)
            snap = copy.deepcopy(s, {id(rs): rs})
            out.append((snap, s.card(0), s.turns_taken(0), s.dice, r))
            act = rng.choice([a for a in s.legal_actions() if isinstance(a, Choose | Score)])
            s.apply(act)
            if isinstance(act, Choose):
                s.apply(Roll())
    return out


def single_calls(n: int, rounds: int = 3) -> dict[str, Any]:
    """One situation per call, both solvers in one process: for every situation each
    call once, in an order that rotates from one situation to the next, each call timed
    alone (its result dropped, as a caller would); the median and 90th percentile per
    call, in microseconds. The situations come from Yatzy games (every turn, every roll)."""
    import statistics

    import yatzy_solver as ys

    import yacht
    from yacht.strategy.advisor import advise, advise_card
    from yacht.strategy.api import Situation
    from yacht.strategy.solver.batch import situation_values

    y = yacht.solve("yatzy")
    sol, rs, t = y.solution, y.ruleset, y.solution.spec.dice
    theirs = ys.Solver.build(ys.Variant("yatzy-scandinavian"))
    names = list(ys.Variant("yatzy-scandinavian").categories)
    sits = _game_situations(n, 7)
    texts, their_texts, nums = [], [], []
    for _state, card, turn, dice, r in sits:
        texts.append(Situation.of(rs, card, dice, r, turn).text())
        filled = [i for i, v in enumerate(card.boxes[0]) if v is not None]
        upper = sum(v for v in card.boxes[0][:6] if v)
        their_texts.append(f"dice {' '.join(map(str, sorted(dice)))} | rolls {r} | upper "
                           f"{min(upper, 63)} | filled "
                           f"{','.join(str(names[i]) for i in filled) or '-'}")
        nums.append((*sol.spec.state_of(card), t.index_of(dice) - t.full_start, r))
    # the same situations in both notations: the same best value (theirs: points to come)
    for i in range(0, n, max(1, n // 50)):
        base = float(rs.totals(sits[i][1]).grand)
        mine = y.best(texts[i]).value - base
        best_theirs = max(v for _a, v in theirs.option_values(their_texts[i]))
        assert abs(mine - best_theirs) < 1e-6, (texts[i], their_texts[i], mine, best_theirs)
    calls: dict[str, Any] = {
        "yatzy-solver option_values(text)": lambda i: theirs.option_values(their_texts[i]),
        "yacht options(text)": lambda i: y.options(texts[i]),
        "yacht best(text)": lambda i: y.best(texts[i]),
        "yacht advise_card(card, turn, dice, rolls)": lambda i: advise_card(
            rs, sits[i][1], sits[i][2], sits[i][3], sits[i][4]),
        "yacht advise(state)": lambda i: advise(sits[i][0]),
        "yacht situation_values(numbers)": lambda i: situation_values(sol, *nums[i]),
    }
    keys = list(calls)
    fns = [calls[k] for k in keys]
    times: list[list[int]] = [[] for _ in keys]
    clock = time.perf_counter_ns
    for i in range(min(n, 200)):  # warm up
        for f in fns:
            f(i)
    for rnd in range(rounds):
        for i in range(n):
            k0 = (i + rnd) % len(fns)
            for j in range(len(fns)):
                k = (k0 + j) % len(fns)
                f = fns[k]
                t0 = clock()
                f(i)
                times[k].append(clock() - t0)
    res: dict[str, Any] = {"situations": n, "calls_each": n * rounds}
    for k, ts in zip(keys, times, strict=True):
        ts.sort()
        res[k] = {"median_us": statistics.median(ts) / 1e3,
                  "p90_us": ts[int(0.9 * len(ts))] / 1e3, "mean_us": sum(ts) / len(ts) / 1e3}
    ref = res[keys[0]]["median_us"]
    for k in keys[1:]:
        res[k]["theirs_median_over_this"] = ref / res[k]["median_us"]
    return res


def ours_advice(nbatch: int) -> dict[str, Any]:
    """Option values in batches: one thread and two."""
    import numpy as np

    import yacht
    from yacht.strategy.solver.batch import option_values

    y = yacht.solve("yatzy")
    sol = y.solution
    t = sol.spec.dice
    res: dict[str, Any] = {"who": "yacht"}
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


def theirs_advice(nbatch: int) -> dict[str, Any]:
    """yatzy-solver's option values in a batch (it uses several threads)."""
    import yatzy_solver as ys

    v = ys.Variant("yatzy-scandinavian")
    solver = ys.Solver.build(v)
    res: dict[str, Any] = {"who": "yatzy-solver"}
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
    res["batch_size"] = nbatch
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


PARTS = ("process", "fresh", "advice", "selfplay", "ten", "double")


def main(parts: list[str]) -> None:
    want = set(parts) or {"process", "advice", "selfplay", "ten"}
    print(f"machine: {os.cpu_count()} cores, load average {load()}")
    if "process" in want:
        part_process()
    if "fresh" in want:
        part_fresh()
    if "advice" in want:
        before = load()
        got = sub("single_calls", 3000)
        show(f"advice, one Yatzy situation per call, call by call interleaved (load {before} "
             f"-> {load()})", [{"call": k, **v} if isinstance(v, dict) else {k: v}
                               for k, v in got.items()])
        a = sub("ours_advice", 20000)
        b = sub("theirs_advice", 20000)
        if "batch_us_per_situation" in a and "batch_us_per_situation" in b:
            a["batch_ratio_2_threads"] = (b["batch_us_per_situation"]
                                          / a["batch_us_per_situation"])
            a["batch_ratio_1_thread"] = (b["batch_us_per_situation"]
                                         / a["batch_1_threads_us_per_situation"])
        show(f"advice in batches, Yatzy, random mid-game situations (load {load()})", [a, b])
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
        from _cli import parser

        ap = parser(__doc__)
        ap.add_argument("parts", nargs="*", choices=PARTS, metavar="PART",
                        help=f"{', '.join(PARTS)} (default: process advice selfplay ten)")
        main(ap.parse_args().parts)
