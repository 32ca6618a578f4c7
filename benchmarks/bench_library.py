"""`yacht.solve` as a library, side by side with yatzy-solver 1.0.0 in one process.

Run from the repository root (yatzy-solver is the `bench` extra; see README.md):

    .venv/bin/python benchmarks/bench_library.py                 # every part
    .venv/bin/python benchmarks/bench_library.py label --situations 1000000
    .venv/bin/python benchmarks/bench_library.py single

* ``label``: a user's script that labels random Yahtzee situations given as text
  (the best action and its value of each): ours ``y.batch(texts, final=False,
  workers=2)`` then ``best_action()`` / ``best_value()``; theirs
  ``Variant.situation_arrays(texts)``, ``Solver.option_values_batch(...)`` and the
  best column decoded through ``Variant.action_notation``. The same situations in
  each notation (made before the clock starts), 100,000 at a time, the two solvers
  taking turns chunk by chunk (who goes first alternates); each phase is timed
  (text to arrays, values, decoding). Then both answers are compared: the best
  values (points still to come, the peer's kind of value) and the best actions
  (where they differ, both must be ties in our values). Before it, the conversion
  alone: 100,000 texts to arrays, the best of five, the two taking turns.
* ``export``: 20,000 labelled rows to JSON Lines, both, in turn (best of three).
* ``first``: a fresh process's first ``best(text)`` with and without ``extra=N``.
* ``single``: one situation per call, each call timed alone, the calls interleaved
  call by call on the same situations: ours ``best(text)`` / ``options(text)`` on
  plain cards and on cards with Yahtzee bonuses (``extra=N``, every card new),
  theirs ``best_action(text)`` / ``option_values(text)``.

Random situations: each box filled with a chance of one half, with a value the box
can hold (every box independently: a card some game reaches), the Yahtzee box 0 or
50, dice uniform, 0-2 rolls left; cards with no open box are skipped.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

THEIRS = "american+forced-joker"  # our yahtzee with its default options (forced joker)
CHUNK = 100_000


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def situations(n: int, seed: int, bonus: bool = False) -> tuple[list[str], list[str]]:
    """``n`` random Yahtzee situations in our notation and in yatzy-solver's."""
    from yacht.parsing import possible_values
    from yacht.rules import get

    rs = get("yahtzee")
    ids = [c.id for c in rs.categories]
    theirs_ids = [("five_of_a_kind" if c == "yahtzee" else c) for c in ids]
    upper = [c.section == "upper" for c in rs.categories]
    values = [sorted(possible_values(rs, i)) for i in range(len(ids))]
    yi = ids.index("yahtzee")
    values[yi] = [0, 50]
    rng = random.Random(seed)
    ours: list[str] = []
    theirs: list[str] = []
    while len(ours) < n:
        filled = [i for i in range(len(ids)) if rng.random() < 0.5]
        if bonus:  # a Yahtzee in its box and 1-3 bonuses
            filled = sorted({*filled, yi})
        if len(filled) == len(ids):
            continue
        card = {i: rng.choice(values[i]) for i in filled}
        dice = sorted(rng.randint(1, 6) for _ in range(5))
        r = rng.randint(0, 2)
        if bonus:
            card[yi] = 50
        items = [f"{ids[i]}={card[i]}" for i in filled]
        if bonus:
            items.append(f"extra={100 * rng.randint(1, 3)}")
        ours.append(f"{''.join(map(str, dice))} r{r}" + (" " + ",".join(items) if items else ""))
        up = min(63, sum(card[i] for i in filled if upper[i]))
        tail = f" | five_of_a_kind {card[yi]}" if yi in card else ""
        theirs.append(f"dice {' '.join(map(str, dice))} | rolls {r} | upper {up} | filled "
                      f"{','.join(theirs_ids[i] for i in filled) or '-'}{tail}")
    return ours, theirs


