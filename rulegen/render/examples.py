"""Worked examples for the rules document: a few rounds dealt on purpose, settled by `rulegen.game`.

The cards and the player's choices are chosen here to show the rules at work (a strong hand, a fold that
keeps the bonus wager in action, pushes with a Bonus Spin); every amount printed is what
`rulegen.game.settle_round` returns for them under the offering's own paytables and payout limit.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, NotRequired, TypedDict

from rulegen.vocabulary import TRIGGER_WORDS

if TYPE_CHECKING:
    from rulegen.game import GameRules, Settlement, SettlementLine
    from rulegen.resolved import ResolvedOffering


class Round(TypedDict):
    """One example round as dealt here: the cards as text, the bets as multiples of the ante (0 a fold)."""

    title: str
    story: str
    story_with_spin: NotRequired[str]
    hole: str
    across: str
    down: str
    middle: str
    bets: tuple[int, ...]
    six_card: str
    spin: bool


class ExampleLine(TypedDict):
    wager: str
    amount: Decimal
    hand: str
    result: str
    net: Decimal


class WorkedExample(Round):
    ante: Decimal
    five_card_bonus: Decimal | None
    six_card_shown: bool
    spin_symbol: str | None
    lines: list[ExampleLine]
    net: Decimal
    steps: list[str]
    notes: list[str]
    community_pay_to_others: Decimal | None


# The fold is the player's choice, not a claim about the best strategy (which, at most paytables, plays this hand)
CHOOSES_TO_FOLD = ("The player chooses to fold at the Across decision (a player may fold any hand, whatever the best "
                   "strategy would do with it)")

ROUNDS: tuple[Round, ...] = (
    {
        "title": "A straight flush on the Across line",
        "story": "The player raises the most at every decision: three times the ante on Across, Down and Middle.",
        "hole": "Js Ts", "across": "9s 8s", "down": "Ah 4d", "middle": "Qs", "bets": (3, 3, 3),
        "six_card": "2c 3d 7h Kc", "spin": False,
    },
    {
        "title": "A fold, and the bonus wager still in action",
        "story": f"{CHOOSES_TO_FOLD} and loses both antes; the bonus wager is settled on the community cards all the "
                 "same.",
        "hole": "7h 2c", "across": "Kd Ks", "down": "Kh 9c", "middle": "9s", "bets": (0,),
        "six_card": "3d 4d 5h 6s", "spin": False,
    },
    {
        "title": "Pairs below jacks: pushes",
        "story": "The player bets one ante at each decision; both hands are a pair of 7s, so the antes and the bets "
                 "push.",
        "story_with_spin": " {trigger}",
        "hole": "7h 7c", "across": "Kd 3s", "down": "4d 9c", "middle": "2s", "bets": (1, 1, 1),
        "six_card": "Qh Jc 5s 4c", "spin": True,
    },
)

# The pushes round where the Bonus Spin triggers only on suited cards: the player's two cards of one suit, each
# line pairing a 7 with the hole 7, so that every hand is still a pair of 7s and the Bonus Spin triggers.
SUITED_PUSHES = {"hole": "7h 8h", "across": "Kd 7s", "down": "7d 9c"}


def _line(line: SettlementLine) -> ExampleLine:
    return {"wager": line.wager, "amount": line.amount, "hand": line.hand, "result": line.result, "net": line.net}


def _spin_symbol(rules: GameRules) -> str | None:
    """The wheel segment the example lands on: one with a community pay if the wheel has one, else the smallest."""
    spin = rules.bonus_spin
    if spin is None:
        return None
    paying = [(s.pays, s) for s in spin.segments if s.pays is not None]
    with_community = [s for _, s in paying if s.community is not None]
    smallest = [s for _, s in sorted(paying, key=lambda entry: entry[0])]
    chosen = (with_community or smallest)[:1]
    return chosen[0].symbol if chosen else None


def settle(rules: GameRules, round_: Round, *, ante: Decimal, five_card_bonus: Decimal | None,
           six_card: bool) -> Settlement:
    """Settle one example round through the game layer."""
    from rulegen.game import settle_round

    spin = rules.bonus_spin
    spinning = round_["spin"] and spin is not None
    return settle_round(rules, round_["hole"], round_["across"], round_["down"], round_["middle"], ante,
                        bets=tuple(round_["bets"]), five_card_bonus=five_card_bonus,
                        six_card=round_["six_card"] if six_card and five_card_bonus is not None else None,
                        bonus_spin_wager=spin.wager if spin is not None and spinning else None,
                        wheel_symbol=_spin_symbol(rules) if spinning else None)


def worked_examples(offering: ResolvedOffering) -> list[WorkedExample]:
    """The example rounds settled under the resolved offering's rules, at the minimum ante and bonus wager."""
    rules = offering.game_rules
    ante = offering.limits.ante.minimum
    five_wager = offering.five_card_bonus_minimum
    six = offering.six_card_bonus is not None
    found: list[WorkedExample] = []
    for dealt in ROUNDS:
        round_ = dealt
        if dealt["spin"] and rules.bonus_spin is not None and rules.bonus_spin.trigger == "suited_hole_cards":
            round_ = {**dealt, **SUITED_PUSHES}  # type: ignore[typeddict-item]
        settlement = settle(rules, round_, ante=ante, five_card_bonus=five_wager, six_card=six)
        title, story = round_["title"], round_["story"]
        if round_["bets"] == (0,) and offering.five_card_bonus is None:
            title, story = "A fold at the first decision", f"{CHOOSES_TO_FOLD} and loses both antes."
        elif round_["bets"] == (0,) and six:
            title = "A fold, and the bonus wagers still in action"
            story = (f"{CHOOSES_TO_FOLD} and loses both antes; the Five Card Bonus is settled on "
                     "the community cards and the Six Card Bonus on the player's two cards and the four bonus cards "
                     "all the same.")
        if round_.get("story_with_spin") and rules.bonus_spin is not None:
            words = TRIGGER_WORDS[rules.bonus_spin.trigger]
            met = "a pair" if rules.bonus_spin.trigger != "suited_hole_cards" else "of one suit"
            story += round_["story_with_spin"].format(
                trigger=f"The player's two cards are {met}, which meets this table's Bonus Spin trigger ({words}).")
        found.append({
            **round_,
            "title": title,
            "story": story,
            "ante": ante,
            "five_card_bonus": five_wager,
            "six_card_shown": six,
            "spin_symbol": _spin_symbol(rules) if round_["spin"] and rules.bonus_spin is not None else None,
            "lines": [_line(line) for line in settlement.lines],
            "net": settlement.net,
            "steps": list(settlement.steps),
            "notes": list(settlement.notes),
            "community_pay_to_others": settlement.community_pay_to_others,
        })
    return found
