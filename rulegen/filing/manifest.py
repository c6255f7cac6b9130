"""The build manifest: what a filing was built from, with what, and the hash of everything it holds.

The manifest travels inside rules.pdf (as an attachment) and beside it (manifest.json). It holds the
SHA-256 of the offering file, of its logo and of every output except rules.pdf (which embeds the
manifest, so one signature over rules.pdf covers the whole filing), the versions of the software and
data that shaped the bytes, the build options, the findings and the sign-offs. Nothing in it depends
on the clock or on the machine's paths: two builds of the same offering with the same software write
the same bytes.

It is typed (`Manifest`), made in one place (`build_manifest`, written by `manifest_bytes`) and read in one place
(`read_manifest`, which checks it against `MANIFEST_SCHEMA`); verify, the register, diff and the build's renderer
for verify all take it so.

The filing layer never renders: the versions of the renderer's libraries (WeasyPrint, pydyf, Pango) are read
by the render layer and passed in by the build layer (`build_manifest(renderer_versions=...)`), and the files
attached to rules.pdf leave here as plain names and bytes (`attached_files`); the render layer wraps them for
WeasyPrint.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict, overload

if TYPE_CHECKING:
    from rulegen.offering import Offering

# Plain JSON data, as the manifest holds it.
JSON = dict[str, "JSON"] | list["JSON"] | str | int | bool | None

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "rulegen-manifest/1"
FONT_SUFFIXES = (".ttf", ".otf", ".woff", ".woff2", ".ttc")
# Outputs the manifest hashes; rules.pdf is left out because it carries the manifest inside it.
UNHASHED_OUTPUTS = ("rules.pdf", MANIFEST_NAME)


# --- the manifest, typed ------------------------------------------------------------------------------------------
# What manifest.json holds. `build_manifest` writes it, `read_manifest` reads it back (checked against
# MANIFEST_SCHEMA), and every reader (verify, register, diff, the build's renderer for verify) takes these types.


class Digest(TypedDict):
    """An output's SHA-256 and size."""

    sha256: str
    bytes: int


class FileEntry(TypedDict):
    """A file the filing carries (the offering, its logo): its name, SHA-256 and size."""

    file: str
    sha256: str
    bytes: int


class OfferingEntry(FileEntry):
    """The offering file, and which offering it says it is (as its YAML gives each field)."""

    id: JSON
    jurisdiction: JSON
    version: JSON
    effective_date: JSON


class Software(TypedDict):
    """The versions of everything that shapes the rendered bytes."""

    rulegen: str
    weasyprint: str | None
    pydyf: str | None
    pango: str | None
    fonts: dict[str, str]


class DataHashes(TypedDict):
    """The jurisdiction data and schemas a build read: each file's SHA-256, and one over all of them."""

    jurisdiction: str | None
    jurisdiction_sha256: str | None
    sha256: str
    files: dict[str, str]


class Manifest(TypedDict):
    """manifest.json: what a filing was built from, with what, and the hash of everything it holds."""

    format: str
    offering: OfferingEntry
    logo: FileEntry | None
    outputs: dict[str, Digest]
    software: Software
    data: DataHashes
    options: dict[str, JSON]
    findings: list[JSON]
    signoffs: list[JSON]
    figures: dict[str, JSON] | None
    date: JSON


_NAMED_HASH: dict[str, Any] = {"type": "object", "additionalProperties": False, "required": ["file", "sha256", "bytes"],
               "properties": {"file": {"type": "string"}, "sha256": {"type": "string"},
                              "bytes": {"type": "integer", "minimum": 0}}}
_TEXT_OR_NULL = {"type": ["string", "null"]}
_TEXT_BY_NAME = {"type": "object", "additionalProperties": {"type": "string"}}

