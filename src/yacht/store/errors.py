"""StoreError and the translation of database errors into one-line messages."""

from __future__ import annotations

import os
import re

from yacht.rules.errors import YachtError

__all__ = ["GameMovedOn", "StoreError", "StoreGone", "describe_db_error", "is_locked_error"]


class StoreError(YachtError):
    """The store cannot do what was asked: one line saying what is wrong and where (a
    :class:`yacht.YachtError`).

    >>> str(StoreError("no game 12ab in /tmp/x.db"))
    'no game 12ab in /tmp/x.db'
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "store error"


class GameMovedOn(StoreError):
    """The stored game is not where the writer thought: another window or process played
    an action there first, finished it or deleted it."""


class StoreGone(StoreError):
    """The database file was deleted, moved or replaced while the store had it open:
    nothing written now would be found again (the store stops reading and writing)."""


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip()
    return text.splitlines()[0].strip() if text else type(orig).__name__


def is_locked_error(exc: BaseException) -> bool:
    """SQLite's "database is locked"/"busy": worth retrying."""
    text = _first_line(exc).lower()
    return "database is locked" in text or "database is busy" in text or "sqlite_busy" in text


def describe_db_error(exc: BaseException, location: str, doing: str = "using") -> str:
    """One line for a database error at ``location``.

    >>> describe_db_error(Exception("database or disk is full"), "/m/x.db", "writing")
    'disk full writing /m/x.db'
    >>> describe_db_error(Exception("file is not a database"), "/m/x.db")
    '/m/x.db is damaged or not a yacht database (file is not a database)'
    """
    line = _first_line(exc)
    low = line.lower()
    if "disk is full" in low or "no space left" in low or "disk full" in low:
        return f"disk full {doing} {location}"
    if "disk i/o error" in low and _no_room_at(location):
        # (SQLite says only "disk I/O error" when its -wal or -shm file cannot grow on a
        # full disk: the database is not damaged)
        return f"disk full {doing} {location}"
    if "readonly" in low or "read-only" in low or "read only" in low:
        return f"{location} is read-only (cannot write the database)"
    if "malformed" in low or "not a database" in low or "disk i/o error" in low \
            or "database corrupt" in low:
        return f"{location} is damaged or not a yacht database ({line})"
    if "unable to open database file" in low:
        return f"cannot open {location} (missing directory, no permission or read-only)"
    if "locked" in low or "busy" in low:
        return f"{location} stayed busy (another program holds it locked)"
    if "connection" in low or "could not translate host" in low or "password" in low \
            or "does not exist" in low and "database" in low:
        return f"cannot connect to {location}: {_why_not_connected(line)}"
    return f"database error {doing} {location}: {line}"


#: psycopg's words for where it tried: 'connection to server at "HOST" (ADDRESS), port N
#: failed: ' or 'connection to server on socket "PATH" failed: ' (the location says where)
_SERVER_AT = re.compile(r'(?:connection failed: )?connection to server '
                        r'(?:at "[^"]*"(?: \([^)]*\))?, port \d+|on socket "[^"]*") failed: ')


def _why_not_connected(line: str) -> str:
    """PostgreSQL's reason for a failed connection without the server's address or socket
    path, which the location says already (and which a web server must not tell its
    browsers: an address inside the site).

    >>> _why_not_connected('connection failed: connection to server at "10.0.0.7", '
    ...                    'port 5432 failed: Connection refused')
    'Connection refused'
    >>> _why_not_connected('connection failed: connection to server on socket '
    ...                    '"/run/postgresql/.s.PGSQL.5432" failed: No such file or directory')
    'No such file or directory'
    >>> _why_not_connected('connection to server at "db" (10.0.0.7), port 5432 failed: '
    ...                    'FATAL:  password authentication failed for user "yacht"')
    'password authentication failed for user "yacht"'
    >>> _why_not_connected("connection timeout expired")
    'connection timeout expired'
    """
    # (PostgreSQL's severity, "FATAL:  ", says nothing the line does not: the start failed)
    return _SEVERITY.sub("", _SERVER_AT.sub("", line).strip()) or line


#: the severity PostgreSQL puts before its reason for refusing a connection
_SEVERITY = re.compile(r"^(?:FATAL|ERROR):\s+")


#: free space under which an SQLite "disk I/O error" is taken for a full disk
_LOW_SPACE = 1 << 20


def _no_room_at(location: str) -> bool:
    """The folder of the file ``location`` (a path) is on a file system all but full."""
    if not location.startswith(os.sep):
        return False  # (a URL: a server's disk is not ours to look at)
    try:
        st = os.statvfs(os.path.dirname(location) or os.sep)
    except (OSError, ValueError):
        return False
    return st.f_bavail * st.f_frsize < _LOW_SPACE
