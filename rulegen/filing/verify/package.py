"""The checks of what the filing carries and what lies beside it: the attached manifest, offering and logo, the
identity read from the signed offering, the sign-offs, the whole package's hashes, the rules and findings now, and
the reproduction of every byte from the signed offering."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulegen.errors import InputError
from rulegen.filing.manifest import (
    MANIFEST_NAME, FileEntry, Manifest, ManifestError, RendererVersions, canonical_json, data_hashes, read_manifest,
    sha256,
)
from rulegen.filing.rebuild import OPTIONAL_FILES, REPRODUCED_FILES, Reproducer
from rulegen.filing.verify.common import FilingState, _read, _reason, _str, _text_or_none
from rulegen.scratch import scratch_folder

if TYPE_CHECKING:
    from rulegen.offering import Offering

# Revision N of an offering, by its id and N, where the caller holds it (verify --previous, the register); None
# where it does not.
PreviousRevision = Callable[[str, int], "Offering | None"]

SIGNOFF_ROLES = ("prepared", "reviewed", "approved")
# The documents a build writes beside rules.pdf and manifest.json, each listed in the manifest's outputs.
PACKAGE_DOCUMENTS = tuple(name for name in REPRODUCED_FILES if name not in ("rules.pdf", MANIFEST_NAME))


class PackageChecks(FilingState):
    """What the filing carries and what lies beside it."""

    def _attachments(self) -> None:
        from rulegen.filing.pdf import FilingFormatError, embedded_files

        report = self.report
        try:
            files = embedded_files(self.reader)
        except FilingFormatError as exc:
            report.add("manifest", False, f"the attachments cannot be read: {exc}")
            return
        except Exception as exc:
            report.add("manifest", False, f"the attachments cannot be read: {_reason(exc)}")
            return
        for item in files:
            if item.name in self.attachments:
                report.add("attachments", False, f"{item.name!r} is attached twice")
                return
            self.attachments[item.name] = item.data
            if item.declared_size is not None and item.declared_size != len(item.data):
                report.add("attachments", False, f"{item.name!r} declares {item.declared_size} bytes but holds "
                                                 f"{len(item.data)}")
        raw = self.attachments.get(MANIFEST_NAME)
        if raw is None:
            report.add("manifest", False, f"no {MANIFEST_NAME} is attached; this is not a rulegen filing, or it "
                                          "was built without one")
            return
        try:
            manifest = read_manifest(raw)
        except ManifestError as exc:
            report.add("manifest", False, f"the attached {MANIFEST_NAME} {exc.reason}")
            return
        self.manifest = report.manifest = manifest
        report.add("manifest", True, f"attached, canonical, {len(raw):,} bytes (SHA-256 {sha256(raw)[:16]}...)")

        offering = manifest["offering"]
        expected: dict[str, FileEntry] = {offering["file"]: offering}
        if manifest["logo"] is not None:
            expected[manifest["logo"]["file"]] = manifest["logo"]
        for name, entry in expected.items():
            label = "offering" if entry is offering else "logo"
            content = self.attachments.get(name)
            if content is None:
                report.add(label, False, f"{name!r} is named in the manifest but not attached")
            elif sha256(content) != entry["sha256"]:
                report.add(label, False, f"the attached {name!r} does not match the manifest's SHA-256 "
                                         f"({sha256(content)[:16]}... attached, {entry['sha256'][:16]}... "
                                         "recorded)")
            else:
                report.add(label, True, f"the attached {name!r} ({len(content):,} bytes) matches the manifest")
                if label == "offering":
                    report.offering_source, report.offering_name = content, name
                    self._identity(content, name or "offering.yaml", manifest)
        extra = sorted(set(self.attachments) - set(expected) - {MANIFEST_NAME})
        if extra:
            report.add("attachments", False, "attached but not in the manifest: " + ", ".join(map(repr, extra)))

    def _identity(self, source: bytes, name: str, manifest: Manifest) -> None:
        """Which offering this is (id, jurisdiction, revision, effective date, operator) is read from the signed,
        attached offering, never from the manifest; a manifest that says otherwise fails."""
        from rulegen.filing.manifest import IDENTITY_FIELDS, offering_identity
        from rulegen.offering import parse_offering

        report = self.report
        try:
            offering = parse_offering(source, name)
        except Exception as exc:
            report.add("identity", False, f"the attached offering cannot be read: {_reason(exc)}")
            return
        identity = offering_identity(offering)
        report.offering_id = _text_or_none(identity["id"])
        report.jurisdiction = _text_or_none(identity["jurisdiction"])
        version = identity["version"]
        report.revision = version if isinstance(version, (int, str)) and not isinstance(version, bool) else None
        report.effective_date = _text_or_none(identity["effective_date"])
        report.operator = _operator_of(source)
        head: Mapping[str, object] = manifest["offering"]
        wrong = [f"{field} {head.get(field)!r} (the offering says {identity[field]!r})" for field in IDENTITY_FIELDS
                 if head.get(field) != identity[field]]
        if manifest["date"] != identity["effective_date"]:
            wrong.append(f"date {manifest['date']!r} (the offering's effective date is "
                         f"{identity['effective_date']!r})")
        true = (f"{report.offering_id} revision {report.revision} for {report.jurisdiction}, effective "
                f"{report.effective_date}, operator {report.operator}")
        if wrong:
            report.add("identity", False, f"the manifest claims another identity than the signed offering's ({true}): "
                       + "; ".join(wrong))
        else:
            report.add("identity", True, f"read from the signed offering: {true}; the manifest says the same")

    def _attached_logo(self) -> tuple[str, bytes] | None:
        """The logo the manifest names, with the bytes attached under its name (none where it is not attached)."""
        assert self.manifest is not None
        logo = self.manifest["logo"]
        return (logo["file"], self.attachments.get(logo["file"], b"")) if logo is not None else None

    def _final(self) -> None:
        report, manifest = self.report, self.manifest
        if manifest is None:
            return
        options = manifest["options"]
        roles = {str(s.get("role")) for s in manifest["signoffs"] if isinstance(s, dict)}
        missing = [role for role in SIGNOFF_ROLES if role not in roles]
        if not options.get("final"):
            report.add("final", False, "built as a draft (no --final); every page says DRAFT")
            return
        if missing:
            report.add("final", False, "built --final without the sign-off of " + ", ".join(missing))
            return
        report.final = True
        recorded = _recorded_signer(manifest)
        if report.signed and recorded is not None and self.certificate_name is not None:
            if not _same_name(recorded, self.certificate_name):
                report.add("final", False, f"the sign-off page names the signer {recorded!r}, but the filing is "
                                           f"signed by {self.certificate_name!r}")
                return
        report.add("final", True, "built --final with the sign-off of " + ", ".join(SIGNOFF_ROLES)
                   + (f"; signer recorded as {recorded!r}" if recorded else ""))

    def _signer(self) -> None:
        """Who signed against who files: the organisation the signer's certificate names is the operator the signed
        offering names. Another organisation, or none, is a warning (a group's or a consultant's certificate may
        sign for an operator; that is the regulator's call), never a silent pass; --strict fails it."""
        report = self.report
        if not report.signed or report.signer is None or report.operator is None:
            return
        organization = report.signer_organization
        if organization is None:
            report.add("signer", True, f"the signer's certificate ({report.signer}) names no organisation, so "
                                       f"nothing in it ties the signer to the operator, {report.operator}",
                       warning=True)
        elif not _same_name(organization, report.operator):
            report.add("signer", True, f"the signer's certificate is {organization}'s, not the operator's: the "
                                       f"filing names {report.operator}", warning=True)
        else:
            report.add("signer", True, f"the signer's certificate is the operator's ({organization})")

    def _outputs(self) -> None:
        """The whole package: the folder holds the filing, manifest.json and every output the manifest lists,
        each matching it, and nothing else."""
        report, manifest = self.report, self.manifest
        if manifest is None:
            return
        folder = self.path.parent
        matched: list[str] = []
        missing: list[str] = []
        wrong: list[str] = []
        listed = manifest["outputs"]
        # Every build writes the same documents: a manifest that leaves one out does not make the package whole
        # without it (the manifest is the filer's to write; the list of documents a filing has is rulegen's).
        unlisted = [name for name in PACKAGE_DOCUMENTS if name not in listed]
        for name, entry in sorted(listed.items()):
            if "/" in name or "\\" in name or name.startswith("."):
                wrong.append(f"{name!r} (not a plain file name)")
                continue
            sibling = folder / name
            if not os.path.lexists(sibling):
                missing.append(name)
                continue
            try:
                digest = hashlib.sha256(_read(sibling, follow_symlinks=False)).hexdigest()
            except InputError as exc:  # a link out of the folder, a FIFO, a 20 GiB file: reported, not followed
                wrong.append(f"{name} ({exc.message.split(': ', 1)[-1]})")
                continue
            (matched if digest == entry["sha256"] else wrong).append(name)
        beside = folder / MANIFEST_NAME
        if self.path.name != MANIFEST_NAME:
            if not beside.is_file():
                missing.append(MANIFEST_NAME)
            else:
                try:
                    same = _read(beside, follow_symlinks=False) == self.attachments.get(MANIFEST_NAME)
                except InputError:
                    same = False
                (matched if same else wrong).append(MANIFEST_NAME)
        expected = set(listed) | {MANIFEST_NAME, self.path.name}
        try:
            present = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir())
        except OSError as exc:
            report.add("outputs", False, f"the filing's folder cannot be listed: {exc.strerror or exc}")
            return
        extra = [name for name in present if name.rstrip("/") not in expected]
        problems = []
        if unlisted:
            problems.append("the manifest does not list " + ", ".join(unlisted) + ", which every rulegen filing has")
        if wrong:
            problems.append("changed since the build: " + ", ".join(wrong))
        if missing:
            problems.append("listed in the manifest but missing: " + ", ".join(missing))
        if extra:
            problems.append("in the filing's folder but not in the manifest: " + ", ".join(extra[:8])
                            + (f" and {len(extra) - 8} more" if len(extra) > 8 else ""))
        if problems:
            report.add("outputs", False, "the package is not as built: " + "; ".join(problems))
        else:
            report.add("outputs", True, f"the whole package is present and matches the manifest: {self.path.name}, "
                       + ", ".join(matched) + ", nothing else")

    def _rules(self) -> None:
        """The embedded offering against the rules shipped now: which data changed, which findings moved."""
        from rulegen import __version__

        report, manifest = self.report, self.manifest
        if manifest is None:
            return
        entry = manifest["offering"]
        source = self.attachments.get(entry["file"])
        if source is None or sha256(source) != entry["sha256"]:
            return  # already failed above
        now = data_hashes(_str(entry["jurisdiction"]))
        old_files, new_files = manifest["data"]["files"], now["files"]
        changed = sorted(n for n in set(old_files) | set(new_files) if old_files.get(n) != new_files.get(n))
        built_with = manifest["software"]["rulegen"]
        moved = bool(changed) or built_with != __version__
        try:
            findings = _findings_now(source, entry["file"] or "offering.yaml", self._attached_logo(), now["sha256"])
        except Exception as exc:
            report.add("rules", False, f"the attached offering cannot be checked now: {_reason(exc)}")
            return
        recorded_findings = [f for f in manifest["findings"] if isinstance(f, dict)]
        old = {_finding_key(f) for f in recorded_findings}
        new = {_finding_key(f): f for f in findings}
        appeared = [f for key, f in new.items() if key not in old]
        gone = [key for key in old if key not in new]
        errors_now = [f for f in findings if f.get("level") == "error"]
        errors_then = [f for f in recorded_findings if f.get("level") == "error"]
        parts: list[str] = []
        if changed:
            parts.append(f"{len(changed)} data file(s) changed since the build: " + ", ".join(changed[:8])
                         + (" ..." if len(changed) > 8 else ""))
        if built_with != __version__:
            parts.append(f"built with rulegen {built_with}, checked with {__version__}")
        if appeared:
            parts.append("new finding(s): " + " | ".join(_finding_text(f) for f in appeared[:6]))
        if gone:
            parts.append(f"{len(gone)} finding(s) of the build no longer appear")
        if errors_then:
            report.add("rules", False, f"the manifest records {len(errors_then)} error(s): a filing with errors is "
                                       "not a valid submission")
        elif errors_now and not moved:
            report.add("rules", False, "the attached offering does not validate, yet the rules have not changed "
                                       "since the build: " + "; ".join(parts))
        elif parts and moved:
            report.add("rules", True, "the rules moved since the build: " + "; ".join(parts)
                       + (" — the offering no longer validates" if errors_now else ""), warning=True)
        elif appeared or gone:
            report.add("rules", False, "the findings recorded in the manifest differ from the ones this rulegen "
                                       "finds with the same rules: " + "; ".join(parts))
        else:
            report.add("rules", True, f"the attached offering validates as it did at the build ({len(findings)} "
                                      "finding(s), none an error), against unchanged jurisdiction data and schemas")

    def _reproduce(self, renderer: Reproducer) -> None:
        """The whole package again, from the signature and the signed, attached offering (and logo) alone: every
        file a build of that offering gives here must equal the filing's, byte for byte; rules.pdf is compared up
        to the signature's own update (the revision the signature covers). Skipped, and the filing not VERIFIED,
        when the renderer or the data here are not the ones the manifest records: the verdict names them."""
        report, manifest = self.report, self.manifest
        if manifest is None or report.offering_source is None:
            report.add("reproduce", False, "not attempted: the filing has no readable manifest or no attached "
                                           "offering matching it, so there is nothing to reproduce it from")
            return
        if not report.signed or self.signed_prefix_end is None:
            report.add("reproduce", None, "not attempted: the filing carries no signed rendering to compare")
            return
        differ = _environment_differs(manifest, report.jurisdiction, renderer.versions())
        if differ:
            report.unreproducible = differ
            report.add("reproduce", False, "the filing cannot be reproduced here, so it cannot be verified here: "
                                           + differ)
            return
        signer = self.certificate_name or _recorded_signer(manifest)
        try:
            fresh = _reproduction(renderer, report.offering_source, report.offering_name or "offering.yaml",
                                  self._attached_logo(), manifest["options"], signer)
        except Exception as exc:
            findings = getattr(exc, "findings", None)
            errors = [f for f in findings or [] if getattr(f, "level", None) == "error"]
            if errors:
                report.add("reproduce", False, "the signed offering does not validate here, so no build of it "
                                               f"exists to compare with: {len(errors)} error(s), first: "
                                               f"{errors[0].format() if hasattr(errors[0], 'format') else errors[0]}")
            else:
                report.add("reproduce", False, f"the signed offering could not be built again: {_reason(exc)}")
            return
        folder = self.path.parent
        wrong: list[str] = []
        sizes: list[str] = []
        optional = [name for name in OPTIONAL_FILES if name in fresh or name in manifest["outputs"]]
        for name in (*PACKAGE_DOCUMENTS, *optional, *(n for n in REPRODUCED_FILES if n not in PACKAGE_DOCUMENTS)):
            want = fresh.get(name)
            if want is None:
                wrong.append(f"{name} (the renderer gave none)")
                continue
            if name == "rules.pdf":
                have: bytes | None = self.data[: self.signed_prefix_end]
                label = "rules.pdf (the signed revision)"
            else:
                try:
                    have = _read(folder / name, follow_symlinks=False)
                except InputError:
                    have = None
                label = name
            if name == MANIFEST_NAME and self.attachments.get(MANIFEST_NAME) != want:
                attached = _first_difference(self.attachments.get(MANIFEST_NAME), want)
                wrong.append(f"{MANIFEST_NAME} attached to rules.pdf ({attached})")
            if have != want:
                wrong.append(f"{label} ({_first_difference(have, want)})")
            else:
                sizes.append(f"{label} {len(want):,} bytes")
        if wrong:
            report.add("reproduce", False, "not what the signed offering builds: " + "; ".join(wrong)
                       + _manifest_differences(self.attachments.get(MANIFEST_NAME), fresh.get(MANIFEST_NAME)))
        else:
            report.reproduced = True
            report.add("reproduce", True, "rulegen built the signed offering again and reproduced every byte: "
                       + ", ".join(sizes))


    def _changes(self, previous: PreviousRevision | None) -> None:
        """The "changes from revision N" section the filing prints: its signed offering gives only its own
        revision, so the reproduction takes the section from the manifest; it holds only when it is the diff from
        revision N as `previous` gives it."""
        report, manifest = self.report, self.manifest
        if manifest is None or report.offering_source is None:
            return
        printed = manifest["options"].get("changes")
        if printed is None:
            return
        if not isinstance(printed, dict):
            report.add("changes", False, "the manifest's changes section is not a section rulegen writes")
            return
        revision = printed.get("from_revision")
        if not isinstance(revision, int) or isinstance(revision, bool) or report.offering_id is None:
            report.add("changes", False, "the filing prints a changes section from no revision it names; rulegen "
                                         "writes one only from a previous revision's number")
            return
        before = previous(report.offering_id, revision) if previous is not None else None
        if before is None:
            report.add("changes", False, f"the filing prints a \"changes from revision {revision}\" section, which "
                                         "its signed offering does not give (it comes from the manifest), so it is "
                                         f"not reproduced here: give revision {revision} (--previous its offering "
                                         "or filing) to check it, or add the filing to a register that holds "
                                         f"revision {revision}")
            return
        problem = changes_section_problem(printed, before, report.offering_source,
                                          report.offering_name or "offering.yaml")
        if problem is not None:
            report.add("changes", False, f"the \"changes from revision {revision}\" section is not the diff from "
                                         f"revision {revision}: {problem}")
        else:
            report.add("changes", True, f"the \"changes from revision {revision}\" section is the diff from "
                                        f"revision {revision} ({printed.get('count')} change(s))")


