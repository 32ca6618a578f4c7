"""Many online tables at once: actions per second, latency, memory per table.

Starts `yacht web` on a free loopback port with a private database, opens N
tables of two friends (two WebSocket connections each, one browser per seat),
and lets every table play at a person's pace: the player on turn acts after a
pause drawn around ``--pace`` seconds (roll, or score the first box offered).
For each action it measures the time from sending it to the moment *both*
seats have a state that shows it. Each table starts as far into a pause as a
table that has been playing a while would be, so the run does not open with
every table's first move at once; the JSON says when the slow actions happened
(``timeline``: per second of play, actions sent and those over 100 ms).
Bounded: at most ``--seconds`` of play (and 10,000 tables, 600 s); it stops
and cleans up by itself.

``--store postgresql`` starts a private PostgreSQL server (fsync on, as a real
one) and a private redis-server, and runs ``--workers N`` server processes on
them (the many-players set-up of the README). ``--clients K`` spreads the
tables over K client processes. It also reports the cores each part used while
the tables played (server processes, clients, PostgreSQL, Redis): where the
limit is.

    .venv/bin/python benchmarks/bench_web.py --tables 1000 --seconds 60 --pace 2
    .venv/bin/python benchmarks/bench_web.py --tables 100 --seconds 20   # quick
    .venv/bin/python benchmarks/bench_web.py --store postgresql --workers 2 --tables 1000
    .venv/bin/python benchmarks/bench_web.py --repeat 3 --store postgresql --workers 4 \
        --clients 2 --tables 5000 --seconds 60 --pace 10   # three runs: median, spread

Prints one JSON object (and a line for benchmarks/README.md) per run; with
``--repeat N`` then the median and spread (min-max) of each figure, and the line
with them.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


#: the frames this client process's browsers received while the tables played, by kind
#: (a command's answer: an "ack" of its own or a "state with an id")
FRAMES: collections.Counter[str] = collections.Counter()


class Seat:
    """One browser at a table: its socket and the newest version it has seen."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = -1
        self.snap: dict[str, Any] = {}
        self.seen = asyncio.Event()
        self.waiting: list[tuple[int, asyncio.Future[float]]] = []
        self.before: list[str] = []
        self.recent: collections.deque[str] = collections.deque(maxlen=6)  # (said if lost)

    async def listen(self) -> None:
        try:
            async for raw in self.ws:
                msg = orjson.loads(raw)  # the clients' CPU is the server's too here
                kind = msg.get("type")
                FRAMES["state with an id" if kind == "state" and "id" in msg else kind] += 1
                if msg.get("type") != "state":
                    self.recent.append(str(msg)[:200])
                if msg.get("type") != "state" or msg["table"].get("phase") != "game":
                    if msg.get("type") in ("error", "state") and len(self.before) < 8:
                        self.before.append(str(msg)[:300])  # said if the game never comes
                    continue
                self.snap = msg["table"]["snapshot"]
                self.version = self.snap["version"]
                now = time.perf_counter()
                for want, fut in list(self.waiting):
                    if self.version >= want and not fut.done():
                        fut.set_result(now)
                self.waiting = [(w, f) for w, f in self.waiting if not f.done()]
                self.seen.set()
        except websockets.ConnectionClosed:
            return

    def shows(self, version: int) -> asyncio.Future[float]:
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.version >= version:
            fut.set_result(time.perf_counter())
        else:
            self.waiting.append((version, fut))
        return fut


#: a browser's socket: it answers the server's pings but sends none of its own
BROWSER_WS: dict[str, Any] = {"max_size": 2**20, "ping_interval": None}


