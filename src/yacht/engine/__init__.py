"""The game engine: a pure state machine with typed actions, Oops undo and records.

>>> import random
>>> from yacht.rules import get
>>> s = State(get("ancient-yacht"), [Player("Ann"), Player("Cpu", "computer", "expert")],
...           rng=random.Random(7))
>>> s.apply(Roll()); len(s.dice), s.rolls_left
(5, 2)
"""

from .actions import (
    PLAYED_BY,
    Action,
    Choose,
    GiveBack,
    IllegalAction,
    PlayedBy,
    Roll,
    Score,
    TakeBack,
    action_from_json,
    action_to_json,
)
from .dice import SCHEME, Commitment, DiceSource, RandomDice, SeededDice, commitment_of, die_face
from .randomplay import random_decision, random_turn
from .records import FORMAT, VERSION, Record, RecordError, TurnSummary
from .state import (
    DEFAULT_LEVEL,
    NAME_LENGTH,
    PLAYER_LEVELS,
    Player,
    PlayerIndexError,
    Rng,
    State,
    roll_probability,
)
from .verdict import Verdict, verify

__all__ = [
    "DEFAULT_LEVEL",
    "FORMAT",
    "NAME_LENGTH",
    "PLAYER_LEVELS",
    "SCHEME",
    "VERSION",
    "Action",
    "Choose",
    "Commitment",
    "DiceSource",
    "GiveBack",
    "IllegalAction",
    "Player",
    "PlayerIndexError",
    "RandomDice",
    "Record",
    "RecordError",
    "Rng",
    "Roll",
    "PLAYED_BY",
    "PlayedBy",
    "Score",
    "SeededDice",
    "State",
    "TakeBack",
    "TurnSummary",
    "Verdict",
    "action_from_json",
    "action_to_json",
    "commitment_of",
    "die_face",
    "random_decision",
    "random_turn",
    "roll_probability",
    "verify",
]
