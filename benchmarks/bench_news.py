"""What a move costs each server process, in one interpreter and without the network:
the process that makes the move (applies it), the process that hears of it (takes it
up from the news), and what both do for their own browsers (the snapshot every seat
sees alike, each seat's own, the JSON sent).

Two tables of two players, as two processes of a site hold one game: the mover
plays (a roll, then the first box offered, as bench_web.py plays), the listener
takes up each move as the news carries it. CPU time per move of each step
(``time.thread_time``), over ``--games`` games of Yatzy. No store: the write path is
measured by ``bench_web.py``.

    .venv/bin/python benchmarks/bench_news.py --games 200
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import orjson

from yacht.engine import Player, Roll, Score, action_to_json
from yacht.rules import get
from yacht.session.present import BROWSER
from yacht.session.snapshot import for_seat, shared
from yacht.session.table import LOCAL, Table


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    games = max(1, min(args.games, 10_000))
    rs = get("yatzy")
    pick = random.Random(args.seed)
    spent = {"mover_act": 0.0, "listener_take_up": 0.0, "shared_snapshot": 0.0,
             "two_seats_snapshots": 0.0, "json_two_states": 0.0,
             "news_message_json": 0.0}
    moves = 0
    news_bytes = 0
    clock = time.thread_time
    for _ in range(games):
        players = [Player("Ann"), Player("Bob")]
        rng = random.Random(pick.random())
        mover = Table.new(rs, players, rng=rng, speed="instant", pauses=False)
        listener = Table.new(rs, players, rng=random.Random(0), speed="instant",
                             pauses=False)
        while not mover.view().state.is_terminal():
            st = mover.view().state
            if not st.dice:
                command: Any = Roll()
            else:
                box = st.placements()[0]
                command = Score(box.category, box.column)
            n = mover.action_count
            t0 = clock()
            mover.act(LOCAL, command)
            t1 = clock()
            news = mover.actions_since(n)
            message = json.dumps({"kind": "changed", "start": n,
                                  "actions": [action_to_json(a) for a in news]})
            t2 = clock()
            listener.take_up([(n, news)])
            t3 = clock()
            view = listener.view()
            base = shared(view, BROWSER)
            t4 = clock()
            seats = [for_seat(base, view, None, BROWSER) for _ in range(2)]
            t5 = clock()
            for s in seats:
                orjson.dumps({"type": "state", "table": {"snapshot": s}})
            t6 = clock()
            spent["mover_act"] += t1 - t0
            spent["news_message_json"] += t2 - t1
            spent["listener_take_up"] += t3 - t2
            spent["shared_snapshot"] += t4 - t3
            spent["two_seats_snapshots"] += t5 - t4
            spent["json_two_states"] += t6 - t5
            news_bytes += len(message)
            moves += 1
        assert listener.actions_since(0) == mover.actions_since(0)
    per_move = {k: round(v / moves * 1e6, 1) for k, v in spent.items()}
    print(json.dumps({"games": games, "moves": moves, "seed": args.seed,
                      "cpu_us_per_move": per_move,
                      "news_bytes_per_move": round(news_bytes / moves)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
