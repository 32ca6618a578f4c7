"""The PostgreSQL group commit alone, beside a busy interpreter: moves a second and each
move's time until it is durable, written as a server process writes them.

A private PostgreSQL server (fsync on) and a store with group commits, as
``yacht web`` has them: ``--movers`` threads (the web server's 6) each save the moves
of their own games one after the other (a thread waits for its move to be in the
database, as a table's move does), while the main thread keeps the interpreter busy
the way a server's event loop does (pure Python, ``--busy`` of the time). Two ways of
writing the same group commit, one after the other on the same server:

- ``statements``: BEGIN, an UPDATE and an INSERT for every move, COMMIT (as before
  issue 28): each a round trip, and after each the writer thread waits to get the
  interpreter back from the busy thread;
- ``one``: the whole batch in one statement in autocommit (issue 28): one round trip.

    .venv/bin/python benchmarks/bench_commit.py --seconds 10
    .venv/bin/python benchmarks/bench_commit.py --seconds 10 --busy 0   # an idle process
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def busy_loop(stop: threading.Event, share: float) -> None:
    """Keep the interpreter busy ``share`` of the time (in 10 ms slices)."""
    while not stop.is_set():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.01 * share:
            sum(i * i for i in range(200))
        if share < 1:
            time.sleep(0.01 * (1 - share))


def measure(url: str, way: str, movers: int, seconds: float, busy: float,
            flush: str) -> dict[str, Any]:
    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.store import open_store

    store = open_store(url)
    store.group_commits(flush=flush)
    assert store._batcher is not None
    store._batcher.writer.one_statement = way == "one"
    lat: list[float] = []
    stop = threading.Event()
    lock = threading.Lock()

    def mover(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            s = State(get("yatzy"), [Player("Ann")], rng=random.Random(rng.random()))
            gid = store.start_game(Record.from_state(s))
            while not s.is_terminal() and not stop.is_set():
                s.apply(Roll() if not s.dice else s.legal_actions()[-1])
                t0 = time.perf_counter()
                store.append_action(gid, len(s.log) - 1, s.log[-1])
                with lock:
                    lat.append(time.perf_counter() - t0)

    threads = [threading.Thread(target=mover, args=(i,), daemon=True) for i in range(movers)]
    spinner = threading.Event()
    for t in threads:
        t.start()
    time.sleep(1.0)  # (the games made, the connection open)
    with lock:
        lat.clear()
    t0 = time.perf_counter()
    if busy > 0:
        timer = threading.Timer(seconds, spinner.set)
        timer.start()
        busy_loop(spinner, busy)  # (the main thread: as the event loop)
    else:
        time.sleep(seconds)
    took = time.perf_counter() - t0
    with lock:
        done = list(lat)
    stop.set()
    for t in threads:
        t.join(10)
    writer = store._batcher.writer
    direct, trips = writer.direct, writer.round_trips
    store.close()
    ms = sorted(x * 1000 for x in done)

    def pct(p: float) -> float:
        return round(ms[min(len(ms) - 1, int(p * len(ms)))], 2) if ms else 0.0

    return {"way": way, "moves_per_s": round(len(done) / took, 1),
            "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": round(ms[-1], 2) if ms else 0,
            "mean_ms": round(statistics.fmean(ms), 2) if ms else 0,
            "statements_per_move": round(trips / direct, 3) if way == "one" and direct else None}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--movers", type=int, default=6, help="threads saving moves (the server's 6)")
    p.add_argument("--busy", type=float, default=0.9,
                   help="share of the time the main thread keeps the interpreter (0-1)")
    p.add_argument("--flush", choices=("each", "interval"), default="each")
    p.add_argument("--rounds", type=int, default=2, help="each way this many times, in turn")
    p.add_argument("--switch-ms", type=float, default=None,
                   help="the interpreter's switch interval (sys.setswitchinterval; 5 ms "
                        "unless set)")
    args = p.parse_args()
    if args.switch_ms is not None:
        sys.setswitchinterval(max(0.0001, min(args.switch_ms, 100.0)) / 1000)
    sys.path.insert(0, str(ROOT / "tests" / "store"))
    from pgcluster import PgCluster, find_pg_bin

    bindir = find_pg_bin()
    if bindir is None:
        raise SystemExit("bench_commit: PostgreSQL is not installed")
    cluster = PgCluster(bindir, fsync=True)
    url = cluster.start()
    out = []
    try:
        for _ in range(max(1, min(args.rounds, 5))):
            for way in ("statements", "one"):
                r = measure(url, way, max(1, min(args.movers, 64)),
                            max(1.0, min(args.seconds, 120.0)), max(0.0, min(args.busy, 1.0)),
                            args.flush)
                print(json.dumps(r), flush=True)
                out.append(r)
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
