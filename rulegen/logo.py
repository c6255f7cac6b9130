"""The operator's logo: read once from the offering's folder, and accepted only when it is safe to render.

Layer: load (uses `safeio` only). The bytes read here are the bytes every later step uses: validation judges
them, the renderer draws them (served from memory, never read again by name), the manifest hashes them and
the filing attaches them.

A PNG must decode completely (a truncated file would print as a black box) and hold at most
`MAX_PIXELS` pixels. An SVG is accepted only within a small, self-contained subset, because WeasyPrint
would otherwise follow references, expand `<use>` without limit and carry scripts into the filing:
- only drawing elements (shapes, paths, groups, gradients, clip paths, `<use>`), no `<script>`,
  `<foreignObject>`, `<image>`, `<style>`, animation or event attributes;
- no text (`<text>`, `<tspan>`, `<textPath>`): WeasyPrint would set it in whatever fonts the building machine has
  under the family the SVG names (or its fallback), so one offering would give different PDFs on different
  machines. The lettering of a logo is converted to paths in the drawing program, which has the designer's own
  font (Inkscape: Path > Object to Path); outlining it here could only substitute a shipped font;
- no reference outside the file: every `href` is a fragment (`#id`) of the same file, and no `url(...)`
  names anything but a fragment;
- at most `MAX_SVG_ELEMENTS` elements in the file; no DOCTYPE, so no entity can expand either;
- bounded work once drawn. WeasyPrint draws a `<use>`'s target, a `clip-path`'s or `mask`'s contents, a
  pattern's tile and a gradient's stops again at every element that refers to them, and those may refer on in
  turn (ten nested `<use>` of ten each would be ten billion elements; twelve nested masks of four, sixteen
  million). The check follows every reference (`href`, `url(#id)` in any attribute or style) without drawing
  anything and bounds what would be drawn: `MAX_SVG_EXPANDED` elements, `MAX_SVG_DEPTH` levels of nesting,
  `MAX_SVG_PATH_DATA` characters of path data; a loop of references is refused. Per element: at most
  `MAX_SVG_GRADIENT_STOPS` stops in a gradient, no `spreadMethod` but pad (repeat and reflect copy the stops
  once per repeat, millions for a tiny gradient). Filters and markers are not in the subset at all. Together
  these keep the render of any accepted logo to seconds, and the check to milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulegen.safeio import UnsafeFile, read_inside

MAX_LOGO_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000  # 40 megapixels: a 24 x 36 in sign at 300 ppi needs far less for a logo
MAX_SVG_ELEMENTS = 5_000
MAX_SVG_EXPANDED = 20_000  # elements drawn, every reference followed
MAX_SVG_DEPTH = 48  # levels of elements inside elements as drawn, through every reference
MAX_SVG_PATH_DATA = 1_000_000  # characters of path data drawn (about five seconds of WeasyPrint's time)
MAX_SVG_GRADIENT_STOPS = 256
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_ALLOWED_ELEMENTS = frozenset({
    "svg", "g", "defs", "symbol", "use", "title", "desc", "metadata",
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "linearGradient", "radialGradient", "stop", "clipPath", "mask", "pattern",
})
_FRAGMENT = re.compile(r"^#[A-Za-z_][\w.\-:]*$")
_URL_REFERENCE = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE)


class LogoRefused(ValueError):
    """The logo cannot be used; the message says why in plain words. `rule`: the slug of the rule it breaks
    (`logo`, or `logo-text` for an SVG that draws text)."""

    def __init__(self, message: str, rule: str = "logo") -> None:
        super().__init__(message)
        self.rule = rule


TEXT_HINT = "convert the text to paths in your drawing program, e.g. Inkscape: Path > Object to Path"


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

    ids: dict[str, list] = {}  # every element with each id: a reference to a repeated id is counted to all of them
    count = 0
    alive = list(root.iter())  # lxml makes element proxies on demand: holding them keeps id() stable below
    for element in alive:
        if not isinstance(element.tag, str):
            continue
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise LogoRefused(f"the SVG has more than {MAX_SVG_ELEMENTS:,} elements; simplify it")
        namespace, local = _local(element.tag)
        if namespace in (_SVG_NS, "") and local in _TEXT_ELEMENTS:
            _refuse_text(element, local)
        if namespace not in (_SVG_NS, "") or local not in _ALLOWED_ELEMENTS:
            raise LogoRefused(f"the SVG holds a <{local}> element; a logo may hold only shapes, paths, "
                              "groups, gradients and <use>")
        _check_element_work(element, local)
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
                ids.setdefault(value, []).append(element)
    _check_expansion(root, ids)


_TEXT_ELEMENTS = frozenset({"text", "tspan", "textPath", "tref", "altGlyph", "flowRoot", "flowPara", "flowRegion"})
_PATH_DATA = frozenset({"d", "points"})
_GRADIENTS = frozenset({"linearGradient", "radialGradient"})


def _refuse_text(element, local: str) -> None:
    """Text in a logo is refused, quoting it so the designer finds it: its glyphs would come from the fonts of
    whichever machine builds the filing."""
    words = " ".join(" ".join(element.itertext()).split())
    quoted = repr(words if len(words) <= 40 else words[:40] + "...")
    shown = f" ({quoted})" if words else " (empty)"
    raise LogoRefused(f"the SVG draws text in a <{local}> element{shown}, which would be set in whatever fonts the "
                      "building machine has, so the same offering would give different PDFs on different machines; "
                      + TEXT_HINT, rule="logo-text")


def _check_element_work(element, local: str) -> None:
    """The bounds one element carries on its own: a gradient's stops and spread."""
    if local in _GRADIENTS:
        spread = (element.get("spreadMethod") or "pad").strip()
        if spread != "pad":
            raise LogoRefused(f"the SVG's <{local}> has spreadMethod=\"{spread[:20]}\"; a logo's gradients use pad "
                              "(a repeated gradient can cost millions of copies of its stops)")
        stops = sum(1 for child in element if isinstance(child.tag, str) and _local(child.tag)[1] == "stop")
        if stops > MAX_SVG_GRADIENT_STOPS:
            raise LogoRefused(f"the SVG's <{local}> has {stops:,} stops; a gradient may have at most "
                              f"{MAX_SVG_GRADIENT_STOPS}")


