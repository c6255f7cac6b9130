"""Validation: the JSON Schemas of the offering format and each jurisdiction, then the registered checks
that need exact money, the jurisdiction's data or a computed figure (the payout-limit floor).

Layer: validate (uses math for the maximum win, load, jurisdiction; never render or filing). Every finding
carries the node path of the offending field, its line and column, the citation of the rule broken and the
rule's stable code. Validation never prints and never exits: the command line does.

`CHECKS` is the one list of registered checks, in the order they run; each module holds one group.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulegen.errors import ExitCode
from rulegen.findings import Finding, worst_level
from rulegen.jurisdiction import FORMAT, codes, load_jurisdiction
from rulegen.offering import Offering, OfferingLoadError, load_offering
from rulegen.validate import bonus_spin, cards, dates, limits, numbers, paytables, payout_limit, readings, text
from rulegen.validate.core import Check, Context, non_finite_numbers
from rulegen.validate.schema import jsonable, schema_findings
from rulegen.validate.revisions import check_revision
from rulegen.validate.text import logo_problem, unprintable_characters

CHECKS: tuple[Check, ...] = (
    *numbers.CHECKS,
    *text.CHECKS,
    *dates.CHECKS,
    *limits.CHECKS,
    *cards.CHECKS,
    *paytables.CHECKS,
    *bonus_spin.CHECKS,
    *readings.CHECKS,
    *payout_limit.CHECKS,
)


def rule_slugs() -> dict[str, str]:
    """Every rule slug a finding may carry, with what it checks: the registered checks', the jurisdiction
    schemas' `x-rule`s, and the offering format's schema keywords (jurisdictions/README.md lists them)."""
    from rulegen.validate.revisions import REVISION_RULES
    from rulegen.validate.schema import KEYWORD_RULES, schema_rules

    slugs: dict[str, str] = {}
    for check in CHECKS:
        for slug in check.slugs:
            slugs.setdefault(slug, check.name)
    for slug, what in schema_rules().items():
        slugs.setdefault(slug, what)
    for keyword, slug in KEYWORD_RULES.items():
        slugs.setdefault(slug, f"offering format: JSON Schema {keyword}")
    for slug in REVISION_RULES:
        slugs.setdefault(slug, "a revision follows the previous one (build --previous, diff)")
    slugs.setdefault("internal", "an offering the checks could not finish (a fault in rulegen)")
    return slugs


def validate_offering(offering: Offering) -> list[Finding]:
    """Every finding for one loaded offering: schema errors, rule checks, readings; sorted by place."""
    jurisdiction = _jurisdiction(offering.data)
    non_finite = {node for node, _value in non_finite_numbers(offering.data)}
    # the schema sees a non-finite number as null; its own check says what is wrong with it. A node the loader
    # found wrong (a duplicated key, a number out of range) holds no value to judge: its finding is the loader's.
    broken = set(offering.broken)
    findings = [f for f in schema_findings(offering, jsonable(offering.data), jurisdiction)
                if f.node not in non_finite and not _inside(f.node, broken)]
    findings.extend(offering.load_findings)
    ctx = Context(offering, jurisdiction, {f.node for f in findings if f.node is not None} | non_finite | broken)
    for check in CHECKS:
        if check.jurisdictional and jurisdiction is None:
            continue
        if check.needs and check.blocked_by(findings + ctx.findings):
            continue  # its figure would be computed from a broken part; every other check still runs
        check.run(ctx, check)
    findings.extend(ctx.findings)
    unique: dict[tuple, Finding] = {}
    for finding in findings:
        unique.setdefault((finding.line, finding.column, finding.level, finding.message), finding)
    return sorted(unique.values(), key=Finding.sort_key)


def _inside(node, nodes: set) -> bool:
    return node is not None and any(tuple(node[:len(other)]) == other for other in nodes)


def _jurisdiction(data: dict):
    section = data.get("offering")
    code = section.get("jurisdiction") if isinstance(section, dict) else None
    return load_jurisdiction(code) if isinstance(code, str) and code in codes() else None


@dataclass
class FileReport:
    path: str
    status: int
    findings: list[Finding]
    offering: Offering | None = None

    def to_json(self) -> dict:
        return {"path": self.path, "status": self.status, "findings": [f.to_json() for f in self.findings]}


def validate_file(path: str | Path, display_path: str | None = None) -> FileReport:
    display = display_path or str(path)
    try:
        offering = load_offering(path, display, keep_going=True)  # a wrong value does not hide the other findings
    except OfferingLoadError as exc:
        return FileReport(display, int(exc.exit_code), exc.findings)
    try:
        findings = validate_offering(offering)
    except Exception as exc:  # one broken file never stops a batch: it is reported, and the batch goes on
        finding = Finding(display, 1, 1, "error", f"could not be checked: internal error {type(exc).__name__}: {exc}",
                          FORMAT, rule="FORMAT-internal")
        return FileReport(display, int(ExitCode.UNUSABLE), [finding], offering)
    status = ExitCode.INVALID if worst_level(findings) == "error" else ExitCode.OK
    return FileReport(display, int(status), findings, offering)


__all__ = ["CHECKS", "Check", "FileReport", "check_revision", "rule_slugs", "logo_problem", "unprintable_characters", "validate_file",
           "validate_offering"]