async def open_table(base: str, ws_base: str) -> list[Seat]:
    made = await asyncio.to_thread(post, f"{base}/api/tables", {
        "variant": "yatzy", "speed": "instant",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "person", "here": False}]})
    host = await websockets.connect(f"{ws_base}/ws/{made['id']}", **BROWSER_WS)
    await host.send(json.dumps({"type": "hello", "token": made["token"]}))
    friend = await websockets.connect(f"{ws_base}/ws/{made['id']}", **BROWSER_WS)
    await friend.send(json.dumps({"type": "hello", "token": None}))
    await friend.send(json.dumps({"type": "join", "seat": 1, "name": "Bob", "id": 1}))
    seats = [Seat(host), Seat(friend)]
    for s in seats:
        asyncio.create_task(s.listen())
    return seats


#: ``--duplicate N``: each table is a duplicate table of N people, each on a card of
#: their own (a one-seat table) playing at once; set before the clients are forked
DUPLICATE = 0


async def open_group(base: str, ws_base: str, players: int) -> list[list[Seat]]:
    """A duplicate table of ``players`` people: the host's card and a friend joining
    each other card at its link; every card as a one-seat table."""
    made = await asyncio.to_thread(post, f"{base}/api/tables", {
        "variant": "yatzy", "speed": "instant", "dice": "duplicate",
        "seats": [{"kind": "person", "name": "P1", "here": True}]
        + [{"kind": "person", "here": False}] * (players - 1)})
    group = await asyncio.to_thread(get, f"{base}/api/groups/{made['group']}")
    host = await websockets.connect(f"{ws_base}/ws/{made['id']}", **BROWSER_WS)
    await host.send(json.dumps({"type": "hello", "token": made["token"]}))
    cards = [[Seat(host)]]
    for i, c in enumerate(x for x in group["cards"] if x["open"]):
        friend = await websockets.connect(f"{ws_base}/ws/{c['url'].rsplit('/', 1)[-1]}",
                                          **BROWSER_WS)
        await friend.send(json.dumps({"type": "hello", "token": None}))
        await friend.send(json.dumps({"type": "join", "seat": 0, "name": f"P{i + 2}",
                                      "id": 1}))
        cards.append([Seat(friend)])
    for card in cards:
        asyncio.create_task(card[0].listen())
    return cards


async def play(seats: list[Seat], pace: float, until: float, lat: list[float],
               when: list[tuple[float, float]], pick: random.Random) -> int:
    """Play the table at a person's pace until ``until``; the number of actions."""
    done = 0
    try:
        await asyncio.wait_for(asyncio.gather(*(s.seen.wait() for s in seats)), 60)
    except TimeoutError:  # the game's start never reached a seat: counted, not fatal
        lat.append(float("inf"))
        print(f"bench_web: a game's start never reached a seat: "
              f"{[(s.seen.is_set(), s.before) for s in seats]}", file=sys.stderr)
        return 0
    # the first pause: as far into a pause as a table that has been playing for a while
    # would be (the pauses' residual time), so that the run does not begin with a wave
    # of every table's first move
    wait = pace * 0.5 * pick.random() if pick.random() < 0.5 \
        else pace * (1.5 - pick.random() ** 0.5)
    while time.perf_counter() < until:
        # (a pause past the run's end is cut short there: a pace longer than the run
        # measures a quiet site, and the clients still stop on time)
        await asyncio.sleep(min(wait, max(0.0, until - time.perf_counter())))
        if time.perf_counter() >= until:
            return done
        wait = pace * (0.5 + pick.random())
        snap = seats[0].snap
        if not snap or snap["over"]:
            return done
        me = seats[snap["current"]]
        snap = me.snap
        version = snap["version"]
        if snap["pause"] is not None or not snap["seat"]["my_turn"]:
            continue
        if not snap["dice"]:
            cmd: dict[str, Any] = {"type": "roll"}
        else:
            box = snap["previews"][0]
            cmd = {"type": "score", "category": box["category"], "column": box["column"]}
        sent = time.perf_counter()
        # with an id, as the page's socket.js sends every message (the answer carries it)
        await me.ws.send(json.dumps({"type": "command", "command": cmd, "version": version,
                                     "id": done + 1}))
        try:
            shown = await asyncio.wait_for(
                asyncio.gather(*(s.shows(version + 1) for s in seats)), 30)
        except TimeoutError:
            lat.append(30.0)
            print(f"bench_web: {cmd} at version {version} not shown in 30 s: the seats "
                  f"at {[s.version for s in seats]}, their last other messages "
                  f"{[list(s.recent) for s in seats]}", file=sys.stderr)
            continue
        lat.append(max(shown) - sent)
        when.append((sent, lat[-1]))
        done += 1
    return done


