"""The hint: the advisor's ranking of the moves open now, as lines a UI can show.

Uses :mod:`yacht.strategy.advisor` when it is installed; otherwise raises
:class:`~yacht.session.game.HintUnavailable` with a one-line reason.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from yacht.engine import State

__all__ = ["Advice", "rank_moves"]


@dataclass(frozen=True)
class Advice:
    """One ranked move: what to do, the expected final total, and the loss against the best."""

    text: str
    expected: float
    loss: float
    reroll: tuple[int, ...] = ()       # 0-based positions to roll again (a keep)
    category: str | None = None        # a scoring
    column: int = 0


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten")


def keep_text(keep: Sequence[int], rolled: int, dice: int) -> str:
    """A keep in values only: "Keep 3 4 5 and roll the other two".

    >>> keep_text((3, 4, 5), 2, 5), keep_text((6, 6, 6, 6), 1, 5)
    ('Keep 3 4 5 and roll the other two', 'Keep 6 6 6 6 and roll the other one')
    >>> keep_text((), 10, 10)
    'Roll all ten dice again'
    """
    def number(n: int) -> str:
        return _NUMBERS[n] if n < len(_NUMBERS) else str(n)

    if not keep:
        return f"Roll all {number(dice)} dice again"
    kept = " ".join(str(v) for v in keep)
    return f"Keep {kept} and roll the other {number(rolled)}" if rolled else f"Keep {kept}"


def rank_moves(state: State, limit: int = 5) -> list[Advice]:
    from .game import HintUnavailable

    if not state.dice:
        raise HintUnavailable("roll first: the advice is about the dice showing")
    try:
        advisor: Any = importlib.import_module("yacht.strategy.advisor")
    except ImportError:
        raise HintUnavailable("the advisor is not available in this installation") from None
    try:
        ranked = list(advisor.advise(state))
    except Exception as e:  # the advisor failing must not end the game
        raise HintUnavailable(f"the advisor cannot advise here: {e}") from None
    rs = state.ruleset
    out = []
    for r in ranked[:limit]:
        if r.kind == "score" and r.category is not None:
            label = rs.category(r.category).label
            col = f" (column {r.column + 1})" if len(rs.columns) > 1 else ""
            text = f"Score {label}{col} for {r.points}"
            out.append(Advice(text, float(r.expected), float(r.loss), (), r.category,
                              int(r.column)))
        else:
            reroll = tuple(int(p) for p in r.reroll)
            out.append(Advice(keep_text(r.keep, len(reroll), rs.dice), float(r.expected),
                              float(r.loss), reroll))
    return out
