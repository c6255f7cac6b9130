"""The payout limit's effect, as the math appendix reports it: on the main game at the minimum and maximum ante,
and on each bonus wager the limit covers, by itself, at its minimum and maximum wager.

None of these figures is folded into a house edge printed elsewhere: the limit applies to what a round pays in all,
so a main-game win and a bonus win in the same round share it. The main game's rows count its wagers only; a bonus
row counts the bonus alone, so what the limit removes from a round is at least the larger of the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rulegen.money import json_number


@dataclass(frozen=True)
class PayoutCapAt:
    """The payout limit's effect on the main game at one ante amount."""
    ante: Decimal
    which: str  # minimum | maximum
    probability_cap_binds: float
    ev_removed_per_round_dollars: float  # an expectation, not an amount paid: a rounded ratio like the edges
    ev_removed_per_ante: float
    cap_in_antes: float

    def to_json(self) -> dict:
        return {"ante": json_number(self.ante), "which": self.which,
                "probability_cap_binds": self.probability_cap_binds,
                "ev_removed_per_round_dollars": self.ev_removed_per_round_dollars,
                "ev_removed_per_ante": self.ev_removed_per_ante, "cap_in_antes": self.cap_in_antes}


@dataclass(frozen=True)
class PayoutCapBonus:
    """The payout limit's effect on one bonus wager by itself, at one amount wagered: how often the bonus's own
    payout passes the limit, what the limit removes per wager, and the bonus's house edge with the limit."""
    wager: str  # five_card_bonus | six_card_bonus
    amount: Decimal
    which: str  # minimum | maximum
    probability_cap_binds: float
    ev_removed_per_wager_dollars: float
    house_edge_with_cap: float

    def to_json(self) -> dict:
        return {"wager": self.wager, "amount": json_number(self.amount), "which": self.which,
                "probability_cap_binds": self.probability_cap_binds,
                "ev_removed_per_wager_dollars": self.ev_removed_per_wager_dollars,
                "house_edge_with_cap": self.house_edge_with_cap}


@dataclass(frozen=True)
class PayoutCap:
    amount: Decimal
    covers: tuple[str, ...]
    at: tuple[PayoutCapAt, ...]
    note: str
    bonuses: tuple[PayoutCapBonus, ...] = ()
    bonus_note: str = ""

    def to_json(self) -> dict:
        return {"amount": json_number(self.amount), "covers": list(self.covers),
                "at": [row.to_json() for row in self.at], "note": self.note,
                "bonuses": [row.to_json() for row in self.bonuses], "bonus_note": self.bonus_note}


@dataclass(frozen=True)
class BonusAtCap:
    """What the bonus rows need of one bonus wager: its pay per hand class (per unit wagered, the stake not
    counted), how many boards reach each class, and the amounts wagered to report (minimum, maximum)."""
    wager: str
    payouts: tuple[Fraction, ...]
    counts: tuple[int, ...]
    amounts: tuple[tuple[str, Decimal | None], ...]


MAIN_NOTE = ("not folded into the house edge; the main game's wagers only, under the uncapped optimal strategy; a "
             "payout is what the winning wagers are paid")
BONUS_NOTE = ("each bonus by itself, at its own minimum and maximum wager: the limit applies to all a round pays, "
              "so in a round where the main game wins too it removes at least as much as either table shows")


def payout_cap_section(analysis: Any, limit, ante_minimum: Decimal, ante_maximum: Decimal | None,
                       bonuses: tuple[BonusAtCap, ...] = ()) -> PayoutCap | None:
    """How often a payout cap binds on the main game (`analysis`, a `rulegen.math.results.MainGameAnalysis`, which
    this module may not import: results holds a PayoutCap) and the EV it removes, at the minimum and maximum ante;
    and, for each bonus the limit covers, the same for the bonus by itself."""
    if limit is None:
        return None
    rounds = analysis.rounds
    rows = []
    for label, ante in (("minimum", ante_minimum), ("maximum", ante_maximum)):
        if ante is None:
            continue
        cap_units = Fraction(limit.amount) / Fraction(ante)  # in antes
        binds = 0
        removed = Fraction(0)
        for row in analysis.gross_payout_distribution:
            if row.gross > cap_units:
                binds += row.combinations
                removed += (row.gross - cap_units) * row.combinations
        removed_per_ante = removed / rounds
        rows.append(PayoutCapAt(ante=ante, which=label, probability_cap_binds=binds / rounds,
                                ev_removed_per_round_dollars=float(removed_per_ante * Fraction(ante)),
                                ev_removed_per_ante=float(removed_per_ante), cap_in_antes=float(cap_units)))
    bonus_rows = tuple(row for bonus in bonuses if bonus.wager in limit.covers
                       for row in bonus_cap_rows(bonus, Fraction(limit.amount)))
    return PayoutCap(amount=Decimal(limit.amount), covers=tuple(sorted(limit.covers)), at=tuple(rows),
                     note=MAIN_NOTE, bonuses=bonus_rows, bonus_note=BONUS_NOTE if bonus_rows else "")


def bonus_cap_rows(bonus: BonusAtCap, cap: Fraction) -> list[PayoutCapBonus]:
    """Exact over the bonus's boards: at each amount wagered, the boards whose payout passes the cap, the payout
    above it per wager, and the house edge once that is taken away."""
    total = sum(bonus.counts)
    ev = sum((pay * count for pay, count in zip(bonus.payouts, bonus.counts)), Fraction(0)) / total
    rows = []
    for which, amount in bonus.amounts:
        if amount is None:
            continue
        stake = Fraction(amount)
        binds = 0
        removed = Fraction(0)  # dollars, over all boards
        for pay, count in zip(bonus.payouts, bonus.counts):
            paid = pay * stake
            if paid > cap:
                binds += count
                removed += (paid - cap) * count
        removed_per_wager = removed / total
        rows.append(PayoutCapBonus(wager=bonus.wager, amount=amount, which=which,
                                   probability_cap_binds=float(Fraction(binds, total)),
                                   ev_removed_per_wager_dollars=float(removed_per_wager),
                                   house_edge_with_cap=float(-(ev - removed_per_wager / stake))))
    return rows
