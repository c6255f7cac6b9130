"""The register of received filings: settings, filings, flags.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "register_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "filings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("offering_id", sa.String(200)),
        sa.Column("operator", sa.Text),
        sa.Column("jurisdiction", sa.String(32)),
        sa.Column("revision", sa.Integer),
        sa.Column("effective_date", sa.String(32)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("exit_code", sa.Integer, nullable=False),
        sa.Column("first_problem", sa.Text),
        sa.Column("rules_sha256", sa.String(64)),
        sa.Column("manifest_sha256", sa.String(64)),
        sa.Column("offering_sha256", sa.String(64)),
        sa.Column("signer", sa.Text),
        sa.Column("signer_subject", sa.Text),
        sa.Column("signer_fingerprint", sa.String(64)),
        sa.Column("signing_time", sa.String(40)),
        sa.Column("trust", sa.String(16)),
        sa.Column("errors", sa.Integer, nullable=False, server_default="0"),
        sa.Column("warnings", sa.Integer, nullable=False, server_default="0"),
        sa.Column("notes", sa.Integer, nullable=False, server_default="0"),
        sa.Column("checks", sa.Text, nullable=False),
        sa.Column("previous_id", sa.Integer, sa.ForeignKey("filings.id")),
        sa.Column("changes", sa.Text),
        sa.Column("offering_name", sa.Text),
        sa.Column("offering_source", sa.LargeBinary),
        sa.UniqueConstraint("offering_id", "revision", name="uq_filings_offering_revision"),
    )
    op.create_index("ix_filings_offering_id", "filings", ["offering_id"])
    op.create_index("ix_filings_signer_fingerprint", "filings", ["signer_fingerprint"])
    op.create_table(
        "flags",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("filing_id", sa.Integer, sa.ForeignKey("filings.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    )
    op.create_index("ix_flags_filing_id", "flags", ["filing_id"])


def downgrade() -> None:
    op.drop_table("flags")
    op.drop_table("filings")
    op.drop_table("register_settings")
