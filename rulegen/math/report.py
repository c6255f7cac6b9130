"""Everything the math layer says about one offering, as one typed `MathReport` (see rulegen.math.results): the
spec's `rulegen math --json` structure (main_game, five_card_bonus, six_card_bonus, bonus_spin,
max_win_per_round_at_minimum, max_win) plus what a par sheet needs (outcome tables, strategy, distributions,
the payout cap, verification data).
"""

from __future__ import annotations

import math
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from rulegen.game import GameRules
from rulegen.jurisdiction import LIMIT_SET_BY_RULE
from rulegen import wagers
from rulegen.math.bonus import side_counts, side_wager_table
from rulegen.math.deals import TOTAL_DEALS
from rulegen.math.main_game import analyse_main_game
from rulegen.math.maxwin import max_win_per_round
from rulegen.math.cap import BonusAtCap, payout_cap_section
from rulegen.math.json_values import fraction_text
from rulegen.math.results import AnteAsWritten, MainGameAnalysis, MathReport, VerificationCheck
from rulegen.math.wheel import WheelSetting, bonus_spin_math
from rulegen.resolved import ResolvedOffering


def verification_checks(analysis: MainGameAnalysis, side=()) -> tuple[VerificationCheck, ...]:
    # The mean is taken here, from the distribution the appendix prints, against the EV the decisions give: a
    # result read from the cache, or altered on its way, whose two halves disagree fails the row.
    counted = sum(row.combinations for row in analysis.distribution)
    mean = sum((row.net * row.combinations for row in analysis.distribution), Fraction(0)) / (counted or 1)
    checks = [
        VerificationCheck("main game: deals enumerated", TOTAL_DEALS, analysis.rounds,
                          analysis.rounds == TOTAL_DEALS == counted),
        VerificationCheck("main game: the distribution's mean equals the strategy's EV (exact fractions)",
                          fraction_text(analysis.ev_per_ante), fraction_text(mean), mean == analysis.ev_per_ante),
    ]
    monte = analysis.monte_carlo
    if monte:
        checks.append(VerificationCheck(
            f"Monte Carlo simulation, {monte.rounds:,} rounds (repeatable from its seed, {monte.seed}): the 99% "
            "interval covers the exact EV",
            monte.exact_ev_per_ante, monte.interval, monte.covers_exact))
    for key, section in side:  # each side wager offered: every set of its cards counted once
        kind = wagers.kind(key)
        counted, total = sum(row.combinations for row in section.outcomes), math.comb(52, kind.cards)
        checks.append(VerificationCheck(f"{kind.name}: {kind.sets_counted}", total, counted, counted == total))
    return tuple(checks)


def _bonuses_at_cap(rules: GameRules, amounts) -> tuple[BonusAtCap, ...]:
    out = []
    for wager, paytable in rules.offered_side_wagers:
        if wager not in amounts:
            continue
        low, high = amounts[wager]
        counts = side_counts(wagers.kind(wager))
        out.append(BonusAtCap(wager=wager, payouts=tuple(paytable.payout(i) for i in range(len(counts))),
                              counts=tuple(counts), amounts=(("minimum", low), ("maximum", high))))
    return tuple(out)


def with_limit_by_rule(offering: ResolvedOffering) -> ResolvedOffering:
    """The offering with its payout limit filled in where the jurisdiction's rule sets the limit itself
    and the offering states none; any other offering unchanged."""
    from dataclasses import replace

    limit = offering.payout_limit
    rule = offering.jurisdiction.cited("payout_limit", "rule")
    if limit.amount is not None or rule is None or rule.value not in LIMIT_SET_BY_RULE:
        return offering
    base = offering.jurisdiction.cited("payout_limit", "base_amount")
    max_win = max_win_per_round(offering.game_rules, offering.limits.ante.minimum,
                                offering.five_card_bonus_minimum if "five_card_bonus" in limit.counted_in_max_win
                                else None, frozenset(limit.counted_in_max_win),
                                other_players=max((offering.table.positions or 1) - 1, 0))
    figure = max(Decimal(str(base.value)), max_win.amount) if base is not None and base.value is not None \
        else max_win.amount
    return replace(offering, payout_limit=replace(limit, amount=figure, by_rule=True))