def tree(pid: int) -> list[int]:
    """A process and all its descendants."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            kids.setdefault(int(stat[1]), []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += kids.get(p, [])
    return out


def cpu_s(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def client(share: int, first: int, seconds: float, pace: float, port: int,
                 ready: Any, done: Any) -> dict[str, Any]:
    """One client process: open its share of the tables, wait for the others, play.

    Its garbage is collected by the clock, as the server's is: a client holds thousands
    of browsers' snapshots, and CPython's own collections paused it for up to 0.4 s,
    which the latencies counted as the server's."""
    from yacht.web.process import collect_garbage

    collector = asyncio.create_task(collect_garbage())
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    all_seats: list[list[Seat]] = []
    for i in range(0, share, 50):  # opened 50 at a time
        if DUPLICATE:  # (each card a table of one seat: played as any table)
            for cards in await asyncio.gather(*(open_group(base, ws_base, DUPLICATE)
                                                for _ in range(min(50, share - i)))):
                all_seats += cards
            continue
        all_seats += await asyncio.gather(*(open_table(base, ws_base)
                                            for _ in range(min(50, share - i))))
    await asyncio.to_thread(ready.wait)
    lat: list[float] = []
    when: list[tuple[float, float]] = []  # (when each action was sent, its latency)
    start = time.perf_counter()
    FRAMES.clear()
    counts = await asyncio.gather(*(play(s, pace, start + seconds, lat, when,
                                         random.Random(first + i))
                                    for i, s in enumerate(all_seats)))
    took = time.perf_counter() - start
    await asyncio.to_thread(done.wait)
    for seats in all_seats:
        for s in seats:
            await s.ws.close()
    collector.cancel()
    return {"lat": lat, "actions": sum(counts), "seconds": took, "frames": dict(FRAMES),
            "when": [(t - start, x) for t, x in when]}


#: ``--client-loop``: the clients' event loop (set before the clients are forked)
CLIENT_LOOP = "uvloop"


def client_process(args: tuple[Any, ...]) -> None:
    share, first, seconds, pace, port, ready, done, out = args
    factory: Any = None
    if CLIENT_LOOP == "uvloop":
        import uvloop

        factory = uvloop.new_event_loop
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            out.put(runner.run(asyncio.wait_for(
                client(share, first, seconds, pace, port, ready, done), seconds + 600)))
    except BaseException as e:  # the parent says what went wrong
        import traceback

        out.put({"error": "".join(traceback.format_exception(e))[-1500:]})
        ready.abort()
        done.abort()


