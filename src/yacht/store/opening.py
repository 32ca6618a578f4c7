"""Finding, checking, creating and migrating the database behind a store.

A file is only ever written once it is known to be ours (or new): foreign,
damaged or newer files are refused before anything touches them.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import NullPool, StaticPool

from .errors import StoreError, StoreGone, describe_db_error
from .schema import HEAD, REVISIONS, metadata

__all__ = ["DEFAULT_FILENAME", "Target", "check_same_file", "check_writable", "default_path",
           "file_identity", "make_engine",
           "make_memory_engine", "make_readonly_engine", "migrate", "resolve"]

DEFAULT_FILENAME = "yacht.sqlite3"
_OURS = {"games", "actions", "results", "decision_losses", "alembic_version"}
_SQLITE_MAGIC = b"SQLite format 3\x00"
_PG_LOCK = 0x79616368  # "yach": serialises migrations of one PostgreSQL database


def default_path() -> Path:
    """The SQLite file used when neither ``--db`` nor ``$YACHT_DB`` says otherwise."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("yacht-dice", appauthor=False)) / DEFAULT_FILENAME


class Target:
    """Where the store lives: an SQLAlchemy URL, the file for SQLite, a printable name."""

    def __init__(self, url: URL, path: Path | None, location: str, is_default: bool):
        self.url = url
        self.path = path          # SQLite file, None for memory or a server
        self.location = location  # for messages: the file path or the URL without password
        self.is_default = is_default

    @property
    def sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"


def resolve(url: str | None) -> Target:
    """``None`` -> ``$YACHT_DB`` -> the default file; a bare path is an SQLite file, and
    ``:memory:`` a private database in memory, as SQLite has it.

    >>> t = resolve("/tmp/a.db"); (t.sqlite, t.location)
    (True, '/tmp/a.db')
    >>> t = resolve(":memory:"); (t.sqlite, t.path, t.location)
    (True, None, 'sqlite://')
    >>> resolve("postgresql://ann:secret@localhost/yacht").location
    'postgresql+psycopg://ann:***@localhost/yacht'
    """
    is_default = False
    if url is None or not url.strip():
        env = os.environ.get("YACHT_DB", "")
        if env and not env.strip():
            # (set to blanks by mistake: not taken silently for the default file)
            raise StoreError(f"YACHT_DB={env!r}: give a database file or URL, or unset "
                             "YACHT_DB for the file in the user data directory")
        if env:
            url = env.strip()
        else:
            url, is_default = str(default_path()), True
    url = url.strip()
    if url == ":memory:":
        url = "sqlite://"
    if "://" not in url:
        try:
            expanded = Path(url).expanduser()
        except RuntimeError:  # ("~name" of no user here)
            raise StoreError(f"{url!r}: no such user's home folder here; give a file "
                             f"path or a database URL") from None
        path = _usable(expanded.absolute())
        return Target(URL.create("sqlite", database=str(path)), path, str(path), is_default)
    try:
        u = make_url(url)
    except ArgumentError:
        raise StoreError(f"{url!r} is not a database URL (e.g. sqlite:///FILE or "
                         f"postgresql+psycopg://USER@HOST/DB)") from None
    backend = u.get_backend_name()
    if backend in ("postgresql", "postgres"):
        if u.drivername in ("postgresql", "postgres"):
            u = u.set(drivername="postgresql+psycopg")
        return Target(u, None, u.render_as_string(hide_password=True), False)
    if backend == "sqlite":
        db = u.database or ""
        if db in ("", ":memory:") or db.startswith("file:"):
            return Target(u, None, u.render_as_string(hide_password=True), False)
        path = _usable(Path(db).expanduser().absolute())
        return Target(u.set(database=str(path)), path, str(path), False)
    return Target(u, None, u.render_as_string(hide_password=True), False)


def _usable(path: Path) -> Path:
    """``path`` if the system can look it up (StoreError for a name too long, a NUL...)."""
    try:
        path.exists()
    except (OSError, ValueError) as e:
        shown = repr(str(path))[1:-1]
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StoreError(f"cannot use {shown} as a database file: {why}") from None
    return path


# --- SQLite files: look before touching ---------------------------------------------
def _classify(location: str, tables: Iterable[str], version: str | None) -> str | None:
    """The schema revision of an existing database, None when it is empty (new).

    Raises StoreError for a database that is someone else's or from a newer version.
    """
    names = {t for t in tables if not t.startswith("sqlite_")}
    if not names:
        return None
    if "alembic_version" not in names or (version is None and names - {"alembic_version"}):
        others = sorted(names - _OURS) or sorted(names)
        return _not_ours(location, f"it holds other tables: {', '.join(others[:5])}")
    if version is None:
        return None
    if version in REVISIONS:
        return version
    if version.startswith("yacht_"):
        raise StoreError(f"{location} was written by a newer yacht-dice (schema {version}, "
                         f"this version knows up to {HEAD}); upgrade yacht-dice")
    return _not_ours(location, f"it belongs to another program, schema {version!r}")


