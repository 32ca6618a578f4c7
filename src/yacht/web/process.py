"""A server process of its own: its garbage collected by the clock, what it loaded at
start-up kept out of every collection."""

from __future__ import annotations

import asyncio

__all__ = ["GC_FULL", "GC_MIDDLE", "GC_YOUNG", "collect_garbage", "freeze_start_up"]

#: a server's garbage collections, by the clock (seconds): the young objects, the middle
#: generation, everything. The middle one goes with every young one: what a server keeps
#: past a tenth of a second (a table's new position, its cards) mostly lives until the
#: table's next move, and walking it again a second later only cost time (the collector
#: was an eighth of a busy process's loop; measured with benchmarks/bench_web.py and
#: py-spy, issue 28)
GC_YOUNG, GC_MIDDLE, GC_FULL = 0.1, 0.1, 600.0


async def collect_garbage(young: float = GC_YOUNG, middle: float = GC_MIDDLE,
                          full: float = GC_FULL) -> None:
    """Collect garbage by the clock while this runs, instead of by CPython's count.

    CPython starts a young collection when the objects made outnumber the objects
    freed by 700 (or the threshold). A server with thousands of tables frees old
    objects as fast as it makes new ones (each move replaces a game's position, each
    message a connection's waiting tasks), so that count stayed low while the young
    generation grew to 400,000 objects: a young collection then took 0.4 s and a
    middle one 0.6-0.8 s, and every table waited (measured with 5,000 tables:
    benchmarks/README.md). Collected by the clock, the young generation holds a tenth
    of a second of objects, the middle one ``middle`` seconds' worth, and only the full
    collection (every ``full`` seconds) walks everything. Automatic collection is off meanwhile
    and back on when this stops.
    """
    import gc

    every_middle = max(1, round(middle / young))
    every_full = max(every_middle, round(full / young))
    was_on = gc.isenabled()
    gc.disable()
    try:
        tick = 0
        while True:
            await asyncio.sleep(young)
            tick += 1
            gc.collect(2 if tick % every_full == 0 else 1 if tick % every_middle == 0 else 0)
    finally:
        if was_on:
            gc.enable()


def freeze_start_up() -> None:
    """What is loaded at start-up (modules, rules, the app) lives as long as the
    process: frozen out of every collection."""
    import gc

    gc.collect()
    gc.freeze()
