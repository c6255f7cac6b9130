"""Readings: where a text is ambiguous, the reading we encode, as a note at the field it concerns."""

from __future__ import annotations

from rulegen.resolved import resolve_paytable
from rulegen.validate.core import Check, Context, dotted

# the reading's key in the jurisdiction data -> the field it concerns
READING_FIELDS = (("ante_table", ("paytables", "ante")), ("middle_both_push", ("paytables", "criss_cross")))


def _ante_table(ctx: Context) -> str | None:
    """The authorized ante table the offering's is or matches (None: one of its own, or none the data knows)."""
    choice = (ctx.data.get("paytables") or {}).get("ante", "standard")
    try:
        return resolve_paytable(ctx.j, "ante", choice)[1]
    except Exception:  # a table the schema or the paytable checks already report
        return None


def readings(ctx: Context, check: Check) -> None:
    for key, node in READING_FIELDS:
        reading = ctx.j.reading(key)
        tables = (reading or {}).get("when", {}).get("ante_table")
        if tables is not None and _ante_table(ctx) not in tables:
            continue  # a reading of the ante table this offering does not pay from
        if reading and reading.get("kind") == "waiver":  # a departure the text has no waiver for: a DRAFT only
            ctx.add(check, node, "warning", f"{dotted(node)}: {reading.get('final') or reading['reading']} A DRAFT "
                    "can put the question to the regulator; --final refuses it.", reading.get("citation"),
                    rule="waiver")
        elif reading and reading.get("reading"):
            ctx.add(check, node, "note", f"{dotted(node)}: {reading['reading']}", reading.get("citation"))


CHECKS = (
    Check("readings of ambiguous clauses", ("paytables",), ("rules", "middle_bet"), "reading", readings,
          also=("waiver",)),
)
