"""The one base of every exception yacht raises of its own.

Each of the package's exception classes derives from :class:`YachtError` *and* keeps
the built-in base it had (``ValueError``, ``LookupError``, ``KeyError``,
``IndexError``, ``ImportError``...), so both ``except yacht.YachtError`` (everything
the package refuses) and the old ``except ValueError`` work:

>>> import yacht
>>> from yacht.rules import get
>>> try:
...     get("no-such-game")
... except yacht.YachtError as e:
...     print(type(e).__name__, isinstance(e, LookupError))
UnknownVariant True

A value refused where no class of its own fits is an :class:`InvalidValue` (a
``ValueError``), something of the wrong type an :class:`InvalidType` (a ``TypeError``):
``State(rs, [])``, ``Player("Ann", "robot")``, ``Choose((0.5,))`` raise them.

It lives in :mod:`yacht.rules` because the rules are the bottom layer every other
part may import; ``yacht.YachtError`` is the same class.
"""

from __future__ import annotations

__all__ = ["InvalidType", "InvalidValue", "YachtError"]


class YachtError(Exception):
    """Base of every error the yacht package raises of its own (bad input, unknown
    names, unsupported rulesets, a stopped simulation...). Catch it to catch them all;
    each subclass is also the built-in exception its case calls for (most are
    ``ValueError``)."""


class InvalidValue(YachtError, ValueError):
    """A value yacht refuses that has no exception class of its own (a die that is no
    face, a player count the variant does not take, a seed of the wrong length...)."""


class InvalidType(YachtError, TypeError):
    """Something of the wrong type where yacht wants a number, a text, a ruleset... (a
    float for a die, a list for a player's name)."""
