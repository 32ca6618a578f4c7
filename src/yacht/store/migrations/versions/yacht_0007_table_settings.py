"""Online tables: the table's own settings, chosen when it is made (not the variant's
options): a JSON object, e.g. ``{"reactions": false}``; none is every default.

Revision ID: yacht_0007
Revises: yacht_0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0007"
down_revision: str | None = "yacht_0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("web_tables", sa.Column("settings", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("web_tables", "settings")
