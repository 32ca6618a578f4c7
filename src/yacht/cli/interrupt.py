"""Ctrl-C for long commands: stop within a second, leave no worker and no half-written file.

A long piece of work (building a solver table, a simulation) runs on a helper
thread while the main thread waits; Python delivers Ctrl-C to the main thread
at once, even while the helper is deep in machine code. The main thread then
sets the ``stop`` event (work that checks it ends at its next step: a
simulation between batches, killing its worker processes) and waits a moment.
Work still running after that (a table build inside one C call) is ended with
the process: the temporary files it has open are removed first, so nothing
half-written stays behind (the files it finished were replaced atomically).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["GRACE", "run_interruptible"]

T = TypeVar("T")

#: seconds the work gets to notice ``stop`` before the process ends without it
GRACE = 0.5


def run_interruptible(fn: Callable[[threading.Event], T], grace: float = GRACE) -> T:
    """``fn(stop)`` on a helper thread; its result, or its exception raised here.

    On Ctrl-C ``stop`` is set; if ``fn`` has not returned ``grace`` seconds later the
    process exits with status 130 (``yacht: interrupted``). Off the main thread (a
    server, a test) ``fn`` simply runs here.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        return fn(stop)
    box: list[tuple[bool, object]] = []
    # (waited on instead of Thread.join: a join that Ctrl-C interrupts can mark a thread
    # that still runs as stopped)
    finished = threading.Event()

    def work() -> None:
        try:
            box.append((True, fn(stop)))
        except BaseException as e:  # handed to the main thread below
            box.append((False, e))
        finally:
            finished.set()

    helper = threading.Thread(target=work, name="yacht-work", daemon=True)
    helper.start()
    try:
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:
        stop.set()
        if not finished.wait(grace):
            _end_now()
        raise
    ok, value = box[0]
    if not ok:
        assert isinstance(value, BaseException)
        raise value
    return value  # type: ignore[return-value]


def _end_now() -> None:
    """End the process at once (exit status 130), after ending its worker processes and
    removing the temporary files it has open for writing."""
    import multiprocessing

    for child in multiprocessing.active_children():
        child.kill()
    for path in _own_temp_files():
        try:
            path.unlink()
        except OSError:
            pass
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        sys.stderr.write("yacht: interrupted\n")
        sys.stderr.flush()
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    os._exit(130)


def _own_temp_files() -> list[Path]:
    """Temporary files this process has open: the solver cache's ``.tmp-*`` files and the
    ``.NAME.PID.tmp`` files of atomic saves (Linux: from /proc/self/fd; elsewhere none)."""
    out = []
    suffix = f".{os.getpid()}.tmp"
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return []
    for fd in fds:
        try:
            target = Path(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
        name = target.name
        if (name.startswith(".tmp-") or name.endswith(suffix)) and target.is_file():
            out.append(target)
    return out
