"""The disk's own flushes, without any server: what a move waits for with --flush each.

A server that flushes every move (`yacht web`, the default `--flush each`)
waits for the disk once per group commit: SQLite appends to its log and calls
fsync. This appends 12 KB (three pages, what a move writes) and fsyncs, in a
loop, every 2 ms, for ``--seconds``; ``--checkpoint N`` adds a second thread
that writes N random 4 KB pages into another file and fsyncs it every 0.1 s,
as a checkpoint does. It prints the flushes' p50, p99, p99.9 and max and how
many took over 50 ms. Files go to a private temporary folder in ``--dir``
(default: the system's temporary folder), removed at the end.

    .venv/bin/python benchmarks/bench_disk.py
    .venv/bin/python benchmarks/bench_disk.py --checkpoint 200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import threading
import time


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--checkpoint", type=int, default=0, metavar="PAGES",
                   help="pages a second thread writes and flushes every 0.1 s")
    p.add_argument("--dir", default=None, help="where the files go (a temporary folder)")
    args = p.parse_args()
    seconds = min(max(args.seconds, 1.0), 600.0)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        stop = time.monotonic() + seconds
        flushes: list[float] = []

        def log() -> None:
            fd = os.open(os.path.join(tmp, "log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            try:
                while time.monotonic() < stop:
                    os.write(fd, os.urandom(12288))
                    t = time.perf_counter()
                    os.fsync(fd)
                    flushes.append((time.perf_counter() - t) * 1000)
                    time.sleep(0.002)
            finally:
                os.close(fd)

        def checkpoint(pages: int) -> None:
            size = 200 << 20
            fd = os.open(os.path.join(tmp, "db"), os.O_RDWR | os.O_CREAT)
            try:
                os.ftruncate(fd, size)
                while time.monotonic() < stop:
                    for _ in range(pages):
                        os.pwrite(fd, os.urandom(4096), random.randrange(0, size, 4096))
                    os.fsync(fd)
                    time.sleep(0.1)
            finally:
                os.close(fd)

        threads = [threading.Thread(target=log)]
        if args.checkpoint > 0:
            threads.append(threading.Thread(target=checkpoint, args=(args.checkpoint,)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    flushes.sort()
    n = len(flushes)

    def pct(q: float) -> float:
        return round(flushes[min(n - 1, int(q * n))], 2)

    out = {"seconds": seconds, "checkpoint_pages": args.checkpoint, "flushes": n,
           "flush_ms": {"p50": pct(0.5), "p99": pct(0.99), "p99.9": pct(0.999),
                        "max": round(flushes[-1], 1)},
           "over_50ms": sum(1 for x in flushes if x > 50),
           "load_avg": os.getloadavg()}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
