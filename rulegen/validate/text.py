"""Sign-offs and the free text the documents print: plain text, printable with the shipped fonts, a logo file."""

from __future__ import annotations

from functools import cache

from rulegen.jurisdiction import FORMAT
from rulegen.offering import Offering
from rulegen.resources import assets_dir
from rulegen.validate.core import ANY, Check, Context, describe, dotted

SIGNOFF_ROLES = ("prepared", "reviewed", "approved")


def signoff_present(ctx: Context, check: Check) -> None:
    signoff = ctx.get(("signoff",))
    if not isinstance(signoff, list):
        ctx.add(check, ("signoff",), "note", "signoff is not given yet: every document says DRAFT until the offering "
                                             "is prepared, reviewed and approved", key=True, at=("offering",))
        return
    roles = {entry.get("role") for entry in signoff if isinstance(entry, dict)}
    missing = [role for role in SIGNOFF_ROLES if role not in roles]
    if missing:
        ctx.add(check, ("signoff",), "note", f"signoff has no {' or '.join(missing)} entry yet: every document says "
                                             "DRAFT and --final is refused until all three roles have signed", key=True)


def signoff_roles_once(ctx: Context, check: Check) -> None:
    seen: dict[object, int] = {}
    for index, entry in enumerate(ctx.get(("signoff",)) or []):
        if not isinstance(entry, dict):
            continue
        role = entry.get("role")
        if role in seen:
            ctx.add(check, ("signoff", index, "role"), "error",
                    f"signoff[{index}].role '{role}' is given twice (also signoff[{seen[role]}]); each role signs once")
        else:
            seen[role] = index


def printed_text(ctx: Context):
    """(node, text) for each free-text value the documents print."""
    nodes: list[tuple[str | int, ...]] = [("offering", "operator", "name"), ("offering", "operator", "licence"),
             ("bonus_spin", "top_prize", "description"), ("bonus_spin", "hardware_approval")]
    for index, entry in enumerate(ctx.get(("signoff",)) or []):
        if isinstance(entry, dict):
            nodes += [("signoff", index, "name"), ("signoff", index, "title")]
    colours = ctx.get(("cards", "back_colours"))
    nodes += [("cards", "back_colours", index) for index in range(len(colours) if isinstance(colours, list) else 0)]
    for node in nodes:
        value = ctx.get(node)
        if isinstance(value, str) and node not in ctx.schema_nodes:
            yield node, value


def plain_text(ctx: Context, check: Check) -> None:
    for node, value in printed_text(ctx):
        if any(token in value for token in ("<", ">", "{{", "{%", "&#")):
            ctx.add(check, node, "warning", f"{dotted(node)} looks like markup or template syntax; it is plain text "
                                            "and will be printed exactly as written")


def printable(ctx: Context, check: Check) -> None:
    """Every character of the free text the documents print must come from the fonts rulegen ships.

    A character the shipped fonts lack is drawn from whatever font the machine has, so the PDF would differ
    from one machine to the next and a regulator could not rebuild the filing; control and invisible
    formatting characters (bidirectional overrides among them) could make printed text read otherwise than
    the file says. Both are errors.
    """
    for node, value in printed_text(ctx):
        bad = unprintable_characters(value)
        if bad:
            shown = ", ".join(_character_words(c) for c in bad[:3]) + (
                f" and {len(bad) - 3} more" if len(bad) > 3 else "")
            ctx.add(check, node, "error", f"{dotted(node)} contains {shown}, which the documents cannot print the "
                                          "same way on every machine (rulegen prints Latin, Greek and Cyrillic "
                                          "letters, punctuation and common symbols); write it without")


def logo(ctx: Context, check: Check) -> None:
    node = ("offering", "operator", "logo")
    value = ctx.get(node)
    if not isinstance(value, str) or node in ctx.schema_nodes:
        return
    from rulegen.logo import LogoRefused

    try:
        ctx.offering.logo()
    except LogoRefused as refusal:
        ctx.add(check, node, "error", f"offering.operator.logo {describe(value)}: {refusal}", rule=refusal.rule)


@cache
def _font_characters() -> frozenset[int]:
    """The code points every shipped font can draw (a name may be set in any of them)."""
    from fontTools.ttLib import TTFont

    covered = None
    for path in sorted((assets_dir() / "fonts").glob("*.ttf")):
        font = TTFont(path, lazy=True)
        points = set(font.getBestCmap() or {})
        font.close()
        covered = points if covered is None else covered & points
    return frozenset(covered or ())


def unprintable_characters(text: str) -> list[str]:
    """The distinct characters of `text`, in order, that are control or format characters or lack a glyph."""
    import unicodedata

    bad: list[str] = []
    covered = None
    for char in text:
        if char in bad:
            continue
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            bad.append(char)
            continue
        if char.isascii():
            continue
        if covered is None:
            covered = _font_characters()
        if ord(char) not in covered:
            bad.append(char)
    return bad


def _character_words(char: str) -> str:
    import unicodedata

    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    if unicodedata.category(char).startswith("C") or not char.isprintable():
        return f"{code} {name.lower() or 'a control character'}"
    return f"{char!r} ({code}{' ' + name.lower() if name else ''})"


def logo_problem(offering: Offering, logo: str) -> str | None:
    """Why the logo cannot be used, or None: judged on the bytes read once (`Offering.logo`), which are the
    bytes the renderer draws, the manifest hashes and the filing attaches."""
    from rulegen.logo import LogoRefused

    try:
        offering.logo()
    except LogoRefused as refusal:
        return str(refusal)
    return None


CHECKS = (
    Check("sign-off complete", ("signoff",), FORMAT, "signoff", signoff_present, jurisdictional=False),
    Check("each role signs once", ("signoff", ANY, "role"), FORMAT, "signoff-role", signoff_roles_once,
          jurisdictional=False),
    Check("printed text is plain", ("offering", "operator", "name"), FORMAT, "markup", plain_text,
          jurisdictional=False),
    Check("printed text is printable", ("offering", "operator", "name"), FORMAT, "unprintable", printable,
          jurisdictional=False),
    Check("logo is a file beside the offering", ("offering", "operator", "logo"), FORMAT, "logo", logo,
          jurisdictional=False, also=("logo-text",)),
)
