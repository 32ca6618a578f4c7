"""Reactions: a fixed few (:data:`~yacht.web.protocol.REACTIONS`, never free text: nothing
to moderate) that a seated player or a watcher sends to everyone at the table, shown a
moment beside the name.

They are not game actions: nothing is stored, the table gets no new version, and a
refused one changes nothing. A table may turn them off when it is made (its row's
``settings``). The budget is fair, so that no one silences the players: each sender may
send :data:`PER_SENDER` of them in a window of :data:`WINDOW` seconds - a seated player
as their seat (every tab of it alike), a watcher as their address (``limits.address_key``:
a socket opened afresh, or many, is no way round it) - and all the watchers together
:data:`WATCHERS` (a watcher never takes a player's share: a table's reactions are at
most its seats' share and the watchers'). Past any of these, on each server process, the
sender is answered ``flood`` and no one else hears of it. Another process's reactions
come as news (``cluster.py``) and are checked again there: a known reaction, seats of
that table (their names are the row's, never the news's).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from yacht.store.core import TableRow

from .errors import WebError
from .live import Connection, LiveTable
from .protocol import REACTIONS, Reaction, ReactionName, TableRequest

__all__ = ["PER_SENDER", "WATCHERS", "WINDOW", "Budget", "Window", "accept",
           "heard", "on", "settings_of"]

#: a sender's reactions in a window (a seat's, a watcher address's), all the watchers'
#: together (on one process), the window (seconds): a table of 8 seats hears at most
#: 8 x 3 + 6 in a window, and a crowd of watchers no more than 6
PER_SENDER, WATCHERS, WINDOW = 3, 6, 10.0
#: senders remembered at most at a table before the quiet ones are forgotten
_SENDERS = 1_000


class Window:
    """At most ``most`` in any ``seconds``: the times taken, newest last."""

    def __init__(self, most: int, seconds: float = WINDOW) -> None:
        self.most, self.seconds = most, seconds
        self.times: deque[float] = deque()

    def free(self, now: float) -> bool:
        while self.times and now - self.times[0] >= self.seconds:
            self.times.popleft()
        return len(self.times) < self.most

    def take(self, now: float) -> None:
        self.times.append(now)


class Budget:
    """A table's reactions lately (on this process): each seat's, each watcher
    address's, and all the watchers'."""

    def __init__(self) -> None:
        self.seats: dict[int, Window] = {}
        self.watchers: dict[str, Window] = {}
        self.all_watchers = Window(WATCHERS)

    def _window(self, windows: dict[Any, Window], key: Any, now: float) -> Window:
        window = windows.get(key)
        if window is None:
            if len(windows) >= _SENDERS:   # (forget the senders gone quiet)
                for quiet in [k for k, w in windows.items() if w.free(now) and not w.times]:
                    del windows[quiet]
            window = windows[key] = Window(PER_SENDER)
        return window

    def take(self, seats: frozenset[int], address: str, now: float) -> None:
        """Count one reaction of a browser holding ``seats`` (none: a watcher at
        ``address``), or raise WebError ``flood`` (counting nothing)."""
        if seats:
            mine = [self._window(self.seats, i, now) for i in sorted(seats)]
        else:
            mine = [self._window(self.watchers, address, now)]
        if not all(w.free(now) for w in mine):
            raise WebError(f"at most {PER_SENDER} reactions in {WINDOW:g} seconds: wait a "
                           "moment", "flood")
        if not seats:
            if not self.all_watchers.free(now):
                raise WebError(f"the watchers' reactions are at most {WATCHERS} in "
                               f"{WINDOW:g} seconds together: wait a moment", "flood")
            self.all_watchers.take(now)
        for w in mine:
            w.take(now)


def on(row: TableRow) -> bool:
    """The table takes reactions (unless it was made without them)."""
    return row.settings.get("reactions", True) is not False


def settings_of(req: TableRequest) -> dict[str, Any]:
    """A new table's own settings as stored: only what is not the default."""
    return {} if req.reactions else {"reactions": False}


def _message(row: TableRow, seats: list[int], reaction: ReactionName) -> Reaction:
    return {"type": "reaction", "reaction": reaction, "seats": seats,
            "names": [row.seats[i].name or f"Player {i + 1}" for i in seats]}


def accept(live: LiveTable, conn: Connection, reaction: ReactionName,
           now: float | None = None) -> Reaction:
    """``conn``'s reaction as everyone at the table is sent it; WebError when it is
    refused (the table has none, no game shown yet, or past a limit)."""
    if not on(live.row):
        raise WebError("this table was made without reactions", "reactions_off")
    if live.table is None:
        raise WebError("reactions come once the game has started", "not_started")
    now = time.monotonic() if now is None else now
    if live.reacted is None:
        live.reacted = Budget()
    live.reacted.take(conn.seats, conn.address, now)
    return _message(live.row, sorted(conn.seats), reaction)


def heard(live: LiveTable, body: Mapping[str, Any]) -> Reaction | None:
    """Another process's reaction at this table, as news says it (None: not one to show:
    unknown, seats not of this table, or the table has none)."""
    reaction, seats = body.get("reaction"), body.get("seats")
    if reaction not in REACTIONS or not isinstance(seats, list) or len(seats) > len(
            live.row.seats) or not on(live.row):
        return None
    if not all(isinstance(i, int) and not isinstance(i, bool)
               and 0 <= i < len(live.row.seats) for i in seats):
        return None
    return _message(live.row, sorted(set(seats)), reaction)
