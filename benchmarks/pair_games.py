"""Two duels of the same games, compared game by game.

``champion.py duel --games-out FILE`` writes each game's two totals (the champion's,
its opponent's), ``champion.py crowd --games-out FILE`` the champion's share of first
place in each game. Two runs with the same ``--seed`` play the same games (each game's
dice come from its own seed) until the two champions' choices part, so the
difference of their results game by game (1 a win, 1/2 a tie, 0 a loss) has a far
smaller error than the difference of two separate win rates.

    .venv/bin/python benchmarks/pair_games.py plan0.json plan6.json
    .venv/bin/python benchmarks/pair_games.py a1.json b1.json a2.json b2.json   # pooled

Prints each pair's win rates, the difference (B - A) with its 95 % interval (normal
approximation on the per-game differences) and the share of games played alike; with
several pairs, also the pooled difference.
"""

from __future__ import annotations

import json
import math
import sys


def result(game: list[float] | float) -> float:
    """A game's result: a duel's third item (the champion's share of first place; files
    from before it: 1, 1/2 or 0 from the two totals); a crowd's share as it is."""
    if isinstance(game, int | float):
        return float(game)
    if len(game) > 2:
        return float(game[2])
    mine, theirs = game
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def interval(diffs: list[float]) -> tuple[float, float]:
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


def main(argv: list[str]) -> int:
    if len(argv) < 2 or len(argv) % 2:
        print("usage: pair_games.py A.json B.json [A2.json B2.json ...] (pairs of "
              "--games-out files of the same seed)", file=sys.stderr)
        return 2
    pooled: list[float] = []
    for i in range(0, len(argv), 2):
        with open(argv[i]) as f:
            a = json.load(f)
        with open(argv[i + 1]) as f:
            b = json.load(f)
        n = min(len(a), len(b))
        ra = [result(g) for g in a[:n]]
        rb = [result(g) for g in b[:n]]
        diffs = [y - x for x, y in zip(ra, rb, strict=True)]
        alike = sum(1 for x, y in zip(a[:n], b[:n], strict=True) if x == y)
        mean, half = interval(diffs)
        print(f"{argv[i]} / {argv[i + 1]}: {n:,} games: A {sum(ra) / n:.2%}, "
              f"B {sum(rb) / n:.2%}; B - A {100 * mean:+.2f} points "
              f"({100 * (mean - half):+.2f} to {100 * (mean + half):+.2f}); "
              f"played alike {alike / n:.1%}")
        pooled += diffs
    if len(argv) > 2:
        mean, half = interval(pooled)
        print(f"pooled: {len(pooled):,} games: B - A {100 * mean:+.2f} points "
              f"({100 * (mean - half):+.2f} to {100 * (mean + half):+.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