def changes_section_problem(printed: Mapping[str, Any], before: Offering, source: bytes, name: str) -> str | None:
    """None when `printed` is the changes section a build of the offering `source` gives from `before`; else the
    fields that differ, in a few words."""
    from rulegen.filing.diff import changes_section
    from rulegen.filing.manifest import jsonable
    from rulegen.offering import OfferingLoadError, parse_offering

    try:
        expected = jsonable(changes_section(before, parse_offering(source, name)))
    except (OfferingLoadError, InputError) as exc:
        return f"it cannot be checked: {getattr(exc, 'message', exc)}"
    if printed == expected:
        return None
    differ = sorted(k for k in set(printed) | set(expected) if printed.get(k) != expected.get(k))
    return "it differs in " + ", ".join(differ[:8])


_REPRODUCTIONS: dict[str, dict[str, bytes]] = {}


def _reproduction(renderer: Reproducer, source: bytes, name: str, logo: tuple[str, bytes] | None,
                  options: dict[str, Any], signer: str | None) -> dict[str, bytes]:
    """The renderer's files for these inputs, remembered for the run: checking many copies of one filing (or
    copies that differ only in what the reproduction does not read) builds it once."""
    from rulegen.filing.manifest import software_versions
    from rulegen.resources import template_dirs

    inputs: dict[str, Any] = {"source": source, "name": name, "logo": [logo[0], logo[1]] if logo else None,
                              "options": options, "signer": signer,
                              "software": software_versions(renderer.versions()),
                              "data": data_hashes(None)["sha256"], "renderer": repr(renderer),
                              # the templates rendered with (the manifest's data hashes do not cover them)
                              "templates": [str(folder) for folder in template_dirs()]}
    key = sha256(canonical_json(inputs))
    if key not in _REPRODUCTIONS:
        fresh = renderer(source=source, name=name, logo=logo, options=options, signer=signer)
        if len(_REPRODUCTIONS) >= 4:
            _REPRODUCTIONS.clear()
        _REPRODUCTIONS[key] = {k: bytes(v) for k, v in fresh.items()}
    return dict(_REPRODUCTIONS[key])