def run(tables: int, clients: int, seconds: float, pace: float, port: int, server: int,
        others: dict[str, int]) -> dict[str, Any]:
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    ready, done = ctx.Barrier(clients + 1), ctx.Barrier(clients + 1)
    out: Any = ctx.Queue()
    rss0 = sum(rss_mb(p) for p in tree(server))
    shares = [tables // clients + (1 if i < tables % clients else 0) for i in range(clients)]
    procs = [ctx.Process(target=client_process,
                         args=((shares[i], sum(shares[:i]), seconds, pace, port, ready, done,
                                out),)) for i in range(clients)]
    t0 = time.perf_counter()
    for pr in procs:
        pr.start()
    try:
        ready.wait(timeout=600)
    except threading.BrokenBarrierError:
        raise RuntimeError(f"a client failed: {out.get(timeout=30)}") from None
    opened = time.perf_counter() - t0
    print(f"bench_web: {tables:,} tables open after {opened:.0f} s; playing for {seconds:g} s",
          file=sys.stderr, flush=True)  # (a profiler may start now)
    rss_open = sum(rss_mb(p) for p in tree(server))
    watched = {"server": tree(server), "clients": [pr.pid for pr in procs if pr.pid],
               **{k: tree(v) for k, v in others.items()}}  # (PostgreSQL's backends too)
    cpu0 = {k: cpu_s(v) for k, v in watched.items()}
    t1 = time.perf_counter()
    try:
        done.wait(timeout=seconds + 600)
    except threading.BrokenBarrierError:  # a client failed: say how
        raise RuntimeError(f"a client failed: {out.get(timeout=30)}") from None
    took_wall = time.perf_counter() - t1
    # (a process born meanwhile - a server's new database connection - counts whole)
    born = {k: [p for p in tree(others[k]) if p not in v] if k in others else []
            for k, v in watched.items()}
    cpu = {k: round((cpu_s(v) - cpu0[k] + cpu_s(born[k])) / took_wall, 2)
           for k, v in watched.items()}
    rss_end = sum(rss_mb(p) for p in tree(server))
    results = [out.get(timeout=120) for _ in procs]
    for pr in procs:
        pr.join(30)
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError(f"a client failed: {errors[0]}")
    everything = [x for r in results for x in r["lat"]]
    lat = [x for x in everything if x != float("inf")]
    actions = sum(r["actions"] for r in results)
    took = max(r["seconds"] for r in results)
    lat_ms = sorted(x * 1000 for x in lat)

    # when the slow ones happened: the seconds of play with the slowest actions
    by_second: dict[int, list[float]] = {}
    for r in results:
        for t, x in r["when"]:
            by_second.setdefault(int(t), []).append(x * 1000)
    slowest = sorted(by_second.items(), key=lambda kv: -max(kv[1]))[:8]

    def pct(p: float) -> float:
        return round(lat_ms[min(len(lat_ms) - 1, int(p * len(lat_ms)))], 1) if lat_ms else 0.0

    return {"tables": tables, "cards": tables * DUPLICATE,
            "connections": tables * (DUPLICATE or 2), "clients": clients,
            "seconds": round(took, 1), "pace_s": pace, "actions": actions,
            "actions_per_s": round(actions / took, 1),
            "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99),
                           "max": round(lat_ms[-1], 1) if lat_ms else 0.0,
                           "mean": round(statistics.fmean(lat_ms), 1) if lat_ms else 0.0},
            "slowest_seconds": [{"second": k, "actions": len(v), "max_ms": round(max(v), 1),
                                 "over_100ms": sum(1 for x in v if x > 100)}
                                for k, v in sorted(slowest)],
            # per second of play: actions sent, and how many took over 100 ms
            "timeline": [[k, len(v), sum(1 for x in v if x > 100)]
                         for k, v in sorted(by_second.items())],
            "seconds_with_any_over_100ms": sum(1 for v in by_second.values()
                                               if max(v) > 100),
            "lost": sum(1 for x in lat if 30.0 <= x < float("inf")),
            "never_started": sum(1 for x in everything if x == float("inf")),
            "open_seconds": round(opened, 1),
            # frames the browsers received an action (a state each seat, and the mover's
            # answer: on the state, or an ack of its own; pings are not seen here)
            "frames_per_action": {k: round(sum(r.get("frames", {}).get(k, 0)
                                               for r in results) / max(1, actions), 3)
                                  for k in sorted({k for r in results
                                                   for k in r.get("frames", {})})},
            "cores_used": cpu,
            "server_rss_mb": {"start": round(rss0, 1), "tables_open": round(rss_open, 1),
                              "end": round(rss_end, 1)},
            "kb_per_table": round((rss_end - rss0) * 1024 / max(1, tables), 1),
            "load_avg": os.getloadavg()}


