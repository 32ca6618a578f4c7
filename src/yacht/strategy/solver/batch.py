"""Option values of many situations at once, in machine code (for analysis and speed).

:func:`option_values` is the numeric core of the advisor without its Python
objects: give it arrays of card states, outcomes and rolls left, get back
the value of every distinct keep and of every box. It solves the turns of
up to 64 situations side by side (``_native_tile.h``), so a batch costs a few
microseconds per situation.

>>> import numpy as np
>>> from yacht.rules import get
>>> from yacht.strategy.solver import solve
>>> sol = solve(get("tommys-crag"))
>>> t = sol.spec.dice
>>> ov = option_values(sol, [0], [0], [t.index_of((3, 3, 3)) - t.full_start], [1])
>>> best_box = int(np.nanargmax(ov.box_value[0]))
>>> sol.ruleset.categories[best_box].id
'three_of_a_kind'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules.errors import InvalidValue

from .backend import current as backend
from .build import Solution
from .dice import proper_subsets
from .tables import wide_ok

__all__ = ["OptionValues", "option_values", "situation_values", "supported"]


@dataclass(frozen=True)
class OptionValues:
    """Row ``i`` is situation ``i``.

    ``keep_index[i, j]`` is a kept multiset (an index into the dice tables, -1
    past the end, and everywhere when no roll is left) and ``keep_value[i, j]``
    its value; ``box_value[i, b]`` is the value of scoring in box ``b`` (NaN
    when the rules do not allow it).
    Values are the expected final totals for the card totals given (with
    none given: the expected points from the start of the turn on, as
    ``Solution.future``).
    """

    keep_index: npt.NDArray[np.int64]
    keep_value: npt.NDArray[np.float64]
    box_value: npt.NDArray[np.float64]


def supported(solution: Solution) -> bool:
    """Whether the batch kernel covers the ruleset (no repeat box, no negative scores, no
    rules only the Python ranking knows)."""
    return wide_ok(solution.spec) and solution.spec.machine_play


def option_values(solution: Solution, masks: Sequence[int] | npt.NDArray[Any],
                  auxs: Sequence[int] | npt.NDArray[Any],
                  outcomes: Sequence[int] | npt.NDArray[Any],
                  rolls_left: Sequence[int] | npt.NDArray[Any],
                  workers: int = 1,
                  card_totals: Sequence[float] | npt.NDArray[Any] | None = None
                  ) -> OptionValues:
    """Values of every option of each situation (normal turns only: not the forced
    first turn of a ruleset that has one).

    ``outcomes`` are indices among the n-dice outcomes (``index - full_start``).
    ``card_totals``: the points already on each card (added to every value, so
    that values are expected final totals). Raises ``ValueError`` for a ruleset
    with a repeat box or for bad input.
    """
    spec = solution.spec
    if not supported(solution):
        raise InvalidValue(f"{spec.ruleset.id}: batch option values do not cover a repeat box")
    t = spec.dice
    sm = np.ascontiguousarray(masks, dtype=np.int64)
    sa = np.ascontiguousarray(auxs, dtype=np.int64)
    sd = np.ascontiguousarray(outcomes, dtype=np.int64)
    sr = np.ascontiguousarray(rolls_left, dtype=np.int64)
    n = len(sm)
    if not len(sa) == len(sd) == len(sr) == n:
        raise InvalidValue("masks, auxs, outcomes and rolls_left must have the same length")
    if card_totals is not None and len(card_totals) != n:
        raise InvalidValue("card_totals must have one entry per situation")
    full = (1 << spec.nbox) - 1
    if n and ((sm < 0).any() or (sm >= full).any() or (sa < 0).any() or (sa >= spec.A).any()
              or (sd < 0).any() or (sd >= t.nfull).any() or (sr < 0).any()
              or (sr >= spec.rolls).any()):
        raise InvalidValue("a situation is out of range (mask of an unfinished card, aux < "
                           f"{spec.A}, outcome < {t.nfull}, rolls left 0-{spec.rolls - 1})")
    subs, nsubs = proper_subsets(t.n, t.faces)
    listed = (np.arange(subs.shape[1]) < nsubs[sd][:, None]) & (sr[:, None] > 0)
    keep_index = np.where(listed, subs[sd], -1).astype(np.int64)
    keep_value = np.empty((n, subs.shape[1]))
    box_value = np.empty((n, spec.nbox))
    if n:
        backend().option_values(spec, solution.V, sm, sa, sd, sr, keep_value, box_value,
                                max(1, int(workers)))
    if card_totals is not None:
        base = np.asarray(card_totals, dtype=np.float64)[:, None]
        keep_value += base
        box_value += base
    return OptionValues(keep_index, keep_value, box_value)


def situation_values(solution: Solution, mask: int, aux: int, outcome: int,
                     rolls_left: int) -> OptionValues:
    """:func:`option_values` of one situation, with the least Python in the way.

    >>> from yacht.rules import get
    >>> from yacht.strategy.solver import solve
    >>> sol = solve(get("tommys-crag"))
    >>> ov = situation_values(sol, 0, 0, 0, 0)
    >>> ov.box_value.shape, bool(ov.keep_index[0, 0] == -1)
    ((1, 13), True)
    """
    keep_value, box_value = _one(solution, mask, aux, outcome, rolls_left)
    subs, nsubs = proper_subsets(solution.spec.dice.n, solution.spec.dice.faces)
    k = int(nsubs[outcome]) if rolls_left > 0 else 0
    keep_index = np.full((1, subs.shape[1]), -1, dtype=np.int64)
    keep_index[0, :k] = subs[outcome, :k]
    return OptionValues(keep_index, keep_value[None, :], box_value[None, :])


def _one(solution: Solution, mask: int, aux: int, outcome: int, rolls_left: int
         ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(keep values, box values) of one situation, as :func:`option_values` gives them."""
    spec = solution.spec
    t = spec.dice
    if not wide_ok(spec):
        raise InvalidValue(f"{spec.ruleset.id}: batch option values do not cover a repeat box")
    if not (0 <= mask < (1 << spec.nbox) - 1 and 0 <= aux < spec.A
            and 0 <= outcome < t.nfull and 0 <= rolls_left < spec.rolls):
        raise InvalidValue("the situation is out of range (mask of an unfinished card, aux < "
                           f"{spec.A}, outcome < {t.nfull}, rolls left 0-{spec.rolls - 1})")
    keep_value = np.empty(_subs_width(t.n, t.faces))
    box_value = np.empty(spec.nbox)
    backend().situation(spec, solution.V, mask, aux, outcome, rolls_left, keep_value,
                        box_value)
    return keep_value, box_value


@lru_cache(maxsize=16)
def _subs_width(n: int, faces: int) -> int:
    return int(proper_subsets(n, faces)[0].shape[1])