def settled(loaded) -> ResolvedOffering:
    """The offering resolved, with a payout limit the jurisdiction's rule sets by itself filled in (computed here),
    so that every document and `rulegen math` use the same limit."""
    from rulegen.resolved import resolve

    offering = with_limit_by_rule(resolve(loaded))
    meter = limit_follows_meter_above(offering)
    if meter is None:
        return offering
    base = offering.jurisdiction.cited("payout_limit", "base_amount")  # given: the meter figure is measured from it
    # above the meter figure, the maximum win is the meter's amount and what that deal pays apart from the prize
    plus = Decimal(str(base.value)) - meter if base is not None else None
    return replace(offering, payout_limit=replace(offering.payout_limit, follows_meter_above=meter, meter_plus=plus))


def limit_follows_meter_above(offering: ResolvedOffering) -> Decimal | None:
    """Where the jurisdiction's rule makes the limit the greater of its base amount and the maximum win at the
    minimum wager, and that win counts a progressive top prize: the meter amount above which the maximum win passes
    the base amount. The best deal whose hole cards trigger the spin is found with the top prize set beyond any other
    win (so that deal is the maximum); what it pays apart from the prize, taken from the base amount, is the meter."""
    rules = offering.game_rules
    spin = rules.bonus_spin
    rule = offering.jurisdiction.cited("payout_limit", "rule")
    base = offering.jurisdiction.cited("payout_limit", "base_amount")
    counted = frozenset(offering.payout_limit.counted_in_max_win)
    if (spin is None or spin.top_prize_kind != "progressive" or "bonus_spin" not in counted or rule is None
            or rule.value not in LIMIT_SET_BY_RULE or base is None or base.value is None):
        return None
    others = max((offering.table.positions or 1) - 1, 0)
    from rulegen.math import cache as disk

    if disk.reading():
        # the same figure from the per-hand reach tables (kept in the math cache): the best win apart from the
        # prize over the deals whose hole cards trigger the spin, with the other players' community pays
        from rulegen.math.reach import triggering_max_win

        win = triggering_max_win(rules, offering.limits.ante.minimum,
                                 offering.five_card_bonus_minimum if "five_card_bonus" in counted else None, counted,
                                 others)
        return max(Decimal(str(base.value)) - win, Decimal(0))
    beyond = Decimal(10) ** 9
    lifted = replace(rules, bonus_spin=replace(spin, top_prize_amount=beyond))
    best = max_win_per_round(lifted, offering.limits.ante.minimum,
                             offering.five_card_bonus_minimum if "five_card_bonus" in counted else None, counted,
                             other_players=others)
    return max(Decimal(str(base.value)) - (best.amount - beyond), Decimal(0))


def offering_report(offering: ResolvedOffering, *, use_cache: bool = True, progress=None) -> MathReport:
    """The math report of one resolved offering: its rules, at its minimum and maximum ante and minimum bonus
    wager, with the maximum win counting the wagers its jurisdiction counts."""
    report = _offering_report(offering, use_cache=use_cache, progress=progress)
    # settled() has found the meter already for the offering the documents print: not searched a second time
    meter = offering.payout_limit.follows_meter_above
    if meter is None:
        meter = limit_follows_meter_above(offering)
    return replace(report, limit_follows_meter_above=meter)


def _offering_report(offering: ResolvedOffering, *, use_cache: bool = True, progress=None) -> MathReport:
    return math_report(offering.game_rules, ante_minimum=offering.limits.ante.minimum,
                       ante_maximum=offering.limits.ante.maximum,
                       five_card_bonus_minimum=offering.five_card_bonus_minimum,
                       payout_limit_counted=frozenset(offering.payout_limit.counted_in_max_win),
                       other_players=max((offering.table.positions or 1) - 1, 0),
                       wheel_setting=wheel_setting(offering), bonus_amounts=bonus_amounts(offering),
                       ante_as_written=ante_as_written(offering), use_cache=use_cache, progress=progress)


def ante_as_written(offering: ResolvedOffering) -> str | None:
    """The paytable kind the antes would be paid from were the text read as written, where the jurisdiction's data
    marks the offering's ante table as departing from it (`as_written`)."""
    name = offering.ante.name
    entry = ((offering.jurisdiction.data.get("paytables") or {}).get("ante") or {}).get(name) if name else None
    value = entry.get("as_written") if isinstance(entry, dict) else None
    return str(value) if value else None


