"""The uvicorn server of ``yacht web``, in one process or several: each process, told to
stop (Ctrl-C, SIGTERM), tells its browsers to reconnect before it closes their sockets,
and a page then reconnects quietly (to another process, or to this one when it is back)
instead of saying the connection is lost.

``serve(config)``: one process (the app made in it); ``serve_workers(config)``: what
``uvicorn.run`` does with an import string, with this server in every process (uvicorn's
``Multiprocess`` makes its own workers with its own server: :class:`Supervisor` makes
them with this one).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import time
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from .hub import serving

__all__ = ["Server", "Supervisor", "Worker", "serve", "serve_workers"]

logger = logging.getLogger("uvicorn.error")  # (where uvicorn's supervisor says the same)


class Server(uvicorn.Server):
    """uvicorn's server, which tells the browsers of the hubs serving in its process to
    reconnect (:meth:`yacht.web.hub.Hub.goodbye`) when it is told to stop, and gives
    the goodbyes time to go out before it closes the sockets (a browser whose socket
    is closed without one says the connection is lost)."""

    _yacht_loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self._yacht_loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: Any) -> None:
        # (a signal handler: the goodbyes are said on the loop, as soon as it runs)
        loop = self._yacht_loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._goodbye, loop)
        super().handle_exit(sig, frame)

    @staticmethod
    def _goodbye(loop: asyncio.AbstractEventLoop) -> None:
        for hub in serving(loop):
            hub.goodbye()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        hubs = serving(asyncio.get_running_loop())
        # said (or given up to a second) before uvicorn closes the sockets
        await asyncio.gather(*(hub.goodbye_sent() for hub in hubs))
        await super().shutdown(sockets)


class Worker(Process):
    """One worker process of :class:`Supervisor`: it runs :class:`Server`, and stops as
    if told to (its browsers told to reconnect) when its supervisor is gone: a supervisor
    killed (SIGKILL, out of memory) left its workers serving on the port, with nothing
    left to stop them or to make new ones."""

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = Server(config=self.config)
        return self._server

    _supervisor = 0  # (in the worker: its supervisor's process id)

    def target(self, sockets: list[socket.socket] | None = None) -> None:  # pragma: no cover
        # (in the worker: the supervisor's end of the health pipe came with this object;
        # closed here, the pipe ends when the supervisor does)
        self.parent_conn.close()
        self._supervisor = os.getppid()
        super().target(sockets)

    def always_pong(self) -> None:  # pragma: no cover (the worker's health thread)
        try:
            while True:
                self.pong()
        except (EOFError, OSError):
            pass
        # the pipe ended: the supervisor stops this worker (a SIGTERM comes with it), or
        # it is gone (this worker is then another process's child)
        for _ in range(100):
            if self.server.should_exit:
                return
            if os.getppid() != self._supervisor:
                logger.warning("The supervisor (process %d) is gone: this worker stops.",
                               self._supervisor)
                self.server.handle_exit(signal.SIGTERM, None)
                return
            time.sleep(0.05)


class Supervisor(Multiprocess):
    """uvicorn's ``Multiprocess`` (0.54) whose workers run :class:`Server`.

    uvicorn's supervisor makes each worker (``Process``) where it needs one: at start,
    when one died, on SIGHUP (one at a time) and SIGTTIN. These are those methods as
    uvicorn has them, each making a :class:`Worker` instead
    (tests/web/test_web_goodbye.py checks that every one of uvicorn's that makes a
    worker is here)."""

    def init_processes(self) -> None:
        for _ in range(self.processes_num):
            process = Worker(self.config, self.sockets)
            process.start()
            self.processes.append(process)

    def restart_all(self) -> None:
        for idx, old_process in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            new_process = Worker(self.config, self.sockets)
            new_process.start()
            if not new_process.wait_until_ready(self.config.timeout_worker_healthcheck,
                                                self.should_exit):
                new_process.kill()
                new_process.join()
                if not self.should_exit.is_set():
                    logger.error(f"New child process [{new_process.pid}] was not ready in "
                                 f"time; keeping worker [{old_process.pid}] and aborting "
                                 "the restart.")
                return
            old_process.terminate()
            old_process.join()
            self.processes[idx] = new_process

    def keep_subprocess_alive(self) -> None:
        if self.should_exit.is_set():
            return
        for idx, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # hung: killed
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                # it failed before it served: every restart would fail the same way
                logger.error(f"Child process [{process.pid}] failed to start, stopping "
                             "the parent process.")
                self.should_exit.set()
                return
            if self.should_exit.is_set():
                return
            logger.info(f"Child process [{process.pid}] died")
            process = Worker(self.config, self.sockets)
            process.start()
            self.processes[idx] = process

    def handle_ttin(self) -> None:
        logger.info("Received SIGTTIN, increasing the number of processes.")
        self.processes_num += 1
        process = Worker(self.config, self.sockets)
        process.start()
        self.processes.append(process)


def serve(config: uvicorn.Config) -> None:
    """One server process, the app already in ``config``."""
    Server(config).run()


def serve_workers(config: uvicorn.Config) -> None:
    """``uvicorn.run`` for an import string in ``config`` (its app made in each process),
    with :class:`Server` in every process: ``config.workers`` processes on one socket
    (more than one) or this process."""
    if config.workers == 1:
        config.load_app()  # (an app that cannot be imported: said before it starts)
    server = Server(config)
    try:
        if config.workers > 1:
            sock = config.bind_socket()
            Supervisor(config, sockets=[sock]).run()
        else:
            server.run()
    except KeyboardInterrupt:
        pass
    if not server.started and config.workers == 1:
        raise SystemExit(STARTUP_FAILURE)
