"""The best strategy we compute for games too big to solve exactly (10 dice, two columns).

The exact table of a two-column 10-dice game would have 2^24 card states, each
needing a 10-dice turn (8,008 keeps, 5 rolls): far beyond a few minutes. The
strategy used instead is exact within each turn, with the future valued by a
decomposition: the sum over columns of the column's multiplier times the
exact one-column value of its open boxes (the one-column game of the same
dice, rolls and categories, solved exactly). Its expected score is measured
by simulating games with that policy; a proven upper bound comes from
:func:`skip_upper_bound` (see there).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from yacht.rules import Ruleset

from . import cache as diskcache
from .spec import Spec, compile_ruleset

if TYPE_CHECKING:
    from .build import Solution

__all__ = ["EVAL_GAMES", "skip_upper_bound", "solve_approx"]

EVAL_GAMES = 10_000


def skip_upper_bound(ruleset: Ruleset, workers: int | None = None) -> float:
    """A proven upper bound on optimal play of a many-column game without bonus rules.

    The boxes of column ``c`` are filled in some of the game's ``T`` turns, so
    their expected score under any policy is at most ``S``, the best expected
    score of one column's boxes in ``T`` turns when any turn may be skipped
    (the player may give up turns and leave boxes empty: a relaxation). Hence
    ``E[total] = sum_c mult_c E[column c] <= S * sum_c mult_c``. ``S`` is
    solved exactly over (open boxes, turns left).

    >>> from yacht.rules import get
    >>> ub = skip_upper_bound(get("ancient-yacht-double"))
    >>> ub > 3 * 176.1
    True
    """
    from .backend import current as backend
    from .build import _layers

    spec = compile_ruleset(one_column(ruleset))
    if spec.U > 1 or spec.ybox >= 0 or spec.forced is not None or spec.rep_pts.any():
        from .spec import UnsupportedRuleset

        raise UnsupportedRuleset(f"{ruleset.id}: the skip bound handles plain columns only")
    if (spec.score < 0).any():
        from .spec import UnsupportedRuleset

        raise UnsupportedRuleset(f"{ruleset.id}: the skip bound needs scores >= 0")
    T = len(ruleset.categories) * len(ruleset.columns)
    V = np.zeros((1 << spec.nbox, T + 1))
    order, bounds = _layers(spec.nbox)
    be = backend()
    threads = max(1, workers or 2)
    for k in range(spec.nbox - 1, -1, -1):
        be.skip_layer(spec, order[bounds[k]:bounds[k + 1]], V, threads)
    return float(V[0, T]) * float(sum(ruleset.columns))


def one_column(rs: Ruleset) -> Ruleset:
    """The same game with a single column of multiplier 1 (a distinct cache key)."""
    return replace(rs, id=f"{rs.id}~one-column", columns=(1,))


def _fingerprint(spec: Spec, single: Spec) -> str:
    return hashlib.sha256((spec.fingerprint() + single.fingerprint()).encode()).hexdigest()


def estimate_ready(ruleset: Ruleset, spec: Spec) -> bool:
    """Whether the simulated score and the bound are in the disk cache."""
    key = ruleset.key
    single = compile_ruleset(one_column(ruleset))
    return diskcache.probe(diskcache.cache_path(key, kind="estimate"), key,
                           _fingerprint(spec, single))


def solve_approx(ruleset: Ruleset, *, cache: bool = True, progress: Any = False,
                 workers: int | None = None, estimate: bool = True) -> Solution:
    """The decomposition strategy; with ``estimate``, also its simulated score and
    the proven bound (cached on disk), which a computer player does not need."""
    from .build import Solution, solve
    from .selfplay import fast_selfplay

    spec = compile_ruleset(ruleset)
    if spec.U > 1 or spec.ybox >= 0 or spec.forced is not None or spec.rep_pts.any():
        from .spec import UnsupportedRuleset

        raise UnsupportedRuleset(f"{ruleset.id}: too big to solve exactly, and the "
                                 "decomposition handles plain columns only")
    t0 = time.perf_counter()
    single = solve(one_column(ruleset), cache=cache, progress=progress, workers=workers)
    V1 = np.asarray(single.V[:, 0], dtype=np.float64)
    ncat = spec.ncat
    low = (1 << ncat) - 1
    masks = np.arange(1 << spec.nbox, dtype=np.int64)
    V = np.zeros(1 << spec.nbox, dtype=np.float64)
    for col, mult in enumerate(ruleset.columns):
        V += mult * V1[(masks >> (col * ncat)) & low]
    del masks
    sol = Solution(spec, V.reshape(-1, 1), 1 << spec.nbox, time.perf_counter() - t0, single.built,
                   0, exact=False)
    del V
    sol.note = ("strategy: exact turns, future = column 1 + 2 x column 2 one-column optimal "
                "values")
    if not estimate:
        return sol
    key = ruleset.key
    fp = _fingerprint(spec, single.spec)
    path = diskcache.cache_path(key, kind="estimate")
    facts: dict[str, Any] | None = None
    if cache:
        loaded = diskcache.load(path, key, fp)
        if loaded is not None:
            facts = loaded[1]
    if facts is None:
        r = fast_selfplay(sol, EVAL_GAMES, seed=20240601, workers=workers or 2)
        se = float(r.totals.std(ddof=1) / np.sqrt(len(r.totals)))
        t1 = time.perf_counter()
        bound = skip_upper_bound(ruleset, workers)
        facts = {"estimate": r.mean, "stderr": se, "games": EVAL_GAMES,
                 "upper_bound": bound, "bound_seconds": time.perf_counter() - t1,
                 "seconds": time.perf_counter() - t0}
        if cache:
            diskcache.save(path, key, fp, {"dummy": np.zeros(1)}, facts)
        sol.built = True
    else:
        sol.built = False
    sol.estimate = float(facts["estimate"])
    sol.upper_bound = float(facts["upper_bound"])
    sol.seconds = float(facts.get("seconds", time.perf_counter() - t0))
    sol.note = (f"strategy: exact turns, future = column 1 + 2 x column 2 one-column optimal "
                f"values; score measured over {int(facts['games'])} simulated games "
                f"(+/- {1.96 * float(facts['stderr']):.2f} at 95%)")
    return sol
