"""The printer's file (layer: render): what WeasyPrint's PDF/X-4 needs before a sign printer takes it.

WeasyPrint writes the page as TrimBox and the CSS bleed as MediaBox, and puts its BleedBox at most 10 pt
outside the trim. The sign asks WeasyPrint for a 0.5 in "bleed" (the slug: bleed, crop marks and the slug
line), so here each page gets

    MediaBox  = trim + 0.5 in      (the sheet the marks and the slug line are drawn on)
    BleedBox  = trim + 0.125 in    (what the printer images past the trim)
    TrimBox   = the sign's size

The output intent (the shipped ISO Coated v2 300% profile, or the print shop's own CMYK profile given with
`--icc`, checked by `press_profile`) is added here rather than through CSS
`@color-profile`: WeasyPrint compresses every stream at zlib level 9, a second per sign for this profile.
PDF/X-4 also makes WeasyPrint write a random XMP DocumentID; it is replaced here by one derived from the
input, so the same offering gives the same bytes. Colour: the sign's own colours are CMYK already; what an
operator's logo brings in RGB (a PNG's pixels, an SVG's fills) is converted here through the same
output-intent profile, neutral greys to black ink only. pikepdf (qpdf) writes the result, with a /ID
computed from the content.
"""

from __future__ import annotations

import hashlib
import io
import re
import uuid
import zlib
from decimal import Decimal
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulegen.errors import RenderError, UsageError
from rulegen.resources import assets_dir

PRINT_VARIANT = "pdf/x-4"
PROFILE = "icc/ISOcoated_v2_300_bas.icc"
POINTS_PER_INCH = Decimal(72)


@dataclass(frozen=True)
class PressProfile:
    """The CMYK profile a printer's file is converted through and names as its output intent: the shipped
    ISO Coated v2 (300%), or the print shop's own (`--icc`, checked by rulegen.render.prepress.press_profile)."""

    name: str  # the printing condition, from the profile's description
    data: bytes
    sha256: str
    file: str | None = None  # the file name it was given as (None: the shipped profile)


_DOCUMENT_ID = re.compile(rb"xmp\.did:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def document_id(seed: bytes) -> bytes:
    """The XMP DocumentID of the printer's file: a UUID from the input's hash, the same for the same input."""
    return b"xmp.did:" + str(uuid.UUID(bytes=hashlib.sha256(seed).digest()[:16], version=4)).encode("ascii")


_TRANSFORMS: dict[str, Any] = {}


def _transform(profile: PressProfile | None = None) -> Any:
    """sRGB → the profile's CMYK, relative colorimetric, built once per profile in a process."""
    from PIL import ImageCms

    profile = profile or shipped_profile()
    if profile.sha256 not in _TRANSFORMS:
        srgb = ImageCms.createProfile("sRGB")
        cmyk = ImageCms.getOpenProfile(io.BytesIO(profile.data))
        _TRANSFORMS[profile.sha256] = ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK",
                                                              renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    return _TRANSFORMS[profile.sha256]


MAX_PROFILE_BYTES = 16 << 20  # the largest press profiles (GRACoL, SWOP, FOGRA) are a few MB
MAX_NAME_CHARS = 80


@cache
def shipped_profile() -> PressProfile:
    """ISO Coated v2 (300%), shipped in templates/assets/icc/: the profile unless the print shop gives its own."""
    data = (assets_dir() / PROFILE).read_bytes()
    return PressProfile(_description(data) or "ISO Coated v2 300% (ECI)", data, hashlib.sha256(data).hexdigest())


def _description(data: bytes) -> str | None:
    from PIL import ImageCms

    text = ImageCms.getOpenProfile(io.BytesIO(data)).profile.profile_description or ""
    # printed in the slug in the shipped fonts: printable Latin-1 only, one line, bounded
    clean = "".join(ch if " " <= ch <= "~" or "\u00a1" <= ch <= "\u00ff" else " " for ch in text)
    clean = " ".join(clean.split())[:MAX_NAME_CHARS].strip()
    return clean or None


def press_profile(data: bytes, file: str) -> PressProfile:
    """The print shop's own output profile (`--icc`), refused unless it is a well-formed ICC output profile of
    CMYK: an RGB or a display profile, or bytes Little CMS cannot read, cannot be a PDF/X output intent."""
    from PIL import ImageCms

    if len(data) < 132 or data[36:40] != b"acsp":
        raise UsageError(f"--icc {file}: not an ICC profile (no 'acsp' signature in its header)")
    declared = int.from_bytes(data[0:4], "big")
    if declared != len(data):
        raise UsageError(f"--icc {file}: a malformed ICC profile (its header gives {declared:,} bytes, the file "
                         f"holds {len(data):,})")
    space, device = data[16:20], data[12:16]
    if space != b"CMYK":
        raise UsageError(f"--icc {file}: the profile's colour space is {space.decode('latin-1').strip()!r}, not "
                         "CMYK; a printer's file needs the shop's CMYK press profile (GRACoL, SWOP, FOGRA...)")
    if device != b"prtr":
        raise UsageError(f"--icc {file}: the profile is of class {device.decode('latin-1').strip()!r}, not an "
                         "output (printer) profile; give the shop's press profile")
    try:
        name = _description(data)
        ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(io.BytesIO(data)), "RGB",
                                "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    except Exception as exc:  # Little CMS's own message, whatever the defect
        raise UsageError(f"--icc {file}: a malformed ICC profile that cannot be used to convert colour: "
                         f"{exc}") from None
    return PressProfile(name or file, data, hashlib.sha256(data).hexdigest(), file)


def rgb_to_cmyk(red: float, green: float, blue: float,
                profile: PressProfile | None = None) -> tuple[float, float, float, float]:
    """One colour, 0..1 each. A neutral grey (black included) becomes black ink only, never a four-ink mix."""
    if abs(red - green) < 1e-6 and abs(green - blue) < 1e-6:
        return (0.0, 0.0, 0.0, round(1.0 - red, 4))
    from PIL import Image, ImageCms

    pixel = Image.new("RGB", (1, 1), (_byte(red), _byte(green), _byte(blue)))
    converted: Any = ImageCms.applyTransform(pixel, _transform(profile))
    c, m, y, k = converted.getpixel((0, 0))
    return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))


