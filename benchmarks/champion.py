"""The ``champion`` level measured: target tables, solitaire targets, head to head.

Parts (each in its own process where it matters):

* ``tables``: time and memory to build the exact target tables of Yahtzee for
  200, 250, 300 and 350 points (each target in a fresh process with an empty
  table of its own in the cache: build seconds, the table's bytes, the
  process's peak resident memory; then the time to load it again from the
  disk cache).
* ``progress``: what the reports of a target table's build cost and how well they
  follow the time (the game shows them as a bar with the time left): Yahtzee's
  table for ``--targets`` (first one) built ``--games`` times in fresh processes
  without the disk cache, with and without a progress callback in turn; the
  build's seconds, the reports' number, the longest time between two reports,
  and the farthest a report's fraction was from the fraction of the time gone.
* ``solitaire``: the chance of reaching 200, 250, 300 and 350 in Yahtzee,
  ``champion`` (exact: the target table's value from the empty card) against
  ``expert`` (exact too: the expert's final-score distribution, computed by
  following the expert's policy through the target kernel would need another
  table, so it is *measured*: ``--expert-games`` games of the solver's
  self-play, default 1,000,000, with the 95 % interval).
* ``duel``: ``champion`` against ``expert`` head to head, 2-player games of
  Yahtzee and Yatzy, seats alternated (game ``g``: the champion sits first when
  ``g`` is even). Wins, losses and ties are counted apart; the win rate counts
  a tie as half a win, with its 95 % interval (normal approximation on the
  per-game score 1 / 0.5 / 0). Games are split between ``--workers`` processes
  (at most 2); each game draws its dice from its own seed, so the results do
  not depend on the number of processes.
* ``crowd``: the champion against ``--players`` - 1 experts, its seat rotating
  (game ``g``: seat ``g % players``): its share of first places (a k-way tie
  counts 1/k), with its 95 % interval; an expert's share is 1 / players.

Usage::

    .venv/bin/python benchmarks/champion.py tables
    .venv/bin/python benchmarks/champion.py progress --targets 255 --games 3
    .venv/bin/python benchmarks/champion.py solitaire --expert-games 1000000
    .venv/bin/python benchmarks/champion.py duel --games 100000 --workers 2 yahtzee yatzy
    .venv/bin/python benchmarks/champion.py duel --games 2000 --json out.json yahtzee
    .venv/bin/python benchmarks/champion.py crowd --players 3 --games 20000 yahtzee
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import time
from typing import Any

from _cli import variant

TARGETS = (200, 250, 300, 350)

# the champion measured at full strength: a missing table is built before its first move
# (not in the background, its first moves then the expert's), in every worker process too
os.environ.setdefault("YACHT_BUILDS", "wait")


def _load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# --- tables -------------------------------------------------------------------------------

def _one_table(variant: str, target: int) -> dict[str, Any]:
    """Build (in this process) the target table; its facts."""
    from yacht.rules import get
    from yacht.strategy.solver.target import target_table

    rs = get(variant)
    t0 = time.perf_counter()
    tt = target_table(rs, target, workers=2)
    secs = time.perf_counter() - t0
    return {"variant": variant, "target": target, "built": tt.built, "seconds": round(secs, 2),
            "cells": tt.cells, "table_bytes": tt.nbytes, "start": tt.start,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def tables(variant: str, targets: list[int]) -> list[dict[str, Any]]:
    out = []
    for t in targets:
        row: dict[str, Any] = {"load_before": _load()}
        for what in ("build", "load"):
            code = ("import json, sys; sys.path.insert(0, 'benchmarks'); import champion; "
                    f"print(json.dumps(champion._one_table({variant!r}, {t})))")
            if what == "build":
                from yacht.rules import get
                from yacht.strategy.solver import cache as diskcache

                path = diskcache.cache_path(get(variant).key, kind=f"target{t}")
                if path.exists():
                    path.unlink()
            res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True)
            got = json.loads(res.stdout.strip().splitlines()[-1])
            row[what] = got
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


# --- progress -------------------------------------------------------------------------------

def _one_build(variant: str, target: int, report: bool) -> dict[str, Any]:
    """Build (in this process, no disk cache) the target table, with or without a progress
    callback; how long, and how the reports followed the time."""
    from yacht.rules import get
    from yacht.strategy.solver.target import target_table

    rs = get(variant)
    seen: list[tuple[float, float]] = []
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        seen.append((time.perf_counter() - t0, done / total))

    target_table(rs, target, cache=False, workers=2, progress=progress if report else None)
    secs = time.perf_counter() - t0
    row: dict[str, Any] = {"variant": variant, "target": target, "progress": report,
                           "seconds": round(secs, 2), "reports": len(seen)}
    if seen:
        times = [0.0] + [t for t, _ in seen]
        row["longest_gap_s"] = round(max(b - a for a, b in zip(times, times[1:],
                                                                strict=False)), 2)
        row["farthest_from_time"] = round(max(abs(t / secs - f) for t, f in seen), 3)
    return row


def progress_runs(variant: str, target: int, rounds: int) -> list[dict[str, Any]]:
    out = []
    for i in range(2 * rounds):
        report = i % 2 == 0
        code = ("import json, sys; sys.path.insert(0, 'benchmarks'); import champion; "
                f"print(json.dumps(champion._one_build({variant!r}, {target}, {report})))")
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        row = {"load_before": _load(), **json.loads(res.stdout.strip().splitlines()[-1])}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


# --- solitaire ------------------------------------------------------------------------------

def solitaire(variant: str, targets: list[int], games: int, seed: int) -> list[dict[str, Any]]:
    import numpy as np

    from yacht.rules import get
    from yacht.strategy.solver import fast_selfplay, solve
    from yacht.strategy.solver.target import target_table

    rs = get(variant)
    sol = solve(rs, estimate=False)
    t0 = time.perf_counter()
    totals = fast_selfplay(sol, games, seed=seed, workers=2).totals.astype(np.int64)
    secs = time.perf_counter() - t0
    out = []
    for t in targets:
        p = float((totals >= t).mean())
        half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / games)
        row = {"variant": variant, "target": t, "champion": target_table(rs, t).start,
               "expert": p, "expert_ci95": [p - half, p + half], "expert_games": games,
               "selfplay_seconds": round(secs, 1)}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


# --- duel -------------------------------------------------------------------------------------

def _share(state: Any, seat: int) -> float:
    """The seat's share of first place in a finished game: 1 / k for a k-way tie for
    it, else 1 or 0. (Not from the totals: a served Generala wins the game at once,
    whatever the totals; the benchmarks counted such games by their totals until
    2026-12-06.)"""
    won = state.winners()
    return 1.0 / len(won) if seat in won else 0.0


def _result(game: list[Any]) -> float:
    """A --games-out game's result: its third item (the share of first place), or for
    a file written before it had one, 1, 1/2 or 0 from the two totals."""
    if len(game) > 2:
        return float(game[2])
    return 1.0 if game[0] > game[1] else 0.5 if game[0] == game[1] else 0.0


def play_duel(variant: str, game: int, seed: int, budget: int, samples: int,
              against: str = "expert") -> tuple[int, int, float]:
    """One game: (champion's total, its opponent's total, the champion's share of first
    place); ``against``: the opponent's level (``champion``: a copy of itself, its own
    strategy object)."""
    from yacht.engine import Player, State
    from yacht.rules import get
    from yacht.strategy.base import play_turn

    rs = get(variant)
    champ_first = game % 2 == 0
    players = [Player("Champion", "computer", "champion"), Player("Other", "computer", against)]
    if not champ_first:
        players.reverse()
    state = State(rs, players, rng=random.Random(seed * 1_000_003 + game))
    strategies = [_player(p.level or "", variant, budget, samples, copy=p.name == "Other")
                  for p in players]
    while not state.is_terminal():
        play_turn(state, strategies[state.current])
    r = state.returns()
    c = 0 if champ_first else 1
    return r[c], r[1 - c], _share(state, c)


_PLAYERS: dict[tuple[str, str, bool], Any] = {}
#: the champion's tilted experts (None: its default, none; see ``--tilts``)
TILTS: tuple[float, ...] | None = None
#: the open boxes from which the champion plans its whole rest of game (``--plan``;
#: None: its default, ``yacht.strategy.champion.PLAN``)
PLAN: int | None = None
#: the weight of the reach table in the champion's worth of its future (``--optimism``;
#: None: its default, ``yacht.strategy.champion.OPTIMISM``)
OPTIMISM: float | None = None


def _plan() -> int:
    """The champion's ``plan`` in this run (``--plan``, else its default)."""
    from yacht.strategy.champion import PLAN as DEFAULT

    return DEFAULT if PLAN is None else PLAN


