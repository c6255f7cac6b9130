"""The build layer: `rulegen build`, step by step, for one offering, and the renderer `verify --rebuild` is handed.

The package is named `assemble`, not `build`: a folder named build/ is where builds are written, and tools that
skip build output (git ignores, linters, test collection, packagers) would skip the layer's source with it.

validate → math → render → filing → publish. This package decides the order and nothing else: it checks
nothing itself (validate does), computes nothing (math does), draws nothing (render does) and seals nothing
(filing does). It is the one place that knows all four, so none of them has to know another above it:

1. load and validate the offering (an error-level finding stops the build: nothing is written);
2. decide DRAFT or final (--final without every sign-off stops the build);
3. read the math (from the math layer and its cache; the build never runs the simulation);
4. render rules.html, signage.pdf and math-appendix.pdf;
5. write the manifest (it hashes every output except rules.pdf);
6. render rules.pdf with the offering, its logo and the manifest attached;
7. sign rules.pdf, when asked;
8. publish the folder atomically (`rulegen.assemble.publish`).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulegen.assemble import publish
from rulegen.assemble.processes import Batch
from rulegen.errors import ExitCode, InputError, InvalidOfferingError, RulegenError, UsageError
from rulegen.filing import manifest as filing_manifest
from rulegen.filing.rebuild import Reproducer
from rulegen.findings import Finding
from rulegen.render import documents
from rulegen.render import pdf as render_pdf
from rulegen.render.context import Draft, draft_status
from rulegen.render.prepress import PressProfile
from rulegen.resolved import ResolvedOffering
from rulegen.scratch import scratch_folder
from rulegen.render.signage import sign_size as check_sign_size

if TYPE_CHECKING:
    from rulegen.filing.manifest import Manifest
    from rulegen.math.results import MathReport
    from rulegen.offering import Offering

RULES_PDF = "rules.pdf"
RULES_HTML = "rules.html"
SIGNAGE_PDF = "signage.pdf"
APPENDIX_PDF = "math-appendix.pdf"
MANIFEST_JSON = "manifest.json"
RULES_DOCX = "rules.docx"  # with --docx: the editable copy for legal, listed in the manifest, never signed or attached
STEPS = ("validate", "math", "rules.html", "rules layout", "signage", "appendix", "manifest", "rules.pdf", "sign",
         "publish")

Progress = Callable[[str], None]
MathProgress = Callable[[int, int], None]


@dataclass
class BuildOptions:
    out_dir: Path = Path("build")
    final: bool = False
    sign: Path | None = None
    previous: Path | None = None
    sign_size: str = "letter"
    print_proof: bool = False
    use_cache: bool = True
    tsa: str | None = None  # an RFC 3161 timestamp authority's URL; the signature then carries its timestamp
    icc: Path | None = None  # the print shop's CMYK profile for the printer's sign (--icc), else the shipped one
    docx: bool = False  # also rules.docx, the editable copy (--docx)


@dataclass
class BuildResult:
    folder: Path | None
    offering: Any
    findings: list[Finding]
    files: dict[str, bytes] = field(default_factory=dict)
    draft: Draft | None = None
    timings: dict[str, float] = field(default_factory=dict)
    signer: str | None = None  # the signing certificate's name (common name, organization), when signed


class OfferingInvalid(InvalidOfferingError):
    """The offering has an error-level finding; `findings` holds every finding, printed as validate prints them."""


def _noop(_step: str) -> None:
    pass


# --- 1. validate ------------------------------------------------------------------------------------------------

def load_and_validate(path: Path, display: str | None = None) -> tuple[Any, list[Finding]]:
    """(offering, findings). Unusable input raises with exit 2; an error-level finding raises OfferingInvalid."""
    from rulegen.validate import validate_file

    report = validate_file(path, display or str(path))
    if report.status == ExitCode.UNUSABLE:
        raise InputError("\n".join(f.format() for f in report.findings) or f"{display or path} cannot be used",
                         findings=report.findings)
    if report.status == ExitCode.INVALID:
        errors = sum(1 for f in report.findings if f.level == "error")
        raise OfferingInvalid(f"{report.path}: {errors} error{'s' if errors != 1 else ''}; nothing was built",
                              report.findings)
    return report.offering, report.findings


def refuse_final_early(path: Path, display: str | None) -> None:
    """What --final needs that the offering lacks (every sign-off, the wheels' weights) is said before validation,
    which in a final build computes its figures afresh (half a minute): judged on the file as loaded and resolved.
    A file that does not load or resolve is left to validation to report."""
    from rulegen.offering import load_offering
    from rulegen.resolved import resolve

    try:
        offering = resolve(load_offering(path, display or str(path), keep_going=True))
    except Exception:  # whatever is wrong with it, validation reports it next, with its place
        return
    draft_status(offering, True)


# --- 2. math ----------------------------------------------------------------------------------------------------

def settled(loaded: Offering) -> ResolvedOffering:
    """The offering resolved, with a payout limit the jurisdiction's rule sets by itself filled in (the math layer
    computes it), so that every document prints the same limit."""
    from rulegen.math.report import settled as settled_by_math

    offering: ResolvedOffering = settled_by_math(loaded)
    return offering


def math_results(offering: ResolvedOffering, *, use_cache: bool = True,
                 progress: MathProgress | None = None) -> MathReport:
    """The math layer's typed results for the resolved offering (rulegen.math.results)."""
    from rulegen.math.report import offering_report

    results: MathReport = offering_report(offering, use_cache=use_cache, progress=progress)
    return results


