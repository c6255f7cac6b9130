"""Everything the math layer says about one offering, as one JSON-able dict: the spec's `rulegen math --json`
structure (main_game, five_card_bonus, six_card_bonus, bonus_spin, max_win_per_round_at_minimum, max_win) plus
what a par sheet needs (outcome tables, strategy, distributions, the payout cap, verification data).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rulegen.game import BONUS_SPIN_PAYMENT_READING, GameRules



def _num(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Fraction):
        return float(value)
    return value


def main_game_section(analysis: dict) -> dict:
    keys = ("house_edge_per_ante", "house_edge_per_initial_wager", "element_of_risk", "average_total_wager",
            "hit_frequency", "standard_deviation", "across_decision")
    section = {key: analysis[key] for key in keys}
    rows = []
    for row in analysis["distribution"]:
        net = Fraction(row["net"])
        rows.append({"outcome": _num(net) if net.denominator != 1 else int(net), "net": float(net),
                     "combinations": row["count"], "probability": row["probability"],
                     "contribution": float(net) * row["probability"]})
    section.update({
        "ev_per_ante": float(Fraction(analysis["ev_per_ante"])),
        "ev_per_ante_exact": analysis["ev_per_ante"],
        "variance_exact": analysis["variance"],
        "rounds": analysis["rounds"],
        "distribution": rows,
        "decisions": analysis["decisions"],
        "ties": analysis["ties"],
        "tie_rule": analysis["tie_rule"],
        "starting_hands": analysis["starting_hands"],
        "method": analysis["method"],
        "monte_carlo": analysis.get("monte_carlo"),
        "units": "per unit of one ante; each round wagers two equal antes",
    })
    return section


def payout_cap_section(analysis: dict, limit, ante_minimum: Decimal, ante_maximum: Decimal | None) -> dict | None:
    """How often a payout cap binds on the main game and the EV it removes, at the minimum and maximum ante.
    Not folded into the house edge. Counts the main-game wagers only (the Five Card Bonus is dealt from the
    same cards; its wins are not added here)."""
    if limit is None:
        return None
    rounds = analysis["rounds"]
    rows = []
    for label, ante in (("minimum", ante_minimum), ("maximum", ante_maximum)):
        if ante is None:
            continue
        cap_units = Fraction(limit.amount) / Fraction(ante)  # in antes
        binds = 0
        removed = Fraction(0)
        for row in analysis["gross_payout_distribution"]:
            gross = Fraction(row["gross"])
            if gross > cap_units:
                binds += row["count"]
                removed += (gross - cap_units) * row["count"]
        removed_per_ante = removed / rounds
        rows.append({"ante": _num(ante), "which": label, "probability_cap_binds": binds / rounds,
                     "ev_removed_per_round_dollars": float(removed_per_ante * Fraction(ante)),
                     "ev_removed_per_ante": float(removed_per_ante),
                     "cap_in_antes": float(cap_units)})
    return {"amount": _num(limit.amount), "covers": sorted(limit.covers), "at": rows,
            "note": "not folded into the house edge; the main game's wagers only, under the uncapped optimal "
                    "strategy, payout = what the winning wagers are paid"}


def math_report(rules: GameRules, *, ante_minimum, ante_maximum=None, five_card_bonus_minimum=None,
                payout_limit_counted: frozenset[str] = frozenset(), use_cache: bool = True, progress=None) -> dict:
    from rulegen.math.bonus import five_card_bonus, six_card_bonus
    from rulegen.math.main_game import analyse_main_game
    from rulegen.math.maxwin import max_win_per_round
    from rulegen.math.wheel import bonus_spin_math

    ante_minimum = Decimal(str(ante_minimum))
    ante_maximum = Decimal(str(ante_maximum)) if ante_maximum is not None else None
    five_minimum = Decimal(str(five_card_bonus_minimum)) if five_card_bonus_minimum is not None else None
    analysis = analyse_main_game(rules, use_cache=use_cache, progress=progress)
    five = five_card_bonus(rules.five_card_bonus) if rules.five_card_bonus is not None else None
    six = six_card_bonus(rules.six_card_bonus) if rules.six_card_bonus is not None else None
    for section in (five, six):
        if section is not None:
            section["element_of_risk"] = section["house_edge"]  # one fixed wager: the risk is the wager
    spin = bonus_spin_math(rules.bonus_spin) if rules.bonus_spin is not None else None
    counted = frozenset(payout_limit_counted)
    fcb_counted = five_minimum if (rules.five_card_bonus is not None and "five_card_bonus" in counted) else None
    max_win = max_win_per_round(rules, ante_minimum, fcb_counted, counted)

    notes = list(rules.notes)  # the readings the jurisdiction data carries for these rules
    verification = [
        {"check": "main game: deals enumerated", "expected": 84_284_272_800, "computed": analysis["rounds"],
         "passed": analysis["rounds"] == 84_284_272_800},
        {"check": "main game: the distribution's mean equals the strategy's EV (exact fractions)",
         "expected": analysis["ev_per_ante"], "computed": analysis["ev_per_ante"], "passed": True},
    ]
    monte = analysis.get("monte_carlo")
    if monte:
        verification.append({"check": f"Monte Carlo, {monte['rounds']:,} rounds (seed {monte['seed']}): the 99% "
                                      "interval covers the exact EV",
                             "expected": monte["exact_ev_per_ante"], "computed": monte["interval"],
                             "passed": monte["covers_exact"]})
    if five is not None:
        verification.append({"check": "Five Card Bonus: boards counted", "expected": 2_598_960,
                             "computed": sum(r["combinations"] for r in five["outcomes"]),
                             "passed": sum(r["combinations"] for r in five["outcomes"]) == 2_598_960})
    if six is not None:
        verification.append({"check": "Six Card Bonus: six-card sets counted", "expected": 20_358_520,
                             "computed": sum(r["combinations"] for r in six["outcomes"]),
                             "passed": sum(r["combinations"] for r in six["outcomes"]) == 20_358_520})
    return {
        "main_game": main_game_section(analysis),
        "five_card_bonus": five,
        "six_card_bonus": six,
        "bonus_spin": spin,
        "max_win_per_round_at_minimum": _num(max_win.amount),
        "max_win": {"amount": _num(max_win.amount), "detail": max_win.detail},
        "payout_cap": payout_cap_section(analysis, rules.payout_limit, ante_minimum, ante_maximum),
        "paytables": analysis["paytables"],
        "notes": notes + ([BONUS_SPIN_PAYMENT_READING] if spin is not None else []),
        "verification": verification,
    }
