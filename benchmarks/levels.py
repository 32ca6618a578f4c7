"""The computer players ranked on every variant, and how fast they decide.

For each variant: the mean score of ``beginner`` and ``intermediate`` (games
through the engine) and of ``expert`` (the solver's self-play), with standard
errors; the solver's exact expectation; and the z-scores of the three checks
of issue 3/5:

* ``int-beg``  (intermediate - beginner) / standard error of the difference;
* ``exp-int``  (expert's expectation - intermediate) / its standard error
  (the exact expectation when the solver is exact, else the simulated mean);
* ``sim-sol``  (expert's simulated mean - the solver's expectation) / standard error:
  within +-3 means `yacht simulate` agrees with `yacht solve`.

``--timing`` also measures the time of each decision (CPU time of ``decide``)
over a few games per level.

Usage::

    .venv/bin/python benchmarks/levels.py                 # all 13 variants
    .venv/bin/python benchmarks/levels.py --games 3000 --games10 400 --expert-games 200000
    .venv/bin/python benchmarks/levels.py yatzy tommys-crag --timing --json out.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any

import numpy as np
from _cli import variant

from yacht.engine import Player, Roll, State
from yacht.rules import Ruleset, all_variants, get
from yacht.strategy import make_player
from yacht.strategy.simulate import SimulationResult, simulate


def _z(diff: float, se: float) -> float:
    return diff / se if se > 0 else math.inf


def decision_times(rs: Ruleset, level: str, games: int, seed: int) -> dict[str, float]:
    """Milliseconds of CPU per decision (tables already built)."""
    player = make_player(rs, level)
    # build the tables and warm up before timing
    warm = State(rs, [Player("W", "computer", level)], rng=random.Random(seed - 1))
    warm.apply(Roll())
    player.decide(warm)
    times = []
    for g in range(games):
        state = State(rs, [Player("C", "computer", level)], rng=random.Random(seed + g))
        while not state.is_terminal():
            if not state.dice:
                state.apply(Roll())
                continue
            t0 = time.process_time()
            d = player.decide(state)
            times.append(time.process_time() - t0)
            for a in d.actions():
                state.apply(a)
    ms = np.array(times) * 1000
    return {"decisions": len(ms), "mean_ms": float(ms.mean()),
            "p99_ms": float(np.percentile(ms, 99)), "max_ms": float(ms.max())}


def engine_levels(variant: str, games: int, seed: int, workers: int,
                  timing: bool) -> dict[str, Any]:
    """Phase 1: beginner and intermediate through the engine."""
    rs = get(variant)
    out: dict[str, Any] = {"variant": rs.id}
    for level in ("beginner", "intermediate"):
        r = simulate(rs, level, games, seed, workers=workers)
        out[level] = _summary(r)
    b, i = out["beginner"], out["intermediate"]
    out["z_int_beg"] = _z(i["mean"] - b["mean"], math.hypot(i["se"], b["se"]))
    if timing:
        out["timing"] = {level: decision_times(rs, level, 3 if rs.dice > 5 else 10, seed)
                         for level in ("beginner", "intermediate")}
    return out


def _summary(r: SimulationResult) -> dict[str, Any]:
    return {"games": r.games, "mean": r.mean, "se": r.se, "std": r.std,
            "seconds": r.seconds, "source": r.source,
            "bonus_rate": r.bonus_rate, "yacht_rate": r.yacht_rate}


def expert_level(row: dict[str, Any], games: int, seed: int, workers: int) -> None:
    """Phase 2: the solver's expectation and the expert's self-play, added to ``row``."""
    rs = get(row["variant"])
    row["solve"] = None
    row["solve_exact"] = False
    row["z_exp_int"] = row["z_sim_sol"] = None
    try:
        from yacht.strategy.solver import solve

        sol = solve(rs, workers=workers)
        row["solve"] = float(sol.expected_score)
        row["solve_exact"] = bool(getattr(sol, "exact", True))
        row["solve_seconds"] = float(getattr(sol, "seconds", 0.0))
    except Exception as e:  # the solver may not handle a variant yet: say so
        row["solver_error"] = str(e)
    try:
        x = simulate(rs, "expert", games, seed, workers=workers)
    except ImportError as e:  # no expert player for this variant yet
        row["expert_error"] = str(e)
        return
    row["expert"] = _summary(x)
    i = row["intermediate"]
    if row["solve"] is not None and row["solve_exact"]:
        row["z_exp_int"] = _z(row["solve"] - i["mean"], i["se"])
    else:
        row["z_exp_int"] = _z(x.mean - i["mean"], math.hypot(x.se, i["se"]))
    if row["solve"] is not None:
        row["z_sim_sol"] = _z(x.mean - row["solve"], x.se)


def _line(row: dict[str, Any]) -> str:
    def cell(level: str) -> str:
        if level not in row:
            return "-"
        return f"{row[level]['mean']:.2f}±{row[level]['se']:.2f}"

    def z(key: str) -> str:
        return "-" if row.get(key) is None else f"{row[key]:+.1f}"

    solve_s = "-"
    if row.get("solve") is not None:
        solve_s = f"{row['solve']:.2f}" + ("" if row["solve_exact"] else "~")
    return (f"{row['variant']:<24} {cell('beginner'):>15} {cell('intermediate'):>15} "
            f"{cell('expert'):>15} {solve_s:>9} {z('z_int_beg'):>8} "
            f"{z('z_exp_int'):>8} {z('z_sim_sol'):>8}")


HEADER = (f"{'variant':<24} {'beginner':>15} {'intermediate':>15} {'expert (sim)':>15} "
          f"{'solve':>9} {'int-beg':>8} {'exp-int':>8} {'sim-sol':>8}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variants", nargs="*", type=variant, help="variant ids (default: all)")
    p.add_argument("--games", type=int, default=3000,
                   help="games per level through the engine, up to 5 dice (default 3000)")
    p.add_argument("--games10", type=int, default=400,
                   help="games per level through the engine, 10 dice (default 400)")
    p.add_argument("--expert-games", type=int, default=100_000,
                   help="expert games (solver self-play, default 100000)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--timing", action="store_true", help="also time the decisions")
    p.add_argument("--no-expert", action="store_true",
                   help="skip phase 2 (the solver and the expert's self-play)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON")
    args = p.parse_args(argv)
    variants = args.variants or [rs.id for rs in all_variants()]
    rows: list[dict[str, Any]] = []

    def save() -> None:
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=2)

    print("phase 1: beginner and intermediate (engine)")
    print(HEADER)
    for v in variants:
        games = args.games10 if get(v).dice > 5 else args.games
        t0 = time.perf_counter()
        row = engine_levels(v, games, args.seed, args.workers, args.timing)
        row["seconds"] = time.perf_counter() - t0
        rows.append(row)
        print(_line(row), flush=True)
        if args.timing:
            for level, t in row["timing"].items():
                print(f"    {level:<13} {t['decisions']:5d} decisions: mean {t['mean_ms']:.2f} ms, "
                      f"p99 {t['p99_ms']:.2f} ms, max {t['max_ms']:.2f} ms", flush=True)
        save()
    if not args.no_expert:
        print("\nphase 2: expert (solver self-play) and the solver's expectation")
        print(HEADER)
        for row in rows:
            expert_level(row, args.expert_games, args.seed, args.workers)
            print(_line(row), flush=True)
            save()
    ok_rank = all(r["z_int_beg"] > 3 and (args.no_expert or (
        r.get("z_exp_int") is not None and r["z_exp_int"] > 3)) for r in rows)
    ok_sim = all(r.get("z_sim_sol") is None or abs(r["z_sim_sol"]) <= 3
                 for r in rows if r.get("solve_exact"))
    ranking = "beginner < intermediate" + ("" if args.no_expert else " < expert")
    print(f"\n{ranking} (z > 3) on every variant: {ok_rank}")
    if not args.no_expert:
        print(f"expert simulation within 3 standard errors of the solver (exact ones): {ok_sim}")
    save()
    return 0 if ok_rank and ok_sim else 1


if __name__ == "__main__":
    sys.exit(main())
