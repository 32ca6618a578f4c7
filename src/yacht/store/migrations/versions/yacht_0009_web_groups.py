"""Duplicate tables: a group of one-seat online tables playing one secret seed at once.

Revision ID: yacht_0009
Revises: yacht_0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0009"
down_revision: str | None = "yacht_0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "web_groups",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("cards", sa.Text, nullable=False),
        sa.Column("expert", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_groups")
