"""Online tables: seats and their tokens, the lobby, connections, the table's drivers.

The hub lives in the server's event loop. Each online table is a row in the
store (its seats, and once started its game) and, while anyone looks at it, a
:class:`LiveTable` in memory: a lobby until every person's seat is taken, then
a :class:`~yacht.session.table.Table` (strict: an action counts, and is
acknowledged, only once the store has it). Commands, hints and computer moves
run in worker threads, so one table thinking never holds up another table's
dice; events come back to the loop and go to every connection of the table.

A seat token is a random secret the browser keeps; the store has only its
SHA-256. One token may hold several seats (people sharing one browser).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from yacht.engine import NAME_LENGTH, Action, Player, action_from_json, action_to_json
from yacht.rules import MAX_PLAYERS, OptionError, Ruleset, UnknownVariant, get
from yacht.session import HintUnavailable, SessionError
from yacht.session.advice import Advice, WinAdvice
from yacht.session.commands import ActionError, command_from_json
from yacht.session.config import SPEEDS
from yacht.session.present import BROWSER
from yacht.session.table import Event, Refused, Seat, Table, drive_async
from yacht.store import Store, StoreError
from yacht.store.core import SeatRow, TableRow
from yacht.strategy.base import DEFAULT_LEVEL, PLAYER_LEVELS

from .news import LEASE_SECONDS, LocalNews, News

__all__ = ["Connection", "Hub", "LiveTable", "NewTable", "WebError", "hash_token"]

#: the events that change the stored game or its flow: the other processes are told
NEWS_KINDS = frozenset({"rolled", "chosen", "gave_back", "scored", "took_back", "went_on",
                        "reloaded"})

log = logging.getLogger("yacht.web")

#: a browser's state carries at most this many events (one far behind hears the newest)
EVENTS_KEPT = 100

#: at most this many actions go with a piece of news (one further behind reads the store)
_NEWS_ACTIONS = 16

#: threads that play the tables' moves (each waits for its move to be saved). Few on
#: purpose: 32 of them, all runnable at once when a group commit ends, took the event
#: loop's cores and interpreter in bursts; with 5,000 tables 6 threads cut the server's
#: p50 and p99 several times over (benchmarks/README.md). Slow reads and writes of the
#: store have their own pool.
MOVERS = 6

T = TypeVar("T")


class WebError(Exception):
    """A request the hub does not take: a one-line message and a code for the client."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def clean_name(raw: Any) -> str:
    """A player's name as typed (the checks every interface makes; WebError otherwise)."""
    from yacht.parsing import InputError, check_name

    if not isinstance(raw, str):
        raise WebError(f"a name is text (1-{NAME_LENGTH} characters)")
    try:
        return check_name(raw)
    except InputError as e:
        raise WebError(str(e)) from None


def _table_id(raw: Any) -> str:
    from yacht.parsing import InputError, parse_table_id

    if not isinstance(raw, str):
        raise WebError("a table id is text", "not_found")
    try:
        return parse_table_id(raw)
    except InputError as e:
        raise WebError(str(e), "not_found") from None


@dataclass(frozen=True)
class NewTable:
    """What the home page asks for: a variant, its options, the pace and the seats.

    Each seat is ``{"kind": "person", "name": ..., "here": bool}`` (``here``: this
    browser plays it; otherwise it waits for a friend) or ``{"kind": LEVEL}`` (a
    computer player, optionally named).
    """

    variant: str
    options: dict[str, str]
    speed: str
    seats: tuple[dict[str, Any], ...]

    @classmethod
    def from_json(cls, obj: Any) -> NewTable:
        if not isinstance(obj, dict):
            raise WebError("a new table is an object: variant, options, speed, seats")
        variant = obj.get("variant")
        options = obj.get("options") or {}
        speed = obj.get("speed") or "normal"
        seats = obj.get("seats")
        if not isinstance(variant, str):
            raise WebError("variant: a variant id (see /api/variants)")
        if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
            raise WebError("options: an object of text values, e.g. {\"joker\": \"free\"}")
        if not isinstance(speed, str) or speed not in SPEEDS:
            raise WebError(f"speed: one of {', '.join(SPEEDS)}")
        if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_PLAYERS:
            raise WebError(f"seats: a list of 1-{MAX_PLAYERS} seats")
        return cls(variant, dict(options), speed, tuple(seats))


