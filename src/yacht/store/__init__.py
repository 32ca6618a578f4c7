"""The store: saved games, high scores and statistics on SQLAlchemy (see ``API.md``).

>>> import os, tempfile
>>> from yacht.engine import Player, Record
>>> store = open_store(os.path.join(tempfile.mkdtemp(), "games.db"))
>>> gid = store.start_game(Record("yatzy", {}, [Player("Ann")]))
>>> [g.id for g in store.unfinished_games()] == [gid]
True
>>> store.close()
"""

from .core import (
    Daily,
    DailyGame,
    DailyResult,
    GameInfo,
    PlayerStats,
    ScoreEntry,
    Store,
    open_store,
    utc_day,
)
from .errors import GameMovedOn, StoreError, StoreGone
from .opening import default_path

__all__ = ["Daily", "DailyGame", "DailyResult", "GameInfo", "GameMovedOn", "PlayerStats",
           "ScoreEntry", "Store", "StoreError", "StoreGone",
           "default_path", "open_store", "utc_day"]
