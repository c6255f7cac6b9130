"""The PAdES level of each filing's signature, its timestamp and its revocation proof.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Filings registered before this revision keep NULL: their level was not recorded, not "none".
    op.add_column("filings", sa.Column("pades_level", sa.String(8)))
    op.add_column("filings", sa.Column("timestamp", sa.String(40)))
    op.add_column("filings", sa.Column("revocation", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("filings") as batch:
        batch.drop_column("revocation")
        batch.drop_column("timestamp")
        batch.drop_column("pades_level")
