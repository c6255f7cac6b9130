"""Every way a template prints a value, in one place: money, odds, percentages, counts, dates, hands.

Templates never format a number themselves; they call these filters. Money goes through Decimal and
never through float; odds are "N to 1", never "N for 1".
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from rulegen.money import dollars, signed_dollars, to_decimal

from rulegen import vocabulary

HAND_NAMES = vocabulary.HAND_NAMES
WAGER_NAMES = vocabulary.WAGER_NAMES
TRIGGER_WORDS = vocabulary.TRIGGER_WORDS

# What a template hands a number filter: an exact value from the math or the resolved offering, or its text
# (a float only where a foreign caller gives one; `to_decimal` reads its shortest text, never its binary expansion).
Number = Decimal | Fraction | int | float | str

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def money(value: Number | None, cents: bool | None = None) -> str:
    """$1,234 for whole dollars, $5.50 otherwise (cents=True forces them, cents=False drops them); — for none."""
    if value is None:
        return "—"
    return dollars(value, cents=cents)


def signed_money(value: Number) -> str:
    """+$175, $0, −$10 (a true minus sign)."""
    return signed_dollars(value)


def odds(value: Number | None) -> str:
    """A paytable entry: 500 → "500 to 1"; push → "Push"; None or lose → "Loses"."""
    if value is None:
        return "Loses"
    if isinstance(value, str):
        word = value.strip().lower()
        if word == "push":
            return "Push"
        if word in ("lose", "loses", "loss"):
            return "Loses"
        try:
            amount = Fraction(word)  # an exact pay written as a fraction ("3/2")
        except ValueError:
            return value
    else:
        amount = value if isinstance(value, Fraction) else Fraction(str(to_decimal(value)))
    if amount < 0:
        return "Loses"
    if amount == 0:
        return "Push"
    return vocabulary.odds_words(amount)


def pays_words(value: Number | None) -> str:
    """A paytable entry in a sentence: 1 → "wins 1 to 1 (even money)", 2 → "wins 2 to 1", push → "pushes"."""
    text = odds(value)
    if text == "Push":
        return "pushes"
    if text == "Loses":
        return "loses"
    return "wins " + text + (" (even money)" if text == "1 to 1" else "")


def percent(value: Number | None, places: int = 4) -> str:
    """A fraction as a percentage: 0.034525 → "3.4525%"."""
    if value is None:
        return "—"
    amount = to_decimal(value) * 100
    return f"{amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN):,.{places}f}%"


def number(value: Number | None, places: int = 4) -> str:
    if value is None:
        return "—"
    amount = to_decimal(value)
    return f"{amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN):,.{places}f}"


def count(value: Number | None) -> str:
    """A whole count with thousands separators: 2598960 → "2,598,960"."""
    if value is None:
        return "—"
    return f"{int(value):,}"


def figure(value: object) -> str:
    """A verification figure as the appendix prints it: a count with separators, a measured value to six places,
    an interval as its two ends, an exact fraction as written."""
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value)
    if isinstance(value, int):
        return count(value)
    if isinstance(value, float):
        return number(value, 6)
    if isinstance(value, (list, tuple)):
        return "from " + " to ".join(figure(item) for item in value)
    return str(value)


def probability(value: Number | None, places: int = 8) -> str:
    """A probability as a decimal fraction, fixed places (small values stay readable)."""
    if value is None:
        return "—"
    amount = to_decimal(value)
    if amount != 0 and abs(amount) < Decimal("1e-6"):
        return f"{float(amount):.3e}"
    return f"{amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN):.{places}f}"


def one_in(value: Number | None) -> str:
    """A probability as "1 in N": 0.0125 → "1 in 80.0"."""
    if not value:
        return "—"
    amount = to_decimal(value)
    if amount <= 0:
        return "—"
    ratio = Decimal(1) / amount
    return f"1 in {ratio.quantize(Decimal('0.1'), rounding=ROUND_HALF_EVEN):,.1f}"


def long_date(value: _dt.date | str | None) -> str:
    """2027-01-15 → "January 15, 2027" (the text is printed as given when it is not a date)."""
    if value is None or value == "":
        return "—"
    try:
        day = value if isinstance(value, _dt.date) else _dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return str(value)
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


hand_name = vocabulary.hand_name
wager_name = vocabulary.wager_name


def trigger_words(key: object) -> str:
    return TRIGGER_WORDS.get(str(key), str(key).replace("_", " "))


def ordinal(n: Number) -> str:
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def times(value: object) -> str:
    """A multiple of the ante: 3 → "3×"."""
    return f"{value}×"


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(n: object) -> str:
    """A small count in words, as the texts write it: 10 → "ten"; past ten, numerals ("12")."""
    count = int(str(n))
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else f"{count:,}"


def multiples(value: Mapping[str, object]) -> str:
    """A bet's range in multiples of the ante, from the jurisdiction's `bet_multiple`: "one to three times"."""
    low, high = number_word(value["minimum"]), number_word(value["maximum"])
    return f"{low} times" if low == high else f"{low} to {high} times"


def plural(n: Number, word: str, words: str | None = None) -> str:
    n_int = int(n)
    return f"{n_int:,} {word if n_int == 1 else (words or word + 's')}"


def mid_sentence(text: str | None) -> str:
    """An operator's phrase set inside a sentence: a leading article (A, An, The) in lower case, the rest as written
    ("the top prize (a motorcycle, valued at $5,000)"); any other first word, a name perhaps, is left alone."""
    words = str(text or "").split(" ", 1)
    if words[0] in ("A", "An", "The"):
        words[0] = words[0].lower()
    return " ".join(words)


FILTERS: dict[str, Callable[..., str]] = {
    "mid_sentence": mid_sentence,
    "money": money,
    "signed_money": signed_money,
    "odds": odds,
    "pays_words": pays_words,
    "percent": percent,
    "number": number,
    "figure": figure,
    "count": count,
    "probability": probability,
    "one_in": one_in,
    "long_date": long_date,
    "hand_name": hand_name,
    "ordinal": ordinal,
    "wager_name": wager_name,
    "trigger_words": trigger_words,
    "times": times,
    "number_word": number_word,
    "multiples": multiples,
    "plural": plural,
}
