"""The tables, as SQLAlchemy Core objects (the migrations create the same tables)."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

__all__ = ["HEAD", "REVISIONS", "actions", "dailies", "decision_losses", "games", "metadata",
           "results",
           "web_groups", "web_tables"]

#: Every schema revision this version knows, oldest first; the last is the newest.
REVISIONS = ("yacht_0001", "yacht_0002", "yacht_0003", "yacht_0004", "yacht_0005",
             "yacht_0006", "yacht_0007", "yacht_0008", "yacht_0009", "yacht_0010",
             "yacht_0011", "yacht_0012")
HEAD = REVISIONS[-1]

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(64), nullable=False),
    Column("options", Text, nullable=False),          # JSON object
    Column("table_key", String(255), nullable=False),  # ruleset.key
    Column("players", Text, nullable=False),          # JSON list of players
    Column("header", Text, nullable=False),           # JSON: record created + meta
    Column("created", DateTime, nullable=False),      # naive UTC
    Column("last_played", DateTime, nullable=False),
    Column("finished", DateTime, nullable=True),
    Column("n_actions", Integer, nullable=False),
    Column("assisted", Integer, nullable=False),      # bit mask of seats
    Column("scores", Text, nullable=True),            # JSON list when finished
    Column("seed", String(64), nullable=True),        # hex; secret until finished
    Column("dice_entered", Boolean, nullable=False, server_default=false()),
    Column("daily", String(10), nullable=True),       # the daily challenge's date, if one
    Column("clock", Text, nullable=True),             # JSON: the turn clock's state
)
Index("ix_games_daily", games.c.daily, games.c.variant)

#: each day's challenge of a variant: its seed, secret until the day is over (UTC), the
#: commitment shown from the start, and the expert's total on its dice once worked out
dailies = Table(
    "dailies", metadata,
    Column("day", String(10), primary_key=True),      # YYYY-MM-DD (UTC)
    Column("variant", String(64), primary_key=True),
    Column("seed", String(64), nullable=False),       # hex
    Column("commitment", String(64), nullable=False),
    Column("expert", Integer, nullable=True),
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("action", Text, nullable=False),           # JSON action
)

results = Table(
    "results", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(200), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("table_key", String(255), nullable=False),
    Column("score", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("multiplayer", Boolean, nullable=False),
    Column("upper_bonus", Boolean, nullable=True),
    Column("yachts", Integer, nullable=False),
    Column("assisted", Boolean, nullable=False),      # listed apart (advisor, entered dice)
    Column("finished", DateTime, nullable=False),
    Column("dice_entered", Boolean, nullable=False, server_default=false()),
    # the game ended at once, before the cards were full (a served Generala): every card
    # counts as it stood; a top ten lists only the winner's (marked), not the others'
    Column("ended_early", Boolean, nullable=False, server_default=false()),
)
Index("ix_results_table", results.c.table_key, results.c.assisted, results.c.kind,
      results.c.score)
Index("ix_results_name", results.c.name)
Index("ix_games_finished", games.c.finished)

decision_losses = Table(
    "decision_losses", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("loss", Float, nullable=False),
)
Index("ix_decision_losses_game", decision_losses.c.game_id)

web_tables = Table(
    "web_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(64), nullable=False),
    Column("options", Text, nullable=False),          # JSON object
    Column("speed", String(16), nullable=False),
    Column("seats", Text, nullable=False),            # JSON list: name, kind, level, token
    Column("game_id", String(32), nullable=True),     # once the game has started
    Column("version", Integer, nullable=False),       # bumps with every change (joins race)
    Column("created", DateTime, nullable=False),
    Column("updated", DateTime, nullable=False),
    Column("closed", DateTime, nullable=True),
    # the maker's hashed token, or "claim:" and the hash of a `yacht resume --web` link's
    # key (70 characters: yacht_0012 widened it from 64, which PostgreSQL enforced)
    Column("host", String(80), nullable=True),
    Column("settings", Text, nullable=True),          # JSON object: the table's own settings
                                                      # (reactions, clock, absence) and series
)
Index("ix_web_tables_closed", web_tables.c.closed)

#: duplicate tables: a group of one-seat tables ("cards") playing one seed at once; the
#: seed is secret (each card's game keeps it as any game does once it starts)
web_groups = Table(
    "web_groups", metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", String(64), nullable=False),
    Column("options", Text, nullable=False),          # JSON object
    Column("seed", String(64), nullable=False),       # hex
    Column("commitment", String(64), nullable=False),
    Column("cards", Text, nullable=False),            # JSON list of table ids, seat order
    Column("expert", Integer, nullable=True),         # the expert's total on the seed
    Column("created", DateTime, nullable=False),
)
