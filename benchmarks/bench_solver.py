"""Solver benchmarks, side by side with the PyPI package yatzy-solver (Rust).

Run from the repository root (see benchmarks/README.md):

    .venv/bin/python benchmarks/bench_solver.py            # everything
    .venv/bin/python benchmarks/bench_solver.py tables      # one part: tables, advice,
                                                            # selfplay, ten, double

Every measurement runs in a fresh subprocess so that its peak memory (max RSS)
is its own. Our tables are built with ``cache=False`` after the numba kernels
are loaded (their one-time compile/load is reported separately as ``jit``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def warm() -> float:
    """Load (or compile) our kernels; returns the seconds it took."""
    from yacht.rules import get
    from yacht.strategy.solver import fast_selfplay, solve

    t0 = time.perf_counter()
    small = solve(get("tommys-crag"), cache=False)
    fast_selfplay(small, 10, seed=1)
    return time.perf_counter() - t0


# --- single measurements (run in a subprocess) -----------------------------------------

REPEATS = 3  # table builds: the best of this many (a shared machine is noisy)


def ours_table(variant: str, options: dict[str, str]) -> dict[str, Any]:
    from yacht.rules import get
    from yacht.strategy.solver import clear_memory_cache, solve

    jit = warm()
    base = rss_mb()
    times = []
    for _ in range(REPEATS):
        clear_memory_cache()
        t0 = time.perf_counter()
        sol = solve(get(variant, options), cache=False)
        times.append(time.perf_counter() - t0)
    return {"who": "yacht", "variant": variant, "options": options, "seconds": min(times),
            "all_seconds": times, "expected": sol.expected_score, "states": sol.states,
            "jit_seconds": jit, "peak_rss_mb": rss_mb(), "rss_before_mb": base}


def theirs_table(variant: str) -> dict[str, Any]:
    import yatzy_solver as ys

    base = rss_mb()
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        solver = ys.Solver.build(ys.Variant(variant))
        times.append(time.perf_counter() - t0)
    value = solver.state_value("upper 0 | filled -")
    return {"who": "yatzy-solver", "variant": variant, "seconds": min(times),
            "all_seconds": times, "expected": value, "peak_rss_mb": rss_mb(),
            "rss_before_mb": base}


def ours_selfplay(variant: str, games: int) -> dict[str, Any]:
    from yacht.rules import get
    from yacht.strategy.solver import fast_selfplay, solve

    sol = solve(get(variant))
    fast_selfplay(sol, 100, seed=0)
    r = fast_selfplay(sol, games, seed=1, workers=2)
    return {"who": "yacht", "variant": variant, "games": games, "seconds": r.seconds,
            "games_per_s": games / r.seconds, "mean": r.mean, "peak_rss_mb": rss_mb()}


def theirs_selfplay(variant: str, games: int) -> dict[str, Any]:
    import yatzy_solver as ys

    solver = ys.Solver.build(ys.Variant(variant))
    solver.simulate(100, seed=0)
    t0 = time.perf_counter()
    res = solver.simulate(games, seed=1)
    sec = time.perf_counter() - t0
    scores = res["scores"]
    return {"who": "yatzy-solver", "variant": variant, "games": games, "seconds": sec,
            "games_per_s": games / sec, "mean": float(scores.mean()), "peak_rss_mb": rss_mb()}


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


def ours_advice(n: int) -> dict[str, Any]:
    from yacht.rules import Scorecard, get
    from yacht.strategy.advisor import advise_card
    from yacht.strategy.solver import solve

    rs = get("yatzy")
    sol = solve(rs)
    sits = _situations(n, 5)
    cards = []
    for filled, upper, _dice, _r in sits:
        boxes: list[int | None] = [None] * 15
        left = upper
        for i in filled:
            if i < 6:
                boxes[i] = 0
        # put the upper total in the highest filled upper box it fits (a legal multiple)
        for i in sorted((i for i in filled if i < 6), reverse=True):
            c = min(5, left // (i + 1))
            boxes[i] = c * (i + 1)
            left -= c * (i + 1)
        for i in filled:
            if i >= 6:
                boxes[i] = 0
        cards.append(Scorecard((tuple(boxes),)))
    advise_card(rs, cards[0], 1, sits[0][2], sits[0][3], sol)
    t0 = time.perf_counter()
    for card, (filled, _u, dice, r) in zip(cards, sits, strict=True):
        advise_card(rs, card, len(filled), dice, r, sol)
    sec = time.perf_counter() - t0
    return {"who": "yacht", "what": "advise_card (full ranking, Python API)", "queries": n,
            "us_per_query": sec / n * 1e6, "peak_rss_mb": rss_mb()}


def theirs_advice(n: int) -> dict[str, Any]:
    import yatzy_solver as ys

    solver = ys.Solver.build(ys.Variant("yatzy-scandinavian"))
    names = list(ys.Variant("yatzy-scandinavian").categories)
    sits = _situations(n, 5)
    texts = []
    for filled, upper, dice, r in sits:
        fl = ",".join(str(names[i]) for i in filled) or "-"
        texts.append(f"dice {' '.join(map(str, dice))} | rolls {r} | upper {min(upper, 63)} "
                     f"| filled {fl}")
    try:
        solver.option_values(texts[0])
    except Exception as e:  # notation differences: report, do not crash
        return {"who": "yatzy-solver", "error": f"{type(e).__name__}: {e}", "example": texts[0]}
    t0 = time.perf_counter()
    for t in texts:
        solver.option_values(t)
    sec = time.perf_counter() - t0
    return {"who": "yatzy-solver", "what": "option_values (all options)", "queries": n,
            "us_per_query": sec / n * 1e6, "peak_rss_mb": rss_mb()}


def _our_arrays(n: int) -> tuple[Any, ...]:
    """The situations of :func:`_situations` as (mask, aux, outcome, rolls left) arrays."""
    import numpy as np

    from yacht.rules import get
    from yacht.strategy.solver import solve

    sol = solve(get("yatzy"))
    t = sol.spec.dice
    sits = _situations(n, 5)
    ms = np.array([sum(1 << i for i in f) for f, _u, _d, _r in sits], dtype=np.int64)
    ax = np.array([min(u, sol.spec.U - 1) for _f, u, _d, _r in sits], dtype=np.int64)
    ds = np.array([t.index_of(d) - t.full_start for _f, _u, d, _r in sits], dtype=np.int64)
    rl = np.array([r for _f, _u, _d, r in sits], dtype=np.int64)
    return sol, ms, ax, ds, rl


def ours_advice_batch(n: int) -> dict[str, Any]:
    import numpy as np

    from yacht.strategy.solver.batch import option_values

    sol, ms, ax, ds, rl = _our_arrays(n)
    option_values(sol, ms[:64], ax[:64], ds[:64], rl[:64])
    t0 = time.perf_counter()
    ov = option_values(sol, ms, ax, ds, rl)
    sec = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(200):
        option_values(sol, ms[i:i + 1], ax[i:i + 1], ds[i:i + 1], rl[i:i + 1])
    single = (time.perf_counter() - t0) / 200
    return {"who": "yacht", "what": "batch.option_values (every keep and box), one thread",
            "queries": n, "us_per_query": sec / n * 1e6, "us_single_call": single * 1e6,
            "options_per_query": float((~np.isnan(ov.box_value)).sum(axis=1).mean()
                                       + (ov.keep_index >= 0).sum(axis=1).mean()),
            "peak_rss_mb": rss_mb()}


def theirs_advice_batch(n: int) -> dict[str, Any]:
    import yatzy_solver as ys

    v = ys.Variant("yatzy-scandinavian")
    solver = ys.Solver.build(v)
    names = list(v.categories)
    texts = []
    for filled, upper, dice, r in _situations(n, 5):
        fl = ",".join(str(names[i]) for i in filled) or "-"
        texts.append(f"dice {' '.join(map(str, dice))} | rolls {r} | upper {min(upper, 63)} "
                     f"| filled {fl}")
    arrays = v.situation_arrays(texts)
    solver.option_values_batch(**{k: a[:64] for k, a in arrays.items()})
    t0 = time.perf_counter()
    solver.option_values_batch(**arrays)
    sec = time.perf_counter() - t0
    return {"who": "yatzy-solver", "what": "option_values_batch (all options)", "queries": n,
            "us_per_query": sec / n * 1e6, "peak_rss_mb": rss_mb()}


def ours_ten(rolls: str) -> dict[str, Any]:
    from yacht.rules import get
    from yacht.strategy.solver import solve

    jit = warm()
    t0 = time.perf_counter()
    sol = solve(get("ancient-yacht-10", {"rolls": rolls}), cache=False)
    return {"who": "yacht", "variant": "ancient-yacht-10", "rolls": rolls,
            "seconds": time.perf_counter() - t0, "expected": sol.expected_score,
            "jit_seconds": jit, "peak_rss_mb": rss_mb()}


def ours_double() -> dict[str, Any]:
    from yacht.rules import get
    from yacht.strategy.solver import solve

    jit = warm()
    t0 = time.perf_counter()
    sol = solve(get("ancient-yacht-double"), cache=False)
    return {"who": "yacht", "variant": "ancient-yacht-double", "states": sol.states,
            "seconds": time.perf_counter() - t0, "expected": sol.expected_score,
            "jit_seconds": jit, "peak_rss_mb": rss_mb()}


ONE = {
    "ours_table": ours_table, "theirs_table": theirs_table, "ours_selfplay": ours_selfplay,
    "theirs_selfplay": theirs_selfplay, "ours_advice": ours_advice,
    "theirs_advice": theirs_advice, "ours_advice_batch": ours_advice_batch,
    "theirs_advice_batch": theirs_advice_batch, "ours_ten": ours_ten, "ours_double": ours_double,
}


def sub(name: str, *args: Any) -> dict[str, Any]:
    env = dict(os.environ)
    env.setdefault("YACHT_CACHE_DIR", os.path.join(tempfile.gettempdir(), "yacht-bench-cache"))
    out = subprocess.run([sys.executable, __file__, "--one", name, json.dumps(args)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1:] or ["failed"], "name": name}
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def show(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n## {title}")
    for r in rows:
        print("  " + json.dumps({k: (round(v, 4) if isinstance(v, float) else v)
                                  for k, v in r.items()}))


def main(parts: list[str]) -> None:
    want = set(parts) or {"tables", "advice", "selfplay", "ten", "double"}
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()}")
    if "tables" in want:
        pairs = [(("yahtzee", {"joker": "forced"}), "american+forced-joker"),
                 (("yahtzee", {"joker": "free"}), "american"),
                 (("yatzy", {}), "yatzy-scandinavian")]
        for (variant, opts), theirs in pairs:
            a = sub("ours_table", variant, opts)
            b = sub("theirs_table", theirs)
            if "seconds" in a and "seconds" in b:
                a["speedup_vs_yatzy_solver"] = b["seconds"] / a["seconds"]
            show(f"table {variant} {opts} vs {theirs}", [a, b])
    if "advice" in want:
        a = sub("ours_advice", 2000)
        b = sub("theirs_advice", 2000)
        show("advice query (Yatzy, random mid-game situations)", [a, b])
        a = sub("ours_advice_batch", 20000)
        b = sub("theirs_advice_batch", 20000)
        if "us_per_query" in a and "us_per_query" in b:
            a["ratio_vs_yatzy_solver"] = b["us_per_query"] / a["us_per_query"]
        show("advice, numbers only, batch of 20,000 (Yatzy)", [a, b])
    if "selfplay" in want:
        a = sub("ours_selfplay", "yatzy", 20000)
        b = sub("theirs_selfplay", "yatzy-scandinavian", 20000)
        if "games_per_s" in a and "games_per_s" in b:
            a["ratio_vs_yatzy_solver"] = a["games_per_s"] / b["games_per_s"]
        show("expert self-play, Yatzy, 2 workers", [a, b])
    if "ten" in want:
        show("10-dice one-column table", [sub("ours_ten", "5"), sub("ours_ten", "3")])
    if "double" in want:
        show("ancient-yacht-double (2^24 category sets)", [sub("ours_double")])


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        fn = ONE[sys.argv[2]]
        args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else []
        print(json.dumps(fn(*args)))
    else:
        main(sys.argv[1:])