def _not_ours(location: str, why: str) -> str:
    raise StoreError(f"{location} is not a yacht database ({why})")


def inspect_sqlite_file(path: Path) -> str | None:
    """Check an existing SQLite file without writing to it; its revision or None (new)."""
    loc = str(path)
    if not path.is_file():
        raise StoreError(f"{loc} is not a file")
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise StoreError(f"cannot read {loc}: {e.strerror or e}") from None
    if not head:
        return None
    if not head.startswith(_SQLITE_MAGIC):
        raise StoreError(f"{loc} is not a yacht database (not an SQLite file)")
    try:
        con = _readonly_connection(path)
    except sqlite3.Error as e:
        raise StoreError(describe_db_error(e, loc, "reading")) from None
    try:
        check = con.execute("PRAGMA quick_check(1)").fetchone()
        if not check or check[0] != "ok":
            raise StoreError(f"{loc} is damaged (integrity check: {check[0] if check else '?'})")
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        version = None
        if "alembic_version" in tables:
            rows = con.execute("SELECT version_num FROM alembic_version").fetchall()
            version = str(rows[0][0]) if rows else None
    except sqlite3.Error as e:
        raise StoreError(describe_db_error(e, loc, "reading")) from None
    finally:
        con.close()
    return _classify(loc, tables, version)


def _readonly_connection(path: Path) -> sqlite3.Connection:
    """A connection that only reads ``path`` and creates nothing beside it.

    Without a -wal file nobody has the database open: it is read as immutable, which
    needs no -wal/-shm files (so it works in a read-only folder too). With one, it is
    read the normal way, read-only (the -shm file is there already).
    """
    live = path.with_name(path.name + "-wal").exists()
    uri = "file:" + urllib.parse.quote(str(path)) + ("?mode=ro" if live else
                                                     "?mode=ro&immutable=1")
    return sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)


def file_identity(path: Path) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (None: there is none)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def check_same_file(path: Path, identity: tuple[int, int]) -> None:
    """StoreGone (one line) when ``path`` is no longer the file the store opened: it was
    deleted, moved or replaced, and SQLite would go on writing to the old one, which no
    one will open again (a game played on would say it was saved, and be lost)."""
    if file_identity(path) != identity:
        raise StoreGone(f"{path} was deleted or replaced while in use: nothing more is "
                        "read from it or saved to it (start yacht again to use the file "
                        "that is there now)")


def check_writable(path: Path) -> None:
    """StoreError (one line) when the existing database ``path`` cannot be written: the
    file is read-only, or its folder is, where SQLite keeps its -wal and -shm files."""
    folder = path.parent
    if not os.access(path, os.W_OK):
        raise StoreError(f"{path} cannot be written (the file is read-only); commands "
                         "that only read it (yacht scores, stats, resume --show) still work")
    needed = [path.with_name(path.name + s) for s in ("-wal", "-shm")]
    if not all(p.exists() and os.access(p, os.W_OK) for p in needed) \
            and not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"{path} cannot be written (its folder {folder} is read-only, and "
                         "SQLite keeps its -wal and -shm files there); commands that only "
                         "read it (yacht scores, stats, resume --show) still work")


def create_sqlite_file(path: Path, make_dirs: bool) -> None:
    """Create an empty file for a new database, with a clear message when that fails."""
    parent = path.parent
    if make_dirs:
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot create the directory {parent}: "
                             f"{_why(e)}") from None
    elif not parent.is_dir():
        raise StoreError(f"cannot create {path}: the directory {parent} does not exist")
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return
    except OSError as e:
        raise StoreError(f"cannot create {path}: {_why(e)}") from None
    os.close(fd)


def _why(e: OSError) -> str:
    if e.errno == errno.EROFS:
        return "the directory is read-only"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied (the directory is not writable)"
    if e.errno == errno.ENOSPC:
        return "disk full"
    return e.strerror or str(e)


def backup_sqlite(path: Path, revision: str) -> Path:
    """Copy a database aside (WAL content included) before migrating it."""
    dest = path.with_name(f"{path.name}.bak-{revision}")
    n = 2
    while dest.exists():
        dest = path.with_name(f"{path.name}.bak-{revision}-{n}")
        n += 1
    uri = "file:" + urllib.parse.quote(str(path)) + "?mode=ro"
    try:
        src = sqlite3.connect(uri, uri=True, timeout=30)
        try:
            dst = sqlite3.connect(dest)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except (sqlite3.Error, OSError) as e:
        try:
            dest.unlink()
        except OSError:
            pass
        raise StoreError(f"cannot copy {path} aside to {dest} before upgrading it: "
                         f"{describe_db_error(e, str(dest), 'writing')}") from None
    return dest


