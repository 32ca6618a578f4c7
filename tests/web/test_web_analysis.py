"""GET /api/games/ID/analysis: a finished game's analysis, as `yacht analyse --json`
prints it; computed once for any number of askers; errors as one line of JSON."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yacht.cli import main
from yacht.engine import Player, Record, Roll, State
from yacht.rules import get
from yacht.store import Store
from yacht.strategy.base import make_player, play_turn
from yacht.strategy.solver.dist import distributions


def stored_game(store: Store, variant: str = "tommys-crag", finish: bool = True) -> str:
    """A game of a beginner (Ann) and the expert, saved (and finished)."""
    rs = get(variant)
    s = State(rs, [Player("Ann"), Player("Max", "computer", "expert")], rng=random.Random(7))
    seats = [make_player(rs, "beginner"), make_player(rs, "expert")]
    while not s.is_terminal():
        play_turn(s, seats[s.current])
    if not finish:
        s = State(rs, s.players, rng=random.Random(7))
        s.apply(Roll())
    gid = store.start_game(Record.from_state(s))
    if finish:
        store.finish_game(gid, s)
    return gid


def test_a_finished_games_analysis_is_the_command_lines(client: TestClient, store: Store,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    gid = stored_game(store)
    distributions(get("tommys-crag"))   # (built once per variant: not this test's wait)
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert "default-src 'none'" in r.headers["content-security-policy"]
    got = r.json()
    assert main(["analyse", gid, "--db", store.location, "--json"]) == 0
    assert got == json.loads(capsys.readouterr().out)
    ann, max_ = got["players"]
    assert ann["name"] == "Ann" and ann["loss"] > 0 and 1 <= len(ann["costliest"]) <= 3
    assert max_["loss"] == 0 and max_["accuracy"] == 100
    assert got["exact"] and got["win"]["moments"][-1]["chances"] in ([1, 0], [0, 1], [1, 1])
    # asked again: from memory
    analyses = client.app.state.analyses  # type: ignore[attr-defined]
    assert analyses.computed == 1
    assert client.get(f"/api/games/{gid}/analysis").json() == got
    assert client.get(f"/api/games/{gid.upper()}/analysis").json() == got  # any case
    assert analyses.computed == 1


def test_games_not_analysed_are_told_in_one_line(client: TestClient, store: Store,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    odd = ("zz", "abc", "0123456789ab", "０１２３４５６７８９ab", "a" * 5000, "%00", "12ab%20")
    for bad, code in ((x, 404) for x in odd):
        r = client.get(f"/api/games/{bad}/analysis")
        assert r.status_code == code and r.json()["code"] == "not_found", bad
        assert "error" in r.json()
    going = stored_game(store, finish=False)
    r = client.get(f"/api/games/{going}/analysis")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"

    from yacht.strategy import analysis
    from yacht.strategy.solver import UnsupportedRuleset

    def unsupported(record: Record, **kw: Any) -> None:
        raise UnsupportedRuleset("no tables for this one")

    def broken(record: Record) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(analysis, "analyse", unsupported)
    gid = stored_game(store)
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 409 and r.json() == {
        "error": "this game cannot be analysed: no tables for this one",
        "code": "not_analysable"}
    monkeypatch.setattr(analysis, "analyse", broken)
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 500 and r.json()["code"] == "server"  # logged; not kept


def test_askers_at_once_share_one_computation(store: Store) -> None:
    from yacht.web.analyses import Analyses

    gid = stored_game(store)
    loads = []

    async def record() -> Record:
        loads.append(1)
        await asyncio.sleep(0)
        return store.load_record(gid)

    async def main() -> list[tuple[bytes, bool] | None]:
        a = Analyses()
        try:
            first = await asyncio.gather(*(a.get(gid, 99, record) for _ in range(4)))
            again = await a.get(gid, 99, record)
            assert a.computed == 1 and len(loads) == 1
            return [*first, again]
        finally:
            await a.close()

    answers = asyncio.run(main())
    assert len(set(answers)) == 1 and answers[0] is not None and answers[0][1]
    assert json.loads(answers[0][0])["players"][0]["name"] == "Ann"


def test_a_long_analysis_is_answered_202_then_given(store: Store,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An analysis not ready within the wait goes on; the asker is told to come back."""
    import contextlib
    import threading
    import time

    from yacht.strategy import analysis

    from .conftest import serve

    real = analysis.analyse
    go = threading.Event()

    def slow(record: Record, **kw: Any) -> analysis.Analysis:
        assert go.wait(30)
        return real(record)

    monkeypatch.setattr(analysis, "analyse", slow)
    gid = stored_game(store)
    with contextlib.contextmanager(serve)(store, analysis_wait=0.05) as client:
        r = client.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 202 and r.json() == {"status": "working", "retry": 2}
        assert r.headers["retry-after"] == "2"
        assert client.get(f"/api/games/{gid}/analysis").status_code == 202
        go.set()
        deadline = time.monotonic() + 30
        while (r := client.get(f"/api/games/{gid}/analysis")).status_code == 202:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert r.status_code == 200 and r.json()["players"][0]["name"] == "Ann"
        assert client.app.state.analyses.computed == 1  # type: ignore[attr-defined]


def test_the_chances_of_winning_may_come_after_the_rest(store: Store,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """While the chances of winning are worked out, an asker has the rest of the analysis
    (win null, win_pending), then asks again for the whole."""
    import contextlib
    import threading
    import time

    from yacht.strategy import analysis

    from .conftest import serve

    real = analysis.analyse
    go = threading.Event()

    def slow_chances(record: Record, **kw: Any) -> analysis.Analysis:
        if kw.get("win_games") != 0:
            assert go.wait(30)
        return real(record, **kw)

    monkeypatch.setattr(analysis, "analyse", slow_chances)
    gid = stored_game(store)
    with contextlib.contextmanager(serve)(store, quick_after=0.05) as client:
        r = client.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        part = r.json()
        assert part["win"] is None and part["win_pending"] and part["retry"] == 2
        assert [p["loss"] for p in part["players"]][1] == 0
        go.set()
        deadline = time.monotonic() + 30
        while "win_pending" in (whole := client.get(f"/api/games/{gid}/analysis").json()):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert whole["win"]["moments"] and whole["players"] == part["players"]
        analyses = client.app.state.analyses  # type: ignore[attr-defined]
        assert (analyses.computed, analyses.computed_quick) == (1, 1)


def test_a_server_analyses_so_many_games_at_once(store: Store) -> None:
    """Past ``at_once`` analyses under way, a new one is refused (503 busy), not queued."""
    from yacht.web.analyses import Analyses, AnalysisRefused

    first, second = stored_game(store), stored_game(store)

    async def main() -> None:
        a = Analyses(at_once=1)
        go = asyncio.Event()

        async def held() -> Record:
            await go.wait()
            return store.load_record(first)

        async def record() -> Record:
            return store.load_record(second)

        try:
            assert await a.get(first, 1, held, wait=0.01) is None  # under way
            with pytest.raises(AnalysisRefused) as refused:
                await a.get(second, 1, record)
            assert (refused.value.status, refused.value.code) == (503, "busy")
            go.set()
            assert await a.get(first, 1, held) is not None
            assert await a.get(second, 1, record) is not None  # its turn now
        finally:
            await a.close()

    asyncio.run(main())
