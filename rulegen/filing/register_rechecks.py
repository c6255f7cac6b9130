"""Re-verifications of recorded filings: each kept beside its entry, so the register shows a filing's current
verdict (the latest re-verification's) while its verdict on receipt stays as it was recorded.

The desk verifies an archived filing again with the trust roots of the day; a filing that arrived signed under an
authority the agency trusts only later becomes verified, and one whose archived bytes changed becomes failed.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection, Engine

from rulegen.filing.register_store import filings, rechecks
from rulegen.filing.verify import VerifyReport


def recheck_of(report: VerifyReport) -> dict[str, Any]:
    """What the register keeps of a re-verification: its status, trust, first problem and checks."""
    return {"status": report.status, "trust": report.trust_status if report.error is None else None,
            "first_problem": report.first_problem,
            "checks": [{"name": c.name, "status": c.status, "detail": c.detail} for c in report.checks]}


def record_recheck(engine: Engine, entry: int, *, status: str, trust: str | None, first_problem: str | None,
                   checks: list[dict[str, Any]], by: str | None, at: _dt.datetime | None = None) -> None:
    """Record a re-verification of register entry `entry` (`recheck_of` a report gives the fields); a LookupError
    if there is no such entry."""
    with engine.begin() as connection:
        if connection.execute(select(filings.c.id).where(filings.c.id == entry)).first() is None:
            raise LookupError(entry)
        connection.execute(insert(rechecks).values(
            filing_id=entry, at=at or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0), by=by,
            status=status, trust=trust, first_problem=first_problem, checks=json.dumps(checks, ensure_ascii=False)))


def latest_rechecks(connection: Connection, entries: list[int] | None = None) -> dict[int, dict[str, Any]]:
    """The latest re-verification of each entry (of `entries`, or of every one), by entry: when, by whom, its
    status, trust and first problem; an entry never verified again is absent."""
    query = select(rechecks).order_by(rechecks.c.id)
    if entries is not None:
        query = query.where(rechecks.c.filing_id.in_(entries))
    return {row["filing_id"]: {"at": row["at"], "by": row["by"], "status": row["status"], "trust": row["trust"],
                               "first_problem": row["first_problem"]}
            for row in connection.execute(query).mappings()}  # the last of each entry's wins
