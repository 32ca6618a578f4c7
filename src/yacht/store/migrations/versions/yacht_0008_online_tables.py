"""Online tables that keep going: a game's turn clock (a table's clock and absence
settings and its series are in ``web_tables.settings``, yacht_0007).

Revision ID: yacht_0008
Revises: yacht_0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0008"
down_revision: str | None = "yacht_0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # the turn its clock counts, since when, and each player's bank (JSON; null: no clock)
    op.add_column("games", sa.Column("clock", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "clock")
