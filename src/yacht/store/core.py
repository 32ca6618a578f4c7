"""The store: saved games (every action as it happens), high scores and statistics."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import re
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, Row, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from yacht.engine import (
    Action,
    Commitment,
    Player,
    Record,
    RecordError,
    Rng,
    Roll,
    State,
    action_from_json,
    action_to_json,
    commitment_of,
)
from yacht.engine.dice import SEED_BYTES, daily_of, seed_kept
from yacht.rules import Ruleset

from . import opening
from .errors import GameMovedOn, StoreError, describe_db_error, is_locked_error
from .onloop import LoopWriter, settle
from .schema import (
    HEAD,
    actions,
    dailies,
    decision_losses,
    games,
    results,
    web_groups,
    web_tables,
)

__all__ = ["Daily", "DailyResult", "GameInfo", "GroupRow", "PlayerStats", "ScoreEntry",
           "SeatRow", "Store", "TableRow", "open_store", "utc_day"]

log = logging.getLogger("yacht.store")
T = TypeVar("T")
TOP = 10
#: when a group commit's actions reach the disk (Store.group_commits)
FLUSH = ("each", "interval")
_RETRIES = 40
#: a write waiting this long for the database (SQLite's lock held by another program)
#: is told to the listener of :meth:`Store.telling_waits`, seconds
WAIT_NOTICE = 3.0


@dataclass(frozen=True)
class GameInfo:
    """One saved game, as listed by `yacht resume` (finished games too)."""

    id: str
    variant: str
    options: dict[str, str]
    key: str
    players: list[Player]
    turn: int
    turns: int
    current: int
    actions: int
    created: datetime
    last_played: datetime
    finished: datetime | None
    assisted: bool
    scores: list[int] | None
    dice_entered: bool = False
    #: the players who asked the advisor (or whose turns it played), by index
    assisted_players: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "variant": self.variant, "options": dict(self.options),
            "key": self.key, "players": [p.to_json() for p in self.players],
            "turn": self.turn, "turns": self.turns, "current": self.current,
            "actions": self.actions, "created": self.created.isoformat(),
            "last_played": self.last_played.isoformat(),
            "finished": self.finished.isoformat() if self.finished else None,
            "assisted": self.assisted, "assisted_players": list(self.assisted_players),
            "dice_entered": self.dice_entered, "scores": self.scores,
        }


@dataclass(frozen=True)
class ScoreEntry:
    """A line of a top ten."""

    rank: int
    name: str
    score: int
    date: datetime
    game_id: str
    key: str
    assisted: bool               # in the list apart (the advisor was asked, or dice_entered)
    dice_entered: bool = False   # a roll of the game was entered by hand (real dice)
    #: the winner of a game that ended at once (a served Generala): the card as it stood
    ended_early: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "score": self.score,
                "date": self.date.isoformat(), "game_id": self.game_id, "key": self.key,
                "assisted": self.assisted, "dice_entered": self.dice_entered,
                "ended_early": self.ended_early}


@dataclass(frozen=True)
class Daily:
    """A day's challenge of a variant (see :meth:`Store.daily`): ``seed`` is secret until
    the day is over (UTC) - never shown before; ``expert``: the expert's total on its
    dice, once worked out."""

    day: str
    variant: str
    seed: bytes = field(repr=False)
    commitment: str
    expert: int | None

    @property
    def over(self) -> bool:
        """The day is over (UTC): its seed may be shown."""
        return self.day < utc_day()


@dataclass(frozen=True)
class DailyResult:
    """A person's finished game of a daily challenge (in the order they finished)."""

    game_id: str
    name: str
    score: int
    finished: datetime
    assisted: bool


@dataclass(frozen=True)
class DailyGame:
    """A game of a daily challenge, finished or not (see :meth:`Store.daily_games`):
    its person's name, when it was started and finished (naive UTC)."""

    game_id: str
    name: str
    started: datetime
    finished: datetime | None


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in one kind of game (``key`` = variant and options)."""

    name: str
    key: str
    variant: str
    games: int
    wins: int
    multiplayer_games: int
    average: float
    best: int
    upper_bonus_rate: float | None
    yachts: int
    decisions: int
    average_loss: float | None
    #: the figures of the player's games with dice entered by hand (kept apart)
    dice_entered: bool = False
    #: a computer player's (kept apart from a person's of the same name)
    computer: bool = False

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class SeatRow:
    """A seat of an online table: a person (``token``: the hash of the seat token of the
    browser that holds it; None while the seat is open) or a computer player."""

    name: str | None
    kind: str = "person"
    level: str | None = None
    token: str | None = None
    #: the person is away and the computer plays their turns (a vote, or the host)
    away: bool = False
    #: the hashed tokens of those who voted to hand this seat to the computer
    votes: tuple[str, ...] = ()
    #: False: asked to play again (a new game at the table), not answered yet
    ready: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "level": self.level,
                               "token": self.token}
        if self.away:
            out["away"] = True
        if self.votes:
            out["votes"] = list(self.votes)
        if not self.ready:
            out["ready"] = False
        return out

    @classmethod
    def from_json(cls, obj: Any) -> SeatRow:
        if not isinstance(obj, dict) or obj.get("kind") not in ("person", "computer"):
            raise ValueError("a seat is an object with a kind (person or computer)")
        name, level, token = obj.get("name"), obj.get("level"), obj.get("token")
        for v in (name, level, token):
            if v is not None and not isinstance(v, str):
                raise ValueError("a seat's name, level and token are text")
        away, votes, ready = obj.get("away", False), obj.get("votes", []), obj.get("ready", True)
        if not isinstance(away, bool) or not isinstance(ready, bool) or not isinstance(
                votes, list) or not all(isinstance(v, str) for v in votes):
            raise ValueError("a seat's away and ready are true or false, its votes texts")
        return cls(name, obj["kind"], level, token, away, tuple(votes), ready)


@dataclass(frozen=True)
class TableRow:
    """An online table as stored: its variant, seats and (once started) its game."""

    id: str
    variant: str
    options: dict[str, str]
    speed: str
    seats: tuple[SeatRow, ...]
    game_id: str | None
    version: int
    created: datetime
    updated: datetime
    closed: datetime | None
    host: str | None = None  # the hashed token of the browser that made the table
    #: the table's own settings, chosen when it was made (not the variant's options):
    #: ``reactions`` (bool, default true), ``clock``, ``absent_after``; and its history,
    #: ``series`` (the games it played before, with their winners). JSON values; a
    #: setting not stored is its default
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GroupRow:
    """A duplicate table as stored: one-seat tables ("cards", by id in seat order) that
    play the dice of one secret ``seed`` at once; ``expert``: the expert's total on
    those dice, once worked out."""

    id: str
    variant: str
    options: dict[str, str]
    seed: bytes = field(repr=False)
    commitment: str
    cards: tuple[str, ...]
    expert: int | None
    created: datetime


#: the next action of an open game: its count moves on only from the expected index
_ADVANCE = (update(games)
            .where(and_(games.c.id == bindparam("g"), games.c.finished.is_(None),
                        games.c.n_actions == bindparam("i")))
            .values(n_actions=bindparam("n"), last_played=bindparam("t")))
_ADD_ACTION = insert(actions)

#: PostgreSQL, a group commit in one statement: each game (``g``) open and at action
#: ``i`` goes to ``n`` actions, and the actions (``ag``, ``ai``, ``aa``) of the games that
#: went are inserted; the games that went are returned
_PG_BATCH = """
WITH b(g, i, n) AS (SELECT * FROM unnest(%s::varchar[], %s::int[], %s::int[])),
adv AS (UPDATE games SET n_actions = b.n, last_played = %s FROM b
        WHERE games.id = b.g AND games.finished IS NULL AND games.n_actions = b.i
        RETURNING games.id),
ins AS (INSERT INTO actions (game_id, idx, action)
        SELECT a.g, a.i, a.a FROM unnest(%s::varchar[], %s::int[], %s::text[]) AS a(g, i, a)
        WHERE a.g IN (SELECT id FROM adv))
