"""Fixtures for the web tests: a server on a private store, in this process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yacht.rules import Ruleset
from yacht.store import Store, open_store
from yacht.strategy import RandomStrategy


def random_players(level: str, rs: Ruleset) -> RandomStrategy:
    """Every computer level plays seeded random moves: quick and deterministic."""
    return RandomStrategy(rs, seed=5)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(str(tmp_path / "web.sqlite3"))
    yield s
    s.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    from yacht.web import make_app

    with TestClient(make_app(store, strategy_factory=random_players),
                    base_url="http://testserver") as c:
        yield c


@pytest.fixture(autouse=True)
def _close_pages(client: TestClient) -> Iterator[None]:
    """Pages a failed test left open are closed before the server stops (it waits for them)."""
    yield
    from .browser import OPEN

    for page in list(OPEN):
        page.close()


def new_table(client: TestClient, variant: str = "tommys-crag", **kw: Any) -> dict[str, Any]:
    body = {"variant": variant, "speed": "instant",
            "seats": [{"kind": "person", "name": "Ann", "here": True}], **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data
