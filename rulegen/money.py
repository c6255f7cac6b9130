"""Money as the documents print it: exact amounts in, "$1,000" or "$5.50" out.

Layer: a leaf beside `findings` (uses nothing of ours), so that validate, game, math, render and filing
all print an amount the same way. One rounding rule: a fraction of a cent is rounded half to even
(the rule Python's Decimal uses by default, so the strings printed before this module existed are
unchanged). Whole dollars print without cents, any other amount with exactly two decimals.

Machine-readable money (JSON) is never a binary float: `json_amount` gives whole dollars as an integer
and any other amount as its exact decimal text ("5.50"); `json_number` gives the same amount as a Decimal
that a Decimal-aware writer (simplejson's use_decimal) prints as an exact JSON numeral (`5.50`), for JSON
whose contract says money is a number (`rulegen math --json`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

ROUNDING = ROUND_HALF_EVEN
CENT = Decimal("0.01")
MINUS = "\u2212"  # a true minus sign, for amounts shown with their sign


def to_decimal(value) -> Decimal:
    """An exact Decimal from a Decimal, int, Fraction, text or (for foreign callers) a float's shortest text."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, bool):
        raise TypeError("a truth value is not an amount")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    if isinstance(value, float):
        return Decimal(repr(value))  # the shortest text that reads back as this float, not its binary expansion
    return Decimal(str(value))


def is_whole(amount: Decimal) -> bool:
    return amount == amount.to_integral_value()


def dollars(value, *, cents: bool | None = None) -> str:
    """"$1,234" for whole dollars, "$5.50" otherwise; `cents=True` always shows cents, `cents=False` never."""
    amount = to_decimal(value)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if cents is None:
        cents = not is_whole(amount)
    if cents:
        text = f"{amount.quantize(CENT, rounding=ROUNDING):,.2f}"
    else:
        text = f"{amount.quantize(Decimal(1), rounding=ROUNDING):,.0f}"
    return f"{sign}${text}"


def signed_dollars(value, *, minus: str = MINUS) -> str:
    """"+$175", "$0", "−$10" (a true minus sign unless `minus` says otherwise)."""
    amount = to_decimal(value)
    if amount > 0:
        return "+" + dollars(amount)
    if amount == 0:
        return dollars(amount)
    return minus + dollars(-amount)


def json_amount(value) -> int | str:
    """Money for JSON: an integer for whole dollars, otherwise the exact decimal text with cents ("5.50")."""
    amount = to_decimal(value)
    if is_whole(amount):
        return int(amount)
    return f"{amount.quantize(CENT, rounding=ROUNDING)}" if amount == amount.quantize(CENT) else str(amount)


MAX_AMOUNT = Decimal(10) ** 9  # no wager, prize or limit at a table reaches a billion dollars


def parse_amount(text: str, what: str) -> Decimal:
    """A typed amount of dollars, judged on its text before any arithmetic: digits, at most one point and two
    decimal places, below a billion. `ValueError` says what is wrong, naming `what` (e.g. "--ante")."""
    import re

    raw = str(text).strip().removeprefix("$").replace(",", "")
    if not re.fullmatch(r"[0-9]{1,10}(\.[0-9]{1,2})?", raw):
        raise ValueError(f"{what} is {str(text)[:40]!r}; write dollars, whole or with cents (5, 5.50)")
    amount = Decimal(raw)
    if amount >= MAX_AMOUNT:
        raise ValueError(f"{what} is {str(text)[:40]!r}; an amount at the table is below $1,000,000,000")
    return amount


def json_number(value) -> Decimal:
    """Money as an exact JSON numeral: whole dollars as an integer (3624), otherwise at least two decimals (5.50;
    a fraction of a cent is kept, never rounded away: 8.325)."""
    amount = to_decimal(value)
    if is_whole(amount):
        return amount.quantize(Decimal(1))
    exponent = amount.as_tuple().exponent
    return amount.quantize(CENT) if isinstance(exponent, int) and exponent > -2 else amount
