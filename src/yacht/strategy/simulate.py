"""Simulation: many solitaire games by one computer player, and their statistics.

Games are played in chunks of :data:`CHUNK` games. Chunk ``i`` draws its dice
from a generator seeded by ``(seed, i)`` only, so the scores depend on the
seed and the number of games, never on how many worker processes played them.
The ``expert`` level uses the solver's machine-code self-play when it is
available (deterministic for a seed in the same way: game ``g`` has its own
random stream, whatever the batches it is played in), else the engine.

A simulation stops at its next step when its ``stop`` event is set (between
chunks or batches of a fraction of a second; worker processes are killed) and
raises :class:`SimulationStopped`; Ctrl-C in the thread that runs it does the
same with KeyboardInterrupt. No worker outlives it.

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
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, YachtError, all_same, counts_of
from yacht.rules.errors import InvalidType

from .base import LEVELS, UnknownLevel
from .solver.numbers import variant_name, whole

__all__ = [
    "CHUNK",
    "PERCENTILES",
    "SimulationResult",
    "SimulationStopped",
    "play_games",
    "simulate",
]

CHUNK = 25
PERCENTILES = (5, 25, 50, 75, 95)

Progress = Callable[[int, int], None]

#: the solver's self-play seeds game ``g`` with ``seed * _STREAM + g`` (mod 2**64): a batch
#: starting at game ``first`` gets the seed that gives its games the same streams
_STREAM = 0xD1B54A32D192ED03
_STREAM_INV = pow(_STREAM, -1, 2**64)
#: seconds a batch of self-play games should take (a stop waits at most about this long)
BATCH_SECONDS = 0.1


class SimulationStopped(YachtError):
    """The simulation was stopped (its ``stop`` event was set) before it ended."""


def _level(level: str) -> str:
    if not isinstance(level, str):
        raise InvalidType(f"a level is one of {', '.join(LEVELS)}, not {level!r} "
                          f"(simulate(ruleset, level, games, seed))")
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
    target: int | None = None  # the champion's target (its games), or a score to count

    def __repr__(self) -> str:
        # (the dataclass's repr wrote out the Ruleset and every game's arrays)
        return (f"<SimulationResult {variant_name(self.ruleset)}, {self.level}: "
                f"{self.games} games, mean {self.mean:.2f}, std {self.std:.2f}>")

    @property
    def totals(self) -> npt.NDArray[np.int64]:
        """The final totals (``scores``; the name ``yacht.solve``'s ``Distribution`` and
        the self-play's result use)."""
        return self.scores

    @property
    def reached(self) -> float | None:
        """Share of games that finished with at least ``target`` points (None: no target)."""
        if self.target is None:
            return None
        return float(np.count_nonzero(self.scores >= self.target) / self.games)

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
            "target": self.target,
            "reached": self.reached,
        }

    def text(self, width: int = 40) -> str:
        """A report for people: the numbers and a histogram."""
        from yacht.render import key_title

        rs = self.ruleset
        # (the kind of game in words: the options that differ from the variant's defaults)
        lines = [f"{key_title(rs.key)}: {self.level}, {self.games} games, seed {self.seed}"]
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
        if self.target is not None and self.reached == 0:
            lines.append(f"  target       {self.target}: no game reached it (the best "
                         f"scored {self.max})")
        elif self.target is not None and self.reached is not None:
            half = 1.96 * math.sqrt(max(self.reached * (1 - self.reached), 0.0) / self.games)
            lines.append(f"  target       {self.target}: reached in {100 * self.reached:.2f}% "
                         f"of games (95% interval +-{100 * half:.2f})")
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


def play_games(ruleset: Ruleset, level: str, seed: int, chunk: int, games: int,
               target: int | None = None) -> tuple[list[int], list[list[bool]], list[int]]:
    """Play chunk ``chunk``: ``games`` solitaire games through the engine (``target``: the
    champion's, see :func:`~yacht.strategy.base.make_player`).

    Returns each game's total, bonus per column and number of yachts.
    """
    from yacht.engine import Player, Roll, State

    from .base import RandomStrategy, make_player

    rng = _chunk_rng(seed, chunk)
    if level == "random":
        player: Any = RandomStrategy(ruleset, seed=rng.getrandbits(64))
    else:
        player = make_player(ruleset, level, target=target)
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


def _run_chunk(args: tuple[Ruleset, str, int, int, int, int | None]) -> tuple[
        int, list[int], list[list[bool]], list[int]]:
    ruleset, level, seed, chunk, games, target = args
    return (chunk, *play_games(ruleset, level, seed, chunk, games, target))


# a worker process's game: set once
_WORK: tuple[Ruleset, str, int, int | None] | None = None


def _start_worker(ruleset: Ruleset, level: str, seed: int, target: int | None = None) -> None:
    """A worker process: Ctrl-C is for the process that started it (which ends it); the
    variant, level and seed come once, then only chunk numbers."""
    global _WORK
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _WORK = (ruleset, level, seed, target)


def _worker_chunk(job: tuple[int, int]) -> tuple[int, list[int], list[list[bool]], list[int]]:
    assert _WORK is not None
    ruleset, level, seed, target = _WORK
    chunk, games = job
    return (chunk, *play_games(ruleset, level, seed, chunk, games, target))


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


def batch_seed(seed: int, first: int) -> int:
    """The self-play seed that gives the games of a batch starting at game ``first`` the
    random streams they have in one call for all games with ``seed``."""
    return (seed + first * _STREAM_INV) % 2**64


def _check(stop: threading.Event | None) -> None:
    if stop is not None and stop.is_set():
        raise SimulationStopped("the simulation was stopped")


