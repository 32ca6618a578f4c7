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
from yacht.render import dice_text
from yacht.rules import Ruleset

__all__ = ["Advice", "Moves", "WinAdvice", "preparing_how", "rank_moves"]


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


def keep_text(keep: Sequence[int], rolled: int, dice: int, rs: Ruleset | None = None) -> str:
    """A keep in values only: "Keep 3 4 5 and roll the other two"; coloured dice (``rs``'s)
    with their colours' marks, as every line of text shows them.

    >>> keep_text((3, 4, 5), 2, 5), keep_text((6, 6, 6, 6), 1, 5)
    ('Keep 3 4 5 and roll the other two', 'Keep 6 6 6 6 and roll the other one')
    >>> keep_text((), 10, 10)
    'Roll all ten dice again'
    >>> from yacht.rules import get
    >>> keep_text((2, 5), 3, 5, get("kismet"))
    'Keep 2◆ 5◆ and roll the other three'
    """
    def number(n: int) -> str:
        return _NUMBERS[n] if n < len(_NUMBERS) else str(n)

    if not keep:
        return f"Roll all {number(dice)} dice again"
    kept = dice_text(keep, rs)
    return f"Keep {kept} and roll the other {number(rolled)}" if rolled else f"Keep {kept}"


@dataclass(frozen=True)
class WinAdvice:
    """The moves ranked by the chance of winning (alone: of reaching a target), best first,
    each with that chance (0-1); ``differ``: its best is not the best for the score (show
    both then, under "Best for your score" and :attr:`title`). While the tables it needs
    are built in the background, no moves: ``preparing`` says how far the build got
    (0-1) and :attr:`line` says so."""

    title: str                                  # "Best to win" / "Best to reach 250"
    how: str                                    # exact, or how it is estimated
    exact: bool
    differ: bool
    moves: tuple[tuple[Advice, float], ...]
    preparing: float | None = None

    @property
    def line(self) -> str:
        """The ranking's title and how it is worked out, as one line.

        >>> WinAdvice("Best to win", "being prepared (40 %)", False, False, (), 0.4).line
        'Best to win: being prepared (40 %)'
        """
        return f"{self.title}: {self.how}"


def preparing_how(percent: int) -> str:
    """What the hint says of its chances of winning while their tables are built.

    >>> preparing_how(37)
    'being prepared (37 %): the distributions of the scores to come, built once; ask again later'
    """
    return (f"being prepared ({percent} %): the distributions of the scores to come, built "
            "once; ask again later")


class Moves(list[Advice]):
    """The advisor's moves (best for the score first), and ``to_win`` when the chance of
    winning can be worked out here (else None)."""

    to_win: WinAdvice | None = None


def _advice(rs: Any, r: Any) -> Advice:
    if r.kind == "score" and r.category is not None:
        label = rs.category(r.category).label
        col = f" (column {r.column + 1})" if len(rs.columns) > 1 else ""
        return Advice(f"Score {label}{col} for {r.points}", float(r.expected), float(r.loss),
                      (), r.category, int(r.column))
    reroll = tuple(int(p) for p in r.reroll)
    return Advice(keep_text(r.keep, len(reroll), rs.dice, rs), float(r.expected),
                  float(r.loss), reroll)


def _to_win(state: State, ranked: list[Any], limit: int) -> WinAdvice | None:
    try:
        champion: Any = importlib.import_module("yacht.strategy.champion")
        win = champion.rank_to_win(state, build=False)
    except Exception:  # the second ranking is extra: never the reason a hint fails
        return None
    if win is None:
        return _preparing(state)
    rs = state.ruleset
    title = f"Best to reach {win.target}" if win.goal == "target" else "Best to win"
    differ = bool(ranked) and win.options[0].decision() != ranked[0].decision()
    moves = tuple((_advice(rs, o.ranked), float(o.chance)) for o in win.options[:limit])
    return WinAdvice(title, win.how, bool(win.exact), differ, moves)


def _preparing(state: State) -> WinAdvice | None:
    """Against opponents, while the distributions the chances of winning need are built
    in the background (asked for now if they were not): how far they got."""
    if len(state.players) < 2:
        return None
    try:
        background: Any = importlib.import_module("yacht.strategy.solver.background")
        if background.waits():
            return None
        champion: Any = importlib.import_module("yacht.strategy.champion")
        job = champion.preparing(state)
    except Exception:  # (never the reason a hint fails)
        return None
    if job is None or job.finished.is_set():
        return None
    return WinAdvice("Best to win", preparing_how(job.percent), False, False, (),
                     float(job.fraction))


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
    out = Moves(_advice(rs, r) for r in ranked[:limit])
    out.to_win = _to_win(state, ranked, limit)
    return out
