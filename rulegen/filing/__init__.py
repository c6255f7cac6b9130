"""The filing layer: manifest, embedded offering, sign-off, PDF signature, verification, diff.

It uses validate, math and the loader, never the renderer (the build hands it what it needs of render: the
renderer's versions, and `verify` its renderer), and never changes content: it records what was built, seals it, and
checks it again later. Everything the other layers call lives here, so `from rulegen.filing import ...` keeps working
whichever module a function moves to.
"""

from __future__ import annotations

from rulegen.filing.manifest import (
    MANIFEST_NAME,
    AttachedFile,
    Manifest,
    ManifestError,
    attached_files,
    build_manifest,
    canonical_json,
    manifest_bytes,
    read_manifest,
    reproducible_clock,
    software_versions,
    source_date_epoch,
)
from rulegen.filing.signing import PASSPHRASE_ENV, passphrase_from_env, sign_pdf, signer_name
from rulegen.filing.verify import Check, VerifyReport, verify_filing
from rulegen.filing.diff import Change, changes_section, diff_offerings, offering_from_path

__all__ = [
    "AttachedFile",
    "MANIFEST_NAME",
    "Manifest",
    "ManifestError",
    "PASSPHRASE_ENV",
    "Change",
    "Check",
    "VerifyReport",
    "attached_files",
    "build_manifest",
    "canonical_json",
    "changes_section",
    "diff_offerings",
    "manifest_bytes",
    "offering_from_path",
    "read_manifest",
    "passphrase_from_env",
    "reproducible_clock",
    "sign_pdf",
    "signer_name",
    "software_versions",
    "source_date_epoch",
    "verify_filing",
]
