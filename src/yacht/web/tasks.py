"""The background work of a server: every task started is kept, and awaited when it stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["Tasks"]

log = logging.getLogger("yacht.web")

T = TypeVar("T")


class Tasks:
    """Tasks started for a part of the server (a hub, a connection...): kept until they
    end, a failure logged, and all of them cancelled and awaited by :meth:`close`.

    >>> async def demo() -> int:
    ...     tasks = Tasks("demo")
    ...     task = tasks.spawn(asyncio.sleep(10), "sleeper")
    ...     await tasks.close()
    ...     return len(tasks), task.cancelled()
    >>> asyncio.run(demo())
    (0, True)
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def __len__(self) -> int:
        return len(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
        """Run ``coro`` in a task of its own, kept here until it ends."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        if self.closed:
            task.cancel()  # (a late start while stopping: it does not outlive us)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: task %s failed", self.owner, task.get_name(),
                      exc_info=task.exception())

    async def close(self, timeout: float = 5.0) -> None:
        """Cancel every task and wait for them (at most ``timeout`` seconds)."""
        self.closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