def _references(element) -> list[str]:
    """The ids an element refers to: its href (a <use>, a gradient or pattern it inherits from) and
    every url(#id) in its attributes and style (clip-path, mask, fill, stroke...)."""
    found = []
    for attribute, value in element.attrib.items():
        if _local(attribute)[1].lower() == "href":
            found.append(value.strip()[1:])
        for _quote, target in _URL_REFERENCE.findall(value):
            found.append(target.strip()[1:])
    return found


def _own_path_data(element) -> int:
    return sum(len(value) for attribute, value in element.attrib.items() if _local(attribute)[1] in _PATH_DATA)


def _check_expansion(root, ids: dict) -> None:
    """What drawing the SVG would cost once every reference is followed, without drawing it: elements, nesting
    depth, characters of path data, each against its bound; a loop of references is refused."""
    # element key -> (elements, depth, path data characters) drawn from it
    expanded: dict[int, tuple[int, int, int]] = {}
    visiting: set[int] = set()

    def refuse_if_over(elements: int, depth: int, path_data: int) -> None:
        if elements > MAX_SVG_EXPANDED:
            raise LogoRefused(f"the SVG draws more than {MAX_SVG_EXPANDED:,} elements once its <use> references are "
                              "expanded, with the clip paths, masks, patterns and gradients each element draws; "
                              "simplify it")
        if depth > MAX_SVG_DEPTH:
            raise LogoRefused(f"the SVG nests more than {MAX_SVG_DEPTH} levels deep once its references (<use>, "
                              "clip paths, masks, patterns) are followed; simplify it")
        if path_data > MAX_SVG_PATH_DATA:
            raise LogoRefused(f"the SVG draws more than {MAX_SVG_PATH_DATA:,} characters of path data once its "
                              "references are expanded; simplify it")

    def size(element, level: int) -> tuple[int, int, int]:
        key = id(element)
        if key in expanded:
            found = expanded[key]
            refuse_if_over(found[0], level + found[1] - 1, found[2])
            return found
        if key in visiting:
            raise LogoRefused("the SVG's references (<use>, clip paths, masks, patterns, gradients) refer to each "
                              "other in a loop")
        if level > MAX_SVG_DEPTH:
            refuse_if_over(0, level, 0)
        visiting.add(key)
        elements, depth, path_data = 1, 1, _own_path_data(element)
        followed = [child for child in element if isinstance(child.tag, str)]
        followed += [target for name in _references(element) for target in ids.get(name, ())]
        for other in followed:
            more = size(other, level + 1)
            elements, path_data = elements + more[0], path_data + more[2]
            depth = max(depth, 1 + more[1])
            refuse_if_over(elements, level + depth - 1, path_data)
        visiting.discard(key)
        expanded[key] = (elements, depth, path_data)
        return expanded[key]

    size(root, 1)