SELECT id FROM adv
"""


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def utc_day(when: datetime | None = None) -> str:
    """The day (UTC, ``YYYY-MM-DD``) of ``when`` (naive UTC; default now)."""
    return (when or _now()).date().isoformat()


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _aware(d: datetime) -> datetime:
    return d.replace(tzinfo=UTC) if d.tzinfo is None else d.astimezone(UTC)


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def open_store(url: str | None = None, readonly: bool = False) -> Store:
    """Open (creating and migrating when needed) the store at ``url``.

    ``None`` means ``$YACHT_DB``, else the SQLite file in the user data
    directory. Raises :class:`StoreError` with a one-line message.

    ``readonly``: only read. An SQLite file is then neither created, migrated
    nor written, and nothing is created beside it (no -wal/-shm files), so a
    read-only file or folder can be read: a missing file reads as an empty
    store, one of an older schema is read from a migrated copy in memory.
    Writing to such a store raises StoreError.

    >>> import tempfile, os
    >>> with open_store(os.path.join(tempfile.mkdtemp(), "t.db")) as s:
    ...     s.unfinished_games()
    []
    >>> folder = tempfile.mkdtemp()
    >>> with open_store(os.path.join(folder, "none.db"), readonly=True) as s:
    ...     s.unfinished_games(), os.listdir(folder)
    ([], [])
    """
    target = opening.resolve(url)
    if readonly and target.path is not None:
        return _open_readonly(target, target.path)
    created = False
    if target.path is not None:
        if target.path.exists():
            opening.inspect_sqlite_file(target.path)
            opening.check_writable(target.path)
        else:
            opening.create_sqlite_file(target.path, make_dirs=target.is_default)
            created = True
    engine = opening.make_engine(target)
    try:
        backup = opening.migrate(engine, target)
    except StoreError:
        engine.dispose()
        _remove_if_new(target, created)
        raise
    except (SQLAlchemyError, OSError) as e:
        engine.dispose()
        _remove_if_new(target, created)
        raise StoreError(describe_db_error(e, target.location, "opening")) from None
    return Store(engine, target, backup, readonly=readonly)


def _open_readonly(target: opening.Target, path: Path) -> Store:
    """The SQLite file at ``path``, for reading only (see :func:`open_store`)."""
    if not path.exists():
        return Store(opening.make_memory_engine(), target, readonly=True)
    revision = opening.inspect_sqlite_file(path)
    if revision is None:
        return Store(opening.make_memory_engine(), target, readonly=True)
    if revision == HEAD:
        return Store(opening.make_readonly_engine(path), target, readonly=True)
    engine = opening.make_memory_engine(copy_of=path)
    try:
        opening.migrate(engine, opening.Target(target.url, None, target.location, False))
    except (SQLAlchemyError, OSError) as e:
        engine.dispose()
        raise StoreError(describe_db_error(e, target.location, "reading")) from None
    return Store(engine, target, readonly=True)


def _remove_if_new(target: opening.Target, created: bool) -> None:
    """A file this call created and could not set up is removed again (never any other)."""
    if created and target.path is not None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            p = target.path.with_name(target.path.name + suffix)
            try:
                if suffix == "" and p.stat().st_size > 0:
                    return
                p.unlink()
            except OSError:
                pass


class _Writes:
    """How many write transactions of this process are under way (a context manager
    counts one). A read begun meanwhile waits for them, as it would for SQLite's write
    lock: what this process began writing before a read is what the read sees."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.n = 0

    def __enter__(self) -> None:
        with self._lock:
            self.n += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.n -= 1


