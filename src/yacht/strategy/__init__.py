"""Computer players, the exact solver, the advisor and simulation."""

from yacht.rules import YachtError

from .base import LEVELS, Decision, RandomStrategy, Strategy, UnknownLevel, make_player, play_turn
from .prepare import Preparation, preparation, prepare, ready

__all__ = ["LEVELS", "Decision", "Preparation", "RandomStrategy", "Strategy", "UnknownLevel",
           "YachtError", "make_player", "play_turn", "prepare", "preparation", "ready"]
