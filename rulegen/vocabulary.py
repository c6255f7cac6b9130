"""The names of things, said one way everywhere: hands, wagers, sign-off roles, and the operator's choices in words.

Layer: the lowest (uses nothing of ours). Templates (through `rulegen.render.filters`), the renderer, the clause
inventory's reasons and `rulegen diff` all take their words from here, so a hand or a wager is never called two
things in two documents.
"""

from __future__ import annotations

from fractions import Fraction

# Hand classes, best first: the keys a paytable uses.
HANDS: tuple[str, ...] = (
    "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
    "two_pair", "pair_jacks_or_better", "pair_sixes_through_tens", "pair_sixes_or_better",
)

HAND_NAMES: dict[str, str] = {
    "royal_flush": "Royal flush",
    "straight_flush": "Straight flush",
    "four_of_a_kind": "Four of a kind",
    "full_house": "Full house",
    "flush": "Flush",
    "straight": "Straight",
    "three_of_a_kind": "Three of a kind",
    "two_pair": "Two pair",
    "pair_jacks_or_better": "Pair of jacks or better",
    "pair_sixes_through_tens": "Pair of 6s through 10s",
    "pair_sixes_or_better": "Pair of 6s or better",
    "pair": "Pair",
    "pair_below_sixes": "Pair of 2s through 5s",
    "high_card": "High card",
    "nothing": "Less than a pair of 6s",
}

# Wagers, in the order a round takes them.
WAGERS: tuple[str, ...] = ("ante_across", "ante_down", "across", "down", "middle", "five_card_bonus",
                           "six_card_bonus", "bonus_spin")

WAGER_NAMES: dict[str, str] = {
    "ante_across": "Ante Across",
    "ante_down": "Ante Down",
    "across": "Across bet",
    "down": "Down bet",
    "middle": "Middle bet",
    "five_card_bonus": "Five Card Bonus",
    "six_card_bonus": "Six Card Bonus",
    "bonus_spin": "Bonus Spin",
    "bonus_spin_community": "Bonus Spin community pay",
    "payout_limit": "Payout limit",
}

OPTIONAL_WAGERS: tuple[str, ...] = ("five_card_bonus", "six_card_bonus", "bonus_spin")

BONUS_SPIN_KINDS: dict[str, str] = {
    "progressive": "Bonus Spin Progressive",
    "xtreme": "Bonus Spin Xtreme Progressive",
}

TOP_PRIZE_WORDS: dict[str, str] = {
    "progressive": "a progressive meter",
    "fixed": "a fixed prize",
    "merchandise": "merchandise",
}

TRIGGER_WORDS: dict[str, str] = {
    "pair_in_hole_cards": "a pair in the player's two cards",
    "suited_hole_cards": "the player's two cards being of one suit",
    "pair_or_suited_hole_cards": "a pair in the player's two cards, or the two being of one suit",
}

# Sign-off roles, in the order they sign.
ROLES: tuple[str, ...] = ("prepared", "reviewed", "approved")
ROLE_TITLES: dict[str, str] = {"prepared": "Prepared by", "reviewed": "Reviewed by", "approved": "Approved by"}

DEALING_WORDS: dict[str, str] = {
    "manual-shoe": "from a manual dealing shoe",
    "hand": "from the dealer's hand",
    "automated-shoe": "from an automated dealing shoe",
}

SHUFFLING_WORDS: dict[str, str] = {
    "manual": "by hand",
    "automated": "with an automated card shuffling device that does not count the cards",
    "automated-counting": "with an automated card shuffling device that counts the cards after each shuffle",
}

DISPLAY_WORDS: dict[str, str] = {"layout": "inscribed on the layout", "sign": "posted on a sign at each table"}


def hand_name(key: object) -> str:
    if key is None:
        return "—"
    return HAND_NAMES.get(str(key), str(key).replace("_", " ").capitalize())


def wager_name(key: object) -> str:
    if key is None:
        return "—"
    return WAGER_NAMES.get(str(key), str(key).replace("_", " ").capitalize())


def odds_words(payout: Fraction) -> str:
    """A winning pay as odds, one way everywhere: 500 → "500 to 1", 3/2 → "3 to 2" (never "1.5 to 1" or "3/2 to 1")."""
    return f"{payout.numerator:,} to {payout.denominator:,}"
