"""A table's work as steps: what it computes, and where it waits for the store.

A command's path through a :class:`~yacht.session.table.Table` is written once, as a
generator that yields a :data:`Step` wherever it must wait for the store (a move
saved before it is played, a finished game's results) and is sent back the step's
answer. Two drivers run it:

- :func:`run`, for the terminal, the line game, tests and any thread: each step is done
  there and then (the store answers before the next line runs);
- :func:`run_async`, for a server's event loop: the computing happens on the loop, and
  the loop goes on with other tables while a move's group commit is written (no thread
  per move in flight: handing each move to a thread and back cost a third of a busy
  server's CPU, issue 28).

>>> def steps():
...     got = yield Blocking(lambda: 20)
...     return got + 1
>>> run(steps())
21
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from yacht.engine import Action

__all__ = ["Blocking", "Offload", "Save", "Step", "Steps", "run", "run_async"]

T = TypeVar("T")


class _Appends(Protocol):
    def append_action(self, game_id: str, index: int, action: Action,
                      new: bool = False) -> None: ...


@dataclass(frozen=True)
class Save:
    """Write ``action`` as action ``index`` of the stored game (durable when answered).
    Answers None, or raises what the store raises."""

    store: _Appends
    game_id: str
    index: int
    action: Action
    new: bool = False

    def run(self) -> None:
        self.store.append_action(self.game_id, self.index, self.action, new=self.new)


@dataclass(frozen=True)
class Blocking:
    """Any other work that waits (the store's start of a game, a finished game's
    results, a read): ``fn()``, run with the table's lock held. Answers what it returns."""

    fn: Callable[[], Any]

    def run(self) -> Any:
        return self.fn()


Step = Save | Blocking
#: a table's work: yields steps, is sent their answers, returns ``T``
Steps = Generator[Step, Any, T]
#: how a driver on an event loop runs blocking work: on a thread, awaited
Offload = Callable[[Callable[[], Any]], Awaitable[Any]]


def run(steps: Steps[T]) -> T:
    """Run ``steps`` here, each step done as it comes; returns what they return."""
    answer: Any = None
    error: BaseException | None = None
    while True:
        try:
            step = steps.throw(error) if error is not None else steps.send(answer)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        answer, error = None, None
        try:
            answer = step.run()
        except Exception as e:  # (into the steps, where the store's errors are handled)
            error = e


async def run_async(steps: Steps[T], lock: threading.RLock | threading.Lock,
                    offload: Offload) -> T:
    """Run ``steps`` on the running event loop: between two steps they hold ``lock``
    (never across a wait); a :class:`Save` waits for the store's group commit without a
    thread when the store can (``append_action_nowait``), any other step runs on a
    thread through ``offload`` with ``lock`` held there."""
    loop = asyncio.get_running_loop()
    answer: Any = None
    error: BaseException | None = None
    while True:
        with lock:
            try:
                step = steps.throw(error) if error is not None else steps.send(answer)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
        answer, error = None, None
        try:
            if not (isinstance(step, Save) and await _saved(loop, step)):
                answer = await offload(_holding(lock, step))
        except Exception as e:
            error = e


def _holding(lock: threading.RLock | threading.Lock, step: Step) -> Callable[[], Any]:
    def work() -> Any:
        with lock:
            return step.run()
    return work


async def _saved(loop: asyncio.AbstractEventLoop, step: Save) -> bool:
    """``step`` handed to the store's writer and its commit awaited (no thread waits);
    False: this store cannot (no group commit): the step is still to do."""
    nowait = getattr(step.store, "append_action_nowait", None)
    if nowait is None:
        return False
    done: asyncio.Future[BaseException | None] = loop.create_future()
    settler = _settlers.get(loop)
    if settler is None:
        settler = _settlers[loop] = _Settler(loop)
    if not nowait(step.game_id, step.index, step.action, step.new,
                  partial(settler.settle, done)):
        return False
    error = await done
    if error is not None:
        raise error
    return True


class _Settler:
    """Hands the writer's answers to the loop: one wake-up of the loop per group commit,
    not one per move (each wake-up is a write to the loop's pipe and a turn of it)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.home = threading.get_ident()  # the loop's thread (made there, by _saved)
        self.lock = threading.Lock()
        self.due: list[tuple[asyncio.Future[BaseException | None], BaseException | None]] = []

    def settle(self, done: asyncio.Future[BaseException | None],
               error: BaseException | None) -> None:  # (the writer's thread, or the loop's)
        if threading.get_ident() == self.home:  # (a store that writes on the loop)
            if not done.done():
                done.set_result(error)
            return
        with self.lock:
            self.due.append((done, error))
            first = len(self.due) == 1
        if first:
            self.loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        with self.lock:
            due, self.due = self.due, []
        for done, error in due:
            if not done.done():
                done.set_result(error)


_settlers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Settler] = \
    weakref.WeakKeyDictionary()
