"""A server process collects its garbage by the clock (yacht.web.app.collect_garbage):
cycles go within the young interval, every generation gets its turn, and CPython's
own collections are back once it stops."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from yacht.web.process import collect_garbage


class Node:
    def __init__(self) -> None:
        self.me: Any = self  # a cycle: only a collection frees it


def test_garbage_goes_by_the_clock_and_automatic_collection_comes_back() -> None:
    assert gc.isenabled()
    seen: list[int] = []

    def heard(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    async def run() -> None:
        collector = asyncio.create_task(collect_garbage(young=0.01, middle=0.05, full=0.2))
        await asyncio.sleep(0)
        assert not gc.isenabled()  # CPython's own count no longer starts collections
        gone = asyncio.Event()
        node = Node()
        ref = weakref.ref(node, lambda _: gone.set())
        del node
        assert ref() is not None  # a cycle outlives its last name
        await asyncio.wait_for(gone.wait(), 5)
        while not {0, 1, 2} <= set(seen):  # bounded by the wait_for around run()
            await asyncio.sleep(0.01)
        collector.cancel()
        await asyncio.gather(collector, return_exceptions=True)

    gc.callbacks.append(heard)
    try:
        asyncio.run(asyncio.wait_for(run(), 10))
    finally:
        gc.callbacks.remove(heard)
        gc.enable()
    assert seen.count(0) > seen.count(1) > seen.count(2) >= 1
    assert gc.isenabled()


def test_a_collector_started_with_collection_off_leaves_it_off() -> None:
    gc.disable()
    try:
        async def run() -> None:
            collector = asyncio.create_task(collect_garbage(young=0.01))
            await asyncio.sleep(0.05)
            collector.cancel()
            await asyncio.gather(collector, return_exceptions=True)

        asyncio.run(run())
        assert not gc.isenabled()
    finally:
        gc.enable()
