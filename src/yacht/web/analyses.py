"""The analyses of finished games for ``GET /api/games/ID/analysis``: each computed once,
in a pool of its own, and kept in memory for the next asker."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

import orjson
from fastapi.responses import JSONResponse

from yacht.engine import Record
from yacht.rules import UnknownVariant

from .protocol import ErrorCode, error_body
from .tasks import Tasks

__all__ = ["ANALYSES_AT_ONCE", "ANALYSES_KEPT", "ANALYSIS_WAIT", "QUICK_AFTER", "Analyses",
           "AnalysisRefused"]

#: game analyses kept in memory (each some tens of kB of JSON)
ANALYSES_KEPT = 32
#: how long an analysis request waits for the answer before it is told to ask again
ANALYSIS_WAIT = 20.0
#: ... and for the chances of winning before it is answered without them
QUICK_AFTER = 3.0
#: analyses under way or waiting for a thread at most (more: 503 busy, try again later)
ANALYSES_AT_ONCE = 8


class AnalysisRefused(Exception):
    """A game the server does not analyse: a status, a code and one line."""

    def __init__(self, status: int, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code: ErrorCode = code

    def response(self) -> JSONResponse:
        return JSONResponse(error_body(str(self), self.code), status_code=self.status)


class Analyses:
    """The analyses of finished games (``yacht.strategy.analysis``), as the JSON of
    ``yacht analyse --json``. Each is computed once, in a pool of its own (the first of
    a variant builds its tables, which may take minutes: neither the event loop nor the
    tables' computer players wait for it), and kept by game id and number of actions;
    requests for a game whose analysis is under way wait for that one.

    The chances of winning (2 or more players) are most of the work: the first analysis
    of a variant builds its score distributions (seconds to a minute, once), and the
    two-column Ancient Yacht games simulate thousands of games per player and turn.
    While they are worked out, an asker may have the rest of the analysis (``quick``:
    computed apart, in a pool of one thread, in about a second), with how far the
    chances are (``win_progress``: [done, total])."""

    def __init__(self, kept: int = ANALYSES_KEPT, workers: int = 2,
                 at_once: int = ANALYSES_AT_ONCE) -> None:
        self.kept = kept
        self.at_once = at_once
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="yacht-analysis")
        self.quick_pool = ThreadPoolExecutor(1, thread_name_prefix="yacht-analysis-quick")
        # key: (game id, number of actions, with the chances of winning)
        self.done: OrderedDict[tuple[str, int, bool], bytes] = OrderedDict()
        self.running: dict[tuple[str, int, bool], asyncio.Future[bytes]] = {}
        self.tasks = Tasks("analyses")
        # how far the chances of winning of a game under way are: (done, total)
        self.progress: dict[tuple[str, int], tuple[int, int]] = {}
        self.computed = 0  # whole analyses computed (not taken from memory): for the tests
        self.computed_quick = 0

    async def get(self, game_id: str, actions: int, record: Callable[[], Awaitable[Record]],
                  wait: float | None = None,
                  quick_after: float | None = None) -> tuple[bytes, bool] | None:
        """The analysis of the game with ``actions`` actions (``record`` loads it) and
        whether it is whole; None when nothing is ready within ``wait`` seconds (it goes
        on: ask again). With ``quick_after``: when the whole analysis is not ready after
        that many seconds, the analysis without the chances of winning, once ready."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        whole = (game_id, actions, True)
        hit = self._hit(whole)
        if hit is not None:
            return hit, True
        first = wait if quick_after is None else \
            quick_after if wait is None else min(wait, quick_after)
        body = await self._wait(self._start(whole, record), first)
        if body is not None:
            return body, True
        if quick_after is None:
            return None
        quick = (game_id, actions, False)
        body = self._hit(quick)
        if body is None:
            left = None if wait is None else max(0.0, wait - (loop.time() - began))
            body = await self._wait(self._start(quick, record), left)
        if body is None:
            return None
        # the whole one may have come meanwhile
        hit = self._hit(whole)
        if hit is not None:
            return hit, True
        far = self.progress.get((game_id, actions))
        if far is not None:
            body = orjson.dumps({**orjson.loads(body), "win_progress": list(far)})
        return body, False

    def _hit(self, key: tuple[str, int, bool]) -> bytes | None:
        hit = self.done.get(key)
        if hit is not None:
            self.done.move_to_end(key)
        return hit

    def _start(self, key: tuple[str, int, bool],
               record: Callable[[], Awaitable[Record]]) -> asyncio.Future[bytes]:
        running = self.running.get(key)
        if running is None:
            if key[2] and sum(1 for k in self.running if k[2]) >= self.at_once:
                raise AnalysisRefused(503, "busy", "the server is analysing other games: "
                                                   "try again in a minute")
            running = self.tasks.spawn(self._compute(key, record), "yacht-analysis")
            # its failure is seen even when every asker has gone
            running.add_done_callback(lambda f: f.cancelled() or f.exception())
            self.running[key] = running
        return running

    @staticmethod
    async def _wait(task: asyncio.Future[bytes], seconds: float | None) -> bytes | None:
        # a browser that goes away does not stop the analysis the others wait for
        try:
            return await asyncio.wait_for(asyncio.shield(task), seconds)
        except TimeoutError:
            return None

    async def _compute(self, key: tuple[str, int, bool],
                       record: Callable[[], Awaitable[Record]]) -> bytes:
        whole = key[2]
        try:
            rec = await record()
            loop = asyncio.get_running_loop()
            where = (key[0], key[1])

            def tell(done: int, total: int) -> None:
                self.progress[where] = (done, total)

            out = await loop.run_in_executor(self.pool if whole else self.quick_pool,
                                             _analysis_json, rec, whole,
                                             tell if whole else None)
            if whole:
                self.computed += 1
                self.done.pop((key[0], key[1], False), None)
            else:
                self.computed_quick += 1
            self.done[key] = out
            while len(self.done) > self.kept:
                self.done.popitem(last=False)
            return out
        finally:
            self.running.pop(key, None)
            if whole:
                self.progress.pop((key[0], key[1]), None)

    async def close(self) -> None:
        await self.tasks.close(timeout=1.0)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.quick_pool.shutdown(wait=False, cancel_futures=True)


def _analysis_json(record: Record, whole: bool = True,
                   progress: Callable[[int, int], None] | None = None) -> bytes:
    """The analysis of ``record`` as JSON (in a worker thread); not ``whole``: without the
    chances of winning (``win`` null, ``win_pending`` true when there are 2+ players)."""
    from yacht.strategy.analysis import analyse

    try:
        if whole:
            return orjson.dumps(analyse(record, progress=progress).to_json())
        out = analyse(record, win_games=0).to_json()
    except (ValueError, UnknownVariant) as e:  # RecordError, UnsupportedRuleset, options
        raise AnalysisRefused(409, "not_analysable",
                              f"this game cannot be analysed: {e}") from None
    if len(out["players"]) >= 2:
        out.update(win_pending=True, retry=2)
    return orjson.dumps(out)
