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
from yacht.render import dice_text, possessive
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
    (0-1) and :attr:`line` says so. Where the chances cannot be worked out (a build that
    failed or must wait, a turn the rules set...), no moves either, ``preparing`` None,
    and ``how`` says why.

    Every interface shows :attr:`line` whenever it does not list the moves (that is,
    unless ``differ``): the chance of the same best move, the build's progress, or why
    there is none - never nothing."""

    title: str                                  # "Best to win" / "Best to reach 250"
    how: str                                    # exact, or how it is estimated
    exact: bool
    differ: bool
    moves: tuple[tuple[Advice, float], ...]
    preparing: float | None = None

    @property
    def line(self) -> str:
        """What the hint says of the chances of winning when it does not list them: the
        same best move and its chance, or how far the build got, or why there are none
        (a ranking that differs: its title and how it is worked out).

        >>> WinAdvice("Best to win", "being prepared (40%)", False, False, (), 0.4).line
        'Best to win: being prepared (40%)'
        >>> same = Advice("Keep 5 5 and roll the other one", 30.5, 0.0, (2,))
        >>> WinAdvice("Best to win", "exact: the opponents have finished", True, False,
        ...           ((same, 0.625),)).line
        'Best to win: the same move, chance 62.5%; exact: the opponents have finished'
        """
        if self.moves and not self.differ:
            return (f"{self.title}: the same move, chance {100 * self.moves[0][1]:.1f}%; "
                    f"{self.how}")
        return f"{self.title}: {self.how}"

    @property
    def unavailable(self) -> bool:
        """No chances to show, and no build under way: :attr:`how` says why."""
        return not self.moves and self.preparing is None


def preparing_how(percent: int) -> str:
    """What the hint says of its chances of winning while their tables are built.

    >>> preparing_how(37)[:61]
    'being prepared (37%): the distributions of the scores to come'
    >>> preparing_how(37)[61:]
    ', built once; ask for a hint again later'
    """
    return (f"being prepared ({percent}%): the distributions of the scores to come, built "
            "once; ask for a hint again later")


class Moves(list[Advice]):
    """The advisor's moves (best for the score first); ``to_win``: the ranking to win
    against opponents, or why there is none now (:attr:`WinAdvice.line`; None alone
    without a ranking to reach a target); ``marked``: this hint made its player's score
    assisted (an interface says so once, not at every hint: :attr:`marked_line`);
    ``who``: that player's name where the table has other persons, else None."""

    to_win: WinAdvice | None = None
    marked: bool = False
    who: str | None = None

    @property
    def marked_line(self) -> str | None:
        """What an interface says after the player's first hint, else None.

        >>> m = Moves(); m.marked = True; m.marked_line
        'This game is now marked assisted.'
        >>> m.who = "Ann"; m.marked_line
        "Ann's score is now marked assisted."
        """
        if not self.marked:
            return None
        if self.who is None:
            return "This game is now marked assisted."
        return f"{possessive(self.who, True)} score is now marked assisted."


def _advice(rs: Any, r: Any) -> Advice:
    if r.kind == "score" and r.category is not None:
        label = rs.category(r.category).label
        col = f" (column {r.column + 1})" if len(rs.columns) > 1 else ""
        return Advice(f"Score {label}{col} for {r.points}", float(r.expected), float(r.loss),
                      (), r.category, int(r.column))
    reroll = tuple(int(p) for p in r.reroll)
    return Advice(keep_text(r.keep, len(reroll), rs.dice, rs), float(r.expected),
                  float(r.loss), reroll)


TO_WIN = "Best to win"


def _to_win(state: State, ranked: list[Any], limit: int) -> WinAdvice | None:
    """The ranking to win, or (against opponents) why there is none now; None alone,
    where there is no ranking to reach a target (its table is not built)."""
    alone = len(state.players) < 2
    try:
        champion: Any = importlib.import_module("yacht.strategy.champion")
        win = champion.rank_to_win(state, build=False)
    except Exception as e:  # the second ranking is extra: never the reason a hint fails
        return None if alone else _none(f"it could not be worked out ({_short(e)})")
    if win is not None:
        return _ranking(state, win, ranked, limit)
    if alone:
        return None
    try:
        return _why_not(state, ranked, limit, champion)
    except Exception as e:  # (never the reason a hint fails)
        return _none(f"it could not be worked out ({_short(e)})")


def _ranking(state: State, win: Any, ranked: list[Any], limit: int) -> WinAdvice:
    rs = state.ruleset
    title = f"Best to reach {win.target}" if win.goal == "target" else TO_WIN
    differ = bool(ranked) and win.options[0].decision() != ranked[0].decision()
    moves = tuple((_advice(rs, o.ranked), float(o.chance)) for o in win.options[:limit])
    return WinAdvice(title, win.how, bool(win.exact), differ, moves)


def _none(why: str) -> WinAdvice:
    """No chances of winning to show, and why (one line after "Best to win: ")."""
    return WinAdvice(TO_WIN, why, False, False, ())


def _short(e: Exception | str) -> str:
    """A problem's text on one short line."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 80 else text[:79] + "…"


def _why_not(state: State, ranked: list[Any], limit: int, champion: Any) -> WinAdvice:
    """Against opponents, when no ranking to win came: the build of the distributions
    the chances need under way in the background (asked for now if it was not: how far
    it got), or why there is none - a build refused for now (others first), one that
    failed, a variant without them this early, a turn the rules set. A build that ended
    well meanwhile: the ranking after all."""
    from yacht.strategy.solver import background, solve
    from yacht.strategy.solver.dist import is_ready, turns_known

    rs = state.ruleset
    me = state.current
    if solve(rs, estimate=False).forced_turn(state.card(me), state.turns_taken(me)):
        return _none("not on this turn: the rules say where it scores")
    if not turns_known(rs):
        from yacht.strategy.solver import UnsupportedRuleset
        from yacht.strategy.solver.local import check_local

        try:
            check_local(rs)
        except UnsupportedRuleset:  # (no table of chances either: not even at the end)
            return _none(f"not worked out in {rs.name} (the tables of chances do not know "
                         "its rules)")
        return _none(f"worked out in the last turns only ({rs.name} has no exact "
                     "distributions of the scores to come)")
    if not is_ready(rs, table=True):
        if background.waits():  # (tests, matches: nothing is built behind the game)
            return _none("not ready: the distributions of the scores to come are not built")
        job = champion.preparing(state)
        if job is not None and not job.finished.is_set():
            return WinAdvice(TO_WIN, preparing_how(job.percent), False, False, (),
                             float(job.fraction))
        if job is not None and job.error == background.BUSY:
            return _none("not yet: other tables are being built first; ask for a hint "
                         "again later")
        if job is not None and job.error is not None:
            return _none("not available: the distributions of the scores to come could "
                         f"not be built ({_short(job.error)})")
    # ready (built meanwhile): the ranking after all
    win = champion.rank_to_win(state, build=False)
    if win is not None:
        return _ranking(state, win, ranked, limit)
    return _none("not worked out at this point of the game")


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