def _byte(value: float) -> int:
    return max(0, min(255, round(value * 255)))


def _convert_image(pdf: Any, image: Any, profile: PressProfile) -> bool:
    """An RGB image XObject → CMYK through the profile (its soft mask, if any, is kept). True if converted."""
    import pikepdf
    from PIL import ImageCms
    from pikepdf import PdfImage

    if image.get("/ColorSpace") != pikepdf.Name.DeviceRGB:
        return False
    pil = PdfImage(image).as_pil_image().convert("RGB")
    cmyk: Any = ImageCms.applyTransform(pil, _transform(profile))
    image.write(zlib.compress(cmyk.tobytes(), 9), filter=pikepdf.Name.FlateDecode)
    image.ColorSpace = pikepdf.Name.DeviceCMYK
    image.BitsPerComponent = 8
    for key in ("/DecodeParms", "/Decode"):
        if key in image:
            del image[key]
    return True


def _convert_operators(pdf: Any, owner: Any, profile: PressProfile) -> None:
    """rg/RG (and sc/scn after a /DeviceRGB cs/CS) in a content stream → k/K."""
    import pikepdf

    instructions: list[Any] = list(pikepdf.parse_content_stream(owner))
    changed = False
    rgb_space = {"fill": False, "stroke": False}
    out: list[Any] = []
    for operands, operator in instructions:
        name = str(operator)
        if name in ("cs", "CS"):
            which = "fill" if name == "cs" else "stroke"
            rgb_space[which] = bool(operands) and operands[0] == pikepdf.Name.DeviceRGB
            if rgb_space[which]:
                out.append(([pikepdf.Name.DeviceCMYK], pikepdf.Operator(name)))
                changed = True
                continue
        if name in ("rg", "RG") or (name in ("sc", "scn", "SC", "SCN") and len(operands) == 3
                                     and rgb_space["fill" if name.islower() else "stroke"]):
            red, green, blue = (float(v) for v in operands)
            values = rgb_to_cmyk(red, green, blue, profile)
            target = {"rg": "k", "RG": "K"}.get(name, name)
            out.append(([Decimal(str(v)) for v in values], pikepdf.Operator(target)))
            changed = True
            continue
        out.append((operands, operator))
    if changed:
        data = pikepdf.unparse_content_stream(out)
        if isinstance(owner, pikepdf.Page):
            owner.obj.Contents = pdf.make_stream(data)
        else:
            owner.write(data)


def _convert_function(function: Any, profile: PressProfile) -> None:
    """An exponential (type 2) or stitching (type 3) function's RGB outputs → CMYK, in place."""
    import pikepdf

    kind = int(function.get("/FunctionType", -1))
    if kind == 3:
        for part in function.Functions:
            _convert_function(part, profile)
        return
    if kind != 2:
        raise RenderError(f"the logo has a gradient whose colour function (type {kind}) cannot be made CMYK for "
                          "the printer's file; give the logo flat colours or simple gradients")
    for key, default in (("/C0", [0.0, 0.0, 0.0]), ("/C1", [1.0, 1.0, 1.0])):
        values = [float(v) for v in function.get(key, default)]
        if len(values) == 3:
            function[key] = pikepdf.Array([Decimal(str(v)) for v in rgb_to_cmyk(values[0], values[1], values[2], profile)])