# The form of manifest.json (JSON Schema, Draft 2020-12): the fields `Manifest` types, each of the type given. The
# options, findings, sign-offs, figures and the offering's identity hold what the build recorded, whatever it is.
MANIFEST_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": MANIFEST_FORMAT,
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "offering", "logo", "outputs", "software", "data", "options", "findings", "signoffs",
                 "figures", "date"],
    "properties": {
        "format": {"const": MANIFEST_FORMAT},
        "offering": {**_NAMED_HASH,
                     "required": ["file", "sha256", "bytes", "id", "jurisdiction", "version", "effective_date"],
                     "properties": {**_NAMED_HASH["properties"], "id": {}, "jurisdiction": {}, "version": {},
                                    "effective_date": {}}},
        "logo": {"oneOf": [{"type": "null"}, _NAMED_HASH]},
        "outputs": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["sha256", "bytes"],
            "properties": {"sha256": {"type": "string"}, "bytes": {"type": "integer", "minimum": 0}}}},
        "software": {"type": "object", "additionalProperties": False,
                     "required": ["rulegen", "weasyprint", "pydyf", "pango", "fonts"],
                     "properties": {"rulegen": {"type": "string"}, "weasyprint": _TEXT_OR_NULL,
                                    "pydyf": _TEXT_OR_NULL, "pango": _TEXT_OR_NULL, "fonts": _TEXT_BY_NAME}},
        "data": {"type": "object", "additionalProperties": False,
                 "required": ["jurisdiction", "jurisdiction_sha256", "sha256", "files"],
                 "properties": {"jurisdiction": _TEXT_OR_NULL, "jurisdiction_sha256": _TEXT_OR_NULL,
                                "sha256": {"type": "string"}, "files": _TEXT_BY_NAME}},
        "options": {"type": "object"},
        "findings": {"type": "array", "items": {"type": "object"}},
        "signoffs": {"type": "array", "items": {"type": "object"}},
        "figures": {"type": ["object", "null"]},
        "date": {},
    },
}


class ManifestError(ValueError):
    """manifest.json is not one rulegen wrote: `reason` says how, as a predicate ("is not JSON: ...")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_manifest(raw: bytes) -> Manifest:
    """The manifest in `raw`, checked: JSON, of this format, in the canonical form rulegen writes (so its bytes are
    the ones a build gives for its data), and of the form MANIFEST_SCHEMA gives. Raises ManifestError."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ManifestError("is nested deeper than any manifest rulegen writes") from None
    except Exception as exc:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise ManifestError(f"is not JSON: {type(exc).__name__}" + (f": {text}" if text else "")) from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise ManifestError(f"is not a {MANIFEST_FORMAT} manifest")
    if canonical_json(data) != raw:
        raise ManifestError("is not in canonical form (sorted keys, fixed separators): it was not written by "
                            "rulegen as it stands")
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(MANIFEST_SCHEMA).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        where = ".".join(str(step) for step in errors[0].absolute_path) or "the top"
        raise ManifestError(f"does not have the form of a {MANIFEST_FORMAT} manifest: at {where}, "
                            f"{errors[0].message}")
    manifest: Manifest = data  # type: ignore[assignment]  # its form is MANIFEST_SCHEMA's, checked above
    return manifest


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@overload
def jsonable(value: dict[Any, Any]) -> dict[str, JSON]: ...


@overload
def jsonable(value: object) -> JSON: ...


def jsonable(value: object) -> JSON:
    """Plain JSON data: dates become ISO text, money stays exact (Decimal → its text), paths their name."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items: list[JSON] = [jsonable(v) for v in value]
        return items
    if isinstance(value, (set, frozenset)):
        members: list[JSON] = [jsonable(v) for v in value]
        return sorted(members)  # type: ignore[type-var]  # a set's members are scalars (names, codes), which sort
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.is_finite() else str(value)
    if isinstance(value, float):
        return str(Decimal(repr(value)))
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, PurePath):
        return value.name  # a path on the build machine is not part of what was filed
    if isinstance(value, bytes):
        return {"sha256": sha256(value), "bytes": len(value)}
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        data: JSON = jsonable(to_json())
        return data
    return str(value)


def canonical_json(value: object) -> bytes:
    """Sorted keys, fixed separators, ASCII only, one trailing newline: the same data gives the same bytes."""
    text = json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return text.encode("ascii") + b"\n"


def manifest_bytes(manifest: Manifest) -> bytes:
    """manifest.json's bytes: the manifest in canonical form."""
    return canonical_json(manifest)


def _file_entry(name: str, data: bytes) -> FileEntry:
    return {"file": name, "sha256": sha256(data), "bytes": len(data)}


def offering_file_name(offering: Offering) -> str:
    path = getattr(offering, "path", None)
    name = Path(str(path)).name if path is not None else ""
    return name or "offering.yaml"


def logo_of(offering: Offering) -> tuple[str, bytes] | None:
    """(name, bytes) of the offering's logo, or None: the bytes the loader read once and validation judged."""
    from rulegen.logo import LogoRefused

    try:
        logo = offering.logo()
    except LogoRefused:
        return None
    return (PurePath(logo.name).as_posix(), logo.data) if logo is not None else None


