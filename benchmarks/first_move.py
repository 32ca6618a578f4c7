"""Time to the first expert move and the first hint, per variant, with an empty table cache.

Run from the repository root:

    .venv/bin/python benchmarks/first_move.py            # every variant, native kernels
    .venv/bin/python benchmarks/first_move.py --json FILE
    .venv/bin/python benchmarks/first_move.py --champion --variants yahtzee,yatzy

Each measurement is a fresh process with its own empty table cache. The
process first does what the game has already done when the player presses
the key (Python started, the rules and the engine imported, dice rolled);
the clock then runs from the "key press" to the answer: the expert's first
decision (``make_player(rs, "expert").decide(state)``) or the advisor's
ranking (``advise(state)``), table build and kernel loading included. The
whole process's wall time is shown too. ``--champion`` adds the champion's first
decision against an expert (two players: it needs the score distributions, built
in the background: it plays the expert's move meanwhile; the time until they are
ready, when it plays to win, is shown after it). ``--wait`` measures the champion
as it was before (``YACHT_BUILDS=wait``: its first move waits for the build).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one(variant: str, what: str) -> dict[str, Any]:
    import random

    from yacht.engine import Player, Roll, State
    from yacht.rules import get

    rs = get(variant)
    players = [Player("Cpu", "computer", "champion" if what == "champion" else "expert")]
    if what == "champion":
        players.append(Player("Other", "computer", "expert"))
    state = State(rs, players, rng=random.Random(1))
    state.apply(Roll())
    t0 = time.perf_counter()
    from yacht.strategy import ready

    was_ready = ready("advisor" if what == "advice" else what, rs)
    if what in ("expert", "champion"):
        from yacht.strategy import make_player

        decision = make_player(rs, what).decide(state)
        answer = str(decision)
    else:
        from yacht.strategy.advisor import advise

        answer = advise(state)[0].describe(rs)
    seconds = time.perf_counter() - t0
    out = {"variant": variant, "what": what, "seconds": seconds, "ready_before": was_ready,
           "answer": answer, "backend": _backend()}
    if what == "champion" and not args_wait():
        # its tables are built in the background meanwhile: how long until it plays to win
        from yacht.strategy.champion import preparing

        job = preparing(state)
        if job is not None:
            job.join()
        out["to_win_seconds"] = time.perf_counter() - t0
        out["build_error"] = None if job is None else job.error
    return out


def args_wait() -> bool:
    from yacht.strategy.solver.background import waits

    return waits()


def _backend() -> str:
    from yacht.strategy.solver.backend import current

    return current().name


def run(variant: str, what: str, backend: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="yacht-first-") as cache:
        env = dict(os.environ, YACHT_CACHE_DIR=cache, YACHT_SOLVER_BACKEND=backend)
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, "--one", variant, what],
                             capture_output=True, text=True, env=env, cwd=ROOT)
        wall = time.perf_counter() - t0
    if out.returncode != 0:
        return {"variant": variant, "what": what, "error": out.stderr.strip()[-300:]}
    res: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    res["process_seconds"] = wall
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="native", choices=["native", "auto"])
    ap.add_argument("--json", default=None, metavar="FILE")
    ap.add_argument("--variants", default=None, help="comma-separated (default: all)")
    ap.add_argument("--champion", action="store_true",
                    help="also the champion's first move against an expert")
    ap.add_argument("--wait", action="store_true",
                    help="the champion's first move waits for its tables (YACHT_BUILDS=wait)")
    ap.add_argument("--one", nargs=2, metavar=("VARIANT", "WHAT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.wait:
        os.environ["YACHT_BUILDS"] = "wait"
    if args.one:
        print(json.dumps(one(*args.one)))
        return
    from yacht.rules import all_variants

    names = args.variants.split(",") if args.variants else [rs.id for rs in all_variants()]
    with open("/proc/loadavg") as f:
        print(f"load average before: {' '.join(f.read().split()[:3])}")
    rows = []
    print(f"{'variant':<26} {'first expert move':>18} {'first hint':>12} {'(processes)':>16}"
          + (f" {'champion (process)':>20}" if args.champion else ""))
    for name in names:
        e = run(name, "expert", args.backend)
        h = run(name, "advice", args.backend)
        rows += [e, h]
        if "error" in e or "error" in h:
            print(f"{name:<26} error: {e.get('error') or h.get('error')}")
            continue
        line = (f"{name:<26} {e['seconds']:>16.2f} s {h['seconds']:>10.2f} s "
                f"{e['process_seconds']:>6.2f} / {h['process_seconds']:.2f} s")
        if args.champion:
            c = run(name, "champion", args.backend)
            rows.append(c)
            line += (f" error: {c['error']}" if "error" in c else
                     f" {c['seconds']:>10.2f} s ({c['process_seconds']:.2f} s)")
            if "to_win_seconds" in c:
                line += f"; plays to win after {c['to_win_seconds']:.1f} s"
        print(line, flush=True)
    with open("/proc/loadavg") as f:
        print(f"load average after: {' '.join(f.read().split()[:3])}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
