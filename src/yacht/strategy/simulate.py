"""Simulation: many solitaire games by one computer player, and their statistics.

Games are played in chunks of :data:`CHUNK` games. Chunk ``i`` draws its dice
from a generator seeded by ``(seed, i)`` only, so the scores depend on the
seed and the number of games, never on how many worker processes played them.
The ``expert`` level uses the solver's machine-code self-play when it is
available (deterministic for a seed in the same way), else the engine.

>>> from yacht.rules import get
>>> r = simulate(get("tommys-crag"), "beginner", games=20, seed=1, workers=1)
>>> r.games, len(r.scores), r.min >= 0
(20, 20, True)
>>> r == simulate(get("tommys-crag"), "beginner", games=20, seed=1, workers=1)
True
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, all_same, counts_of

from .base import LEVELS, UnknownLevel

__all__ = [
    "CHUNK",
    "PERCENTILES",
    "SimulationResult",
    "play_games",
    "simulate",
]

CHUNK = 25
PERCENTILES = (5, 25, 50, 75, 95)

Progress = Callable[[int, int], None]


def _level(level: str) -> str:
    name = level.strip().lower()
    if name not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r} (accepted: {', '.join(LEVELS)})")
    return name


@dataclass(eq=False)
class SimulationResult:
    """The games of one simulation and what they add up to.

    ``scores[g]`` is game ``g``'s final total; ``bonus[g, c]`` whether column ``c``
    earned the upper bonus (``None`` for a variant without one); ``yachts[g]``
    how many turns of game ``g`` ended with all dice showing the same face.
    """

    ruleset: Ruleset
    level: str
    seed: int
    workers: int
    scores: npt.NDArray[np.int64]
    bonus: npt.NDArray[np.bool_] | None
    yachts: npt.NDArray[np.int64]
    seconds: float
    source: str = "engine"  # or "kernel" (the solver's self-play)

    def __eq__(self, other: object) -> bool:
        """Same games (the timing and the worker count do not matter)."""
        if not isinstance(other, SimulationResult):
            return NotImplemented
        same_bonus = (self.bonus is None and other.bonus is None) or (
            self.bonus is not None and other.bonus is not None
            and np.array_equal(self.bonus, other.bonus))
        return (self.ruleset.key == other.ruleset.key and self.level == other.level
                and self.seed == other.seed and np.array_equal(self.scores, other.scores)
                and same_bonus and np.array_equal(self.yachts, other.yachts))

    __hash__ = None  # type: ignore[assignment]

    # --- statistics ------------------------------------------------------------
    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def std(self) -> float:
        """Sample standard deviation (0 for a single game)."""
        return float(self.scores.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def se(self) -> float:
        """Standard error of the mean."""
        return self.std / math.sqrt(self.games)

    @property
    def min(self) -> int:
        return int(self.scores.min())

    @property
    def max(self) -> int:
        return int(self.scores.max())

    def percentiles(self) -> dict[int, float]:
        """The 5th, 25th, 50th, 75th and 95th percentiles of the scores."""
        values = np.percentile(self.scores, PERCENTILES)
        return {p: float(v) for p, v in zip(PERCENTILES, values, strict=True)}

    def histogram(self, bins: int = 20) -> list[tuple[int, int, int]]:
        """``(low, high, games)`` for bins of equal integer width covering min..max.

        >>> from yacht.rules import get
        >>> r = SimulationResult(get("yatzy"), "random", 0, 1, np.array([1, 2, 2, 9]),
        ...                      None, np.zeros(4, dtype=np.int64), 1.0)
        >>> r.histogram(bins=4)
        [(1, 3, 3), (4, 6, 0), (7, 9, 1)]
        """
        lo, hi = self.min, self.max
        width = max(1, math.ceil((hi - lo + 1) / bins))
        edges = list(range(lo, hi + 1, width))
        out = []
        for start in edges:
            end = start + width - 1
            n = int(np.count_nonzero((self.scores >= start) & (self.scores <= end)))
            out.append((start, end, n))
        return out

    @property
    def bonus_rate(self) -> list[float] | None:
        """Share of games that earned the upper bonus, per column (None: no bonus)."""
        if self.bonus is None:
            return None
        return [float(x) for x in self.bonus.mean(axis=0)]

    @property
    def yacht_rate(self) -> float:
        """Share of games with at least one turn ending with all dice the same."""
        return float(np.count_nonzero(self.yachts) / self.games)

    @property
    def yachts_per_game(self) -> float:
        return float(self.yachts.mean())

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    # --- output --------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON-ready data (the scores themselves are not included)."""
        gps = self.games_per_second
        return {
            "variant": self.ruleset.id,
            "options": dict(self.ruleset.option_values),
            "player": self.level,
            "games": self.games,
            "seed": self.seed,
            "workers": self.workers,
            "mean": self.mean,
            "std": self.std,
            "se": self.se,
            "min": self.min,
            "max": self.max,
            "percentiles": {str(p): v for p, v in self.percentiles().items()},
            "histogram": [{"low": a, "high": b, "games": n} for a, b, n in self.histogram()],
            "bonus_rate": self.bonus_rate,
            "yacht_rate": self.yacht_rate,
            "yachts_per_game": self.yachts_per_game,
            "seconds": self.seconds,
            "games_per_second": gps if math.isfinite(gps) else None,
            "source": self.source,
        }

    def text(self, width: int = 40) -> str:
        """A report for people: the numbers and a histogram."""
        rs = self.ruleset
        lines = [f"{rs.name} ({rs.key}): {self.level}, {self.games} games, seed {self.seed}"]
        lines.append(f"  mean         {self.mean:.2f} (standard error {self.se:.2f})")
        lines.append(f"  std dev      {self.std:.2f}")
        lines.append(f"  min / max    {self.min} / {self.max}")
        pct = "  ".join(f"{p}%: {v:g}" for p, v in self.percentiles().items())
        lines.append(f"  percentiles  {pct}")
        rates = self.bonus_rate
        if rates is not None:
            if len(rates) == 1:
                lines.append(f"  upper bonus  {100 * rates[0]:.1f}% of games")
            else:
                per = ", ".join(f"column {i + 1} {100 * r:.1f}%" for i, r in enumerate(rates))
                lines.append(f"  upper bonus  {per}")
        lines.append(f"  yachts       {100 * self.yacht_rate:.1f}% of games had one "
                     f"({self.yachts_per_game:.2f} per game)")
        gps = self.games_per_second
        speed = f"{gps:.1f} games/s" if math.isfinite(gps) else "instant"
        lines.append(f"  speed        {speed} ({self.seconds:.1f} s, {self.workers} "
                     f"worker{'s' if self.workers != 1 else ''}, {self.source})")
        lines.append("")
        hist = self.histogram()
        top = max(n for _, _, n in hist)
        label = max(len(f"{a}-{b}") for a, b, _ in hist)
        for a, b, n in hist:
            bar = "#" * (round(width * n / top) if top else 0)
            lines.append(f"  {f'{a}-{b}':>{label}} |{bar:<{width}} {n}")
        return "\n".join(lines)