class Store:
    """Saved games, high scores and statistics in one SQL database (see API.md)."""

    def __init__(self, engine: Engine, target: opening.Target, backup: str | None = None,
                 readonly: bool = False):
        self._engine = engine
        self._target = target
        #: opened for reading only: every write raises StoreError
        self.readonly = readonly
        #: the copy made before migrating an older file, if one was made now
        self.backup: str | None = backup
        self._batcher: _Batcher | None = None
        self._writes = _Writes()
        #: per thread: who is told of a write that waits (see telling_waits)
        self._waits = threading.local()
        #: the SQLite file's identity when opened (None: no file of its own, e.g. memory)
        self._file = (opening.file_identity(target.path)
                      if target.path is not None and not isinstance(engine.pool, StaticPool)
                      else None)

    def check_file(self) -> None:
        """StoreGone when the SQLite file was deleted or replaced since it was opened
        (every transaction asks first: one stat of the file)."""
        if self._file is not None and self._target.path is not None:
            opening.check_same_file(self._target.path, self._file)

    def group_commits(self, most: int = 256, flush: str = "each") -> None:
        """From now on, actions written at the same time by several threads go into the
        database in one transaction (one disk flush for all of them). Each call still
        returns only once its action is in the database, with its own error if it has
        one. For a server with many tables; a game alone gains nothing.

        ``flush``: ``"each"`` (every transaction is on the disk before its writers
        return) or ``"interval"`` (on the disk within about a second: SQLite at the
        store's next checkpoint, every half second; PostgreSQL by its WAL writer,
        ``synchronous_commit = off``). A killed server process loses nothing either way;
        with ``"interval"`` a power cut or a crash of the machine can lose the last
        moments of play, never a game's consistency, and a busy server does not wait
        for the disk's slow flushes (see benchmarks/README.md)."""
        if flush not in FLUSH:
            raise StoreError(f"flush {flush!r}: one of {', '.join(FLUSH)}")
        if self._batcher is None:
            self._batcher = _Batcher(self, most, flush)

    @property
    def location(self) -> str:
        """The file path, or the URL without password."""
        return self._target.location

    @property
    def dialect(self) -> str:
        """The kind of database: ``sqlite`` or ``postgresql`` (nothing of where it is)."""
        return self._target.url.get_backend_name()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def aclose_loop(self) -> None:
        """Finish the group commits waiting on the running event loop and close the
        connection they go by (PostgreSQL's moves are written on the loop that makes
        them: a server calls this before its loop ends)."""
        if self._batcher is not None:
            await self._batcher.aclose_loop()

    def close(self) -> None:
        if self._batcher is not None:
            self._batcher.stop()
            self._batcher = None
        self._engine.dispose()

    # --- transactions --------------------------------------------------------
    @contextlib.contextmanager
    def telling_waits(self, tell: Callable[[str], None]) -> Iterator[None]:
        """Within this block, a write of this thread that waits :data:`WAIT_NOTICE`
        seconds for the database (another program holds SQLite's lock: each try waits up
        to 30 s, and it is tried again for up to 20 minutes) calls ``tell("waiting")``
        from a thread of its own, then ``tell("through")`` once that write is in the
        database, or ``tell("failed")`` when it was given up (its StoreError follows).
        ``tell`` must be quick. A game at a terminal says so instead of freezing
        silently."""
        before = getattr(self._waits, "tell", None)
        self._waits.tell = tell
        try:
            yield
        finally:
            self._waits.tell = before

    def _tx(self, fn: Callable[[Connection], T], doing: str = "writing") -> T:
        """Run ``fn`` in one transaction; retried while SQLite reports the file locked."""
        if self.readonly and doing != "reading":
            raise StoreError(f"{self.location} was opened for reading only; "
                             "it cannot be written now")
        self.check_file()
        tell = None if doing == "reading" else getattr(self._waits, "tell", None)
        if tell is None:
            return self._tries(fn, doing)
        told = threading.Event()

        def waiting() -> None:
            told.set()
            tell("waiting")

        timer = threading.Timer(WAIT_NOTICE, waiting)
        timer.daemon = True
        timer.start()
        through = False
        try:
            result = self._tries(fn, doing)
            through = True
            return result
        finally:
            timer.cancel()
            timer.join()  # (a notice under way is told before its end)
            if told.is_set():
                tell("through" if through else "failed")

    def _tries(self, fn: Callable[[Connection], T], doing: str) -> T:
        reading = doing == "reading"
        for attempt in range(_RETRIES):
            try:
                # (a read begins without SQLite's write lock: in WAL mode it reads while
                # another process writes, instead of waiting for it up to 30 s a try; but
                # after this process's own writes under way, as before)
                with (contextlib.nullcontext() if reading else self._writes), \
                        self._engine.connect().execution_options(
                            yacht_read=reading and self._writes.n == 0) as conn, \
                        conn.begin():
                    return fn(conn)
            except OperationalError as e:
                if is_locked_error(e) and attempt < _RETRIES - 1:
                    time.sleep(min(0.5, 0.01 * (attempt + 1)) * (1 + random.random()))
                    continue
                if e.connection_invalidated and attempt < 2:
                    # the database server restarted or dropped the connection: the pool
                    # has let go of its old connections, and a new one is tried (this
                    # replaces a test query before every transaction)
                    continue
                raise StoreError(describe_db_error(e, self.location, doing)) from None
            except IntegrityError as e:
                raise StoreError(f"conflicting write to {self.location} "
                                 f"({describe_db_error(e, self.location, doing)})") from None
            except SQLAlchemyError as e:
                raise StoreError(describe_db_error(e, self.location, doing)) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _read(self, fn: Callable[[Connection], T]) -> T:
        return self._tx(fn, "reading")

    def _game_row(self, conn: Connection, game_id: str, lock: bool = False) -> Row[Any]:
        q = select(games).where(games.c.id == game_id)
        if lock and conn.dialect.name == "postgresql":
            q = q.with_for_update()
        row = conn.execute(q).first()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.location}")
        return row

    def _actions(self, conn: Connection, game_id: str) -> list[Action]:
        rows = conn.execute(select(actions.c.idx, actions.c.action)
                            .where(actions.c.game_id == game_id)
                            .order_by(actions.c.idx)).all()
        out: list[Action] = []
        for i, (idx, raw) in enumerate(rows):
            if idx != i:
                raise StoreError(f"game {game_id} in {self.location} is damaged "
                                 f"(action {i + 1} is missing)")
            out.append(self._parse_action(game_id, i, raw))
        return out

    def _parse_action(self, game_id: str, i: int, raw: str) -> Action:
        try:
            return action_from_json(json.loads(raw))
        except (ValueError, TypeError) as e:
            raise StoreError(f"game {game_id} in {self.location} is damaged "
                             f"(action {i + 1}: {e})") from None

    def _record(self, row: Row[Any], acts: list[Action]) -> Record:
        """The game's record: its commitment, and its seed only once it is finished."""
        try:
            players = [Player.from_json(p) for p in json.loads(row.players)]
            header = json.loads(row.header)
            options = {str(k): str(v) for k, v in json.loads(row.options).items()}
            committed = header.get("dice_seed")
            dice_seed = Commitment.from_json(committed) if committed is not None else None
            # (a daily challenge's seed is every player's of that day: kept until the
            # day is over, however soon one's game is)
            if dice_seed is not None and row.finished is not None and row.seed \
                    and not seed_kept(getattr(row, "daily", None), utc_day()):
                dice_seed = dice_seed.revealed(bytes.fromhex(row.seed))
        except (ValueError, TypeError, AttributeError) as e:
            raise StoreError(f"game {row.id} in {self.location} is damaged ({e})") from None
        return Record(row.variant, options, players, acts, str(header.get("created", "")),
                      dict(header.get("meta") or {}), dice_seed)

    def _replayed(self, rec: Record, game_id: str) -> State:
        try:
            return rec.final_state()
        except (RecordError, ValueError) as e:
            raise StoreError(f"game {game_id} in {self.location} cannot be replayed: {e}") \
                from None

    # --- games ----------------------------------------------------------------
    def start_game(self, record: Record, seed: bytes | None = None) -> str:
        """Save a new unfinished game; returns its id. ``seed``: the secret seed of the
        record's commitment (kept apart: the record shows it once the game is finished)."""
        try:
            state = record.final_state()
        except (RecordError, ValueError) as e:
            raise StoreError(f"the new game cannot be saved: it does not replay ({e})") from None
        committed = record.dice_seed
        if seed is not None and (committed is None
                                 or commitment_of(seed) != committed.commitment):
            raise StoreError("the new game cannot be saved: its seed does not match its "
                             "commitment")
        game_id = secrets.token_hex(6)
        now = _now()
        head: dict[str, Any] = {"created": record.created, "meta": record.meta}
        if committed is not None:  # (the public part only)
            head["dice_seed"] = Commitment(committed.scheme, committed.commitment).to_json()
        try:
            header = _dump(head)
        except (TypeError, ValueError) as e:
            raise StoreError(f"the new game cannot be saved: its meta data is not JSON ({e})") \
                from None
        row = {
            "id": game_id, "variant": record.variant, "options": _dump(record.options),
            "table_key": state.ruleset.key,
            "players": _dump([p.to_json() for p in record.players]),
            "header": header,
            "created": now, "last_played": now, "finished": None,
            "n_actions": len(record.actions), "assisted": 0, "scores": None,
            "seed": seed.hex() if seed is not None else None,
            "dice_entered": record.dice_entered,
            "daily": daily_of(record.meta),
        }

        def go(conn: Connection) -> str:
            conn.execute(insert(games).values(**row))
            if record.actions:
                conn.execute(insert(actions), [
                    {"game_id": game_id, "idx": i, "action": _dump(action_to_json(a))}
                    for i, a in enumerate(record.actions)])
            return game_id

        return self._tx(go)

    def append_action(self, game_id: str, index: int, action: Action,
                      new: bool = False) -> None:
        """Write action ``index`` (0-based) of the game's log; durable when it returns.

        Writing the same action again is a no-op (a retry), unless ``new``: then the
        action must not be there yet (two servers sending the same move at once: one
        wins). Raises GameMovedOn when the game is not where the writer thought
        (another writer played action ``index``, or the game is finished).
        """
        if index < 0:
            raise StoreError(f"action index {index} is negative")
        raw = _dump(action_to_json(action))
        if self._batcher is not None:
            self._batcher.submit(game_id, index, action, raw, new)
            return
        self._tx(lambda conn: self._append(conn, game_id, index, action, raw, new))

    def append_action_nowait(self, game_id: str, index: int, action: Action, new: bool,
                             done: Callable[[StoreError | None], None]) -> bool:
        """:meth:`append_action` handed to the group commit without waiting for it:
        ``done`` is called (on the writer's thread) once it is durable, with None, or with
        the error :meth:`append_action` would raise. False (``done`` never called): this
        store has no group commit (``group_commit`` was not asked): call
        :meth:`append_action` instead. An event loop waits for a move's commit this way
        without a thread held per move."""
        if index < 0:
            raise StoreError(f"action index {index} is negative")
        if self._batcher is None:
            return False
        self._batcher.submit(game_id, index, action, _dump(action_to_json(action)), new,
                             done=done)
        return True

    def _append(self, conn: Connection, game_id: str, index: int, action: Action,
                raw: str, new: bool = False) -> None:
        """One action into the log (in the caller's transaction); raises before writing
        anything when it cannot go there."""
        # the usual case in one statement: the game is open and this action comes next
        # (statements built once: building them took most of the time of a save)
        moved = conn.execute(_ADVANCE, {"g": game_id, "i": index, "n": index + 1,
                                        "t": _now()})
        if moved.rowcount == 1:
            conn.execute(_ADD_ACTION, {"game_id": game_id, "idx": index, "action": raw})
            _mark_entered(conn, game_id, action)
            return
        row = self._game_row(conn, game_id, lock=True)
        if row.finished is not None:
            raise GameMovedOn(f"game {game_id} in {self.location} is finished")
        n = row.n_actions
        if index < n:
            old = conn.execute(select(actions.c.action).where(
                and_(actions.c.game_id == game_id, actions.c.idx == index))).scalar()
            if new:
                raise GameMovedOn(f"game {game_id} in {self.location} already has an "
                                  f"action {index + 1}")
            if old is None or (old != raw and action_from_json(json.loads(old)) != action):
                raise GameMovedOn(f"game {game_id} in {self.location} already has a "
                                  f"different action {index + 1}")
            return
        if index > n:
            raise GameMovedOn(f"game {game_id} in {self.location} has {n} actions; "
                              f"action {index + 1} cannot come next")
        conn.execute(insert(actions).values(game_id=game_id, idx=index, action=raw))
        conn.execute(update(games).where(games.c.id == game_id)
                     .values(n_actions=n + 1, last_played=_now()))
        _mark_entered(conn, game_id, action)

    def _append_many(self, items: Sequence[_Append]) -> None:
        """Several games' actions in one transaction; each item gets its own outcome."""

        def go(conn: Connection) -> None:
            for item in items:
                try:
                    self._append(conn, item.game_id, item.index, item.action, item.raw,
                                 item.new)
                except StoreError as e:  # raised before this item wrote anything
                    item.error = e

        try:
            self._tx(go)
        except StoreError:
            # the whole transaction failed: each action on its own, so that one bad
            # item cannot sink the others (and each gets its own error)
            for item in items:
                item.error = None
                try:
                    self._tx(partial(self._append_item, item))
                except StoreError as e:
                    item.error = e

    def _append_item(self, item: _Append, conn: Connection) -> None:
        self._append(conn, item.game_id, item.index, item.action, item.raw, item.new)

    def set_assisted(self, game_id: str, player: int | None = None) -> None:
        """Mark that the advisor was consulted (by ``player``, or by every person)."""

        def go(conn: Connection) -> None:
            row = self._game_row(conn, game_id, lock=True)
            players = [Player.from_json(p) for p in json.loads(row.players)]
            if player is None:
                mask = sum(1 << i for i, p in enumerate(players) if not p.is_computer)
            elif 0 <= player < len(players):
                mask = 1 << player
            else:
                raise StoreError(f"game {game_id} has no player {player} "
                                 f"(seats 0-{len(players) - 1})")
            if row.finished is not None:
                return  # the results stand as they were entered
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(assisted=games.c.assisted.op("|")(mask)))

        self._tx(go)

    def record_decision_loss(self, game_id: str, loss: float, player: int | None = None) -> None:
        """Store the advisor's expected-score loss of one decision (shown by `yacht stats`)."""
        if not isinstance(loss, int | float) or not math.isfinite(loss) or loss < 0:
            raise StoreError(f"a decision loss must be a finite number >= 0, not {loss!r}")
        seat = player
        if seat is None:
            seat = self.load_state(game_id).current

        def go(conn: Connection) -> None:
            row = self._game_row(conn, game_id)
            n = len(json.loads(row.players))
            if not 0 <= seat < n:
                raise StoreError(f"game {game_id} has no player {seat} (seats 0-{n - 1})")
            conn.execute(insert(decision_losses).values(game_id=game_id, seat=seat,
                                                        loss=float(loss)))

        self._tx(go)

    def finish_game(self, game_id: str, state: State) -> list[ScoreEntry]:
        """Mark the game finished; enter results and high scores. Returns this game's new
        top-ten entries (with rank); finishing an already finished game returns []."""
        if not state.is_terminal():
            raise StoreError(f"game {game_id} is not over yet; it cannot be finished")
        rs = state.ruleset
        rec = Record.from_state(state)
        per_player = _results_of(rec, state)

        def go(conn: Connection) -> list[ScoreEntry]:
            row = self._game_row(conn, game_id, lock=True)
            if row.finished is not None:
                return []
            if row.table_key != rs.key or json.loads(row.players) != [
                    p.to_json() for p in state.players]:
                raise StoreError(f"game {game_id} in {self.location} is a different game "
                                 f"({row.table_key}) from the one being finished ({rs.key})")
            stored = self._actions(conn, game_id)
            log = list(state.log)
            if stored != log[:len(stored)]:
                raise StoreError(f"game {game_id} in {self.location}: the game being finished "
                                 f"does not continue the saved actions")
            if len(log) > len(stored):
                conn.execute(insert(actions), [
                    {"game_id": game_id, "idx": i, "action": _dump(action_to_json(a))}
                    for i, a in enumerate(log) if i >= len(stored)])
            now = _now()
            entered = bool(row.dice_entered) or state.dice_entered
            conn.execute(update(games).where(games.c.id == game_id).values(
                finished=now, last_played=now, n_actions=len(log),
                scores=_dump(state.returns()), dice_entered=entered))
            mask = int(row.assisted)
            assisted_tables: set[bool] = set()
            rows = []
            for seat, res in enumerate(per_player):
                # listed apart: the advisor was asked, or the dice were entered by hand
                assisted = (bool(mask & (1 << seat)) or entered) and res["kind"] == "person"
                if res["kind"] == "person":
                    assisted_tables.add(assisted)
                rows.append({**res, "game_id": game_id, "seat": seat, "variant": rs.id,
                             "table_key": rs.key, "assisted": assisted, "finished": now,
                             "dice_entered": entered})
            conn.execute(insert(results), rows)
            out: list[ScoreEntry] = []
            for assisted in sorted(assisted_tables):
                out += [e for e in self._top(conn, rs.key, assisted) if e.game_id == game_id]
            return out

        return self._tx(go)

    def set_clock(self, game_id: str, clock: dict[str, Any]) -> None:
        """Keep the game's turn clock (the turn it counts, since when, the banks)."""

        def go(conn: Connection) -> None:
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(clock=_dump(clock)))

        self._tx(go)

    def update_meta(self, game_id: str, values: Mapping[str, Any]) -> None:
        """Keep ``values`` in the unfinished game's meta (each key given replaced, the
        others as they were): what changes with the game besides its moves, such as the
        speed a terminal plays it at. A finished game's record stays as it ended (nothing
        is written); ``daily`` is the game's from its start (refused)."""
        if "daily" in values:
            raise StoreError("a game's daily challenge is set when it starts; it cannot "
                             "be changed")
        try:
            _dump(dict(values))
        except (TypeError, ValueError) as e:
            raise StoreError(f"game {game_id}'s meta data cannot be kept: it is not JSON "
                             f"({e})") from None

        def go(conn: Connection) -> None:
            row = self._game_row(conn, game_id, lock=True)
            if row.finished is not None:
                return
            try:
                head = json.loads(row.header)
                meta = dict(head.get("meta") or {})
            except (ValueError, TypeError, AttributeError) as e:
                raise StoreError(f"game {game_id} in {self.location} is damaged ({e})") \
                    from None
            meta.update(values)
            head["meta"] = meta
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(header=_dump(head)))

        self._tx(go)

    def load_clock(self, game_id: str) -> Any:
        """The game's turn clock as kept (None: none kept)."""

        def go(conn: Connection) -> Any:
            raw = conn.execute(select(games.c.clock).where(games.c.id == game_id)).scalar()
            try:
                return json.loads(raw) if raw else None
            except ValueError:
                return None

        return self._read(go)

    def delete_game(self, game_id: str) -> None:
        """Abandon an unfinished game (finished games stay for the records)."""

        def go(conn: Connection) -> None:
            row = self._game_row(conn, game_id, lock=True)
            if row.finished is not None:
                raise StoreError(f"game {game_id} is finished; finished games are kept")
            for table in (actions, decision_losses):
                conn.execute(delete(table).where(table.c.game_id == game_id))
            conn.execute(delete(games).where(games.c.id == game_id))

        self._tx(go)

    # --- online tables ---------------------------------------------------------
    def _table_row(self, row: Row[Any]) -> TableRow:
        try:
            seats = tuple(SeatRow.from_json(s) for s in json.loads(row.seats))
            options = {str(k): str(v) for k, v in json.loads(row.options).items()}
            settings = json.loads(row.settings) if row.settings else {}
            if not isinstance(settings, dict):
                raise ValueError("its settings are not an object")
        except (ValueError, TypeError, AttributeError) as e:
            raise StoreError(f"table {row.id} in {self.location} is damaged ({e})") from None
        return TableRow(row.id, row.variant, options, row.speed, seats, row.game_id,
                        row.version, _aware(row.created), _aware(row.updated),
                        _aware(row.closed) if row.closed else None, row.host, settings)

    def create_table(self, variant: str, options: dict[str, str], speed: str,
                     seats: Sequence[SeatRow], game_id: str | None = None,
                     host: str | None = None,
                     settings: dict[str, Any] | None = None) -> TableRow:
        """Save a new online table; returns it (with its new id). ``host``: the hashed
        token of the browser that made it; ``settings``: the table's own (JSON values)."""
        table_id = secrets.token_hex(6)
        now = _now()
        row = {"id": table_id, "variant": variant, "options": _dump(options), "speed": speed,
               "seats": _dump([s.to_json() for s in seats]), "game_id": game_id,
               "version": 1, "created": now, "updated": now, "closed": None, "host": host,
               "settings": _dump(settings) if settings else None}

        def go(conn: Connection) -> TableRow:  # (written and read back in one statement)
            return self._table_row(conn.execute(
                insert(web_tables).values(**row).returning(*web_tables.c)).one())

        return self._tx(go)

    def load_table(self, table_id: str) -> TableRow:
        def go(conn: Connection) -> TableRow:
            row = conn.execute(select(web_tables).where(web_tables.c.id == table_id)).first()
            if row is None:
                raise StoreError(f"no table {table_id} in {self.location}")
            return self._table_row(row)

        return self._read(go)

    def update_table(self, table_id: str, version: int, *,
                     seats: Sequence[SeatRow] | None = None, game_id: str | None = None,
                     closed: bool = False, host: str | None = None,
                     settings: dict[str, Any] | None = None,
                     again: bool = False, speed: str | None = None) -> TableRow:
        """Change a table that is still at ``version``; StoreError if it changed meanwhile
        (two friends took the same seat: the second one is told and looks again).
        ``host``: a new hashed token of the table's host; ``settings``: all its settings
        and series (they replace the stored ones); ``again``: the table is open for a
        new game (no game, not closed); ``speed``: the computers' pace, set during a game
        (the table's next game, or the game taken up after a restart, keeps it)."""
        values: dict[str, Any] = {"version": version + 1, "updated": _now()}
        if speed is not None:
            values["speed"] = speed
        if settings is not None:
            values["settings"] = _dump(settings)
        if again:
            values["game_id"] = None
            values["closed"] = None
        if seats is not None:
            values["seats"] = _dump([s.to_json() for s in seats])
        if game_id is not None:
            values["game_id"] = game_id
        if host is not None:
            values["host"] = host
        if closed:
            values["closed"] = values["updated"]

        def go(conn: Connection) -> TableRow:  # (changed and read back in one statement)
            done = conn.execute(update(web_tables).where(and_(
                web_tables.c.id == table_id, web_tables.c.version == version))
                .values(**values).returning(*web_tables.c)).first()
            if done is None:
                raise StoreError(f"table {table_id} changed meanwhile; look again")
            return self._table_row(done)

        return self._tx(go)

    def table_of_game(self, game_id: str) -> TableRow | None:
        """The newest table (closed or not) at which game ``game_id`` is played, if any."""

        def go(conn: Connection) -> TableRow | None:
            row = conn.execute(select(web_tables).where(web_tables.c.game_id == game_id)
                               .order_by(web_tables.c.updated.desc()).limit(1)).first()
            return None if row is None else self._table_row(row)

        return self._read(go)

    def open_tables(self, limit: int = 200, lobby_since: datetime | None = None
                    ) -> list[TableRow]:
        """Tables not closed, the most recently changed first; with ``lobby_since``, of
        the tables whose game has not started only those changed since then (a lobby
        left alone is not offered for ever)."""

        def go(conn: Connection) -> list[TableRow]:
            q = select(web_tables).where(web_tables.c.closed.is_(None))
            if lobby_since is not None:
                since = lobby_since.astimezone(UTC).replace(tzinfo=None)
                q = q.where(or_(web_tables.c.game_id.is_not(None),
                                web_tables.c.updated >= since))
            rows = conn.execute(q.order_by(web_tables.c.updated.desc()).limit(limit)).all()
            return [self._table_row(r) for r in rows]

        return self._read(go)

    # --- duplicate tables (groups of one-seat tables on one seed) --------------------
    def create_group(self, group_id: str, variant: str, options: dict[str, str],
                     seed: bytes, cards: Sequence[str]) -> GroupRow:
        """Save a duplicate table's group: its cards' table ids and its secret seed."""
        row = {"id": group_id, "variant": variant, "options": _dump(options),
               "seed": seed.hex(), "commitment": commitment_of(seed),
               "cards": _dump(list(cards)), "expert": None, "created": _now()}
        self._tx(lambda conn: conn.execute(insert(web_groups).values(**row)))
        return self.load_group(group_id)

    def load_group(self, group_id: str) -> GroupRow:
        def go(conn: Connection) -> GroupRow:
            row = conn.execute(select(web_groups).where(web_groups.c.id == group_id)).first()
            if row is None:
                raise StoreError(f"no duplicate table {group_id} in {self.location}")
            try:
                options = {str(k): str(v) for k, v in json.loads(row.options).items()}
                cards = tuple(str(c) for c in json.loads(row.cards))
                seed = bytes.fromhex(row.seed)
            except (ValueError, TypeError, AttributeError) as e:
                raise StoreError(f"duplicate table {group_id} in {self.location} is "
                                 f"damaged ({e})") from None
            return GroupRow(row.id, row.variant, options, seed, row.commitment, cards,
                            row.expert, _aware(row.created))

        return self._read(go)

    def set_group_expert(self, group_id: str, total: int) -> None:
        """Keep the expert's total on a group's dice (worked out once)."""
        self._tx(lambda conn: conn.execute(
            update(web_groups).where(web_groups.c.id == group_id).values(expert=total)))

    # --- reading ----------------------------------------------------------------
    def resolve_id(self, prefix: str) -> str:
        """The full id of the one game whose id starts with ``prefix``."""
        from yacht.parsing import InputError, parse_game_id

        try:
            p = parse_game_id(prefix)
        except InputError as e:
            raise StoreError(str(e)) from None

        def go(conn: Connection) -> str:
            ids = list(conn.execute(select(games.c.id).where(games.c.id.startswith(p))
                                    .limit(2)).scalars())
            if not ids:
                raise StoreError(f"no game {p} in {self.location}")
            if len(ids) > 1:
                raise StoreError(f"{p} fits more than one game in {self.location}; "
                                 f"give more digits")
            return str(ids[0])

        return self._read(go)

    def load_record(self, game_id: str) -> Record:
        """The game's record (all actions so far)."""

        def go(conn: Connection) -> Record:
            row = self._game_row(conn, game_id)
            return self._record(row, self._actions(conn, game_id))

        return self._read(go)

    def load_seed(self, game_id: str) -> bytes | None:
        """The secret seed of the game's dice (None: the game has none): for the session
        that goes on with the game, never for showing before the game is finished."""

        def go(conn: Connection) -> bytes | None:
            row = conn.execute(select(games.c.seed).where(games.c.id == game_id)).first()
            if row is None:
                raise StoreError(f"no game {game_id} in {self.location}")
            try:
                return bytes.fromhex(row.seed) if row.seed else None
            except ValueError:
                raise StoreError(f"game {game_id} in {self.location} is damaged (its seed "
                                 "is not hex)") from None

        return self._read(go)

    def load_state(self, game_id: str, rng: Rng | None = None) -> State:
        """The game replayed to its last action, ready to go on: new rolls from ``rng`` if
        given, else from the game's seed (or a fresh ``random.Random()`` without one)."""
        rec = self.load_record(game_id)
        seed = self.load_seed(game_id) if rng is None else None
        try:
            state = (State(rec.ruleset, rec.players, seed=seed) if seed is not None else
                     State(rec.ruleset, rec.players, rng if rng is not None else random.Random()))
            for a in rec.actions:
                state.apply(a)
        except (RecordError, ValueError) as e:
            raise StoreError(f"game {game_id} in {self.location} cannot be replayed: {e}") \
                from None
        return state

    def _info(self, row: Row[Any], acts: list[Action]) -> GameInfo:
        rec = self._record(row, acts)
        state = self._replayed(rec, row.id)
        turns = state.ruleset.turns
        cur = state.current
        if state.ended_by is not None:   # (a roll ended it at once: the turn it came in)
            turn = min(turns, state.turns_taken(state.ended_by) + 1)
        else:
            turn = turns if state.is_terminal() else min(turns, state.turns_taken(cur) + 1)
        return GameInfo(
            id=row.id, variant=row.variant, options=dict(rec.options), key=row.table_key,
            players=list(rec.players), turn=turn, turns=turns, current=cur,
            actions=len(acts), created=_aware(row.created),
            last_played=_aware(row.last_played),
            finished=_aware(row.finished) if row.finished is not None else None,
            assisted=bool(row.assisted),
            scores=json.loads(row.scores) if row.scores else None,
            dice_entered=bool(row.dice_entered),
            assisted_players=tuple(i for i in range(len(rec.players))
                                   if int(row.assisted) >> i & 1))

    def _infos(self, where: Any, order: Any, limit: int | None) -> list[GameInfo]:
        def go(conn: Connection) -> list[GameInfo]:
            q = select(games).where(where).order_by(order, games.c.id)
            if limit is not None:
                q = q.limit(limit)
            rows = conn.execute(q).all()
            by_game: dict[str, list[Action]] = {r.id: [] for r in rows}
            if rows:
                for gid, idx, raw in conn.execute(
                        select(actions.c.game_id, actions.c.idx, actions.c.action)
                        .where(actions.c.game_id.in_(list(by_game)))
                        .order_by(actions.c.game_id, actions.c.idx)):
                    lst = by_game[gid]
                    if idx != len(lst):
                        raise StoreError(f"game {gid} in {self.location} is damaged "
                                         f"(action {len(lst) + 1} is missing)")
                    lst.append(self._parse_action(gid, idx, raw))
            return [self._info(r, by_game[r.id]) for r in rows]

        return self._read(go)

    def unfinished_games(self) -> list[GameInfo]:
        """Games that can be resumed, most recently played first."""
        return self._infos(games.c.finished.is_(None), games.c.last_played.desc(), None)

    def finished_games(self, limit: int | None = None) -> list[GameInfo]:
        """Finished games, newest first."""
        return self._infos(games.c.finished.is_not(None), games.c.finished.desc(), limit)

    def progress(self, game_id: str) -> tuple[int, bool]:
        """How many actions the stored game has, and whether it is finished (one quick
        read: a window polls it to see whether the game went on elsewhere)."""

        def go(conn: Connection) -> tuple[int, bool]:
            row = conn.execute(select(games.c.n_actions, games.c.finished)
                               .where(games.c.id == game_id)).first()
            if row is None:
                raise StoreError(f"no game {game_id} in {self.location}")
            return int(row.n_actions), row.finished is not None

        return self._read(go)

    def progress_many(self, game_ids: Iterable[str]) -> dict[str, int]:
        """How many actions each stored game of ``game_ids`` has (one read for them all;
        a game not stored is left out): a server polls its games with it while the news
        between its processes is down.

        >>> open_store(":memory:").progress_many(["0" * 12])
        {}
        """
        wanted = list(dict.fromkeys(game_ids))

        def go(conn: Connection) -> dict[str, int]:
            out: dict[str, int] = {}
            for i in range(0, len(wanted), 500):
                rows = conn.execute(select(games.c.id, games.c.n_actions)
                                    .where(games.c.id.in_(wanted[i:i + 500])))
                out.update((r.id, int(r.n_actions)) for r in rows)
            return out

        return self._read(go) if wanted else {}

    def game_info(self, game_id: str) -> GameInfo:
        infos = self._infos(games.c.id == game_id, games.c.id, None)
        if not infos:
            raise StoreError(f"no game {game_id} in {self.location}")
        return infos[0]

    def _top(self, conn: Connection, key: str, assisted: bool) -> list[ScoreEntry]:
        q = (select(results.c.name, results.c.score, results.c.finished, results.c.game_id,
                    results.c.dice_entered, results.c.ended_early)
             .where(and_(results.c.table_key == key, results.c.assisted.is_(assisted),
                         results.c.kind == "person", _LISTED))
             .order_by(results.c.score.desc(), results.c.finished, results.c.id)
             .limit(TOP))
        return [ScoreEntry(i + 1, name, int(score), _aware(fin), gid, key, assisted,
                           bool(entered), bool(ended))
                for i, (name, score, fin, gid, entered, ended)
                in enumerate(conn.execute(q))]

    # --- the daily challenge ---------------------------------------------------
    def daily(self, day: str, variant: str) -> Daily:
        """The challenge of ``variant`` on ``day`` (``YYYY-MM-DD``, UTC), made with a fresh
        secret seed the first time it is asked for (processes that ask at once all get
        the one that was saved first)."""
        found = self.find_daily(day, variant)
        if found is not None:
            return found
        seed = secrets.token_bytes(SEED_BYTES)

        def make(conn: Connection) -> None:
            conn.execute(insert(dailies).values(day=day, variant=variant, seed=seed.hex(),
                                                commitment=commitment_of(seed), expert=None))

        try:
            self._tx(make)
        except StoreError:
            # (the unique key refused it: another process made it meanwhile, theirs it
            # is - a transaction's IntegrityError reaches here as a StoreError)
            made = self.find_daily(day, variant)
            if made is None:
                raise
            return made
        made = self.find_daily(day, variant)
        if made is None:  # (not expected: it was just saved)
            raise StoreError(f"the daily challenge of {day} cannot be saved in "
                             f"{self.location}")
        return made

    def find_daily(self, day: str, variant: str) -> Daily | None:
        """The challenge of ``variant`` on ``day`` if it was made (None: it was not; this
        makes none, unlike :meth:`daily`)."""
        if not _DAY.fullmatch(day) or not day.isascii():
            raise StoreError(f"no day {day!r}: a day is YYYY-MM-DD")
        return self._read(lambda conn: self._daily_row(conn, day, variant))

    @staticmethod
    def _daily_row(conn: Connection, day: str, variant: str) -> Daily | None:
        row = conn.execute(select(dailies).where(
            (dailies.c.day == day) & (dailies.c.variant == variant))).first()
        if row is None:
            return None
        return Daily(row.day, row.variant, bytes.fromhex(row.seed), row.commitment,
                     row.expert)

    def first_daily(self) -> str | None:
        """The first day (``YYYY-MM-DD``) with a challenge of any variant here (None: no
        challenge was made yet)."""
        return self._read(lambda conn: conn.execute(select(func.min(dailies.c.day))).scalar())

    def daily_games(self, day: str, variant: str) -> list[DailyGame]:
        """Every game of people on the day's challenge, finished or not, first started
        first (a daily game has one player)."""

        def go(conn: Connection) -> list[DailyGame]:
            q = (select(games.c.id, games.c.players, games.c.created, games.c.finished)
                 .where((games.c.daily == day) & (games.c.variant == variant))
                 .order_by(games.c.created, games.c.id))
            out = []
            for r in conn.execute(q):
                try:
                    people = [p for p in (Player.from_json(x) for x in json.loads(r.players))
                              if not p.is_computer]
                except (ValueError, TypeError) as e:
                    raise StoreError(f"game {r.id} in {self.location} is damaged ({e})") \
                        from None
                if people:
                    out.append(DailyGame(r.id, people[0].name, r.created, r.finished))
            return out

        return self._read(go)

    def set_daily_expert(self, day: str, variant: str, total: int) -> None:
        """Keep the expert's total on the day's dice (worked out once)."""
        self._tx(lambda conn: conn.execute(
            update(dailies).where((dailies.c.day == day) & (dailies.c.variant == variant))
            .values(expert=total)))

    def daily_results(self, day: str, variant: str) -> list[DailyResult]:
        """The finished games of people on the day's challenge, first finished first."""

        def go(conn: Connection) -> list[DailyResult]:
            q = (select(results.c.game_id, results.c.name, results.c.score,
                        results.c.finished, results.c.assisted)
                 .join(games, games.c.id == results.c.game_id)
                 .where((games.c.daily == day) & (games.c.variant == variant)
                        & (results.c.kind == "person"))
                 .order_by(results.c.finished, results.c.id))
            return [DailyResult(r.game_id, r.name, r.score, r.finished, bool(r.assisted))
                    for r in conn.execute(q)]

        return self._read(go)

    def top_ten(self, ruleset: Ruleset, assisted: bool = False) -> list[ScoreEntry]:
        """The ten best scores by people in this variant with these options; ``assisted``:
        the list apart, of games where the advisor was asked or dice were entered by hand
        (those entries marked ``dice_entered``)."""
        return self._read(lambda conn: self._top(conn, ruleset.key, assisted))

    def score_tables(self) -> list[tuple[str, bool]]:
        """Every (ruleset key, assisted) that has high-score entries, sorted."""
        def go(conn: Connection) -> list[tuple[str, bool]]:
            q = (select(results.c.table_key, results.c.assisted)
                 .where(and_(results.c.kind == "person", _LISTED)).distinct())
            return sorted((str(k), bool(a)) for k, a in conn.execute(q))

        return self._read(go)

    def stats(self, player: str | None = None,
              include_computers: bool = False) -> list[PlayerStats]:
        """Per player name and kind of game: games, wins, average, best, bonus rate, ...
        The games with dice entered by hand make rows of their own (``dice_entered``)."""

        def go(conn: Connection) -> tuple[list[Any], list[Any]]:
            q = select(results)
            if not include_computers:
                q = q.where(results.c.kind == "person")
            if player is not None:
                q = q.where(func.lower(results.c.name) == player.strip().lower())
            res = list(conn.execute(q.order_by(results.c.id)).all())
            losses: list[Any] = []
            if res:
                losses = list(conn.execute(
                    select(decision_losses.c.game_id, decision_losses.c.seat,
                           decision_losses.c.loss)
                    .join(results, and_(results.c.game_id == decision_losses.c.game_id,
                                        results.c.seat == decision_losses.c.seat))
                    .where(results.c.id.in_([r.id for r in res]))).all())
            return res, losses

        res, losses = self._read(go)
        return _aggregate(res, losses)


