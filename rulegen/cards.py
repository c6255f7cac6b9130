"""Cards: parse and print them (`As`, `Td`, `10h`), and refuse a bad or duplicated card with `CardError`.

A card is an immutable value with an index 0..51 = rank * 4 + suit, rank 0 = deuce .. 12 = ace, suit in
the order clubs, diamonds, hearts, spades. The index is what the evaluator's tables and the math layer's
arrays use; the text is what people read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rulegen.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
RANK_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
                "kings", "aces")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True, order=True)
class Card:
    index: int

    def __post_init__(self):
        if not isinstance(self.index, int) or not 0 <= self.index < 52:
            raise CardError(f"a card index is 0..51, not {self.index!r}")

    @property
    def rank(self) -> int:
        return self.index >> 2

    @property
    def suit(self) -> int:
        return self.index & 3

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __int__(self) -> int:
        return self.index

    def __index__(self) -> int:
        return self.index

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        return cls(rank * 4 + suit)


_CARD = re.compile(r"^(10|[2-9tjqkaTJQKA])([cdhsCDHS])$")


def parse_card(text: str) -> Card:
    """`As`, `Td`, `10h` (rank letters and suits in either case) → a Card; anything else is a CardError."""
    if not isinstance(text, str):
        raise CardError(f"a card is written like As, Td or 10h, not {text!r}")
    match = _CARD.match(text.strip())
    if match is None:
        raise CardError(f"{text.strip()!r} is not a card; write a rank (2-9, T or 10, J, Q, K, A) and a suit "
                        "(c, d, h, s), like As, Td or 10h")
    rank_text = "T" if match.group(1) == "10" else match.group(1).upper()
    return Card.of(RANKS.index(rank_text), SUITS.index(match.group(2).lower()))


def parse_cards(text: str | Iterable[str | Card], count: int | None = None, what: str = "cards") -> tuple[Card, ...]:
    """Cards separated by spaces or commas (or an iterable of texts/Cards); `count`, when given, must match.

    A card given twice is a CardError.
    """
    if isinstance(text, str):
        items = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    else:
        items = list(text)
    cards = tuple(item if isinstance(item, Card) else parse_card(item) for item in items)
    if count is not None and len(cards) != count:
        raise CardError(f"{what} must be {count} card{'s' if count != 1 else ''}, got {len(cards)}"
                        + (f" ({format_cards(cards)})" if cards else ""))
    check_distinct(cards)
    return cards


def check_distinct(*groups: Iterable[Card]) -> None:
    """Raise CardError naming the first card that appears twice across the groups (one deck)."""
    seen: set[int] = set()
    for group in groups:
        for card in group:
            if card.index in seen:
                raise CardError(f"the card {card} is given twice; one deck holds each card once")
            seen.add(card.index)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def full_deck() -> tuple[Card, ...]:
    return tuple(Card(i) for i in range(52))
