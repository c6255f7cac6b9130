"""A document's resources named for a reader other than WeasyPrint: a browser opening rules.html anywhere, or the
preview page.

The templates name the fonts and the logo with rulegen's own URL schemes (`rulegen-asset:`, `rulegen-offering:`,
read only by `SafeFetcher`). A browser knows neither, so the rules.html a build writes carries them as `data:` URIs,
read through the same fetcher (nothing else of the machine is read, a refused resource still aborts): each font cut
down to the characters the document holds (fontTools' subsetter; a document of 75 kB would otherwise carry 2 MB of
fonts), the logo as the bytes the loader read and checked. The result depends on the document and the shipped
fonts alone, so the same offering gives the same bytes everywhere.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Callable
from functools import lru_cache

from rulegen.render.fetcher import ASSET_SCHEME, OFFERING_SCHEME, RefusedResource, SafeFetcher

# A resource URL of ours wherever a template puts one: `url("rulegen-asset:...")` in CSS, `src="rulegen-offering:..."`
# on an image. The URL ends at the quote, parenthesis or space that closes it.
RESOURCE = re.compile(rf"(?:{ASSET_SCHEME}|{OFFERING_SCHEME}):[^\"')\s<>]+")
FONT_TYPES = ("font/ttf", "font/otf")


def rewrite(html: str, replacement: Callable[[str], str]) -> str:
    """`html` with every resource URL of ours replaced by `replacement(url)`."""
    return RESOURCE.sub(lambda match: replacement(match.group(0)), html)


def resource_urls(html: str) -> list[str]:
    return list(dict.fromkeys(RESOURCE.findall(html)))


def data_uri(kind: str, data: bytes) -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def self_contained(html: str, fetcher: SafeFetcher) -> str:
    """`html` with its fonts (subset to the document's characters) and logo embedded as data: URIs."""
    characters = "".join(sorted(set(html)))
    embedded: dict[str, str] = {}
    for url in resource_urls(html):
        response = fetcher.fetch(url)
        kind = str(response.content_type)
        data = bytes(response.read())
        response.close()
        if kind in FONT_TYPES:
            data = subset_font(data, characters)
        elif not kind.startswith("image/"):
            raise RefusedResource(url, f"{kind or 'this resource'} is not embedded in a document")
        embedded[url] = data_uri(kind, data)
    return rewrite(html, embedded.__getitem__)


@lru_cache(maxsize=64)
def subset_font(data: bytes, characters: str) -> bytes:
    """The font with only the glyphs `characters` need (their ligatures and alternates included); a font with
    none of them is kept as the subsetter leaves it (its .notdef glyph). Deterministic: no timestamps change."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False  # the head table's modified date stays the shipped font's
    options.drop_tables = [*options.drop_tables, "DSIG"]
    font = TTFont(io.BytesIO(data), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(character) for character in characters])
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