def filing_figures(results: MathReport) -> dict[str, Any]:
    """The figures a filing records in its manifest (`rulegen.math.figures.FILED_FIGURES`), from the math report:
    verify computes them afresh and compares."""
    from rulegen.math.figures import filed_figures

    return filed_figures(results)


class FiguresDiffer(RulegenError):
    """The figures a filing's manifest records are not the figures computed afresh from its offering."""

    exit_code = ExitCode.INVALID


def check_figures(recorded: dict[str, Any] | None, fresh: dict[str, Any]) -> None:
    """Raise FiguresDiffer naming every figure whose recorded value is not the one computed now."""
    if recorded is None:
        return  # a filing built before figures were recorded: the rendering comparison still runs
    from rulegen.filing.manifest import jsonable

    fresh = jsonable(fresh)
    from rulegen.math.figures import FILED_FIGURES

    differ = [f"{path} records {recorded.get(path)!r}, computed afresh {fresh.get(path)!r}"
              for path in FILED_FIGURES if recorded.get(path) != fresh.get(path)]
    if differ:
        raise FiguresDiffer("the figures recorded in the manifest are not the figures computed afresh from the "
                            "attached offering: " + "; ".join(differ))


# --- what the filing layer contributes ----------------------------------------------------------------------------

def check_previous(previous: Path | None, offering: Any) -> None:
    """`--previous` names the revision this one follows: the same offering id and jurisdiction, a lower version,
    an earlier effective date. Anything else stops the build (exit 1) with the findings in the new file."""
    if previous is None:
        return
    from rulegen.filing import offering_from_path
    from rulegen.validate import check_revision

    findings = check_revision(offering_from_path(previous), offering)
    if findings:
        count = len(findings)
        raise OfferingInvalid(f"{offering.display_path}: {count} error{'s' if count != 1 else ''} against the "
                              f"previous revision {previous}; nothing was built", findings)


def changes_from_previous(previous: Path | None, offering: Any) -> dict[str, Any] | None:
    """The "changes from revision N" section: the filing layer compares the two revisions."""
    if previous is None:
        return None
    from rulegen.filing import changes_section, offering_from_path

    changes: dict[str, Any] = changes_section(offering_from_path(previous), offering)
    return changes


def signer_of(sign: Path | None) -> str | None:
    if sign is None:
        return None
    from rulegen.filing import passphrase_from_env, signer_name

    name: str = signer_name(sign, passphrase_from_env())
    return name


def manifest_options(options: BuildOptions, signer: str | None, changes: dict[str, Any] | None,
                     profile: PressProfile | None = None) -> dict[str, Any]:
    """What the build was asked for, as the manifest records it (names, never machine paths)."""
    recorded: dict[str, Any] = {
        "final": bool(options.final),
        "sign_size": options.sign_size,
        "print": bool(options.print_proof),
        "signer": signer,
        "previous": options.previous.name if options.previous else None,
        "changes": changes,
    }
    if profile is not None:  # only with --icc: the manifests of other builds stay as they were
        recorded["icc"] = icc_record(profile)
    if options.docx:  # likewise only with --docx
        recorded["docx"] = True
    return recorded


