"""The expert computer player: the exact optimum of the solver's table.

>>> import random
>>> from yacht.engine import Player, State, Roll
>>> from yacht.rules import get
>>> rs = get("tommys-crag")
>>> s = State(rs, [Player("Cpu", "computer", "expert")], rng=random.Random(3))
>>> s.apply(Roll((6, 6, 1)))
>>> ExpertStrategy(rs).decide(s).score
Score(category='crag', column=0)
"""

from __future__ import annotations

from yacht.engine import State
from yacht.rules import Ruleset
from yacht.rules.errors import InvalidValue

from .advisor import advise
from .base import Decision

__all__ = ["ExpertStrategy"]


class ExpertStrategy:
    """Optimal solitaire play: the best action of the advisor.

    The table is solved (or loaded from the disk cache) on construction and
    kept per process, so every decision after that is a table look-up plus
    one turn's computation.
    """

    level = "expert"

    def __init__(self, ruleset: Ruleset):
        from .solver import solve

        self.ruleset = ruleset
        # a game too big for an exact table needs its strategy only, not the
        # simulated score and the bound of `yacht solve`
        self.solution = solve(ruleset, progress=False, estimate=False)

    def decide(self, state: State) -> Decision:
        if state.ruleset.key != self.ruleset.key:
            raise InvalidValue(f"this player plays {self.ruleset.key}, not {state.ruleset.key}")
        return advise(state, self.solution)[0].decision()
