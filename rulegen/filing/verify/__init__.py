"""`rulegen verify`: re-check a built filing, offline (revocation is judged from the data a B-LT filing embeds).

`verify_paths` checks many: files and folders (a folder stands for every build folder or rules.pdf under it),
one report each, going on past a broken one.

The checks live by concern: `signature` (the PDF, its signature, trust, timestamp and revocation), `package`
(what the filing carries and what lies beside it, and its reproduction), `trust` (the roots), `report` (what is
said of the filing); this module runs them in order.

Order of the checks, each reported with a reason:
  pdf         the file reads as a PDF with the shape rulegen writes: one rendering, then one signature revision,
              then (PAdES B-LT) at most one update holding validation data
  signature   one PAdES signature, cryptographically intact and valid
  coverage    the signature covers every byte of the file and no revision follows it (pyHanko's coverage level
              and modification level, plus the revision count);
              or every byte of its revision, and the update after it is the Document Security Store alone:
              byte for byte the update rulegen writes for the data it holds, rated LTA_UPDATES by pyHanko's
              difference analysis, every certificate, CRL and OCSP response in it signed by its issuer
  revision    the signature's own revision adds the signature and its field and nothing else: pyHanko's
              difference analysis of it against the rendering before it (no new /Pages, content stream or page)
  contents    the unsigned gap holds exactly the DER signature in upper-case hex, then zeros (pyHanko alone
              misses a changed byte there)
  certificate the signer's certificate was within its validity period at the signing time it reports
  trust       the certificate chains to a trust root (--trust or RULEGEN_TRUST) at that time; with no root, or
              one it does not chain to, the filing is "intact, signer not trusted" and fails (trust fails closed)
  revocation  the PAdES level (B-B, B-T, B-LT); with embedded revocation data, every certificate below the root
              in the signer's chain and the timestamp authority's was not revoked at the timestamp's time, by
              that data alone (nothing is fetched: a missing or failing proof fails the filing)
  manifest    manifest.json is attached, canonical, and of a format this rulegen reads
  offering    the attached offering's bytes match the manifest's SHA-256 (and the logo's, if any)
  identity    the offering's id, jurisdiction, revision and effective date, and its operator, are read from the
              signed, attached offering (never from the manifest); a manifest saying otherwise fails
  attachments nothing else is attached
  final       the build was --final with every sign-off role, and the signer's name is the one recorded
  signer      the organisation the signer's certificate names is the operator the signed offering names; another
              organisation, or none, is a warning (shown with the verdict; --strict fails it)
  outputs     the whole package: every output the manifest lists, and manifest.json, is beside the filing and
              matches; a missing file or a file the manifest does not list fails
  rules       the shipped jurisdiction data and schemas, and the findings they give now, against the manifest's
  changes     (full verification) a "changes from revision N" section, which the signed offering alone does not
              give, is the diff from revision N as the caller gives it (verify --previous; the register's revision
              N); without revision N it is not reproduced and the filing fails
  reproduce   (full verification; not with --integrity-only) the build layer's renderer builds the signed
              offering and its logo again, with fresh math and only the build options the offering does not carry;
              every file equals the package's byte for byte: rules.pdf up to the signature's update, rules.html,
              signage.pdf, math-appendix.pdf, rules.docx where the build wrote one (--docx), and manifest.json
              (beside and attached). With other renderer versions, fonts or jurisdiction data than the manifest
              records, the filing cannot be reproduced here: not verified, and the verdict names the versions to
              install. Only a reproduced filing is VERIFIED.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from rulegen.errors import ExitCode, InputError
from rulegen.filing.manifest import sha256
from rulegen.filing.rebuild import Reproducer
from rulegen.filing.verify.common import _read
from rulegen.filing.verify.package import PackageChecks, PreviousRevision
from rulegen.filing.verify.report import STATUSES, Check, VerifyReport
from rulegen.filing.verify.signature import SignatureChecks, _quiet_pyhanko
from rulegen.filing.verify.trust import CERTIFICATE_SUFFIXES, TRUST_ENV, PathsArgument, load_trust_roots, trust_paths

__all__ = [
    "CERTIFICATE_SUFFIXES", "STATUSES", "TRUST_ENV", "Check", "PathsArgument", "PreviousRevision", "VerifyReport",
    "filing_paths",
    "load_trust_roots", "summary", "trust_paths", "verify_filing", "verify_paths",
]


def verify_filing(path: str | Path, *, trust: PathsArgument = None, reproduce: Reproducer | None = None,
                  strict: bool = False, roots: list[Any] | None = None,
                  environ: Mapping[str, str] | None = None, previous: PreviousRevision | None = None) -> VerifyReport:
    """Every check on the filing at `path` (its rules.pdf, or its build folder); its package is the folder.

    `reproduce` is the renderer that builds the whole package again from the signed offering, with the versions of
    the libraries it renders with (`rulegen.assemble.reproduce_filing_for_verify`): every file must equal the fresh
    one, and only then is the filing VERIFIED. Without it the checks are integrity only (status "intact" at best,
    never "verified").

    A filing that prints a "changes from revision N" section is VERIFIED only when `previous` gives revision N
    of the offering (`previous(offering_id, N)`) and the section is the diff from it: the signed offering alone
    does not give that section, so without revision N it is not reproduced, and the filing fails.

    Trust roots are `roots` (already loaded) or read from `trust` and RULEGEN_TRUST. Raises InputError (exit
    2) only when the file cannot be read, is not a PDF at all, or the trust roots cannot be used; everything
    wrong with the filing itself is a failed check in the report (exit 1).
    """
    began = time.perf_counter()
    path = Path(path)
    if path.is_dir() and (path / "rules.pdf").is_file():  # a build folder: its rules.pdf is the filing
        path = path / "rules.pdf"
    report = VerifyReport(str(path), strict=strict, integrity_only=reproduce is None)
    if roots is None:
        roots = load_trust_roots(trust_paths(trust, environ))
    report.trust_roots = len(roots)
    data = _read(path)
    if b"%PDF-" not in data[:1024] and b"%%EOF" not in data[-4096:]:
        raise InputError(f"{path} is not a PDF; give the filing's rules.pdf")
    report.rules_sha256 = sha256(data)
    with _quiet_pyhanko():
        _Verifier(report, path, data, roots).run(reproduce=reproduce, previous=previous)
    report.seconds = time.perf_counter() - began
    return report


def filing_paths(paths: Iterable[str | Path]) -> list[tuple[Path, str | None]]:
    """Each path given, expanded: a file stands for itself; a build folder (one holding rules.pdf) for its
    rules.pdf; any other folder for every rules.pdf under it, in name order, leaving out hidden folders (a
    build being published writes into `.<id>.new-PID/` first). A path that holds no filing
    comes back with the reason, so a batch reports it and goes on."""
    found: list[tuple[Path, str | None]] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            if (path / "rules.pdf").is_file():
                found.append((path / "rules.pdf", None))
                continue
            under, too_deep = _filings_under(path)
            if not under and not too_deep:
                found.append((path, f"{path} is a folder with no rules.pdf under it"))
            found.extend((p, None) for p in under)
            found.extend((p, f"{p} is nested more than {MAX_FOLDER_DEPTH} folders deep under {path}; a filing is "
                             "not searched for that deep (give its folder itself)") for p in too_deep)
        elif path.exists():
            found.append((path, None))
        else:
            found.append((path, f"{path}: no such file or folder"))
    return found


MAX_FOLDER_DEPTH = 32  # how deep under a folder given a filing is searched for


def _filings_under(top: Path) -> tuple[list[Path], list[Path]]:
    """Every rules.pdf under `top` (a regular file, in a folder reached through no symbolic link or hidden folder),
    in name order, and the folders deeper than MAX_FOLDER_DEPTH, which are not searched. The walk keeps its own
    stack: a folder nested thousands deep is one finding, never a recursion error, and an unreadable folder is
    passed over."""
    import os

    found: list[Path] = []
    too_deep: list[Path] = []
    stack: list[tuple[Path, int]] = [(top, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = sorted((entry.name, entry.is_dir(follow_symlinks=False),
                                 entry.is_file(follow_symlinks=False)) for entry in entries)
        except OSError:
            continue
        for name, is_dir, is_file in listed:
            if name.startswith("."):
                continue
            if is_file and name == "rules.pdf":
                found.append(folder / name)
            elif is_dir:
                if depth + 1 > MAX_FOLDER_DEPTH:
                    too_deep.append(folder / name)
                else:
                    stack.append((folder / name, depth + 1))
    return sorted(found), sorted(too_deep)


def verify_paths(paths: Iterable[str | Path], *, trust: PathsArgument = None, reproduce: Reproducer | None = None,
                 strict: bool = False, environ: Mapping[str, str] | None = None,
                 progress: Callable[[VerifyReport], None] | None = None,
                 previous: PreviousRevision | None = None) -> list[VerifyReport]:
    """One report per filing under `paths` (see filing_paths), going on past any that cannot be used: those
    get a report with `error` set (exit 2). Unusable trust roots stop everything first (InputError)."""
    roots = load_trust_roots(trust_paths(trust, environ))
    reports = []
    for path, problem in filing_paths(paths):
        if problem is None:
            try:
                report = verify_filing(path, reproduce=reproduce, strict=strict, roots=roots, previous=previous)
            except InputError as exc:
                report = VerifyReport(str(path), strict=strict, error=exc.message, trust_roots=len(roots),
                                      integrity_only=reproduce is None)
        else:
            report = VerifyReport(str(path), strict=strict, error=problem, trust_roots=len(roots),
                                  integrity_only=reproduce is None)
        reports.append(report)
        if progress is not None:
            progress(report)
    return reports


def summary(reports: list[VerifyReport]) -> dict[str, Any]:
    counts = {status: 0 for status in STATUSES}
    for report in reports:
        counts[report.status] += 1
    return {"filings": len(reports), **counts,
            "exit_code": max((r.exit_code for r in reports), default=int(ExitCode.UNUSABLE)),
            "seconds": round(sum(r.seconds for r in reports), 3)}


class _Verifier(SignatureChecks, PackageChecks):
    """Every check, in the order the module's docstring gives."""

    def run(self, *, reproduce: Reproducer | None, previous: PreviousRevision | None) -> None:
        if not self._structure():
            return
        self._signature()
        self._attachments()
        self._final()
        self._signer()
        self._outputs()
        self._rules()
        if reproduce is not None:
            self._reproduce(reproduce)
            self._changes(previous)