# The versions of the renderer's libraries, {"weasyprint", "pydyf", "pango"}: version, or None where one cannot be
# read. The render layer reads them; the build hands them to `build_manifest`, and verify is handed them with its
# renderer (`rulegen.filing.rebuild.Reproducer`).
RendererVersions = Mapping[str, str | None]


def software_versions(renderer: RendererVersions) -> Software:
    """The versions of everything that shapes the rendered bytes: rulegen, WeasyPrint, pydyf, Pango (`renderer`, as
    the render layer reads them), the fonts."""
    from rulegen import __version__

    return {
        "rulegen": __version__,
        "weasyprint": renderer.get("weasyprint"),
        "pydyf": renderer.get("pydyf"),
        "pango": renderer.get("pango"),
        "fonts": dict(font_hashes()),
    }


def font_hashes() -> dict[str, str]:
    """SHA-256 of each font file the product ships (templates/assets), by its path there."""
    try:
        from rulegen.resources import assets_dir

        root = assets_dir()
    except Exception:
        return {}
    if not root.is_dir():
        return {}
    return {path.relative_to(root).as_posix(): sha256(path.read_bytes())
            for path in sorted(root.rglob("*")) if path.is_file() and path.suffix.lower() in FONT_SUFFIXES}


def _data_file(path: Path) -> bytes:
    """A data folder's file, read as every input file is (a FIFO or a device put there is refused at once)."""
    from rulegen.errors import InputError
    from rulegen.safeio import UnsafeFile, read_regular

    try:
        return read_regular(path, 64 * 1024 * 1024, follow_symlinks=True)
    except UnsafeFile as exc:
        raise InputError(f"the data file {path} cannot be read: {exc.reason}") from None


def data_hashes(jurisdiction_code: str | None) -> DataHashes:
    """The jurisdiction data and schemas a build used: each file's SHA-256, and one hash over all of them.

    The shipped data first, then each `RULEGEN_DATA_PATH` folder from the last to the first, so a file an extra
    folder adds or replaces is recorded with the bytes the build read. With a jurisdiction, only its own files and
    the shared schemas: a filing names no other jurisdiction's data."""
    from rulegen.resources import data_roots

    candidates: dict[str, Path] = {}
    for root in reversed(data_roots()):
        for label in ("jurisdictions", "schemas"):
            folder = root / label
            if not folder.is_dir():
                continue
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "samples" not in path.relative_to(folder).parts \
                        and path.suffix in (".yaml", ".json"):
                    candidates[f"{label}/{path.relative_to(folder).as_posix()}"] = path
    codes = {name.split("/")[-1].split(".")[0] for name in candidates
             if name.startswith("jurisdictions/") and name.count("/") == 1}
    own = (jurisdiction_code or "").lower()
    files: dict[str, str] = {}
    for name, path in candidates.items():
        stem = name.split("/")[-1].split(".")[0]
        if jurisdiction_code is None or stem == own or stem not in codes:
            files[name] = sha256(_data_file(path))
    combined = sha256("".join(f"{name}\0{digest}\n" for name, digest in sorted(files.items())).encode())
    jurisdiction_file = f"jurisdictions/{(jurisdiction_code or '').lower()}.yaml"
    return {
        "jurisdiction": jurisdiction_code,
        "jurisdiction_sha256": files.get(jurisdiction_file),
        "sha256": combined,
        "files": dict(files),
    }


def _finding_json(finding: object, offering_name: str) -> JSON:
    entry = jsonable(finding)
    if isinstance(entry, dict) and "path" in entry:
        entry["path"] = offering_name  # the name, not where the file sat on the build machine
    return entry


IDENTITY_FIELDS = ("id", "jurisdiction", "version", "effective_date")


def offering_identity(offering: Offering) -> dict[str, JSON]:
    """Which offering, where and which revision: the manifest's `offering` fields as the offering file gives them
    (`verify` reads them from the signed, attached offering and requires the manifest to say the same)."""
    data = offering.data if isinstance(offering.data, dict) else {}
    head = data.get("offering")
    head = head if isinstance(head, dict) else {}
    return {name: jsonable(head.get(name)) for name in IDENTITY_FIELDS}


