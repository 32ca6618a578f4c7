"""Helpers shared by the store tests (a module of its own: other test folders have their
own conftest.py, so `from conftest import ...` could find the wrong one)."""

from __future__ import annotations

import random
from pathlib import Path

from yacht.engine import Player, Record, State, random_decision
from yacht.rules import Ruleset
from yacht.store import Store

__all__ = ["HERE", "play_into", "random_game"]

HERE = Path(__file__).parent


def random_game(variant_rs: Ruleset, players: list[Player], seed: int) -> State:
    """A whole game of random moves (the same seed, the same game)."""
    rng = random.Random(seed)
    state = State(variant_rs, players, rng=random.Random(seed + 1))
    while not state.is_terminal():
        for a in random_decision(state, rng):
            state.apply(a)
    return state


def play_into(store: Store, state: State, start_empty: bool = False) -> str:
    """Save a game (not finishing it): its whole log at the start, or with ``start_empty``
    action by action."""
    rec = Record.from_state(state)
    if start_empty:
        rec.actions = []
    gid = store.start_game(rec)
    for i in range(len(rec.actions), len(state.log)):
        store.append_action(gid, i, state.log[i])
    return gid
