"""What `rulegen diff` compares: an offering file, or the offering a filing's rules.pdf carries."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulegen.errors import InputError
from rulegen.filing.diff.words import Data

if TYPE_CHECKING:
    from rulegen.offering import Offering


def offering_from_path(path: str | Path, display: str | None = None) -> Offering:
    """An offering from a file: an offering YAML, or a built filing's rules.pdf (its attached offering)."""
    from rulegen.offering import parse_offering

    from rulegen.safeio import UnsafeFile, read_regular

    file = Path(path)
    shown = display or str(file)
    try:  # read once, a regular file of bounded size: a FIFO given as --previous answers at once
        data = read_regular(file, MAX_FILING_READ, follow_symlinks=True)
    except UnsafeFile as exc:
        raise InputError(f"{shown}: {exc.reason}") from None
    if b"%PDF-" not in data[:1024]:
        return parse_offering(data, shown, file)
    source, name = _offering_in_filing(data, shown)
    return parse_offering(source, f"{shown}:{name}")


MAX_FILING_READ = 64 * 1024 * 1024  # a filing's rules.pdf is far smaller; an offering file is at most 1 MiB


def _offering_in_filing(data: bytes, display: str) -> tuple[bytes, str]:
    from rulegen.filing.manifest import MANIFEST_NAME, ManifestError, read_manifest, sha256
    from rulegen.filing.pdf import FilingFormatError, embedded_files, open_reader

    try:
        files = {f.name: f.data for f in embedded_files(open_reader(data))}
    except FilingFormatError as exc:
        raise InputError(f"{display}: the filing cannot be read: {exc}") from None
    except RecursionError:
        raise InputError(f"{display}: the filing cannot be read: its objects are nested deeper than any PDF rulegen "
                         "writes") from None
    except Exception as exc:
        raise InputError(f"{display}: the filing's attachments cannot be read ({type(exc).__name__})") from None
    try:
        entry = read_manifest(files[MANIFEST_NAME])["offering"]
        source = files[entry["file"]]
    except (KeyError, ManifestError):
        raise InputError(f"{display} carries no offering with a manifest; is it a rulegen filing?") from None
    if sha256(source) != entry["sha256"]:
        raise InputError(f"{display}: the attached offering does not match its manifest; run rulegen verify")
    return source, entry["file"]


def _data(offering: Offering | Data) -> Data:
    data = offering.data if hasattr(offering, "data") else offering
    if not isinstance(data, dict):
        raise InputError("an offering is a YAML mapping of fields")
    return data
