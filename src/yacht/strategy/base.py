"""What every computer player is: given a state, a decision.

Levels are looked up by name; each level's class lives in its own module and
is imported only when asked for, so `yacht --help` stays fast.
"""

from __future__ import annotations

import importlib
import random
import warnings
from dataclasses import dataclass
from typing import Protocol, overload

from yacht.engine import (
    DEFAULT_LEVEL,
    PLAYER_LEVELS,
    Action,
    Choose,
    IllegalAction,
    Roll,
    Score,
    State,
)
from yacht.rules import Ruleset, YachtError
from yacht.rules.errors import InvalidType, InvalidValue

__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_HELP", "PLAYER_LEVELS", "Decision",
           "RandomStrategy", "Strategy", "UnknownLevel", "make_player", "play_turn"]


@dataclass(frozen=True)
class Decision:
    """Dice to roll again (positions, non-empty) or a box to score: exactly one of the two."""

    reroll: tuple[int, ...] = ()
    score: Score | None = None

    def actions(self) -> list[Action]:
        if self.score is not None:
            return [self.score]
        return [Choose(self.reroll), Roll()]


class Strategy(Protocol):
    """A computer player. ``decide`` is called with dice showing, for the player on turn."""

    level: str

    def decide(self, state: State) -> Decision: ...


class UnknownLevel(YachtError, LookupError):
    def __str__(self) -> str:
        return str(self.args[0])


class RandomStrategy:
    """Random legal decisions (for tests and the `selfplay` default)."""

    level = "random"

    def __init__(self, ruleset: Ruleset, seed: int | None = None):
        self.rng = random.Random(seed)

    def decide(self, state: State) -> Decision:
        check_decidable(state)
        options = state.placements()
        if state.may_reroll() and (not options or self.rng.random() < 0.5):
            n = state.ruleset.dice
            pick = tuple(i for i in range(n) if self.rng.random() < 0.5) or (self.rng.randrange(n),)
            return Decision(reroll=pick)
        pl = self.rng.choice(options)
        return Decision(score=Score(pl.category, pl.column))


def check_decidable(state: State) -> None:
    """Raise (one line) unless a decision can be made in ``state``: the game goes on and
    dice are showing (a strategy decides between rolls; :func:`play_turn` rolls)."""
    if not isinstance(state, State):
        raise InvalidType(f"a strategy decides in a game (yacht.engine.State), "
                          f"not {type(state).__name__}")
    if state.is_terminal():
        raise IllegalAction("the game is over")
    if not state.dice:
        raise InvalidValue("no dice are showing: roll first")


# level -> "module:Class"; the class is built as Class(ruleset)
LEVELS: dict[str, str] = {
    "random": "yacht.strategy.base:RandomStrategy",
    "beginner": "yacht.strategy.heuristics:BeginnerStrategy",
    "intermediate": "yacht.strategy.heuristics:IntermediateStrategy",
    "expert": "yacht.strategy.expert:ExpertStrategy",
    "champion": "yacht.strategy.champion:ChampionStrategy",
}



#: what each level is, in a line (for help texts)
LEVEL_HELP: dict[str, str] = {
    "random": "random legal moves (for tests)",
    "beginner": "keeps its biggest group of equal dice, takes the box that scores most now",
    "intermediate": "a sound heuristic: each keep judged over the rolls left of the turn",
    "expert": "the exact best expected score (optimal solitaire play)",
    "champion": ("plays to win: against others, the best share of first place at every "
                 "move (exact chances if the others play on as the expert, and so does "
                 "it after its turn; distributions built once per variant); "
                 "alone, the best chance of reaching a target (exact; a table built once "
                 "per target: about a minute for Yahtzee); in the two-column games the "
                 "expert's move until its last turns"),
}



@overload
def make_player(ruleset: Ruleset, level: str, *, target: int | None = None) -> Strategy: ...


@overload  # (the old order: deprecated)
def make_player(ruleset: str, level: Ruleset, *, target: int | None = None) -> Strategy: ...


def make_player(ruleset: Ruleset | str, level: str | Ruleset, *,
                target: int | None = None) -> Strategy:
    """The computer player of ``level`` for ``ruleset`` (with its options).

    The ruleset comes first, as in :func:`~yacht.strategy.simulate.simulate`
    (``simulate(ruleset, level, ...)``), :class:`~yacht.engine.State` and every strategy
    class (``ExpertStrategy(ruleset)``). The old order, ``make_player(level, ruleset)``,
    still works but is deprecated (a :class:`DeprecationWarning`; it will be removed):
    keywords (``make_player(ruleset=rs, level="expert")``) read the same in both.

    ``target``: the score the ``champion`` plays to reach when alone (the others
    ignore it; None: its default, see :mod:`yacht.strategy.champion`).
    :class:`UnknownLevel` for a level that is not one of :data:`LEVELS`.

    >>> from yacht.rules import get
    >>> make_player(get("tommys-crag"), "Champion", target=150).target
    150
    """
    if isinstance(ruleset, str) and isinstance(level, Ruleset):
        warnings.warn("make_player(level, ruleset) is the old order and will be removed: "
                      "write make_player(ruleset, level), the order of simulate()",
                      DeprecationWarning, stacklevel=2)
        ruleset, level = level, ruleset
    if not isinstance(ruleset, Ruleset):
        raise InvalidType(f"make_player(ruleset, level): the ruleset is a Ruleset "
                          f"(yacht.rules.get(name)), not {ruleset!r}")
    if not isinstance(level, str):
        raise InvalidType(f"make_player(ruleset, level): the level is one of "
                          f"{', '.join(LEVELS)}, not {level!r}")
    key = level.strip().lower()
    try:
        where = LEVELS[key]
    except KeyError:
        raise UnknownLevel(f"unknown level {level!r} (accepted: {', '.join(LEVELS)})") from None
    module, _, name = where.partition(":")
    cls = getattr(importlib.import_module(module), name)
    takes_target = key == "champion" and target is not None
    player: Strategy = cls(ruleset, target) if takes_target else cls(ruleset)
    return player


def play_turn(state: State, strategy: Strategy) -> None:
    """Let ``strategy`` play the current player's whole turn (rolls included).
    IllegalAction at a finished game: there is no turn to play."""
    if not isinstance(state, State):
        raise InvalidType(f"play_turn plays a game (yacht.engine.State), "
                          f"not {type(state).__name__}")
    if state.is_terminal():
        raise IllegalAction("the game is over")
    player, turns = state.current, state.turns_taken(state.current)
    while not state.is_terminal() and state.turns_taken(player) == turns:
        if not state.dice:
            state.apply(Roll())
            continue
        for action in strategy.decide(state).actions():
            state.apply(action)
