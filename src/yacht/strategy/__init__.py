"""Computer players, the exact solver, the advisor and simulation."""

from .base import LEVELS, Decision, RandomStrategy, Strategy, UnknownLevel, make_player, play_turn

__all__ = ["LEVELS", "Decision", "RandomStrategy", "Strategy", "UnknownLevel", "make_player",
           "play_turn"]
