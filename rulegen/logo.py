"""The operator's logo: read once from the offering's folder, and accepted only when it is safe to render.

Layer: load (uses `safeio` only). The bytes read here are the bytes every later step uses: validation judges
them, the renderer draws them (served from memory, never read again by name), the manifest hashes them and
the filing attaches them.

A PNG must decode completely (a truncated file would print as a black box) and hold at most
`MAX_PIXELS` pixels. An SVG is accepted only within a small, self-contained subset, because WeasyPrint
would otherwise follow references, expand `<use>` without limit and carry scripts into the filing:
- only drawing elements (shapes, paths, text, groups, gradients, clip paths, `<use>`), no `<script>`,
  `<foreignObject>`, `<image>`, `<style>`, animation or event attributes;
- no reference outside the file: every `href` is a fragment (`#id`) of the same file, and no `url(...)`
  names anything but a fragment;
- at most `MAX_SVG_ELEMENTS` elements in the file and `MAX_SVG_EXPANDED` once every `<use>` is expanded
  (ten nested `<use>` of ten each would be ten billion); no DOCTYPE, so no entity can expand either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulegen.safeio import UnsafeFile, read_inside

MAX_LOGO_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000  # 40 megapixels: a 24 x 36 in sign at 300 ppi needs far less for a logo
MAX_SVG_ELEMENTS = 5_000
MAX_SVG_EXPANDED = 20_000
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_ALLOWED_ELEMENTS = frozenset({
    "svg", "g", "defs", "symbol", "use", "title", "desc", "metadata",
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "text", "tspan", "textPath",
    "linearGradient", "radialGradient", "stop", "clipPath", "mask", "pattern",
})
_FRAGMENT = re.compile(r"^#[A-Za-z_][\w.\-:]*$")
_URL_REFERENCE = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE)


class LogoRefused(ValueError):
    """The logo cannot be used; the message says why in plain words."""


@dataclass(frozen=True)
class Logo:
    """A logo as read from the offering's folder, checked, with its size in pixels (None for an SVG)."""

    name: str  # the path as the offering gives it, relative to the offering's folder
    data: bytes
    media_type: str  # image/png | image/svg+xml
    pixels: tuple[int, int] | None


def read_logo(folder, relative: str) -> Logo:
    """Read the logo once, check it, and return it; `LogoRefused` says why it cannot be used."""
    try:
        data = read_inside(folder, relative, MAX_LOGO_BYTES)
    except UnsafeFile as exc:
        if "the most read" in exc.reason or "larger than" in exc.reason:
            raise LogoRefused(f"the logo is larger than {MAX_LOGO_BYTES >> 20} MiB") from None
        raise LogoRefused(exc.reason) from None
    return check_logo(relative, data)


def check_logo(name: str, data: bytes) -> Logo:
    lowered = name.lower()
    if lowered.endswith(".png"):
        if not data.startswith(PNG_MAGIC):
            raise LogoRefused("the file is not a PNG image")
        return Logo(name, data, "image/png", _png_pixels(data))
    if lowered.endswith(".svg"):
        _check_svg(data)
        return Logo(name, data, "image/svg+xml", None)
    raise LogoRefused("a logo is a PNG or SVG file (.png or .svg)")


def _png_pixels(data: bytes) -> tuple[int, int]:
    import io
    import warnings

    from PIL import Image, ImageFile

    lenient = ImageFile.LOAD_TRUNCATED_IMAGES  # WeasyPrint turns this on for the whole process when imported
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with Image.open(io.BytesIO(data), formats=["PNG"]) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise LogoRefused(f"the PNG is {width} x {height} pixels; a logo may have at most "
                                      f"{MAX_PIXELS:,} pixels")
                image.load()  # every chunk decoded: a truncated or corrupt file fails here
    except LogoRefused:
        raise
    except Exception as exc:  # Pillow raises many kinds (OSError, SyntaxError, DecompressionBombWarning ...)
        raise LogoRefused(f"the PNG does not decode completely ({_short(exc)}); save it again") from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    return (width, height)


def _short(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def _local(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return "", tag


def _check_svg(data: bytes) -> None:
    from lxml import etree

    head = data[:2048].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise LogoRefused("the SVG has a DOCTYPE or entity declarations; save it as plain SVG")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise LogoRefused(f"the SVG is not well-formed XML ({_short(exc)})") from None
    namespace, local = _local(root.tag) if isinstance(root.tag, str) else ("", "")
    if local != "svg" or namespace not in (_SVG_NS, ""):
        raise LogoRefused("the file is not an SVG image (its top element is not <svg>)")

    ids: dict[str, object] = {}
    count = 0
    alive = list(root.iter())  # lxml makes element proxies on demand: holding them keeps id() stable below
    for element in alive:
        if not isinstance(element.tag, str):
            continue
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise LogoRefused(f"the SVG has more than {MAX_SVG_ELEMENTS:,} elements; simplify it")
        namespace, local = _local(element.tag)
        if namespace not in (_SVG_NS, "") or local not in _ALLOWED_ELEMENTS:
            raise LogoRefused(f"the SVG holds a <{local}> element; a logo may hold only shapes, paths, text, "
                              "groups, gradients and <use>")
        for attribute, value in element.attrib.items():
            _, name = _local(attribute)
            lowered = name.lower()
            if lowered.startswith("on"):
                raise LogoRefused(f"the SVG's <{local}> has an event attribute ({name}); remove scripts")
            if lowered == "href" and not _FRAGMENT.match(value.strip()):
                raise LogoRefused(f"the SVG's <{local}> refers to {value[:60]!r}; a logo may refer only to "
                                  "parts of itself (#id)")
            if lowered == "style" and ("@import" in value.lower() or "expression(" in value.lower()):
                raise LogoRefused(f"the SVG's <{local}> has a style that imports or computes; remove it")
            for _quote, target in _URL_REFERENCE.findall(value):
                if not _FRAGMENT.match(target.strip()):
                    raise LogoRefused(f"the SVG's <{local}> refers to {target[:60]!r}; a logo may refer only to "
                                      "parts of itself (#id)")
            if lowered == "id":
                ids[value] = element
    _check_expansion(root, ids)


def _check_expansion(root, ids: dict) -> None:
    """The number of elements once every <use> is drawn, without drawing it; a cycle is refused."""
    expanded: dict[int, int] = {}
    visiting: set[int] = set()

    def size(element) -> int:
        key = id(element)
        if key in expanded:
            return expanded[key]
        if key in visiting:
            raise LogoRefused("the SVG's <use> elements refer to each other in a loop")
        visiting.add(key)
        total = 1
        for child in element:
            if isinstance(child.tag, str):
                total += size(child)
                if total > MAX_SVG_EXPANDED:
                    break
        if _local(element.tag)[1] == "use":
            href = next((v for a, v in element.attrib.items() if _local(a)[1] == "href"), None)
            target = ids.get(href.strip()[1:]) if href else None
            if target is not None:
                total += size(target)
        visiting.discard(key)
        if total > MAX_SVG_EXPANDED:
            raise LogoRefused(f"the SVG draws more than {MAX_SVG_EXPANDED:,} elements once its <use> references "
                              "are expanded; simplify it")
        expanded[key] = total
        return total

    size(root)
