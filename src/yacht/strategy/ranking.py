"""What a ranking of a turn's choices is made of: :class:`Ranked` (a legal action of a
game, as the advisor and the computer players see it) and :class:`Option` (a choice
of :func:`yacht.solve`'s plain-data answers). Below the solver, which builds both
directly in its C extension, and below the advisor and the API, which hand them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from yacht.engine import Action, Choose, IllegalAction, Roll, Score, State
from yacht.render import dice_text
from yacht.rules import Ruleset
from yacht.rules.errors import InvalidType

from .base import Decision

__all__ = ["Option", "Ranked"]


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten")


def keep_words(kept: str, rolled: int) -> str:
    """A keep as the analysis says it: the dice kept (as shown) and how many are rolled,
    in words ("keep 6 6, roll 3" read as "roll the 3" where a die showed 3).

    >>> keep_words("6 6", 3), keep_words("", 5), keep_words("2 3 4 5 6", 0)
    ('keep 6 6, roll the other three', 'keep nothing, roll all five', 'keep 2 3 4 5 6')
    """
    many = _NUMBERS[rolled] if rolled < len(_NUMBERS) else str(rolled)
    if not kept:
        return f"keep nothing, roll all {many}"
    return f"keep {kept}, roll the other {many}" if rolled else f"keep {kept}"


@dataclass(frozen=True, slots=True)
class Ranked:
    """One legal action with its expected final total and its loss against the best.

    (Slots: the C extension builds these directly, see ``solver/single.py``.)
    """

    kind: Literal["keep", "score"]
    expected: float
    loss: float
    keep: tuple[int, ...] = ()
    reroll: tuple[int, ...] = ()
    category: str | None = None
    column: int = 0
    points: int = 0

    @property
    def value(self) -> float:
        """The expected final total (``expected``; the name :class:`Option` uses)."""
        return self.expected

    def decision(self) -> Decision:
        if self.kind == "score":
            assert self.category is not None
            return Decision(score=Score(self.category, self.column))
        return Decision(reroll=self.reroll)

    def describe(self, rs: Ruleset) -> str:
        if self.kind == "keep":
            kept = dice_text(self.keep, rs)  # coloured dice with their marks
            return keep_words(kept, len(self.reroll))
        assert self.category is not None
        label = rs.category(self.category).label
        col = f" (column {self.column + 1})" if len(rs.columns) > 1 else ""
        return f"score {label}{col} for {self.points}"

    def brief(self) -> str:
        """The action in a few words without the ruleset (box ids, plain dice): for
        one-line reprs.

        >>> Ranked("keep", 140.0, 0.0, keep=(5, 5), reroll=(2,)).brief()
        'keep 5 5, roll the other one'
        """
        if self.kind == "keep":
            return keep_words(" ".join(map(str, self.keep)), len(self.reroll))
        col = f" (column {self.column + 1})" if self.column else ""
        return f"score {self.category}{col} for {self.points}"

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind, "expected": round(self.expected, 6),
                                "loss": round(self.loss, 6)}
        if self.kind == "keep":
            d["keep"] = list(self.keep)
            d["reroll"] = list(self.reroll)
        else:
            d.update(category=self.category, column=self.column, points=self.points)
        return d


class Option(NamedTuple):
    """One choice: keep some dice and roll the rest, or score a box; with its expected
    final total and its loss against the best choice.

    :meth:`actions` gives the engine's actions that play it in a game (a
    :class:`~yacht.engine.State`)::

        >>> import random, yacht
        >>> from yacht.engine import Player, Roll, State
        >>> y = yacht.solve("tommys-crag")
        >>> game = State(y.ruleset, [Player("Ann")], rng=random.Random(1))
        >>> game.apply(Roll((3, 1, 3)))
        >>> best = y.best(game)            # the player on turn's situation
        >>> str(best), best.actions(game)  # keep 1 and a 3: roll the die at position 2
        ('keep 1 3', [Choose(dice=(2,)), Roll(result=None)])
        >>> for action in best.actions(game):
        ...     game.apply(action)
        >>> game.dice[:2], game.rolls_left
        ((3, 1), 0)
    """

    kind: Literal["keep", "score"]
    keep: tuple[int, ...]     # kind == "keep": the dice values kept (sorted)
    box: str | None           # kind == "score": the box (category id)
    column: int               # kind == "score": its column (0-based)
    value: float              # expected final total
    loss: float               # best value - value (0 for the best)

    @property
    def category(self) -> str | None:
        """The box (``box``; the name the engine's ``Score`` and :class:`Ranked` use)."""
        return self.box

    def __str__(self) -> str:
        if self.kind == "keep":
            return "keep " + (" ".join(map(str, self.keep)) or "nothing")
        col = f"@{self.column + 1}" if self.column else ""
        return f"score {self.box}{col}"

    def actions(self, state: State) -> list[Action]:
        """The engine's actions that play this option in ``state`` (the position it was
        worked out for): ``[Score(box, column)]``, or ``[Choose(positions), Roll()]``
        rolling again every die not kept (of equal dice, the lowest positions stay).
        Raises :class:`~yacht.engine.IllegalAction` (one line) when the kept dice are not
        showing; ``state.apply`` judges the rest, as for any action."""
        if not isinstance(state, State):
            raise InvalidType(f"Option.actions(state) takes a game of the engine "
                              f"(yacht.engine.State), not {type(state).__name__}")
        if self.kind == "score":
            if self.box is None:
                raise IllegalAction("a score option names no box")
            return [Score(self.box, self.column)]
        dice = state.dice
        if not dice:
            raise IllegalAction(f"{self} needs dice showing: roll first")
        left = list(self.keep)
        reroll = []
        for pos, v in enumerate(dice):
            if v in left:
                left.remove(v)
            else:
                reroll.append(pos)
        if left:
            raise IllegalAction(f"{self} does not fit the dice showing "
                                f"({' '.join(map(str, dice))})")
        return [Choose(tuple(reroll)), Roll()]
