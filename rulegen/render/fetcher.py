"""The only way WeasyPrint reads anything: the product's own assets, and the offering's logo.

Templates name resources with two URL schemes of our own, never a machine path (so rules.html and the
PDFs come out the same on every machine):

  rulegen-asset:fonts/DejaVuSans.ttf    a file under templates/assets/
  rulegen-offering:logo.png             the offering's logo, served from the bytes the loader read once

The logo is never opened again by name here: the fetcher is handed the bytes that validation judged and
the manifest hashes, so swapping the file between the checks and the rendering changes nothing. Everything
else (http, https, ftp, file, data, any other file of the offering's folder, a path that climbs out of the
assets, a logo that is not a PNG or SVG) raises `FatalURLFetchingError`, which aborts the rendering: a document that
silently dropped a resource is worse than no document. WeasyPrint 70 requires a `URLFetcher` subclass.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

ASSET_SCHEME = "rulegen-asset"
OFFERING_SCHEME = "rulegen-offering"
MAX_RESOURCE_BYTES = 8 << 20  # a logo or font larger than this is not one we mean to read
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ASSET_TYPES = {
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".css": "text/css",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}


class RefusedResource(FatalURLFetchingError):
    """A resource the renderer will not read; the message says which and why."""

    def __init__(self, url: str, reason: str):
        super().__init__(f"refused to read {shorten(url)!r}: {reason}")
        self.url = url
        self.reason = reason


def shorten(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def asset_url(relative: str) -> str:
    return f"{ASSET_SCHEME}:{quote(relative)}"


def offering_url(relative: str) -> str:
    return f"{OFFERING_SCHEME}:{quote(relative)}"


def image_type(data: bytes) -> str | None:
    """image/png or image/svg+xml when the bytes are one, else None (the file's name is not trusted)."""
    if data.startswith(PNG_MAGIC):
        return "image/png"
    head = data[:4096].lstrip(b"\xef\xbb\xbf").lstrip()
    lowered = head.lower()
    if lowered.startswith(b"<svg") or (lowered.startswith(b"<?xml") or lowered.startswith(b"<!--")) and b"<svg" in lowered:
        return "image/svg+xml"
    return None


def inside(root: Path, relative: str, url: str) -> Path:
    """`root/relative`, resolved through every symlink, refused unless it stays under `root`."""
    if not relative:
        raise RefusedResource(url, "it names no file")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or "\\" in relative or (len(relative) > 1 and relative[1] == ":"):
        raise RefusedResource(url, "an absolute path; resources are named relative to their folder")
    if ".." in pure.parts:
        raise RefusedResource(url, "the path climbs out of its folder with '..'")
    real_root = root.resolve()
    candidate = (real_root / pure).resolve()
    if candidate != real_root and real_root not in candidate.parents:
        raise RefusedResource(url, f"it resolves (after symlinks) to {candidate}, outside {real_root}")
    if not candidate.is_file():
        raise RefusedResource(url, "no such file" if not candidate.exists() else "not a regular file")
    return candidate


def read_limited(path: Path, url: str) -> bytes:
    """The asset's bytes, read as every input file is: once, a regular file (a FIFO swapped in after the checks
    above is refused, not waited on), at most MAX_RESOURCE_BYTES."""
    from rulegen.safeio import UnsafeFile, read_regular

    try:
        return read_regular(path, MAX_RESOURCE_BYTES, follow_symlinks=True)  # `path` is resolved: no link is left
    except UnsafeFile as exc:
        if "the most read" in exc.reason or "larger than" in exc.reason:
            raise RefusedResource(url, f"larger than {MAX_RESOURCE_BYTES >> 20} MiB") from None
        raise RefusedResource(url, f"it cannot be read: {exc.reason}") from None


class SafeFetcher(URLFetcher):
    """Reads `rulegen-asset:` from the assets folder and `rulegen-offering:` images from the offering's folder.

    Every URL asked for is recorded in `fetched` (for tests and the build log); nothing touches the network.
    """

    def __init__(self, assets: Path, offering_files: Mapping[str, bytes] | None = None):
        super().__init__(allowed_protocols=(ASSET_SCHEME, OFFERING_SCHEME), allow_redirects=False,
                         fail_on_errors=True)
        self.assets = Path(assets)
        self.offering_files = dict(offering_files) if offering_files is not None else None
        self.fetched: list[str] = []
        self.refused: list[RefusedResource] = []  # WeasyPrint swallows some errors (inside SVG): we do not

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:  # noqa: ARG002 - WeasyPrint's signature
        url = str(url)
        self.fetched.append(url)
        try:
            return self._fetch(url)
        except RefusedResource as refusal:
            self.refused.append(refusal)
            raise

    def _fetch(self, url: str) -> URLFetcherResponse:
        scheme, sep, rest = url.partition(":")
        scheme = scheme.lower()
        if not sep:
            raise RefusedResource(url, "not a URL the renderer knows")
        if scheme == ASSET_SCHEME:
            return self._asset(url, unquote(rest))
        if scheme == OFFERING_SCHEME:
            return self._offering(url, unquote(rest))
        if scheme in ("http", "https", "ftp", "ftps", "ws", "wss"):
            raise RefusedResource(url, "the renderer never reaches the network; give the logo as a PNG or SVG file "
                                       "in the offering's folder")
        if scheme == "file":
            raise RefusedResource(url, "file: URLs are not read; give the logo as a path relative to the offering file")
        raise RefusedResource(url, f"the {scheme}: scheme is not read by the renderer")

    def _asset(self, url: str, relative: str) -> URLFetcherResponse:
        path = inside(self.assets, relative, url)
        kind = ASSET_TYPES.get(path.suffix.lower())
        if kind is None:
            raise RefusedResource(url, f"{path.suffix or 'no suffix'} is not an asset type the renderer reads")
        return URLFetcherResponse(url, read_limited(path, url), {"Content-Type": kind})

    def _offering(self, url: str, relative: str) -> URLFetcherResponse:
        if self.offering_files is None:
            raise RefusedResource(url, "this document reads nothing from an offering's folder")
        data = self.offering_files.get(relative)
        if data is None:
            raise RefusedResource(url, "only the offering's logo, as it was read and checked, is drawn; this is "
                                       "not it")
        path = PurePosixPath(relative)
        kind = image_type(data)
        if kind is None:
            raise RefusedResource(url, "not a PNG or SVG image (its bytes are neither)")
        declared = mimetypes.guess_type(path.name)[0]
        if declared not in (None, kind):
            raise RefusedResource(url, f"named like {declared} but its bytes are {kind}")
        return URLFetcherResponse(url, data, {"Content-Type": kind})
