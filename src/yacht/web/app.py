"""The web server: the page, a JSON API beside it, and a WebSocket per table.

``make_app`` puts the parts together: the gate every request passes first
(:mod:`~yacht.web.guard`: allowed Host names, body size, security headers), the error
handlers (:mod:`~yacht.web.errors`), the page (:mod:`~yacht.web.pages`), the JSON API
(:mod:`~yacht.web.api`), the tables' sockets (:mod:`~yacht.web.channel`) over the hub
(:mod:`~yacht.web.hub`), and the background work, kept and awaited when the server
stops. The protocol is in ``PROTOCOL.md`` beside this file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from types import EllipsisType
from typing import Any

from fastapi import FastAPI, WebSocket
from fastapi.responses import JSONResponse

from yacht.store import Store

from .analyses import ANALYSIS_WAIT, QUICK_AFTER, Analyses
from .api import router as api_router
from .channel import (
    BURST,
    HELLO_WITHIN,
    RATE,
    SEND_WITHIN,
    WATCH_EVERY,
    Limits,
    client_address,
    serve_group,
    serve_table,
    watch_transports,
)
from .errors import STATUS, install_handlers
from .guard import CSP, LOCAL_NAMES, Guard
from .hub import Hub
from .limits import (
    AddressRate,
    OpenSockets,
    PerAddress,
    configured,
    configured_messages,
    configured_sockets,
)
from .news import News, make_news
from .pages import router as pages_router
from .process import collect_garbage, freeze_start_up
from .protocol import MAX_BODY, MAX_MESSAGE, error_body
from .tasks import Tasks

__all__ = ["CSP", "MAX_MESSAGE", "from_environment", "make_app"]

log = logging.getLogger("yacht.web")


def make_app(store: Store, *, strategy_factory: Any = None, unload_after: float = 600.0,
             rate: float = RATE, burst: int = BURST, news: News | None = None,
             close_store: bool = False, analysis_wait: float = ANALYSIS_WAIT,
             quick_after: float = QUICK_AFTER, timed_gc: bool = False,
             allowed_hosts: Iterable[str] | None = LOCAL_NAMES,
             hello_within: float = HELLO_WITHIN, send_within: float = SEND_WITHIN,
             watch_every: float = WATCH_EVERY, max_body: int = MAX_BODY,
             seeds: Callable[[], bytes] | None = None,
             new_tables: tuple[int, float] | None | EllipsisType = ...,
             sockets: int | None | EllipsisType = ...,
             messages: tuple[float, int] | None | EllipsisType = ...) -> FastAPI:
    """The server for ``store`` (closed with the server only if ``close_store``).

    ``news``: how this process hears of the others (Redis) when there are several;
    ``allowed_hosts``: the Host names it answers (None or ``*``: any); ``rate`` and
    ``burst``: the messages a connection may send a second, and at once;
    ``hello_within``, ``send_within``: how long a socket's hello may take, and a send to
    a browser before it counts as not reading; ``analysis_wait``: how long a request
    for a game's analysis waits before it is answered 202 (under way: ask again);
    ``quick_after``: how long it waits for the chances of winning before it takes the
    analysis without them; ``timed_gc``: a server process of its own, whose garbage is
    collected by the clock (:func:`~yacht.web.process.collect_garbage`); ``seeds``: where
    new games' secret seeds come from (default: fresh random ones); ``new_tables``: the
    tables an address may make, in so many seconds (None: no limit; default: as
    ``$YACHT_NEW_TABLES`` says, :func:`~yacht.web.limits.configured`); ``sockets``: the
    WebSockets an address may hold open (None: no limit; default: as ``$YACHT_SOCKETS``
    says, :func:`~yacht.web.limits.configured_sockets`); ``messages``: the messages all
    the WebSockets of an address may send a second, and at once (None: no limit;
    default: as ``$YACHT_MESSAGES`` says, else so many times ``rate`` and ``burst``,
    :func:`~yacht.web.limits.configured_messages`)."""
    hub = Hub(store, strategy_factory=strategy_factory, news=news, seeds=seeds)
    analyses = Analyses()
    budget = configured_messages(rate, burst) if messages is ... else messages
    limits = Limits(rate, burst, hello_within, send_within,
                    AddressRate(*budget) if budget is not None else None)
    background = Tasks("server")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(max(1.0, unload_after / 10))
                await hub.unload_idle(unload_after)

        await hub.launch()
        background.spawn(sweep(), "yacht-unload")
        background.spawn(watch_transports(hub, watch_every, send_within), "yacht-sockets")
        if timed_gc:
            freeze_start_up()
            background.spawn(collect_garbage(), "yacht-gc")
        log.info("serving", extra={"database": store.dialect,
                                   "news": type(hub.news).__name__,
                                   "server": hub.news.me or "single"})
        try:
            yield
        finally:
            await background.close()
            await analyses.close()
            await hub.close()
            await store.aclose_loop()  # (the moves this loop writes: in, its connection closed)
            if close_store:
                store.close()
            log.info("stopped")

    app = FastAPI(title="yacht", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json",
                  description="The Yacht dice family: variants, rules, scoring, online tables, "
                              "high scores and statistics. The same shapes as the command "
                              "line's --json; every error is {\"error\": ..., \"code\": ...}.")
    app.state.hub = hub
    tables = configured() if new_tables is ... else new_tables
    app.state.new_tables = PerAddress(*tables) if tables else PerAddress(None)
    app.state.analyses = analyses
    app.state.settings = {"analysis_wait": analysis_wait, "quick_after": quick_after}
    hosts = None if allowed_hosts is None or "*" in allowed_hosts else frozenset(
        h.lower() for h in allowed_hosts)
    app.add_middleware(Guard, hosts=hosts, max_body=max_body)
    install_handlers(app, store.location)
    app.include_router(pages_router)
    app.include_router(api_router)

    open_sockets = OpenSockets(configured_sockets() if sockets is ... else sockets)
    app.state.open_sockets = open_sockets

    @contextlib.asynccontextmanager
    async def counted(ws: WebSocket) -> AsyncIterator[bool]:
        """The socket counted against its address's limit (False: refused, closed): an
        IPv6 address's /64 as one, as its messages' budget (``limits.address_key``)."""
        address = client_address(ws)
        if not open_sockets.take(address):
            await ws.close(code=1013)  # (before its accept: the handshake is refused)
            yield False
            return
        try:
            yield True
        finally:
            open_sockets.give(address)

    @app.get("/ws/{table_id}", include_in_schema=False)
    @app.get("/ws/d/{group_id}", include_in_schema=False)
    async def socket_by_plain_request() -> JSONResponse:
        """A socket's address asked without the WebSocket handshake (a link followed, a
        script's GET): what it is, not "no such page"."""
        return JSONResponse(error_body(
            "this address is a WebSocket: open it with the WebSocket protocol (the table's "
            "page at /t/ID does; PROTOCOL.md), not a plain request", "upgrade_required"),
            status_code=STATUS["upgrade_required"],
            headers={"Upgrade": "websocket", "Connection": "Upgrade"})

    @app.websocket("/ws/d/{group_id}")
    async def group_socket(ws: WebSocket, group_id: str) -> None:
        async with counted(ws) as taken:
            if taken:
                await serve_group(ws, group_id, hub, limits)

    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        async with counted(ws) as taken:
            if taken:
                await serve_table(ws, table_id, hub, limits)

    return app


def from_environment() -> FastAPI:
    """The application of one worker process of ``yacht web --workers N``: the database
    from ``$YACHT_DB``, the news from ``$YACHT_REDIS``, the flush from ``$YACHT_FLUSH``,
    the Host names from ``$YACHT_ALLOWED_HOSTS``, the log lines as ``$YACHT_LOG_LEVEL``
    and ``$YACHT_LOG_FORMAT`` say (uvicorn calls this in each)."""
    import os

    from yacht.store import open_store

    level = os.environ.get("YACHT_LOG_LEVEL")
    if level:   # (a worker process started afresh: its log lines went nowhere)
        from .logs import setup_logging

        setup_logging(level, os.environ.get("YACHT_LOG_FORMAT") or None)

    store = open_store(os.environ.get("YACHT_DB") or None)
    store.group_commits(flush=os.environ.get("YACHT_FLUSH") or "each")
    hosts = os.environ.get("YACHT_ALLOWED_HOSTS")
    return make_app(store, news=make_news(os.environ.get("YACHT_REDIS")), close_store=True,
                    timed_gc=True,
                    allowed_hosts=hosts.split(",") if hosts is not None else LOCAL_NAMES)