MAX_PROFILE_BYTES = 16 << 20  # the largest press profiles (GRACoL, SWOP, FOGRA) are a few MB


def read_press_profile(path: Path | str | None, *, print_proof: bool) -> PressProfile | None:
    """`--icc PROFILE.icc`: the print shop's CMYK profile, read as every input file is (one open, a regular file,
    at most 16 MiB; a path, never a URL), and checked (rulegen.render.prepress.press_profile: CMYK, an output
    profile, one Little CMS can use). Only a printer's file has an output intent."""
    if path is None:
        return None
    from rulegen.render.prepress import press_profile
    from rulegen.safeio import UnsafeFile, read_regular

    shown = str(path)
    if not print_proof:
        raise UsageError("--icc is the print shop's profile for the printer's file; give --print too")
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]+:/", shown):  # a URL (a Path folds its '//' into '/')
        raise UsageError(f"--icc {shown}: give the profile as a file on this machine; rulegen fetches nothing")
    try:
        data = read_regular(path, MAX_PROFILE_BYTES, follow_symlinks=True)
    except UnsafeFile as exc:
        raise InputError(f"--icc {exc.path}: {exc.reason}") from None
    return press_profile(data, Path(path).name)


ICC_PROFILES_ENV = "RULEGEN_ICC_PROFILES"
MAX_PROFILES = 256


def recorded_profile(record: object) -> PressProfile:
    """The shop's profile a filing's sign was made with (the manifest's `options.icc`), for its reproduction: the
    filing carries only its name and SHA-256 (the profile itself is the output intent inside its signage.pdf), so
    it is looked up by that hash among the `.icc`/`.icm` files of the folder RULEGEN_ICC_PROFILES names."""
    import hashlib
    import os

    from rulegen.render.prepress import press_profile
    from rulegen.safeio import UnsafeFile, read_regular

    fields = record if isinstance(record, dict) else {}
    digest, name, file = fields.get("sha256"), fields.get("name"), fields.get("file")
    folder = os.environ.get(ICC_PROFILES_ENV)
    if folder and isinstance(digest, str):
        candidates = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in (".icc", ".icm"))
        for path in candidates[:MAX_PROFILES]:
            try:
                data = read_regular(path, MAX_PROFILE_BYTES, follow_symlinks=True)
            except UnsafeFile:
                continue
            if hashlib.sha256(data).hexdigest() == digest:
                return press_profile(data, file if isinstance(file, str) else path.name)
    raise RulegenError(f"the sign of this filing was made for the print shop's own profile {name!r} (--icc, SHA-256 "
                       f"{str(digest)[:16]}...), which the filing does not carry: put that profile (the output intent "
                       f"embedded in its signage.pdf) in the folder {ICC_PROFILES_ENV} names to reproduce the sign")


def icc_record(profile: PressProfile) -> dict[str, Any]:
    """The profile as the manifest and the slug name it: its printing condition, its file name, its SHA-256."""
    return {"name": profile.name, "file": profile.file, "sha256": profile.sha256}


# --- the renderings (named here so a test can stand in for one) ----------------------------------------------------

render_rules_html = documents.rules_html
render_rules_docx = documents.rules_docx
standalone_html = documents.standalone_html
render_signage_pdf = documents.signage_pdf
render_signage = documents.signage_rendering
render_appendix_pdf = documents.appendix_pdf
rules_pdf_from_html = documents.rules_pdf
lay_out_rules = documents.rules_layout


# --- the build --------------------------------------------------------------------------------------------------

def build(path: Path, options: BuildOptions, *, display: str | None = None, progress: Progress = _noop,
          math_progress: MathProgress | None = None) -> BuildResult:
    """Build one offering into `options.out_dir/<id>/`; nothing is written unless every file rendered.

    A final build reads nothing from the math cache: every figure it prints and signs, the payout-limit
    floor its validation uses included, is computed in this run (`rulegen.math.cache.fresh`).
    """
    from rulegen.math import cache as math_cache

    with math_cache.fresh() if options.final else contextlib.nullcontext():
        return _build(path, options, display=display, progress=progress, math_progress=math_progress)


