"""Filings written straight into the desk's tables, for the tests of the queue's pages (thousands of uploads
through verification would take hours): each as many offerings' revisions, operators and jurisdictions as a
busy office's queue holds."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Engine

from rulegen.web.desk import store

JURISDICTIONS = ("PA", "NJ", "MD")


def seeded_row(number: int, *, uploaded_by: int, received_at: dt.datetime) -> dict[str, Any]:
    return {"received_at": received_at, "uploaded_by": uploaded_by, "status": store.STATUSES[number % 5],
            "assignee": None, "verdict": ("VERIFIED", "NOT TRUSTED", "FAILED")[number % 3],
            "verify_status": "verified", "verdict_text": "seeded", "offering_id": f"seeded-{number // 4:04d}",
            "revision": 1 + number % 4, "jurisdiction": JURISDICTIONS[number % 3],
            "operator": f"Operator {number % 7} Casino", "signer": "Compliance Officer",
            "rules_sha256": f"{number:064x}", "register_entry": None, "report": json.dumps({"flags": []})}


def seed(engine: Engine, count: int, *, uploaded_by: int = 1, first_day: dt.date = dt.date(2027, 1, 1)) -> list[dict]:
    """`count` filings, one received each day from `first_day`; the rows as inserted, in the order of their ids."""
    rows = [seeded_row(n, uploaded_by=uploaded_by,
                       received_at=dt.datetime.combine(first_day + dt.timedelta(days=n), dt.time(12),
                                                       tzinfo=dt.timezone.utc)) for n in range(count)]
    with engine.begin() as connection:
        connection.execute(insert(store.filings), rows)
    return rows