# --- engines ---------------------------------------------------------------------
def make_engine(target: Target) -> Engine:
    kwargs: dict[str, Any] = {}
    if target.sqlite:
        if target.path is None:
            kwargs["poolclass"] = StaticPool
        kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
    elif target.url.get_backend_name() == "postgresql":
        kwargs["connect_args"] = {"connect_timeout": 10}
        # a server keeps its connections: one made per transaction over the pool's
        # size costs a server process each time. No test query before each use
        # either: a connection the server dropped is retried (Store._tx)
        kwargs["pool_size"] = 10
        kwargs["max_overflow"] = 10
        kwargs["pool_pre_ping"] = False
    try:
        engine = create_engine(target.url, **kwargs)
    except ImportError as e:
        # (a driver of another package named in the URL: psycopg2, asyncpg...)
        hint = ("; yacht reaches PostgreSQL through psycopg: postgresql+psycopg://USER@HOST/DB"
                if target.url.get_backend_name() == "postgresql" else "")
        raise StoreError(f"cannot use {target.location}: its driver is not installed "
                         f"({e}){hint}") from None
    except (ArgumentError, SQLAlchemyError) as e:
        raise StoreError(f"cannot use {target.location}: {e}") from None
    if target.sqlite:
        _sqlite_events(engine, wal=target.path is not None)
    return engine


def make_readonly_engine(path: Path) -> Engine:
    """An engine that only reads the SQLite file ``path`` (see :func:`_readonly_connection`):
    no journal mode set, no write lock taken, nothing created beside the file."""
    engine = create_engine("sqlite://", creator=lambda: _readonly_connection(path),
                           poolclass=NullPool)
    _sqlite_events(engine, wal=False, readonly=True)
    return engine


def make_memory_engine(copy_of: Path | None = None) -> Engine:
    """A private in-memory database: a copy of the file ``copy_of`` (read without writing
    it), or an empty one with the current schema."""
    mem = sqlite3.connect(":memory:", check_same_thread=False)
    if copy_of is not None:
        try:
            src = _readonly_connection(copy_of)
            try:
                src.backup(mem)
            finally:
                src.close()
        except sqlite3.Error as e:
            mem.close()
            raise StoreError(describe_db_error(e, str(copy_of), "reading")) from None
    engine = create_engine("sqlite://", creator=lambda: mem, poolclass=StaticPool)
    _sqlite_events(engine, wal=False)
    if copy_of is None:
        metadata.create_all(engine)
    return engine


def _sqlite_events(engine: Engine, wal: bool, readonly: bool = False) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_con: Any, _record: Any) -> None:
        dbapi_con.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_con.cursor()
        try:
            cur.execute("PRAGMA busy_timeout = 30000")
            if wal and not readonly:
                cur.execute("PRAGMA journal_mode = WAL")
            if not readonly:
                cur.execute("PRAGMA synchronous = FULL")
            cur.execute("PRAGMA foreign_keys = ON")
        finally:
            cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # a write takes the write lock at the start: no deadlock-prone lock upgrades; a
        # read takes none (WAL: it reads the last commit while a writer writes)
        read = readonly or conn.get_execution_options().get("yacht_read", False)
        conn.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")


def _server_revision(conn: Connection, location: str) -> str | None:
    tables = inspect(conn).get_table_names()
    version = None
    if "alembic_version" in tables:
        row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
        version = str(row[0]) if row else None
    return _classify(location, tables, version)


def migrate(engine: Engine, target: Target) -> str | None:
    """Bring the schema to the newest revision; returns the backup file when one was made."""
    backup: Path | None = None
    if target.sqlite:
        # an up-to-date file (nearly always) is seen without the write lock: opening the
        # store waited for another program writing to it (up to 30 s, then failed)
        with engine.connect().execution_options(yacht_read=True) as conn, conn.begin():
            if _server_revision(conn, target.location) == HEAD:
                return None
    with engine.connect() as conn:
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK})
            # checked again under the lock: another process may have migrated meanwhile
            current = _server_revision(conn, target.location)
            if current == HEAD:
                return None
            if current is not None and target.path is not None:
                backup = backup_sqlite(target.path, current)
            from alembic import command  # only now: alembic takes a while to import
            from alembic.config import Config

            cfg = Config()
            cfg.set_main_option("script_location",
                                str(Path(__file__).with_name("migrations")))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, HEAD)
    return str(backup) if backup else None
