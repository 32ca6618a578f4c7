"""A comment on a final score (as Yatcy judged its players), from the ruleset alone.

The score is judged against the variant's :attr:`~yacht.rules.Ruleset.par` when the
original program had one (Yatcy: its author's 335), else against a card with every
box at its best. The "possible" maximum it names includes what the special rules
can add (the Yahtzee bonuses); a rule without a limit (Tommy's repeated Yahtzee
board) is said as such.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from yacht.rules import Ruleset, counts_of

__all__ = ["best_boxes", "best_card", "best_possible", "score_comment"]


@lru_cache(maxsize=32)
def best_boxes(rs: Ruleset) -> dict[str, int]:
    """Category id -> the most its scorer gives for any dice (a shared copy: do not change
    it)."""
    best = {c.id: 0 for c in rs.categories}
    for dice in combinations_with_replacement(range(1, rs.faces + 1), rs.dice):
        counts = counts_of(dice, rs.faces)
        for c in rs.categories:
            v = c.score_counts(counts)
            if v > best[c.id]:
                best[c.id] = v
    return best


@lru_cache(maxsize=32)
def best_card(rs: Ruleset) -> int:
    """The total of a card with every box at its best and the upper bonus earned (what
    the special rules add on top is left out).

    >>> from yacht.rules import get
    >>> best_card(get("ancient-yacht")), best_card(get("yahtzee"))
    (288, 375)
    """
    column = sum(best_boxes(rs).values()) + (rs.upper_bonus.amount if rs.upper_bonus else 0)
    return sum(column * m for m in rs.columns)


@lru_cache(maxsize=32)
def best_possible(rs: Ruleset) -> int | None:
    """The highest total a game can reach: every box at its best, the bonus earned, and
    whatever the special rules add with perfect dice (None: they have no limit).

    >>> from yacht.rules import get
    >>> best_possible(get("ancient-yacht")), best_possible(get("yahtzee"))
    (288, 1575)
    >>> best_possible(get("yahtzee", {"bonus": "off"})), best_possible(get("tommys-yahtzee"))
    (375, None)
    """
    total = best_card(rs)
    best = best_boxes(rs)
    for rule in rs.special:
        extra = rule.best_extra(rs, best)
        if extra is None:
            return None
        total += extra
    return total


_COMMENTS = (
    (0.85, "A legendary game: few people ever score like that."),
    (0.70, "Excellent! A score to be proud of."),
    (0.60, "A very good game."),
    (0.50, "A solid, respectable score."),
    (0.40, "Not bad, but the dice can do better for you."),
    (0.30, "A weak game: try keeping the dice that fit an open box."),
)

#: against a par (a score the original's author was proud of): the share of it reached
_PAR_COMMENTS = (
    (0.90, "Close: a game near the very best."),
    (0.75, "A very good game."),
    (0.60, "A solid, respectable score."),
    (0.45, "Not bad, but the dice can do better for you."),
    (0.30, "A weak game: try keeping the dice that fit an open box."),
)

_LOW = "Oh dear. Better luck next time!"


def _band(ratio: float, comments: tuple[tuple[float, str], ...]) -> str:
    return next((t for limit, t in comments if ratio >= limit), _LOW)


def score_comment(rs: Ruleset, score: int) -> str:
    """One sentence or two judging ``score``: against the original's par where it had
    one, else against the best card the variant allows.

    >>> from yacht.rules import get
    >>> score_comment(get("ancient-yacht"), 250)
    'A legendary game: few people ever score like that. 250 of a possible 288: 87%.'
    >>> score_comment(get("yatcy"), 320)
    "Close: a game near the very best. 320: 15 short of the author's 335 (370 is possible)."
    >>> score_comment(get("yatcy"), 340)
    "Better than the author's 335, by 5! 340 of a possible 370."
    >>> print(score_comment(get("yahtzee"), 407))
    A legendary game: ... 407 of a possible 1575 (375 without bonus Yahtzees).
    """
    top = best_possible(rs)
    card = best_card(rs)
    par = rs.par
    if par is not None:
        possible = f"{top} is possible" if top is not None else "there is no limit"
        of = f" {score} of a possible {top}." if top is not None else ""
        if score > par.score:
            return f"Better than {par.whose} {par.score}, by {score - par.score}!{of}"
        if score == par.score:
            return f"Exactly {par.whose} {par.score}: a game to remember!{of}"
        text = _band(score / par.score if par.score > 0 else 0.0, _PAR_COMMENTS)
        return (f"{text} {score}: {par.score - score} short of {par.whose} {par.score} "
                f"({possible}).")
    ratio = score / card if card > 0 else 0.0
    text = _band(ratio, _COMMENTS)
    extras = [label for rule in rs.special if (label := rule.extra_label(rs))]
    if top is None:  # repeats without a limit: the best card is the measure
        return (f"{text} {score} points; a card with every box at its best makes {card}, "
                "and every repeat adds to that.")
    if top != card:
        what = f"bonus {extras[0].removesuffix(' bonus')}s" if extras else "the special rules"
        return f"{text} {score} of a possible {top} ({card} without {what})."
    return f"{text} {score} of a possible {top}: {round(100 * ratio)}%."
