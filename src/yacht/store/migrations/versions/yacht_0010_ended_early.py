"""Results of a game that ended at once (a served Generala), marked: a top ten lists the
winner's card as it stood, never the others' (their 0s were listed before).

Revision ID: yacht_0010
Revises: yacht_0009
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "yacht_0010"
down_revision: str | None = "yacht_0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("results", sa.Column("ended_early", sa.Boolean, nullable=False,
                                       server_default=sa.false()))
    _mark_games_ended_at_once(op.get_bind())


def downgrade() -> None:
    op.drop_column("results", "ended_early")


def _mark_games_ended_at_once(conn: sa.Connection) -> None:
    """Replay the finished games of the variants whose rules may end a game at once, and
    mark the results of those that ended so (a game that no longer replays is left)."""
    from yacht.engine import Player, Record, action_from_json
    from yacht.rules import all_variants

    may_end = sorted(rs.id for rs in all_variants()
                     if any(rule.end_reason(rs) for rule in rs.special))
    if not may_end:
        return
    finished = conn.execute(sa.text(
        "SELECT id, variant, options, players FROM games WHERE finished IS NOT NULL "
        "AND variant IN :variants").bindparams(sa.bindparam("variants", expanding=True)),
        {"variants": may_end}).all()
    for game_id, variant, options, players in finished:
        raw = conn.execute(sa.text("SELECT action FROM actions WHERE game_id = :id "
                                   "ORDER BY idx"), {"id": game_id}).scalars().all()
        try:
            record = Record(variant, {str(k): str(v) for k, v in json.loads(options).items()},
                            [Player.from_json(p) for p in json.loads(players)],
                            [action_from_json(json.loads(a)) for a in raw])
            ended = record.final_state().ended_by is not None
        except Exception:  # damaged, or of rules this version plays otherwise: as it was
            continue
        if ended:
            conn.execute(sa.text("UPDATE results SET ended_early = :yes WHERE game_id = :id"),
                         {"yes": True, "id": game_id})
