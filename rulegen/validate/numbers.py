"""Numbers and money: finite, whole cents, and each minimum at most its maximum (offering format)."""

from __future__ import annotations

from rulegen.jurisdiction import FORMAT
from rulegen.money import dollars
from rulegen.validate.core import ANY, Check, Context, dotted, non_finite_numbers, number

MONEY_FIELDS = (
    ("limits", "ante", "minimum"), ("limits", "ante", "maximum"),
    ("five_card_bonus", "minimum"), ("five_card_bonus", "maximum"),
    ("bonus_spin", "wager"), ("bonus_spin", "top_prize", "initial"), ("bonus_spin", "top_prize", "reset"),
    ("payout_limit", "amount"),
)


def finite(ctx: Context, check: Check) -> None:
    for node, value in non_finite_numbers(ctx.data):
        ctx.add(check, node, "error", f"{dotted(node)} is {value}; numbers must be finite")


def whole_cents(ctx: Context, check: Check) -> None:
    nodes: list[tuple[str | int, ...]] = list(MONEY_FIELDS)
    for index, _segment in enumerate(ctx.get(("bonus_spin", "wheel")) or []):
        nodes.append(("bonus_spin", "wheel", index, "community"))
    for node in nodes:
        value = number(ctx.get(node))
        if value is None or node in ctx.schema_nodes:
            continue
        if (value * 100) % 1 != 0:
            ctx.add(check, node, "error", f"{dotted(node)} is {value}; money is whole dollars or dollars and cents "
                                          "(at most two decimal places)")


def minimum_at_most_maximum(ctx: Context, check: Check) -> None:
    for base, label in ((("limits", "ante"), "ante"), (("five_card_bonus",), "Five Card Bonus")):
        low = number(ctx.get(base + ("minimum",)))
        high = number(ctx.get(base + ("maximum",)))
        if low is not None and high is not None and low > high:
            node = base + ("minimum",)
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {dollars(low)}, above the {label} maximum {dollars(high)}")


CHECKS = (
    Check("finite numbers", (ANY,), FORMAT, "finite", finite, jurisdictional=False),
    Check("money in whole cents", (ANY,), FORMAT, "cents", whole_cents, jurisdictional=False),
    Check("minimum at most maximum", (ANY, "minimum"), FORMAT, "min-max", minimum_at_most_maximum,
          jurisdictional=False),
)
