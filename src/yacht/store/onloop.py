"""PostgreSQL's group commit on the event loop that asks for it.

A server process's moves are saved by :class:`yacht.store.core._Batcher`'s writer thread:
each group commit woke that thread (a lock's notify), the thread took the interpreter
from the event loop and gave it back, and woke the loop again with the answers (a write
to its pipe). With four processes on two cores those hand-overs were a seventh of a
process's time (benchmarks/README.md, issue 28). Here the same one-statement group commit
is sent on the loop itself with psycopg's asynchronous connection: a move waits on the
database's socket like any other, and nothing changes thread.

Only the usual case is done here (each game open and at the action that comes next, in
one statement that is its own transaction); what is left, or any error, goes the general
way on a thread (:meth:`Store._append_many`) before the next group starts, so a game's
actions keep their order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import _Append, _Batcher

log = logging.getLogger("yacht.store")


def settle(batch: Sequence[_Append]) -> None:
    """Tell each item's waiter (and callback) its outcome."""
    for item in batch:
        item.done.set()
        if item.then is not None:
            try:
                item.then(item.error)
            except Exception:  # (a caller's callback must not stop the writer)
                log.exception("a saved action's callback")


class LoopWriter:
    """The group commit of one event loop's moves (created on that loop, used there only)."""

    def __init__(self, batcher: _Batcher, connect: Callable[[], Any],
                 setup: Sequence[str]) -> None:
        self.batcher = batcher
        self.connect = connect  # -> awaitable of a psycopg.AsyncConnection in autocommit
        self.setup = list(setup)
        self.waiting: list[_Append] = []
        self.task: asyncio.Task[None] | None = None
        self.conn: Any = None
        self.written = 0  # actions written here (the rest went the general way)
        self.round_trips = 0  # statements sent, for the benchmarks

    def submit(self, item: _Append) -> None:
        """Queue ``item`` for the next group commit; its ``then`` is called on this loop."""
        self.waiting.append(item)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(
                self._drain(), name="yacht-store-writer")

    async def _drain(self) -> None:
        try:
            while self.waiting:
                most = self.batcher.most
                batch, self.waiting = self.waiting[:most], self.waiting[most:]
                await self._commit(batch)
        finally:
            self.task = None

    async def _commit(self, batch: list[_Append]) -> None:
        slow: Sequence[_Append] = batch
        try:
            slow = await self._write(batch)
            if slow:  # anything unusual: the general path, with its checks and errors
                await asyncio.get_running_loop().run_in_executor(
                    None, self.batcher.store._append_many, slow)
        except BaseException as e:  # never leave a move waiting (cancelled: the loop ends)
            for item in slow:
                if item.error is None:
                    item.error = self.batcher.failed(e)
            if not isinstance(e, Exception):
                settle(batch)
                raise
        settle(batch)

    async def _write(self, batch: list[_Append]) -> list[_Append]:
        """What it can of ``batch`` in one statement; the items left, in order (on an
        error: the whole batch: the statement is atomic, nothing of it was written)."""
        plan = self.batcher.writer.plan(batch)
        if plan is None:
            return list(batch)
        statement, params, runs = plan
        try:
            if self.conn is None or self.conn.closed:
                self.conn = await self.connect()
                async with self.conn.cursor() as cur:
                    for setting in self.setup:
                        await cur.execute(setting)
            async with self.conn.cursor() as cur:
                await cur.execute(statement, params)
                rows = await cur.fetchall()
        except asyncio.CancelledError:
            await self._close()
            raise
        except Exception:
            await self._close()  # and a new connection next time
            return list(batch)
        self.round_trips += 1
        left = self.batcher.writer.left(batch, runs, {row[0] for row in rows})
        self.written += len(batch) - len(left)
        return left

    async def _close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                await conn.close()
            except Exception:
                pass

    async def aclose(self) -> None:
        """Finish what waits, then close the connection."""
        while self.task is not None:
            try:
                await asyncio.shield(self.task)
            except Exception:  # (its moves have their errors)
                pass
        await self._close()
