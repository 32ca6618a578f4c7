"""Fixtures for the store tests: every store test runs on SQLite and on PostgreSQL.

PostgreSQL: ``$YACHT_TEST_PG_URL`` when set (its yacht tables are dropped
between tests), else a private cluster started here (initdb + pg_ctl on a
free loopback port, stopped at the end). Without PostgreSQL binaries the
PostgreSQL half is skipped, saying so.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pgcluster import PgCluster, find_pg_bin  # noqa: E402

from yacht.store import Store, open_store  # noqa: E402

BACKENDS = ["sqlite", "postgresql"]
_TABLES = ("web_groups", "dailies", "web_tables", "decision_losses", "results", "actions",
           "games", "alembic_version",
           "foreign_stuff")


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real user data directory or an inherited YACHT_DB."""
    monkeypatch.delenv("YACHT_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    env = os.environ.get("YACHT_TEST_PG_URL", "").strip()
    if env:
        yield env
        return
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl found) and "
                    "YACHT_TEST_PG_URL is not set")
    cluster = PgCluster(bindir)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def reset_pg(url: str) -> None:
    """Drop the store's tables (and the test's foreign table) from a test database."""
    from sqlalchemy import create_engine, text

    eng = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1)
                        if url.startswith("postgresql://") else url)
    try:
        with eng.begin() as conn:
            for t in _TABLES:
                conn.execute(text(f"DROP TABLE IF EXISTS {t} CASCADE"))
    finally:
        eng.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: an SQLite file or a cleaned PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    url: str = request.getfixturevalue("pg_server")
    reset_pg(url)
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    try:
        yield s
    finally:
        s.close()
