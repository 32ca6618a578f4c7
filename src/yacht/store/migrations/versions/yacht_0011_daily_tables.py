"""A daily challenge's web table carries its day in its settings (``daily``), which keeps
it private until the day is over; tables made before that was stored get it from their
game's day.

Revision ID: yacht_0011
Revises: yacht_0010
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "yacht_0011"
down_revision: str | None = "yacht_0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT t.id, t.settings, g.daily FROM web_tables t JOIN games g "
        "ON g.id = t.game_id WHERE g.daily IS NOT NULL")).all()
    for table_id, raw, day in rows:
        try:
            settings = json.loads(raw) if raw else {}
        except ValueError:
            settings = {}
        if not isinstance(settings, dict) or settings.get("daily") == day:
            continue
        settings["daily"] = day
        conn.execute(sa.text("UPDATE web_tables SET settings = :s WHERE id = :id"),
                     {"s": json.dumps(settings), "id": table_id})


def downgrade() -> None:
    """Nothing to undo: an older version reads no ``daily`` in a table's settings."""
