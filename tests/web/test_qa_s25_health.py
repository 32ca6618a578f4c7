"""/healthz with a database that hangs (a frozen server, a lost host): it waited as long
as the database did (a minute and more on PostgreSQL) with no answer at all, so a load
balancer's check timed out without learning why, and every check held another store
thread (QA s25). It answers 503 within its limit, and one check waits at a time."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from yacht.store import Store

from .conftest import serve


def test_a_hung_database_is_a_503_in_seconds_not_a_hung_check(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from yacht.web import hub as hub_module

    monkeypatch.setattr(hub_module, "HEALTH_WAIT", 0.3)
    release = threading.Event()
    calls: list[float] = []
    real = store.score_tables

    def hung(*args: Any, **kw: Any) -> Any:
        calls.append(time.monotonic())
        release.wait(30)
        return real(*args, **kw)

    for client in serve(store):
        assert client.get("/healthz").status_code == 200
        monkeypatch.setattr(store, "score_tables", hung)
        for _ in range(3):
            started = time.monotonic()
            r = client.get("/healthz")
            assert time.monotonic() - started < 5
            assert r.status_code == 503, r.text
            body = r.json()
            assert not body["ok"] and body["store"] == \
                "the database has not answered in 0.3 s", body
        assert len(calls) == 1  # (the one check under way, waited on again)
        release.set()
        for _ in range(50):  # the database answers again: so does the check
            if client.get("/healthz").status_code == 200:
                break
            time.sleep(0.05)
        assert client.get("/healthz").json()["store"] == "ok"
        monkeypatch.setattr(store, "score_tables", real)
