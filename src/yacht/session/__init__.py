"""Runs one game for any user interface: players, computer turns, saving, setup memory.

>>> import random
>>> from yacht.rules import get
>>> from yacht.engine import Player
>>> s = Session(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
...             rng=random.Random(3))
>>> s.roll(); s.score(s.state.placements()[0].category)
>>> s.is_computer_turn()
True
"""

from .advice import Advice
from .comment import best_possible, score_comment
from .config import (
    KINDS,
    SPEEDS,
    Config,
    Launch,
    PlayerSpec,
    config_path,
    load_config,
    parse_players,
    save_config,
)
from .game import (
    HintUnavailable,
    LastScore,
    Session,
    SessionError,
    StoreLike,
    players_from_specs,
)
from .keys import RESERVED, category_keys, key_for, singlets

__all__ = [
    "KINDS",
    "Advice",
    "RESERVED",
    "SPEEDS",
    "Config",
    "HintUnavailable",
    "Launch",
    "LastScore",
    "PlayerSpec",
    "Session",
    "SessionError",
    "StoreLike",
    "best_possible",
    "category_keys",
    "config_path",
    "key_for",
    "load_config",
    "parse_players",
    "players_from_specs",
    "save_config",
    "score_comment",
    "singlets",
]
