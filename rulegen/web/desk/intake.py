"""An upload becomes a received filing: its files are checked (names, count, size), a zip is opened within the same
bounds, every file is archived by its SHA-256, and the folder is verified in full and recorded in the register, as
`rulegen register add` does (verify and the register do the checking; nothing here judges a filing).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile
import threading
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulegen.errors import InputError
from rulegen.filing.rebuild import Reproducer
from rulegen.filing.register import record
from rulegen.filing.register_reverify import DESK_PATH_PREFIX
from rulegen.filing.verify import VerifyReport, verify_filing
from rulegen.scratch import scratch_folder

# A filing folder's files have plain names: letters, digits, dot, dash, underscore; no folder, no leading dot.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 64 * 1024 * 1024  # the whole request (and a zip's contents, opened)
    max_files: int = 40


class UploadRefused(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def check_name(name: str) -> str:
    if not NAME.match(name) or ".." in name:
        raise UploadRefused(f"the file name {name[:100]!r} is not a plain file name (letters, digits, '.', '-', "
                            "'_'; no folder)")
    return name


def expand(uploaded: list[tuple[str, bytes]], limits: Limits) -> dict[str, bytes]:
    """The filing's files by name: the uploaded files, or the files of one uploaded zip (a zip whose files sit in
    one folder is taken as that folder)."""
    if not uploaded:
        raise UploadRefused("no file was uploaded (the form field is `files`)")
    if len(uploaded) == 1 and uploaded[0][0].lower().endswith(".zip"):
        return _unzip(uploaded[0][1], limits)
    if len(uploaded) > limits.max_files:
        raise UploadRefused(f"{len(uploaded)} files: a filing is at most {limits.max_files}", 413)
    found: dict[str, bytes] = {}
    for name, data in uploaded:
        check_name(name)
        if name in found:
            raise UploadRefused(f"the file {name} was uploaded twice")
        found[name] = data
    return found


def _unzip(data: bytes, limits: Limits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise UploadRefused(f"the zip cannot be read: {exc}") from None
    if len(members) > limits.max_files:
        raise UploadRefused(f"the zip holds {len(members)} files: a filing is at most {limits.max_files}", 413)
    if sum(m.file_size for m in members) > limits.max_bytes:
        raise UploadRefused(f"the zip's files come to more than {limits.max_bytes} bytes", 413)
    parts = [m.filename.split("/") for m in members]
    prefix = parts[0][:-1] if parts and all(p[:-1] == parts[0][:-1] for p in parts) else None
    if prefix is None or len(prefix) > 1:
        raise UploadRefused("the zip holds more than one folder: zip the filing's folder or its files")
    if prefix:
        check_name(prefix[0])  # a folder named like a file: not '', '.', '..' or anything stranger
    found: dict[str, bytes] = {}
    total = 0
    for member, part in zip(members, parts):
        name = check_name(part[-1])
        if name in found:
            raise UploadRefused(f"the zip holds {name} twice")
        try:
            with archive.open(member) as stream:  # read at most what the header promised, plus one byte
                content = stream.read(member.file_size + 1)
        except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, NotImplementedError) as exc:
            raise UploadRefused(f"{name} in the zip cannot be read: {exc}") from None
        total += len(content)
        if len(content) > member.file_size or total > limits.max_bytes:
            raise UploadRefused("the zip's files are larger than it says", 413)
        found[name] = content
    return found


def archive(folder: Path, data: bytes) -> str:
    """Store `data` under `folder` by its SHA-256 (aa/aabb...), once: a file already there is never rewritten."""
    digest = hashlib.sha256(data).hexdigest()
    target = folder / digest[:2] / digest
    if target.exists():
        return digest
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".incoming-")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o444)
        try:
            os.link(temporary, target)  # fails if another upload stored the same bytes first: theirs stays
        except FileExistsError:
            pass
    finally:
        os.unlink(temporary)
    return digest


VERDICTS = {"verified": "VERIFIED", "untrusted": "NOT TRUSTED"}

# One rendering at a time in a desk's process: reproducing a filing (and writing a decision's letter) renders under
# SOURCE_DATE_EPOCH, which is the process's environment (filing.manifest.reproducible_clock), so two renderings in
# two threads at once could each take the other's date and fail a good filing. Requests wait their turn instead.
RENDERING = threading.Lock()


@dataclass
class Received:
    verdict: str
    report: dict[str, Any]
    register_entry: int | None
    stored: list[tuple[str, str, int]]


def verify_files(found: Mapping[str, bytes], *, roots: list[Any], reproduce: Reproducer,
                 shown: str) -> VerifyReport:
    """verify's report on the filing these files make (written to a scratch folder that is gone afterwards)."""
    with scratch_folder("desk") as scratch:
        folder = scratch / "filing"
        folder.mkdir()
        for name, data in found.items():
            (folder / name).write_bytes(data)
        if "rules.pdf" not in found:
            report = VerifyReport(shown, error="the upload holds no rules.pdf", trust_roots=len(roots))
        else:
            try:
                with RENDERING:
                    report = verify_filing(folder / "rules.pdf", roots=roots, reproduce=reproduce)
            except InputError as exc:
                report = VerifyReport(str(folder / "rules.pdf"), error=exc.message, trust_roots=len(roots))
        report.path = shown  # not the scratch folder, which is gone when this returns
    return report


def summary_of(report: VerifyReport) -> tuple[str, dict[str, Any]]:
    """The desk's verdict word and the report as the desk keeps it (verify's JSON, the build's findings)."""
    summary = report.to_json()
    summary["findings"] = list(report.manifest["findings"]) if report.manifest is not None else []
    if report.error is not None:
        summary["checks"] = [{"name": "file", "ok": False, "detail": report.error, "warning": False, "status": "FAIL"}]
    return VERDICTS.get(report.status, "FAILED"), summary


def receive(found: Mapping[str, bytes], *, archive_folder: Path, engine: Any, roots: list[Any],
            reproduce: Reproducer) -> Received:
    """Archive the files, verify the filing they make in full, record it in the register (a failed one too)."""
    stored = [(name, archive(archive_folder, data), len(data)) for name, data in sorted(found.items())]
    rules = next((h for n, h, _ in stored if n == "rules.pdf"), None)
    report = verify_files(found, roots=roots, reproduce=reproduce,
                          shown=f"{DESK_PATH_PREFIX}{rules[:12] if rules else 'without rules.pdf'}/rules.pdf")
    result = record(engine, report)
    verdict, summary = summary_of(report)
    summary["flags"] = [flag.to_json() for flag in result.flags]
    summary["refused"] = result.refused
    return Received(verdict, summary, result.entry, stored)