def _kernel_games(ruleset: Ruleset, level: str, games: int, seed: int, workers: int,
                  progress: Progress | None, stop: threading.Event | None,
                  kernel: Any) -> SimulationResult:
    """The games by the solver's self-play, in batches of about :data:`BATCH_SECONDS`."""
    fast_selfplay, sol = kernel
    totals = np.empty(games, dtype=np.int64)
    bonus = np.empty(games, dtype=np.bool_)
    yachts = np.empty(games, dtype=np.int64)
    if progress is not None:
        progress(0, games)
    start = time.perf_counter()
    done = 0
    size = 256 * workers
    while done < games:
        _check(stop)
        n = min(size, games - done)
        t0 = time.perf_counter()
        res = fast_selfplay(sol, games=n, seed=batch_seed(seed, done), workers=workers)
        spent = time.perf_counter() - t0
        totals[done:done + n] = res.totals
        bonus[done:done + n] = res.upper_bonus
        yachts[done:done + n] = res.yachts
        done += n
        if progress is not None:
            progress(done, games)
        # the next batch's size only changes how often a stop is noticed, never the games
        per_game = spent / n if spent > 0 else 1e-6
        size = max(64, min(1_000_000, int(BATCH_SECONDS / per_game)))
    return SimulationResult(
        ruleset, level, seed, workers, totals,
        bonus.reshape(games, 1) if ruleset.upper_bonus is not None else None,
        yachts, time.perf_counter() - start, source="kernel")


def _ignore_interrupt() -> None:
    """Worker processes leave Ctrl-C to the process that started them (which ends them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def simulate(ruleset: Ruleset, level: str, games: int, seed: int, workers: int = 2,
             progress: Progress | None = None, use_kernel: bool = True,
             solve_progress: bool = False,
             stop: threading.Event | None = None,
             target: int | None = None) -> SimulationResult:
    """Play ``games`` solitaire games of ``ruleset`` by the computer player ``level``.

    ``workers`` processes share the games (1: all in this process); the
    result depends only on ``(ruleset, level, games, seed)``. ``progress`` is
    called with ``(games done, games)`` as chunks finish. For ``expert`` the
    solver's self-play kernel is used when it exists (``use_kernel``); a table
    that must be built first shows the solver's own bar if ``solve_progress``.
    Setting ``stop`` ends the simulation at its next step with
    :class:`SimulationStopped`. ``target``: the score the ``champion`` plays to reach
    (None: its default); for any level the result counts the games that reached it.

    Raises ``ValueError`` (one line) for ``games`` or ``workers`` that is not a whole
    number of at least 1, a seed or a target that is not a whole number, and
    :class:`~yacht.strategy.base.UnknownLevel` for an unknown level.
    """
    level = _level(level)
    games = whole(games, "games", lo=1)
    seed = whole(seed, "seed")
    workers = whole(workers, "workers", lo=1)
    if target is not None:
        target = whole(target, "target")
    start = time.perf_counter()
    if level == "expert" and use_kernel:
        kernel = _kernel(ruleset, workers, solve_progress)
        if kernel is not None:
            out = _kernel_games(ruleset, level, games, seed, workers, progress, stop, kernel)
            out.target = target
            return out
    if level == "champion" and target is None:
        from .champion import default_target

        target = default_target(ruleset)
    nchunks = -(-games // CHUNK)
    sizes = ((i, min(CHUNK, games - i * CHUNK)) for i in range(nchunks))
    results: dict[int, tuple[list[int], list[list[bool]], list[int]]] = {}
    done = 0
    if progress is not None:
        progress(0, games)
    if workers == 1 or nchunks == 1:
        for i, n in sizes:
            _check(stop)
            c, t, b, y = _run_chunk((ruleset, level, seed, i, n, target))
            results[c] = (t, b, y)
            done += len(t)
            if progress is not None:
                progress(done, games)
    else:
        _play_in_processes(ruleset, level, seed, min(workers, nchunks), sizes, nchunks,
                           results, stop, progress, games, target)
    totals = [x for c in range(nchunks) for x in results[c][0]]
    bonuses = [x for c in range(nchunks) for x in results[c][1]]
    yachts = [x for c in range(nchunks) for x in results[c][2]]
    return SimulationResult(
        ruleset, level, seed, workers,
        np.array(totals, dtype=np.int64),
        np.array(bonuses, dtype=np.bool_) if ruleset.upper_bonus is not None else None,
        np.array(yachts, dtype=np.int64), time.perf_counter() - start, target=target)


def _play_in_processes(ruleset: Ruleset, level: str, seed: int, workers: int,
                       jobs: Iterator[tuple[int, int]], njobs: int,
                       results: dict[int, tuple[list[int], list[list[bool]], list[int]]],
                       stop: threading.Event | None, progress: Progress | None,
                       games: int, target: int | None = None) -> None:
    """The chunks on ``workers`` processes; they are killed at once when the games end,
    ``stop`` is set or anything (Ctrl-C) interrupts."""
    ctx = multiprocessing.get_context("spawn")
    # Ctrl-C at a terminal reaches every process of the group: the workers ignore it from
    # their first instruction on (blocked while they start, ignored once they run)
    masked = hasattr(signal, "pthread_sigmask")
    if masked:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = ctx.Pool(workers, initializer=_start_worker,
                        initargs=(ruleset, level, seed, target))
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    done = 0
    try:
        chunks = pool.imap_unordered(_worker_chunk, jobs)
        while len(results) < njobs:
            _check(stop)
            try:
                c, t, b, y = chunks.next(timeout=0.1)
            except multiprocessing.TimeoutError:
                continue
            results[c] = (t, b, y)
            done += len(t)
            if progress is not None:
                progress(done, games)
    finally:
        pool.terminate()  # at once, whether the games ended or were stopped
        pool.join()
