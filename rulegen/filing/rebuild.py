"""What `rulegen verify --rebuild` needs from a renderer, stated as a type.

The filing layer never imports the renderer: the build layer (`rulegen.build.render_rules_pdf_for_verify`)
or the command line hands `verify_filing` a function of this shape, and verify compares what it returns
with the signed rendering byte for byte.
"""

from __future__ import annotations

from typing import Any, Protocol


class RulesRenderer(Protocol):
    """Renders the unsigned rules.pdf a build with the manifest's options gives today from the attached files."""

    def __call__(self, *, source: bytes, name: str, logo: tuple[str, bytes] | None, manifest: dict[str, Any],
                 signer: str | None) -> bytes: ...