def build_manifest(*, offering: Offering, jurisdiction_code: str | None, outputs: Mapping[str, bytes],
                   options: Mapping[str, object], findings: Iterable[object], renderer_versions: RendererVersions,
                   signoffs: Iterable[object] | None = None, logo: tuple[str, bytes] | None = None,
                   figures: Mapping[str, object] | None = None) -> Manifest:
    """The manifest of one build: the one place manifest.json is made (`manifest_bytes` writes it).

    `outputs` maps each output's file name to its bytes (rules.pdf and manifest.json, if given, are
    left out); `options` are the build options (paths reduced to their names); `findings` are the
    validator's findings; `renderer_versions` those of the renderer's libraries the outputs were rendered with
    (`rulegen.render.pdf.renderer_versions`); `signoffs` the sign-offs as printed (the offering's `signoff` list
    when None, plus, when signed, an entry for the signing certificate). `logo` overrides the logo read from the
    offering's folder. `figures` are the mathematics the documents print, as the build computed them (see
    `rulegen.assemble.filing_figures`); `verify` computes them again and compares.
    """
    data = offering.data if isinstance(offering.data, dict) else {}
    head = data.get("offering") or {}
    name = offering_file_name(offering)
    logo = logo if logo is not None else logo_of(offering)
    hashed: dict[str, Digest] = {key: {"sha256": sha256(value), "bytes": len(value)}
                                 for key, value in sorted(outputs.items()) if key not in UNHASHED_OUTPUTS}
    if signoffs is None:
        signoffs = data.get("signoff") or []
    identity = offering_identity(offering)
    recorded_options, recorded_signoffs = jsonable(options or {}), jsonable(list(signoffs))
    recorded_figures = jsonable(figures) if figures is not None else None
    if not isinstance(recorded_options, dict) or not isinstance(recorded_signoffs, list) \
            or not isinstance(recorded_figures, (dict, type(None))):
        raise TypeError("the build options and the figures are mappings, the sign-offs a list")
    source = _file_entry(name, offering.source)
    return {
        "format": MANIFEST_FORMAT,
        "offering": {"file": source["file"], "sha256": source["sha256"], "bytes": source["bytes"],
                     "id": identity["id"], "jurisdiction": identity["jurisdiction"], "version": identity["version"],
                     "effective_date": identity["effective_date"]},
        "logo": _file_entry(*logo) if logo else None,
        "outputs": hashed,
        "software": software_versions(renderer_versions),
        "data": data_hashes(jurisdiction_code),
        "options": recorded_options,
        "findings": [_finding_json(f, name) for f in findings or []],
        "signoffs": recorded_signoffs,
        "figures": recorded_figures,
        # The build's date is the offering's effective date, never the clock.
        "date": jsonable(head.get("effective_date")),
    }


def attachment_time(manifest: Mapping[str, object]) -> _dt.datetime:
    """The timestamp written on each PDF attachment: the offering's effective date at midnight UTC."""
    text = str(manifest.get("date") or "")
    try:
        day = _dt.date.fromisoformat(text[:10])
    except ValueError:
        day = _dt.date(2000, 1, 1)
    return _dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc)


def source_date_epoch(manifest: Mapping[str, object]) -> int:
    """The build's clock for every library that reads SOURCE_DATE_EPOCH (fontTools stamps each subset font's
    `head` table with it): the offering's effective date, so a rendering is the same bytes on every run."""
    return int(attachment_time(manifest).timestamp())


@contextlib.contextmanager
def reproducible_clock(manifest: Mapping[str, object]) -> Iterator[int]:
    """Inside: SOURCE_DATE_EPOCH is the effective date; outside, as it was. Render rules.pdf within it."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    epoch = source_date_epoch(manifest)
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield epoch
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


class AttachedFile(NamedTuple):
    """A file rules.pdf carries: its name, its exact bytes, and what it is."""

    name: str
    data: bytes
    description: str


def attached_files(offering: Offering, manifest_data: bytes,
                   logo: tuple[str, bytes] | None = None) -> list[AttachedFile]:
    """What rules.pdf carries, in order: the offering's exact bytes, its logo, the manifest.

    The render layer attaches them dated with `attachment_time` (WeasyPrint would otherwise stamp the clock), so
    the rendering is reproducible and `rulegen verify` can compare it byte for byte.
    """
    logo = logo if logo is not None else logo_of(offering)
    files = [AttachedFile(offering_file_name(offering), offering.source,
                          "The offering file this filing was built from")]
    if logo:
        files.append(AttachedFile(logo[0], logo[1], "The operator's logo, as given in the offering"))
    files.append(AttachedFile(MANIFEST_NAME, manifest_data,
                              "The build manifest: hashes of every output, versions, findings, sign-offs"))
    return files
