"""Saved rolls (Maxi Yatzy): a strategy from the exact table of the game without them.

With saved rolls a turn may use the rolls of the player's pool, and what it leaves
goes back to the pool: the pool is part of every state, and an exact table over
2^20 cards x 85 upper totals x the pool does not fit this machine (the table without
the pool alone holds 57.5 million states, 1.7 GB while it is built). The strategy:

* the future after a scoring is the exact value of the game **without** saved rolls
  (``V_off``, built by the kernels), plus :data:`CARRY` points for every roll left to
  the pool (up to :data:`LEVELS` - 3 of them);
* each turn is solved exactly under that future for the rolls it really has (up to
  :data:`LEVELS`): keep values level by level as the kernels do, the stopping value
  of an outcome with ``j`` rolls left being its best placement plus ``CARRY * j``.

Its score is measured by self-play (see ``benchmarks/README.md``); no bound is proven.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .spec import Spec

if TYPE_CHECKING:
    from yacht.rules import Ruleset

    from .build import Solution

__all__ = ["CARRY", "LEVELS", "pool_levels", "ready", "solve_pool"]

F64 = npt.NDArray[np.float64]

#: the points a roll saved for later is worth to the strategy (measured: see the README)
CARRY = 6.0
#: the most rolls a turn is planned for (more in the pool are planned as this many)
LEVELS = 12
#: games the measured score is taken over
EVAL_GAMES = 1000


def pool_levels(spec: Spec, E0: F64, levels: int, carry: float) -> F64:
    """``Ks[j, k]``: the value of keeping ``k`` and rolling the rest with ``j`` rolls
    left after that roll (as the kernels' ``keep_levels``, :func:`.reference.keep_values`),
    where stopping with ``j`` rolls left is worth ``E0 + carry * j``."""
    from .extended import keep_levels

    return keep_levels(spec, E0, levels, lambda level: E0 + carry * level if level else None)


def solve_pool(ruleset: Ruleset, spec: Spec, *, cache: bool = True, progress: Any = False,
               workers: int | None = None, estimate: bool = True) -> Solution:
    """The strategy of ``ruleset`` (saved rolls) on the exact table of the game without
    them; with ``estimate``, its score measured by self-play (cached on disk)."""
    from . import cache as diskcache
    from .build import Solution, solve
    from .selfplay import python_selfplay

    off = solve(_off(ruleset), cache=cache, progress=progress, workers=workers)
    t0 = time.perf_counter()
    sol = Solution(spec, off.V, off.states, off.seconds, off.built, off.peak_memory,
                   exact=False)
    sol.carry, sol.levels = CARRY, LEVELS
    sol.short = ("every turn exact for the rolls it has, the future valued by the exact "
                 f"game without saved rolls + {CARRY:g} points a saved roll")
    note = (f"strategy: turns solved exactly for the rolls they have, the future valued as "
            f"the exact table without saved rolls + {CARRY:g} points a saved roll")
    sol.note = note
    if not estimate:
        return sol
    key = ruleset.key
    fp = _fingerprint(spec)
    path = diskcache.cache_path(key, kind="estimate")
    facts: dict[str, Any] | None = None
    if cache:
        loaded = diskcache.load(path, key, fp)
        if loaded is not None:
            facts = loaded[1]
    if facts is None:
        r = python_selfplay(sol, EVAL_GAMES, seed=20261202)
        se = float(r.totals.std(ddof=1) / np.sqrt(len(r.totals)))
        facts = {"estimate": float(r.totals.mean()), "stderr": se, "games": EVAL_GAMES,
                 "seconds": time.perf_counter() - t0 + off.seconds,
                 "off_score": off.expected_score}
        if cache:
            diskcache.save(path, key, fp, {"dummy": np.zeros(1)}, facts)
        sol.built = True
    sol.estimate = float(facts["estimate"])
    sol.seconds = float(facts["seconds"])
    sol.note = (f"{note}; score measured over {int(facts['games'])} simulated games "
                f"(+/- {1.96 * float(facts['stderr']):.2f} at 95%); no bound proven; "
                f"without saved rolls the exact optimum is {float(facts['off_score']):.4f}")
    return sol


def _off(ruleset: Ruleset) -> Ruleset:
    option = next(getattr(r, "option", "") for r in ruleset.special
                  if getattr(r, "name", "") == "saved_rolls")
    return ruleset.configure({option: "off"})


def _fingerprint(spec: Spec) -> str:
    return spec.fingerprint() + f";carry={CARRY};levels={LEVELS};games={EVAL_GAMES}"


def ready(ruleset: Ruleset, spec: Spec, estimate: bool) -> bool:
    """Whether :func:`solve_pool` answers without building (the table without saved
    rolls cached, and the measured score when ``estimate``)."""
    from . import cache as diskcache
    from .build import is_ready

    if not is_ready(_off(ruleset)):
        return False
    return not estimate or diskcache.probe(diskcache.cache_path(ruleset.key, kind="estimate"),
                                           ruleset.key, _fingerprint(spec))
