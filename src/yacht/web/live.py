"""A table while this server process shows it, and the browsers looking at it.

A :class:`LiveTable` goes through explicit phases: ``LOBBY`` (the seats fill; no game
yet), ``PLAYING`` (its :class:`~yacht.session.table.Table` is attached), ``OVER`` (the
game was recorded; the row is closed), ``GONE`` (unloaded: no one looked at it for a
while, or the server stops). Only :meth:`LiveTable.attach`, :meth:`LiveTable.over` and
:meth:`LiveTable.gone` move it on, and only forwards - but for one way back:
:meth:`LiveTable.again`, ``OVER -> LOBBY``, a new game at the same table (its people
accept or leave).
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from yacht.engine import Action
from yacht.rules import Ruleset
from yacht.session.table import Table
from yacht.store.core import TableRow

from .protocol import EventView, ServerMessage

if TYPE_CHECKING:
    from .reactions import Budget

__all__ = ["EVENTS_KEPT", "Close", "Connection", "Heard", "LiveTable", "Phase", "StateDue",
           "ToTell"]

#: a browser's state carries at most this many events (one far behind hears the newest)
EVENTS_KEPT = 100


class Phase(enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    GONE = "gone"


@dataclass(frozen=True)
class StateDue:
    """A connection's next state: made when it is sent (the newest then)."""


@dataclass(frozen=True)
class Close:
    """Close the connection once what is before this in its outbox is sent."""

    code: int
    reason: str


STATE_DUE = StateDue()
Outgoing = ServerMessage | StateDue | Close


