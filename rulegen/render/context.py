"""What every document shows about its offering: the running header and footer, DRAFT, the logo, sign-offs.

Only reading and arranging here; every figure a document prints comes from `rulegen.math` or
`rulegen.game`, and every rule's words and citation from the jurisdiction data and the templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from rulegen import __version__, clauses, vocabulary
from rulegen.errors import InvalidOfferingError
from rulegen.render.fetcher import offering_url
from rulegen.render.pdf import w3c_datetime

if TYPE_CHECKING:
    from rulegen.offering import Offering
    from rulegen.resolved import ResolvedOffering

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
            return "Final: every sign-off role is named and the submission is issued as final."
        if self.missing_roles:
            return "DRAFT: the sign-off of " + ", ".join(self.missing_roles) + " is missing."
        return "DRAFT: every sign-off is given, but the submission has not yet been issued as final."


class SignoffRow(TypedDict):
    role: str
    label: str
    name: str | None
    title: str | None
    date: str | None
    given: bool


class DocumentInfo(TypedDict):
    """What every document's header, footer and PDF metadata say about the offering."""

    kind: str
    title: str
    short_title: str
    description: str
    operator: str
    licence: str | None
    logo_url: str | None
    offering_id: str
    version: int
    effective_date: str | None
    created: str
    jurisdiction_code: str
    jurisdiction_name: str
    sha256: str
    sha256_prefix: str
    offering_file: str
    rulegen_version: str
    draft: bool
    draft_reason: str


def signoff_roles(offering: ResolvedOffering) -> set[str]:
    return {entry.role for entry in offering.signoffs if entry.name}


def refuse_final_without(missing: tuple[str, ...]) -> None:
    """--final without every sign-off role is an error, saying how the entries are written."""
    if missing:
        raise InvalidOfferingError(
            "--final needs the sign-off of every role (prepared, reviewed, approved); missing: " + ", ".join(missing)
            + ". Add them under `signoff:` in the offering, one line each (`- {role: prepared, name: ..., title: "
            "..., date: YYYY-MM-DD}`), or build without --final for a DRAFT.")


def draft_status(offering: ResolvedOffering, final: bool) -> Draft:
    """DRAFT unless all three roles signed off and --final was given; --final without them is an error."""
    missing = tuple(role for role in SIGNOFF_ROLES if role not in signoff_roles(offering))
    if final:
        refuse_final_without(missing)
    spin = offering.bonus_spin
    if final and spin is not None and spin.community_wheel and not spin.community_weighted:
        raise InvalidOfferingError(
            "--final needs the Community Prize Wheel's weights (bonus_spin.community_wheel, a weight for every "
            "amount of the designated wheel, from the manufacturer's par sheet): the Bonus Spin's return counts what "
            "that wheel pays the other players. Add them, or build without --final for a DRAFT.")
    if final and spin is not None and not spin.weighted:
        raise InvalidOfferingError(
            "--final needs the Bonus Spin wheel's segment weights (bonus_spin.wheel, a weight for every segment, "
            "from the manufacturer's par sheet): a filed math appendix states the return of every wager offered, "
            "and the Bonus Spin's return rests on how often the wheel stops on each segment. Add them, or build "
            "without --final for a DRAFT, whose appendix gives the return as a formula in the wheel's mean prize.")
    if final:
        refuse_final_waivers(offering)
    return Draft(draft=not (final and not missing), missing_roles=missing, final_requested=final)


def waivers_asked(offering: ResolvedOffering) -> list[dict[str, Any]]:
    """The readings of kind `waiver` this offering's choices meet: departures from the text, which a filing can only
    ask the regulator for."""
    from rulegen.resolved import clause_config

    config = clause_config(offering)
    return [entry for entry in offering.jurisdiction.readings()
            if entry.get("kind") == "waiver" and clauses.unmet(entry.get("when") or {}, config) is None]


def refuse_final_waivers(offering: ResolvedOffering) -> None:
    """--final with a choice that departs from the text is an error: the text provides no waiver, so such a filing
    cannot be approved as submitted; a DRAFT can still put the question to the regulator."""
    asked = waivers_asked(offering)
    if asked:
        entry = asked[0]
        raise InvalidOfferingError(
            f"--final cannot file a departure from {entry.get('citation')}: "
            f"{entry.get('final') or entry.get('reading')} Build without --final for a DRAFT, which puts the "
            "question to the regulator.")


def signoffs(offering: ResolvedOffering, signer: str | None = None) -> list[SignoffRow]:
    """The sign-off page's rows: each role in order, given or left blank, then the digital signer if any."""
    given = {entry.role: entry for entry in offering.signoffs}
    rows: list[SignoffRow] = []
    for role in SIGNOFF_ROLES:
        entry = given.get(role)
        rows.append({"role": role, "label": ROLE_TITLES[role], "name": entry.name if entry else None,
                     "title": entry.title if entry else None, "date": entry.date if entry else None,
                     "given": bool(entry and entry.name)})
    if signer:
        rows.append({"role": "signed", "label": "Signed digitally by", "name": signer, "title": None,
                     "date": None, "given": True})
    return rows


def document_info(offering: ResolvedOffering, *, kind: str, title: str, short_title: str,
                  draft: Draft) -> DocumentInfo:
    """`offering` is the resolved offering (`rulegen.resolved.ResolvedOffering`)."""
    operator = offering.operator
    logo = operator.logo
    loaded = offering.offering
    return {
        "kind": kind,
        "title": title,
        "short_title": short_title,
        "description": f"{title} — {operator.name} — {offering.id} version {offering.version}",
        "operator": operator.name,
        "licence": operator.licence,
        "logo_url": offering_url(logo) if logo else None,
        "offering_id": offering.id,
        "version": offering.version,
        "effective_date": offering.effective_date,
        "created": w3c_datetime(offering.effective_date),
        "jurisdiction_code": offering.jurisdiction.code,
        "jurisdiction_name": offering.jurisdiction.name,
        "sha256": loaded.sha256,
        "sha256_prefix": loaded.sha256[:16],
        "offering_file": offering_file_name(loaded),
        "rulegen_version": __version__,
        "draft": draft.draft,
        "draft_reason": draft.reason,
    }


def offering_file_name(offering: Offering) -> str:
    path = getattr(offering, "path", None)
    name = getattr(path, "name", None) if path is not None else None
    return name or "offering.yaml"


def max_win_reading(jurisdiction: Any, config: clauses.OfferingConfig | None) -> dict[str, Any] | None:
    """The reading of what the maximum win at the minimum wager counts, for a table of this configuration: the first
    `max_win_at_minimum…` reading whose `when` it meets (a jurisdiction may give one per set of wagers), else the
    reading on the jurisdiction's `counted_in_max_win` where a limit is set. The rules and the appendix print this
    one reading, so the two never count the figure differently."""
    for entry in jurisdiction.data.get("readings") or []:
        if (str(entry.get("key", "")).startswith("max_win_at_minimum")
                and (config is None or clauses.unmet(entry.get("when") or {}, config) is None)):
            return dict(entry)
    counted = jurisdiction.cited("payout_limit", "counted_in_max_win")
    if counted is not None and counted.reading and (config is None or config.payout_limit):
        return {"reading": counted.reading, "citation": counted.citation}
    return None
