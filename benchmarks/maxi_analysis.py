"""Loss and luck of the analysis of Maxi Yatzy games with saved rolls (issue 25): a
hasty player (scores the advisor's best box after her first roll every turn, so her
pool only grows), the expert, and a spender (rolls every roll her turn has, keeping
the advisor's best keep), at one table, one game per seed.

    nice -n 10 .venv/bin/python benchmarks/maxi_analysis.py 1 2 3 4    # seeds

Needs the table of Maxi Yatzy without saved rolls (built once: ~100 s, 1.7 GB).
Prints a line per player and game: result, expected start, loss, luck, accuracy.
"""

from __future__ import annotations

import random
import sys

from _cli import parser

from yacht.engine import Choose, Player, Record, Roll, Score, State
from yacht.rules import get
from yacht.strategy.advisor import advise
from yacht.strategy.analysis import analyse
from yacht.strategy.base import make_player, play_turn

KINDS = ("hasty", "expert", "spender")


def game(seed: int) -> State:
    rs = get("maxi-yatzy")
    s = State(rs, [Player(k, "computer", "expert") for k in KINDS], rng=random.Random(seed))
    expert = make_player(rs, "expert")
    while not s.is_terminal():
        who = KINDS[s.current]
        if who == "expert":
            play_turn(s, expert)
            continue
        s.apply(Roll())
        while who == "spender" and s.rolls_left > 0:
            keep = next(r for r in advise(s) if r.kind == "keep")
            s.apply(Choose(keep.reroll))
            s.apply(Roll())
        best = next(r for r in advise(s) if r.kind == "score")
        assert best.category is not None
        s.apply(Score(best.category, best.column))
    return s


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("seeds", nargs="*", type=int, default=[1],
                    help="one game per seed (default: 1)")
    for seed in ap.parse_args(argv).seeds:
        a = analyse(Record.from_state(game(seed)), win_games=0)
        for p in a.players:
            print(f"seed {seed} {p.name:8} result {p.result:6.1f} start "
                  f"{p.expected_start:6.1f} loss {p.loss:6.1f} luck {p.luck:+7.1f} "
                  f"accuracy {p.accuracy:5.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
