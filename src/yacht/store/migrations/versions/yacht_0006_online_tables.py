"""Online tables that keep going: a game's turn clock, and a table's settings and series.

Revision ID: yacht_0006
Revises: yacht_0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0006"
down_revision: str | None = "yacht_0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # the turn its clock counts, since when, and each player's bank (JSON; null: no clock)
    op.add_column("games", sa.Column("clock", sa.Text, nullable=True))
    # a table's own settings (its clock, absence), and the games it played before (JSON)
    op.add_column("web_tables", sa.Column("settings", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("web_tables", "settings")
    op.drop_column("games", "clock")
