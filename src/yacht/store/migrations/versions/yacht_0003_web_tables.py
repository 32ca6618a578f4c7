"""Online tables: their seats (names, kinds, hashed seat tokens) before and during a game.

Revision ID: yacht_0003
Revises: yacht_0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0003"
down_revision: str | None = "yacht_0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "web_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.Column("closed", sa.DateTime, nullable=True),
    )
    op.create_index("ix_web_tables_closed", "web_tables", ["closed"])


def downgrade() -> None:
    op.drop_index("ix_web_tables_closed", "web_tables")
    op.drop_table("web_tables")