@dataclass(eq=False)
class _Append:
    game_id: str
    index: int
    action: Action
    raw: str
    new: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    error: StoreError | None = None
    #: called once it is durable (or failed), instead of a thread waiting on ``done``
    then: Callable[[StoreError | None], None] | None = None


class _DirectWriter:
    """The group commit's usual case straight on the database driver: in one transaction,
    each action whose game is open and at that action goes in with the same two
    statements as :meth:`Store._append` (compiled once for the database), without
    SQLAlchemy's execution machinery (that took two thirds of a save's CPU, and the
    writer thread shares the interpreter with every table of a server). What is not
    that case, or any error, goes back to the general path.
    """

    def __init__(self, engine: Engine, flush: str = "each",
                 checkpoints_elsewhere: bool = False,
                 check: Callable[[], None] | None = None,
                 writes: _Writes | None = None) -> None:
        self.engine = engine
        self.check = check  # raises when the database can no longer be used (its file gone)
        self.writes = writes or _Writes()  # (counts its transactions: reads wait for them)
        dialect = engine.dialect
        self.begin = "BEGIN IMMEDIATE" if dialect.name == "sqlite" else None
        # the writer's own connection is set up for the flush asked for (the general
        # path's connections always flush each transaction) and, when a checkpointer
        # thread copies SQLite's log into the database file (it took up to 0.2 s with
        # thousands of tables), never to do that inside one of its commits
        self.setup: list[str] = []
        if flush == "interval":
            self.setup = {"sqlite": ["PRAGMA synchronous = NORMAL"],
                          "postgresql": ["SET synchronous_commit = off"]}.get(dialect.name, [])
        if checkpoints_elsewhere:
            self.setup.append("PRAGMA wal_autocheckpoint = 0")
        advance = _ADVANCE.compile(dialect=dialect)
        add = _ADD_ACTION.compile(dialect=dialect,
                                  column_keys=["game_id", "idx", "action"])
        self.advance, self.add = advance.string, add.string
        # qmark/format drivers take the values in order, the named ones by name
        self.advance_order = advance.positiontup
        self.add_order = add.positiontup
        when = games.c.last_played.type.dialect_impl(dialect).bind_processor(dialect)
        self.when: Callable[[Any], Any] = when or (lambda v: v)
        self.conn: Any = None
        # one connection shared by every thread (an in-memory database): never held here
        self.usable = not isinstance(engine.pool, StaticPool)
        self.direct = 0  # actions written here (the rest went the general way)
        # PostgreSQL: the whole batch in one statement on a connection in autocommit, one
        # round trip to the server instead of 2 per action + BEGIN + COMMIT (each round
        # trip gave the interpreter away; getting it back from a busy event loop took up
        # to 5 ms: a group commit of 6 moves took ~15 ms, and a process past 400 moves a
        # second queued them; benchmarks/README.md)
        self.one_statement = dialect.name == "postgresql"
        self.batch = _PG_BATCH
        self.round_trips = 0  # statements sent (with the commits), for the benchmarks

    def _open(self) -> None:
        self.conn = self.engine.raw_connection()
        if self.one_statement:
            # (own use only: the connection is thrown away, never back into the pool)
            self.conn.driver_connection.autocommit = True
        cur = self.conn.cursor()
        for statement in self.setup:
            cur.execute(statement)
        cur.close()
        if not self.one_statement:
            self.conn.commit()  # (PostgreSQL: a SET in a transaction rolled back is undone)

    def _args(self, order: Sequence[str] | None, values: dict[str, Any]) -> Any:
        return values if order is None else tuple(values[k] for k in order)

    def write(self, batch: Sequence[_Append]) -> list[_Append]:
        """Write what it can of ``batch`` (in the database on return, on the disk as the
        flush says); the items left to the general path, in order (on an error: the
        whole batch, rolled back)."""
        with self.writes:
            return self._write(batch)

    def _write(self, batch: Sequence[_Append]) -> list[_Append]:
        if not self.usable:
            return list(batch)
        if self.check is not None:
            try:
                self.check()
            except StoreError:  # (the general path says so, to each writer)
                return list(batch)
        if self.conn is None:
            try:
                self._open()
            except Exception:
                self.close()
                return list(batch)
        if self.one_statement:
            try:
                left = self._write_one_statement(batch)
            except Exception:
                self.close()  # (the statement is atomic: nothing of it is written)
                return list(batch)
            self.direct += len(batch) - len(left)
            return left
        slow: list[_Append] = []
        blocked: set[str] = set()  # games with an item left: their later items wait too
        try:
            cur = self.conn.cursor()
            try:
                if self.begin is not None:
                    cur.execute(self.begin)
                t = self.when(_now())
                for item in batch:
                    if item.game_id in blocked or _is_entered(item.action):
                        # (a roll entered by hand marks its game too: the general path)
                        blocked.add(item.game_id)
                        slow.append(item)
                        continue
                    cur.execute(self.advance, self._args(self.advance_order, {
                        "g": item.game_id, "i": item.index, "n": item.index + 1, "t": t}))
                    if cur.rowcount != 1:
                        blocked.add(item.game_id)
                        slow.append(item)
                        continue
                    cur.execute(self.add, self._args(self.add_order, {
                        "game_id": item.game_id, "idx": item.index, "action": item.raw}))
            finally:
                cur.close()
            self.conn.commit()
        except Exception:
            self.close()  # (rolled back) and a new connection next time
            return list(batch)
        self.direct += len(batch) - len(slow)
        return slow

    def _write_one_statement(self, batch: Sequence[_Append]) -> list[_Append]:
        """PostgreSQL: every game's run of actions that follow on from each other in one
        statement (its own transaction, on the disk before it returns unless the flush is
        ``interval``): each game advanced where it is open and at the run's first action,
        and the actions of exactly those games inserted. The rest goes the general way."""
        plan = self.plan(batch)
        if plan is None:
            return list(batch)
        statement, params, runs = plan
        cur = self.conn.cursor()
        try:
            cur.execute(statement, params)
            done = {row[0] for row in cur.fetchall()}
        finally:
            cur.close()
        self.round_trips += 1
        return self.left(batch, runs, done)

    def plan(self, batch: Sequence[_Append]) -> tuple[str, tuple[Any, ...],
                                                      dict[str, list[_Append]]] | None:
        """The one statement of :meth:`_write_one_statement` (PostgreSQL): its text, its
        parameters and each game's run of actions in it; None: no action of ``batch`` can
        go in that way."""
        runs: dict[str, list[_Append]] = {}
        blocked: set[str] = set()
        for item in batch:
            run = runs.get(item.game_id)
            if item.game_id in blocked or _is_entered(item.action) or (
                    run is not None and item.index != run[-1].index + 1):
                blocked.add(item.game_id)
                continue
            runs.setdefault(item.game_id, []).append(item)
        if not runs:
            return None
        firsts = [run[0] for run in runs.values()]
        items = [item for run in runs.values() for item in run]
        return self.batch, (
            [i.game_id for i in firsts], [i.index for i in firsts],
            [run[-1].index + 1 for run in runs.values()], self.when(_now()),
            [i.game_id for i in items], [i.index for i in items],
            [i.raw for i in items]), runs

    @staticmethod
    def left(batch: Sequence[_Append], runs: dict[str, list[_Append]],
             done: set[str]) -> list[_Append]:
        """The items of ``batch`` the statement did not write (``done``: the games it
        advanced), in order."""
        written = {id(item) for game in done for item in runs[game]}
        return [item for item in batch if id(item) not in written]

    def close(self) -> None:
        if self.conn is not None:
            if self.one_statement:
                try:  # (in autocommit, with the flush asked for: not for the pool)
                    self.conn.invalidate()
                except Exception:
                    pass
            _close_quietly(self.conn, rollback=True)
            self.conn = None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _is_entered(action: Action) -> bool:
    return isinstance(action, Roll) and action.entered