def _build(path: Path, options: BuildOptions, *, display: str | None, progress: Progress,
           math_progress: MathProgress | None) -> BuildResult:
    from rulegen.filing import passphrase_from_env, sign_pdf

    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def step(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        progress(name)
        timings[name] = now - clock
        clock = now

    check_sign_size(options.sign_size)  # bad arguments fail before any work
    profile = read_press_profile(options.icc, print_proof=options.print_proof)
    if options.sign is not None and not Path(options.sign).exists():
        raise InputError(f"the signing identity {options.sign} does not exist")
    if options.final:
        refuse_final_early(Path(path), display)
    loaded, findings = load_and_validate(Path(path), display)
    check_previous(options.previous, loaded)
    offering = settled(loaded)
    draft = draft_status(offering, options.final)
    # The cheap checks come before the math and the rendering: an unwritable output folder or a signing
    # identity that cannot be opened stops the build at once, not after a minute of work.
    publish.prepare_parent(Path(options.out_dir))
    signer = signer_of(options.sign)
    step("validate")

    results = math_results(offering, use_cache=options.use_cache, progress=math_progress)
    step("math")

    changes = changes_from_previous(options.previous, loaded)
    made = render_package(loaded, offering, results, findings, final=options.final, sign_size=options.sign_size,
                          print_proof=options.print_proof, signer=signer, changes=changes,
                          options=manifest_options(options, signer, changes, profile), step=step, profile=profile)
    findings = findings + sign_findings(made)
    rules_pdf = made[RULES_PDF]

    if options.sign is not None:
        rules_pdf = sign_pdf(rules_pdf, options.sign, passphrase_from_env(), tsa_url=options.tsa)
        step("sign")

    files = {RULES_PDF: rules_pdf, RULES_HTML: made[RULES_HTML], SIGNAGE_PDF: made[SIGNAGE_PDF],
             APPENDIX_PDF: made[APPENDIX_PDF], MANIFEST_JSON: made[MANIFEST_JSON]}
    if RULES_DOCX in made:
        files[RULES_DOCX] = made[RULES_DOCX]
    folder = publish.publish_folder(Path(options.out_dir) / offering.id, files)
    step("publish")
    return BuildResult(folder, loaded, findings, files, draft, timings, signer)


SIGN_FINDINGS = ".signage-findings"  # not a file of the package: what the sign's rendering found (the logo's ppi)


def sign_findings(made: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = made.pop(SIGN_FINDINGS, [])
    return found


def render_package(loaded: Offering, offering: ResolvedOffering, results: MathReport, findings: list[Finding], *,
                   final: bool, sign_size: str, print_proof: bool, signer: str | None, changes: dict[str, Any] | None,
                   options: Mapping[str, object], step: Progress = _noop,
                   profile: PressProfile | None = None) -> dict[str, Any]:
    """Every file of the package, rules.pdf unsigned (as it is handed to the signer): steps 4 to 6 of a build.

    `rulegen build` and `rulegen verify` (through `reproduce_filing_for_verify`) both render here, so what verify
    compares a filing with is what a build writes, byte for byte."""
    from rulegen.filing import build_manifest, manifest_bytes

    draft = draft_status(offering, final)
    fetcher = documents.fetcher_for(offering)
    # The appendix and the sign render in their own processes while rules.html is rendered and rules.pdf laid
    # out and painted here; rules.pdf's attachments are made when its writing reaches them, once the manifest,
    # which hashes the other two, can be made.
    made: dict[str, Any] = {}
    pieces: Batch[Any] | None = None

    def sign() -> tuple[bytes, list[Finding]]:  # the PDF and the logo's resolution as laid out on it
        rendering = render_signage(offering, draft=draft, size=sign_size, print_proof=print_proof, fetcher=fetcher,
                                   profile=profile)
        return rendering.pdf, rendering.findings

    try:
        pieces = Batch([
            (APPENDIX_PDF, lambda: render_appendix_pdf(offering, results, draft=draft, fetcher=fetcher)),
            (SIGNAGE_PDF, sign),
        ])
        html = render_rules_html(offering, results, draft=draft, signer=signer, changes=changes)
        made[RULES_HTML] = standalone_html(html, fetcher).encode("utf-8")  # fonts and logo embedded: opens anywhere
        if options.get("docx") is True:
            made[RULES_DOCX] = render_rules_docx(offering, html)
        step("rules.html")
        rules_laid_out = lay_out_rules(offering, html, fetcher)  # rules.pdf reads them through the fetcher
        pieces.run_unclaimed()  # the sign, here, when the worker is still at the appendix
        step("rules layout")

        def attachments() -> list[Any]:
            assert pieces is not None
            made[SIGNAGE_PDF], made[SIGN_FINDINGS] = pieces.result(SIGNAGE_PDF)
            step("signage")
            made[APPENDIX_PDF] = pieces.result(APPENDIX_PDF)
            step("appendix")
            outputs = {name: made[name] for name in (RULES_HTML, SIGNAGE_PDF, APPENDIX_PDF, RULES_DOCX) if name in made}
            # The manifest records the versions of the renderer's libraries; the filing layer never imports the
            # renderer, so the build reads them here and passes them.
            manifest = build_manifest(offering=loaded, jurisdiction_code=offering.jurisdiction.code,
                                      outputs=outputs, figures=filing_figures(results), options=options,
                                      findings=findings, renderer_versions=render_pdf.renderer_versions(),
                                      signoffs=loaded.data.get("signoff") or [])
            made[MANIFEST_JSON] = manifest_bytes(manifest)
            step("manifest")
            return pdf_attachments(loaded, manifest, made[MANIFEST_JSON])

        made[RULES_PDF] = rules_laid_out.write(attachments)
        step("rules.pdf")
    finally:
        if pieces is not None:
            pieces.cancel()
    return made


def build_signage(path: Path, *, size: str = "letter", print_proof: bool = False, final: bool = False,
                  display: str | None = None, icc: Path | None = None) -> tuple[bytes, Any, list[Finding]]:
    """The sign alone, validated (for `rulegen signage`): (pdf bytes, offering, findings)."""
    check_sign_size(size)
    profile = read_press_profile(icc, print_proof=print_proof)
    loaded, findings = load_and_validate(Path(path), display)
    offering = settled(loaded)
    draft = draft_status(offering, final)
    rendering = documents.signage_rendering(offering, draft=draft, size=size, print_proof=print_proof,
                                            profile=profile)
    return rendering.pdf, loaded, findings + rendering.findings  # the logo's resolution, measured as laid out


def pdf_attachments(offering: Offering, manifest: Manifest, manifest_data: bytes | None = None,
                    logo: tuple[str, bytes] | None = None) -> list[Any]:
    """The attachments of rules.pdf: the filing layer names the files and their bytes (the offering, its logo, the
    manifest), the render layer wraps them for WeasyPrint, dated with the offering's effective date."""
    data = manifest_data if manifest_data is not None else filing_manifest.manifest_bytes(manifest)
    return render_pdf.pdf_attachments(filing_manifest.attached_files(offering, data, logo),
                                      filing_manifest.attachment_time(manifest))


# --- verify --rebuild -------------------------------------------------------------------------------------------

def render_rules_pdf_for_verify(*, source: bytes, name: str, logo: tuple[str, bytes] | None,
                                manifest: Manifest, signer: str | None) -> bytes:
    """The unsigned rules.pdf a build with the manifest's options renders today from the attached files.

    This is the renderer `rulegen verify --rebuild` hands the filing layer (`rulegen.filing.rebuild`).
    The offering and its logo are written to a private folder, loaded and validated there; the math is
    computed afresh, never read from the cache (which anyone who can write its folder can fill); the manifest
    given is attached as it is (it is what the signed filing carries).
    """
    from rulegen.math import cache as math_cache

    with math_cache.fresh():
        return _rules_pdf_for_verify(source=source, name=name, logo=logo, manifest=manifest, signer=signer)


def write_attached(root: Path, name: str, source: bytes, logo: tuple[str, bytes] | None) -> None:
    """The offering and its logo as a filing carries them, written to a private folder to be built again there."""
    (root / name).write_bytes(source)
    if logo is not None:
        logo_path = (root / logo[0]).resolve()
        if root.resolve() not in logo_path.parents:
            raise UsageError(f"the attached logo name {logo[0]!r} leads outside its folder")
        logo_path.parent.mkdir(parents=True, exist_ok=True)
        logo_path.write_bytes(logo[1])


def _rules_pdf_for_verify(*, source: bytes, name: str, logo: tuple[str, bytes] | None,
                          manifest: Manifest, signer: str | None) -> bytes:
    from rulegen.filing import manifest_bytes

    options: dict[str, Any] = dict(manifest["options"])
    safe_name = Path(name).name or "offering.yaml"
    with scratch_folder("rebuild") as root:
        write_attached(root, safe_name, source, logo)
        loaded, _findings = load_and_validate(root / safe_name, safe_name)
        offering = settled(loaded)
        draft = draft_status(offering, bool(options.get("final")))
        results = math_results(offering)
        check_figures(manifest["figures"], filing_figures(results))
        html = render_rules_html(offering, results, draft=draft,
                                 signer=options.get("signer", signer), changes=options.get("changes"))
        data = manifest_bytes(manifest)
        attachments = pdf_attachments(loaded, manifest, data, logo)
        return rules_pdf_from_html(offering, html, attachments)


def reproduce_filing(*, source: bytes, name: str, logo: tuple[str, bytes] | None, options: Mapping[str, Any],
                     signer: str | None) -> dict[str, bytes]:
    """Every file of the package a build of the signed offering gives here, rules.pdf unsigned as the signer is
    handed it: the renderer `rulegen verify` is handed (`reproduce_filing_for_verify`).

    Only the offering and its logo are taken as given, written to a private folder, loaded and validated there
    (an error-level finding raises OfferingInvalid). Of the manifest, only the build options the offering does
    not carry are used (final, sign size, the printer's file and its profile, the previous revision's name and its
    changes section); the signer's name is the signing certificate's. The math is computed afresh, never read from
    the cache (which anyone who can write its folder can fill); the manifest is made again from all of it.

    Off the main thread (the desk verifies in a request's thread), where no timer signal can stop a rendering,
    the documents are rendered in a forked process, whose main thread it is: the render time bound holds there too.
    The mathematics is computed here, before the fork (its parallel kernels' OpenMP runtime does not survive one)."""
    from rulegen.math import cache as math_cache

    final = options.get("final") is True
    sign_size = options.get("sign_size")
    sign_size = sign_size if isinstance(sign_size, str) else "letter"
    check_sign_size(sign_size)
    print_proof = options.get("print") is True
    previous = options.get("previous") if isinstance(options.get("previous"), str) else None
    changes = options.get("changes") if isinstance(options.get("changes"), dict) else None
    recorded = {"final": final, "sign_size": sign_size, "print": print_proof, "signer": signer,
                "previous": previous, "changes": changes}
    profile = recorded_profile(options.get("icc")) if options.get("icc") is not None else None
    if profile is not None:
        recorded["icc"] = icc_record(profile)
    if options.get("docx") is True:
        recorded["docx"] = True
    safe_name = Path(name).name or "offering.yaml"
    with math_cache.fresh(), scratch_folder("reproduce") as root:
        write_attached(root, safe_name, source, logo)
        loaded, findings = load_and_validate(root / safe_name, safe_name)
        offering = settled(loaded)
        results = math_results(offering, use_cache=False)

        def documents() -> dict[str, bytes]:
            made = render_package(loaded, offering, results, findings, final=final, sign_size=sign_size,
                                  print_proof=print_proof, signer=signer, changes=changes, options=recorded,
                                  profile=profile)
            sign_findings(made)
            return made

        return _within_the_render_bound(documents)


def _within_the_render_bound(work: Callable[[], dict[str, bytes]]) -> dict[str, bytes]:
    """`work()`, in a forked process when this is not the main thread (where the render time bound can stop it)."""
    import threading

    from rulegen.assemble.processes import Piece, can_fork

    if threading.current_thread() is not threading.main_thread() and can_fork():
        return Piece("the reproduction's documents", work, fork=True).result()
    return work()


# What `rulegen verify` is handed to reproduce a filing: the renderer above, and the reader of the versions of the
# renderer's libraries, which the manifest records (read when a reproduction is attempted, not on import).
reproduce_filing_for_verify = Reproducer(reproduce_filing, render_pdf.renderer_versions)


__all__ = [
    "BuildOptions", "BuildResult", "OfferingInvalid", "STEPS", "build", "build_signage",
    "load_and_validate", "math_results", "pdf_attachments", "render_package", "render_rules_pdf_for_verify",
    "reproduce_filing", "reproduce_filing_for_verify",
]
