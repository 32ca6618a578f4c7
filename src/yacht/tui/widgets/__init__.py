"""The game's widgets: dice, the scorecard, the help bar."""

from .card import ScoreCard
from .dice import DiceRow, Die

__all__ = ["DiceRow", "Die", "ScoreCard"]