def _mark_entered(conn: Connection, game_id: str, action: Action) -> None:
    """A roll entered by hand marks its game "dice entered" (in the action's transaction)."""
    if _is_entered(action):
        conn.execute(update(games).where(games.c.id == game_id).values(dice_entered=True))


def _close_quietly(conn: Any, rollback: bool = False) -> None:
    """Give a raw connection back (rolled back first if asked), whatever state it is in."""
    if rollback:
        try:
            conn.rollback()
        except Exception:
            pass
    try:
        conn.close()
    except Exception:
        pass


class _Checkpointer:
    """A thread that copies an SQLite database's write-ahead log into the database file
    every ``every`` seconds (a passive checkpoint: it never holds up a writer), in place
    of the checkpoint SQLite runs inside a commit once the log passes 1,000 pages. With
    thousands of tables that was every second or so, and each took the one writer
    thread (every table's next action) 50-200 ms. Should the log not start over for
    ``restart_after`` pages (each passive checkpoint ended with newer pages in it), one
    checkpoint makes the writers wait until it is through, and the log starts over."""

    def __init__(self, engine: Engine, every: float = 0.5,
                 restart_after: int = 10_000) -> None:
        self.engine = engine
        self.every = every
        self.restart_after = restart_after
        self.runs = 0  # checkpoints made
        self.restarts = 0  # ... of which the writers waited for
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="yacht-store-checkpoints",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        conn: Any = None
        while not self.stopping.wait(self.every):
            try:
                if conn is None:
                    conn = self.engine.raw_connection()
                cur = conn.cursor()
                try:
                    cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    busy, log, _ = cur.fetchone()
                    if not busy and log > self.restart_after:
                        # the log has not started over for a long while (every passive
                        # checkpoint ended with new frames in it): once, writers wait
                        cur.execute("PRAGMA wal_checkpoint(RESTART)")
                        cur.fetchall()
                        self.restarts += 1
                finally:
                    cur.close()
                self.runs += 1
            except Exception:  # the next one tries again, on a new connection
                if conn is not None:
                    _close_quietly(conn)
                conn = None
        if conn is not None:
            _close_quietly(conn)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


