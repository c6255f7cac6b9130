"""A filing's review beyond the queue: the supervisor's decision with the letter it writes to the operator,
re-verification of the archived files with the trust roots of the day, and the revision history with the diff
(the changes and the mathematics) against the previous recorded revision. The checking is verify's, the diff the
diff package's and the letter the renderer's; this module only puts them together for the desk."""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from rulegen.filing.rebuild import Reproducer
from rulegen.filing.register_rechecks import record_recheck, recheck_of
from rulegen.render.letter import Letter, letter_pdf
from rulegen.web.desk import intake, store
from rulegen.web.desk.words import PLAIN

DEFAULT_OFFICE = "The regulator's desk"


def archived(archive: Path, digest: str) -> Path:
    return archive / digest[:2] / digest


def _office(jurisdiction: str | None) -> str:
    """Who writes the letter: the agency the jurisdiction's data names (the cited value), else the desk."""
    from rulegen.jurisdiction import load_jurisdiction

    if not jurisdiction:
        return DEFAULT_OFFICE
    try:
        agency = load_jurisdiction(jurisdiction).cited("agency")
    except Exception:  # an unknown code, or data without an agency: the letter still goes out
        return DEFAULT_OFFICE
    if agency is None or not agency.value:
        return DEFAULT_OFFICE
    name = str(agency.value)
    return name[:1].upper() + name[1:]  # a heading: "Card room's management", as the rules' cover gives it


def compose_letter(entry: dict[str, Any], *, decision: str, note: str, user: store.User,
                   day: _dt.date) -> Letter:
    problems = tuple(f"{PLAIN.get(c['name'], c['name'])}: {c['detail']}" for c in entry.get("checks", [])
                     if c.get("ok") is False)
    received = entry.get("received_at")
    return Letter(office=_office(entry.get("jurisdiction")), reference=f"Desk filing {entry['id']}",
                  date=day.isoformat(), decision=decision, reasons=note, decided_by=user.name,
                  operator=entry.get("operator"), offering_id=entry.get("offering_id"), revision=entry.get("revision"),
                  jurisdiction=entry.get("jurisdiction"), received_on=received[:10] if received else None,
                  effective_date=(entry.get("effective_date") or None), rules_sha256=entry.get("rules_sha256"),
                  verdict=str(entry.get("verdict")), problems=problems)


def decide(engine: Engine, archive: Path, filing_id: int, *, user: store.User, address: str | None, decision: str,
           note: str) -> None:
    """Record a supervisor's decision and write the letter to the operator: rendered as a PDF, archived by its
    SHA-256, recorded with the decision in one transaction (an event names it)."""
    if not user.decides:
        raise PermissionError("only a supervisor records a decision")
    if decision not in store.DECISIONS:
        raise store.DeskError(f"the decision is {decision!r}; it is accepted or returned")
    note = (note or "").strip()
    entry = store.get_filing(engine, filing_id)
    if entry is None:
        raise LookupError(filing_id)
    if entry["status"] not in ("received", "in review"):
        raise store.DeskError(f"filing {filing_id} is already {entry['status']}")
    if decision == "returned" and not note:
        raise store.DeskError("a filing is returned with the reasons: write them in the note")
    if len(note) > 10_000:
        raise store.DeskError("a note is at most 10,000 characters")
    letter = compose_letter(entry, decision=decision, note=note, user=user, day=store.now().date())
    with intake.RENDERING:
        pdf = letter_pdf(letter)
    digest = intake.archive(archive, pdf)
    store.decide(engine, filing_id, user=user, address=address, decision=decision, note=note,
                 letter=(f"letter-{filing_id}-{decision}.pdf", digest, len(pdf)))


def reverify(engine: Engine, archive: Path, filing_id: int, *, user: store.User, address: str | None,
             roots: Callable[[], list[Any]], reproduce: Reproducer) -> str:
    """Verify the archived files again, in full, with the trust roots as they are now; record it, on the desk and
    beside the filing's register entry (whose verdict on receipt stays). The verdict."""
    entry = store.get_filing(engine, filing_id)
    if entry is None:
        raise LookupError(filing_id)
    found, damaged = {}, []
    for item in entry["files"]:
        data = archived(archive, item["sha256"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != item["sha256"]:
            damaged.append(item["name"])
        found[item["name"]] = data
    today = roots()
    if damaged:
        problem = "the archive no longer holds the bytes received: changed since: " + ", ".join(damaged)
        summary: dict[str, Any] = {"verdict": "FAILED: the archive no longer holds the bytes received",
                                   "checks": [{"name": "archive", "ok": False, "warning": False, "status": "FAIL",
                                               "detail": "changed since they were received: " + ", ".join(damaged)}]}
        verdict = "FAILED"
        kept: dict[str, Any] = {"status": "failed", "trust": None, "first_problem": problem,
                "checks": [{"name": "archive", "status": "FAIL", "detail": problem}]}
    else:
        report = intake.verify_files(found, roots=today, reproduce=reproduce,
                                     shown=f"desk filing {filing_id}/rules.pdf")
        verdict, summary = intake.summary_of(report)
        kept = recheck_of(report)
    if entry.get("register_entry") is not None:  # the register's entry shows the current verdict too
        record_recheck(engine, entry["register_entry"], by=f"desk user {user.name}", **kept)
    store.add_verification(engine, filing_id, user=user, address=address, verdict=verdict, report=summary,
                           trust_roots=len(today), was=entry["current_verdict"])
    return verdict


def revision_diff(engine: Engine, archive: Path, entry: dict[str, Any],
                  history: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The changes and the mathematics from the previous recorded revision of the offering to this filing, read
    from the offerings the two archived rules.pdf carry; None when there is no earlier revision. `trusted` is
    False unless both filings are verified now (their latest verification, a re-verification with today's roots
    counting): else the changes are what a filing claims, not what was proven."""
    from rulegen.errors import RulegenError
    from rulegen.filing.diff import changes_json, diff_offerings, math_diff, offering_from_path

    previous = store.previous_revision(history, entry["id"], entry.get("revision"))
    if previous is None:
        return None
    older = store.get_filing(engine, previous["id"])
    assert older is not None
    untrusted = [f"filing {f['id']} (revision {f['revision']}) is {f['current_verdict']}" for f in (older, entry)
                 if f["current_verdict"] != "VERIFIED"]
    shown = {"previous": previous, "trusted": not untrusted, "untrusted": untrusted}
    try:
        offerings = []
        for filing in (older, entry):
            digest = next((f["sha256"] for f in filing["files"] if f["name"] == "rules.pdf"), None)
            if digest is None:
                raise RulegenError(f"filing {filing['id']} has no rules.pdf")
            offerings.append(offering_from_path(archived(archive, digest), display=f"filing {filing['id']}"))
        changes = diff_offerings(offerings[0], offerings[1])
        mathematics = math_diff(offerings[0], offerings[1]) if changes else {"changes": [], "note": None}
    except RulegenError as exc:
        return {**shown, "error": str(exc)}
    return {**shown, "error": None,
            **changes_json(changes, f"filing {older['id']}", f"filing {entry['id']}", mathematics)}
