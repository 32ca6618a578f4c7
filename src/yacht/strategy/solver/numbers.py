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

from yacht.rules.errors import InvalidValue

__all__ = ["whole"]


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
