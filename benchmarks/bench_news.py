"""What a move costs each server process, in one interpreter and without the network:
the process that makes the move, and a process that hears of it, before and after
issue 28 (which forwards the position instead of working it out again).

Three tables of one two-player game, as processes of a site hold it:
- the mover applies the move (no store: the write path is measured by bench_web.py),
  makes its seat's snapshot (the shared part once, that seat's part, the JSON) and
  the news (the actions and the position they lead to, as JSON);
- a listener that works everything out itself (as before issue 28): plays the
  actions from the news, makes the shared part and its seat's part;
- a listener that forwards: reads the news, plays the actions, takes the mover's
  position, makes only its seat's part.

Each does it for one browser (the table's other seat is on the other process).
CPU time per move of each step (``time.thread_time``, this thread only), over
``--games`` games of Yatzy played as bench_web.py plays them (a roll, then the first
box offered). At the end the listeners' snapshots must equal the mover's.

    .venv/bin/python benchmarks/bench_news.py --games 200
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from time import thread_time
from typing import Any

import orjson

from yacht.engine import Player, Roll, Score, action_from_json, action_to_json
from yacht.rules import get
from yacht.session.present import BROWSER
from yacht.session.table import LOCAL, Table


def state_json(table: Table) -> bytes:
    """One browser's state frame (a watcher's seat: the same work as a player's)."""
    return orjson.dumps({"type": "state", "table": {"snapshot": table.snapshots(BROWSER)(None)}})


def play_game(rs: Any, pick: random.Random,
              timed: Callable[..., Any]) -> tuple[int, int]:
    """One game, every move made, heard and shown three ways; (moves, bytes of news)."""
    moves = 0
    news_bytes = 0
    players = [Player("Ann"), Player("Bob")]
    mover = Table.new(rs, players, rng=random.Random(pick.random()), speed="instant",
                      pauses=False)
    replays = Table.new(rs, players, rng=random.Random(0), speed="instant",
                        pauses=False)
    forwards = Table.new(rs, players, rng=random.Random(0), speed="instant",
                         pauses=False)
    while not mover.view().state.is_terminal():
        st = mover.view().state
        if not st.dice:
            command: Any = Roll()
        else:
            box = st.placements()[0]
            command = Score(box.category, box.column)
        n = mover.action_count
        timed("mover: apply", mover.act, LOCAL, command)
        shown = timed("mover: its browser's state", state_json, mover)
        log, position = mover.position()  # (made for its own browser just before)
        upto = len(log)
        message = timed("mover: the news as JSON", news, mover, n, upto, position)
        timed("replaying listener: read the news, play the actions", replay, replays,
              message)
        timed("replaying listener: its browser's state (shared part made here)",
              state_json, replays)
        timed("forwarding listener: read the news, play the actions, take the position",
              take, forwards, message)
        forwarded = timed("forwarding listener: its browser's state (seat part only)",
                          state_json, forwards)
        assert orjson.loads(forwarded) == orjson.loads(shown)
        news_bytes += len(message)
        moves += 1
    return moves, news_bytes


def news(mover: Table, n: int, upto: int, position: dict[str, Any]) -> bytes:
    """The mover's news of its actions from ``n`` on, as Redis carries it."""
    return orjson.dumps({"kind": "changed", "start": n, "actions": [
        action_to_json(a) for a in mover.actions_since(n)], "upto": upto,
        "position": position})


def replay(table: Table, message: bytes) -> None:
    """A listener that works it all out itself takes up a piece of news."""
    body = orjson.loads(message)
    table.take_up([(body["start"], [action_from_json(a) for a in body["actions"]])])


def take(table: Table, message: bytes) -> None:
    """A forwarding listener takes up a piece of news."""
    body = orjson.loads(message)
    table.take_up([(body["start"], [action_from_json(a) for a in body["actions"]])],
                  (body["upto"], body["position"]))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    games = max(1, min(args.games, 10_000))
    rs = get("yatzy")
    pick = random.Random(args.seed)
    spent: dict[str, float] = {}

    def timed(name: str, fn: Callable[..., Any], *args: Any) -> Any:
        t0 = thread_time()
        out = fn(*args)
        spent[name] = spent.get(name, 0.0) + thread_time() - t0
        return out

    moves = 0
    news_bytes = 0
    for _ in range(games):
        n_moves, n_bytes = play_game(rs, pick, timed)
        moves += n_moves
        news_bytes += n_bytes
    per_move = {k: round(v / moves * 1e6, 1) for k, v in spent.items()}
    totals = {who: round(sum(v for k, v in per_move.items() if k.startswith(who)), 1)
              for who in ("mover", "replaying listener", "forwarding listener")}
    print(json.dumps({"games": games, "moves": moves, "seed": args.seed,
                      "cpu_us_per_move": per_move, "cpu_us_per_move_in_all": totals,
                      "news_bytes_per_move": round(news_bytes / moves)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
