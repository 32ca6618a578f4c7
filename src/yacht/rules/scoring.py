"""Scorer kinds: how a category turns a roll into points.

Every category of every variant names one scorer *kind* and its parameters.
A scorer looks only at the dice as a multiset, given as ``counts`` where
``counts[f - 1]`` is how many dice show face ``f``.

>>> score("of_a_kind", counts_of((6, 6, 6, 6, 2)), {"n": 4, "points": "all"})
26
>>> score("pattern", counts_of((2, 2, 2, 5, 5)), {"counts": (3, 2), "points": 25})
25
>>> score("straight", counts_of((1, 2, 3, 4, 6)), {"runs": ((1, 2, 3, 4),), "points": 30})
30
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import combinations_with_replacement
from typing import Any

from .errors import YachtError

Counts = tuple[int, ...]
Params = Mapping[str, Any]

__all__ = [
    "Counts",
    "SCORERS",
    "ScorerError",
    "counts_of",
    "dice_of",
    "describe",
    "score",
]


class ScorerError(YachtError, ValueError):
    """A category names an unknown scorer kind or bad parameters."""


def counts_of(dice: Iterable[int], faces: int = 6) -> Counts:
    """Turn dice values into counts per face.

    >>> counts_of([2, 4, 4, 2, 2])
    (0, 3, 0, 2, 0, 0)
    """
    counts = [0] * faces
    for d in dice:
        counts[d - 1] += 1
    return tuple(counts)


def dice_of(counts: Counts) -> tuple[int, ...]:
    """The sorted dice values of ``counts``.

    >>> dice_of((0, 3, 0, 2, 0, 0))
    (2, 2, 2, 4, 4)
    """
    return tuple(f + 1 for f, c in enumerate(counts) for _ in range(c))


def _total(counts: Counts) -> int:
    return sum((f + 1) * c for f, c in enumerate(counts))


def _points(points: Any, counts: Counts, matched: int, plus: Any = 0) -> int:
    """Resolve a ``points`` parameter: "all" dice, the "matched" dice, or a fixed number;
    ``plus``: a fixed number added (Kismet's 15 + the dice)."""
    if points == "all":
        return _total(counts) + int(plus)
    if points == "matched":
        return matched + int(plus)
    return int(points) + int(plus)


def _colour_groups(p: Params) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(f) for f in g) for g in p["colours"])


def _face(counts: Counts, p: Params) -> int:
    face = int(p["face"])
    return face * counts[face - 1]


def _sum(counts: Counts, p: Params) -> int:
    return _total(counts)


def _of_a_kind(counts: Counts, p: Params) -> int:
    n = int(p["n"])
    best = 0
    found = False
    for f, c in enumerate(counts):
        if c >= n:
            found = True
            best = max(best, n * (f + 1))
    return _points(p["points"], counts, best, p.get("plus", 0)) if found else 0


def _pattern(counts: Counts, p: Params) -> int:
    want = tuple(sorted((int(x) for x in p["counts"]), reverse=True))
    have = tuple(sorted((c for c in counts if c), reverse=True))
    all_same = len(have) == 1
    if p.get("yacht", False) and all_same:
        return _points(p["points"], counts, 0, p.get("plus", 0))
    if have != want:
        return 0
    if "colours" in p:  # the faces shown must all have one colour
        shown = {f + 1 for f, c in enumerate(counts) if c}
        if not any(shown <= set(g) for g in _colour_groups(p)):
            return 0
    return _points(p["points"], counts, 0, p.get("plus", 0))


