"""Alembic migrations of the store (applied by :func:`yacht.store.open_store`)."""