def part_label(n: int, seed: int) -> dict[str, Any]:
    import yatzy_solver as ys

    import yacht

    t0 = time.perf_counter()
    ours_t, theirs_t = situations(n, seed)
    made = time.perf_counter() - t0
    y = yacht.solve("yahtzee")
    v = ys.Variant(THEIRS)
    solver = ys.Solver.build(v)
    names = np.array([v.action_notation(c) for c in range(v.num_action_codes)], dtype=object)

    def ours(lo: int, hi: int) -> tuple[list[str], Any, list[float]]:
        c0 = time.perf_counter()
        rows = y.situations(ours_t[lo:hi])
        c1 = time.perf_counter()
        b = y.batch(rows, final=False, workers=2)
        c2 = time.perf_counter()
        acts, vals = b.best_action(), b.best_value()
        c3 = time.perf_counter()
        return acts, vals, [c1 - c0, c2 - c1, c3 - c2]

    def theirs(lo: int, hi: int) -> tuple[list[str], Any, list[float]]:
        c0 = time.perf_counter()
        arrays = v.situation_arrays(theirs_t[lo:hi])
        c1 = time.perf_counter()
        codes, values, _counts = solver.option_values_batch(**arrays)
        c2 = time.perf_counter()
        best = np.nan_to_num(values, nan=-np.inf).argmax(axis=1)
        rows = np.arange(len(best))
        acts = names[codes[rows, best]].tolist()
        vals = values[rows, best]
        c3 = time.perf_counter()
        return acts, vals, [c1 - c0, c2 - c1, c3 - c2]

    ours(0, 1000)  # warm up both (tables in memory, first allocations)
    theirs(0, 1000)
    # the conversion alone, at its best: 100,000 texts to arrays, five times each, in turn
    # (and ours from Situation objects)
    conv = {"yacht": float("inf"), "yatzy-solver": float("inf"),
            "yacht from Situation objects": float("inf")}
    part = min(n, CHUNK)
    objects = [y.situation(t) for t in ours_t[:part]]
    for _ in range(5):
        c0 = time.perf_counter()
        y.situations(ours_t[:part])
        c1 = time.perf_counter()
        v.situation_arrays(theirs_t[:part])
        c2 = time.perf_counter()
        y.situations(objects)
        c3 = time.perf_counter()
        conv["yacht"] = min(conv["yacht"], (c1 - c0) / part * 1e6)
        conv["yatzy-solver"] = min(conv["yatzy-solver"], (c2 - c1) / part * 1e6)
        conv["yacht from Situation objects"] = min(conv["yacht from Situation objects"],
                                                   (c3 - c2) / part * 1e6)
    before = load()
    spent = {"yacht": [0.0, 0.0, 0.0], "yatzy-solver": [0.0, 0.0, 0.0]}
    got: dict[str, tuple[list[str], list[Any]]] = {"yacht": ([], []),
                                                    "yatzy-solver": ([], [])}
    runs = [("yacht", ours), ("yatzy-solver", theirs)]
    for k, lo in enumerate(range(0, n, CHUNK)):
        hi = min(n, lo + CHUNK)
        for who, fn in runs[::-1] if k % 2 else runs:
            acts, vals, phases = fn(lo, hi)
            spent[who] = [a + b for a, b in zip(spent[who], phases, strict=True)]
            got[who][0].extend(acts)
            got[who][1].append(vals)
    after = load()
    mine_v = np.concatenate(got["yacht"][1])
    theirs_v = np.concatenate(got["yatzy-solver"][1])
    diff = float(np.abs(mine_v - theirs_v).max())
    differ = [i for i, (a, b) in enumerate(zip(got["yacht"][0], got["yatzy-solver"][0],
                                                strict=True))
              if a != _in_ours(b)]
    ties = 0
    for i in differ:  # their action's value in our batch: a tie with our best?
        b = y.batch([ours_t[i]], final=False)
        mine = dict(b.options(0))
        theirs_act = _in_ours(got["yatzy-solver"][0][i])
        if abs(mine[theirs_act] - mine_v[i]) < 1e-9:
            ties += 1
    res: dict[str, Any] = {"situations": n, "made_texts_s": made, "load_before": before,
                           "load_after": after, "best_value_max_abs_diff": diff,
                           "best_action_differs": len(differ), "of_which_ties": ties,
                           "text_to_arrays_best_of_5_us": conv}
    for who, (conv, vals, dec) in spent.items():
        total = conv + vals + dec
        res[who] = {"total_s": total, "us_per_situation": total / n * 1e6,
                    "text_to_arrays_us": conv / n * 1e6, "values_us": vals / n * 1e6,
                    "decode_us": dec / n * 1e6}
    res["yatzy_solver_over_yacht"] = (res["yatzy-solver"]["total_s"]
                                      / res["yacht"]["total_s"])
    return res


def _in_ours(action: str) -> str:
    """yatzy-solver's notation of an action in ours."""
    return "keep nothing" if action == "keep -" else action.replace("five_of_a_kind",
                                                                   "yahtzee")


