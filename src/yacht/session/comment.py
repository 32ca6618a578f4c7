"""A comment on a final score (as Yatcy judged its players), from the ruleset alone."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from yacht.rules import Ruleset, counts_of

__all__ = ["best_possible", "score_comment"]


@lru_cache(maxsize=32)
def best_possible(rs: Ruleset) -> int:
    """The highest total a card can reach: every box at its best, bonus earned.

    (Repeat scorings and extra bonuses are left out: they are luck on top.)

    >>> from yacht.rules import get
    >>> best_possible(get("ancient-yacht"))
    288
    """
    best = [0] * len(rs.categories)
    for dice in combinations_with_replacement(range(1, rs.faces + 1), rs.dice):
        counts = counts_of(dice, rs.faces)
        for i, c in enumerate(rs.categories):
            v = c.score_counts(counts)
            if v > best[i]:
                best[i] = v
    column = sum(best) + (rs.upper_bonus.amount if rs.upper_bonus else 0)
    return sum(column * m for m in rs.columns)


_COMMENTS = (
    (0.85, "A legendary game: few people ever score like that."),
    (0.70, "Excellent! A score to be proud of."),
    (0.60, "A very good game."),
    (0.50, "A solid, respectable score."),
    (0.40, "Not bad, but the dice can do better for you."),
    (0.30, "A weak game: try keeping the dice that fit an open box."),
)


def score_comment(rs: Ruleset, score: int) -> str:
    """One sentence judging ``score`` against the best the variant allows.

    >>> from yacht.rules import get
    >>> score_comment(get("yatcy"), 335)
    'A legendary game: few people ever score like that. 335 of a possible 370: 91%.'
    """
    top = best_possible(rs)
    ratio = score / top if top > 0 else 0.0
    text = next((t for limit, t in _COMMENTS if ratio >= limit),
                "Oh dear. Better luck next time!")
    return f"{text} {score} of a possible {top}: {round(100 * ratio)}%."
