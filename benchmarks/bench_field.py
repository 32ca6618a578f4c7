"""What a duplicate table's field costs the server: CPU seconds per move, in process.

Plays ``--groups`` duplicate tables of 8 people on one hub (no HTTP, no sockets: each
card has one browser's connection whose messages are only queued), every card a roll
and a score per turn in a shuffled order, as 8 people playing at once would; every
score pushes the field to the group's 8 browsers. Prints the process's CPU time per
move and per score, and the field messages queued. Run it on two commits to see what a
change to the field costs (``bench_web.py --duplicate 8`` measures latency under load;
this measures work, so a busy machine matters less).

    python benchmarks/bench_field.py --groups 20 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from functools import partial
from typing import Any


async def play(groups: int, seed: int, db: str) -> dict[str, Any]:
    from yacht.engine import Roll
    from yacht.session.commands import ScoreBox
    from yacht.store import open_store
    from yacht.web.hub import Hub
    from yacht.web.protocol import PersonSeat, TableRequest

    store = open_store(db)
    store.group_commits(flush="interval")
    hub = Hub(store)
    rng = random.Random(seed)
    players = []  # (live, conn, token hash) per card
    for g in range(groups):
        req = TableRequest(variant="yatzy", speed="instant", dice="duplicate", seats=[
            PersonSeat(kind="person", name=f"P{g}x{i}", here=i == 0) for i in range(8)])
        live, token = await hub.create(req)
        group = await hub.duplicates.group(live.row.settings["group"])
        lives = await hub.duplicates.cards(group)
        for i, card in enumerate(lives):
            conn = hub.connect(card, token if i == 0 else None)
            if i:
                await hub.join(card, conn, 0, f"P{g}x{i}", None)
            assert card.table is not None and conn.token_hash is not None
            players.append((card, conn, conn.token_hash))
    await asyncio.sleep(0.5)
    steps = [p for p in players for _ in range(2 * 15)]  # 15 turns of yatzy, 2 moves each
    rng.shuffle(steps)
    # each card's moves in its own order: roll, score, roll, score, ...
    fields = 0
    moves = scores = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for live, _conn, seat in steps:
        table = live.table
        assert table is not None
        state = table.view().state
        if not state.dice:
            await hub.move_call(partial(table.act, seat, Roll()))
        else:
            best = max(state.placements(), key=lambda p: p.points)
            await hub.move_call(partial(table.act, seat, ScoreBox(best.category, best.column)))
            scores += 1
        moves += 1
        await asyncio.sleep(0)  # (the events, and the pushes they start, run)
        if moves % 200 == 0:
            fields += drain(players)
    await asyncio.sleep(0.5)
    fields += drain(players)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    await hub.close()
    store.close()
    return {"groups": groups, "cards": 8 * groups, "moves": moves, "scores": scores,
            "field_messages": fields, "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
            "cpu_ms_per_move": round(1000 * cpu / moves, 3),
            "cpu_ms_per_score": round(1000 * cpu / max(1, scores), 3)}


def drain(players: list[Any]) -> int:
    """Empty the browsers' queues (the field messages among them counted)."""
    n = 0
    for _live, conn, _seat in players:
        while not conn.outbox.empty():
            item = conn.outbox.get_nowait()
            n += isinstance(item, dict) and item.get("type") == "field"
        conn.state_due = False
    return n


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--groups", type=int, default=20, help="duplicate tables of 8 (1-200)")
    p.add_argument("--seed", type=int, default=1, help="the order of the moves")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(play(max(1, min(args.groups, 200)), args.seed,
                               f"{tmp}/field.sqlite3"))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
