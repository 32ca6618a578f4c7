"""Keys for the boxes of a scorecard, derived from the ruleset (no variant ids).

Each category gets one lower-case letter: the first letter of its label that
is free, then any other letter of the label, then the first free letter of
the alphabet. Letters the game uses for commands are never given out.
"""

from __future__ import annotations

from functools import lru_cache

from yacht.rules import Ruleset

__all__ = ["RESERVED", "category_keys", "key_for", "singlets"]

#: letters with a meaning of their own: all, singlets, none, hint, quit, oops, roll, bell,
#: plus c (column), d (done / next player), p (pause)
RESERVED = frozenset("asnhqorbcdp")


@lru_cache(maxsize=64)
def _keys(names: tuple[str, ...]) -> tuple[str, ...]:
    used: set[str] = set(RESERVED)
    out: list[str] = []
    for label in names:
        letters = [ch for ch in label.lower() if "a" <= ch <= "z"]
        pick = next((ch for ch in letters if ch not in used), None)
        if pick is None:
            pick = next(ch for ch in "abcdefghijklmnopqrstuvwxyz" if ch not in used)
        used.add(pick)
        out.append(pick)
    return tuple(out)


def category_keys(rs: Ruleset) -> dict[str, str]:
    """Category id -> its key letter, in card order.

    >>> from yacht.rules import get
    >>> category_keys(get("tommys-crag"))["thirteen"]
    'w'
    """
    labels = tuple(c.label for c in rs.categories)
    return dict(zip((c.id for c in rs.categories), _keys(labels), strict=True))


def key_for(rs: Ruleset, letter: str) -> str | None:
    """The category id whose key is ``letter`` (lower-case), or None."""
    for cid, k in category_keys(rs).items():
        if k == letter:
            return cid
    return None


def singlets(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Positions of the dice whose face shows only once (Tommy's "S")."""
    return tuple(i for i, v in enumerate(dice) if dice.count(v) == 1)