@dataclass(eq=False)
class Connection:
    """One browser tab at a table: what it may do and what it still has to be sent."""

    token_hash: str | None
    seats: frozenset[int] = frozenset()
    name: str = ""
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    dirty: bool = False  # a fresh state is due
    events: list[dict[str, Any]] = field(default_factory=list)  # go with the next state
    leaving: bool = False  # told to reconnect: the server is stopping


@dataclass(eq=False)
class LiveTable:
    id: str
    row: TableRow
    ruleset: Ruleset
    table: Table | None = None
    connections: set[Connection] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    idle_since: float = field(default_factory=time.monotonic)
    unsubscribe: Callable[[], None] | None = None
    news_due: bool = False  # a "changed" is about to go to the other processes
    went_on: str | None = None  # ... and the pause a local player left
    rewound: bool = False  # ... after a take-back (the actions cannot just be sent)
    lobby_due: bool = False  # a "lobby" (the seats or the start changed) is to go out
    publishing: bool = False  # one message at a time per table: they arrive in order
    sent_upto: int = 0  # the actions told so far
    # news heard from the other processes, taken up by one catch-up at a time
    heard_lobby: bool = False
    heard_game: bool = False
    heard_actions: list[tuple[int, list[Action]]] | None = field(default_factory=list)
    heard_pauses: list[str] = field(default_factory=list)
    catching_up: bool = False
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)  # row read / game resumed
    changes: int = 0  # the browsers were told of a change this many times
    # the snapshots made after the newest change, kept while its states are sent
    shown: tuple[int, Table, Callable[[str | None], dict[str, Any]]] | None = None

    def take_row(self, row: TableRow) -> TableRow:
        """The table's row as read or written now, unless a newer one is here already (a
        read that began before a join's write may end after it: the join stands)."""
        if row.version >= self.row.version:
            self.row = row
        return self.row

    def seats_of(self, token_hash: str | None) -> frozenset[int]:
        if token_hash is None:
            return frozenset()
        return frozenset(i for i, s in enumerate(self.row.seats) if s.token == token_hash)


