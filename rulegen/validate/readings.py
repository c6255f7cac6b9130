"""Readings: where a text is ambiguous, the reading we encode, as a note at the field it concerns."""

from __future__ import annotations

from rulegen.validate.core import Check, Context, dotted

# the reading's key in the jurisdiction data -> the field it concerns
READING_FIELDS = (("ante_table", ("paytables", "ante")), ("middle_both_push", ("paytables", "criss_cross")))


def readings(ctx: Context, check: Check) -> None:
    for key, node in READING_FIELDS:
        reading = ctx.j.reading(key)
        if reading and reading.get("reading"):
            ctx.add(check, node, "note", f"{dotted(node)}: {reading['reading']}", reading.get("citation"))


CHECKS = (
    Check("readings of ambiguous clauses", ("paytables",), ("rules", "middle_bet"), "reading", readings),
)
