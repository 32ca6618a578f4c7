"""The web server: the page, a JSON API beside it, and a WebSocket per table.

Everything served comes from this package (no CDN, no build step). Every HTTP
answer carries a strict Content-Security-Policy; WebSockets from another
origin are refused; a WebSocket message is at most 4 KiB and a connection
that floods is told, then closed. The protocol is in ``PROTOCOL.md`` beside
this file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from yacht.engine import Record
from yacht.rules import OptionError, UnknownVariant, get
from yacht.shapes import ruleset_json, score_json, score_tables_json, stats_json, variants_json
from yacht.store import Store, StoreError
from yacht.strategy.base import PLAYER_LEVELS

from .hub import Connection, Hub, LiveTable, NewTable, WebError
from .news import News, make_news

__all__ = ["CSP", "MAX_MESSAGE", "Analyses", "make_app"]

log = logging.getLogger("yacht.web")

#: the page may load only what this server serves
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; media-src 'self'; manifest-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

#: the longest WebSocket message a browser may send (bytes)
MAX_MESSAGE = 4096
#: messages a connection may send in a burst, and per second after it
BURST, RATE = 40, 20.0
#: game analyses kept in memory (each some tens of kB of JSON)
ANALYSES_KEPT = 32
#: how long an analysis request waits for the answer before it is told to ask again
ANALYSIS_WAIT = 20.0
#: ... and for the chances of winning before it is answered without them
QUICK_AFTER = 3.0
#: analyses under way or waiting for a thread at most (more: 503 busy, try again later)
ANALYSES_AT_ONCE = 8
#: refused messages after which a flooding connection is closed
FLOOD_CLOSE = 200

STATIC = Path(str(resources.files("yacht.web").joinpath("static")))


class ScoreQuestion(BaseModel):
    """Dice to score: what every box of the variant gives them."""

    variant: str = Field(description="variant id or alias (see /api/variants)")
    options: dict[str, str] = Field(default_factory=dict, description="variant options")
    dice: list[int] = Field(description="the dice, e.g. [2, 4, 4, 2, 2]")


class TableRequest(BaseModel):
    """A new table: the variant, its options, the computers' pace and the seats."""

    variant: str
    options: dict[str, str] = Field(default_factory=dict)
    speed: str = "normal"
    seats: list[dict[str, Any]] = Field(
        description='1-8 seats: {"kind": "person", "name": "Ann", "here": true} (this '
                    'browser plays it; "here": false waits for a friend) or '
                    '{"kind": ' + "|".join(f'"{lv}"' for lv in PLAYER_LEVELS)
                    + ', "name": ...}')


def _error(e: WebError | StoreError, status: int = 400) -> JSONResponse:
    code = getattr(e, "code", "store")
    if code == "not_found":
        status = 404
    elif code == "conflict":
        status = 409
    return JSONResponse({"error": str(e), "code": code}, status_code=status)


def _same_origin(origin: str, host: str | None) -> bool:
    try:
        return host is not None and urlsplit(origin).netloc.lower() == host.lower()
    except ValueError:
        return False


