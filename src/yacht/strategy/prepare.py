"""Whether a computer level (or the advisor) answers at once, and getting it ready.

The ``expert`` player and the advisor play from the solver's table of the
variant; the first time a variant is played it is built (a fraction of a
second to a few seconds) and then kept in the user cache. An interface asks
:func:`ready` (cheap: memory or a file header, no kernels loaded) and, when it
is False, runs :func:`prepare` off its main thread with a progress callback.

A computer player may need more once it is made, for the game it plays (the
champion alone: the table for reaching its target, built once per target): it
says so through :func:`preparation`, with what it builds in words and the build
to run with a progress callback.

>>> from yacht.rules import get
>>> ready("beginner", get("yatzy"))
True
>>> prepare("beginner", get("yatzy"))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yacht.engine import State
from yacht.rules import Ruleset

from .base import LEVELS, UnknownLevel

__all__ = ["SOLVER_LEVELS", "Preparation", "prepare", "preparation", "ready"]

#: the levels that play from the solver's table ("advisor": the hint; the champion's
#: target table, alone, is its :func:`preparation`: about a minute for Yahtzee, once)
SOLVER_LEVELS = frozenset({"expert", "champion", "advisor"})

Progress = Callable[[int, int], None]


def _name(level: str) -> str:
    name = level.strip().lower()
    if name not in LEVELS and name not in SOLVER_LEVELS:
        raise UnknownLevel(f"unknown level {level!r} (accepted: {', '.join(LEVELS)}, advisor)")
    return name


def ready(level: str, ruleset: Ruleset) -> bool:
    """Whether ``level`` (a computer level, or ``"advisor"`` for the hint) can play
    ``ruleset`` without building anything first."""
    from .solver.numbers import a_ruleset

    a_ruleset(ruleset, "ready(level, ruleset)")
    if _name(level) not in SOLVER_LEVELS:
        return True
    from .solver.build import is_ready
    from .solver.spec import UnsupportedRuleset

    try:
        return is_ready(ruleset, estimate=False)
    except UnsupportedRuleset:  # nothing to build: the player reports the problem itself
        return True


def prepare(level: str, ruleset: Ruleset, progress: Progress | None = None) -> None:
    """Build (or load) what ``level`` needs for ``ruleset``; safe from any thread (a
    second caller waits for the first build). ``progress(done, total)`` is called as
    the build goes and once with ``done == total`` at the end."""
    from .solver.numbers import a_ruleset

    a_ruleset(ruleset, "prepare(level, ruleset)")
    last = [0, 0]

    def report(done: int, total: int) -> None:
        last[:] = [done, total]
        if progress is not None:
            progress(done, total)

    if _name(level) in SOLVER_LEVELS:
        from .solver import UnsupportedRuleset, solve

        try:
            solve(ruleset, progress=report, estimate=False)
        except UnsupportedRuleset:
            pass
    if progress is not None and (last[1] == 0 or last[0] < last[1]):
        progress(1, 1)


@dataclass(frozen=True)
class Preparation:
    """What a computer player builds before it decides: ``what`` in words (after "is
    getting ready: "), and the build, ``build(progress)`` (``progress(done, total)`` as
    it goes; safe from any thread)."""

    what: str
    build: Callable[[Progress | None], None]


def preparation(player: Any, state: State) -> Preparation | None:
    """What ``player`` (a computer player, made) must build before it can decide in
    ``state``; None when it is ready (a player that says nothing is always ready)."""
    ask = getattr(player, "preparation", None)
    return ask(state) if callable(ask) else None
