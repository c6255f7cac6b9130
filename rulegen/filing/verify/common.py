"""What the checks of `rulegen verify` share: the filing being checked, the bounded reading of a file, and the
few words a check's reason is written in."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from rulegen.errors import InputError
from rulegen.filing.manifest import Manifest
from rulegen.filing.verify.report import VerifyReport


MAX_FILING_BYTES = 64 * 1024 * 1024  # far above any rules.pdf (a few MiB with a 5 MiB logo): what one check reads


def _read(path: Path, *, follow_symlinks: bool = True) -> bytes:
    """A file named on the command line (a filing, a trust root), read once: a regular file of bounded size,
    never a FIFO or device that would hang the run."""
    from rulegen.safeio import UnsafeFile, read_regular

    try:
        return read_regular(path, MAX_FILING_BYTES, follow_symlinks=follow_symlinks)
    except UnsafeFile as exc:
        if "the most read" in exc.reason or "larger than" in exc.reason:
            raise InputError(f"{path} is larger than {MAX_FILING_BYTES // (1024 * 1024)} MiB; it is not a filing "
                             "rulegen built") from None
        raise InputError(f"{path}: {exc.reason}") from None


class FilingState:
    """The filing under check and what the checks learn of it, each check reading what an earlier one found."""

    def __init__(self, report: VerifyReport, path: Path, data: bytes, roots: list[Any]) -> None:
        self.report, self.path, self.data, self.roots = report, path, data, roots
        self.reader: Any = None
        self.signatures: list[Any] = []
        self.signed_prefix_end: int | None = None  # where the unsigned rendering ends
        self.signature_end: int | None = None  # where the signature's revision ends (the file's end, but for a DSS)
        self.dss_update = False  # a third revision follows the signature: it may only add validation data
        self.manifest: Manifest | None = None
        self.attachments: dict[str, bytes] = {}
        self.certificate_name: str | None = None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _text_or_none(value: object) -> str | None:
    return None if value is None or isinstance(value, (dict, list)) else str(value)


def _asn1_name(cert: Any, issuer: bool = False) -> str:
    """Common name, then organization, as signer_name() prints them."""
    name = cert.issuer if issuer else cert.subject
    native = name.native
    common, organization = native.get("common_name"), native.get("organization_name")
    if isinstance(common, list):
        common = common[0]
    if isinstance(organization, list):
        organization = organization[0]
    if common and organization:
        return f"{common}, {organization}"
    return str(common or organization or name.human_friendly)


def _organization(cert: Any) -> str | None:
    """The organisation the certificate's subject names (the first, if several); None if it names none."""
    try:
        organization = cert.subject.native.get("organization_name")
    except Exception:
        return None
    if isinstance(organization, list):
        organization = organization[0] if organization else None
    return str(organization) if organization else None


def _when(moment: _dt.datetime | None) -> str:
    return "an unknown time" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S %Z").strip()


NESTED_TOO_DEEP = ("its objects are nested deeper than any PDF rulegen writes (so deep that reading them would "
                   "exhaust the reader's stack); it is not a filing rulegen built")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return NESTED_TOO_DEEP
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
