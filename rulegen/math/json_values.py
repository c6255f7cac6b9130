"""How the math layer's results write their numbers in JSON (math layer).

Numbers in that JSON: probabilities, edges, expectations and standard deviations are JSON numbers rounded
from the exact value to the nearest binary double, as before; money amounts (wagers, prizes, limits, the
maximum win) are written exactly from `Decimal` as decimal numerals, never through a binary float: whole
dollars as an integer (`3624`), otherwise with at least two decimals (`5.50`). `json_text()` writes them so.
Exact fractions (an EV, a variance) are also given as text "numerator/denominator" under `*_exact` keys.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from rulegen.money import json_number


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def money_json(value: Decimal) -> Decimal:
    """An amount as the exact numeral JSON carries (see rulegen.money.json_number)."""
    return json_number(value)


def money_json_or_none(value: Decimal | None) -> Decimal | None:
    return None if value is None else money_json(value)


def json_text(document: Any, *, indent: int | None = 2) -> str:
    """JSON text with every Decimal written as its exact decimal numeral (simplejson's use_decimal)."""
    import simplejson

    return simplejson.dumps(document, indent=indent, use_decimal=True)
