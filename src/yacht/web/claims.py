"""A saved game handed to a browser by its owner: a one-time link.

A game saved by the terminal or the line game belongs to whoever sits at that
keyboard; no stranger on the network can take its seats. ``yacht resume ID --web``
makes the game a table whose person seats wait for a *claim*: the link it prints
carries a random key (in the part of the address after ``#``, which browsers never
send to a server in a request line or a referrer), the store keeps only
``claim:`` + the key's SHA-256, and the first browser that opens the link trades the
key for a seat token of its own (``POST /api/tables/ID/claim``). The key is then
spent: a second use is refused.

This module needs no web server (the command line imports it).
"""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlsplit

from yacht.store import Store, StoreError
from yacht.store.core import SeatRow, TableRow

__all__ = ["CLAIM", "DEFAULT_URL", "ClaimError", "hand_to_browser", "hash_token", "link"]

#: how a seat waiting for a claim marks its token
CLAIM = "claim:"
#: where ``yacht web`` listens by default
DEFAULT_URL = "http://localhost:8000"


class ClaimError(Exception):
    """The game cannot be handed to a browser: one line."""


def hash_token(token: str) -> str:
    """What the store keeps of a secret: its SHA-256 (hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def hand_to_browser(store: Store, game_id: str) -> tuple[TableRow, str]:
    """A table for the unfinished saved game ``game_id`` whose person seats wait for the
    returned one-time key (a table made by an earlier link is reused, its old seats and
    key replaced). Raises ClaimError."""
    from yacht.engine import DEFAULT_LEVEL

    try:
        game_id = store.resolve_id(game_id)
        info = store.game_info(game_id)
        record = store.load_record(game_id)
    except StoreError as e:
        raise ClaimError(str(e)) from None
    if info.finished is not None:
        raise ClaimError(f"game {game_id} is finished: there is nothing to continue")
    table = record.meta.get("table")
    if table:
        raise ClaimError(f"game {game_id} is played at online table {table}: its players "
                         "open that table's link")
    key = secrets.token_urlsafe(24)
    pending = CLAIM + hash_token(key)
    seats = [SeatRow(p.name, "computer", p.level or DEFAULT_LEVEL, None) if p.is_computer
             else SeatRow(p.name, "person", None, pending) for p in record.players]
    try:
        before = store.table_of_game(game_id)
        if before is not None and before.closed is None:
            row = store.update_table(before.id, before.version, seats=seats, host=pending)
        else:
            row = store.create_table(record.variant, dict(record.options), "normal", seats,
                                     game_id=game_id, host=pending)
    except StoreError as e:
        raise ClaimError(str(e)) from None
    return row, key


def link(base: str, table_id: str, key: str) -> str:
    """The address that opens the table and claims its seats with ``key``.

    >>> link("http://localhost:8000/", "0123456789ab", "k" * 32)
    'http://localhost:8000/t/0123456789ab#claim=kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk'
    """
    return f"{base.rstrip('/')}/t/{table_id}#claim={key}"


def check_base(text: str) -> str:
    """A server's address for a link (http or https, a host); ValueError otherwise.

    >>> check_base("http://example.org:8000")
    'http://example.org:8000'
    """
    try:
        parts = urlsplit(text)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc \
            or parts.query or parts.fragment:
        raise ValueError(f"{text!r} is not a server's address (e.g. {DEFAULT_URL})")
    return text.rstrip("/")
