"""What `rulegen preview` shows after each save: the findings, the rules document and the sign, as HTML.

The same steps as a build, up to the HTML: validate (every finding, as `rulegen validate` gives them), settle,
the math (from the math layer's cache and memos, so a save that changes only words computes nothing again), the
rules document and the sign. No PDF is made: the sign is its HTML at the type size the layout estimates (the
build fits it to the sheet). Whatever the offering holds, a refresh returns a result, never raises: a file that
does not load gives its findings; a failure while rendering is a finding too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulegen.errors import ExitCode
from rulegen.findings import Finding
from rulegen.render import documents, signage, standalone
from rulegen.render.context import draft_status
from rulegen.render.fetcher import OFFERING_SCHEME
from rulegen.safeio import UnsafeFile, read_regular

MAX_SOURCE_BYTES = 1 << 20  # the loader refuses larger offerings; the page shows no more of one


@dataclass(frozen=True)
class PreviewDocuments:
    """The two documents of one save that built, their resources named by the preview's `link`."""

    rules_html: str
    sign_html: str
    logo: str | None  # the offering's logo file name, so a save of the logo refreshes the page too


@dataclass(frozen=True)
class Preview:
    path: str
    findings: tuple[Finding, ...]
    source_lines: tuple[str, ...]  # the file as saved, for showing each finding at its line
    documents: PreviewDocuments | None  # None: this save did not get as far as the documents
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def status(self) -> str:
        if any(f.level == "error" for f in self.findings):
            return "invalid"
        return "built" if self.documents is not None else "invalid"


def source_lines(path: Path) -> tuple[str, ...]:
    try:
        data = read_regular(path, MAX_SOURCE_BYTES, follow_symlinks=True)
    except UnsafeFile:
        return ()
    return tuple(data.decode("utf-8", errors="replace").splitlines())


def preview(path: Path, display: str, link: Callable[[str], str]) -> Preview:
    """One refresh of the preview of the offering at `path`. `link(url)` names a resource of the documents
    (`rulegen-asset:...`, `rulegen-offering:...`) as the page will fetch it."""
    from rulegen.assemble import math_results, settled
    from rulegen.validate import validate_file

    seconds: dict[str, float] = {}
    clock = time.perf_counter()

    def step(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        seconds[name] = now - clock
        clock = now

    lines = source_lines(path)
    try:
        report = validate_file(path, display)
        findings = tuple(sorted(report.findings, key=Finding.sort_key))
        step("validate")
        if report.status != ExitCode.OK or report.offering is None:
            return Preview(display, findings, lines, None, seconds)
        offering = settled(report.offering)
        results = math_results(offering)
        step("math")
        draft = draft_status(offering, False)
        rules_html = documents.rules_html(offering, results, draft=draft)
        step("rules")
        sign_html = signage.render_signage_html(offering, draft=draft)
        step("sign")
        logo = report.offering.logo()
        fetcher = documents.fetcher_for(offering)

        def named(url: str) -> str:  # the logo goes in as a data: URI (an image, never a page of the preview's own)
            if url.startswith(OFFERING_SCHEME + ":"):
                response = fetcher.fetch(url)
                return standalone.data_uri(str(response.content_type), bytes(response.read()))
            return link(url)

        built = PreviewDocuments(standalone.rewrite(rules_html, named), standalone.rewrite(sign_html, named),
                                 logo.name if logo is not None else None)
        return Preview(display, findings, lines, built, seconds)
    except Exception as exc:  # the preview outlives any offering: what went wrong is shown as a finding
        finding = Finding(display, 1, 1, "error", f"the documents could not be made: {type(exc).__name__}: {exc}",
                          rule="FORMAT-internal")
        return Preview(display, (finding,), lines, None, seconds)


def asset(relative: str) -> tuple[bytes, str]:
    """The bytes and type of a shipped asset the documents name (a font), read as the renderer reads it (only
    under the assets folder, only the asset types it knows). Raises RefusedResource for anything else."""
    from rulegen.render.fetcher import SafeFetcher, asset_url
    from rulegen.resources import assets_dir

    response = SafeFetcher(assets_dir()).fetch(asset_url(relative))
    try:
        return bytes(response.read()), str(response.content_type)
    finally:
        response.close()