class _Batcher:
    """One writer thread: whatever actions are waiting go in together (group commit)."""

    def __init__(self, store: Store, most: int, flush: str = "each") -> None:
        self.store = store
        self.most = most
        self.waiting: list[_Append] = []
        self.cond = threading.Condition()
        self.stopping = False
        sqlite_file = store._target.sqlite and store._target.path is not None
        self.writer = _DirectWriter(store._engine, flush, checkpoints_elsewhere=sqlite_file,
                                    check=store.check_file, writes=store._writes)
        self.checkpoints = _Checkpointer(store._engine) if sqlite_file else None
        # PostgreSQL: a caller on an event loop that does not wait (``done``) has its
        # moves written on that loop (yacht.store.onloop: no thread woken per move)
        self.on_loop = self.writer.usable and self.writer.one_statement
        self.setup = list(self.writer.setup)
        self.loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopWriter] = \
            weakref.WeakKeyDictionary()
        self.thread = threading.Thread(target=self._run, name="yacht-store-writer",
                                       daemon=True)
        self.thread.start()

    @staticmethod
    def failed(e: BaseException) -> StoreError:
        return StoreError(f"saving failed: {e}")

    def _loop_writer(self) -> LoopWriter | None:
        """The writer of the event loop running in this thread (made on first use);
        None: no loop runs here, or this store writes on its thread only."""
        if not self.on_loop:
            return None
        loop = _running_loop()
        if loop is None:
            return None
        writer = self.loops.get(loop)
        if writer is None:
            engine = self.store._engine
            cargs, cparams = engine.dialect.create_connect_args(engine.url)
            import psycopg

            def connect() -> Any:
                return psycopg.AsyncConnection.connect(
                    *cargs, **{"connect_timeout": 10, **cparams}, autocommit=True)

            writer = self.loops[loop] = LoopWriter(self, connect, self.setup)
        return writer

    async def aclose_loop(self) -> None:
        """Finish the writes waiting on the running event loop and close its connection."""
        loop = _running_loop()
        writer = self.loops.pop(loop, None) if loop is not None else None
        if writer is not None:
            await writer.aclose()

    def submit(self, game_id: str, index: int, action: Action, raw: str, new: bool,
               done: Callable[[StoreError | None], None] | None = None) -> None:
        """Queue an action for the next group commit and wait for it; with ``done``,
        return at once and have ``done`` called with its outcome instead."""
        item = _Append(game_id, index, action, raw, new, then=done)
        if done is not None:
            on_loop = self._loop_writer()
            if on_loop is not None:
                if self.stopping:
                    raise StoreError(f"{self.store.location} is closed")
                on_loop.submit(item)
                return
        with self.cond:
            if self.stopping:
                raise StoreError(f"{self.store.location} is closed")
            self.waiting.append(item)
            self.cond.notify()
        if done is not None:
            return
        item.done.wait()
        if item.error is not None:
            raise item.error

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.waiting and not self.stopping:
                    self.cond.wait()
                if not self.waiting:
                    self.writer.close()
                    return
                batch, self.waiting = self.waiting[:self.most], self.waiting[self.most:]
            slow: Sequence[_Append] = batch
            try:
                slow = self.writer.write(batch)
                if slow:  # anything unusual: the general path, with its checks and errors
                    self.store._append_many(slow)
            except BaseException as e:  # never leave a writer waiting
                # (what the direct path committed stays committed: only the rest failed)
                for item in slow:
                    if item.error is None:
                        item.error = self.failed(e)
            settle(batch)

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        self.thread.join(timeout=10)
        if self.checkpoints is not None:
            self.checkpoints.stop()


