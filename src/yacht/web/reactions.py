"""Reactions: a fixed few (:data:`~yacht.web.protocol.REACTIONS`, never free text: nothing
to moderate) that a seated player or a watcher sends to everyone at the table, shown a
moment beside the name.

They are not game actions: nothing is stored, the table gets no new version, and a
refused one changes nothing. A table may turn them off when it is made (its row's
``settings``). Each browser may send :data:`PER_BROWSER` of them in a window of
:data:`WINDOW` seconds, and a table takes :data:`PER_TABLE` in that window on each
server process (many watchers' sockets are no way round the first limit); past either,
the sender is answered ``flood`` and no one else hears of it. Another process's
reactions come as news (``cluster.py``) and are checked again there: a known reaction,
seats of that table (their names are the row's, never the news's).
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

__all__ = ["PER_BROWSER", "PER_TABLE", "WINDOW", "Window", "accept", "heard", "on",
           "settings_of"]

#: a browser's reactions in a window, the table's (on one process), the window (seconds)
PER_BROWSER, PER_TABLE, WINDOW = 3, 12, 10.0


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
    if conn.reacted is None:
        conn.reacted = Window(PER_BROWSER)
    if live.reacted is None:
        live.reacted = Window(PER_TABLE)
    if not conn.reacted.free(now):
        raise WebError(f"at most {PER_BROWSER} reactions in {WINDOW:g} seconds: wait a "
                       "moment", "flood")
    if not live.reacted.free(now):
        raise WebError(f"the table takes at most {PER_TABLE} reactions in {WINDOW:g} "
                       "seconds: wait a moment", "flood")
    conn.reacted.take(now)
    live.reacted.take(now)
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
