"""Helpers shared by the store tests (a module of its own: other test folders have their
own conftest.py, so `from conftest import ...` could find the wrong one)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from yacht.engine import Player, Record, State, random_decision
from yacht.rules import Ruleset
from yacht.store import Store

__all__ = ["HERE", "OLD_GAME", "database_at", "play_into", "random_game"]

HERE = Path(__file__).parent


def random_game(variant_rs: Ruleset, players: list[Player], seed: int) -> State:
    """A whole game of random moves (the same seed, the same game)."""
    rng = random.Random(seed)
    state = State(variant_rs, players, rng=random.Random(seed + 1))
    while not state.is_terminal():
        for a in random_decision(state, rng):
            state.apply(a)
    return state


def play_into(store: Store, state: State, start_empty: bool = False) -> str:
    """Save a game (not finishing it): its whole log at the start, or with ``start_empty``
    action by action."""
    rec = Record.from_state(state)
    if start_empty:
        rec.actions = []
    gid = store.start_game(rec)
    for i in range(len(rec.actions), len(state.log)):
        store.append_action(gid, i, state.log[i])
    return gid


#: an unfinished game of an older schema (the columns every revision has)
OLD_GAME = ("INSERT INTO games (id, variant, options, table_key, players, header, created, "
            "last_played, n_actions, assisted) VALUES ('abcdef123456', 'yatzy', '{}', "
            "'yatzy', '[{\"name\": \"Old\", \"kind\": \"person\"}]', '{}', "
            "'2025-01-01 10:00:00', '2025-01-01 10:00:00', 0, 0)")


@contextmanager
def migrations(db: str, make_file: bool = False) -> Iterator[tuple[Any, Any]]:
    """Alembic's config and a connection to ``db`` in one transaction (``make_file``: a new
    SQLite file is made first), for taking a database to a revision."""
    from alembic.config import Config

    from yacht.store import opening

    target = opening.resolve(db)
    if make_file and target.path is not None:
        opening.create_sqlite_file(target.path, make_dirs=False)
    eng = opening.make_engine(target)
    try:
        with eng.begin() as conn:
            cfg = Config()
            cfg.set_main_option("script_location",
                                str(Path(opening.__file__).with_name("migrations")))
            cfg.attributes["connection"] = conn
            yield cfg, conn
    finally:
        eng.dispose()


def database_at(db: str, revision: str, *statements: str) -> None:
    """Make the database ``db`` (a new SQLite file, or an empty server database) as an
    older version left it: the schema of ``revision``, then ``statements`` run in it."""
    from alembic import command
    from sqlalchemy import text

    with migrations(db, make_file=True) as (cfg, conn):
        command.upgrade(cfg, revision)
        for statement in statements:
            conn.execute(text(statement))


def downgrade_to(db: str, revision: str, *checks: str) -> list[Any]:
    """Take the store ``db`` back to ``revision``, as an older version left it; the first
    value of each query in ``checks``, run then."""
    from alembic import command
    from sqlalchemy import text

    with migrations(db) as (cfg, conn):
        command.downgrade(cfg, revision)
        return [conn.execute(text(q)).scalar() for q in checks]
