"""Committed dice: each game's secret seed, and the "dice entered" marks of games and results.

Revision ID: yacht_0005
Revises: yacht_0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0005"
down_revision: str | None = "yacht_0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # the seed (hex) the game's dice come from: secret until the game is finished (older
    # games have none); a game with a roll entered by hand (real dice), and its results
    op.add_column("games", sa.Column("seed", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("dice_entered", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("results", sa.Column("dice_entered", sa.Boolean, nullable=False,
                                       server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("results", "dice_entered")
    op.drop_column("games", "dice_entered")
    op.drop_column("games", "seed")
