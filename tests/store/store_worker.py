"""Helper program for the store tests that need real processes.

``store_worker.py forkserver URL VARIANT``
    Imports everything once, then reads lines ``go SEED ACKFILE`` on stdin; for
    each it forks a child that plays random games into the store, writing
    ``game ID`` / ``ack ID INDEX ACTION-JSON`` / ``finished ID`` lines to
    ACKFILE after each commit, until it is killed (the test kills it with
    SIGKILL). The server answers ``pid N``. Children are reaped automatically.

``store_worker.py games URL VARIANT N SEED``
    Opens the store, prints ``ready``, waits for a line on stdin, then finishes
    N games of one person (random moves) and prints ``done N``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys

from yacht.engine import Player, Record, State, action_to_json, random_decision
from yacht.rules import get
from yacht.store import open_store


def _child(url: str, variant: str, seed: int, ackfile: str) -> None:
    fd = os.open(ackfile, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def say(line: str) -> None:
        os.write(fd, (line + "\n").encode())

    rng = random.Random(seed)
    store = open_store(url)
    rs = get(variant)
    while True:
        players = [Player(f"P{seed}")] + ([Player("Cpu", "computer", "random")]
                                          if rng.random() < 0.3 else [])
        state = State(rs, players, rng=random.Random(rng.random()))
        gid = store.start_game(Record.from_state(state))
        say(f"game {gid}")
        while not state.is_terminal():
            for action in random_decision(state, rng):
                state.apply(action)
                i = len(state.log) - 1
                store.append_action(gid, i, state.log[i])
                say(f"ack {gid} {i} {json.dumps(action_to_json(state.log[i]))}")
        store.finish_game(gid, state)
        say(f"finished {gid}")


def forkserver(url: str, variant: str) -> None:
    if "://" in url:  # import the PostgreSQL driver once, not in every child
        import psycopg  # noqa: F401
        import sqlalchemy.dialects.postgresql.psycopg  # noqa: F401
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reap themselves
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] != "go":
            break
        seed, ackfile = int(parts[1]), parts[2]
        pid = os.fork()
        if pid == 0:
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                _child(url, variant, seed, ackfile)
            finally:
                os._exit(1)
        print(f"pid {pid}", flush=True)


def games(url: str, variant: str, n: int, seed: int) -> None:
    rng = random.Random(seed)
    rs = get(variant)
    store = open_store(url)
    print("ready", flush=True)
    sys.stdin.readline()
    for g in range(n):
        state = State(rs, [Player(f"W{seed}-{g}")], rng=random.Random(rng.random()))
        while not state.is_terminal():
            for action in random_decision(state, rng):
                state.apply(action)
        # most of the log in one go, the last actions one by one, then finish
        rec = Record.from_state(state)
        head = len(rec.actions) - 2
        rec.actions = rec.actions[:head]
        gid = store.start_game(rec)
        for i in range(head, len(state.log)):
            store.append_action(gid, i, state.log[i])
        store.finish_game(gid, state)
    store.close()
    print(f"done {n}", flush=True)


if __name__ == "__main__":
    mode, *rest = sys.argv[1:]
    if mode == "forkserver":
        forkserver(rest[0], rest[1])
    elif mode == "games":
        games(rest[0], rest[1], int(rest[2]), int(rest[3]))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
