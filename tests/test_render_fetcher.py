"""The renderer's URL fetcher reads our assets and the offering's logo, and refuses everything else."""

from __future__ import annotations

import os

import pytest

from rulegen.render.fetcher import RefusedResource, SafeFetcher, image_type
from rulegen.render.pdf import RenderError, render_pdf
from rulegen.resources import assets_dir

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'


@pytest.fixture()
def folders(tmp_path):
    offering = tmp_path / "offering"
    offering.mkdir()
    (offering / "logo.png").write_bytes(PNG)
    (offering / "logo.svg").write_bytes(SVG)
    (offering / "not-an-image.png").write_bytes(b"just text, not a picture\n")
    outside = tmp_path / "outside.png"
    outside.write_bytes(PNG)
    os.symlink(outside, offering / "link-out.png")
    os.symlink(offering / "logo.png", offering / "link-in.png")
    return offering, outside


def fetcher(offering):
    """The fetcher as a build makes it: the logo's bytes, read once; here every image of the folder."""
    files = {p.name: p.read_bytes() for p in offering.iterdir() if p.suffix in (".png", ".svg") and not p.is_symlink()}
    return SafeFetcher(assets_dir(), files)


def test_reads_a_shipped_font_and_the_logo(folders):
    offering, _ = folders
    f = fetcher(offering)
    assert f.fetch("rulegen-asset:fonts/DejaVuSans.ttf").read()[:4] == b"\x00\x01\x00\x00"
    assert f.fetch("rulegen-offering:logo.png").read() == PNG
    assert f.fetch("rulegen-offering:logo.svg").content_type == "image/svg+xml"


def test_the_logo_is_served_from_the_bytes_given_never_read_again(folders):
    offering, outside = folders
    f = fetcher(offering)
    (offering / "logo.png").unlink()
    os.symlink(outside, offering / "logo.png")  # swapped after the read: the fetcher still has the bytes it was given
    outside.write_bytes(b"\x89PNG\r\n\x1a\nsecret")
    assert f.fetch("rulegen-offering:logo.png").read() == PNG


@pytest.mark.parametrize("url, reason", [
    ("rulegen-offering:../outside.png", "not it"),
    ("rulegen-offering:link-out.png", "not it"),
    ("rulegen-offering:link-in.png", "not it"),
    ("https://example.com/logo.png", "never reaches the network"),
    ("http://127.0.0.1/logo.png", "never reaches the network"),
    ("file:///etc/passwd", "file: URLs are not read"),
    ("rulegen-offering:not-an-image.png", "not a PNG or SVG"),
    ("rulegen-offering:/etc/passwd", "not it"),
    ("rulegen-offering:missing.png", "not it"),
    ("rulegen-asset:../../pyproject.toml", "climbs out"),
    ("rulegen-asset:fonts/LICENSE-DejaVu.txt", "not an asset type"),
    ("data:image/png;base64,AAAA", "data: scheme"),
])
def test_refuses_with_a_clear_message(folders, url, reason):
    offering, _ = folders
    with pytest.raises(RefusedResource) as caught:
        fetcher(offering).fetch(url)
    assert reason in str(caught.value)
    assert "refused to read" in str(caught.value)


def test_no_offering_folder_means_no_offering_reads(folders):
    with pytest.raises(RefusedResource, match="reads nothing from an offering"):
        SafeFetcher(assets_dir()).fetch("rulegen-offering:logo.png")


def test_a_refused_resource_stops_the_rendering(folders):
    offering, _ = folders
    for src in ("file:///etc/passwd", "https://example.com/x.png", "rulegen-offering:link-out.png"):
        html = f'<html><body><p>x</p><img src="{src}"></body></html>'
        with pytest.raises(RenderError, match="refused to read"):
            render_pdf(html, fetcher=fetcher(offering), effective_date="2027-01-01")


def test_a_stylesheet_goes_through_the_same_fetcher(folders):
    offering, _ = folders
    html = '<html><head><link rel="stylesheet" href="file:///etc/hosts"></head><body>x</body></html>'
    with pytest.raises(RenderError, match="file: URLs are not read"):
        render_pdf(html, fetcher=fetcher(offering), effective_date="2027-01-01")
    html = '<html><head><style>@import url("https://example.com/a.css");</style></head><body>x</body></html>'
    with pytest.raises(RenderError, match="network"):
        render_pdf(html, fetcher=fetcher(offering), effective_date="2027-01-01")


def test_an_svg_logo_cannot_reach_out(folders):
    offering, _ = folders
    (offering / "sneaky.svg").write_bytes(
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
        b'<image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>')
    html = '<html><body><img src="rulegen-offering:sneaky.svg"></body></html>'
    with pytest.raises(RenderError, match="refused to read"):
        render_pdf(html, fetcher=fetcher(offering), effective_date="2027-01-01")


def test_image_type_reads_bytes_not_names():
    assert image_type(PNG) == "image/png"
    assert image_type(b"\xef\xbb\xbf<?xml version='1.0'?>\n" + SVG) == "image/svg+xml"
    assert image_type(b"GIF89a....") is None


def test_a_rendering_past_its_time_bound_stops_with_a_clear_error_and_the_build_writes_nothing(tmp_path,
                                                                                               monkeypatch):
    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.render.pdf import RenderTimeout
    from rulegen.resources import samples_dir

    monkeypatch.setenv("RULEGEN_RENDER_SECONDS", "0.001")
    html = "<html><body>" + "<p>x</p>" * 2000 + "</body></html>"
    with pytest.raises(RenderTimeout, match="took longer than 0.001 s"):
        render_pdf(html, fetcher=SafeFetcher(assets_dir()), effective_date="2027-01-01")
    sample = next(p for p in sorted(samples_dir().glob("*.yaml")) if p.name.startswith("pa-"))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(sample), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "took longer than" in result.output
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]