def redis_server(tmp: str) -> tuple[subprocess.Popen[bytes], str]:
    exe = shutil.which("redis-server")
    if exe is None:
        raise SystemExit("bench_web: redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", tmp],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.02)
    proc.kill()
    raise SystemExit("bench_web: redis-server did not start")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200, help="tables at once (at most 10,000)")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--pace", type=float, default=2.0,
                   help="mean seconds between a table's actions (a person's pace)")
    p.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite",
                   help="a private SQLite file, or a private PostgreSQL server (fsync on) "
                        "with a private redis-server (default: sqlite)")
    p.add_argument("--workers", type=int, default=1,
                   help="yacht web processes (more than 1 needs --store postgresql)")
    p.add_argument("--clients", type=int, default=1,
                   help="client processes sharing the tables (they run on this machine too)")
    p.add_argument("--flush", choices=("each", "interval"), default="each",
                   help="the server's --flush: each move on the disk before it is "
                        "acknowledged (the default), or within about a second")
    p.add_argument("--log", help="keep the server's log in this file")
    p.add_argument("--duplicate", type=int, default=0, metavar="N",
                   help="duplicate tables of N people (2-8) instead: each on a card of "
                        "their own, all playing at once (a move's latency: until its own "
                        "card shows it; the others' cards hear of it as a field)")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="run the whole measurement N times (1-5), each with fresh servers "
                        "and database, and print each run's line and the median and spread "
                        "(min-max) of each figure")
    p.add_argument("--client-loop", choices=("uvloop", "asyncio"), default="uvloop",
                   help="the client processes' event loop: uvloop (the default, as the "
                        "server's) or asyncio's own (slower: more of the shared cores)")
    args = p.parse_args()
    global DUPLICATE, CLIENT_LOOP
    CLIENT_LOOP = args.client_loop
    DUPLICATE = max(2, min(args.duplicate, 8)) if args.duplicate else 0
    if args.workers > 1 and args.store != "postgresql":
        raise SystemExit("bench_web: --workers > 1 needs --store postgresql (and Redis)")
    runs = []
    for i in range(max(1, min(args.repeat, 5))):
        if i:
            time.sleep(5)  # (the last run's processes gone, their sockets closed)
        runs.append(measure(args))
    if len(runs) > 1:
        summary = summarize(runs)
        print(json.dumps(summary, indent=1))
        print(summary["line"])
    return 0


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median and the spread (min-max) of each figure the README's table shows."""

    def figure(get: Any, digits: int = 1) -> dict[str, float]:
        xs = [float(get(r)) for r in runs]
        return {"median": round(statistics.median(xs), digits),
                "min": round(min(xs), digits), "max": round(max(xs), digits)}

    figures = {
        "actions_per_s": figure(lambda r: r["actions_per_s"]),
        "p50_ms": figure(lambda r: r["latency_ms"]["p50"]),
        "p99_ms": figure(lambda r: r["latency_ms"]["p99"]),
        "max_ms": figure(lambda r: r["latency_ms"]["max"]),
        "lost": figure(lambda r: r["lost"] + r["never_started"]),
        **{f"cores_{k}": figure(lambda r, k=k: r["cores_used"][k], 2)
           for k in runs[0]["cores_used"]},
    }
    first = runs[0]

    def cell(name: str) -> str:
        f = figures[name]
        return f"{f['median']:,} ({f['min']:,}-{f['max']:,})"

    loads = " ".join(f"{r['load_avg'][0]:.1f}" for r in runs)
    cores = ", ".join(f"{k} {figures[f'cores_{k}']['median']}" for k in first["cores_used"])
    line = (f"| {first['store']} | {first['flush']} | {first['workers']} | {first['tables']} | "
            f"{first['pace_s']} s | {cell('actions_per_s')} | {cell('p50_ms')} | "
            f"{cell('p99_ms')} | {cell('max_ms')} | {cores} | "
            f"{loads} | {cell('lost')} |")
    return {"runs": len(runs), "median_and_spread": figures, "line": line}


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One whole measurement: servers and database started, the tables played, all
    stopped; prints the run's JSON and line and returns the JSON."""
    tables = max(1, min(args.tables, 10_000))
    seconds = max(1.0, min(args.seconds, 600.0))
    workers = max(1, min(args.workers, 8))
    clients = max(1, min(args.clients, 8))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    sockets = tables * max(2, DUPLICATE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * sockets + 256)), hard))
    extra: list[subprocess.Popen[bytes]] = []
    cluster: Any = None
    server_log: Any = None
    others: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        # (every simulated player comes from 127.0.0.1: no limit on the new tables or the
        # open sockets and messages of an address)
        env = dict(os.environ, YACHT_CACHE_DIR=f"{tmp}/cache", YACHT_CONFIG_DIR=f"{tmp}/cfg",
                   YACHT_NEW_TABLES="0", YACHT_SOCKETS="0",
                   YACHT_MESSAGES="0")
        cmd = [sys.executable, "-m", "yacht", "web", "--port", str(port), "--log-level",
               "warning", "--log-format", "text", "--flush", args.flush]
        try:
            if args.store == "postgresql":
                sys.path.insert(0, str(ROOT / "tests" / "store"))
                from pgcluster import PgCluster, find_pg_bin

                bindir = find_pg_bin()
                if bindir is None:
                    raise SystemExit("bench_web: PostgreSQL is not installed")
                cluster = PgCluster(bindir, fsync=True)
                db = cluster.start()
                others["postgresql"] = int((cluster.data / "postmaster.pid")
                                           .read_text().split()[0])
                redis, redis_url = redis_server(tmp)
                extra.append(redis)
                others["redis"] = redis.pid
                cmd += ["--db", db, "--redis", redis_url, "--workers", str(workers)]
            else:
                cmd += ["--db", f"{tmp}/bench.sqlite3"]
            # the server's log goes to a file (a pipe no one reads would fill and stop it)
            server_log = open(f"{tmp}/server.log", "w")  # noqa: SIM115 (closed below)
            server = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                      stderr=server_log, text=True)
            extra.append(server)  # type: ignore[arg-type]
            for _ in range(600):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            if workers > 1:
                time.sleep(2)  # every worker up, not just the first
            result = run(tables, clients, seconds, args.pace, port, server.pid, others)
        finally:
            for proc in reversed(extra):
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            if cluster is not None:
                cluster.stop()
            if server_log is not None:
                server_log.close()
                text = Path(server_log.name).read_text(errors="replace")
                if args.log:
                    Path(args.log).write_text(text)
                problems = [line for line in text.splitlines()
                            if any(w in line.lower() for w in ("warning", "error",
                                                               "traceback"))]
                if problems:
                    print(f"bench_web: the server logged {len(problems)} warnings or errors; "
                          f"the first: {problems[:3]}", file=sys.stderr)
    result["store"] = args.store
    result["workers"] = workers
    result["flush"] = args.flush
    result["client_loop"] = args.client_loop
    result["duplicate"] = DUPLICATE
    print(json.dumps(result, indent=1))
    lm = result["latency_ms"]
    # a duplicate table's line counts its cards too (each a game and a socket of its own)
    counted = f"{tables:,} x {DUPLICATE} cards ({tables * DUPLICATE:,})" if DUPLICATE \
        else f"{tables}"
    print(f"| {args.store} | {args.flush} | {workers} | {counted} | {args.pace} s | "
          f"{result['actions_per_s']} | {lm['p50']} | {lm['p99']} | {lm['max']} | "
          f"{result['kb_per_table']} KB | "
          f"{' '.join(f'{k} {v}' for k, v in result['cores_used'].items())} | "
          f"{result['load_avg'][0]:.1f} | {result['lost']} + {result['never_started']} | "
          f"{result['seconds_with_any_over_100ms']} |", flush=True)
    return result


if __name__ == "__main__":
    sys.exit(main())