def _environment_differs(manifest: Manifest, jurisdiction: str | None,
                         renderer_versions: RendererVersions) -> str | None:
    """What differs between the software and data the manifest records and those installed here (the renderer's
    libraries: `renderer_versions`), as what to install; None when they are the same (a reproduction can then be
    byte for byte)."""
    from rulegen.filing.manifest import software_versions

    then: Mapping[str, object] = manifest["software"]
    now: Mapping[str, object] = software_versions(renderer_versions)
    labels = {"rulegen": "rulegen", "weasyprint": "WeasyPrint", "pydyf": "pydyf", "pango": "Pango"}
    differ = [f"{labels[k]} {then.get(k)} (here {now.get(k)})" for k in labels if then.get(k) != now.get(k)]
    parts = []
    if differ:
        parts.append("it was built with " + ", ".join(differ))
    if then.get("fonts") != now.get("fonts"):
        parts.append(f"the fonts it was built with are not the ones rulegen {now.get('rulegen')} ships")
    recorded = manifest["data"]
    here = data_hashes(jurisdiction)
    if recorded["sha256"] != here["sha256"] or recorded["files"] != here["files"]:
        old, new = recorded["files"], here["files"]
        changed = sorted(n for n in set(old) | set(new) if old.get(n) != new.get(n))
        parts.append(f"the jurisdiction data and schemas differ from the build's ({len(changed)} file(s): "
                     + ", ".join(changed[:6]) + (" ..." if len(changed) > 6 else "") + ")")
    if not parts:
        return None
    install = [f"rulegen=={then.get('rulegen')}", f"weasyprint=={then.get('weasyprint')}",
               f"pydyf=={then.get('pydyf')}"]
    return ("; ".join(parts) + ". To verify it, install the versions it was built with: pip install "
            + " ".join(install) + f", with Pango {then.get('pango')} (a system library) and the jurisdiction data "
            f"rulegen {then.get('rulegen')} ships")


