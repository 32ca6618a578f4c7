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

Its score is measured by self-play (see ``benchmarks/README.md``).

**A proven upper bound** (:func:`pool_bound`). A game of ``T`` turns, each adding ``r``
rolls to the pool, uses at most ``r * T`` rolls whatever the player does (pathwise), at
least one a turn; so turn ``k`` (``k`` boxes filled) has at most ``r + (r - 1) * k``
rolls. More: the pool is never negative, so if ``R_i`` is the number of rolls turn ``i``
uses, ``C_k = R_0 + ... + R_k <= r * (k + 1)`` for every ``k`` (pathwise, the last ``k``
giving the ``r * T``). For multipliers ``mu_k >= 0``,
``total <= total + sum_k mu_k * (r * (k + 1) - C_k)`` on every path; writing
``lam_i = mu_i + ... + mu_(T-1)`` (a price a turn, never rising from a turn to the next,
and any such prices come from multipliers ``mu_k = lam_k - lam_(k+1) >= 0``) the right
side is ``total - sum_i lam_i * R_i + r * sum_i lam_i`` (Abel's summation:
``sum_k (k + 1) * (lam_k - lam_(k+1)) = sum_k lam_k``). So for any policy,
``E[total] <= E[total - sum_i lam_i * R_i] + r * sum_i lam_i``, and the expectation is
at most the optimum of the *relaxed* game where turn ``k`` may roll up to
``r + (r - 1) * k`` times whatever the earlier turns used, every roll of turn ``k``
costing ``lam_k`` points: every policy of the real game is one of the relaxed game's
(the pool is a function of the history, which a policy of the relaxed game may read
too, and none beats the relaxed game's optimum by doing so: its state is the card).
The relaxed game has no pool in its state: the kernels solve it as the game without
saved rolls with a number of rolls and a cost a roll per layer
(:func:`.tables.relaxed_tables`). One price for every turn (only the last constraint
priced) is the special case ``lam_i = lam``. Every such schedule gives a valid bound
(:func:`schedule` refuses the others); the bound is convex in the prices (the maximum
of functions linear in them). :data:`BOUND_PRICE` is the best price found
(``benchmarks/README.md``: the prices built and their bounds).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yacht.rules.errors import InvalidValue

from .spec import Spec

if TYPE_CHECKING:
    from yacht.rules import Ruleset

    from .build import Solution

__all__ = ["BOUND_PRICE", "CARRY", "LEVELS", "pool_bound", "pool_levels", "ready",
           "relaxed_bound", "relaxed_table", "schedule", "solve_pool"]

F64 = npt.NDArray[np.float64]

#: the points a roll saved for later is worth to the strategy (measured: see the README)
CARRY = 6.0
#: the most rolls a turn is planned for (more in the pool are planned as this many)
LEVELS = 12
#: games the measured score is taken over
EVAL_GAMES = 1000
#: the price a roll of the Lagrangian bound (any price >= 0 gives a valid bound, and any
#: schedule a turn never rising); the best of the prices built on the full game (3, 5, 6
#: and 7: benchmarks/README.md)
BOUND_PRICE = 5.0


def relaxed_bound(ruleset: Ruleset, price: float | Sequence[float], *,
                  workers: int | None = None, progress: Any = None) -> float:
    """The upper bound of :func:`pool_bound` for the prices ``price`` a roll: one number
    (every turn's) or one per turn (turn ``k`` having ``k`` boxes filled), never rising
    from a turn to the next. The bound is ``r`` times the sum of the turns' prices plus
    the optimal value of the relaxed game (turn ``k`` rolling up to ``r + (r - 1) * k``
    times, each roll costing turn ``k``'s price), solved by the kernels' build."""
    from .spec import UnsupportedRuleset, compile_ruleset

    spec = compile_ruleset(ruleset)
    if not spec.pool:
        raise UnsupportedRuleset(f"{ruleset.id}: no saved rolls, nothing to bound")
    off = compile_ruleset(_off(ruleset))
    r, nbox = spec.pool, off.nbox
    prices = schedule(price, nbox)
    caps = np.array([r + (r - 1) * k for k in range(nbox)], dtype=np.int64)
    V = relaxed_table(off, caps, prices, workers=workers, progress=progress)
    return float(V[0, 0]) + r * float(prices.sum())


def schedule(price: float | Sequence[float], turns: int) -> F64:
    """The price of a roll in each of ``turns`` turns: ``price`` for every turn, or one
    number a turn; ValueError unless every price is 0 or more and none is above the one
    of the turn before (the prices that make a valid bound, see the module)."""
    prices = np.asarray(price, dtype=np.float64)
    if prices.ndim == 0:
        prices = np.full(turns, float(prices))
    if prices.shape != (turns,):
        raise InvalidValue(f"the price of a roll: one number or one a turn ({turns}), "
                           f"not {prices.shape[0] if prices.ndim == 1 else prices.shape}")
    if not (np.all(prices >= 0.0) and np.all(np.isfinite(prices))):
        raise InvalidValue(f"the price of a roll must be 0 or more, not {price!r}")
    if np.any(np.diff(prices) > 0.0):
        raise InvalidValue("the prices of a roll must not rise from a turn to the next, "
                           f"not {prices.tolist()!r}")
    return prices


def relaxed_table(spec: Spec, layer_rolls: npt.NDArray[np.int64], price: float | F64, *,
                  workers: int | None = None, progress: Any = None) -> F64:
    """``V[mask, aux]`` of the relaxed game of ``spec`` (a game without saved rolls):
    a turn after ``k`` boxes are filled rolls up to ``layer_rolls[k]`` times, every roll
    (the first too) costing ``price`` points (or ``price[k]``); built by the kernels as
    the table is."""
    from .backend import current as backend
    from .build import _layers, _threads, _wide_runner, build_plan
    from .spec import UnsupportedRuleset
    from .tables import wide_ok

    if spec.extended or not wide_ok(spec) or spec.forced is not None or spec.pool:
        raise UnsupportedRuleset(f"{spec.ruleset.id}: the relaxed game needs plain boxes")
    tables = backend().relaxed(spec, layer_rolls, price)
    plan = build_plan(spec)
    final, run, _ = _wide_runner(spec, plan, tables)
    order, bounds = _layers(spec.nbox)
    threads = _threads(workers)
    for k in range(spec.nbox - 1, -1, -1):
        run(order[bounds[k]:bounds[k + 1]], threads)
        if progress is not None:
            progress(spec.nbox - k, spec.nbox)
    return final()


Price = float | tuple[float, ...]


def pool_bound(ruleset: Ruleset, prices: tuple[Price, ...] = (BOUND_PRICE,), *,
               workers: int | None = None) -> tuple[float, Price]:
    """A proven upper bound on the optimal expected score of ``ruleset`` (saved rolls):
    the lowest :func:`relaxed_bound` over ``prices`` (each one number or one a turn),
    with its price."""
    return min(((relaxed_bound(ruleset, p, workers=workers), p) for p in prices),
               key=lambda bp: bp[0])


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
        t1 = time.perf_counter()
        bound, price = pool_bound(ruleset, workers=workers)
        facts = {"estimate": float(r.totals.mean()), "stderr": se, "games": EVAL_GAMES,
                 "seconds": time.perf_counter() - t0 + off.seconds,
                 "off_score": off.expected_score, "upper_bound": bound,
                 "bound_price": price, "bound_seconds": time.perf_counter() - t1}
        if cache:
            diskcache.save(path, key, fp, {"dummy": np.zeros(1)}, facts)
        sol.built = True
    sol.estimate = float(facts["estimate"])
    sol.seconds = float(facts["seconds"])
    sol.upper_bound = float(facts["upper_bound"])
    per = spec.pool
    sol.note = (f"{note}; score measured over {int(facts['games'])} simulated games "
                f"(+/- {1.96 * float(facts['stderr']):.2f} at 95%); upper bound proven by a "
                f"Lagrangian relaxation of the pool (a price of {float(facts['bound_price']):g}"
                f" points a roll, at most {per} rolls a turn on average, turn k rolling up to "
                f"{per} + {per - 1}k times); without saved rolls the exact optimum is "
                f"{float(facts['off_score']):.4f}")
    return sol


def _off(ruleset: Ruleset) -> Ruleset:
    option = next(getattr(r, "option", "") for r in ruleset.special
                  if getattr(r, "name", "") == "saved_rolls")
    return ruleset.configure({option: "off"})


def _fingerprint(spec: Spec) -> str:
    return spec.fingerprint() + (f";carry={CARRY};levels={LEVELS};games={EVAL_GAMES}"
                                 f";bound={BOUND_PRICE};last=0")


def ready(ruleset: Ruleset, spec: Spec, estimate: bool) -> bool:
    """Whether :func:`solve_pool` answers without building (the table without saved
    rolls cached, and the measured score when ``estimate``)."""
    from . import cache as diskcache
    from .build import is_ready

    if not is_ready(_off(ruleset)):
        return False
    return not estimate or diskcache.probe(diskcache.cache_path(ruleset.key, kind="estimate"),
                                           ruleset.key, _fingerprint(spec))
