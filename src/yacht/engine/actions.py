"""The typed actions a game is made of, and their JSON form for records.

An action's numbers are plain ``int`` from the moment it is made: any integer type
(a numpy integer) becomes one (``operator.index``); anything else (``1.5``, ``"3"``,
``True``) is refused with a TypeError naming it, before any state sees the action.

>>> Choose((0.5,))
Traceback (most recent call last):
...
yacht.rules.errors.InvalidType: a die's position must be a whole number (int), not 0.5
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from yacht.rules import YachtError
from yacht.rules.errors import InvalidType, InvalidValue

__all__ = [
    "Action",
    "Choose",
    "GiveBack",
    "IllegalAction",
    "PLAYED_BY",
    "PlayedBy",
    "Roll",
    "Score",
    "TakeBack",
    "action_from_json",
    "action_to_json",
]


class IllegalAction(YachtError, ValueError):
    """An action that the rules do not allow now. The state is left unchanged."""


def _whole(value: object, what: str) -> int:
    """``value`` as a plain int (an integer type's value); TypeError for anything else,
    bools included (``True`` is no die)."""
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidType(f"{what} must be a whole number (int), not {value!r}")


def _wholes(values: Iterable[int], what: str) -> tuple[int, ...]:
    """A tuple of plain ints (the same tuple when it is one already)."""
    if type(values) is tuple and all(type(v) is int for v in values):
        return values
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise InvalidType(f"{what}s must be a sequence of whole numbers, not {values!r}")
    return tuple(_whole(v, what) for v in values)


@dataclass(frozen=True, repr=False)
class Roll:
    """Roll the chosen dice (all of them at the start of a turn).

    ``result`` is what the rolled dice show, in the order of their positions;
    ``None`` draws them from the game's dice (its seed, or its generator). The
    log always holds the result, so a record replays without any randomness.
    ``entered``: a person rolled real dice and typed what they show (a table
    for real dice marks such rolls; the game is then marked "dice entered").
    """

    result: tuple[int, ...] | None = None
    entered: bool = False

    def __post_init__(self) -> None:
        if self.result is not None:
            object.__setattr__(self, "result", _wholes(self.result, "a roll's value"))
        if type(self.entered) is not bool:
            raise InvalidType(f"a roll's 'entered' must be True or False, not {self.entered!r}")

    def __repr__(self) -> str:
        return f"Roll(result={self.result!r}" + (", entered=True)" if self.entered else ")")


@dataclass(frozen=True)
class Choose:
    """Choose which dice (0-based positions) to roll again; replaces the choice."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _wholes(self.dice, "a die's position"))


#: who played a person's turn for them: their turn clock ran out (``"clock"``), or the
#: computer stood in for a player who was away (``"stand_in"``)
PlayedBy = Literal["clock", "stand_in"]
PLAYED_BY: tuple[str, ...] = ("clock", "stand_in")


@dataclass(frozen=True, repr=False)
class Score:
    """Score the dice in a box; ``column`` counts from 0. ``by``: the turn was played for
    the person by the computer (their clock ran out, or it stood in while they were
    away); a marking of the record, not part of the move (equal moves compare equal)."""

    category: str
    column: int = 0
    by: PlayedBy | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.category, str):
            raise InvalidType(f"a score's category must be a box's id (text), not "
                              f"{self.category!r}")
        if type(self.column) is not int:
            object.__setattr__(self, "column", _whole(self.column, "a score's column"))
        if self.by is not None and self.by not in PLAYED_BY:
            raise InvalidValue(f"a score's 'by' is {' or '.join(PLAYED_BY)} or None, "
                               f"not {self.by!r}")

    def __repr__(self) -> str:
        by = f", by={self.by!r}" if self.by is not None else ""
        return f"Score(category={self.category!r}, column={self.column!r}{by})"


@dataclass(frozen=True)
class GiveBack:
    """Oops 1: give back the dice chosen for the next roll."""


@dataclass(frozen=True)
class TakeBack:
    """Oops 2: take back the last scoring, until the next player rolls."""


Action = Roll | Choose | Score | GiveBack | TakeBack


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object for an action (as stored in records); :func:`action_from_json`
    gives the action back. A roll to be drawn (``Roll()``) has no ``result`` (a record's
    rolls always have theirs).

    >>> action_to_json(Score("chance"))
    {'type': 'score', 'category': 'chance', 'column': 0}
    >>> action_to_json(Roll()), action_from_json(action_to_json(Roll()))
    ({'type': 'roll'}, Roll(result=None))
    """
    if isinstance(action, Roll):
        out: dict[str, Any] = {"type": "roll"}
        if action.result is not None:
            out["result"] = list(action.result)
        if action.entered:
            out["entered"] = True
        return out
    if isinstance(action, Choose):
        return {"type": "choose", "dice": list(action.dice)}
    if isinstance(action, Score):
        out = {"type": "score", "category": action.category, "column": action.column}
        if action.by is not None:
            out["by"] = action.by
        return out
    if isinstance(action, GiveBack):
        return {"type": "give_back"}
    return {"type": "take_back"}


def _ints(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise InvalidValue(f"{what} must be a list of whole numbers")
    return tuple(value)


def action_from_json(obj: Any) -> Action:
    """Parse an action object; raises ValueError naming what is wrong. A roll without
    a ``result`` (or with ``null``) is ``Roll()``: its dice are still to be drawn."""
    if not isinstance(obj, dict) or "type" not in obj:
        raise InvalidValue("an action must be an object with a 'type'")
    kind = obj["type"]
    if kind == "roll":
        entered = obj.get("entered", False)
        if not isinstance(entered, bool):
            raise InvalidValue("a roll's 'entered' must be true or false")
        result = obj.get("result")
        return Roll(None if result is None else _ints(result, "a roll's result"), entered)
    if kind == "choose":
        return Choose(_ints(obj.get("dice"), "a choice's dice"))
    if kind == "score":
        cat, col = obj.get("category"), obj.get("column", 0)
        if not isinstance(cat, str) or not isinstance(col, int) or isinstance(col, bool):
            raise InvalidValue("a score needs a 'category' name and a whole-number 'column'")
        by = obj.get("by")
        if by is not None and by not in PLAYED_BY:
            raise InvalidValue(f"a score's 'by' is {' or '.join(PLAYED_BY)}, not {by!r}")
        return Score(cat, col, by)
    if kind == "give_back":
        return GiveBack()
    if kind == "take_back":
        return TakeBack()
    raise InvalidValue(
        f"unknown action type {kind!r} (accepted: roll, choose, score, give_back, take_back)")
