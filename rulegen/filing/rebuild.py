"""Re-rendering a filing's rules.pdf from what it carries, for `rulegen verify --rebuild`."""

from __future__ import annotations


def render_unsigned_rules(source: bytes, name: str, logo: tuple[str, bytes] | None, manifest: dict, *,
                          signer: str | None) -> bytes:
    """The unsigned rules.pdf a build with the manifest's options renders from `source` today."""
    try:
        from rulegen.render import pipeline
    except ImportError:
        raise RuntimeError("this rulegen has no render pipeline to rebuild with") from None
    rebuild = getattr(pipeline, "render_rules_pdf_for_verify", None)
    if rebuild is None:
        raise RuntimeError("the render pipeline offers no way to re-render rules.pdf")
    return rebuild(source=source, name=name, logo=logo, manifest=manifest, signer=signer)
