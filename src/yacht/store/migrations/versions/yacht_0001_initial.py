"""Games, their action logs and the players' results.

Revision ID: yacht_0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("table_key", sa.String(255), nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("last_played", sa.DateTime, nullable=False),
        sa.Column("finished", sa.DateTime, nullable=True),
        sa.Column("n_actions", sa.Integer, nullable=False),
        sa.Column("assisted", sa.Integer, nullable=False),
        sa.Column("scores", sa.Text, nullable=True),
    )
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("table_key", sa.String(255), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("multiplayer", sa.Boolean, nullable=False),
        sa.Column("upper_bonus", sa.Boolean, nullable=True),
        sa.Column("yachts", sa.Integer, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("finished", sa.DateTime, nullable=False),
    )
    op.create_index("ix_results_table", "results", ["table_key", "assisted", "kind", "score"])
    op.create_index("ix_results_name", "results", ["name"])


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("actions")
    op.drop_index("ix_games_finished", "games")
    op.drop_table("games")
