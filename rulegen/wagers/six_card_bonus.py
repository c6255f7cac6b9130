"""The Six Card Bonus: the player's two cards and the four Six Card Bonus cards, best five of six (all 20,358,520
six-card sets equally likely)."""

from __future__ import annotations

from rulegen.cards import format_cards
from rulegen.evaluator import best_five, hand_name
from rulegen.wagers.kind import RoundCards, SideWagerKind


def _hole_and_bonus(round_cards: RoundCards):
    return round_cards.hole + round_cards.bonus if round_cards.bonus else ()


def _describe(cards) -> str:
    strength, five = best_five(cards)
    return f"{hand_name(strength)} ({format_cards(five)} from {format_cards(cards)})"


WAGER = SideWagerKind(key="six_card_bonus", name="Six Card Bonus", cards=6, hand_cards=_hole_and_bonus,
                      best_five=True, sets_counted="six-card sets counted", describe=_describe)
