"""Online tables: the tables this server process shows, from the lobby to the game's end.

Each online table is a row in the store (its seats, and once started its game) and,
while anyone looks at it, a :class:`~yacht.web.live.LiveTable` in memory: a lobby
until every person's seat is taken, then a :class:`~yacht.session.table.Table`
(strict: an action counts, and is acknowledged, only once the store has it).
A person's command is played on the event loop, its group commit awaited there
(:meth:`~yacht.session.table.Table.act_async`: no thread held per move); hints,
computer moves and the store's slower work run in worker threads, so one table
thinking never holds up another table's dice; events go to every connection of the
table from the event loop.

The hub keeps the tables and their phases; the parts are its own modules: the seats
(:mod:`~yacht.web.lobby`), what the browsers are sent (:mod:`~yacht.web.fanout`),
the other processes of a site (:mod:`~yacht.web.cluster`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Any, NamedTuple, TypeVar

from yacht.parsing import InputError, parse_table_id
from yacht.render import possessive, verb
from yacht.rules import OptionError, UnknownVariant, get
from yacht.session import HintUnavailable, SessionError, open_table
from yacht.session.advice import Advice, WinAdvice
from yacht.session.table import Event, Refused, Seat, Table, drive_async
from yacht.store import Store, StoreError
from yacht.store.core import SeatRow, TableRow

from .claims import CLAIM
from .cluster import Cluster
from .duplicate import Duplicates, is_card, is_private_daily
from .errors import WebError, public, redact
from .fanout import Fanout
from .live import Connection, LiveTable, Phase
from .lobby import Lobby, absent_after, hash_token, seat_voters, series, table_clock
from .news import LocalNews, News
from .protocol import (
    BrowserCommand,
    DailyRequest,
    HintAnswer,
    Move,
    PersonSeat,
    ReactionName,
    Speed,
    TableRequest,
    ToWin,
)
from .reactions import accept as accept_reaction
from .reactions import heard as heard_reaction
from .tasks import Tasks

__all__ = ["DailyTable", "Hub", "MOVERS", "serving"]

log = logging.getLogger("yacht.web")

#: threads for the tables' work that waits for the store on a SQLite file: a computer's
#: move, a game's start and end, a read when the news has a gap. A person's move does
#: not take one: it is played on the event loop and its group commit awaited there
#: (Table.act_async; handing each move to a thread and back cost a third of a busy
#: server's CPU, issue 28). Few on purpose: 32 of them, all runnable at once when a
#: group commit ends, took the event loop's cores and interpreter in bursts
#: (benchmarks/README.md). Slow reads and writes of the store have their own pool.
MOVERS = 6
#: the same on a database server (PostgreSQL): there a computer's move mostly waits
#: for the group commit's round trip (tens of milliseconds), so 6 threads would cap a
#: process at 6 / (a commit's time) of them a second (benchmarks/bench_commit.py: 205
#: -> 918 moves/s with 6 -> 32 threads)
MOVERS_REMOTE = 32
#: a table's driver whose move the store refused (the database away) tries again after
#: this many seconds, twice as long each time up to the most
DRIVER_RETRY = 0.5
DRIVER_RETRY_MOST = 10.0

T = TypeVar("T")

#: how long an answer about a daily challenge waits for its expert's total the first
#: time it is asked for (a second or so in most variants; longer: answered without it)
DAILY_EXPERT_WAIT = 2.0

#: how long /healthz waits for the database's answer: a database that hangs (a frozen
#: server, a lost host) held it past a load balancer's patience, with no answer at all
HEALTH_WAIT = 3.0


class DailyTable(NamedTuple):
    """The table of a daily challenge's game for a browser: its token there; ``resumed``:
    the name's game under way (not a new one); ``ranked``: the name's ranked game (its
    first started that day), else practice."""

    live: LiveTable
    token: str
    resumed: bool
    ranked: bool


class Hub:
    """Every online table of this server process."""

    def __init__(self, store: Store, *, strategy_factory: Any = None,
                 workers: int = 32, thinkers: int = 2, movers: int | None = None,
                 news: News | None = None, seeds: Callable[[], bytes] | None = None) -> None:
        """``seeds``: where a new game's secret seed comes from (default: a fresh random
        one each; a test passes its own to compare games). ``movers``: threads for
        the tables' work that waits for the store (default: :data:`MOVERS` on SQLite,
        :data:`MOVERS_REMOTE` on a database server; a person's move takes none)."""
        self.store = store
        self.strategy_factory = strategy_factory
        self.seeds = seeds
        self.live: dict[str, LiveTable] = {}
        #: the connections whose send loop runs (a table's, a field watcher's): the
        #: watchdog looks at them for a send the browser does not take (channel.py)
        self.sockets: set[Connection] = set()
        self.tasks = Tasks("hub")
        # the tables' waiting work in one pool (a game's start and end, a computer's
        # move saved), other store writes and reads in another, table builds / hints /
        # computer moves thought out in a third: a long build or a slow query never
        # delays a roll
        if movers is None:
            movers = MOVERS if store.dialect == "sqlite" else MOVERS_REMOTE
        self.moves = ThreadPoolExecutor(movers, thread_name_prefix="yacht-moves")
        self.io = ThreadPoolExecutor(workers, thread_name_prefix="yacht-io")
        self.thinking = ThreadPoolExecutor(thinkers, thread_name_prefix="yacht-think")
        self.lobby = Lobby(store, self.io_call)
        self.fanout = Fanout(self.lobby.view, private=Duplicates.private)
        self.cluster = Cluster(news or LocalNews(), self, self.tasks)
        self.duplicates = Duplicates(self)  # duplicate tables (duplicate.py)
        #: the daily challenges whose expert's total is being worked out: (variant, day)
        self._daily_experts: dict[tuple[str, str], asyncio.Task[int]] = {}
        #: the database's health check under way (one at a time: a hung database holds
        #: one store thread, not one a request)
        self._health: asyncio.Future[Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def news(self) -> News:
        return self.cluster.news

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

    # --- the process ----------------------------------------------------------------
    async def launch(self) -> None:
        """Listen to the other processes (with Redis) and keep the leases."""
        self._loop = asyncio.get_running_loop()
        _SERVING.add(self)
        await self.cluster.start()

    def goodbye(self) -> None:
        """The server is stopping: every browser is told to reconnect, then closed (1012).
        Call it on the event loop's thread."""
        self.fanout.goodbye(self.tables())

    async def goodbye_sent(self, wait: float = 1.0) -> None:
        """Tell every browser to reconnect and give the sockets up to ``wait`` seconds to
        send it (before the server closes them itself: a loaded machine may not have run
        their senders yet)."""
        self.goodbye()
        deadline = asyncio.get_running_loop().time() + wait
        while any(not c.outbox.empty() for live in self.tables() for c in live.connections):
            if asyncio.get_running_loop().time() >= deadline:
                return
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        """Stop: browsers told to come back, leases given up, every task of the hub
        awaited, the threads finish what they do (an action in hand is saved and
        acknowledged first)."""
        _SERVING.discard(self)
        self.goodbye()
        await asyncio.sleep(0.1)  # the goodbyes go out
        for live in self.tables():
            await self._unload(live)
        await self.tasks.close()
        await self.cluster.close()
        self.moves.shutdown(wait=True, cancel_futures=True)
        self.io.shutdown(wait=True, cancel_futures=True)
        self.thinking.shutdown(wait=False, cancel_futures=True)

    # --- the daily challenge ------------------------------------------------------
    async def daily_expert(self, variant: str, day: str) -> int | None:
        """The expert's total on the dice of ``variant``'s challenge of ``day``, worked out
        once in the background (with the thinking: a table may be built first, minutes
        for Maxi Yatzy's) and kept in the store; None while it is being worked out after
        :data:`DAILY_EXPERT_WAIT` seconds (an answer does not wait for it, nor does the
        store's other work)."""
        key = (variant, day)
        task = self._daily_experts.get(key)
        if task is None:
            task = self._daily_experts[key] = self.tasks.spawn(
                self._work_out_daily_expert(variant, day), "yacht-daily-expert")
            task.add_done_callback(lambda _t: self._daily_experts.pop(key, None))
        done, _ = await asyncio.wait([task], timeout=DAILY_EXPERT_WAIT)
        if not done or task.cancelled() or task.exception() is not None:
            return None  # (a failure is logged by the tasks; the next asker tries again)
        return task.result()

    async def _work_out_daily_expert(self, variant: str, day: str) -> int:
        from yacht.session.daily import challenge, expert_total

        daily = await self.io_call(challenge, self.store, variant, day)
        if daily.expert is not None:  # (another process has worked it out)
            return daily.expert
        total = await self.think_call(expert_total, get(variant), daily.seed)
        await self.io_call(self.store.set_daily_expert, daily.day, variant, total)
        return total

    # --- the tables ---------------------------------------------------------------
    def find(self, table_id: str) -> LiveTable | None:
        return self.live.get(table_id)

    def tables(self) -> list[LiveTable]:
        return list(self.live.values())

    async def create(self, req: TableRequest) -> tuple[LiveTable, str]:
        """A new table; the token of this browser's seats (the ``here`` ones)."""
        try:
            rs = get(req.variant, req.options)
        except (UnknownVariant, OptionError) as e:
            raise WebError(str(e)) from None
        if req.dice == "duplicate":
            return await self.duplicates.create(req, rs)
        row, token = await self.lobby.create(req, rs)
        live = LiveTable(row.id, row, rs)
        self.live[row.id] = live
        await self.cluster.follow(live)
        async with live.lock:
            await self._start_if_ready(live)
        return live, token

    async def create_daily(self, req: DailyRequest) -> DailyTable:
        """Today's challenge of ``req.variant`` for the person here: a table for one whose
        game starts at once on the day's seed (its usual options), or the name's game
        under way at a table of ``req.tables`` (this browser holds its seat there). A name
        plays one game of the day at a time (``yacht.session.daily``): one under way
        elsewhere is WebError ``conflict``; its first game started is the ranked one."""
        from yacht.session.daily import UnderWay, check_alone, today, under_way

        try:
            rs = get(req.variant)
        except UnknownVariant as e:  # (a body's value: 400, as POST /api/tables says it)
            raise WebError(str(e)) from None
        day = today()
        try:
            daily = await self.io_call(self.store.daily, day, rs.id)
            going = await self.io_call(under_way, self.store, rs.id, req.name, day)
        except StoreError as e:
            raise self.public(e) from None
        if going is not None:
            held = await self._held(going, req.tables)
            if held is None:
                raise _under_way(req.name, rs.name)
            return DailyTable(held[0], held[1], True,
                              await self._ranked(rs.id, req.name, day) == going)
        table = TableRequest(variant=rs.id, speed="normal",
                             seats=[PersonSeat(kind="person", name=req.name, here=True)])
        row, token = await self.lobby.create(table, rs, {"daily": day})
        live = LiveTable(row.id, row, rs)
        self.live[row.id] = live
        await self.cluster.follow(live)
        async with live.lock:
            await self._start_if_ready(live, seed=daily.seed, meta={"daily": day})
        game_id = live.row.game_id
        try:  # (one started at the same moment, by another request: one of them stands)
            if game_id is not None:
                await self.io_call(check_alone, self.store, rs.id, req.name, day, game_id)
        except UnderWay:
            await self._unload(live)
            try:
                await self.io_call(partial(self.store.update_table, row.id, live.row.version,
                                           closed=True))
            except StoreError as e:
                log.warning("table %s: %s", row.id, e)
            raise _under_way(req.name, rs.name) from None
        except StoreError as e:
            raise self.public(e) from None
        first = await self._ranked(rs.id, req.name, day)
        return DailyTable(live, token, False, first is not None and first == game_id)

    async def _ranked(self, variant: str, name: str, day: str) -> str | None:
        """The name's ranked game of the day's challenge (its first started)."""
        from yacht.session.daily import ranked_game

        try:
            return await self.io_call(ranked_game, self.store, variant, name, day)
        except StoreError as e:
            raise self.public(e) from None

    async def _held(self, game_id: str, tables: dict[str, str]) -> tuple[LiveTable, str] | None:
        """The table of game ``game_id`` and its token, if ``tables`` (table id -> token, a
        browser's) holds its seat there."""
        try:
            row = await self.io_call(self.store.table_of_game, game_id)
        except StoreError as e:
            raise self.public(e) from None
        token = tables.get(row.id) if row is not None else None
        if row is None or token is None or row.closed is not None \
                or not any(s.token == hash_token(token) for s in row.seats):
            return None
        return await self.get(row.id), token

    async def get(self, table_id: str) -> LiveTable:
        """The live table (loaded from the store, and its game resumed, if need be)."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        try:
            table_id = parse_table_id(table_id)
        except InputError as e:
            raise WebError(str(e), "not_found") from None
        try:
            row = await self.io_call(self.store.load_table, table_id)
        except StoreError as e:
            raise self.public(e) from None
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
            await self.cluster.follow(live)
            if self.cluster.shared:
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
                    await self.cluster.forget(live)
                    raise WebError(f"table {table_id}: {e}", "not_found") from None
                self._attach(live, table)
        return live

    async def catch_up(self, live: LiveTable) -> None:
        """Before a browser is sent the table: the game as the store has it. Another
        process on the same store (``yacht play`` / ``yacht resume``, not a process of
        this site: no news of it comes) may have played on since the game was loaded
        here; this copy takes up those actions (Table.sync: one read of the game's
        progress when nothing changed), so the page's first move is not refused as
        stale. Its events reach the browsers already there as any move's."""
        table = live.table
        if table is None or table.closed:
            return
        try:
            await self.move_call(table.sync)
        except Exception:  # (never a reason to refuse a browser: a move finds it out)
            log.exception("table %s: taking up the stored game", live.id)

    async def store_health(self, wait: float | None = None) -> tuple[bool, str]:
        """Whether the store answers a read within ``wait`` seconds (default
        :data:`HEALTH_WAIT`), and what to say: "ok", the store's error as a browser may
        read it, or that it has not answered. A check still waiting for a hung database
        is waited on again, not started anew."""
        if self._health is None or self._health.done():
            self._health = self.loop.run_in_executor(self.io, self.store.score_tables)
        try:
            await asyncio.wait_for(asyncio.shield(self._health),
                                   HEALTH_WAIT if wait is None else wait)
        except TimeoutError:
            return False, (f"the database has not answered in "
                           f"{HEALTH_WAIT if wait is None else wait:g} s")
        except StoreError as e:
            return False, str(self.public(e))
        return True, "ok"

    def public(self, error: StoreError) -> WebError:
        """A store error as a browser may read it (no file path, no URL)."""
        return public(error, self.store.location)

    async def reload_row(self, live: LiveTable) -> None:
        """Another process changed the lobby (a join, a start, a claim): take up the
        stored row (call it holding ``live.loading``)."""
        try:
            row = await self.io_call(self.store.load_table, live.id)
        except StoreError as e:
            log.warning("table %s: %s", live.id, e)
            return
        self._take_seats(live, row)
        row = live.row
        if live.table is not None and live.table.game_id != row.game_id:
            await self._new_game_here(live)  # (another process began the table's next game)
        if row.game_id is not None and live.table is None:
            try:
                table = await self._resume(row)
            except SessionError as e:
                log.warning("table %s: %s", live.id, e)
                return
            if live.table is None:
                self._attach(live, table)
        self.fanout.changed(live)
        if is_card(live.row):  # (a seat taken or a game begun elsewhere, maybe with its
            # first scores already stored: no event of this process tells of them)
            self.duplicates.event(live, "reloaded")

    def _take_seats(self, live: LiveTable, row: TableRow) -> None:
        """A newer row: the connections and the game's seats follow its tokens."""
        before = self.lobby.seats(live.row)
        live.take_row(row)
        self.fanout.reseat(live)
        table = live.table
        if table is not None:
            after = self.lobby.seats(live.row)
            for seat in before:
                if seat not in after:
                    table.remove_seat(seat.id)
            for seat in after:
                table.add_seat(seat)
            self._stand_ins(live, table)
        self._look_around(live)
        for conn in live.connections:
            # a seat handed over in another process while its person is here (that
            # process does not see this one's browsers): it is theirs again at once
            if any(live.row.seats[i].away for i in conn.seats if i < len(live.row.seats)):
                self.tasks.spawn(self._back(live, conn), "yacht-back")

    async def _resume(self, row: TableRow) -> Table:
        """The table's game as stored (SessionError if it cannot be played)."""
        assert row.game_id is not None
        return await self.io_call(partial(
            open_table, self.store, source="web", resume=row.game_id,
            strategy_factory=self.strategy_factory, speed=row.speed,
            seats=self.lobby.seats(row), strict=True))

    def _attach(self, live: LiveTable, table: Table) -> None:
        """LOBBY -> PLAYING: the game's events go to the browsers (and the others), its
        computer players are driven here or by the process holding the lease."""
        live.attach(table)
        for conn in live.connections:  # (nothing plays yet: the table is free)
            self._seat_prefs(table, conn)
        if is_card(live.row):  # its seed is the other cards' too: kept until they are done
            table.withhold_seed(True)
            self.tasks.spawn(self.duplicates.show_seed(live), "yacht-seed")
        self._stand_ins(live, table)
        self._look_around(live)
        self.cluster.attached(live, table)
        loop = self.loop
        loop_thread = threading.get_ident()

        def from_any_thread(event: Event) -> None:
            if threading.get_ident() == loop_thread:  # (a move played on the loop)
                loop.call_soon(self._on_event, live, event)
            else:
                loop.call_soon_threadsafe(self._on_event, live, event)

        live.unsubscribe = table.subscribe(from_any_thread)
        if table.view().finished:
            live.over()
        else:
            self._drive_if_needed(live)

    async def _start_if_ready(self, live: LiveTable, force: bool = False, *,
                              seed: bytes | None = None,
                              meta: dict[str, Any] | None = None) -> None:
        """Lobby -> game: when no person's seat is open (or ``force``: without them).
        Call it holding ``live.lock``. ``seed`` and ``meta``: the game's (a daily
        challenge's day and seed), else a fresh seed."""
        row = live.row
        if row.game_id is not None or not live.in_lobby:
            return
        seats = self.lobby.playing(row, force)
        if seats is None:
            return
        if seed is None:  # a card of a duplicate table: its group's seed
            found = await self.duplicates.seed_of(row)
            if found is not None:
                seed, meta = found
        if len(seats) != len(row.seats):  # open seats dropped: the row says who plays
            row = live.take_row(await self.io_call(partial(
                self.store.update_table, row.id, row.version, seats=seats)))
        clock = table_clock(row)
        game_meta: dict[str, Any] = {"table": row.id, **(meta or {})}
        if clock is not None:
            game_meta["clock"] = clock.to_json()
        if not any(s.kind == "person" for s in seats) and series(row)["games"]:
            return  # (everyone left the table's next game)
        try:
            table = open_table(self.store, source="web", variant=live.ruleset.id,
                               options=live.ruleset.option_values,
                               players=self.lobby.players(seats),
                               strategy_factory=self.strategy_factory, speed=row.speed,
                               seats=self.lobby.seats(row), strict=True, meta=game_meta,
                               seed=seed if seed is not None else
                               self.seeds() if self.seeds is not None else None)
            game_id = await self.io_call(table.save)
        except (SessionError, Refused) as e:
            raise WebError(f"the game cannot start: {e}") from None
        try:
            live.take_row(await self.io_call(partial(
                self.store.update_table, row.id, row.version, game_id=game_id)))
        except StoreError:
            # another process started this table's game first: play that one
            if game_id is not None:
                try:
                    await self.io_call(self.store.delete_game, game_id)
                except StoreError:
                    pass
            async with live.loading:
                await self.reload_row(live)
            return
        self._attach(live, table)
        self.fanout.changed(live)
        self.cluster.tell_lobby(live)

    # --- seats --------------------------------------------------------------------
    async def join(self, live: LiveTable, conn: Connection, seat: int, name: str,
                   token: str | None) -> str:
        """``conn`` takes open seat ``seat`` (0-based) as ``name``; returns the browser's
        token (a new one if it had none)."""
        async with live.lock:
            await self.duplicates.check_join(live, name)
            token = await self.lobby.join(live, seat, name, token)
            conn.token_hash = hash_token(token)
            self.fanout.reseat(live)
            self.cluster.tell_lobby(live)
            # a game under way: its new seat's choices (a game this join starts takes
            # every browser's as it starts)
            await self.set_prefs(live, conn, None, None)
            await self._start_if_ready(live)
        # one state for the join: no await after the game's start marked one due (the
        # browsers were sent it during the choices' await, then the same state again)
        self.fanout.changed(live)
        if is_card(live.row):  # its player's field now, and everyone's (a seat taken)
            await self.duplicates.greet(live, conn)
            self.duplicates.event(live, "joined", greeted=conn)
        return token

    async def start(self, live: LiveTable, conn: Connection) -> None:
        """Start now, without the seats no one took (a seated person, or the host, asks)."""
        async with live.lock:
            self.lobby.check_start(live, conn)
            await self._start_if_ready(live, force=True)

    async def claim(self, table_id: str, key: str) -> tuple[LiveTable, str]:
        """Trade a one-time link's key for a token of this browser's own (the seats it
        held); the link is spent."""
        live = await self.get(table_id)
        async with live.lock:
            row, token = await self.lobby.claim(live, key)
            self._take_seats(live, row)
            self.cluster.tell_lobby(live)
        self.fanout.changed(live)
        return live, token

    async def my_games(self, tokens: dict[str, str]) -> list[dict[str, Any]]:
        """The unfinished games at the tables this browser holds seats at (table id -> its
        token there): as ``yacht resume --json`` lists them, each with its ``table``."""
        out = []
        for table_id, token in tokens.items():
            try:
                row = await self.io_call(self.store.load_table, table_id)
                mine = hash_token(token)
                if row.game_id is None or row.closed is not None \
                        or not any(s.token == mine for s in row.seats):
                    continue
                info = await self.io_call(self.store.game_info, row.game_id)
            except StoreError:
                continue  # (gone, or never there: nothing of this browser's)
            if info.finished is None:
                out.append({**info.to_json(), "table": row.id})
        return out

    # --- connections --------------------------------------------------------------
    def connect(self, live: LiveTable, token: str | None) -> Connection:
        token_hash = hash_token(token) if token else None
        conn = Connection(token_hash, live.seats_of(token_hash))
        self.fanout.add(live, conn)
        self._look_around(live)
        if any(live.row.seats[i].away or live.row.seats[i].votes for i in conn.seats):
            self.tasks.spawn(self._back(live, conn), "yacht-back")
        if is_card(live.row):
            self.tasks.spawn(self.duplicates.greet(live, conn), "yacht-field")
        return conn

    def disconnect(self, live: LiveTable, conn: Connection) -> None:
        self.fanout.remove(live, conn)
        self._look_around(live)

    # --- absent players and the table's next game ---------------------------------
    def _drive_if_needed(self, live: LiveTable) -> None:
        """Computer players, a clock or a stand-in: the table is driven here, or by the
        process that holds its lease."""
        if not live.playing or not live.needs_driver or live.driver is not None:
            return
        if self.cluster.shared:
            self.tasks.spawn(self.cluster.lease(live), "yacht-lease")
        else:
            self.drive(live)

    @staticmethod
    def _stand_ins(live: LiveTable, table: Table) -> None:
        """The game's stand-ins are the row's seats marked away."""
        table.set_stand_ins(i for i, s in enumerate(live.row.seats) if s.away)

    async def away(self, live: LiveTable, conn: Connection, seat: int, on: bool) -> None:
        """A vote (``on`` false: taken back) that the person of ``seat`` is away and the
        computer plays their turns; the host decides alone. A majority of the other
        people at the table hands the seat over."""
        table = live.table
        if table is None or not live.playing:
            raise WebError("there is no game under way", "not_started")
        mine = conn.token_hash
        if mine is None or not (conn.seats or live.is_host(conn)):
            raise WebError("only a player at the table (or its host) may hand a seat to the "
                           "computer", "not_your_turn")
        async with live.lock:
            row = live.row
            if seat >= len(row.seats) or row.seats[seat].kind != "person":
                raise WebError(f"seat {seat + 1} is not a person's at this table")
            name = row.seats[seat].name or f"Player {seat + 1}"
            if seat in conn.seats:
                raise WebError("that seat is yours: you are here", "conflict")
            if table.turn_clock is not None:
                raise WebError("this table has a clock: when a turn's time runs out, the "
                               "computer plays it", "conflict")
            wait = absent_after(row)
            gone = live.absent_for(seat)
            if on and not row.seats[seat].away:
                if gone is None:
                    raise WebError(f"{verb(name, 'is', 'are')} at the table", "conflict")
                if gone < wait:
                    # (away, not "left": a person who never came is away since the start)
                    raise WebError(f"{name} has been away {int(gone)} s: the seat can be "
                                   f"handed to the computer after {wait} s away", "conflict")
            votes = set(row.seats[seat].votes)
            if on and row.seats[seat].away:
                raise WebError(f"the computer plays for {name} already", "conflict")
            if not on and mine not in votes:
                raise WebError(f"you have not voted to hand {possessive(name)} seat to the "
                               "computer", "conflict")
            if on:
                votes.add(mine)
            else:
                votes.discard(mine)
            voters = seat_voters(row, seat)
            away = row.seats[seat].away or (on and (
                live.is_host(conn) or len(votes & voters) >= len(voters) // 2 + 1))
            seats = list(row.seats)
            seats[seat] = replace(seats[seat], votes=tuple(sorted(votes)), away=away)
            await self._seats_changed(live, seats)

    async def _back(self, live: LiveTable, conn: Connection) -> None:
        """A person away opened their link again: their seat is theirs from their next
        turn (the votes about it are forgotten)."""
        async with live.lock:
            row = live.row
            if not any(row.seats[i].away or row.seats[i].votes for i in conn.seats
                       if i < len(row.seats)):
                return
            seats = [replace(s, away=False, votes=()) if i in conn.seats else s
                     for i, s in enumerate(row.seats)]
            try:
                await self._seats_changed(live, seats)
            except WebError as e:
                log.info("table %s: %s", live.id, e)

    async def _seats_changed(self, live: LiveTable, seats: list[SeatRow]) -> None:
        """The seats' marks as changed (call it holding ``live.lock``): stored, the game's
        stand-ins follow, the others told."""
        row = live.row
        try:
            live.take_row(await self.io_call(partial(
                self.store.update_table, row.id, row.version, seats=seats)))
        except StoreError as e:
            live.take_row(await self.io_call(self.store.load_table, row.id))
            raise WebError(f"{e}", "conflict") from None
        table = live.table
        if table is not None:
            await self.move_call(self._stand_ins, live, table)
            self._drive_if_needed(live)
        self.cluster.tell_lobby(live)
        self.fanout.changed(live)

    async def again(self, live: LiveTable, conn: Connection) -> None:
        """Play again: after the game's end, a new game at the table with the same seats
        (the first to ask is ready, each other person accepts or leaves; computers
        stay); in that new game's lobby, this browser's people accept."""
        if is_card(live.row) and not live.in_lobby:  # a new duplicate table: duplicate.py
            await self.duplicates.again(live, conn)
            return
        mine = conn.token_hash
        if mine is None or not conn.seats:
            raise WebError("only a player at the table can play again", "not_your_turn")
        async with live.lock:
            row = live.row
            if live.in_lobby and series(row)["games"]:
                seats = [replace(s, ready=True) if s.token == mine else s for s in row.seats]
                await self._update_lobby(live, seats=seats)
            elif live.phase is Phase.OVER and live.table is not None:
                game = live.table.view()
                if not game.finished:
                    raise WebError("the game is not over yet", "not_finished")
                st = game.state
                done = [*(row.settings.get("series") or []), {
                    "game": row.game_id, "winners": [st.players[i].name for i in st.winners()]}]
                seats = [replace(s, ready=s.kind != "person" or s.token == mine, away=False,
                                 votes=()) for s in row.seats]
                await self._update_lobby(live, seats=seats, again=True,
                                         settings={**row.settings, "series": done})
                await self._new_game_here(live)
            else:
                raise WebError("the game is not over yet", "not_finished")
            await self._start_if_ready(live)
        self.fanout.changed(live)

    async def leave(self, live: LiveTable, conn: Connection) -> None:
        """This browser's people leave the table's next game (their seats go)."""
        mine = conn.token_hash
        if mine is None or not conn.seats:
            raise WebError("you hold no seat at this table", "not_your_turn")
        async with live.lock:
            row = live.row
            if not (live.in_lobby and series(row)["games"]):
                raise WebError("a seat is left once the game is over, before the next one",
                               "conflict")
            seats = self.duplicates.left(row, mine) if is_card(row) else \
                [s for s in row.seats if s.token != mine]
            await self._update_lobby(live, seats=seats)
            await self._start_if_ready(live)
        self.fanout.changed(live)

    async def _update_lobby(self, live: LiveTable, **changes: Any) -> None:
        row = live.row
        try:
            live.take_row(await self.io_call(partial(
                self.store.update_table, row.id, row.version, **changes)))
        except StoreError as e:
            live.take_row(await self.io_call(self.store.load_table, row.id))
            raise WebError(f"{e}", "conflict") from None
        self.fanout.reseat(live)
        self._look_around(live)
        self.cluster.tell_lobby(live)

    async def _new_game_here(self, live: LiveTable) -> None:
        """The table's game is put away (it stays in the store): a lobby for the next."""
        await self.stop_driving(live)
        if live.unsubscribe is not None:
            live.unsubscribe()
            live.unsubscribe = None
        live.again()
        live.stop = asyncio.Event()
        self.fanout.reseat(live)

    # --- changes --------------------------------------------------------------------
    def _on_event(self, live: LiveTable, event: Event) -> None:
        self.fanout.event(live, event)
        self.cluster.tell_event(live, event)
        self.duplicates.event(live, event.kind)
        if event.kind == "finished":
            self.tasks.spawn(self._finished(live), "yacht-finished")

    async def _finished(self, live: LiveTable) -> None:
        async with live.lock:  # (a new game at the table waits for this one's end)
            if not live.over():
                return
            live.stop.set()
            self.fanout.changed(live)  # (its people may play again now)
            await self._close_row(live)

    async def _close_row(self, live: LiveTable) -> None:
        """The table's row closed: its game is over (no longer listed as played)."""
        try:
            live.take_row(await self.io_call(partial(
                self.store.update_table, live.row.id, live.row.version, closed=True)))
        except StoreError as e:
            log.warning("table %s: %s", live.id, e)

    # --- commands -----------------------------------------------------------------
    def _playing(self, live: LiveTable, conn: Connection) -> tuple[Table, str]:
        table = live.table
        if table is None:
            raise WebError("the game has not started: waiting for players", "not_started")
        if conn.watcher or conn.token_hash is None:
            raise WebError("you are watching: take a seat to play", "not_your_turn")
        return table, conn.token_hash

    async def command(self, live: LiveTable, conn: Connection, command: BrowserCommand,
                      version: int | None) -> None:
        """Apply a command from this connection's seats (the ack is sent by the caller
        once this returns: the store has the action then)."""
        table, seat = self._playing(live, conn)
        self.duplicates.check_command(live, command)
        try:
            await table.act_async(seat, command.to_command(), version=version,
                                  offload=self.move_call)
        except Refused as e:
            raise WebError(str(e), e.code) from None  # type: ignore[arg-type]

    async def hint(self, live: LiveTable, conn: Connection) -> HintAnswer:
        """The hint's answer: ``moves`` (best for the score first) and ``to_win`` (the
        moves ranked by the chance of winning, or null where it cannot be worked out)."""
        try:
            table, seat = self._playing(live, conn)
        except WebError as e:
            if e.code == "not_started":  # (in the lobby: that says why)
                raise
            raise WebError("a hint is for your own turn", "not_your_turn") from None
        try:
            moves = await self.think_call(table.hint, seat)
        except (HintUnavailable, Refused) as e:
            raise WebError(str(e), "no_hint") from None
        win: WinAdvice | None = getattr(moves, "to_win", None)
        to_win: ToWin | None = None if win is None else {
            "title": win.title, "how": win.how, "exact": win.exact, "differ": win.differ,
            "moves": [{**_move(m), "chance": round(chance, 4)} for m, chance in win.moves],
            "preparing": None if win.preparing is None else round(win.preparing, 4)}
        return {"type": "hint", "moves": [_move(m) for m in moves], "to_win": to_win,
                "marked": bool(getattr(moves, "marked", False))}

    async def set_prefs(self, live: LiveTable, conn: Connection, dice_mark: str | None,
                        pause: bool | None) -> None:
        """This browser's choices (None: as before) for its seats at the table: kept with
        the connection (a watcher's are used once it takes a seat, a lobby's once the game
        starts), and told to the table. They change no die and no score."""
        if dice_mark is not None:
            conn.dice_mark = dice_mark
        if pause is not None:
            conn.pause = pause
        table = live.table
        if table is not None:
            await self.move_call(self._seat_prefs, table, conn)

    @staticmethod
    def _seat_prefs(table: Table, conn: Connection) -> None:
        if conn.token_hash is not None and conn.seats and (
                conn.dice_mark is not None or conn.pause is not None):
            table.set_prefs(conn.token_hash, dice_mark=conn.dice_mark, pause=conn.pause)

    async def set_speed(self, live: LiveTable, conn: Connection, speed: Speed) -> None:
        table = live.table
        if not (conn.seats or live.is_host(conn)):
            raise WebError("only a player at the table (or its host) sets the pace",
                           "not_your_turn")
        if table is None:  # (the lobby: the game starts at it)
            async with live.lock:
                if live.table is None and live.row.speed != speed:
                    await self._update_lobby(live, speed=speed)
                    self.fanout.changed(live)
                    return
            table = live.table
            if table is None:
                return
        table.set_speed(speed)
        async with live.lock:  # kept in the row: the next game, or one taken up after a
            if live.row.speed == speed:  # restart, goes on at this pace
                return
            try:
                live.take_row(await self.io_call(partial(
                    self.store.update_table, live.row.id, live.row.version, speed=speed)))
            except StoreError as e:  # (the game goes on at it; only the next one would not)
                log.warning("table %s: %s", live.id, e)

    # --- reactions (not game actions: nothing stored, no new version) ---------------
    def react(self, live: LiveTable, conn: Connection, reaction: ReactionName) -> None:
        """``conn``'s reaction to everyone at the table, here and on the other processes
        (WebError when refused: see ``reactions.py``)."""
        message = accept_reaction(live, conn, reaction)
        self.fanout.react(live, message)
        self.cluster.tell_reaction(live, message)

    def _look_around(self, live: LiveTable) -> None:
        """Who is at the table now; the other processes hear of this one's browsers."""
        live.look_around()
        self.cluster.tell_here(live)

    def seen_elsewhere(self, live: LiveTable) -> None:
        """Another process's browsers at the table changed: who is absent, shown again."""
        live.look_around()
        self.fanout.changed(live)

    def react_heard(self, live: LiveTable, body: dict[str, Any]) -> None:
        """Another process's reaction at this table: to this process's browsers."""
        message = heard_reaction(live, body)
        if message is not None:
            self.fanout.react(live, message)

    def warning_heard(self, live: LiveTable, text: str) -> None:
        """Another process's driver of this table could not save its move: this process's
        browsers hear why the game stands still."""
        table = live.table
        if table is not None:
            self.fanout.event(live, Event("store_warning", table.version, None, text,
                                          {"remote": True}))

    # --- the computer players -------------------------------------------------------
    def drive(self, live: LiveTable) -> None:
        assert live.table is not None
        live.stop = asyncio.Event()
        live.driver = self.tasks.spawn(self._drive(live, live.table, live.stop),
                                       f"yacht-table-{live.id}")

    async def _drive(self, live: LiveTable, table: Table, stop: asyncio.Event) -> None:
        """Play what the table does by itself until ``stop``. A move the store cannot
        take (the database away) stops no game: the browsers here are told once, and
        the driver tries again, a little later each time (at most every 10 s): the move
        that failed left the table as it was, and one the store took meanwhile from
        another process is taken up when the save meets it (a conflict). (Before, the
        driver's task died with the first such move and the table's computers, clock and
        stand-ins stood still until the process restarted.)"""
        async def think_and_play(decide: Callable[[], Any]) -> None:
            # drive_async's "think": the computer's decision (in the thinking pool) and
            # its play (in a mover thread: its save may wait for the database) are both
            # done off the event loop, so drive_async's own Table.step has no plan left
            # to play on the loop (Table.step(None) plays nothing). Played on the loop,
            # a database that hung held up every table and request of this process.
            await self.move_call(table.step, await self.think_call(decide))

        wait = DRIVER_RETRY
        told = False
        while not stop.is_set():
            try:
                await drive_async(table, stop=stop, think=think_and_play,
                                  play=self.move_call)
                return
            except (Refused, StoreError) as e:
                if isinstance(e, Refused) and e.code != "store":
                    raise
                log.warning("table %s: a move the table made itself was not saved (%s): "
                            "trying again in %.0f s", live.id, redact(str(e)), wait)
                if not told:
                    told = True
                    text = f"{e}; the game goes on when the database is back"
                    self.fanout.event(live, Event("store_warning", table.version, None, text))
                    self.cluster.tell_warning(live, redact(text))
            try:
                await asyncio.wait_for(stop.wait(), wait)
            except TimeoutError:
                pass
            wait = min(wait * 2, DRIVER_RETRY_MOST)

    async def stop_driving(self, live: LiveTable) -> None:
        live.stop.set()
        driver, live.driver = live.driver, None
        if driver is not None:
            try:
                await asyncio.wait_for(driver, 5)
            except (TimeoutError, asyncio.CancelledError, Exception):
                driver.cancel()

    # --- housekeeping ---------------------------------------------------------------
    async def unload_idle(self, older_than: float = 600.0) -> int:
        """Forget tables no one has looked at for a while (they stay in the store) - but
        a game with a turn clock this process drives: its clock plays on to the end."""
        now = time.monotonic()
        gone = [live for live in self.tables()
                if not live.connections and now - live.idle_since > older_than
                and not _clock_plays_on(live) and not self.duplicates.busy(live)]
        for live in gone:
            await self._unload(live)
        return len(gone)

    async def _unload(self, live: LiveTable) -> None:
        if self.live.get(live.id) is live:
            del self.live[live.id]
        live.gone()
        if live.unsubscribe is not None:
            live.unsubscribe()
        await self.stop_driving(live)
        table = live.table
        if table is not None:
            # a game over whose results no one asked for (the tab closed at "Game over")
            # is recorded now: nobody can take a score back any more, and it would stay
            # unfinished in the store, out of the top ten, the statistics, the analysis
            try:
                await self.move_call(table.close)
                if table.view().finished and not live.row.closed:
                    await self._close_row(live)
            except Exception as e:  # (the store away: the game is taken up as it was)
                log.warning("table %s: closing it failed (%s)", live.id, redact(str(e)))
        await self.cluster.forget(live)

    def tables_json(self, rows: Iterable[TableRow]) -> list[dict[str, Any]]:
        out = []
        for row in rows:
            if any(s.token is not None and s.token.startswith(CLAIM) for s in row.seats):
                continue  # a saved game waiting for its owner's browser: no one else's
            if is_card(row):
                continue  # a player's own card of a duplicate table: no one else's
            if is_private_daily(row):
                continue  # a daily challenge's game before the day is over: its dice

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

    def status(self) -> dict[str, int]:
        return {"tables": len(self.live),
                "driving": sum(1 for t in self.live.values()
                               if t.driver is not None and not t.driver.done())}


#: the hubs serving in this process (launched, not closed yet): the server that stops
#: tells their browsers to reconnect (:class:`yacht.web.server.Server`)
_SERVING: weakref.WeakSet[Hub] = weakref.WeakSet()


def serving(loop: asyncio.AbstractEventLoop) -> list[Hub]:
    """The hubs of this process serving on ``loop`` (launched there, not closed yet)."""
    return [hub for hub in list(_SERVING) if hub._loop is loop]


def _under_way(name: str, title: str) -> WebError:
    return WebError(f"{name} has a game of today's {title} challenge under way: a name "
                    "plays one game of the day at a time - go on with it in the browser "
                    "that began it, or play under another name", "conflict")


def _clock_plays_on(live: LiveTable) -> bool:
    """A game under way whose turn clock this process drives (no one need look at it)."""
    return live.playing and live.driver is not None and live.table is not None \
        and live.table.turn_clock is not None


def _move(m: Advice) -> Move:
    """One move of a hint as the page gets it."""
    return {"text": m.text, "expected": round(m.expected, 2), "loss": round(m.loss, 2),
            "reroll": list(m.reroll), "category": m.category, "column": m.column}


__all__ += ["CLAIM", "Phase", "Seat"]