def _optimism() -> float:
    """The champion's ``optimism`` in this run (``--optimism``, else its default)."""
    from yacht.strategy.champion import OPTIMISM as DEFAULT

    return DEFAULT if OPTIMISM is None else OPTIMISM


def _player(level: str, variant: str, budget: int, samples: int, copy: bool = False) -> Any:
    key = (level, variant, copy)
    hit = _PLAYERS.get(key)
    if hit is None:
        from yacht.rules import get
        from yacht.strategy.base import make_player

        if level == "champion":
            from yacht.strategy.champion import ChampionStrategy

            hit = ChampionStrategy(get(variant), budget=budget, samples=samples, threads=1,
                                   tilts=TILTS, plan=_plan(), optimism=_optimism())
        else:
            hit = make_player(get(variant), level)
        _PLAYERS[key] = hit
    return hit


def _duel_chunk(args: tuple[str, int, int, int, int, int, str]
                ) -> list[tuple[int, int, float]]:
    variant, first, last, seed, budget, samples, against = args
    return [play_duel(variant, g, seed, budget, samples, against) for g in range(first, last)]


def _prepare(variant: str) -> None:
    """The champion's distributions built (or loaded) once, before the workers fork."""
    from yacht.rules import get
    from yacht.strategy.solver import dist, tilted
    from yacht.strategy.solver.tilted import THETAS

    rs = get(variant)
    if dist.supported(rs):
        tilted.family(rs, THETAS if TILTS is None else TILTS)
        if _optimism() > 0:
            from yacht.strategy.solver.target import reach_table

            reach_table(rs)


