"""The table sign: every paytable offered, the ante limits, the payout limit where it is shown on a sign.

Large type for reading from a seat; four sizes; `print_proof` adds 0.125 in bleed and crop marks for a
sign printer. The PDF is plain PDF (not PDF/X-4, whose random DocumentID would break reproducibility).
"""

from __future__ import annotations

from decimal import Decimal

from rulegen.errors import UsageError
from rulegen.render import tables
from rulegen.render.context import document_info
from rulegen.render.environment import render_template

# page size (CSS), scale of the type against a letter sign
SIGN_SIZES = {
    "letter": ("8.5in 11in", Decimal("1.0")),
    "a4": ("210mm 297mm", Decimal("1.0")),
    "tabloid": ("11in 17in", Decimal("1.6")),
    "a3": ("297mm 420mm", Decimal("1.6")),
}
BLEED = "0.125in"


def sign_size(name: str) -> tuple[str, Decimal]:
    try:
        return SIGN_SIZES[name]
    except KeyError:
        raise UsageError(f"--sign-size is {name!r}; it is one of {', '.join(SIGN_SIZES)}") from None


def type_sizes(scale: Decimal) -> dict[str, str]:
    """Point sizes of the sign's type: 14 pt bold-valued rows on a letter sign (capitals about 3.5 mm), larger on big sheets."""
    base = {"body": 14, "small": 10, "h1": 28, "h2": 16, "operator": 15, "limits": 17, "draft": 150}
    return {name: f"{(Decimal(size) * scale).normalize():f}pt" for name, size in base.items()}


def payout_limit_on_sign(offering_data: dict, jurisdiction) -> dict | None:
    """The payout limit as the sign shows it: when a limit is set and the offering shows it on a sign."""
    limit = offering_data.get("payout_limit")
    if not limit or limit.get("amount") is None:
        return None
    shown = (offering_data.get("table") or {}).get("payout_limit_display")
    rule = jurisdiction.rule("payout_limit_display")
    covers = jurisdiction.cited("payout_limit", "covers")
    required = bool(rule and rule.value)
    if shown != "sign":
        return None
    return {
        "amount": Decimal(str(limit["amount"])),
        "required": required,
        "citation": rule.citation if rule else None,
        "covers": [tables.WAGER_NAMES.get(w, w) for w in (covers.value if covers else [])],
    }


def signage_context(offering, jurisdiction, *, draft, size: str = "letter", print_proof: bool = False) -> dict:
    data = offering.data
    page_size, scale = sign_size(size)
    limits = data.get("limits") or {}
    five = data.get("five_card_bonus") or None
    return {
        "doc": document_info(offering, jurisdiction, kind="signage", title="Criss Cross Poker table sign",
                             short_title="Table sign", draft=draft),
        "page": {"size": page_size, "print": print_proof, "bleed": BLEED, "name": size,
                 "type": type_sizes(scale)},
        "ante": limits.get("ante") or {},
        "paytables": tables.offering_paytables(data, jurisdiction),
        "five_card_bonus": five,
        "six_card_bonus": data.get("six_card_bonus") or None,
        "bonus_spin": tables.bonus_spin(data, jurisdiction),
        "payout_limit": payout_limit_on_sign(data, jurisdiction),
        "positions": (data.get("table") or {}).get("positions"),
    }


def render_signage_html(offering, jurisdiction, *, draft, size: str = "letter", print_proof: bool = False) -> str:
    return render_template("signage.html", **signage_context(offering, jurisdiction, draft=draft, size=size,
                                                             print_proof=print_proof))