# --- playing ---------------------------------------------------------------------------

def _chunk_rng(seed: int, chunk: int) -> random.Random:
    return random.Random(f"yacht-simulate:{seed}:{chunk}")


def play_games(ruleset: Ruleset, level: str, seed: int, chunk: int, games: int
               ) -> tuple[list[int], list[list[bool]], list[int]]:
    """Play chunk ``chunk``: ``games`` solitaire games through the engine.

    Returns each game's total, bonus per column and number of yachts.
    """
    from yacht.engine import Player, Roll, State

    from .base import RandomStrategy, make_player

    rng = _chunk_rng(seed, chunk)
    if level == "random":
        player: Any = RandomStrategy(ruleset, seed=rng.getrandbits(64))
    else:
        player = make_player(level, ruleset)
    faces = ruleset.faces
    totals, bonuses, yachts = [], [], []
    for _ in range(games):
        state = State(ruleset, [Player("Computer", "computer", level)], rng=rng)
        n_yachts = 0
        while not state.is_terminal():
            if not state.dice:
                state.apply(Roll())
                continue
            decision = player.decide(state)
            if decision.score is not None and all_same(counts_of(state.dice, faces)):
                n_yachts += 1
            for action in decision.actions():
                state.apply(action)
        t = state.totals(0)
        totals.append(t.grand)
        bonuses.append([c.bonus > 0 for c in t.columns])
        yachts.append(n_yachts)
    return totals, bonuses, yachts