#: the results a top ten lists: every card but those a game ended at once (a served
#: Generala) left unfinished without a win - a 0 there is no score the player made; the
#: winner's card counts as it stood (marked ``ended_early``)
_LISTED = or_(results.c.ended_early.is_(False), results.c.won.is_(True))


def _results_of(rec: Record, state: State) -> list[dict[str, Any]]:
    """Each player's result of a finished game (kind, score, won, bonus, yachts)."""
    rs = state.ruleset
    scores = state.returns()
    winners = set(state.winners())
    multi = len(state.players) > 1
    yachts = [0] * len(state.players)
    try:
        for t in rec.turns():
            if len(t.dice) == rs.dice and len(set(t.dice)) == 1:
                yachts[t.player] += 1
    except RecordError as e:
        raise StoreError(f"the finished game cannot be replayed: {e}") from None
    out = []
    for seat, p in enumerate(state.players):
        bonus: bool | None = None
        if rs.upper_bonus is not None:
            bonus = any(c.bonus > 0 for c in state.totals(seat).columns)
        out.append({"name": p.name, "kind": p.kind, "score": scores[seat],
                    "won": multi and seat in winners, "multiplayer": multi,
                    "upper_bonus": bonus, "yachts": yachts[seat],
                    "ended_early": state.ended_by is not None})
    return out


