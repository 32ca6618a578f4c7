"""Many online tables at once: actions per second, latency, memory per table.

Starts `yacht web` on a free loopback port with a private database, opens N
tables of two friends (two WebSocket connections each, one browser per seat),
and lets every table play at a person's pace: the player on turn acts after a
pause drawn around ``--pace`` seconds (roll, or score the first box offered).
For each action it measures the time from sending it to the moment *both*
seats have a state that shows it. Bounded: at most ``--seconds`` of play (and
2,000 tables, 600 s); it stops and cleans up by itself.

    .venv/bin/python benchmarks/bench_web.py --tables 1000 --seconds 60 --pace 2
    .venv/bin/python benchmarks/bench_web.py --tables 100 --seconds 20   # quick

Prints one JSON object (and a line for benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
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


class Seat:
    """One browser at a table: its socket and the newest version it has seen."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = -1
        self.snap: dict[str, Any] = {}
        self.seen = asyncio.Event()
        self.waiting: list[tuple[int, asyncio.Future[float]]] = []

    async def listen(self) -> None:
        try:
            async for raw in self.ws:
                msg = orjson.loads(raw)  # the clients' CPU is the server's too here
                if msg.get("type") != "state" or msg["table"].get("phase") != "game":
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


async def open_table(base: str, ws_base: str) -> list[Seat]:
    made = await asyncio.to_thread(post, f"{base}/api/tables", {
        "variant": "yatzy", "speed": "instant",
        "seats": [{"kind": "person", "name": "Ann", "here": True},
                  {"kind": "person", "here": False}]})
    host = await websockets.connect(f"{ws_base}/ws/{made['id']}", max_size=2**20)
    await host.send(json.dumps({"type": "hello", "token": made["token"]}))
    friend = await websockets.connect(f"{ws_base}/ws/{made['id']}", max_size=2**20)
    await friend.send(json.dumps({"type": "hello", "token": None}))
    await friend.send(json.dumps({"type": "join", "seat": 1, "name": "Bob", "id": 1}))
    seats = [Seat(host), Seat(friend)]
    for s in seats:
        asyncio.create_task(s.listen())
    return seats


async def play(seats: list[Seat], pace: float, until: float, lat: list[float],
               pick: random.Random) -> int:
    """Play the table at a person's pace until ``until``; the number of actions."""
    done = 0
    await asyncio.wait_for(asyncio.gather(*(s.seen.wait() for s in seats)), 60)
    while time.perf_counter() < until:
        await asyncio.sleep(pace * (0.5 + pick.random()))
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
        await me.ws.send(json.dumps({"type": "command", "command": cmd, "version": version}))
        try:
            shown = await asyncio.wait_for(
                asyncio.gather(*(s.shows(version + 1) for s in seats)), 30)
        except TimeoutError:
            lat.append(30.0)
            continue
        lat.append(max(shown) - sent)
        done += 1
    return done


async def run(tables: int, seconds: float, pace: float, port: int, pid: int) -> dict[str, Any]:
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    rss0 = rss_mb(pid)
    t0 = time.perf_counter()
    all_seats: list[list[Seat]] = []
    for i in range(0, tables, 50):  # opened 50 at a time
        all_seats += await asyncio.gather(*(open_table(base, ws_base)
                                            for _ in range(min(50, tables - i))))
    opened = time.perf_counter() - t0
    rss_open = rss_mb(pid)
    lat: list[float] = []
    start = time.perf_counter()
    counts = await asyncio.gather(*(play(s, pace, start + seconds, lat, random.Random(i))
                                    for i, s in enumerate(all_seats)))
    took = time.perf_counter() - start
    rss_end = rss_mb(pid)
    for seats in all_seats:
        for s in seats:
            await s.ws.close()
    lat_ms = sorted(x * 1000 for x in lat)

    def pct(p: float) -> float:
        return round(lat_ms[min(len(lat_ms) - 1, int(p * len(lat_ms)))], 1) if lat_ms else 0.0

    return {"tables": tables, "connections": 2 * tables, "seconds": round(took, 1),
            "pace_s": pace, "actions": sum(counts), "actions_per_s": round(sum(counts) / took, 1),
            "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99),
                           "max": round(lat_ms[-1], 1) if lat_ms else 0.0,
                           "mean": round(statistics.fmean(lat_ms), 1) if lat_ms else 0.0},
            "open_seconds": round(opened, 1),
            "server_rss_mb": {"start": round(rss0, 1), "tables_open": round(rss_open, 1),
                              "end": round(rss_end, 1)},
            "kb_per_table": round((rss_end - rss0) * 1024 / max(1, tables), 1),
            "load_avg": os.getloadavg()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--pace", type=float, default=2.0,
                   help="mean seconds between a table's actions (a person's pace)")
    p.add_argument("--db", default=None, help="database URL (default: a private SQLite file)")
    args = p.parse_args()
    tables = max(1, min(args.tables, 2000))
    seconds = max(1.0, min(args.seconds, 600.0))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * tables + 256)), hard))
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = dict(os.environ, YACHT_CACHE_DIR=f"{tmp}/cache", YACHT_CONFIG_DIR=f"{tmp}/cfg")
        db = args.db or f"{tmp}/bench.sqlite3"
        server = subprocess.Popen(
            [sys.executable, "-m", "yacht", "web", "--port", str(port), "--db", db,
             "--log-level", "warning"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            result = asyncio.run(asyncio.wait_for(
                run(tables, seconds, args.pace, port, server.pid), seconds + 600))
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
    result["store"] = "sqlite" if args.db is None else "given"
    print(json.dumps(result, indent=1))
    lm = result["latency_ms"]
    print(f"| {tables} | {result['seconds']} s | {result['actions_per_s']} | {lm['p50']} | "
          f"{lm['p99']} | {lm['max']} | {result['kb_per_table']} KB | "
          f"{result['load_avg'][0]:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