def _function_outputs(function: Any) -> int:
    kind = int(function.get("/FunctionType", -1))
    if kind == 3:
        return _function_outputs(function.Functions[0])
    return len(function.get("/C0", [0.0])) if kind == 2 else -1


def _convert_shading(shading: Any, profile: PressProfile) -> None:
    """A gradient in RGB → CMYK. WeasyPrint 70 labels a PDF/X gradient DeviceCMYK but writes its colour
    stops as RGB triples (a function with the wrong number of outputs), so those are converted too."""
    import pikepdf

    space = shading.get("/ColorSpace")
    function = shading.get("/Function")
    if function is None or isinstance(function, pikepdf.Array):
        return
    if space == pikepdf.Name.DeviceRGB or (space == pikepdf.Name.DeviceCMYK and _function_outputs(function) == 3):
        _convert_function(function, profile)
        shading.ColorSpace = pikepdf.Name.DeviceCMYK


def _walk_resources(pdf: Any, resources: Any, seen: set[Any], profile: PressProfile) -> None:
    import pikepdf

    if resources is None:
        return
    for shading in (resources.get("/Shading") or {}).values():
        _convert_shading(shading, profile)
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if xobject.get("/Subtype") == pikepdf.Name.Image:
            _convert_image(pdf, xobject, profile)
        elif xobject.get("/Subtype") == pikepdf.Name.Form:
            _convert_operators(pdf, xobject, profile)
            _walk_resources(pdf, xobject.get("/Resources"), seen, profile)
    for pattern in (resources.get("/Pattern") or {}).values():
        if pattern.objgen in seen:
            continue
        seen.add(pattern.objgen)
        if pattern.get("/PatternType") == 2:
            _convert_shading(pattern.Shading, profile)
            continue
        _convert_operators(pdf, pattern, profile)
        _walk_resources(pdf, pattern.get("/Resources"), seen, profile)


_COMPRESSED: dict[str, bytes] = {}


def _compressed(profile: PressProfile) -> bytes:
    """The profile compressed once per process (zlib level 6: a tenth of level 9's time on 1 MB of lookup tables,
    for 0.6% more bytes)."""
    if profile.sha256 not in _COMPRESSED:
        _COMPRESSED[profile.sha256] = zlib.compress(profile.data, 6)
    return _COMPRESSED[profile.sha256]


def add_output_intent(pdf: Any, profile: PressProfile | None = None) -> None:
    """The PDF/X output intent: the CMYK profile, embedded, naming its printing condition."""
    import pikepdf

    profile = profile or shipped_profile()
    stream = pikepdf.Stream(pdf, b"")
    stream.write(_compressed(profile), filter=pikepdf.Name.FlateDecode)
    stream.N = 4
    intent = pikepdf.Dictionary(Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
                                OutputConditionIdentifier=pikepdf.String(profile.name),
                                Info=pikepdf.String(profile.name), DestOutputProfile=stream)
    pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])


def finish_for_press(data: bytes, *, bleed_in: Decimal, seed: bytes, profile: PressProfile | None = None) -> bytes:
    """The PDF/X-4 WeasyPrint wrote, with its output intent (`profile`, the shipped one by default), its BleedBox
    at `bleed_in`, a reproducible DocumentID, and RGB made CMYK through the same profile."""
    import pikepdf

    profile = profile or shipped_profile()

    bleed = float(bleed_in * POINTS_PER_INCH)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        add_output_intent(pdf, profile)
        seen: set[Any] = set()
        for page in pdf.pages:
            left, bottom, right, top = (float(v) for v in page.obj.TrimBox)
            page.obj.BleedBox = pikepdf.Array([left - bleed, bottom - bleed, right + bleed, top + bleed])
            _convert_operators(pdf, page, profile)
            _walk_resources(pdf, page.obj.get("/Resources"), seen, profile)
        metadata = pdf.Root.Metadata
        xmp = metadata.read_bytes()
        found = _DOCUMENT_ID.findall(xmp)
        if len(found) != 1:
            raise RenderError(f"expected one XMP DocumentID in WeasyPrint's PDF/X-4 metadata, found {len(found)}")
        metadata.write(_DOCUMENT_ID.sub(document_id(seed), xmp))
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, fix_metadata_version=False, compress_streams=True,
                 recompress_flate=False, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return out.getvalue()
