"""The trust roots `rulegen verify` checks a signer against: `--trust` files and the folders RULEGEN_TRUST names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Union

from rulegen.errors import InputError
from rulegen.filing.verify.common import _read

PathsArgument = Union[str, Path, Iterable[Union[str, Path]], None]  # one file, several, or none

TRUST_ENV = "RULEGEN_TRUST"
CERTIFICATE_SUFFIXES = (".pem", ".crt", ".cer", ".der")


def load_trust_roots(trust: PathsArgument) -> list[Any]:
    """asn1crypto certificates from one or more PEM/DER files (a PEM file may hold several)."""
    from asn1crypto import pem, x509 as asn1_x509

    paths = [trust] if isinstance(trust, (str, Path)) else list(trust or [])
    roots = []
    for item in paths:
        path = Path(item)
        data = _read(path)
        try:
            if pem.detect(data):
                blocks = [der for kind, _headers, der in pem.unarmor(data, multiple=True) if kind == "CERTIFICATE"]
            else:
                blocks = [data]
            certs = [asn1_x509.Certificate.load(der) for der in blocks]
            for cert in certs:
                cert.native  # parse fully now, so a broken file fails here and not mid-validation
        except Exception:
            raise InputError(f"--trust {path}: not a PEM or DER certificate file") from None
        if not certs:
            raise InputError(f"--trust {path}: holds no CERTIFICATE block")
        roots.extend(certs)
    return roots


def trust_paths(trust: PathsArgument = None, environ: Mapping[str, str] | None = None) -> list[Path]:
    """The certificate files to trust: each --trust file, then every certificate file (.pem, .crt, .cer,
    .der) in each folder RULEGEN_TRUST names (several joined by the path separator). A folder named there that
    is missing or holds no certificate is an error, not an empty trust list: a mistyped setting must not
    quietly trust nothing and still look configured."""
    import os

    paths = [Path(p) for p in ([trust] if isinstance(trust, (str, Path)) else list(trust or []))]
    environ = os.environ if environ is None else environ
    for entry in filter(None, (environ.get(TRUST_ENV) or "").split(os.pathsep)):
        folder = Path(entry)
        if folder.is_file():
            paths.append(folder)
            continue
        if not folder.is_dir():
            raise InputError(f"{TRUST_ENV} names {folder}, which is not a folder of trusted certificates")
        found = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in CERTIFICATE_SUFFIXES)
        if not found:
            raise InputError(f"{TRUST_ENV} names {folder}, which holds no certificate file "
                             f"({', '.join(CERTIFICATE_SUFFIXES)})")
        paths.extend(found)
    return paths
