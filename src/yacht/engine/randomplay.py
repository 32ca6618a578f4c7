"""A player that makes random legal decisions (self-play records, generic tests)."""

from __future__ import annotations

import random

from .actions import Action, Choose, Roll, Score
from .state import State

__all__ = ["random_turn", "random_decision"]


def random_decision(state: State, rng: random.Random) -> list[Action]:
    """One random decision for the player on turn: roll, or re-roll some dice, or score.

    Scoring and re-rolling are equally likely when both are allowed; the
    dice to re-roll are a random non-empty subset.
    """
    if not state.dice:
        return [Roll()]
    options = state.placements()
    if state.may_reroll() and (not options or rng.random() < 0.5):
        n = state.ruleset.dice
        pick = tuple(i for i in range(n) if rng.random() < 0.5) or (rng.randrange(n),)
        return [Choose(pick), Roll()]
    pl = rng.choice(options)
    return [Score(pl.category, pl.column)]


def random_turn(state: State, rng: random.Random) -> None:
    """Play random decisions until the player on turn has scored."""
    player, turns = state.current, state.turns_taken(state.current)
    while not state.is_terminal() and state.turns_taken(player) == turns:
        for action in random_decision(state, rng):
            state.apply(action)
