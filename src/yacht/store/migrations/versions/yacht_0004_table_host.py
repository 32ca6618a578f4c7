"""Online tables: the hashed token of the browser that made the table (its host).

Revision ID: yacht_0004
Revises: yacht_0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0004"
down_revision: str | None = "yacht_0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("web_tables", sa.Column("host", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("web_tables", "host")
