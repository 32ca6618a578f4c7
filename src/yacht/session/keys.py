"""Keys for the boxes of a scorecard: one letter per box, the same in every variant.

A box keeps its letter from variant to variant (:data:`LETTERS`, by box id; the boxes
that are one box under other names share it: Yacht, Yahtzee and Yatzy are all ``y``).
The original program's own letter for a box (Tommy's T, F, L, Y...) comes first where
the game does not use that letter for a command; a box whose usual letter the original
gave another box then takes a free letter of its label, else the first free letter of
the alphabet, and :func:`letter_notes` says so for the help. A box the table does not
know (a ruleset made in code) is given a letter the same way. Letters the game uses
for commands are never given out.
"""

from __future__ import annotations

from functools import lru_cache

from yacht.rules import Ruleset

__all__ = ["COMMAND_KEYS", "LETTERS", "RESERVED", "category_keys", "key_for", "letter_notes",
           "singlets"]

#: letters with a meaning of their own: all, singlets, none, hint, quit, oops, roll, bell,
#: plus c (column), d (done / next player), p (pause)
RESERVED = frozenset("asnhqorbcdp")

#: what the reserved letters do in the terminal game (for the help)
COMMAND_KEYS = {"a": "all dice", "s": "the unmatched dice", "n": "no dice", "h": "hint",
                "q": "quit", "o": "Oops", "r": "roll", "b": "bell",
                "c": "kept free", "d": "kept free", "p": "kept free"}

#: every box's letter, by box id, whatever the variant (the 15 letters that are not
#: commands; no two boxes of one variant share one: tests/session/test_config_keys.py)
LETTERS = {
    "ones": "e", "twos": "t", "threes": "f", "fours": "u", "fives": "i", "sixes": "x",
    "three_of_a_kind": "k",
    "four_of_a_kind": "g", "eight_of_a_kind": "g",
    "full_house": "l", "double_full_house": "l",
    "small_straight": "m", "short_straight": "m", "little_straight": "m",
    "low_straight": "m", "double_small_straight": "m",
    "large_straight": "j", "long_straight": "j", "big_straight": "j",
    "high_straight": "j", "double_large_straight": "j",
    "chance": "v", "choice": "v", "thirteen": "v",
    "yacht": "y", "yahtzee": "y", "yatzy": "y", "yatsee": "y", "yatcy": "y",
    "double_yacht": "y",
    "two_pairs": "w", "one_pair": "z",
    "crag": "g", "odd_straight": "z", "even_straight": "w",
    "straight": "j", "escalera": "j", "full": "l", "poker": "g", "generala": "y",
    "kismet": "y", "maxi_yatzy": "y", "yarborough": "v", "two_pair_same_colour": "w",
    "flush": "m", "full_house_same_colour": "z", "doble_generala": "k",
    # Maxi Yatzy's 20 boxes are more than the 15 free letters: capitals for five of them
    "three_pairs": "T", "five_of_a_kind": "O", "full_straight": "F", "villa": "V",
    "tower": "W",
}

_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


@lru_cache(maxsize=64)
def _keys(boxes: tuple[tuple[str, str, str], ...]) -> tuple[str, ...]:
    """(box id, label, the original's letter) of each box -> its key, in card order."""
    used: set[str] = set(RESERVED)
    out: list[str | None] = [None] * len(boxes)
    for i, (_id, _label, own) in enumerate(boxes):  # the original's letters first
        if own and own not in used:
            used.add(own)
            out[i] = own
    for i, (cid, _label, _own) in enumerate(boxes):  # then each box's own letter
        usual = LETTERS.get(cid)
        if usual is not None and usual.isupper() and len(boxes) <= 26 - len(RESERVED):
            usual = usual.lower()  # (a capital only where the small letters run out)
        if out[i] is None and usual is not None and usual not in used:
            used.add(usual)
            out[i] = usual
    for i, (_id, label, _own) in enumerate(boxes):  # the rest: a free letter
        if out[i] is not None:
            continue
        letters = [ch for ch in label.lower() if "a" <= ch <= "z"]
        pick = next((ch for ch in letters if ch not in used), None)
        if pick is None:
            pick = next((ch for ch in _ALPHABET if ch not in used), None)
        if pick is None:  # more boxes than free letters (Maxi Yatzy's 20): capitals
            pick = next((ch for ch in label.upper() + _ALPHABET.upper()
                         if "A" <= ch <= "Z" and ch not in used), None)
        if pick is None:
            continue
        used.add(pick)
        out[i] = pick
    return tuple(k or "" for k in out)


def category_keys(rs: Ruleset) -> dict[str, str]:
    """Category id -> its key letter, in card order.

    >>> from yacht.rules import get
    >>> category_keys(get("yahtzee"))["three_of_a_kind"]
    'k'
    >>> category_keys(get("tommys-yahtzee"))["three_of_a_kind"]   # Tommy's T
    't'
    >>> category_keys(get("yatzy"))["yatzy"], category_keys(get("ancient-yacht"))["yacht"]
    ('y', 'y')
    """
    boxes = tuple((c.id, c.label, c.letter.lower()) for c in rs.categories)
    return dict(zip((c.id for c in rs.categories), _keys(boxes), strict=True))


def key_for(rs: Ruleset, letter: str) -> str | None:
    """The category id whose key is ``letter`` (a capital only for a box past z), or
    None."""
    for cid, k in category_keys(rs).items():
        if k == letter:
            return cid
    return None


def letter_notes(rs: Ruleset) -> list[str]:
    """What became of the original program's letters for the boxes: the ones that work
    as they did, those the game uses for something else (with the key to use), and the
    boxes whose usual letter one of them took.

    >>> from yacht.rules import get
    >>> letter_notes(get("tommys-yacht"))[1]
    'Q (Four of a Kind) is quit here: use g.'
    >>> letter_notes(get("tommys-yacht"))[2]
    'Threes is k here (f is Full House, as in the original).'
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
    owner = {keys[c.id]: c for c in same}
    for c in rs.categories:
        usual = LETTERS.get(c.id)
        if c not in same and usual is not None and keys[c.id] != usual and usual in owner:
            out.append(f"{c.label} is {keys[c.id]} here ({usual} is {owner[usual].label}, "
                       "as in the original).")
    return out


def singlets(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Positions of the dice whose face shows only once (Tommy's "S")."""
    return tuple(i for i, v in enumerate(dice) if dice.count(v) == 1)
