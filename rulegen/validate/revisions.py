"""Revisions: a new revision of an offering follows the one before it.

`build --previous OLD.yaml` and `diff OLD NEW` compare two revisions; the pair must be one offering's
revisions in order: the same offering id and jurisdiction, a higher version, and a later effective date.
Build refuses a pair that is not (errors); diff reports it and goes on (its caller chooses the level).
"""

from __future__ import annotations

from rulegen.findings import Finding
from rulegen.jurisdiction import FORMAT
from rulegen.offering import Offering
from rulegen.validate.core import describe, rule_code
from rulegen.validate.dates import as_date


def _field(offering: Offering, name: str):
    section = offering.data.get("offering")
    return section.get(name) if isinstance(section, dict) else None


def check_revision(previous: Offering, current: Offering, level: str = "error") -> list[Finding]:
    """Findings in `current` (one per problem) where it is not a later revision of `previous`."""
    findings: list[Finding] = []
    old = previous.display_path

    def add(name: str, slug: str, message: str) -> None:
        findings.append(current.finding(("offering", name), level, message, FORMAT,
                                        rule=rule_code(None, FORMAT, slug)))

    old_id, new_id = _field(previous, "id"), _field(current, "id")
    if old_id != new_id:
        add("id", "revision-id",
            f"offering.id is {describe(new_id)}, but the previous revision ({old}) is {describe(old_id)}; a revision "
            "keeps its offering's id")
    old_code, new_code = _field(previous, "jurisdiction"), _field(current, "jurisdiction")
    if old_code != new_code:
        add("jurisdiction", "revision-jurisdiction",
            f"offering.jurisdiction is {describe(new_code)}, but the previous revision ({old}) is "
            f"{describe(old_code)}; a revision stays in its jurisdiction (another state's offering is a new filing)")
    old_version, new_version = _field(previous, "version"), _field(current, "version")
    if isinstance(old_version, int) and isinstance(new_version, int) and not isinstance(old_version, bool) \
            and not isinstance(new_version, bool) and new_version <= old_version:
        add("version", "revision-version",
            f"offering.version is {new_version}, not above the previous revision's {old_version} ({old}); a new "
            "revision has a higher version")
    old_date, new_date = as_date(_field(previous, "effective_date")), as_date(_field(current, "effective_date"))
    if old_date is not None and new_date is not None and new_date <= old_date:
        add("effective_date", "revision-date",
            f"offering.effective_date is {new_date.isoformat()}, not after the previous revision's "
            f"{old_date.isoformat()} ({old}); a new revision takes effect later")
    return findings


REVISION_RULES = ("revision-id", "revision-jurisdiction", "revision-version", "revision-date")