class AnalysisRefused(Exception):
    """A game the server does not analyse: a status, a code and one line."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code

    def response(self) -> JSONResponse:
        return JSONResponse({"error": str(self), "code": self.code}, status_code=self.status)


class Analyses:
    """The analyses of finished games (``yacht.strategy.analysis``), as the JSON of
    ``yacht analyse --json``. Each is computed once, in a pool of its own (the first of
    a variant builds its tables, which may take minutes: neither the event loop nor the
    tables' computer players wait for it), and kept by game id and number of actions;
    requests for a game whose analysis is under way wait for that one.

    The chances of winning (2 or more players) are most of the work: thousands of games
    simulated per player and turn, a minute or two for the 10-dice games. While they
    are worked out, an asker may have the rest of the analysis (``quick``: computed
    apart, in a pool of one thread, in about a second)."""

    def __init__(self, kept: int = ANALYSES_KEPT, workers: int = 2,
                 at_once: int = ANALYSES_AT_ONCE) -> None:
        self.kept = kept
        self.at_once = at_once
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="yacht-analysis")
        self.quick_pool = ThreadPoolExecutor(1, thread_name_prefix="yacht-analysis-quick")
        # key: (game id, number of actions, with the chances of winning)
        self.done: OrderedDict[tuple[str, int, bool], bytes] = OrderedDict()
        self.running: dict[tuple[str, int, bool], asyncio.Future[bytes]] = {}
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
        return (hit, True) if hit is not None else (body, False)

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
            running = asyncio.ensure_future(self._compute(key, record))
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
            out = await loop.run_in_executor(self.pool if whole else self.quick_pool,
                                             _analysis_json, rec, whole)
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

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.quick_pool.shutdown(wait=False, cancel_futures=True)


def _analysis_json(record: Record, whole: bool = True) -> bytes:
    """The analysis of ``record`` as JSON (in a worker thread); not ``whole``: without the
    chances of winning (``win`` null, ``win_pending`` true when there are 2+ players)."""
    from yacht.strategy.analysis import analyse

    try:
        if whole:
            return orjson.dumps(analyse(record).to_json())
        out = analyse(record, win_games=0).to_json()
    except (ValueError, UnknownVariant) as e:  # RecordError, UnsupportedRuleset, options
        raise AnalysisRefused(409, "not_analysable",
                              f"this game cannot be analysed: {e}") from None
    if len(out["players"]) >= 2:
        out.update(win_pending=True, retry=2)
    return orjson.dumps(out)


class TokenBucket:
    def __init__(self, burst: int = BURST, rate: float = RATE) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def make_app(store: Store, *, strategy_factory: Any = None, unload_after: float = 600.0,
             rate: float = RATE, burst: int = BURST, news: News | None = None,
             close_store: bool = False, analysis_wait: float = ANALYSIS_WAIT,
             quick_after: float = QUICK_AFTER, timed_gc: bool = False) -> FastAPI:
    """The server for ``store`` (closed with the server only if ``close_store``); ``news``:
    how this process hears of the others (Redis) when there are several; ``rate`` and
    ``burst``: the messages a connection may send a second, and at once;
    ``analysis_wait``: how long a request for a game's analysis waits before it is
    answered 202 (under way: ask again); ``quick_after``: how long it waits for the
    chances of winning before it takes the analysis without them (ask again for them);
    ``timed_gc``: a server process of its own, whose garbage is collected by the clock
    (:func:`collect_garbage`)."""
    hub = Hub(store, strategy_factory=strategy_factory, news=news)
    analyses = Analyses()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(max(1.0, unload_after / 10))
                await hub.unload_idle(unload_after)

        await hub.launch()
        sweeper = asyncio.create_task(sweep())
        collector = None
        if timed_gc:
            _freeze_start_up()
            collector = asyncio.create_task(collect_garbage())
        log.info("serving", extra={"store": store.location, "news": type(hub.news).__name__,
                                   "server": hub.news.me or "single"})
        try:
            yield
        finally:
            sweeper.cancel()
            if collector is not None:
                collector.cancel()
            analyses.close()
            await hub.close()
            if close_store:
                store.close()
            log.info("stopped")

    app = FastAPI(title="yacht", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json",
                  description="The Yacht dice family: variants, rules, scoring, online tables, "
                              "high scores and statistics. The same shapes as the command "
                              "line's --json.")
    app.state.hub = hub
    app.state.analyses = analyses

    @app.middleware("http")
    async def security_headers(request: Request,
                               call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response

    # --- the page -------------------------------------------------------------------
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page()

    @app.get("/static/{path:path}", include_in_schema=False)
    async def static(path: str) -> Response:
        target = (STATIC / path).resolve()
        if STATIC.resolve() not in target.parents or not target.is_file():
            return JSONResponse({"error": f"no file {path!r}", "code": "not_found"},
                                status_code=404)
        return FileResponse(target, headers={"Cache-Control": "no-cache"})

    @app.get("/api/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(_docs_page(app.openapi()))

    # --- the JSON API ---------------------------------------------------------------
    @app.get("/healthz", summary="Whether the server, its database and Redis answer")
    async def healthz() -> JSONResponse:
        db_ok, db = True, store.location
        try:
            await hub.io_call(store.score_tables)
        except StoreError as e:
            db_ok, db = False, str(e)
        news_ok, news = await hub.news.healthy()
        body = {"ok": db_ok and news_ok, "store": db, "news": news, "tables": len(hub.live),
                "driving": sum(1 for t in hub.live.values() if t.driver is not None),
                "process": hub.news.me or "single"}
        return JSONResponse(body, status_code=200 if body["ok"] else 503)

    @app.get("/api/variants", summary="Every variant, with its options (yacht variants --json)")
    async def variants() -> list[dict[str, Any]]:
        return variants_json()

    @app.get("/api/variants/{variant}/rules",
             summary="A variant's rules as data and text (yacht rules --json); options as "
                     "query parameters, e.g. ?joker=free")
    async def rules(variant: str, request: Request) -> Any:
        try:
            return ruleset_json(get(variant, dict(request.query_params)))
        except (UnknownVariant, OptionError) as e:
            return _error(WebError(str(e), "not_found" if isinstance(e, UnknownVariant)
                                   else "bad_request"))

    @app.post("/api/score", summary="What every box scores for some dice (yacht score --json)")
    async def score(q: ScoreQuestion) -> Any:
        try:
            rs = get(q.variant, q.options)
        except (UnknownVariant, OptionError) as e:
            return _error(WebError(str(e)))
        if len(q.dice) != rs.dice or not all(1 <= d <= rs.faces for d in q.dice):
            return _error(WebError(f"{rs.id} scores {rs.dice} dice, each 1-{rs.faces}"))
        return score_json(rs, q.dice)

    @app.get("/api/scores", summary="The top tens (yacht scores --json)")
    async def scores(request: Request, variant: str | None = None,
                     assisted: bool = False) -> Any:
        opts = {k: v for k, v in request.query_params.items()
                if k not in ("variant", "assisted")}
        try:
            rs = get(variant, opts) if variant else None
        except (UnknownVariant, OptionError) as e:
            return _error(WebError(str(e)))
        try:
            return await hub.io_call(score_tables_json, store, rs, assisted)
        except StoreError as e:
            return _error(e, 503)

    @app.get("/api/stats", summary="Per player and variant (yacht stats --json)")
    async def stats(player: str | None = None, computers: bool = False) -> Any:
        try:
            return await hub.io_call(stats_json, store, player, computers)
        except StoreError as e:
            return _error(e, 503)

    @app.get("/api/games", summary="Unfinished games of every interface (yacht resume "
             "--json), with the online table each is at (null: none)")
    async def games() -> Any:
        try:
            found = await hub.io_call(store.unfinished_games)
            rows = await hub.io_call(store.open_tables)
        except StoreError as e:
            return _error(e, 503)
        at = {r.game_id: r.id for r in rows if r.game_id is not None}
        return [{**g.to_json(), "table": at.get(g.id)} for g in found]

    @app.post("/api/games/{game_id}/table",
              summary="Continue a saved game in this browser: a table whose person seats "
                      "this browser holds (not for online games: open their link)")
    async def resume_game(game_id: str) -> Any:
        try:
            live, token = await hub.resume_game(game_id)
        except (WebError, StoreError) as e:
            return _error(e)
        return {"id": live.id, "token": token, "url": f"/t/{live.id}"}

    @app.get("/api/games/{game_id}/analysis",
             summary="A finished game's analysis: every decision against the expert, luck, "
                     "skill, accuracy, expected scores and chances of winning (yacht analyse "
                     "--json)")
    async def game_analysis(game_id: str) -> Response:
        from yacht.parsing import ID_LENGTH, InputError, parse_game_id

        try:
            gid = parse_game_id(game_id)
            if len(gid) != ID_LENGTH:
                raise InputError(f"a game id is {ID_LENGTH} hex digits")
        except InputError as e:
            return _error(WebError(str(e), "not_found"))
        try:
            info = await hub.io_call(store.game_info, gid)
        except StoreError as e:
            if str(e).startswith("no game "):
                return _error(WebError(f"no game {gid}", "not_found"))
            return _error(e, 503)
        if info.finished is None:
            return AnalysisRefused(409, "not_finished",
                                   "the analysis is for finished games (during a game it "
                                   "would be a hint)").response()

        async def record() -> Record:
            return await hub.io_call(store.load_record, gid)

        try:
            found = await analyses.get(gid, info.actions, record, analysis_wait,
                                       quick_after if len(info.players) >= 2 else None)
        except AnalysisRefused as e:
            return e.response()
        except StoreError as e:
            return _error(e, 503)
        except Exception:  # a fault of ours: logged, and still a one-line JSON answer
            log.exception("analysis of game %s", gid)
            return JSONResponse({"error": "the analysis failed (it is logged)",
                                 "code": "server"}, status_code=500)
        if found is None:  # a first analysis of a variant builds its tables: it goes on
            return JSONResponse({"status": "working", "retry": 2},
                                status_code=202,
                                headers={"Cache-Control": "no-store", "Retry-After": "2"})
        body, whole = found
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "no-cache" if whole else "no-store"})

    @app.get("/api/tables", summary="Tables to join or watch, most recent first")
    async def tables() -> Any:
        try:
            rows = await hub.io_call(store.open_tables)
        except StoreError as e:
            return _error(e, 503)
        return hub.open_tables_json(rows)

    @app.post("/api/tables", summary="A new table; the token of this browser's seats")
    async def create_table(req: TableRequest) -> Any:
        try:
            live, token = await hub.create(NewTable.from_json(req.model_dump()))
        except (WebError, StoreError) as e:
            return _error(e)
        return {"id": live.id, "token": token, "url": f"/t/{live.id}"}

    @app.get("/api/tables/{table_id}", summary="A table as a watcher sees it")
    async def table_state(table_id: str) -> Any:
        try:
            live = await hub.get(table_id)
        except WebError as e:
            return _error(e)
        return hub.state_json(live, Connection(None))["table"]

    # --- the table's WebSocket -------------------------------------------------------
    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and not _same_origin(origin, ws.headers.get("host")):
            await ws.close(code=1008, reason="another origin")
            return
        await ws.accept()
        try:
            live = await hub.get(table_id)
        except WebError as e:
            await ws.send_json({"type": "error", "code": e.code, "message": str(e)})
            await ws.close(code=4404)
            return
        try:
            hello = await asyncio.wait_for(ws.receive_text(), 15)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await ws.close(code=1008, reason="no hello")
            return
        token = None
        try:
            first = orjson.loads(hello) if len(hello) <= MAX_MESSAGE else None
            if isinstance(first, dict) and isinstance(first.get("token"), str) \
                    and len(first["token"]) <= 64:
                token = first["token"]
        except ValueError:
            pass
        conn = hub.connect(live, token)
        sender = asyncio.create_task(_send_loop(ws, hub, live, conn))
        closing = False
        try:
            closing = await _receive_loop(ws, hub, live, conn, TokenBucket(burst, rate))
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(live, conn)
            if closing:  # what was queued goes out first, then the close
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(sender, 5)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender

    return app


async def _send_loop(ws: WebSocket, hub: Hub, live: LiveTable, conn: Connection) -> None:
    try:
        while await _send_one(ws, hub, live, conn, await conn.outbox.get()):
            pass  # (nothing of the last message is kept while the next is awaited)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        return


async def _send_one(ws: WebSocket, hub: Hub, live: LiveTable, conn: Connection,
                    msg: dict[str, Any]) -> bool:
    """Send one message of a browser's outbox; False when the connection is to close.

    Its own function so that the state it sends is let go once it is sent: a send loop
    that kept its last message held a whole snapshot per browser until the next move
    (10 KB a table at 5,000 tables), all of it for the garbage collector to walk."""
    if msg.get("type") == "_state":
        conn.dirty = False
        try:
            msg = hub.state_json(live, conn)
        except Exception:  # never leave a browser without its states
            log.exception("table %s: the state for a browser", live.id)
            return True
        msg["events"], conn.events = conn.events, []  # one frame per change
    elif msg.get("type") == "_close":
        await ws.close(code=int(msg["code"]), reason=str(msg["reason"]))
        return False
    await ws.send_text(orjson.dumps(msg).decode())
    return True


def _reply(conn: Connection, msg_id: Any, **fields: Any) -> None:
    out: dict[str, Any] = dict(fields)
    if isinstance(msg_id, int | str) and not isinstance(msg_id, bool) and len(str(msg_id)) <= 32:
        out["id"] = msg_id
    conn.outbox.put_nowait(out)


async def _receive_loop(ws: WebSocket, hub: Hub, live: LiveTable, conn: Connection,
                        bucket: TokenBucket) -> bool:
    """Read and answer messages until the browser leaves; True when the server closes."""
    refused = 0
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            _reply(conn, None, type="error", code="bad_request",
                   message="messages are JSON text, not bytes")
            continue
        if not bucket.take():
            refused += 1
            # every refused message that waits for an answer gets one
            msg_id = _message_id(text)
            if msg_id is not None or refused == 1:
                _reply(conn, msg_id, type="error", code="flood",
                       message=f"too many messages: at most {bucket.rate:g} a second")
            if refused >= FLOOD_CLOSE:
                conn.outbox.put_nowait({"type": "_close", "code": 1008, "reason": "flood"})
                return True
            continue
        if len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
            _reply(conn, None, type="error", code="too_large",
                   message=f"a message is at most {MAX_MESSAGE} bytes")
            continue
        try:
            msg = orjson.loads(text)
        except (ValueError, RecursionError):
            _reply(conn, None, type="error", code="bad_request", message="not JSON")
            continue
        if not isinstance(msg, dict):
            _reply(conn, None, type="error", code="bad_request",
                   message="a message is a JSON object with a \"type\"")
            continue
        msg_id = msg.get("id")
        try:
            await _dispatch(ws, hub, live, conn, msg)
        except WebError as e:
            _reply(conn, msg_id, type="error", code=e.code, message=str(e))
        except StoreError as e:
            _reply(conn, msg_id, type="error", code="store", message=str(e))
        except Exception:  # never let one message stop the server
            log.exception("table %s: message %r", live.id, str(msg)[:200])
            _reply(conn, msg_id, type="error", code="server",
                   message="the server could not do that (it is logged)")


def _message_id(text: str) -> Any:
    """The ``id`` of a message, if it has one (a flood's messages are not handled, but a
    client waiting for their answers gets them)."""
    if len(text) > MAX_MESSAGE:
        return None
    try:
        msg = orjson.loads(text)
    except (ValueError, RecursionError):
        return None
    return msg.get("id") if isinstance(msg, dict) else None


async def _dispatch(ws: WebSocket, hub: Hub, live: LiveTable, conn: Connection,
                    msg: dict[str, Any]) -> None:
    kind = msg.get("type")
    msg_id = msg.get("id")
    if kind == "command":
        await hub.command(live, conn, msg.get("command"), msg.get("version"))
        _reply(conn, msg_id, type="ack")
    elif kind == "join":
        token = await hub.join(live, msg.get("seat"), msg.get("name"), msg.get("token"))
        hub.refresh_seats(live, conn, token)
        hub._changed(live)
        _reply(conn, msg_id, type="joined", token=token, seats=sorted(conn.seats))
    elif kind == "start":
        await hub.start(live, conn)
        _reply(conn, msg_id, type="ack")
    elif kind == "hint":
        async def answer() -> None:
            try:
                answer = await hub.hint(live, conn)
                _reply(conn, msg_id, type="hint", **answer)
            except WebError as e:
                _reply(conn, msg_id, type="error", code=e.code, message=str(e))

        asyncio.create_task(answer())  # a first hint may build tables: keep listening
    elif kind == "speed":
        await hub.set_speed(live, conn, msg.get("speed"))
        _reply(conn, msg_id, type="ack")
    elif kind == "ping":
        _reply(conn, msg_id, type="pong")
    elif kind == "hello":
        _reply(conn, msg_id, type="error", code="bad_request", message="hello only once")
    else:
        raise WebError("type: command, join, start, hint, speed or ping")


def _docs_page(spec: dict[str, Any]) -> str:
    """The API described from its OpenAPI document, as plain HTML (no scripts)."""
    from html import escape

    rows = []
    for path, ops in sorted(spec.get("paths", {}).items()):
        for method, op in ops.items():
            params = ", ".join(escape(p["name"]) for p in op.get("parameters", []))
            body = " (JSON body)" if "requestBody" in op else ""
            rows.append(f"<tr><td><code>{escape(method.upper())} {escape(path)}</code></td>"
                        f"<td>{escape(op.get('summary', ''))}</td>"
                        f"<td>{params}{body}</td></tr>")
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<title>yacht API</title><link rel='stylesheet' href='/static/style.css'></head>"
            "<body class='docs'><main><h1>yacht: the JSON API</h1>"
            f"<p>{escape(spec.get('info', {}).get('description', ''))}</p>"
            "<p>The full description: <a href='/api/openapi.json'>/api/openapi.json</a>. "
            "Tables are played over a WebSocket, <code>/ws/TABLE</code>: see "
            "PROTOCOL.md in the package.</p>"
            "<table><thead><tr><th>endpoint</th><th>what</th><th>parameters</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></main></body></html>")


#: a server's garbage collections, by the clock (seconds): the young objects, the middle
#: generation, everything
GC_YOUNG, GC_MIDDLE, GC_FULL = 0.1, 1.0, 600.0


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
    of a second of objects, the middle one a second's, and only the full collection
    (every ``full`` seconds) walks everything. Automatic collection is off meanwhile
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


def _freeze_start_up() -> None:
    """What is loaded at start-up (modules, rules, the app) lives as long as the
    process: frozen out of every collection."""
    import gc

    gc.collect()
    gc.freeze()


def from_environment() -> FastAPI:
    """The application of one worker process of ``yacht web --workers N``: the database
    from ``$YACHT_DB``, the news from ``$YACHT_REDIS``, the flush from ``$YACHT_FLUSH``
    (uvicorn calls this in each)."""
    import os

    from yacht.store import open_store

    store = open_store(os.environ.get("YACHT_DB") or None)
    store.group_commits(flush=os.environ.get("YACHT_FLUSH") or "each")
    return make_app(store, news=make_news(os.environ.get("YACHT_REDIS")), close_store=True,
                    timed_gc=True)
