"""The game for every interface: the table controller, its commands, snapshot and words.

A :class:`~yacht.session.table.Table` is where a game flows (seats, turns,
computer moves, pauses, pacing, saving); interfaces send it commands and draw
its snapshot. See ``API.md`` in this folder.

>>> import random
>>> from yacht.rules import get
>>> from yacht.engine import Player, Roll
>>> t = Table.new(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
...               rng=random.Random(3))
>>> _ = t.act(LOCAL, Roll()); _ = t.act(LOCAL, ScoreBox("crag"))
>>> t.view().computer_turn, t.view().pause
(True, 'next_player')
"""

from .advice import Advice
from .commands import ActionError, ComputerMove, GoOn, ScoreBox, Select, Toggle, parse_command
from .comment import best_possible, score_comment
from .config import (
    KINDS,
    SPEEDS,
    Config,
    Launch,
    PlayerSpec,
    config_path,
    demo_players,
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
from .opening import open_store_for_games, open_table, unfinished_game, upgrade_note
from .table import LOCAL, Event, Refused, Seat, Table, TableView

__all__ = [
    "LOCAL",
    "ActionError",
    "ComputerMove",
    "Event",
    "GoOn",
    "Refused",
    "ScoreBox",
    "Seat",
    "Select",
    "Table",
    "TableView",
    "Toggle",
    "parse_command",
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
    "demo_players",
    "key_for",
    "load_config",
    "open_store_for_games",
    "open_table",
    "parse_players",
    "players_from_specs",
    "save_config",
    "score_comment",
    "singlets",
    "unfinished_game",
    "upgrade_note",
]