def _colour_pairs(counts: Counts, p: Params) -> int:
    """``pairs`` pairs whose dice have one colour (two pairs of one face count)."""
    k = int(p.get("pairs", 2))
    for group in _colour_groups(p):
        if sum(counts[f - 1] // 2 for f in group if f <= len(counts)) >= k:
            return _points(p["points"], counts, 0)
    return 0


def _colour(counts: Counts, p: Params) -> int:
    """Every die of one colour (a flush)."""
    shown = {f + 1 for f, c in enumerate(counts) if c}
    if any(shown <= set(g) for g in _colour_groups(p)):
        return _points(p["points"], counts, 0)
    return 0


def _groups(counts: Counts, p: Params) -> int:
    """Groups of different faces, ``sizes`` dice each (3, 2: a full house; 3, 3: a
    villa; 4, 2: a tower): the dice of the best such groups, or ``points``."""
    sizes = tuple(sorted((int(x) for x in p["sizes"]), reverse=True))
    best = -1

    def pick(i: int, used: frozenset[int], got: int) -> None:
        nonlocal best
        if i == len(sizes):
            best = max(best, got)
            return
        for f, c in enumerate(counts):
            if f not in used and c >= sizes[i]:
                pick(i + 1, used | {f}, got + sizes[i] * (f + 1))

    pick(0, frozenset(), 0)
    if best < 0:
        return 0
    return _points(p.get("points", "matched"), counts, best)


def _straight(counts: Counts, p: Params) -> int:
    runs: tuple[tuple[int, ...], ...] = tuple(tuple(r) for r in p["runs"])
    copies = int(p.get("copies", 1))
    for pick in combinations_with_replacement(runs, copies):
        need = [0] * len(counts)
        for run in pick:
            for face in run:
                need[face - 1] += 1
        if all(n <= c for n, c in zip(need, counts, strict=True)):
            return int(p["points"])
    return 0


def _pairs(counts: Counts, p: Params) -> int:
    k = int(p["pairs"])
    faces = [f + 1 for f, c in enumerate(counts) if c >= 2]
    if len(faces) < k:
        return 0
    return 2 * sum(sorted(faces, reverse=True)[:k])


def _total_is(counts: Counts, p: Params) -> int:
    if _total(counts) != int(p["total"]):
        return 0
    if p.get("pair", False) and max(counts) < 2:
        return 0
    return int(p["points"])


SCORERS: dict[str, Callable[[Counts, Params], int]] = {
    "face": _face,
    "sum": _sum,
    "of_a_kind": _of_a_kind,
    "pattern": _pattern,
    "straight": _straight,
    "pairs": _pairs,
    "total": _total_is,
    "colour_pairs": _colour_pairs,
    "colour": _colour,
    "groups": _groups,
}


def score(kind: str, counts: Counts, params: Params) -> int:
    """Points that scorer ``kind`` with ``params`` gives the dice ``counts``."""
    try:
        fn = SCORERS[kind]
    except KeyError:
        raise ScorerError(f"unknown scorer kind {kind!r}; known: {', '.join(SCORERS)}") from None
    return fn(counts, params)


# --- words for the rules text -------------------------------------------------

_NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten"]
_ORDINALS = ["", "one face", "a second", "a third", "a fourth", "a fifth", "a sixth"]


def _word(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _join(items: list[str], last: str = "or") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _points_text(points: Any, plus: Any = 0) -> str:
    if points == "all":
        text = "the sum of all the dice"
    elif points == "matched":
        text = "the sum of the matching dice only"
    else:
        return f"{int(points) + int(plus)} points"
    return f"{int(plus)} + {text}" if int(plus) else text


def _colours_text(params: Params) -> str:
    return ", ".join("/".join(str(f) for f in g) for g in params["colours"])


def describe(kind: str, params: Params, dice: int) -> str:
    """A sentence saying what a category needs and scores (used by `yacht rules`).

    >>> describe("of_a_kind", {"n": 4, "points": "all"}, 5)
    'at least four dice show the same face: scores the sum of all the dice'
    """
    if kind == "face":
        return f"scores the sum of the dice showing {params['face']}"
    if kind == "sum":
        return "any dice: scores the sum of all the dice"
    if kind == "of_a_kind":
        n = int(params["n"])
        cond = (f"all {_word(n)} dice show the same face" if n == dice
                else f"at least {_word(n)} dice show the same face")
        if params["points"] == "matched" and n < dice:  # more alike dice do not count
            plus = int(params.get("plus", 0))
            what = f"{plus} + " * bool(plus) + f"the sum of {_word(n)} of them only"
            return f"{cond}: scores {what} ({'-'.join('3' * dice)} scores {3 * n + plus})"
        return f"{cond}: scores {_points_text(params['points'], params.get('plus', 0))}"
    if kind == "pattern":
        parts = [f"{_word(int(c))} of {_ORDINALS[i + 1]}" for i, c in enumerate(params["counts"])]
        cond = f"exactly {_join(parts, 'and')} (no more of any face)"
        if "colours" in params:
            cond += ", the faces of one colour"
        if params.get("yacht", False):
            cond += f", or all {_word(dice)} dice alike"
        return f"{cond}: scores {_points_text(params['points'], params.get('plus', 0))}"
    if kind == "colour_pairs":
        return (f"{_word(int(params.get('pairs', 2)))} pairs of one colour (the colours: "
                f"{_colours_text(params)}; two pairs of one face count): scores "
                f"{_points_text(params['points'])}")
    if kind == "colour":
        return (f"every die of one colour (the colours: {_colours_text(params)}): scores "
                f"{_points_text(params['points'])}")
    if kind == "groups":
        sizes = [int(x) for x in params["sizes"]]
        parts = [f"{_word(n)} of {'one face' if i == 0 else 'another'}"
                 for i, n in enumerate(sizes)]
        what = ("the sum of those dice (the best choice)"
                if params.get("points", "matched") == "matched"
                else _points_text(params["points"]))
        return f"at least {_join(parts, 'and')}: scores {what}"
    if kind == "straight":
        runs = ["-".join(str(f) for f in r) for r in params["runs"]]
        copies = int(params.get("copies", 1))
        if copies > 1:
            cond = (f"{_word(copies)} separate runs can be made from the dice, "
                    f"each one of {_join(runs)}")
        elif all(len(r) == dice for r in params["runs"]):
            cond = f"the dice show {_join(runs)}"
        else:
            cond = f"the dice contain {_join(runs)}"
        return f"{cond}: scores {int(params['points'])} points"
    if kind == "pairs":
        k = int(params["pairs"])
        if k == 1:
            return "at least two dice match: scores the two dice of the highest pair"
        return (f"{_word(k)} pairs of different faces: scores the sum of those "
                f"{_word(2 * k)} dice (the highest pairs)")
    if kind == "total":
        cond = f"the dice add up to {params['total']}"
        if params.get("pair", False):
            cond += " and two of them match"
        return f"{cond}: scores {int(params['points'])} points"
    raise ScorerError(f"unknown scorer kind {kind!r}")
