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


def serve(store: Store, **kw: Any) -> Iterator[TestClient]:
    """The server in this process; pages a failed test left open are closed before it
    stops (it would wait for them)."""
    from yacht.web import make_app

    from .browser import OPEN

    kw.setdefault("allowed_hosts", ["testserver"])
    with TestClient(make_app(store, strategy_factory=random_players, **kw),
                    base_url="http://testserver") as c:
        try:
            yield c
        finally:
            for page in list(OPEN):
                page.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    yield from serve(store)


def new_table(client: TestClient, variant: str = "tommys-crag", **kw: Any) -> dict[str, Any]:
    body = {"variant": variant, "speed": "instant",
            "seats": [{"kind": "person", "name": "Ann", "here": True}], **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data
