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

It lives in :mod:`yacht.rules` because the rules are the bottom layer every other
part may import; ``yacht.YachtError`` is the same class.
"""

from __future__ import annotations

__all__ = ["YachtError"]


class YachtError(Exception):
    """Base of every error the yacht package raises of its own (bad input, unknown
    names, unsupported rulesets, a stopped simulation...). Catch it to catch them all;
    each subclass is also the built-in exception its case calls for (most are
    ``ValueError``)."""