def _run_chunk(args: tuple[Ruleset, str, int, int, int]) -> tuple[
        int, list[int], list[list[bool]], list[int]]:
    ruleset, level, seed, chunk, games = args
    return (chunk, *play_games(ruleset, level, seed, chunk, games))


def _kernel(ruleset: Ruleset, workers: int, show: bool) -> Any:
    """The solver's fast self-play and the solution it needs, or None."""
    try:
        from .solver import fast_selfplay, solve  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return None
    try:
        sol = solve(ruleset, progress=show, workers=workers, estimate=False)
    except (ValueError, ImportError):  # unsupported here: play it through the engine
        return None
    return fast_selfplay, sol


def simulate(ruleset: Ruleset, level: str, games: int, seed: int, workers: int = 2,
             progress: Progress | None = None, use_kernel: bool = True,
             solve_progress: bool = False) -> SimulationResult:
    """Play ``games`` solitaire games of ``ruleset`` by the computer player ``level``.

    ``workers`` processes share the games (1: all in this process); the
    result depends only on ``(ruleset, level, games, seed)``. ``progress`` is
    called with ``(games done, games)`` as chunks finish. For ``expert`` the
    solver's self-play kernel is used when it exists (``use_kernel``); a table
    that must be built first shows the solver's own bar if ``solve_progress``.

    Raises ``ValueError`` for ``games < 1`` or ``workers < 1`` and
    :class:`~yacht.strategy.base.UnknownLevel` for an unknown level.
    """
    level = _level(level)
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    start = time.perf_counter()
    if level == "expert" and use_kernel:
        kernel = _kernel(ruleset, workers, solve_progress)
        if kernel is not None:
            fast_selfplay, sol = kernel
            if progress is not None:
                progress(0, games)
            start = time.perf_counter()
            res = fast_selfplay(sol, games=games, seed=seed, workers=workers)
            if progress is not None:
                progress(games, games)
            bonus = None
            if ruleset.upper_bonus is not None:
                bonus = np.asarray(res.upper_bonus, dtype=np.bool_).reshape(games, 1)
            return SimulationResult(
                ruleset, level, seed, workers,
                np.asarray(res.totals, dtype=np.int64), bonus,
                np.asarray(res.yachts, dtype=np.int64), time.perf_counter() - start,
                source="kernel")
    sizes = [min(CHUNK, games - i) for i in range(0, games, CHUNK)]
    jobs = [(ruleset, level, seed, i, n) for i, n in enumerate(sizes)]
    results: dict[int, tuple[list[int], list[list[bool]], list[int]]] = {}
    done = 0
    if progress is not None:
        progress(0, games)
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            c, t, b, y = _run_chunk(job)
            results[c] = (t, b, y)
            done += len(t)
            if progress is not None:
                progress(done, games)
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=ctx) as pool:
            pending: set[Future[Any]] = {pool.submit(_run_chunk, job) for job in jobs}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    c, t, b, y = fut.result()
                    results[c] = (t, b, y)
                    done += len(t)
                    if progress is not None:
                        progress(done, games)
    totals = [x for c in range(len(jobs)) for x in results[c][0]]
    bonuses = [x for c in range(len(jobs)) for x in results[c][1]]
    yachts = [x for c in range(len(jobs)) for x in results[c][2]]
    return SimulationResult(
        ruleset, level, seed, workers,
        np.array(totals, dtype=np.int64),
        np.array(bonuses, dtype=np.bool_) if ruleset.upper_bonus is not None else None,
        np.array(yachts, dtype=np.int64), time.perf_counter() - start)
