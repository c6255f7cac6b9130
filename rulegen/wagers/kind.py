"""What one side wager is, as the generic code reads it (the registry is `rulegen.wagers`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulegen.cards import Card
from rulegen.errors import InputError
from rulegen.evaluator import PAY_CLASSES, best_five, hand_name, pay_class


@dataclass(frozen=True)
class RoundCards:
    """The cards of one round a side wager may be settled on."""

    hole: tuple[Card, ...]
    community: tuple[Card, ...]  # the Across cards, the Down cards and the middle card
    bonus: tuple[Card, ...] = ()  # the four Six Card Bonus cards, where they are dealt


@dataclass(frozen=True)
class SideWagerKind:
    """One side wager, as the generic code reads it.

    `cards` is how many cards its hand is made of; every set of that many cards of the deck is equally likely,
    so its exact return is the count of sets in each pay class (`classify` over all of them, or, for a hand
    that is the best five of its cards, `best_five=True`, the math layer's fast counts of five and six cards).
    `hand` picks its cards from a round and names the hand; None when the round did not deal them.
    """

    key: str
    name: str
    cards: int
    hand_cards: Callable[[RoundCards], tuple[Card, ...]]
    pay_classes: tuple[str, ...] = PAY_CLASSES  # weakest first
    classify: Callable[[Sequence[Card]], int] | None = None  # the pay class index of `cards` cards
    best_five: bool = False  # the hand is the best five of its cards, paid by the poker pay classes
    sets_counted: str = "card sets counted"  # what the verification row counts ("boards", "six-card sets")
    describe: Callable[[Sequence[Card]], str] | None = None  # the hand in words; default: the class's name

    def __post_init__(self) -> None:
        if self.classify is None and not self.best_five:
            raise InputError(f"the side wager {self.key} gives neither classify nor best_five")

    def pay_class_of(self, cards: Sequence[Card]) -> int:
        if self.best_five:
            strength, _ = best_five(cards)
            return pay_class(strength)
        assert self.classify is not None
        return self.classify(cards)

    def hand(self, round_cards: RoundCards) -> tuple[int, str] | None:
        """(pay class index, the hand in words) of this wager in the round; None when its cards were not dealt."""
        cards = self.hand_cards(round_cards)
        if len(cards) != self.cards:
            return None
        index = self.pay_class_of(cards)
        if self.describe is not None:
            return index, self.describe(cards)
        if self.best_five:
            strength, _ = best_five(cards)
            return index, hand_name(strength)
        return index, self.pay_classes[index].replace("_", " ")