def _first_difference(have: bytes | None, want: bytes) -> str:
    if have is None:
        return "missing"
    first = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    return f"differs from byte {first:,}: {len(have):,} bytes in the filing, {len(want):,} built"


def _manifest_differences(attached: bytes | None, fresh: bytes | None) -> str:
    """Which fields of the attached manifest are not the ones the build of the signed offering records."""
    try:
        old, new = json.loads(attached or b"{}"), json.loads(fresh or b"{}")
    except ValueError:
        return ""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return ""
    fields: list[str] = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            fields.extend(f"{key}.{k}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
        else:
            fields.append(key)
    return (" — the manifest differs in " + ", ".join(fields[:10]) + (" ..." if len(fields) > 10 else "")) if fields \
        else ""


_FINDINGS_CACHE: dict[tuple[str | None, ...], list[dict[str, Any]]] = {}


def _findings_now(source: bytes, name: str, logo: tuple[str, bytes] | None,
                  data_sha256: str) -> list[dict[str, Any]]:
    """The findings validation gives the offering today. The offering (and its logo) are written to a private
    temporary folder first, so checks that look beside the file see what the build saw. Remembered per
    content, since checking many copies of one filing would otherwise validate each time."""
    from pathlib import PurePosixPath

    from rulegen.offering import OfferingLoadError, load_offering
    from rulegen.validate import validate_offering

    key = (sha256(source), name, sha256(logo[1]) if logo else None, logo[0] if logo else None, data_sha256)
    if key not in _FINDINGS_CACHE:
        safe_name = PurePosixPath(name).name or "offering.yaml"
        with scratch_folder("verify") as folder:
            target = Path(folder) / safe_name
            target.write_bytes(source)
            if logo:
                relative = PurePosixPath(logo[0])
                if not relative.is_absolute() and ".." not in relative.parts and relative.parts:
                    (Path(folder) / relative).parent.mkdir(parents=True, exist_ok=True)
                    (Path(folder) / relative).write_bytes(logo[1])
            try:
                findings = [f.to_json() for f in validate_offering(load_offering(target, name))]
            except OfferingLoadError as exc:
                findings = [f.to_json() for f in exc.findings]
        if len(_FINDINGS_CACHE) > 64:
            _FINDINGS_CACHE.clear()
        _FINDINGS_CACHE[key] = findings
    return [dict(f) for f in _FINDINGS_CACHE[key]]


def _operator_of(source: bytes) -> str | None:
    """The operator's name in the attached offering (the manifest does not record it); None if unreadable."""
    from ruamel.yaml import YAML

    try:
        data = YAML(typ="safe", pure=True).load(source.decode("utf-8"))
        return _text_or_none(data["offering"]["operator"]["name"])
    except Exception:
        return None


def _recorded_signer(manifest: Manifest) -> str | None:
    for entry in manifest["signoffs"]:
        if isinstance(entry, dict) and entry.get("role") in ("signature", "signed", "signer"):
            return _str(entry.get("name")) or _str(entry.get("certificate"))
    signing = manifest["options"].get("signer")
    return signing if isinstance(signing, str) else None


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _finding_key(finding: dict[str, Any]) -> tuple[Any, ...]:
    return (finding.get("level"), finding.get("field"), finding.get("message"), finding.get("citation"))


def _finding_text(finding: dict[str, Any]) -> str:
    text = f"{finding.get('level')}: {finding.get('message')}"
    return text + (f" [{finding['citation']}]" if finding.get("citation") else "")
