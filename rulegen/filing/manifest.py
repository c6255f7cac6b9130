"""The build manifest: what a filing was built from, with what, and the hash of everything it holds.

The manifest travels inside rules.pdf (as an attachment) and beside it (manifest.json). It holds the
SHA-256 of the offering file, of its logo and of every output except rules.pdf (which embeds the
manifest, so one signature over rules.pdf covers the whole filing), the versions of the software and
data that shaped the bytes, the build options, the findings and the sign-offs. Nothing in it depends
on the clock or on the machine's paths: two builds of the same offering with the same software write
the same bytes.

The filing layer never renders: the versions of the renderer's libraries (WeasyPrint, pydyf, Pango) are read
by the render layer and passed in by the build layer (`build_manifest(renderer_versions=...)`), and the files
attached to rules.pdf leave here as plain names and bytes (`attached_files`);
the render layer wraps them for WeasyPrint.
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
from typing import TYPE_CHECKING, Any, NamedTuple, overload

if TYPE_CHECKING:
    from rulegen.offering import Offering

# Plain JSON data, as the manifest holds it.
JSON = dict[str, "JSON"] | list["JSON"] | str | int | bool | None

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "rulegen-manifest/1"
FONT_SUFFIXES = (".ttf", ".otf", ".woff", ".woff2", ".ttc")
# Outputs the manifest hashes; rules.pdf is left out because it carries the manifest inside it.
UNHASHED_OUTPUTS = ("rules.pdf", MANIFEST_NAME)


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


def manifest_bytes(manifest: Mapping[str, object]) -> bytes:
    return canonical_json(manifest)


def _file_entry(name: str, data: bytes) -> dict[str, JSON]:
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


def software_versions(renderer: RendererVersions) -> dict[str, JSON]:
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


def data_hashes(jurisdiction_code: str | None) -> dict[str, JSON]:
    """The jurisdiction data and schemas a build used: each file's SHA-256, and one hash over all of them.

    The shipped data first, then each `RULEGEN_DATA_PATH` folder from the last to the first, so a file an extra
    folder adds or replaces is recorded with the bytes the build read."""
    from rulegen.resources import data_roots

    files: dict[str, str] = {}
    for root in reversed(data_roots()):
        for label in ("jurisdictions", "schemas"):
            folder = root / label
            if not folder.is_dir():
                continue
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "samples" not in path.relative_to(folder).parts \
                        and path.suffix in (".yaml", ".json"):
                    files[f"{label}/{path.relative_to(folder).as_posix()}"] = sha256(_data_file(path))
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
                   figures: Mapping[str, object] | None = None) -> dict[str, JSON]:
    """The manifest of one build.

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
    hashed: dict[str, JSON] = {key: {"sha256": sha256(value), "bytes": len(value)}
              for key, value in sorted(outputs.items()) if key not in UNHASHED_OUTPUTS}
    if signoffs is None:
        signoffs = data.get("signoff") or []
    return {
        "format": MANIFEST_FORMAT,
        "offering": {**_file_entry(name, offering.source), **offering_identity(offering)},
        "logo": _file_entry(*logo) if logo else None,
        "outputs": hashed,
        "software": software_versions(renderer_versions),
        "data": data_hashes(jurisdiction_code),
        "options": jsonable(options or {}),
        "findings": [_finding_json(f, name) for f in findings or []],
        "signoffs": jsonable(list(signoffs)),
        "figures": jsonable(figures) if figures is not None else None,
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
