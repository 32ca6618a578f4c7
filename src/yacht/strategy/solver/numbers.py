"""Whole numbers given to the public API: one check, one line when it is not one.

A count, a target or a die is an ``int`` or an integer type that says it is one
(``operator.index``: numpy's integers). A float (even ``6.0``), a bool, a text or
anything else is refused, never cut down: ``int(150.5)`` would answer for 150 points.

>>> whole(150, "target"), whole(3, "games", lo=1)
(150, 3)
>>> whole(150.5, "target")
Traceback (most recent call last):
...
yacht.rules.errors.InvalidValue: target must be a whole number, not 150.5
>>> whole(0, "games", lo=1)
Traceback (most recent call last):
...
yacht.rules.errors.InvalidValue: games must be at least 1, not 0
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from yacht.rules.errors import InvalidType, InvalidValue

if TYPE_CHECKING:
    from yacht.engine import State
    from yacht.rules import Ruleset

__all__ = ["a_ruleset", "a_state", "variant_name", "whole"]


def whole(value: object, what: str, *, lo: int | None = None, hi: int | None = None,
          error: type[ValueError] = InvalidValue) -> int:
    """``value`` as an ``int``, else ``error`` with one line naming ``what``, the value
    and what is accepted (``lo``-``hi``, each bound optional)."""
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        try:
            n = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if (lo is None or n >= lo) and (hi is None or n <= hi):
                return n
            raise error(f"{what} must be {_range(lo, hi)}, not {n}")
    shown = repr(value)
    if len(shown) > 24 or "\n" in shown:
        shown = type(value).__name__
    accepted = _range(lo, hi)
    more = "" if accepted == "a whole number" else f" ({accepted})"
    raise error(f"{what} must be a whole number{more}, not {shown}")


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"{lo}-{hi}" if lo < hi else f"{lo}"
    if lo is not None:
        return f"at least {lo}"
    if hi is not None:
        return f"at most {hi}"
    return "a whole number"


def _shown(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 24 and "\n" not in shown else type(value).__name__


def a_ruleset(value: object, call: str) -> Ruleset:
    """``value`` if it is a :class:`~yacht.rules.Ruleset`, else :class:`InvalidType` (a
    ``TypeError``) in one line saying that ``call`` takes one and how to get it."""
    from yacht.rules import Ruleset

    if not isinstance(value, Ruleset):
        raise InvalidType(f"{call}: the ruleset is a Ruleset (yacht.rules.get(name); only "
                          f"yacht.solve takes a name), not {_shown(value)}")
    return value


def a_state(value: object, call: str) -> State:
    """``value`` if it is a game of the engine (:class:`~yacht.engine.State`), else
    :class:`InvalidType` in one line naming ``call``."""
    from yacht.engine import State

    if not isinstance(value, State):
        raise InvalidType(f"{call} takes a game of the engine (yacht.engine.State), "
                          f"not {_shown(value)}")
    return value


def variant_name(rs: Ruleset) -> str:
    """The variant and its options as the reprs write them: ``yahtzee joker=free,bonus=on``
    (the id alone for a variant without options)."""
    opts = ",".join(f"{k}={v}" for k, v in rs.option_values.items())
    return f"{rs.id} {opts}" if opts else rs.id
