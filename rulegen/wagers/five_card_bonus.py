"""The Five Card Bonus: a side wager on the five community cards (all 2,598,960 boards equally likely)."""

from __future__ import annotations

from rulegen.cards import format_cards
from rulegen.evaluator import best_five, hand_name
from rulegen.wagers.kind import RoundCards, SideWagerKind


def _community(round_cards: RoundCards):
    return round_cards.community


def _describe(cards) -> str:
    strength, _ = best_five(cards)
    return f"{hand_name(strength)} ({format_cards(cards)})"


WAGER = SideWagerKind(key="five_card_bonus", name="Five Card Bonus", cards=5, hand_cards=_community,
                      best_five=True, sets_counted="boards counted", describe=_describe)
