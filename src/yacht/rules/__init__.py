"""Rules as data: one frozen :class:`Ruleset` per variant, looked up by id or alias.

>>> from yacht.rules import get
>>> get("ancient-yacht").scores([6, 6, 6, 6, 6])["full_house"]
0
"""

from .errors import InvalidType, InvalidValue, YachtError
from .hooks import (
    ForcedFirstTurn,
    NeedsBox,
    PenaltyOnOthers,
    RepeatBox,
    SavedRolls,
    ServedBonus,
    ServedWin,
    SpecialRule,
    YahtzeeBonusJoker,
    all_same,
)
from .model import (
    DICE_MARKS,
    MAX_PLAYERS,
    Category,
    Change,
    ColumnTotals,
    DiceMark,
    Option,
    OptionError,
    Par,
    Placement,
    Ruleset,
    Scorecard,
    Totals,
    TurnContext,
    UnknownBox,
    UpperBonus,
)
from .registry import UnknownVariant, all_variants, get, ids
from .scoring import SCORERS, Counts, ScorerError, counts_of, dice_of
from .text import rules_text

__all__ = [
    "DICE_MARKS",
    "MAX_PLAYERS",
    "SCORERS",
    "Category",
    "Change",
    "ColumnTotals",
    "Counts",
    "DiceMark",
    "ForcedFirstTurn",
    "InvalidType",
    "InvalidValue",
    "NeedsBox",
    "Option",
    "OptionError",
    "Par",
    "PenaltyOnOthers",
    "Placement",
    "RepeatBox",
    "Ruleset",
    "SavedRolls",
    "ScorerError",
    "Scorecard",
    "ServedBonus",
    "ServedWin",
    "SpecialRule",
    "Totals",
    "TurnContext",
    "UnknownBox",
    "UnknownVariant",
    "UpperBonus",
    "YachtError",
    "YahtzeeBonusJoker",
    "all_same",
    "all_variants",
    "counts_of",
    "dice_of",
    "get",
    "ids",
    "rules_text",
]