class Hub:
    """Every online table of this server process."""

    def __init__(self, store: Store, *, strategy_factory: Any = None,
                 workers: int = 32, thinkers: int = 2, movers: int = MOVERS,
                 news: News | None = None) -> None:
        self.store = store
        self.strategy_factory = strategy_factory
        self.news: News = news or LocalNews()
        self.live: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # the tables' moves in one pool, other store writes and reads in another, table
        # builds / hints / computer moves in a third: a long build or a slow query never
        # delays a roll
        self.moves = ThreadPoolExecutor(movers, thread_name_prefix="yacht-moves")
        self.io = ThreadPoolExecutor(workers, thread_name_prefix="yacht-io")
        self.thinking = ThreadPoolExecutor(thinkers, thread_name_prefix="yacht-think")
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    async def io_call(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.loop.run_in_executor(self.io, partial(fn, *args))

    async def move_call(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.loop.run_in_executor(self.moves, partial(fn, *args))

    async def think_call(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.loop.run_in_executor(self.thinking, partial(fn, *args))

    async def launch(self) -> None:
        """Listen to the other processes (with Redis) and keep the leases."""
        await self.news.start(self._on_news)
        if isinstance(self.news, LocalNews):
            return
        back: Any = self._catch_up_all
        self.news.on_back = back  # type: ignore[attr-defined]
        self._spawn(self._keep_up(), "yacht-keep-up")

    def _spawn(self, coro: Any, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def goodbye(self) -> None:
        """The server is stopping: every browser is told to reconnect (to another process,
        or to this one when it is back), then its socket is closed (1012). Call it on the
        event loop's thread."""
        for live in list(self.live.values()):
            for conn in list(live.connections):
                if conn.leaving:
                    continue
                conn.leaving = True
                conn.outbox.put_nowait({"type": "reconnect",
                                        "message": "the server is restarting: reconnecting"})
                conn.outbox.put_nowait({"type": "_close", "code": 1012,
                                        "reason": "server restart"})

    async def close(self) -> None:
        """Stop: browsers told to come back (:meth:`goodbye`), leases given up, the threads
        finish what they do (an action in hand is saved and acknowledged first)."""
        for task in list(self._tasks):
            task.cancel()
        self.goodbye()
        await asyncio.sleep(0.1)  # the goodbyes go out
        for live in list(self.live.values()):
            await self._unload(live)
        await self.news.close()
        self.moves.shutdown(wait=True, cancel_futures=True)
        self.io.shutdown(wait=True, cancel_futures=True)
        self.thinking.shutdown(wait=False, cancel_futures=True)

    # --- news between processes -----------------------------------------------------
    async def _on_news(self, table_id: str, body: dict[str, Any]) -> None:
        live = self.live.get(table_id)
        if live is None:
            return
        kind = body.get("kind")
        if kind == "lobby":
            self._hear(live, lobby=True)
        elif kind in ("changed", "went_on"):
            pause = body.get("pause")
            self._hear(live, pause=pause if isinstance(pause, str) else None,
                       actions=_news_actions(body))

    def _hear(self, live: LiveTable, *, lobby: bool = False, pause: str | None = None,
              actions: tuple[int, list[Action]] | None = None) -> None:
        """Note news of another process (or a reason to look at the store): one catch-up
        per table takes it up, however much comes while it works. The listener never
        waits for the store, and no news is lost while a table is being loaded. News
        that carries its actions is played without reading the store when it follows
        on from what this process has."""
        if lobby:
            live.heard_lobby = True
        else:
            live.heard_game = True
            if actions is None:
                live.heard_actions = None  # the store is read
            elif live.heard_actions is not None:
                live.heard_actions.append(actions)
            if pause is not None:
                live.heard_pauses.append(pause)
        if not live.catching_up:
            live.catching_up = True
            self._spawn(self._catch_up(live), "yacht-news-in")

    async def _catch_up(self, live: LiveTable) -> None:
        try:
            while live.heard_lobby or live.heard_game:
                lobby, game, pauses = live.heard_lobby, live.heard_game, live.heard_pauses
                actions = live.heard_actions
                live.heard_lobby = live.heard_game = False
                live.heard_pauses, live.heard_actions = [], []
                async with live.loading:
                    table = live.table
                    if lobby or table is None:
                        # the row (seats, the game started): a game not shown yet is
                        # resumed as stored, with everything the news said
                        await self._reload_row(live)
                    if game and table is not None:
                        if actions:
                            await self.move_call(table.take_up, actions)
                        else:
                            await self.move_call(table.sync)
                    table = live.table
                    if table is not None:
                        live.sent_upto = max(live.sent_upto, len(table.session.state.log))
                        for pause in pauses:
                            await self.move_call(table.remote_go_on, pause)
        except Exception:
            log.exception("table %s: taking up news", live.id)
        finally:
            live.catching_up = False

    async def _reload_row(self, live: LiveTable) -> None:
        """Another process changed the lobby (a join, a start): take up the stored row
        (call it holding ``live.loading``)."""
        try:
            row = await self.io_call(self.store.load_table, live.id)
        except StoreError as e:
            log.warning("table %s: %s", live.id, e)
            return
        row = live.take_row(row)
        for conn in live.connections:
            conn.seats = live.seats_of(conn.token_hash)
        if row.game_id is not None and live.table is None:
            try:
                table = await self._resume(row)
            except SessionError as e:
                log.warning("table %s: %s", live.id, e)
                return
            if live.table is None:
                self._attach(live, table)
        self._changed(live)

    def _tell_others(self, live: LiveTable, event: Event) -> None:
        if not self.news.shared or event.data.get("remote") or event.kind not in NEWS_KINDS:
            return
        if event.kind == "went_on":
            live.went_on = str(event.data.get("pause"))
        elif event.kind in ("took_back", "reloaded"):
            live.rewound = True
        live.news_due = True
        self.loop.call_soon(self._start_publishing, live)

    def _start_publishing(self, live: LiveTable) -> None:
        if not live.publishing:
            live.publishing = True
            self._spawn(self._publish(live), "yacht-news-out")

    async def _publish(self, live: LiveTable) -> None:
        """Tell the others what changed, one message at a time (so they hear a table's
        news in order): the lobby first, then the game, with the actions saved since the
        last message. What could not be sent (Redis away) is sent again a second later,
        with whatever happened meanwhile."""
        try:
            while (live.news_due or live.lobby_due) and self.live.get(live.id) is live:
                if live.lobby_due:
                    live.lobby_due = False
                    if not await self.news.publish(live.id, {"kind": "lobby"}):
                        live.lobby_due = True
                        await asyncio.sleep(1.0)
                    continue
                live.news_due = False
                went_on, rewound, sent_upto = live.went_on, live.rewound, live.sent_upto
                live.went_on, live.rewound = None, False
                message: dict[str, Any] = {"kind": "changed"}
                if went_on is not None:
                    message["pause"] = went_on
                table = live.table
                if table is not None:
                    log = table.session.state.log[:]
                    start = max(0, min(sent_upto, len(log)), len(log) - _NEWS_ACTIONS)
                    if not rewound and start < len(log):
                        message["start"] = start
                        message["actions"] = [action_to_json(a) for a in log[start:]]
                    live.sent_upto = len(log)
                if not await self.news.publish(live.id, message):
                    live.news_due = True
                    live.rewound = live.rewound or rewound
                    live.went_on = live.went_on or went_on
                    live.sent_upto = min(live.sent_upto, sent_upto)
                    await asyncio.sleep(1.0)
        finally:
            live.publishing = False

    def _tell_lobby(self, live: LiveTable) -> None:
        """The seats or the start changed: the others read the row."""
        live.lobby_due = True
        self._start_publishing(live)

    async def _catch_up_all(self) -> None:
        """Redis is back: every table shown here takes up what it missed."""
        for live in list(self.live.values()):
            self._hear(live, lobby=live.table is None)

    async def _keep_up(self) -> None:
        """With other processes: renew the leases, start or stop the drivers they decide,
        and look at the store now and then (news may be lost while Redis is down)."""
        tick = LEASE_SECONDS / 3
        while True:
            for live in list(self.live.values()):
                try:
                    await self._lease(live)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("table %s: keeping up", live.id)
            if not getattr(self.news, "ok", True):
                try:
                    await self._poll()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("polling the store")
            await asyncio.sleep(tick)

    async def _poll(self) -> None:
        """No news is heard (Redis away): the tables someone looks at here take up what
        the store has. One read for every game; only the games that went on are read."""
        shown = [live for live in list(self.live.values()) if live.connections]
        games = {live.table.session.game_id: live for live in shown
                 if live.table is not None and live.table.session.game_id is not None}
        stored = await self.io_call(self.store.progress_many, list(games))
        for game_id, live in games.items():
            table = live.table
            if table is not None and stored.get(game_id, -1) != len(table.session.state.log):
                self._hear(live)
        for live in shown:
            if live.table is None:
                self._hear(live, lobby=True)

    async def _lease(self, live: LiveTable) -> None:
        table = live.table
        if table is None or not any(p.is_computer for p in table.players) \
                or table.view().finished:
            return
        held = await self.news.lease(live.id)
        if held and live.driver is None:
            await self.io_call(table.sync)  # whatever the last driver did
            self._drive(live)
        elif not held and live.driver is not None:
            await self._stop_driver(live)

    def _drive(self, live: LiveTable) -> None:
        assert live.table is not None
        live.stop = asyncio.Event()
        live.driver = asyncio.create_task(
            drive_async(live.table, stop=live.stop, think=self.think_call),
            name=f"yacht-table-{live.id}")

    async def _stop_driver(self, live: LiveTable) -> None:
        live.stop.set()
        driver, live.driver = live.driver, None
        if driver is not None:
            try:
                await asyncio.wait_for(driver, 5)
            except (TimeoutError, asyncio.CancelledError, Exception):
                driver.cancel()

    # --- tables -------------------------------------------------------------------
    async def create(self, spec: NewTable) -> tuple[LiveTable, str]:
        """A new table; the token of this browser's seats (the ``here`` ones)."""
        try:
            rs = get(spec.variant, spec.options)
        except (UnknownVariant, OptionError) as e:
            raise WebError(str(e)) from None
        if not rs.min_players <= len(spec.seats) <= rs.max_players:
            raise WebError(f"{rs.id} takes {rs.min_players}-{rs.max_players} players")
        token = secrets.token_urlsafe(24)
        mine = hash_token(token)
        rows: list[SeatRow] = []
        names: set[str] = set()
        for i, seat in enumerate(spec.seats):
            if not isinstance(seat, dict):
                raise WebError(f"seat {i + 1}: an object with a kind")
            kind = seat.get("kind", "person")
            if kind == "person":
                here = seat.get("here", True)
                name = clean_name(seat.get("name")) if here or seat.get("name") else None
                rows.append(SeatRow(name, "person", None, mine if here else None))
            elif kind in PLAYER_LEVELS:
                name = clean_name(seat.get("name") or f"Computer {i + 1}")
                rows.append(SeatRow(name, "computer", kind, None))
            else:
                raise WebError(f"seat {i + 1}: kind is person or a computer level "
                               f"({', '.join(PLAYER_LEVELS)})")
            if name is not None:
                if name.casefold() in names:
                    raise WebError(f"two players are called {name}: give each their own name")
                names.add(name.casefold())
        row = await self.io_call(partial(self.store.create_table, rs.id,
                                         dict(rs.option_values), spec.speed, rows, host=mine))
        live = LiveTable(row.id, row, rs)
        self.live[row.id] = live
        await self.news.follow(row.id)
        await self._start_if_ready(live)
        return live, token

    async def resume_game(self, game_id: str) -> tuple[LiveTable, str]:
        """A table for a saved game of any interface, its person seats held by this browser
        (not an online table's game: its players hold its seats)."""
        from yacht.parsing import InputError, parse_game_id

        try:
            game_id = parse_game_id(game_id)
        except InputError as e:
            raise WebError(str(e), "not_found") from None
        try:
            info = await self.io_call(self.store.game_info, game_id)
            record = await self.io_call(self.store.load_record, game_id)
            rows = await self.io_call(self.store.open_tables)
        except StoreError as e:
            raise WebError(str(e), "not_found") from None
        if info.finished is not None:
            raise WebError(f"game {game_id} is finished", "conflict")
        if record.meta.get("table") or any(r.game_id == game_id for r in rows):
            raise WebError("this game is at an online table: open that table's link",
                           "conflict")
        token = secrets.token_urlsafe(24)
        mine = hash_token(token)
        seats = [SeatRow(p.name, "computer", p.level or DEFAULT_LEVEL, None) if p.is_computer
                 else SeatRow(p.name, "person", None, mine) for p in record.players]
        row = await self.io_call(partial(self.store.create_table, record.variant,
                                         dict(record.options), "normal", seats,
                                         game_id=game_id, host=mine))
        return await self.get(row.id), token

    async def get(self, table_id: str) -> LiveTable:
        """The live table (loaded from the store, and its game resumed, if need be)."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        table_id = _table_id(table_id)
        try:
            row = await self.io_call(self.store.load_table, table_id)
        except StoreError as e:
            raise WebError(str(e), "not_found") from None
        live = self.live.get(table_id)  # loaded meanwhile by another request
        if live is not None:
            return live
        try:
            rs = get(row.variant, row.options)
        except (UnknownVariant, OptionError) as e:
            raise WebError(f"table {table_id} cannot be played here: {e}", "not_found") from None
        live = LiveTable(row.id, row, rs)
        self.live[table_id] = live
        async with live.loading:  # news heard meanwhile is taken up once it is loaded
            await self.news.follow(table_id)
            if self.news.shared:
                # news sent between the first load and the subscription was not heard:
                # the row again, now that any later change will be heard (a friend
                # joining on another process just then left this one in the lobby)
                try:
                    row = live.take_row(await self.io_call(self.store.load_table, table_id))
                except StoreError as e:
                    log.warning("table %s: %s", table_id, e)
            if row.game_id is not None and live.table is None:
                try:
                    table = await self._resume(row)
                except SessionError as e:
                    if self.live.get(table_id) is live:
                        del self.live[table_id]
                    await self.news.unfollow(table_id)
                    raise WebError(f"table {table_id}: {e}", "not_found") from None
                self._attach(live, table)
        return live

    async def _resume(self, row: TableRow) -> Table:
        """The table's game as stored (SessionError if it cannot be played)."""
        assert row.game_id is not None
        return await self.io_call(partial(
            Table.resume, self.store, row.game_id, strategy_factory=self.strategy_factory,
            speed=row.speed, seats=self._seats(row), strict=True))

    def _seats(self, row: TableRow) -> list[Seat]:
        by_token: dict[str, set[int]] = {}
        for i, s in enumerate(row.seats):
            if s.token is not None:
                by_token.setdefault(s.token, set()).add(i)
        return [Seat(token, frozenset(seats)) for token, seats in by_token.items()]

    def _attach(self, live: LiveTable, table: Table) -> None:
        live.table = table
        live.sent_upto = len(table.session.state.log)
        loop = self.loop

        def from_any_thread(event: Event) -> None:
            loop.call_soon_threadsafe(self._on_event, live, event)

        live.unsubscribe = table.subscribe(from_any_thread)
        if any(p.is_computer for p in table.players) and not table.view().finished:
            if self.news.shared:
                self._spawn(self._lease(live), "yacht-lease")  # the lease decides who drives
            else:
                self._drive(live)

    async def _start_if_ready(self, live: LiveTable, force: bool = False) -> None:
        """Lobby -> game: when no person's seat is open (or ``force``: without them)."""
        row = live.row
        if row.game_id is not None or live.table is not None:
            return
        open_seats = [i for i, s in enumerate(row.seats) if s.kind == "person" and s.token is None]
        if open_seats and not force:
            return
        seats = tuple(s for s in row.seats if not (s.kind == "person" and s.token is None))
        if open_seats and not any(s.kind == "person" for s in seats):
            raise WebError("no one has taken a seat yet")
        players = [Player(s.name or f"Player {i + 1}", "computer", s.level or DEFAULT_LEVEL)
                   if s.kind == "computer" else Player(s.name or f"Player {i + 1}")
                   for i, s in enumerate(seats)]
        if len(seats) != len(row.seats):  # open seats dropped: the row says who plays
            row = await self.io_call(partial(self.store.update_table, row.id, row.version,
                                             seats=seats))
        try:
            table = Table.new(live.ruleset, players, store=self.store,
                              strategy_factory=self.strategy_factory, speed=row.speed,
                              seats=self._seats(row), strict=True,
                              meta={"source": "web", "table": row.id})
            game_id = await self.io_call(table.save)
        except (SessionError, Refused) as e:
            raise WebError(f"the game cannot start: {e}") from None
        try:
            live.take_row(await self.io_call(partial(self.store.update_table, row.id, row.version,
                                                  game_id=game_id)))
        except StoreError:
            # another process started this table's game first: play that one
            if game_id is not None:
                try:
                    await self.io_call(self.store.delete_game, game_id)
                except StoreError:
                    pass
            async with live.loading:
                await self._reload_row(live)
            return
        self._attach(live, table)
        self._changed(live)
        self._tell_lobby(live)

    # --- seats --------------------------------------------------------------------
    async def join(self, live: LiveTable, seat: Any, name: Any, token: str | None) -> str:
        """Take open seat ``seat`` (0-based) as ``name``; returns the browser's token (a
        new one if it had none)."""
        async with live.lock:
            row = live.row
            if row.game_id is not None:
                raise WebError("the game has started: every seat is taken", "conflict")
            if not isinstance(seat, int) or isinstance(seat, bool) \
                    or not 0 <= seat < len(row.seats):
                raise WebError(f"seat: 0-{len(row.seats) - 1}")
            if row.seats[seat].kind != "person" or row.seats[seat].token is not None:
                raise WebError(f"seat {seat + 1} is taken", "conflict")
            who = clean_name(name)
            if any(s.name and s.name.casefold() == who.casefold()
                   for i, s in enumerate(row.seats) if i != seat):  # (the seat's own name)
                raise WebError(f"{who} is at the table already: choose another name",
                               "conflict")
            token = token if isinstance(token, str) and 16 <= len(token) <= 64 \
                else secrets.token_urlsafe(24)
            seats = list(row.seats)
            seats[seat] = SeatRow(who, "person", None, hash_token(token))
            try:
                live.take_row(await self.io_call(partial(self.store.update_table, row.id,
                                                      row.version, seats=seats)))
            except StoreError as e:
                live.take_row(await self.io_call(self.store.load_table, row.id))
                raise WebError(f"{e}", "conflict") from None
            self._tell_lobby(live)
            await self._start_if_ready(live)
        self._changed(live)
        return token

    def is_host(self, live: LiveTable, conn: Connection) -> bool:
        """The browser that made the table (it holds no seat in a game of computers)."""
        return conn.token_hash is not None and conn.token_hash == live.row.host

    async def start(self, live: LiveTable, conn: Connection) -> None:
        """Start now, without the seats no one took (a seated person, or the host, asks)."""
        async with live.lock:
            if live.table is not None:
                raise WebError("the game has started", "conflict")
            if not live.seats_of(conn.token_hash) and not self.is_host(live, conn):
                raise WebError("only a player at the table can start the game", "not_your_turn")
            await self._start_if_ready(live, force=True)

    # --- connections --------------------------------------------------------------
    def connect(self, live: LiveTable, token: str | None, name: str = "") -> Connection:
        token_hash = hash_token(token) if isinstance(token, str) and token else None
        conn = Connection(token_hash, live.seats_of(token_hash), name)
        conn.outbox.put_nowait({"type": "welcome", "table": live.id, "seats": sorted(conn.seats)})
        live.connections.add(conn)
        self._changed(live)
        return conn

    def disconnect(self, live: LiveTable, conn: Connection) -> None:
        live.connections.discard(conn)
        if not live.connections:
            live.idle_since = time.monotonic()
        self._changed(live)

    def refresh_seats(self, live: LiveTable, conn: Connection, token: str) -> None:
        conn.token_hash = hash_token(token)
        conn.seats = live.seats_of(conn.token_hash)

    # --- what a connection sees -------------------------------------------------------
    def presence(self, live: LiveTable) -> list[dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        watchers = 0
        for c in live.connections:
            if not c.seats:
                watchers += 1
                continue
            names = [live.row.seats[i].name or f"Player {i + 1}" for i in sorted(c.seats)]
            key = ",".join(map(str, sorted(c.seats)))
            out[key] = {"seats": sorted(c.seats), "names": names}
        listed = sorted(out.values(), key=lambda p: p["seats"])
        return listed + ([{"seats": [], "names": [], "watchers": watchers}] if watchers else [])

    def lobby_json(self, live: LiveTable, conn: Connection) -> dict[str, Any]:
        rs = live.ruleset
        return {
            "phase": "lobby", "id": live.id, "variant": rs.id, "name": rs.name,
            "options": dict(rs.option_values), "speed": live.row.speed,
            "seats": [{"name": s.name, "kind": s.kind, "level": s.level,
                       "open": s.kind == "person" and s.token is None,
                       "mine": i in conn.seats} for i, s in enumerate(live.row.seats)],
            "can_start": bool(conn.seats) or self.is_host(live, conn),
        }

    def state_json(self, live: LiveTable, conn: Connection) -> dict[str, Any]:
        if live.table is None:
            table: dict[str, Any] = self.lobby_json(live, conn)
        else:
            seat = conn.token_hash if conn.seats else None
            table = {"phase": "game", "id": live.id, "host": self.is_host(live, conn),
                     "snapshot": self._snapshots(live, live.table)(seat)}
        return {"type": "state", "table": table, "presence": self.presence(live)}

    def _snapshots(self, live: LiveTable,
                   table: Table) -> Callable[[str | None], dict[str, Any]]:
        """The table's snapshots since its newest change, shared by the browsers whose
        states are made in this turn of the loop (then let go: thousands of tables)."""
        shown = live.shown
        if shown is not None and shown[0] == live.changes and shown[1] is table:
            return shown[2]
        make = table.snapshots(BROWSER)
        if shown is None:
            self.loop.call_soon(setattr, live, "shown", None)
        live.shown = (live.changes, table, make)
        return make

    # --- changes ------------------------------------------------------------------
    def _on_event(self, live: LiveTable, event: Event) -> None:
        said = event.to_json()
        for conn in list(live.connections):
            conn.events.append(said)
            if len(conn.events) > EVENTS_KEPT:
                del conn.events[:-EVENTS_KEPT]
        self._tell_others(live, event)
        if event.kind == "finished":
            self.loop.create_task(self._finished(live))
        self._changed(live)

    async def _finished(self, live: LiveTable) -> None:
        live.stop.set()
        try:
            live.take_row(await self.io_call(partial(self.store.update_table, live.row.id,
                                                  live.row.version, closed=True)))
        except StoreError as e:
            log.warning("table %s: %s", live.id, e)

    def _changed(self, live: LiveTable) -> None:
        """Every connection of the table gets the new state (once, however many changes)."""
        live.changes += 1
        for conn in list(live.connections):
            if not conn.dirty:
                conn.dirty = True
                conn.outbox.put_nowait({"type": "_state"})  # built when sent: the newest

    # --- commands -----------------------------------------------------------------
    async def command(self, live: LiveTable, conn: Connection, payload: Any,
                      version: Any) -> None:
        """Apply a command from this connection's seats (the ack is sent by the caller
        once this returns: the store has the action then)."""
        table = live.table
        if table is None:
            raise WebError("the game has not started: waiting for players", "not_started")
        if not conn.seats:
            raise WebError("you are watching: take a seat to play", "not_your_turn")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise WebError("version: a whole number (the snapshot's version)")
        try:
            cmd = command_from_json(payload)
        except ActionError as e:
            raise WebError(str(e)) from None
        seat = conn.token_hash
        assert seat is not None
        try:
            await self.move_call(partial(table.act, seat, cmd, version=version))
        except Refused as e:
            raise WebError(str(e), e.code) from None

    async def hint(self, live: LiveTable, conn: Connection) -> dict[str, Any]:
        """The hint's answer: ``moves`` (best for the score first) and ``to_win`` (the
        moves ranked by the chance of winning, or null where it cannot be worked out)."""
        table = live.table
        if table is None or not conn.seats or conn.token_hash is None:
            raise WebError("a hint is for your own turn", "not_your_turn")
        try:
            moves = await self.think_call(table.hint, conn.token_hash)
        except (HintUnavailable, Refused) as e:
            raise WebError(str(e), "no_hint") from None
        win: WinAdvice | None = getattr(moves, "to_win", None)
        to_win = None if win is None else {
            "title": win.title, "how": win.how, "exact": win.exact, "differ": win.differ,
            "moves": [{**_move_json(m), "chance": round(chance, 4)} for m, chance in win.moves]}
        return {"moves": [_move_json(m) for m in moves], "to_win": to_win}

    async def set_speed(self, live: LiveTable, conn: Connection, speed: Any) -> None:
        if live.table is None or not (conn.seats or self.is_host(live, conn)):
            raise WebError("only a player at the table (or its host) sets the pace",
                           "not_your_turn")
        if not isinstance(speed, str) or speed not in SPEEDS:
            raise WebError(f"speed: one of {', '.join(SPEEDS)}")
        live.table.set_speed(speed)

    # --- housekeeping ---------------------------------------------------------------
    async def unload_idle(self, older_than: float = 600.0) -> int:
        """Forget tables no one has looked at for a while (they stay in the store)."""
        now = time.monotonic()
        gone = [live for live in self.live.values()
                if not live.connections and now - live.idle_since > older_than]
        for live in gone:
            await self._unload(live)
        return len(gone)

    async def _unload(self, live: LiveTable) -> None:
        self.live.pop(live.id, None)
        if live.unsubscribe is not None:
            live.unsubscribe()
        await self._stop_driver(live)
        await self.news.unfollow(live.id)
        await self.news.release(live.id)

    def open_tables_json(self, rows: Iterable[TableRow]) -> list[dict[str, Any]]:
        out = []
        for row in rows:
            try:
                name = get(row.variant, row.options).name
            except (UnknownVariant, OptionError):
                continue
            out.append({"id": row.id, "variant": row.variant, "name": name,
                        "options": dict(row.options), "started": row.game_id is not None,
                        "game_id": row.game_id,
                        "players": [s.name for s in row.seats if s.name],
                        "open_seats": sum(1 for s in row.seats
                                          if s.kind == "person" and s.token is None),
                        "updated": row.updated.isoformat()})
        return out


def _news_actions(body: dict[str, Any]) -> tuple[int, list[Action]] | None:
    """The actions a piece of news carries (None: none, or not readable: the store is
    read instead)."""
    start, raw = body.get("start"), body.get("actions")
    if not isinstance(start, int) or start < 0 or not isinstance(raw, list) or not raw:
        return None
    try:
        return start, [action_from_json(a) for a in raw]
    except (ValueError, TypeError):
        return None


def _move_json(m: Advice) -> dict[str, Any]:
    """One move of a hint as the page gets it."""
    return {"text": m.text, "expected": round(m.expected, 2), "loss": round(m.loss, 2),
            "reroll": list(m.reroll), "category": m.category, "column": m.column}

