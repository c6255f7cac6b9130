"""The three documents as bytes: the table sign, the math appendix, and rules.pdf from its HTML.

Render layer: each function turns what it is given (the resolved offering, the math results, the
DRAFT status, the attachments the filing layer prepared) into PDF bytes. It imports neither filing nor
validate; the build layer (`rulegen.assemble`) decides the order and hands each piece what it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulegen.render import appendix, rules, signfit
from rulegen.render.context import Draft
from rulegen.render.fetcher import SafeFetcher
from rulegen.render.pdf import ARCHIVAL_VARIANT, LaidOut, lay_out, render_pdf
from rulegen.render.prepress import PressProfile
from rulegen.resolved import ResolvedOffering
from rulegen.resources import assets_dir

if TYPE_CHECKING:
    from rulegen.math.results import MathReport


def fetcher_for(offering: ResolvedOffering) -> SafeFetcher:
    """The only reader the renderer gets: the product's assets, and the offering's logo as the loader read it."""
    loaded: Any = offering.offering
    logo = loaded.logo()
    return SafeFetcher(assets_dir(), {logo.name: logo.data} if logo is not None else {})


def effective_date(offering: ResolvedOffering) -> str | None:
    return offering.effective_date


def signage_pdf(offering: ResolvedOffering, *, draft: Draft, size: str = "letter",
                print_proof: bool = False, fetcher: SafeFetcher | None = None,
                profile: PressProfile | None = None) -> bytes:
    return signage_rendering(offering, draft=draft, size=size, print_proof=print_proof, fetcher=fetcher,
                             profile=profile).pdf


def signage_rendering(offering: ResolvedOffering, *, draft: Draft, size: str = "letter",
                      print_proof: bool = False, fetcher: SafeFetcher | None = None,
                      profile: PressProfile | None = None) -> signfit.SignRendering:
    """The sign fitted to its sheet: the PDF, the scale chosen, the layout measured, the logo's findings
    (a raster logo under 300 ppi is a warning; on a final sign it raises InvalidOfferingError). A printer's file
    is converted through `profile` (the shipped ISO Coated v2 by default)."""
    return signfit.render_signage_pdf(offering, draft=draft, size=size, print_proof=print_proof,
                                      fetcher=fetcher or fetcher_for(offering), profile=profile)


def appendix_pdf(offering: ResolvedOffering, results: MathReport, *, draft: Draft,
                 fetcher: SafeFetcher | None = None) -> bytes:
    html = appendix.render_appendix_html(offering, results, draft=draft)
    return render_pdf(html, fetcher=fetcher or fetcher_for(offering), effective_date=effective_date(offering),
                      identifier_seed=offering.offering.source + b"appendix", variant=ARCHIVAL_VARIANT)


def rules_html(offering: ResolvedOffering, results: MathReport, *, draft: Draft,
               signer: str | None = None, changes: dict[str, Any] | None = None) -> str:
    html: str = rules.render_rules_html(offering, results, draft=draft, signer=signer, changes=changes)
    return html


def standalone_html(html: str, fetcher: SafeFetcher) -> str:
    """rules.html as a build writes it: its fonts and logo embedded as data: URIs, so it opens anywhere."""
    from rulegen.render.standalone import self_contained

    return self_contained(html, fetcher)


def rules_docx(offering: ResolvedOffering, html: str) -> bytes:
    """rules.docx: the rules document as Word text to redline, marked on every page as not the filed document."""
    from rulegen.render.editable import rules_docx as editable_copy

    return editable_copy(html, title=f"Criss Cross Poker — Rules Submission ({offering.jurisdiction.name})",
                         operator=offering.operator.name, effective_date=effective_date(offering))


def rules_layout(offering: ResolvedOffering, html: str, fetcher: SafeFetcher | None = None) -> LaidOut:
    """rules.pdf laid out; `.write(attachments)` gives its bytes once the manifest to attach exists."""
    return lay_out(html, fetcher=fetcher or fetcher_for(offering), effective_date=effective_date(offering),
                   identifier_seed=offering.offering.source + b"rules", variant=ARCHIVAL_VARIANT)


def rules_pdf(offering: ResolvedOffering, html: str, attachments: list[Any], fetcher: SafeFetcher | None = None) -> bytes:
    return rules_layout(offering, html, fetcher).write(attachments)