def duel(variant: str, games: int, seed: int, workers: int, budget: int, samples: int,
         chunk: int = 50, minutes: float | None = None,
         against: str = "expert", games_out: str | None = None,
         resume: str | None = None) -> dict[str, Any]:
    """``games`` games (fewer if ``minutes`` run out: the games played are reported);
    ``games_out``: a file for each game's two totals (JSON; to pair two runs' games);
    ``resume``: such a file of a run of the same settings stopped early (its games are
    the first ones: they are counted, and the run goes on from the next)."""
    _prepare(variant)
    results: list[tuple[int, int, float]] = []
    if resume:
        with open(resume) as f:
            results = [(int(g[0]), int(g[1]), _result(g)) for g in json.load(f)]
    start = len(results)
    jobs = [(variant, a, min(games, a + chunk), seed, budget, samples, against)
            for a in range(start, games, chunk)]
    t0 = time.perf_counter()
    load0 = _load()
    deadline = None if minutes is None else t0 + 60 * minutes
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(max(1, min(2, workers))) as pool:
        for got in pool.imap(_duel_chunk, jobs):
            results.extend(got)
            done = len(results)
            if (done - start) % (chunk * 10) == 0:
                print(f"  {variant}: {done} games, {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)
            if deadline is not None and time.perf_counter() > deadline:
                pool.terminate()
                break
    secs = time.perf_counter() - t0
    if games_out:
        with open(games_out, "w") as f:
            json.dump(results, f)
    n = len(results)
    per = [x for _, _, x in results]
    wins = sum(1 for x in per if x == 1.0)
    ties = sum(1 for x in per if 0.0 < x < 1.0)
    losses = n - wins - ties
    rate = sum(per) / n
    sd = math.sqrt(sum((x - rate) ** 2 for x in per) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    mean_c = sum(g[0] for g in results) / n
    mean_e = sum(g[1] for g in results) / n
    first = [x for g, x in enumerate(per) if g % 2 == 0]
    second = [x for g, x in enumerate(per) if g % 2 == 1]
    row = {"variant": variant, "games": n, "asked": games, "wins": wins, "ties": ties,
           "losses": losses, "win_rate_ties_half": rate, "ci95": [rate - half, rate + half],
           "champion_first_rate": sum(first) / max(1, len(first)),
           "champion_second_rate": sum(second) / max(1, len(second)),
           "champion_mean": mean_c, "expert_mean": mean_e, "seconds": round(secs, 1),
           "workers": workers, "budget": budget, "samples": samples, "seed": seed,
           "against": against, "tilts": TILTS, "plan": _plan(),
           "optimism": _optimism(), "load_before": load0, "load_after": _load(),
           "resumed_from": start}
    print(json.dumps(row), flush=True)
    return row


def play_crowd(variant: str, players: int, game: int, seed: int) -> float:
    """One game of the champion against ``players - 1`` experts, the champion in seat
    ``game % players``: its share of first place (1 / k for a k-way tie, else 1 or 0)."""
    from yacht.engine import Player, State
    from yacht.rules import get
    from yacht.strategy.base import play_turn
    from yacht.strategy.champion import BUDGET, SAMPLES

    rs = get(variant)
    seat = game % players
    seats = [Player(f"Expert {i}", "computer", "expert") for i in range(players)]
    seats[seat] = Player("Champion", "computer", "champion")
    state = State(rs, seats, rng=random.Random(seed * 1_000_003 + game))
    strategies = {p.level: _player(p.level or "", variant, BUDGET, SAMPLES) for p in seats}
    while not state.is_terminal():
        play_turn(state, strategies[state.players[state.current].level or ""])
    return _share(state, seat)


def _crowd_chunk(args: tuple[str, int, int, int, int]) -> list[float]:
    variant, players, first, last, seed = args
    return [play_crowd(variant, players, g, seed) for g in range(first, last)]


def crowd(variant: str, players: int, games: int, seed: int, workers: int,
          minutes: float | None, chunk: int = 50, games_out: str | None = None
          ) -> dict[str, Any]:
    """The champion's share of first places against experts (``games`` games, fewer if
    ``minutes`` run out), with its 95 % interval; 1 / players is an expert's share.
    ``games_out``: a file for each game's share (JSON; to pair two runs' games)."""
    _prepare(variant)
    jobs = [(variant, players, a, min(games, a + chunk), seed) for a in range(0, games, chunk)]
    t0 = time.perf_counter()
    load0 = _load()
    deadline = None if minutes is None else t0 + 60 * minutes
    got: list[float] = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(max(1, min(2, workers))) as pool:
        for part in pool.imap(_crowd_chunk, jobs):
            got.extend(part)
            if deadline is not None and time.perf_counter() > deadline:
                pool.terminate()
                break
    if games_out:
        with open(games_out, "w") as f:
            json.dump(got, f)
    n = len(got)
    rate = sum(got) / n
    sd = math.sqrt(sum((x - rate) ** 2 for x in got) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    row = {"variant": variant, "players": players, "games": n, "share_of_first": rate,
           "ci95": [rate - half, rate + half], "expert_share": 1 / players,
           "seconds": round(time.perf_counter() - t0, 1), "seed": seed, "workers": workers,
           "tilts": TILTS, "plan": _plan(), "load_before": load0, "load_after": _load()}
    print(json.dumps(row), flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("part", choices=["tables", "progress", "solitaire", "duel", "crowd"])
    ap.add_argument("--players", type=int, default=3, help="crowd: players at the table")
    ap.add_argument("variants", nargs="*", type=variant)
    ap.add_argument("--targets", default=",".join(map(str, TARGETS)))
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--expert-games", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget", type=int, default=None,
                    help="the champion's work budget (chances per local table)")
    ap.add_argument("--samples", type=int, default=None,
                    help="games simulated per opponent's card")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop each duel after this many minutes (the games played count)")
    ap.add_argument("--against", default="expert", choices=["expert", "champion"],
                    help="duel: the champion's opponent (champion: a copy of itself)")
    ap.add_argument("--tilts", default=None,
                    help="the champion's tilted experts, e.g. -0.02,0.01 ('family': "
                         "solver.tilted.THETAS; 'none' or by default: the expert's play "
                         "only after its turn, the champion's default)")
    ap.add_argument("--plan", type=int, default=None,
                    help="the champion plans its whole rest of game to win once this many "
                         "boxes or fewer are open (0: never; by default its own, "
                         "yacht.strategy.champion.PLAN)")
    ap.add_argument("--optimism", type=float, default=None,
                    help="the weight (0-1) of the champion's best chance of reaching every "
                         "final total (a reach table) in the worth of its future, against "
                         "the expert's play after its turn (default: the champion's)")
    ap.add_argument("--resume", default=None,
                    help="duel: a --games-out file of the same settings stopped early; its "
                         "games count and the run goes on from the next")
    ap.add_argument("--games-out", default=None,
                    help="each game's result to this JSON file (duel: the two totals; crowd: "
                         "the champion's share of first place), to pair runs")
    ap.add_argument("--json", default=None)
    a = ap.parse_intermixed_args(argv)
    global TILTS, PLAN, OPTIMISM
    PLAN = a.plan
    OPTIMISM = a.optimism
    if a.tilts is not None:
        from yacht.strategy.solver.tilted import THETAS

        TILTS = (() if a.tilts == "none" else THETAS if a.tilts == "family"
                 else tuple(float(x) for x in a.tilts.split(",")))
    targets = [int(x) for x in a.targets.split(",")]
    out: list[Any] = []
    if a.part == "tables":
        for v in a.variants or ["yahtzee"]:
            out += tables(v, targets)
    elif a.part == "progress":
        for v in a.variants or ["yahtzee"]:
            out += progress_runs(v, targets[0], min(a.games, 20))
    elif a.part == "solitaire":
        for v in a.variants or ["yahtzee"]:
            out += solitaire(v, targets, a.expert_games, a.seed)
    elif a.part == "crowd":
        for v in a.variants or ["yahtzee"]:
            out.append(crowd(v, a.players, a.games, a.seed, a.workers, a.minutes,
                             games_out=a.games_out))
    else:
        from yacht.strategy.champion import BUDGET, SAMPLES

        for v in a.variants or ["yahtzee", "yatzy"]:
            out.append(duel(v, a.games, a.seed, a.workers, a.budget or BUDGET,
                            a.samples or SAMPLES, minutes=a.minutes, against=a.against,
                            games_out=a.games_out, resume=a.resume))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
