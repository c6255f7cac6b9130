"""What `rulegen verify` needs from a renderer to reproduce a filing, stated as types.

The filing layer never imports the renderer: the build layer (`rulegen.assemble.reproduce_filing_for_verify`) or
the command line hands `verify_filing` a `Reproducer`: a function of the `PackageRenderer` shape, whose every file
verify compares with the filing's package byte for byte (rules.pdf: the revision the signature covers, before the
signature's own update), and the reader of the versions of the libraries it renders with, which must be those the
manifest records for the reproduction to be byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rulegen.filing.manifest import Manifest, RendererVersions

# The files a reproduction gives: every file of the package, each the bytes a build of the signed offering writes,
# and rules.pdf unsigned, as the signer was handed it. In this order a mismatch names first the document that was
# swapped, then the manifest that hashes it, then rules.pdf, which carries that manifest.
REPRODUCED_FILES = ("rules.html", "signage.pdf", "math-appendix.pdf", "manifest.json", "rules.pdf")
# The files only some builds write (`build --docx`): compared, after the documents, where the filing's manifest
# lists them or the reproduction gives them.
OPTIONAL_FILES = ("rules.docx",)


class PackageRenderer(Protocol):
    """Renders every file of the package a build gives today from the signed offering (and its logo) alone, with
    the build options the offering does not carry (`options`: the manifest's) and the signing certificate's name
    (`signer`)."""

    def __call__(self, *, source: bytes, name: str, logo: tuple[str, bytes] | None, options: Mapping[str, Any],
                 signer: str | None) -> Mapping[str, bytes]: ...


@dataclass(frozen=True)
class Reproducer:
    """What verify is handed to build a filing again: `render`, the whole package's renderer, and `versions`, the
    reader of the versions of the renderer's libraries it renders with (WeasyPrint, pydyf, Pango), read only when a
    reproduction is attempted, so handing a Reproducer loads no renderer. Called, it renders."""

    render: PackageRenderer
    versions: Callable[[], RendererVersions]

    def __call__(self, *, source: bytes, name: str, logo: tuple[str, bytes] | None, options: Mapping[str, Any],
                 signer: str | None) -> Mapping[str, bytes]:
        return self.render(source=source, name=name, logo=logo, options=options, signer=signer)


class RulesRenderer(Protocol):
    """Renders the unsigned rules.pdf alone, with the manifest given attached
    (`rulegen.assemble.render_rules_pdf_for_verify`)."""

    def __call__(self, *, source: bytes, name: str, logo: tuple[str, bytes] | None, manifest: Manifest,
                 signer: str | None) -> bytes: ...
