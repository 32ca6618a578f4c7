"""The daily challenge: each day's seed per variant, and the games played on one.

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
    op.add_column("games", sa.Column("daily", sa.String(10), nullable=True))
    op.create_index("ix_games_daily", "games", ["daily", "variant"])
    op.create_table(
        "dailies",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("variant", sa.String(64), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("expert", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("dailies")
    op.drop_index("ix_games_daily", "games")
    op.drop_column("games", "daily")