def part_single(n: int, seed: int, rounds: int = 3) -> dict[str, Any]:
    import yatzy_solver as ys

    import yacht

    ours_t, theirs_t = situations(n, seed)
    bonus_t, _ = situations(n * rounds + 200, seed + 1, bonus=True)
    y = yacht.solve("yahtzee")
    solver = ys.Solver.build(ys.Variant(THEIRS))
    new_card = iter(bonus_t)
    calls = {
        "yatzy-solver best_action(text)": lambda i: solver.best_action(theirs_t[i]),
        "yatzy-solver option_values(text)": lambda i: solver.option_values(theirs_t[i]),
        "yacht best(text)": lambda i: y.best(ours_t[i]),
        "yacht options(text)": lambda i: y.options(ours_t[i]),
        "yacht best(text), extra=N, a new card each call": lambda i: y.best(next(new_card)),
    }
    for i in range(200):  # warm up
        for k, f in calls.items():
            if "extra" not in k:
                f(i)
    next(new_card)
    keys = list(calls)
    times: dict[str, list[int]] = {k: [] for k in keys}
    clock = time.perf_counter_ns
    before = load()
    for rnd in range(rounds):
        for i in range(n):
            for j in range(len(keys)):
                k = keys[(i + rnd + j) % len(keys)]
                f = calls[k]
                t0 = clock()
                f(i)
                times[k].append(clock() - t0)
    res: dict[str, Any] = {"situations": n, "calls_each": n * rounds, "load_before": before,
                           "load_after": load()}
    for k, ts in times.items():
        ts.sort()
        res[k] = {"median_us": statistics.median(ts) / 1e3,
                  "p90_us": ts[int(0.9 * len(ts))] / 1e3}
    return res


def part_export(rows: int) -> dict[str, Any]:
    """Labelled rows written to JSON Lines by both (theirs: its ``perturbed`` source, the
    nearest to ours), in turn, three times; the best of each."""
    import tempfile

    import yatzy_solver as ys

    import yacht

    y = yacht.solve("yahtzee")
    solver = ys.Solver.build(ys.Variant(THEIRS))
    best = {"yacht": float("inf"), "yatzy-solver": float("inf")}
    before = load()
    with tempfile.TemporaryDirectory() as d:
        for k in range(3):
            c0 = time.perf_counter()
            y.export(f"{d}/ours.jsonl", rows, seed=k)
            c1 = time.perf_counter()
            solver.export(f"{d}/theirs.jsonl", rows, source="perturbed", seed=k,
                          format="jsonl")
            c2 = time.perf_counter()
            best["yacht"] = min(best["yacht"], c1 - c0)
            best["yatzy-solver"] = min(best["yatzy-solver"], c2 - c1)
    return {"rows": rows, "load_before": before, "load_after": load(),
            **{f"{who}_s": v for who, v in best.items()}}


def part_first() -> dict[str, Any]:
    """A fresh process's first ``best(text)`` after ``yacht.solve("yahtzee")``, a card
    without and with Yahtzee bonuses (three processes each, in turn; the median)."""
    import subprocess

    code = ("import time, yacht\ny = yacht.solve('yahtzee')\nt = time.perf_counter()\n"
            "y.best({!r})\nprint((time.perf_counter() - t) * 1e6)")
    texts = {"plain": "13356 r1 ones=3,yahtzee=50",
             "extra=100": "13356 r1 ones=3,yahtzee=50,extra=100"}
    got: dict[str, list[float]] = {k: [] for k in texts}
    before = load()
    for _ in range(3):
        for k, text in texts.items():
            out = subprocess.run([sys.executable, "-c", code.format(text)], check=True,
                                 capture_output=True, text=True).stdout
            got[k].append(float(out))
    return {"load_before": before, "load_after": load(),
            **{f"first_best_{k}_us": statistics.median(v) for k, v in got.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("parts", nargs="*", metavar="PART",
                    help="label, single, export, first (default all)")
    ap.add_argument("--situations", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    parts = {"label": lambda: part_label(a.situations, a.seed),
             "single": lambda: part_single(3000, a.seed),
             "export": lambda: part_export(20_000), "first": part_first}
    if set(a.parts) - set(parts):
        ap.error(f"parts are {', '.join(parts)}")
    print(f"machine: load average {load()}", flush=True)
    for part in a.parts or list(parts):
        got = parts[part]()
        print(f"\n## {part}", flush=True)
        print(json.dumps(got, indent=1, default=float), flush=True)


if __name__ == "__main__":
    sys.exit(main())
