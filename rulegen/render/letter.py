"""The desk's letter to the operator: a supervisor's decision on a filing (accepted, or returned with reasons) as
a PDF, laid out by templates/letter.html and written by the same renderer as every document: the shipped
fonts, the fetcher that reads the product's assets only, and the clock and file identifier derived from the
letter itself, so the same decision gives the same bytes. Everything the filing carries (the operator's name,
the offering's id) and the supervisor's reasons are text to the autoescaping sandbox, never markup."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from rulegen.render.environment import render_template
from rulegen.render.fetcher import SafeFetcher
from rulegen.render.pdf import ARCHIVAL_VARIANT, render_pdf
from rulegen.resources import assets_dir

DECISIONS = ("accepted", "returned")


@dataclass(frozen=True)
class Letter:
    """What the letter says. `date` (YYYY-MM-DD) is the decision's day: it dates the letter and its PDF."""

    office: str  # who writes: the jurisdiction's agency, as its data names it
    reference: str  # the desk's number for the filing, as the operator quotes it back
    date: str
    decision: str  # accepted | returned
    reasons: str  # the supervisor's note; required when the filing is returned
    decided_by: str
    operator: str | None
    offering_id: str | None
    revision: int | None
    jurisdiction: str | None
    effective_date: str | None
    received_on: str | None
    rules_sha256: str | None
    verdict: str  # the desk's verdict: VERIFIED, NOT TRUSTED, FAILED
    problems: tuple[str, ...] = ()  # what verification found wrong, in plain words

    def __post_init__(self) -> None:
        if self.decision not in DECISIONS:
            raise ValueError(f"a letter is for a decision of {' or '.join(DECISIONS)}, not {self.decision!r}")


def letter_html(letter: Letter) -> str:
    return render_template("letter.html", letter=letter, paragraphs=[p for p in letter.reasons.splitlines()
                                                                      if p.strip()])


def letter_pdf(letter: Letter) -> bytes:
    """The letter as a PDF/A-3u document, the same bytes for the same letter."""
    seed = json.dumps(asdict(letter), sort_keys=True, ensure_ascii=False).encode("utf-8")
    return render_pdf(letter_html(letter), fetcher=SafeFetcher(assets_dir()), effective_date=letter.date,
                      identifier_seed=b"letter" + seed, variant=ARCHIVAL_VARIANT)
