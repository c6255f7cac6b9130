"""Alembic's environment for the register: run on the connection `register_store.upgrade` hands over."""

from __future__ import annotations

from alembic import context

from rulegen.filing.register_store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("the register's migrations run through rulegen.filing.register_store.upgrade")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
