"""Real processes: kill -9 at random moments, and two writers at once."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from store_helpers import HERE

from yacht.engine import action_from_json, random_decision
from yacht.rules import get
from yacht.store import open_store

KILLS = 50
WORKER = str(HERE / "store_worker.py")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    return env


def _wait_gone(pid: int, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.002)
    raise AssertionError(f"process {pid} did not go away")


def _read_acks(path: Path) -> tuple[list[str], dict[str, list[dict[str, object]]], set[str]]:
    games: list[str] = []
    acks: dict[str, list[dict[str, object]]] = {}
    finished: set[str] = set()
    text = path.read_text() if path.exists() else ""
    lines = text.split("\n")
    if lines and lines[-1] != "":
        lines = lines[:-1]  # a line cut by the kill is not acknowledged
    for line in lines:
        if not line:
            continue
        kind, gid, *rest = line.split(" ", 3)
        if kind == "game":
            games.append(gid)
            acks[gid] = []
        elif kind == "ack":
            idx, action = int(rest[0]), json.loads(rest[1])
            assert idx == len(acks[gid]), f"worker acknowledged out of order: {line}"
            acks[gid].append(action)
        elif kind == "finished":
            finished.add(gid)
    return games, acks, finished


@pytest.mark.slow
def test_kill_minus_nine_loses_at_most_the_action_in_flight(db_url: str,
                                                            tmp_path: Path) -> None:
    rng = random.Random(20261129)
    server = subprocess.Popen([sys.executable, WORKER, "forkserver", db_url, "tommys-crag"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env=_env())
    assert server.stdin is not None and server.stdout is not None
    checked_actions = 0
    store = None
    try:
        for round_no in range(KILLS):
            ackfile = tmp_path / f"acks-{round_no}.txt"
            server.stdin.write(f"go {round_no} {ackfile}\n")
            server.stdin.flush()
            line = server.stdout.readline()
            assert line.startswith("pid "), line
            pid = int(line.split()[1])
            if round_no % 10 == 0:
                time.sleep(rng.uniform(0, 0.05))  # also while opening / migrating
            else:
                end = time.monotonic() + 20
                while not (ackfile.exists() and ackfile.stat().st_size > 0):
                    assert time.monotonic() < end, "the worker never wrote anything"
                    time.sleep(0.002)
                time.sleep(rng.uniform(0, 0.3))
            os.kill(pid, signal.SIGKILL)
            _wait_gone(pid)

            games, acks, finished = _read_acks(ackfile)
            if store is None:
                store = open_store(db_url)  # after the first kill: opening must work
            for n, gid in enumerate(games):
                rec = store.load_record(gid)
                saved = list(rec.actions)
                want = [action_from_json(a) for a in acks[gid]]
                last = n == len(games) - 1
                # only the action in flight (committed, not yet acknowledged) may differ
                assert saved[:len(want)] == want
                assert len(saved) - len(want) in ((0, 1) if last else (0,))
                info = store.game_info(gid)
                if gid in finished:
                    assert info.finished is not None
                checked_actions += len(want)
            if games:
                # the game resumes at its last completed action and can go on
                gid = games[-1]
                state = store.load_state(gid, rng=random.Random(round_no))
                if not state.is_terminal():
                    assert len(state.log) >= len(acks[gid])
                    for a in random_decision(state, random.Random(round_no)):
                        state.apply(a)
                        store.append_action(gid, len(state.log) - 1, state.log[-1])
                    assert store.load_record(gid).actions == state.log
    finally:
        if store is not None:
            store.close()
        server.stdin.close()
        server.wait(timeout=30)
    # the kills really landed in the middle of games (about 5 actions a kill on a quiet
    # machine, fewer at a load of 14)
    assert checked_actions > KILLS * 2
    if not db_url.startswith("postgresql"):
        import sqlite3

        con = sqlite3.connect(db_url)
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        con.close()


@pytest.mark.slow
def test_two_processes_finish_400_games_into_one_database(db_url: str) -> None:
    open_store(db_url).close()  # created and migrated; the workers race on the rest
    procs = [subprocess.Popen([sys.executable, WORKER, "games", db_url, "tommys-crag",
                               "200", str(seed)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=_env())
             for seed in (1, 2)]
    for p in procs:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready"
    for p in procs:  # start both at once
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        assert out.strip() == "done 200"
    rs = get("tommys-crag")
    with open_store(db_url) as store:
        games = store.finished_games()
        assert len(games) == 400
        assert store.unfinished_games() == []
        names = {g.players[0].name for g in games}
        assert len(names) == 400
        for g in games[:5]:
            assert store.load_record(g.id).final_state().returns() == g.scores
        ordered = sorted(games, key=lambda g: (-(g.scores or [0])[0], g.finished))
        top = store.top_ten(rs)
        assert [(e.game_id, e.score) for e in top] == [
            (g.id, (g.scores or [0])[0]) for g in ordered[:10]]
        stats = store.stats()
        assert len(stats) == 400 and sum(s.games for s in stats) == 400


@pytest.mark.parametrize("n", [3])
def test_worker_program_runs_standalone(tmp_path: Path, n: int) -> None:
    """The helper itself: a short run finishes exactly n games (guards the two tests above)."""
    url = str(tmp_path / "w.db")
    p = subprocess.run([sys.executable, WORKER, "games", url, "yatzy", str(n), "7"],
                       input="go\n", capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["ready", "done", str(n)]
    with open_store(url) as store:
        assert len(store.finished_games()) == n
