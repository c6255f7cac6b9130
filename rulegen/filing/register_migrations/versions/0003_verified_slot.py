"""Only a verified filing holds its (offering id, revision): `slot_revision` is the revision of a verified filing and
NULL for any other, and the unique constraint moves from (offering_id, revision) to (offering_id, slot_revision).

Before this, an unsigned draft or a failed filing took the pair, and the genuine signed filing that came after it
was refused as a duplicate.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("filings") as batch:
        batch.add_column(sa.Column("slot_revision", sa.Integer))
        batch.drop_constraint("uq_filings_offering_revision", type_="unique")
        batch.create_unique_constraint("uq_filings_offering_slot", ["offering_id", "slot_revision"])
    op.execute("UPDATE filings SET slot_revision = revision WHERE status = 'verified'")


def downgrade() -> None:
    with op.batch_alter_table("filings") as batch:
        batch.drop_constraint("uq_filings_offering_slot", type_="unique")
        batch.create_unique_constraint("uq_filings_offering_revision", ["offering_id", "revision"])
        batch.drop_column("slot_revision")
