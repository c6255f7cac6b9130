"""The payout limit, with the floor computed exactly by the math layer (the maximum win per round)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from rulegen.jurisdiction import LIMIT_SET_BY_RULE, Jurisdiction
from rulegen.money import dollars
from rulegen.offering import Offering
from rulegen.errors import InputError
from rulegen.resolved import paytable_rules, resolve
from rulegen.validate.core import Check, Context, dotted, get, number

if TYPE_CHECKING:
    from rulegen.math.results import MaxWin

# the parts the maximum win is computed from: an error in one of them makes the figure untrustworthy, an error
# anywhere else does not
FIGURE_INPUTS = (("offering", "jurisdiction"), ("paytables",), ("limits",), ("five_card_bonus",),
                 ("six_card_bonus",), ("payout_limit",))


def payout_limit(ctx: Context, check: Check) -> None:
    j = ctx.j
    rule = j.cited("payout_limit", "rule")
    if rule is None:
        return
    if any(ctx.failed(node) for node in FIGURE_INPUTS):
        return  # the figure cannot be trusted until those validate
    limit = ctx.get(("payout_limit",))
    amount = number(limit.get("amount")) if isinstance(limit, dict) else None
    base = j.cited("payout_limit", "base_amount")
    base_amount = Decimal(str(base.value)) if base and base.value is not None else None
    node = ("payout_limit", "amount")
    key = amount is None

    max_win = maximum_win(ctx.offering, j)
    if max_win is None:
        return
    figure = max(base_amount, max_win.amount) if base_amount is not None else max_win.amount
    how = _floor_words(max_win, base_amount, figure)
    counted = j.cited("payout_limit", "counted_in_max_win")
    kind = rule.value
    if amount is not None:
        if kind == "at_least_greater_of" and amount < figure:
            ctx.add(check, node, "error",
                    f"payout_limit.amount is {dollars(amount)}, below the floor of {dollars(figure)}; {how}",
                    rule.citation)
        elif kind == "equals_greater_of" and amount != figure:
            ctx.add(check, node, "error",
                    f"payout_limit.amount is {dollars(amount)}; the payout limit must be {dollars(figure)}; {how}",
                    rule.citation)
        elif kind == "at_most_greater_of" and amount > figure:
            ctx.add(check, node, "error",
                    f"payout_limit.amount is {dollars(amount)}, above the {dollars(figure)} the aggregate payout "
                    f"limit may not exceed; {how}", rule.citation)
        elif kind in ("at_most_greater_of", "operator_cap") and amount < max_win.amount:
            ctx.add(check, node, "warning",
                    f"payout_limit.amount is {dollars(amount)}, below the maximum win per round at the minimum "
                    f"wager: {how}; the {'cap' if kind == 'operator_cap' else 'limit'} would cut such a win",
                    rule.citation)
    elif kind in LIMIT_SET_BY_RULE:  # the limit the rule itself sets, which the build fills in (math.report)
        ctx.add(check, ("payout_limit",), "note",
                f"payout_limit is not stated; the text sets it at {dollars(figure)} ({how}), and the documents print "
                "that figure as the limit", rule.citation, key=True, rule="limit-by-rule")
    place = node if amount is not None else ("payout_limit",)
    if rule.reading:
        ctx.add(check, place, "note", f"{dotted(place)}: {rule.reading}", rule.citation, key=key, rule="reading")
    if counted is not None and counted.reading:
        ctx.add(check, place, "note", f"{dotted(place)}: {counted.reading.rstrip('.')}; for this offering it is "
                f"{dollars(max_win.amount)}.", counted.citation, key=key, rule="reading")


def limit_stated(ctx: Context, check: Check) -> None:
    """Where the text sets the limit by its own force, the offering states it (the documents print it)."""
    required = ctx.cited("payout_limit", "required")
    rule = ctx.cited("payout_limit", "rule")
    if required is None or not required.value or ctx.get(("payout_limit",)) is not None \
            or ctx.failed(("payout_limit",)):
        return
    if rule is not None and rule.value == "equals_greater_of":
        base = ctx.cited("payout_limit", "base_amount")
        words = (f"the aggregate payout limit shall be {dollars(Decimal(str(base.value)))} or the maximum amount one "
                 "player could win per round at the minimum wager, whichever is greater"
                 if base is not None and base.value is not None else "the text sets the aggregate payout limit")
        message = f"payout_limit is missing; {words}: state it so the rules document and the sign show it"
    elif rule is not None and rule.value == "at_most_greater_of":
        base = ctx.cited("payout_limit", "base_amount")
        ceiling = (f"the greater of {dollars(Decimal(str(base.value)))} and the maximum win per round at the minimum "
                   "wager" if base is not None and base.value is not None else "the figure the text sets")
        message = (f"payout_limit is missing; the text gives every table an aggregate payout limit, which may not "
                   f"exceed {ceiling}: state the limit this table applies")
    else:
        message = "payout_limit is missing; the text sets an aggregate payout limit: state it"
    ctx.add(check, ("payout_limit",), "error", message, required.citation, at=(), rule="limit-stated")


def _floor_words(max_win: MaxWin, base_amount, figure) -> str:
    parts = [f"the most one player can win in a round at the minimum wager is {dollars(max_win.amount)}"]
    parts.append(f"({max_win.detail.summary})")
    if base_amount is not None:
        parts.append(f"and the greater of {dollars(base_amount)} and that is {dollars(figure)}")
    return " ".join(parts)


def maximum_win(offering: Offering, jurisdiction: Jurisdiction):
    from rulegen.math.maxwin import max_win_per_round

    data = offering.data
    counted_cited = jurisdiction.cited("payout_limit", "counted_in_max_win")
    counted = frozenset(counted_cited.value) if counted_cited else frozenset()
    ante_minimum = number(get(data, ("limits", "ante", "minimum")))
    if ante_minimum is None:
        return None
    five = number(get(data, ("five_card_bonus", "minimum")))
    try:
        resolved = resolve(offering)
        positions = resolved.table.positions
        rules, others = resolved.game_rules, max(positions - 1, 0) if isinstance(positions, int) else 0
    except InputError:
        # the paytables alone, so that a broken part the figure does not use (the cards, the sign-offs) is no
        # matter; where the figure counts the Bonus Spin, it needs the whole offering
        if "bonus_spin" in counted and get(data, ("bonus_spin",)) is not None:
            return None
        rules, others = paytable_rules(offering), 0
    return max_win_per_round(rules, ante_minimum, five if "five_card_bonus" in counted else None, counted,
                             other_players=others)


CHECKS = (
    Check("payout limit stated", ("payout_limit",), ("payout_limit", "required"), "limit-stated", limit_stated),
    Check("payout limit", ("payout_limit", "amount"), ("payout_limit", "rule"), "limit", payout_limit, needs=FIGURE_INPUTS,
          also=("reading", "limit-by-rule")),
)
