"""Alembic environment: runs on the connection that :mod:`yacht.store.opening` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection


def run(connection: Connection) -> None:
    context.configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    try:
        config = context.config
    except AttributeError:  # imported outside an Alembic run (e.g. by doctest collection)
        return
    connection = config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("yacht migrations run through yacht.store.open_store()")
    run(connection)


_main()
