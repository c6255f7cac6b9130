"""Each re-verification of a recorded filing, kept beside the entry: the entry's own status stays the verdict on
receipt, and the latest re-verification is its current one.

Before this, a filing verified again (by the desk, with the trust roots of a later day) kept the register's
verdict of the day it arrived for good.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rechecks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("filing_id", sa.Integer, sa.ForeignKey("filings.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.Text),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("trust", sa.String(16)),
        sa.Column("first_problem", sa.Text),
        sa.Column("checks", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rechecks")
