"""The game's widgets: dice, the scorecard, a value out of a list, the key bar.

Each is imported when first asked for: the setup screen (the first one shown)
needs neither the dice nor the scorecard and its table.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .card import ScoreCard
    from .choice import Choice
    from .dice import DiceRow, Die
    from .keybar import KeyBar
    from .newslog import NewsLog
    from .standings import Standings

__all__ = ["Choice", "DiceRow", "Die", "KeyBar", "NewsLog", "ScoreCard", "Standings"]

_MODULES = {"ScoreCard": "card", "Choice": "choice", "DiceRow": "dice", "Die": "dice",
            "KeyBar": "keybar", "NewsLog": "newslog", "Standings": "standings"}


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
