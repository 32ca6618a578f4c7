"""Seats and who holds them: a new table's seats, joining, starting, handing a saved
game to a browser, and the lobby as a browser sees it.

A seat token is a random secret the browser keeps; the store has only its SHA-256.
One token may hold several seats (people sharing one browser). A saved game belongs
to whoever holds its seats: a terminal's game has no browser's token until its owner
asks for a one-time link (``yacht resume ID --web``, :mod:`yacht.web.claims`); the
link's key is taken once, for a token of the browser's own.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from yacht.engine import DEFAULT_LEVEL, Player
from yacht.parsing import InputError, check_name, name_key
from yacht.render import verb
from yacht.rules import Ruleset
from yacht.session.clock import TurnClock
from yacht.session.table import Seat
from yacht.store import Store, StoreError
from yacht.store.core import SeatRow, TableRow

from . import reactions
from .claims import CLAIM, hash_token
from .errors import WebError
from .live import Connection, LiveTable
from .protocol import ABSENT_AFTER, LobbyView, PersonSeat, Series, TableRequest

__all__ = ["Lobby", "absent_after", "check_unlike", "clean_name", "clock_text", "hash_token",
           "name_key", "new_token", "seat_voters", "series", "table_clock"]

T = TypeVar("T")
IoCall = Callable[..., Awaitable[Any]]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def check_unlike(name: str, others: Iterable[str], where: str = "at the table") -> None:
    """WebError ``conflict`` when ``name`` reads as one of ``others`` (:func:`name_key`),
    who are ``where`` already."""
    key = name_key(name)
    for other in others:
        if name_key(other) == key:
            same = name.casefold() == other.casefold()
            raise WebError(f"{verb(name, 'is', 'are')} {where} already: choose another "
                           "name." if same else f"{name} looks like {other}, who is {where} "
                           "already: choose a name the others can tell apart.", "conflict")


def clean_name(raw: str, seat: int | None = None) -> str:
    """A player's name as typed (the checks every interface makes; WebError otherwise,
    naming the seat when there is one: "seat 2: The name ...", the page's "Player 2: The
    name ..." under that player's field)."""
    try:
        return check_name(raw)
    except InputError as e:
        raise WebError(str(e) if seat is None else f"seat {seat + 1}: {e}") from None


