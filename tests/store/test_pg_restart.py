"""A PostgreSQL server that restarts under a running store: the connections it dropped
are replaced at the next use, with no error shown and nothing lost (the store does not
test each connection before use, it retries one the server dropped)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pgcluster import PgCluster, find_pg_bin  # (tests/store is on the path: conftest)

from yacht.store import Store, open_store
from yacht.store.core import SeatRow


@pytest.fixture
def own_server() -> Iterator[PgCluster]:
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl found)")
    cluster = PgCluster(bindir)
    try:
        cluster.url = cluster.start()  # type: ignore[attr-defined]
        yield cluster
    finally:
        cluster.stop()


def test_the_store_carries_on_after_a_server_restart(own_server: PgCluster) -> None:
    store: Store = open_store(own_server.url)  # type: ignore[attr-defined]
    try:
        seats = [SeatRow("Ann", "person", None, "t" * 64), SeatRow(None, "person", None, None)]
        made = [store.create_table("yatzy", {}, "normal", seats) for _ in range(3)]
        # several connections in the pool, all of which the restart drops
        assert [store.load_table(t.id).id for t in made] == [t.id for t in made]
        own_server.restart()
        assert store.load_table(made[0].id).variant == "yatzy"
        again = store.create_table("yatzy", {}, "fast", seats)
        assert store.load_table(again.id).speed == "fast"
        assert {t.id for t in store.open_tables()} >= {t.id for t in [*made, again]}
    finally:
        store.close()
