"""Tables built behind the game: a long build started once and not waited for.

The champion's score distributions take half a minute of CPU or more for the
big variants (``benchmarks/README.md``); a new install would make its first
move wait for them. Instead its caller asks for them here: :func:`request`
starts the build once per key and process (a thread at a lower priority; the
solver's C kernels release the GIL while they run) and answers at once with
the :class:`Job`, whose :attr:`Job.fraction` tells how far it got. Meanwhile the
caller plays what it can without the table (the champion: the expert's move)
and says "being prepared (NN%)" where a person would wait.

Builds run one at a time, in the order asked (each holds hundreds of megabytes while
it runs): at most :data:`WAITING` wait behind the one under way. A request beyond that
is refused for now - its job ends at once, :attr:`Job.error` saying the server is busy,
and is not kept, so that the same table may be asked for again later - and its caller
plays on without the table as it would while waiting. A stranger at a web server can
thus not start more than one build at a time, however many tables ask.

Where a build must be waited for instead - the test suite (its choices must
not depend on timing), matches and benchmarks - :data:`ENV` set to ``wait``
makes :func:`waits` true: the callers then build where they are, as before.
:data:`RUNNER` (how a job's work runs: a daemon thread) is the tests' seam.

>>> job = request(("doc", 1), lambda progress: progress and progress(2, 4))
>>> job.join(timeout=10), job.fraction, job.error
(True, 1.0, None)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["BUSY", "ENV", "RUNNER", "WAITING", "Job", "Progress", "forget", "one_at_a_time",
           "request", "running", "waits"]

Progress = Callable[[int, int], None]

#: ``wait``: build where asked and wait (tests, matches); anything else: in the background
ENV = "YACHT_BUILDS"

#: a background build's thread runs at this niceness (Linux: per thread): the game first
NICE = 10

#: builds that may wait behind the one under way; a request beyond them is refused
WAITING = 3

#: the error of a build refused because :data:`WAITING` builds are waiting already
BUSY = "busy: other tables are being built; asked again later"


def waits() -> bool:
    """Whether a missing table is built where it is asked for (:data:`ENV` is ``wait``)
    rather than in the background."""
    return os.environ.get(ENV, "").strip().lower() == "wait"


class Job:
    """One build under way or finished: how far it got, and waiting for its end."""

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self.done = 0
        self.total = 0
        self.error: str | None = None
        self.finished = threading.Event()
        self._lock = threading.Lock()
        self._listeners: list[Progress] = []

    @property
    def fraction(self) -> float:
        """How far the build got, 0 to 1 (1 once it has ended, well or not)."""
        if self.finished.is_set():
            return 1.0
        with self._lock:
            return min(1.0, self.done / self.total) if self.total > 0 else 0.0

    @property
    def percent(self) -> int:
        """:attr:`fraction` in whole percent, below 100 until the build has ended."""
        p = int(100 * self.fraction)
        return p if self.finished.is_set() else min(99, p)

    def report(self, done: int, total: int) -> None:
        with self._lock:
            self.done, self.total = int(done), int(total)
            listeners = list(self._listeners)
        for f in listeners:
            f(done, total)

    def join(self, progress: Progress | None = None, timeout: float | None = None) -> bool:
        """Wait for the end of the build (``progress(done, total)`` told as it goes from
        now on); whether it ended within ``timeout``."""
        if progress is not None:
            with self._lock:
                self._listeners.append(progress)
                done, total = self.done, self.total
            if total > 0:
                progress(done, total)
        try:
            return self.finished.wait(timeout)
        finally:
            if progress is not None:
                with self._lock:
                    if progress in self._listeners:
                        self._listeners.remove(progress)


def _in_a_thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="yacht-background-build", daemon=True).start()


#: how a job's work is run (the tests' seam): a daemon thread by default
RUNNER: Callable[[Callable[[], None]], None] = _in_a_thread

_JOBS: dict[Hashable, Job] = {}
_LOCK = threading.Lock()
#: held by the big build under way in this process (see :func:`one_at_a_time`)
_BUILDING = threading.RLock()


def one_at_a_time() -> threading.RLock:
    """The lock a big build (score distributions, a target table) holds while it computes:
    one at a time in a process, whoever asked (a background job, an analysis), so that
    its memory is one table's. Take it inside a table's own lock, never around one."""
    return _BUILDING


def _nicer() -> None:
    try:  # (Linux: the niceness of this thread, and of the threads it starts)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError):
        pass


def request(key: Hashable, build: Callable[[Progress | None], Any]) -> Job:
    """The build of ``key``: started now by :data:`RUNNER` when no build of ``key`` was
    started in this process (it waits for the one under way), else the one started
    before (under way or ended: a build that failed is not retried, its
    :attr:`Job.error` says why); ended at once with the error :data:`BUSY` when more than
    :data:`WAITING` builds are waiting already. ``build(progress)`` builds and keeps the
    table (its own cache)."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is not None:
            return job
        job = Job(key)
        if sum(not j.finished.is_set() for j in _JOBS.values()) > WAITING:
            job.error = BUSY  # (not kept: asked again, it may start then)
            job.finished.set()
            return job
        _JOBS[key] = job

    def work() -> None:
        if RUNNER is _in_a_thread:
            _nicer()
        try:
            build(job.report)   # (its computing part: one at a time)
        except Exception as e:  # (the caller plays on without the table)
            job.error = str(e) or type(e).__name__
        finally:
            job.finished.set()

    RUNNER(work)
    return job


def running(key: Hashable) -> Job | None:
    """The build of ``key`` started in this process and not ended, if any."""
    with _LOCK:
        job = _JOBS.get(key)
    return job if job is not None and not job.finished.is_set() else None


def forget(key: Hashable | None = None) -> None:
    """Forget the ended build of ``key`` (None: every ended build), so that it may be
    requested again (a table deleted from the cache, a test)."""
    with _LOCK:
        for k in [k for k in _JOBS if key is None or k == key]:
            if _JOBS[k].finished.is_set():
                del _JOBS[k]
