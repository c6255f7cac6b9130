"""The Hole Card Bonus (invented for the tests): a side wager on the player's two hole cards, all 1,326 pairs of
cards equally likely. A pair, two cards of one suit, or the ace and king of one suit."""

from __future__ import annotations

from rulegen.cards import format_cards
from rulegen.wagers import RoundCards, SideWagerKind

CLASSES = ("other", "suited", "pair", "suited_ace_king")  # weakest first; "other" loses
ACE, KING = 12, 11


def _hole(round_cards: RoundCards):
    return round_cards.hole


def _classify(cards) -> int:
    first, second = cards
    if first.rank == second.rank:
        return CLASSES.index("pair")
    if first.suit == second.suit:
        return CLASSES.index("suited_ace_king" if {first.rank, second.rank} == {ACE, KING} else "suited")
    return CLASSES.index("other")


def _describe(cards) -> str:
    return f"{CLASSES[_classify(cards)].replace('_', ' ')} ({format_cards(cards)})"


WAGER = SideWagerKind(key="hole_card_bonus", name="Hole Card Bonus", cards=2, hand_cards=_hole,
                      pay_classes=CLASSES, classify=_classify, sets_counted="pairs of hole cards counted",
                      describe=_describe)
