"""What goes out to the browsers at a table: a state per change (made when it is sent,
shared by the browsers whose states are made at once), the events since the last one,
and who is there.

Nothing here waits: a change marks every connection's state as due (once, however
many changes come), and each connection's send loop (``channel.py``) makes its state
when it gets to it.

A table may be **private** (a duplicate table's card once its game has started:
``Duplicates.private``): then only the browsers holding its seat get its states. One
without it is shut out at the first change after the table became private (an
``error``, ``private``, then the socket closes, :data:`CLOSE_PRIVATE`: what a new
watcher is told at its hello), and a state is never made for it, whatever was queued.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from yacht.session.present import BROWSER
from yacht.session.table import Event, Table

from . import reactions
from .errors import WebError, redact
from .live import Connection, LiveTable, Phase
from .lobby import absent_after, seat_voters, series, table_clock
from .protocol import EventView, GameSeat, GameView, LobbyView, Presence, Reaction, State

__all__ = ["CLOSE_PRIVATE", "Fanout"]

#: the close code of a socket at a private table without its seat
CLOSE_PRIVATE = 4403


def _public(live: LiveTable) -> str | None:
    return None


class Fanout:
    """The connections of every table of this process, and what they are sent."""

    def __init__(self, lobby_view: Callable[[LiveTable, Connection], LobbyView],
                 private: Callable[[LiveTable], str | None] = _public) -> None:
        """``private``: why a table shows itself only to its seats' browsers (None: it
        shows itself to anyone)."""
        self._lobby_view = lobby_view
        self._private = private

    # --- who is there ---------------------------------------------------------------
    def add(self, live: LiveTable, conn: Connection) -> None:
        conn.send({"type": "welcome", "table": live.id, "seats": sorted(conn.seats)})
        live.connections.add(conn)
        self.changed(live)

    def remove(self, live: LiveTable, conn: Connection) -> None:
        if conn not in live.connections:
            return
        live.connections.discard(conn)
        if not live.connections:
            live.idle_since = time.monotonic()
        self.changed(live)

    def reseat(self, live: LiveTable) -> None:
        """The row's seats changed: each connection holds what its token holds now."""
        for conn in live.connections:
            conn.seats = live.seats_of(conn.token_hash)

    @staticmethod
    def presence(live: LiveTable) -> list[Presence]:
        out: dict[tuple[int, ...], Presence] = {}
        watchers = 0
        for c in live.connections:
            if c.watcher:
                watchers += 1
                continue
            seats = sorted(c.seats)
            out[tuple(seats)] = {"seats": seats, "names": [
                live.row.seats[i].name or f"Player {i + 1}" for i in seats]}
        for held in live.elsewhere.values():  # (browsers at the site's other processes)
            seats = sorted(held)
            out.setdefault(tuple(seats), {"seats": seats, "names": [
                live.row.seats[i].name or f"Player {i + 1}" for i in seats]})
        listed = [out[k] for k in sorted(out)]
        if watchers:
            listed.append({"seats": [], "names": [], "watchers": watchers})
        return listed

    # --- changes --------------------------------------------------------------------
    def changed(self, live: LiveTable) -> None:
        """Every connection of the table gets the new state (once, however many changes);
        at a private table, a connection without its seat is shut out instead."""
        live.changes += 1
        why = self._private(live)
        for conn in list(live.connections):
            if why is not None and not conn.seats:
                self._shut_out(live, conn, why)
            else:
                conn.changed()

    @staticmethod
    def _shut_out(live: LiveTable, conn: Connection, why: str) -> None:
        """A browser at a private table without its seat: told so, then closed; it no
        longer counts at the table (the events it heard go nowhere)."""
        conn.events.clear()
        conn.send({"type": "error", "code": "private", "message": why})
        conn.close(CLOSE_PRIVATE, "private")
        live.connections.discard(conn)
        if not live.connections:
            live.idle_since = time.monotonic()

    def event(self, live: LiveTable, event: Event) -> None:
        """An event of the table's game: it goes with each connection's next state."""
        said: EventView = event.to_json()  # type: ignore[assignment]
        if event.kind == "store_warning":  # (the store's own line: its file's path)
            said["text"] = redact(said["text"])
        for conn in live.connections:
            conn.heard(said)
        self.changed(live)

    @staticmethod
    def react(live: LiveTable, message: Reaction) -> None:
        """A reaction: to every browser at the table now (it is no change of the table's,
        and a browser that comes later does not hear it)."""
        for conn in live.connections:
            conn.send(message)

    def goodbye(self, lives: list[LiveTable]) -> None:
        """The server is stopping: every browser is told to reconnect (to another
        process, or to this one when it is back), then its socket is closed (1012)."""
        for live in lives:
            for conn in list(live.connections):
                if conn.leaving:
                    continue
                conn.send({"type": "reconnect",
                           "message": "the server is restarting: reconnecting"})
                conn.close(1012, "server restart")

    # --- what a connection sees -------------------------------------------------------
    def state(self, live: LiveTable, conn: Connection) -> State | None:
        """The table as ``conn`` sees it now, with the events since its last state (None:
        a private table, and ``conn`` does not hold its seat: it sees nothing of it)."""
        events = conn.take_events()  # (first: a state that fails is not due again)
        if not conn.seats and self._private(live) is not None:
            return None
        table = live.table
        view: LobbyView | GameView
        if table is None:
            view = self._lobby_view(live, conn)
        else:
            seat = conn.token_hash if conn.seats else None
            snapshot = _unpathed(self._snapshots(live, table)(seat))
            view = {"phase": "game", "id": live.id, "host": live.is_host(conn),
                    "snapshot": snapshot, "seats": self.seats(live, conn),
                    "absent_after": absent_after(live.row), "series": series(live.row),
                    "can_again": bool(conn.seats) and live.phase is Phase.OVER,
                    "reactions": reactions.on(live.row)}
        return {"type": "state", "table": view, "presence": self.presence(live),
                "events": events}

    @staticmethod
    def seats(live: LiveTable, conn: Connection) -> list[GameSeat]:
        """Each seat of the game: its browser here or gone (since when), the votes to hand
        it to the computer, whether ``conn`` may vote."""
        row = live.row
        mine = conn.token_hash
        may = live.playing and mine is not None and (bool(conn.seats) or live.is_host(conn))
        clock = table_clock(row) is not None
        wait = absent_after(row)
        out: list[GameSeat] = []
        for i, s in enumerate(row.seats):
            gone = live.absent_for(i)
            voters = seat_voters(row, i)
            out.append({
                "connected": s.kind == "person" and gone is None,
                "absent": int(gone) if gone is not None else None,
                "away": s.away, "votes": len(set(s.votes) & voters),
                "needed": len(voters) // 2 + 1, "voted": mine in s.votes,
                "can_vote": (may and s.kind == "person" and not clock and i not in conn.seats
                             and (s.away or (gone is not None and gone >= wait)))})
        return out

    def watched(self, live: LiveTable) -> LobbyView | GameView:
        """The table as a watcher sees it (``GET /api/tables/ID``; a private table:
        WebError ``private``)."""
        state = self.state(live, Connection(None))
        if state is None:
            raise WebError(self._private(live) or "this table is private", "private")
        return state["table"]

    @staticmethod
    def _snapshots(live: LiveTable, table: Table) -> Callable[[str | None], dict[str, Any]]:
        """The table's snapshots since its newest change, shared by the browsers whose
        states are made in this turn of the loop (then let go: thousands of tables)."""
        shown = live.shown
        if shown is not None and shown[0] == live.changes and shown[1] is table:
            return shown[2]
        make = table.snapshots(BROWSER)
        if shown is None:
            asyncio.get_running_loop().call_soon(setattr, live, "shown", None)
        live.shown = (live.changes, table, make)
        return make


def _unpathed(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's lines of the store (its warning, and the news that tells it again)
    without the database's file path or URL: a browser is never told where it is."""
    news = snapshot["news"]
    if any("/" in line or "\\" in line for line in news):  # (a path, rarely: look closer)
        snapshot["news"] = [redact(line) for line in news]
    if snapshot["warning"]:
        snapshot["warning"] = redact(snapshot["warning"])
    return snapshot