def bonus_amounts(offering: ResolvedOffering) -> dict[str, tuple[Decimal | None, Decimal | None]]:
    """Each bonus wager's minimum and maximum amount; a Six Card Bonus whose offering states no range of its own is
    wagered at the Five Card Bonus's amounts (the house text has the two wagers equal)."""
    out: dict[str, tuple[Decimal | None, Decimal | None]] = {}
    five, six = offering.five_card_bonus, offering.six_card_bonus
    if five is not None:
        out["five_card_bonus"] = (five.minimum, five.maximum)
    if six is not None:
        own = (six.minimum, six.maximum)
        out["six_card_bonus"] = own if any(v is not None for v in own) else out.get("five_card_bonus", (None, None))
    out.update((key, (wager.minimum, wager.maximum)) for key, wager in offering.side_wagers)
    return out


def wheel_setting(offering: ResolvedOffering) -> WheelSetting | None:
    """What the Bonus Spin's return rests on beyond its wheel: the other positions of the table that may hold the
    wager, a Community Prize Wheel's amounts (where its community pays come from a wheel of their own), and the
    progressive meter's reset amount and rate of progression."""
    spin = offering.bonus_spin
    if spin is None:
        return None
    positions = offering.table.positions
    if positions is None:
        raise ValueError("the offering states no number of betting positions")
    return WheelSetting(
        other_players=range(0, int(positions)),
        community_wheel=tuple(row.pays for row in spin.community_table) if spin.kind == "xtreme" else (),
        community_wheel_weights=(tuple(int(row.weight or 0) for row in spin.community_table)
                                 if spin.kind == "xtreme" and spin.community_weighted else None),
        top_prize_reset=spin.top_prize.reset,
        rate_of_progression_percent=spin.top_prize.rate_of_progression_percent)


def math_report(rules: GameRules, *, ante_minimum, ante_maximum=None, five_card_bonus_minimum=None,
                payout_limit_counted: frozenset[str] = frozenset(), other_players: int = 0,
                wheel_setting: WheelSetting | None = None,
                bonus_amounts: dict[str, tuple[Decimal | None, Decimal | None]] | None = None,
                ante_as_written: str | None = None, use_cache: bool = True, progress=None) -> MathReport:
    ante_minimum = Decimal(str(ante_minimum))
    ante_maximum = Decimal(str(ante_maximum)) if ante_maximum is not None else None
    five_minimum = Decimal(str(five_card_bonus_minimum)) if five_card_bonus_minimum is not None else None
    analysis = analyse_main_game(rules, use_cache=use_cache, progress=progress)
    side = tuple((key, side_wager_table(table, wagers.kind(key))) for key, table in rules.offered_side_wagers)
    five, six = dict(side).get("five_card_bonus"), dict(side).get("six_card_bonus")
    spin = None
    if rules.bonus_spin is not None:
        # without the table's setting, the wheel alone: no other player, no meter beyond the game's top prize
        spin = bonus_spin_math(rules.bonus_spin, wheel_setting or WheelSetting(other_players=(0,)))
    counted = frozenset(payout_limit_counted)
    fcb_counted = five_minimum if (rules.five_card_bonus is not None and "five_card_bonus" in counted) else None
    max_win = max_win_per_round(rules, ante_minimum, fcb_counted, counted, other_players=other_players)
    notes = list(rules.notes)  # the readings the jurisdiction data carries for these rules
    as_written = None
    if ante_as_written == "criss_cross":
        literal = analyse_main_game(replace(rules, ante=rules.criss_cross), use_cache=use_cache)
        as_written = AnteAsWritten(table=ante_as_written, house_edge_per_ante=literal.house_edge_per_ante,
                                   house_edge_per_initial_wager=literal.house_edge_per_initial_wager,
                                   element_of_risk=literal.element_of_risk)
    return MathReport(
        main_game=analysis,
        five_card_bonus=five,
        six_card_bonus=six,
        side_wagers=tuple((key, result) for key, result in side if key not in ("five_card_bonus", "six_card_bonus")),
        bonus_spin=spin,
        max_win=max_win,
        payout_cap=payout_cap_section(analysis, rules.payout_limit, ante_minimum, ante_maximum,
                                      _bonuses_at_cap(rules, bonus_amounts or {})),
        paytables=analysis.paytables,
        notes=tuple(notes),
        verification=verification_checks(analysis, side),
        ante_as_written=as_written,
    )
