"""Worked examples for the rules document: a few rounds dealt on purpose, settled by `rulegen.game`.

The cards and the player's choices are chosen here to show the rules at work (a strong hand, a fold that
keeps the bonus wager in action, pushes with a Bonus Spin); every amount printed is what
`rulegen.game.settle_round` returns for them under the offering's own paytables and payout limit.
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from decimal import Decimal

ROUNDS = (
    {
        "title": "A straight flush on the Across line",
        "story": "The player raises the most at every decision: three times the ante on Across, Down and Middle.",
        "hole": "Js Ts", "across": "9s 8s", "down": "Ah 4d", "middle": "Qs", "bets": (3, 3, 3),
        "six_card": "2c 3d 7h Kc", "spin": False,
    },
    {
        "title": "A fold, and the bonus wager still in action",
        "story": "The player folds at the Across decision and loses both antes; the bonus wager is settled on the "
                 "community cards all the same.",
        "hole": "7h 2c", "across": "Kd Ks", "down": "Kh 9c", "middle": "9s", "bets": (0,),
        "six_card": "3d 4d 5h 6s", "spin": False,
    },
    {
        "title": "Pairs below jacks: pushes",
        "story": "The player bets one ante at each decision; both hands are a pair of 7s, so the antes and the bets "
                 "push.",
        "story_with_spin": " The pair in the player's two cards triggers the Bonus Spin.",
        "hole": "7h 7c", "across": "Kd 3s", "down": "4d 9c", "middle": "2s", "bets": (1, 1, 1),
        "six_card": "Qh Jc 5s 4c", "spin": True,
    },
)


def _plain(value):
    if is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in asdict(value).items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _spin_symbol(rules) -> str | None:
    """The wheel segment the example lands on: one with a community pay if the wheel has one, else the smallest."""
    spin = getattr(rules, "bonus_spin", None)
    if spin is None:
        return None
    paying = [s for s in spin.segments if s.pays is not None]
    with_community = [s for s in paying if s.community is not None]
    chosen = (with_community or sorted(paying, key=lambda s: s.pays))[:1]
    return chosen[0].symbol if chosen else None


def settle(rules, round_: dict, *, ante: Decimal, five_card_bonus: Decimal | None, six_card: bool):
    """Settle one example round through the game layer."""
    from rulegen.game import settle_round

    spin = getattr(rules, "bonus_spin", None)
    spinning = round_["spin"] and spin is not None
    return settle_round(rules, round_["hole"], round_["across"], round_["down"], round_["middle"], ante,
                        bets=tuple(round_["bets"]), five_card_bonus=five_card_bonus,
                        six_card=round_["six_card"] if six_card and five_card_bonus is not None else None,
                        bonus_spin_wager=spin.wager if spinning else None,
                        wheel_symbol=_spin_symbol(rules) if spinning else None)


def worked_examples(offering) -> list[dict]:
    """The example rounds settled under the resolved offering's rules, at the minimum ante and bonus wager."""
    rules = offering.game_rules
    ante = offering.limits.ante.minimum
    five_wager = offering.five_card_bonus_minimum
    six = offering.six_card_bonus is not None
    found = []
    for round_ in ROUNDS:
        settlement = settle(rules, round_, ante=ante, five_card_bonus=five_wager, six_card=six)
        plain = _plain(settlement)
        lines = plain.get("lines") or plain.get("wagers") or []
        title, story = round_["title"], round_["story"]
        if round_["bets"] == (0,) and offering.five_card_bonus is None:
            title, story = "A fold at the first decision", "The player folds at the Across decision and loses both antes."
        if round_.get("story_with_spin") and rules.bonus_spin is not None:
            story += round_["story_with_spin"]
        found.append({
            **round_,
            "title": title,
            "story": story,
            "ante": ante,
            "five_card_bonus": five_wager,
            "six_card_shown": six,
            "spin_symbol": _spin_symbol(rules) if round_["spin"] and rules.bonus_spin is not None else None,
            "lines": lines,
            "net": plain.get("net"),
            "steps": plain.get("steps") or [],
            "notes": plain.get("notes") or [],
            "community_pay_to_others": plain.get("community_pay_to_others"),
        })
    return found