def _aggregate(res: Sequence[Any], losses: Iterable[Any]) -> list[PlayerStats]:
    """Per player (a person and a computer of one name apart), kind of game and whether
    the dice were entered by hand (those games' figures are kept apart from the others)."""
    def group(r: Any) -> tuple[str, bool, str, bool]:
        return r.name, r.kind != "person", r.table_key, bool(r.dice_entered)

    groups: dict[tuple[str, bool, str, bool], list[Any]] = {}
    for r in res:
        groups.setdefault(group(r), []).append(r)
    seat_group = {(r.game_id, r.seat): group(r) for r in res}
    loss_sum: dict[tuple[str, bool, str, bool], list[float]] = {}
    for gid, seat, loss in losses:
        g = seat_group.get((gid, seat))
        if g is not None:
            loss_sum.setdefault(g, []).append(float(loss))
    out = []
    for (name, computer, key, entered), rows in sorted(
            groups.items(), key=lambda kv: (kv[0][0].lower(), *kv[0][1:])):
        bonus = [r.upper_bonus for r in rows if r.upper_bonus is not None]
        ls = loss_sum.get((name, computer, key, entered), [])
        out.append(PlayerStats(
            name=name, key=key, variant=rows[0].variant, games=len(rows),
            wins=sum(1 for r in rows if r.won),
            multiplayer_games=sum(1 for r in rows if r.multiplayer),
            average=sum(r.score for r in rows) / len(rows),
            best=max(r.score for r in rows),
            upper_bonus_rate=(sum(1 for b in bonus if b) / len(bonus)) if bonus else None,
            yachts=sum(r.yachts for r in rows),
            decisions=len(ls), average_loss=(sum(ls) / len(ls)) if ls else None,
            dice_entered=entered, computer=computer))
    return out