class Lobby:
    """The seats of the tables of one store."""

    def __init__(self, store: Store, io_call: IoCall) -> None:
        self.store = store
        self._io = io_call

    # --- a new table ---------------------------------------------------------------
    async def create(self, req: TableRequest, rs: Ruleset,
                     more: dict[str, Any] | None = None) -> tuple[TableRow, str]:
        """Store a new table for ``req``; the token of this browser's seats (``more``:
        settings of the table's own, such as a daily challenge's day)."""
        if not rs.min_players <= len(req.seats) <= rs.max_players:
            raise WebError(f"{rs.id} takes {rs.min_players}-{rs.max_players} players")
        token = new_token()
        mine = hash_token(token)
        rows = self.seat_rows(req, mine)
        clock = req.clock.clock()
        settings = {"clock": clock.to_json() if clock is not None else None,
                    "absent_after": req.absent_after}
        row = await self._io(partial(self.store.create_table, rs.id, dict(rs.option_values),
                                     req.speed, rows, host=mine,
                                     settings={**settings, **reactions.settings_of(req),
                                               **(more or {})}))
        return row, token

    @staticmethod
    def seat_rows(req: TableRequest, mine: str) -> list[SeatRow]:
        """A new table's seats as stored (``mine``: the hashed token of the seats here);
        WebError for a name refused or given twice."""
        rows: list[SeatRow] = []
        names: set[str] = set()
        for i, seat in enumerate(req.seats):
            if isinstance(seat, PersonSeat):
                if seat.here and seat.name is None:
                    raise WebError(f"seat {i + 1}: Give the name of the player here.")
                name = clean_name(seat.name, i) if seat.name is not None else None
                rows.append(SeatRow(name, "person", None, mine if seat.here else None))
            else:
                name = clean_name(seat.name or f"Computer {i + 1}", i)
                rows.append(SeatRow(name, "computer", seat.kind, None))
            if name is not None:
                if name_key(name) in names:
                    other = next(r.name for r in rows[:-1] if r.name is not None
                                 and name_key(r.name) == name_key(name))
                    raise WebError(
                        f"Two players are called {name}: give each their own name."
                        if other.casefold() == name.casefold() else
                        f"seat {i + 1}: {name} looks like {other}: give each player a name "
                        "the others can tell apart.")
                names.add(name_key(name))
        return rows

    # --- joining and starting ---------------------------------------------------------
    async def join(self, live: LiveTable, seat: int, name: str, token: str | None) -> str:
        """Take open seat ``seat`` (0-based) as ``name`` (one the others can tell from
        theirs: :func:`check_unlike`); the browser's token: ``token`` when it holds a seat
        here already (or made the table), else a new one - never a secret the browser
        chose. Call it holding ``live.lock``."""
        row = live.row
        if row.game_id is not None:
            raise WebError("the game has started: every seat is taken", "conflict")
        if seat >= len(row.seats):
            raise WebError(f"seat: 0-{len(row.seats) - 1}")
        if row.seats[seat].kind != "person" or row.seats[seat].token is not None:
            raise WebError(f"seat {seat + 1} is taken", "conflict")
        who = clean_name(name)
        check_unlike(who, (s.name for i, s in enumerate(row.seats)
                           if s.name and i != seat))  # (the seat's own name)
        if token is not None and hash_token(token) not in {row.host, *(
                s.token for s in row.seats)}:
            token = None  # (one this table never gave: the secret is the server's to make)
        token = token or new_token()
        seats = list(row.seats)
        seats[seat] = SeatRow(who, "person", None, hash_token(token))
        try:
            live.take_row(await self._io(partial(self.store.update_table, row.id,
                                                 row.version, seats=seats)))
        except StoreError as e:
            live.take_row(await self._io(self.store.load_table, row.id))
            raise WebError(f"{e}", "conflict") from None
        return token

    @staticmethod
    def check_start(live: LiveTable, conn: Connection) -> None:
        if not live.in_lobby:
            raise WebError("the game has started", "conflict")
        if not conn.seats and not live.is_host(conn):
            raise WebError("only a player at the table can start the game", "not_your_turn")

    @staticmethod
    def playing(row: TableRow, force: bool) -> tuple[SeatRow, ...] | None:
        """The seats that play when the game starts now: every seat once no person's seat
        is open; with ``force``, without the open ones. None: not yet."""
        def waiting(s: SeatRow) -> bool:  # (open, or asked to play again and not answered)
            return s.kind == "person" and (s.token is None or not s.ready)

        open_seats = [s for s in row.seats if waiting(s)]
        if open_seats and not force:
            return None
        seats = tuple(s for s in row.seats if not waiting(s))
        if not any(s.kind == "person" for s in seats) and (open_seats or series(row)["games"]):
            if force:
                raise WebError("no one has taken a seat yet")
            return None  # (everyone left the next game: no game of computers alone)
        return seats

    @staticmethod
    def players(seats: tuple[SeatRow, ...]) -> list[Player]:
        return [Player(s.name or f"Player {i + 1}", "computer", s.level or DEFAULT_LEVEL)
                if s.kind == "computer" else Player(s.name or f"Player {i + 1}")
                for i, s in enumerate(seats)]

    @staticmethod
    def seats(row: TableRow) -> list[Seat]:
        """The game's seats: one per token, holding that token's players."""
        by_token: dict[str, set[int]] = {}
        for i, s in enumerate(row.seats):
            if s.token is not None and not s.token.startswith(CLAIM):
                by_token.setdefault(s.token, set()).add(i)
        return [Seat(token, frozenset(seats)) for token, seats in by_token.items()]

    # --- a saved game handed to a browser ----------------------------------------------
    async def claim(self, live: LiveTable, key: str) -> tuple[TableRow, str]:
        """The row in which a one-time link's ``key`` is traded for a new token of this
        browser's own (the seats the key held), and that token; the key is spent (call
        it holding ``live.lock``)."""
        pending = CLAIM + hash_token(key)
        row = live.row
        if not any(s.token == pending for s in row.seats):
            raise WebError("this link was used already, or is not this table's: ask for a "
                           "new one (yacht resume ID --web)", "conflict")
        token = new_token()
        mine = hash_token(token)
        seats = [SeatRow(s.name, s.kind, s.level, mine) if s.token == pending else s
                 for s in row.seats]
        try:
            row = await self._io(partial(
                self.store.update_table, row.id, row.version, seats=seats,
                host=mine if row.host == pending else row.host))
        except StoreError as e:
            live.take_row(await self._io(self.store.load_table, row.id))
            raise WebError(f"{e}", "conflict") from None
        return row, token

    # --- what a browser sees --------------------------------------------------------
    @staticmethod
    def view(live: LiveTable, conn: Connection) -> LobbyView:
        rs = live.ruleset
        return {
            "phase": "lobby", "id": live.id, "variant": rs.id, "name": rs.name,
            "options": dict(rs.option_values), "speed": live.row.speed,  # type: ignore[typeddict-item]
            "seats": [{"name": s.name, "kind": "computer" if s.kind == "computer" else "person",
                       "level": s.level, "open": s.kind == "person" and s.token is None,
                       "mine": i in conn.seats, "ready": s.ready}
                      for i, s in enumerate(live.row.seats)],
            "can_start": bool(conn.seats) or live.is_host(conn),
            "reactions": reactions.on(live.row),
            "series": series(live.row),
            "clock": clock_text(live.row),
        }


# --- the table's settings and series -------------------------------------------------------
def table_clock(row: TableRow) -> TurnClock | None:
    """The turn clock the table's games have (None: none)."""
    return TurnClock.from_json(row.settings.get("clock"))


def clock_text(row: TableRow) -> str | None:
    clock = table_clock(row)
    return clock.describe() if clock is not None else None


def absent_after(row: TableRow) -> int:
    """Seconds a seat's browser is gone before the others may hand it to a computer."""
    value = row.settings.get("absent_after")
    return value if isinstance(value, int) and not isinstance(value, bool) else ABSENT_AFTER


def series(row: TableRow) -> Series:
    """The games played at the table before (each with its winners' names), and each seat's
    wins among them."""
    games = [g for g in row.settings.get("series") or [] if isinstance(g, dict)]
    wins = [sum(1 for g in games if s.name is not None and s.name in (g.get("winners") or []))
            for s in row.seats]
    return {"games": len(games), "wins": wins}


def seat_voters(row: TableRow, seat: int) -> set[str]:
    """Who votes on handing ``seat`` to the computer: the other people's browsers at the
    table (not those away themselves)."""
    own = row.seats[seat].token
    return {s.token for s in row.seats if s.kind == "person" and s.token is not None
            and s.token != own and not s.away and not s.token.startswith(CLAIM)}
