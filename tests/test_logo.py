"""Logos: read once, a PNG that decodes completely, an SVG within a safe, self-contained subset."""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image

from rulegen.logo import MAX_SVG_EXPANDED, LogoRefused, check_logo, read_logo

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">%s</svg>'


def png(width=40, height=20) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def nested_use(levels: int, fan: int) -> bytes:
    parts = ['<defs><rect id="l0" width="1" height="1"/>']
    for level in range(1, levels + 1):
        uses = "".join(f'<use xlink:href="#l{level - 1}"/>' for _ in range(fan))
        parts.append(f'<g id="l{level}">{uses}</g>')
    parts.append(f'</defs><use xlink:href="#l{levels}"/>')
    return SVG % "".join(parts).encode()


def test_a_plain_png_and_svg_are_accepted_with_their_size():
    assert check_logo("logo.png", png(40, 20)).pixels == (40, 20)
    logo = check_logo("logo.svg", SVG % b'<defs><circle id="c" r="2"/></defs><use href="#c"/><rect fill="url(#c)"/>')
    assert logo.media_type == "image/svg+xml" and logo.pixels is None


def test_a_truncated_png_is_refused():
    import weasyprint  # noqa: F401 - it makes Pillow lenient for the whole process: the check must not be
    data = png(200, 200)
    with pytest.raises(LogoRefused, match="does not decode completely"):
        check_logo("logo.png", data[: len(data) // 2])


@pytest.mark.parametrize("body, words", [
    (b"<script>alert(1)</script>", "<script>"),
    (b'<rect onload="alert(1)"/>', "event attribute"),
    (b'<use href="inner.svg#a"/>', "refer only to parts of itself"),
    (b'<use xlink:href="rulegen-offering:sub/inner.svg#a"/>', "refer only to parts of itself"),
    (b'<rect fill="url(http://example.org/x)"/>', "refer only to parts of itself"),
    (b'<image href="#a"/>', "<image>"),
    (b'<foreignObject><p>x</p></foreignObject>', "<foreignObject>"),
    (b'<style>@import url(x.css)</style>', "<style>"),
    (b'<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>', "loop"),
])
def test_unsafe_svg_is_refused(body, words):
    with pytest.raises(LogoRefused, match=words):
        check_logo("logo.svg", SVG % body)


def test_nested_use_that_would_expand_past_the_bound_is_refused_at_once():
    small = nested_use(3, 10)  # 1,000 rectangles drawn: fine
    check_logo("logo.svg", small)
    with pytest.raises(LogoRefused, match=f"more than {MAX_SVG_EXPANDED:,} elements once"):
        check_logo("logo.svg", nested_use(10, 10))  # ten billion rectangles if expanded


def test_a_doctype_or_entity_is_refused():
    with pytest.raises(LogoRefused, match="DOCTYPE"):
        check_logo("logo.svg", b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]>' + SVG % b"&a;")


def test_read_logo_reads_inside_the_folder_only(tmp_path):
    (tmp_path / "logo.png").write_bytes(png())
    assert read_logo(tmp_path, "logo.png").data == (tmp_path / "logo.png").read_bytes()
    os.symlink(tmp_path / "logo.png", tmp_path / "link.png")
    with pytest.raises(LogoRefused, match="symbolic link"):
        read_logo(tmp_path, "link.png")
    with pytest.raises(LogoRefused, match="'..'"):
        read_logo(tmp_path, "sub/../logo.png")
