"""A PostgreSQL server that cannot be reached: the store's line names the database by its
location and says why, without psycopg's own "connection to server at "HOST", port N"
(found by hand with `yacht web` on PostgreSQL stopped: every browser's error line during
the outage said 'connection to server at "127.0.0.1", port 55432 failed' - the web hides
the location, not that; on a real site an address inside it)."""

from __future__ import annotations

import socket

import psycopg
import pytest

from yacht.store.errors import describe_db_error


def test_a_refused_connection_says_why_and_no_address_of_its_own() -> None:
    with socket.socket() as s:  # (a loopback port no one listens on)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(host="127.0.0.1", port=port, user="yacht", dbname="yacht",
                        connect_timeout=10)
    where = f"postgresql+psycopg://yacht@127.0.0.1:{port}/yacht"
    line = describe_db_error(refused.value, where, "reading")
    assert line == f"cannot connect to {where}: Connection refused"
    assert line.replace(where, "the database").count(str(port)) == 0
