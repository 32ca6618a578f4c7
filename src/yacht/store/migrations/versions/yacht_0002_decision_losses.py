"""The advisor's expected-score loss per decision.

Revision ID: yacht_0002
Revises: yacht_0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0002"
down_revision: str | None = "yacht_0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "decision_losses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
    )
    op.create_index("ix_decision_losses_game", "decision_losses", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_decision_losses_game", "decision_losses")
    op.drop_table("decision_losses")
