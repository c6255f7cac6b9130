"""What every document shows about its offering: the running header and footer, DRAFT, the logo, sign-offs.

Only reading and arranging here; every figure a document prints comes from `rulegen.math` or
`rulegen.game`, and every rule's words and citation from the jurisdiction data and the templates.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulegen import __version__, vocabulary
from rulegen.errors import InvalidOfferingError
from rulegen.render.fetcher import offering_url
from rulegen.render.pdf import w3c_datetime

SIGNOFF_ROLES = vocabulary.ROLES
ROLE_TITLES = vocabulary.ROLE_TITLES


@dataclass(frozen=True)
class Draft:
    """Whether the documents say DRAFT, and why."""

    draft: bool
    missing_roles: tuple[str, ...]
    final_requested: bool

    @property
    def reason(self) -> str:
        if not self.draft:
            return "Final: every sign-off role is given and the build was made final."
        if self.missing_roles:
            return "DRAFT: the sign-off of " + ", ".join(self.missing_roles) + " is missing."
        return "DRAFT: every sign-off is given, but the build was not made final (--final)."


def signoff_roles(data: dict) -> set[str]:
    return {str(entry.get("role")) for entry in data.get("signoff") or [] if isinstance(entry, dict)
            and entry.get("name")}


def draft_status(data: dict, final: bool) -> Draft:
    """DRAFT unless all three roles signed off and --final was given; --final without them is an error."""
    missing = tuple(role for role in SIGNOFF_ROLES if role not in signoff_roles(data))
    if final and missing:
        raise InvalidOfferingError(
            "--final needs the sign-off of every role (prepared, reviewed, approved); missing: " + ", ".join(missing)
            + ". Add them under `signoff:` in the offering, or build without --final for a DRAFT.")
    return Draft(draft=not (final and not missing), missing_roles=missing, final_requested=final)


def signoffs(data: dict, signer: str | None = None) -> list[dict]:
    """The sign-off page's rows: each role in order, given or left blank, then the digital signer if any."""
    given = {str(entry.get("role")): entry for entry in data.get("signoff") or [] if isinstance(entry, dict)}
    rows = []
    for role in SIGNOFF_ROLES:
        entry = given.get(role) or {}
        rows.append({"role": role, "label": ROLE_TITLES[role], "name": entry.get("name"),
                     "title": entry.get("title"), "date": entry.get("date"), "given": bool(entry.get("name"))})
    if signer:
        rows.append({"role": "signed", "label": "Signed digitally by", "name": signer, "title": None,
                     "date": None, "given": True})
    return rows


def document_info(offering, jurisdiction, *, kind: str, title: str, short_title: str, draft: Draft) -> dict:
    data = offering.data
    head = data.get("offering") or {}
    operator = head.get("operator") or {}
    logo = operator.get("logo")
    return {
        "kind": kind,
        "title": title,
        "short_title": short_title,
        "description": f"{title} — {operator.get('name')} — {head.get('id')} version {head.get('version')}",
        "operator": operator.get("name"),
        "licence": operator.get("licence"),
        "logo_url": offering_url(logo) if logo else None,
        "offering_id": head.get("id"),
        "version": head.get("version"),
        "effective_date": head.get("effective_date"),
        "created": w3c_datetime(head.get("effective_date")),
        "jurisdiction_code": jurisdiction.code,
        "jurisdiction_name": jurisdiction.name,
        "sha256": offering.sha256,
        "sha256_prefix": offering.sha256[:16],
        "offering_file": offering_file_name(offering),
        "rulegen_version": __version__,
        "draft": draft.draft,
        "draft_reason": draft.reason,
    }


def offering_file_name(offering) -> str:
    path = getattr(offering, "path", None)
    name = getattr(path, "name", None) if path is not None else None
    return name or "offering.yaml"
