"""The Bonus Spin wager: the designated paytable, its top prize, its community pays, and its wheel."""

from __future__ import annotations

from decimal import Decimal

from rulegen.jurisdiction import FORMAT
from rulegen.resolved import bonus_spin_table, community_pay_table
from rulegen.resolved import symbol_key as _symbol_key
from rulegen.money import dollars
from rulegen.validate.core import ANY, Check, Context, describe, number

TOP_PRIZE_KINDS = {"fixed": {"fixed"}, "progressive": {"progressive"},
                   "fixed_or_merchandise": {"fixed", "merchandise"},
                   "fixed_or_progressive": {"fixed", "merchandise", "progressive"}}


def _spin(ctx: Context) -> dict | None:
    """The offering's Bonus Spin, when the schema accepted all of it."""
    spin = ctx.get(("bonus_spin",))
    if not isinstance(spin, dict) or ctx.failed(("bonus_spin",)):
        return None
    return spin


def designated_paytable(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is not None:
        return
    ctx.add(check, ("bonus_spin", "paytable"), "error",
            f"bonus_spin.paytable is {describe(spin.get('paytable'))}, which is not a Bonus Spin {spin.get('kind')} "
            f"paytable {ctx.j.name} authorizes", FORMAT)


def top_prize_kind(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    table = bonus_spin_table(ctx.j, spin) if spin else None
    if table is None:
        return
    top = spin.get("top_prize") or {}
    top_kind = table.value.get("top_prize")
    if top_kind and top.get("kind") and top["kind"] not in TOP_PRIZE_KINDS.get(top_kind, {top_kind}):
        ctx.add(check, ("bonus_spin", "top_prize", "kind"), "error",
                f"bonus_spin.top_prize.kind is {describe(top['kind'])}; paytable {spin.get('paytable')} pays its "
                f"top symbol as {top_kind.replace('_', ' ')}", table.citation)


def top_prize_minimums(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is None:
        return
    top = spin.get("top_prize") or {}
    kind = str(spin.get("kind"))
    for which in ("initial", "reset"):
        minimum = ctx.j.named("bonus_spin", kind, f"minimum_{which}", str(spin.get("paytable")))
        amount = number(top.get(which))
        if minimum is not None and amount is not None and amount < Decimal(str(minimum.value)):
            ctx.add(check, ("bonus_spin", "top_prize", which), "error",
                    f"bonus_spin.top_prize.{which} is {dollars(amount)}; the {which} amount for paytable "
                    f"{spin.get('paytable')} must be at least {dollars(Decimal(str(minimum.value)))}",
                    minimum.citation)
        if minimum is not None and minimum.reading:
            ctx.add(check, ("bonus_spin", "top_prize", which), "note", minimum.reading, minimum.citation)


def community_pay_designated(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is None:
        return
    kind = str(spin.get("kind"))
    if spin.get("community_pay") is not None and community_pay_table(ctx.j, spin) is None \
            and ctx.j.community_pay_tables(kind):
        ctx.add(check, ("bonus_spin", "community_pay"), "error",
                f"bonus_spin.community_pay is {describe(spin.get('community_pay'))}, which is not a community-pay "
                f"table {ctx.j.name} authorizes for a {dollars(Decimal(str(spin.get('wager'))))} wager", FORMAT)


def paytable_notes(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    table = bonus_spin_table(ctx.j, spin) if spin else None
    if table is None:
        return
    if table.note:
        ctx.add(check, ("bonus_spin", "paytable"), "note", table.note, table.citation)
    if table.reading:
        ctx.add(check, ("bonus_spin", "paytable"), "note", table.reading, table.citation)


def wheel_symbols(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    table = bonus_spin_table(ctx.j, spin) if spin else None
    if table is None:
        return
    symbols = {_symbol_key(row.get("symbol")) for row in table.value.get("symbols", [])}
    for index, segment in enumerate(spin.get("wheel") or []):
        symbol = _symbol_key(segment.get("symbol"))
        if symbol not in symbols:
            ctx.add(check, ("bonus_spin", "wheel", index, "symbol"), "error",
                    f"bonus_spin.wheel[{index}].symbol is {describe(segment.get('symbol'))}, which paytable "
                    f"{spin.get('paytable')} does not have; its symbols are "
                    f"{', '.join(sorted(symbols, key=_symbol_order))}", table.citation)


def wheel_weights(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is None or spin.get("wheel"):
        return
    ctx.add(check, ("bonus_spin", "wheel"), "note",
            "no wheel segment weights are given, so no return figure for the Bonus Spin can be computed; the math "
            "appendix gives the return as a function of the wheel's mean prize and needs the manufacturer's weights "
            "for a figure", FORMAT, key=True, at=("bonus_spin",))


def hardware(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is None:
        return
    rule = ctx.cited("rules", "bonus_spin_hardware")
    if rule is not None and rule.value and not (rule.value or {}).get("approval"):
        ctx.add(check, ("bonus_spin",), "note",
                f"a table offering this wager needs a {rule.value.get('system', 'progressive table game system')}",
                rule.citation, key=True)


def after_fold(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is None:
        return
    reading = ctx.j.reading("bonus_spin_after_fold")
    if reading:
        ctx.add(check, ("bonus_spin",), "note", reading["reading"], reading.get("citation"), key=True)


def _symbol_order(symbol: str):
    try:
        return (0, -Decimal(symbol))
    except Exception:
        return (-1, 0)


CHECKS = (
    Check("Bonus Spin paytable is authorized", ("bonus_spin", "paytable"), FORMAT, "paytable", designated_paytable),
    Check("top prize kind fits the paytable", ("bonus_spin", "top_prize", "kind"), FORMAT, "top-prize",
          top_prize_kind),
    Check("top prize initial and reset minimums", ("bonus_spin", "top_prize"), FORMAT, "minimum",
          top_prize_minimums),
    Check("community-pay table is authorized", ("bonus_spin", "community_pay"), FORMAT, "community-table",
          community_pay_designated),
    Check("Bonus Spin paytable notes", ("bonus_spin", "paytable"), FORMAT, "reading", paytable_notes),
    Check("wheel symbols are the paytable's", ("bonus_spin", "wheel", ANY, "symbol"), FORMAT, "wheel-symbol",
          wheel_symbols),
    Check("wheel weights given", ("bonus_spin", "wheel"), FORMAT, "weights", wheel_weights),
    Check("Bonus Spin hardware", ("bonus_spin",), ("rules", "bonus_spin_hardware"), "hardware", hardware),
    Check("Bonus Spin after a fold", ("bonus_spin",), ("rules", "bonus_spin_after_fold"), "after-fold", after_fold),
)
