"""Keys for the boxes of a scorecard, derived from the ruleset (no variant ids).

Each category gets one lower-case letter: the original program's own letter for
the box when it had one (Tommy's T, F, L, Y...) and the game does not use that
letter already, else the first letter of its label that is free, then any other
letter of the label, then the first free letter of the alphabet. Letters the
game uses for commands are never given out.
"""

from __future__ import annotations

from functools import lru_cache

from yacht.rules import Ruleset

__all__ = ["COMMAND_KEYS", "RESERVED", "category_keys", "key_for", "letter_notes",
           "singlets"]

#: letters with a meaning of their own: all, singlets, none, hint, quit, oops, roll, bell,
#: plus c (column), d (done / next player), p (pause)
RESERVED = frozenset("asnhqorbcdp")

#: what the reserved letters do in the terminal game (for the help)
COMMAND_KEYS = {"a": "all dice", "s": "all singlets", "n": "no dice", "h": "hint",
                "q": "quit", "o": "Oops", "r": "roll", "b": "bell",
                "c": "kept free", "d": "kept free", "p": "kept free"}


@lru_cache(maxsize=64)
def _keys(boxes: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    used: set[str] = set(RESERVED)
    out: list[str | None] = [None] * len(boxes)
    for i, (_label, own) in enumerate(boxes):  # the original's letters first
        if own and own not in used:
            used.add(own)
            out[i] = own
    for i, (label, _own) in enumerate(boxes):
        if out[i] is not None:
            continue
        letters = [ch for ch in label.lower() if "a" <= ch <= "z"]
        pick = next((ch for ch in letters if ch not in used), None)
        if pick is None:
            pick = next(ch for ch in "abcdefghijklmnopqrstuvwxyz" if ch not in used)
        used.add(pick)
        out[i] = pick
    return tuple(k for k in out if k is not None)


def category_keys(rs: Ruleset) -> dict[str, str]:
    """Category id -> its key letter, in card order.

    >>> from yacht.rules import get
    >>> category_keys(get("yahtzee"))["three_of_a_kind"]
    'k'
    >>> category_keys(get("tommys-yahtzee"))["three_of_a_kind"]   # Tommy's T
    't'
    """
    boxes = tuple((c.label, c.letter.lower()) for c in rs.categories)
    return dict(zip((c.id for c in rs.categories), _keys(boxes), strict=True))


def key_for(rs: Ruleset, letter: str) -> str | None:
    """The category id whose key is ``letter`` (lower-case), or None."""
    for cid, k in category_keys(rs).items():
        if k == letter:
            return cid
    return None


def letter_notes(rs: Ruleset) -> list[str]:
    """What became of the original program's letters for the boxes: the ones that work
    as they did, and those the game uses for something else (with the key to use).

    >>> from yacht.rules import get
    >>> letter_notes(get("tommys-yacht"))[1]
    'Q (4 of a Kind) is quit here: use k.'
    """
    keys = category_keys(rs)
    same = [c for c in rs.categories if c.letter and keys[c.id] == c.letter.lower()]
    other = [c for c in rs.categories if c.letter and keys[c.id] != c.letter.lower()]
    if not same and not other:
        return []
    out = []
    if same:
        out.append("The original's letters work: " + ", ".join(
            f"{c.letter.upper()} {c.label}" for c in same) + ".")
    for c in other:
        mine = c.letter.lower()
        what = COMMAND_KEYS.get(mine)
        taken = f"is {what} here" if what else "is taken here"
        out.append(f"{c.letter.upper()} ({c.label}) {taken}: use {keys[c.id]}.")
    return out


def singlets(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Positions of the dice whose face shows only once (Tommy's "S")."""
    return tuple(i for i, v in enumerate(dice) if dice.count(v) == 1)