@dataclass(eq=False)
class Connection:
    """One browser tab at a table: the seats its token holds, and what it still has to
    be sent (messages in order; a state at most once however many changes)."""

    token_hash: str | None
    seats: frozenset[int] = frozenset()
    outbox: asyncio.Queue[Outgoing] = field(default_factory=asyncio.Queue)
    state_due: bool = False
    #: the id of a message answered done, to go on the state due (channel._ack)
    ack_due: int | str | None = None
    answering: bool = False  # a command of this browser's with an id is being done
    events: list[EventView] = field(default_factory=list)  # go with the next state
    leaving: bool = False  # told to reconnect, or being dropped: nothing more is queued
    transport: Any = None  # the server's socket, where it can be had (to drop a stuck one)
    address: str = "?"  # whose budgets it spends (``limits.address_key``)
    closing_seen: bool = False  # the socket was closing when last looked at
    #: the task sending to the socket, when the message being sent began (monotonic; 0:
    #: none is), and whether the watchdog ended it (``channel.watch_transports``)
    sender: asyncio.Task[str] | None = None
    sending_since: float = 0.0
    stalled: bool = False
    #: the browser's choices for its seats (None: not said): what a click on a die does,
    #: and the Next player pause before a computer
    dice_mark: str | None = None
    pause: bool | None = None

    @property
    def watcher(self) -> bool:
        return not self.seats

    def send(self, message: ServerMessage) -> None:
        if not self.leaving:
            self.outbox.put_nowait(message)

    def changed(self) -> None:
        """A new state is due (once, however many changes come before it is sent)."""
        if not self.state_due and not self.leaving:
            self.state_due = True
            self.outbox.put_nowait(STATE_DUE)

    def heard(self, event: EventView) -> None:
        self.events.append(event)
        if len(self.events) > EVENTS_KEPT:
            del self.events[:-EVENTS_KEPT]

    def take_events(self) -> list[EventView]:
        """The events since the last state (they go with the state being sent)."""
        self.state_due = False
        events, self.events = self.events, []
        return events

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close; nothing more is queued after this."""
        if not self.leaving:
            self.outbox.put_nowait(Close(code, reason))
            self.leaving = True


@dataclass
class ToTell:
    """What this process still has to tell the other processes of a site about a table
    (one message at a time per table, so that they hear its news in order)."""

    lobby: bool = False  # the seats or the start changed: they read the row
    game: bool = False  # the game changed: the actions saved since ``sent_upto``
    pause_left: str | None = None  # ... and the pause a player here left
    rewound: bool = False  # ... after a take-back (the actions cannot just be sent)
    sent_upto: int = 0  # the actions told so far
    sending: bool = False  # a publisher is at work for this table
    here: bool = False  # the seats this process's browsers hold (as they are when sent)
    here_again: bool = False  # ... even if unchanged (another process asked)
    ask: bool = False  # which seats the others' browsers hold (the table is shown here now)

    @property
    def due(self) -> bool:
        return self.lobby or self.game or self.here or self.ask


@dataclass
class Heard:
    """News of the other processes about a table, taken up by one catch-up at a time."""

    lobby: bool = False
    game: bool = False
    #: the actions the news carried, ``(start, actions)``; None: read the store instead
    actions: list[tuple[int, list[Action]]] | None = field(default_factory=list)
    pauses: list[str] = field(default_factory=list)  # pauses a player elsewhere left
    catching_up: bool = False
    #: the position the newest news's actions lead to (``(actions, position)``: the part
    #: of the snapshot every seat sees alike, as the mover made it)
    position: tuple[int, dict[str, Any]] | None = None

    def take(self) -> Heard:
        """What was heard so far (and forget it here)."""
        got = Heard(self.lobby, self.game, self.actions, self.pauses, position=self.position)
        self.lobby = self.game = False
        self.actions, self.pauses, self.position = [], [], None
        return got

    @property
    def due(self) -> bool:
        return self.lobby or self.game


@dataclass(eq=False)
class LiveTable:
    """An online table in memory (its row is the stored truth)."""

    id: str
    row: TableRow
    ruleset: Ruleset
    phase: Phase = Phase.LOBBY
    table: Table | None = None
    connections: set[Connection] = field(default_factory=set)
    # the computer players' driver, in the process that holds the table's lease
    driver: asyncio.Task[None] | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # joins and starts, one at a time
    loading: asyncio.Lock = field(default_factory=asyncio.Lock)  # row read / game resumed
    idle_since: float = field(default_factory=time.monotonic)
    unsubscribe: Callable[[], None] | None = None
    changes: int = 0  # the browsers were told of a change this many times
    # the snapshots made after the newest change, kept while its states are sent
    shown: tuple[int, Table, Callable[[str | None], dict[str, Any]]] | None = None
    # with other processes (cluster.py): what to tell them, what was heard from them
    to_tell: ToTell = field(default_factory=ToTell)
    heard: Heard = field(default_factory=Heard)
    #: the reactions this process showed lately (``reactions.py``: the table's budget)
    reacted: Budget | None = None
    #: each person's seat whose browser is not here: since when (monotonic)
    absent: dict[int, float] = field(default_factory=dict)
    #: the seats held by browsers at the site's other processes, by process (their news)
    elsewhere: dict[str, frozenset[int]] = field(default_factory=dict)
    #: the seats held here as last told to the other processes
    told_here: frozenset[int] = frozenset()

    # --- the phases -----------------------------------------------------------------
    def attach(self, table: Table) -> None:
        """LOBBY -> PLAYING: the game is here."""
        if self.phase is not Phase.LOBBY:
            raise RuntimeError(f"table {self.id}: a game attached in phase {self.phase.name}")
        self.table = table
        self.phase = Phase.PLAYING

    def over(self) -> bool:
        """PLAYING -> OVER (the game was recorded); False when it was already."""
        if self.phase is not Phase.PLAYING:
            return False
        self.phase = Phase.OVER
        return True

    def gone(self) -> None:
        """Any phase -> GONE: unloaded."""
        self.phase = Phase.GONE

    def again(self) -> Table | None:
        """OVER (or PLAYING, a game another process ended) -> LOBBY: a new game at the
        table; the game that was (None: none)."""
        if self.phase not in (Phase.OVER, Phase.PLAYING):
            raise RuntimeError(f"table {self.id}: a new game in phase {self.phase.name}")
        old, self.table = self.table, None
        self.phase = Phase.LOBBY
        self.shown = None
        return old

    # --- who is here ----------------------------------------------------------------
    def held_here(self) -> frozenset[int]:
        """The seats this process's browsers hold."""
        return frozenset(i for c in self.connections for i in c.seats)

    def look_around(self, now: float | None = None) -> None:
        """Which people's browsers are at the table (here or at another process of the
        site): a seat whose last browser left is absent from now on (a seat no browser
        held yet, from when the table was shown)."""
        now = time.monotonic() if now is None else now
        here = set(self.held_here()).union(*self.elsewhere.values())
        for i, seat in enumerate(self.row.seats):
            if seat.kind != "person" or i in here:
                self.absent.pop(i, None)
            else:
                self.absent.setdefault(i, now)

    def absent_for(self, seat: int, now: float | None = None) -> float | None:
        """Seconds the seat's browser has been gone (None: here, or not a person's)."""
        since = self.absent.get(seat)
        if since is None:
            return None
        return (time.monotonic() if now is None else now) - since

    @property
    def needs_driver(self) -> bool:
        """The game does something by itself: computer players, a turn clock, or the
        computer standing in for someone away."""
        t = self.table
        if t is None:
            return False
        if t.turn_clock is not None:
            return True
        for p in t.players:
            if p.is_computer:
                return True
        return bool(t.stand_ins)

    @property
    def playing(self) -> bool:
        return self.phase is Phase.PLAYING

    @property
    def in_lobby(self) -> bool:
        return self.phase is Phase.LOBBY

    # --- the row --------------------------------------------------------------------
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

    def is_host(self, conn: Connection) -> bool:
        """The browser that made the table (in a game of computers it holds no seat)."""
        return conn.token_hash is not None and conn.token_hash == self.row.host
