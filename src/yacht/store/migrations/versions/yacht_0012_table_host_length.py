"""Online tables: room in ``host`` for a table that waits for a `yacht resume --web`
link's claim ("claim:" and a SHA-256 in hex, 70 characters). SQLite kept such a host
in the 64 characters of yacht_0004; PostgreSQL refused it, so `yacht resume ID --web`
failed on PostgreSQL.

Revision ID: yacht_0012
Revises: yacht_0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "yacht_0012"
down_revision: str | None = "yacht_0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.alter_column("host", type_=sa.String(80), existing_type=sa.String(64),
                           existing_nullable=True)


def downgrade() -> None:
    # (a link's claim does not fit the older column: such a table waits for no one then)
    op.execute("UPDATE web_tables SET host = NULL WHERE host LIKE 'claim:%'")
    with op.batch_alter_table("web_tables") as batch:
        batch.alter_column("host", type_=sa.String(64), existing_type=sa.String(80),
                           existing_nullable=True)
