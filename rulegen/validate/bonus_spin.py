"""The Bonus Spin wager: the designated paytable, its top prize, its community pays, and its wheel.

The wheel an offering lists (segment weights from the manufacturer's par sheet) must be the designated
table's wheel: every symbol once, the jackpot among them, community pays exactly the table's (none added,
changed or removed) and, where the table numbers its wheel positions (New Jersey's Tables 3 to 5), the
positions the table gives. The documents print community pays from the designated table alone.
"""

from __future__ import annotations

from decimal import Decimal

from rulegen.jurisdiction import FORMAT, Cited, Jurisdiction
from rulegen.resolved import bonus_spin_table, community_pay_table
from rulegen.resolved import symbol_key as _symbol_key
from rulegen.money import dollars
from rulegen.validate.core import ANY, Check, Context, describe, dotted, number


TOP_PRIZE_KINDS = {"fixed": {"fixed"}, "progressive": {"progressive"},
                   "fixed_or_merchandise": {"fixed", "merchandise"},
                   "fixed_or_progressive": {"fixed", "merchandise", "progressive"}}
# what each kind of top prize states (required) and what it may not state (forbidden), and why
TOP_PRIZE_FIELDS = {
    "fixed": (("initial",), ("reset", "rate_of_progression_percent")),
    "merchandise": (("description", "initial"), ("reset", "rate_of_progression_percent")),
    "progressive": (("initial", "reset", "rate_of_progression_percent"), ()),
}
FIELD_WORDS = {
    ("fixed", "initial"): "a fixed top prize states its amount as initial",
    ("merchandise", "description"): "a merchandise top prize states what the merchandise is as description",
    ("merchandise", "initial"): "a merchandise top prize states the merchandise's value as initial",
    ("progressive", "initial"): "a progressive top prize states the meter's initial amount",
    ("progressive", "reset"): "a progressive top prize states the amount the meter resets to",
    ("progressive", "rate_of_progression_percent"): "a progressive top prize states the meter's rate of progression",
}
TOP_PRIZE_WORDS = {"fixed": "a fixed prize", "progressive": "a progressive jackpot",
                   "fixed_or_merchandise": "a fixed prize or merchandise",
                   "fixed_or_progressive": "a fixed prize, merchandise or a progressive jackpot"}
WHEEL = ("bonus_spin", "wheel")


def _spin(ctx: Context) -> dict | None:
    """The offering's Bonus Spin, when the schema accepted all of it."""
    spin = ctx.get(("bonus_spin",))
    if not isinstance(spin, dict) or ctx.failed(("bonus_spin",)):
        return None
    return spin


def _designated(ctx: Context) -> tuple[dict, Cited] | None:
    spin = _spin(ctx)
    if ctx.jurisdiction is None:
        return None  # no jurisdiction named (the schema says so): no table to designate, and the other checks run
    table = bonus_spin_table(ctx.j, spin) if spin else None
    return (spin, table) if spin is not None and table is not None else None


def table_name(jurisdiction: Jurisdiction, spin: dict, table: Cited) -> str:
    """How a message names the designated table: "Table 3" where the citation names one, else "Paytable D"."""
    if "Table " in table.citation:
        return "Table " + table.citation.rsplit("Table ", 1)[1]
    return f"Paytable {spin.get('paytable')}"


def designated_community_pays(jurisdiction: Jurisdiction, spin: dict) -> tuple[dict[str, Decimal], str | None]:
    """{symbol: community pay} of the designated table, and the citation they come from."""
    table = bonus_spin_table(jurisdiction, spin)
    pays: dict[str, Decimal] = {}
    citation = None
    if table is None:
        return pays, citation
    for row in table.value.get("symbols", []):
        if row.get("community") is not None:
            pays[_symbol_key(row.get("symbol"))] = Decimal(str(row["community"]))
            citation = table.citation
    community = community_pay_table(jurisdiction, spin)
    if community is not None:
        symbols = {_symbol_key(row.get("symbol")) for row in table.value.get("symbols", [])}
        for row in community.value or []:
            pair = row.get("symbols") or []
            if pair and _symbol_key(pair[0]) in symbols:
                pays.setdefault(_symbol_key(pair[0]), Decimal(str(row["pays"])))
        citation = citation or community.citation
    return pays, citation


def _segment_words(symbol: str) -> str:
    return "jackpot" if symbol == "jackpot" else dollars(Decimal(symbol))


def designated_paytable(ctx: Context, check: Check) -> None:
    spin = _spin(ctx)
    if spin is None or bonus_spin_table(ctx.j, spin) is not None:
        return
    ctx.add(check, ("bonus_spin", "paytable"), "error",
            f"bonus_spin.paytable is {describe(spin.get('paytable'))}, which is not a Bonus Spin {spin.get('kind')} "
            f"paytable {ctx.j.name} authorizes")


def top_prize_kind(ctx: Context, check: Check) -> None:
    designated = _designated(ctx)
    if designated is None:
        return
    spin, table = designated
    top = spin.get("top_prize") or {}
    top_kind = table.value.get("top_prize")
    if top_kind and top.get("kind") and top["kind"] not in TOP_PRIZE_KINDS.get(top_kind, {top_kind}):
        ctx.add(check, ("bonus_spin", "top_prize", "kind"), "error",
                f"bonus_spin.top_prize.kind is {describe(top['kind'])}; {table_name(ctx.j, spin, table)} pays "
                f"{TOP_PRIZE_WORDS.get(top_kind, top_kind)} as its top prize", table.citation)


def top_prize_fields(ctx: Context, check: Check) -> None:
    """Each kind of top prize states what it is and nothing a different kind would state."""
    designated = _designated(ctx)
    if designated is None:
        return
    spin, table = designated
    top = spin.get("top_prize") or {}
    kind = top.get("kind")
    if kind not in TOP_PRIZE_FIELDS:
        return
    required, forbidden = TOP_PRIZE_FIELDS[kind]
    node = ("bonus_spin", "top_prize")
    rate_rule = ctx.cited("bonus_spin", str(spin.get("kind")), "rate_of_progression_required")
    for name in required:
        if top.get(name) is None:
            citation = table.citation
            if kind == "progressive":
                if name == "rate_of_progression_percent":
                    citation = rate_rule.citation if rate_rule and rate_rule.value else FORMAT
                else:
                    minimum = ctx.j.named("bonus_spin", str(spin.get("kind")), f"minimum_{name}", str(spin.get("paytable")))
                    citation = minimum.citation if minimum else FORMAT
            ctx.add(check, node + (name,), "error", f"{dotted(node + (name,))} is missing; {FIELD_WORDS[kind, name]}",
                    citation, key=True, at=node, rule=f"top-prize-{kind}")
    for name in forbidden:
        if top.get(name) is not None:
            ctx.add(check, node + (name,), "error",
                    f"{dotted(node + (name,))} is given, but a {kind} top prize has no meter; remove it or make the "
                    "top prize progressive", table.citation, key=True, rule=f"top-prize-{kind}")


def top_prize_minimums(ctx: Context, check: Check) -> None:
    designated = _designated(ctx)
    if designated is None:
        return
    spin, _table = designated
    top = spin.get("top_prize") or {}
    kind = str(spin.get("kind"))
    for which in ("initial", "reset"):
        minimum = ctx.j.named("bonus_spin", kind, f"minimum_{which}", str(spin.get("paytable")))
        amount = number(top.get(which))
        if minimum is not None and amount is not None and amount < Decimal(str(minimum.value)):
            what = {"initial": "initial amount", "reset": "reset amount"}[which]
            if top.get("kind") == "fixed" and which == "initial":
                what = "fixed prize"
            elif top.get("kind") == "merchandise" and which == "initial":
                what = "merchandise's value"
            ctx.add(check, ("bonus_spin", "top_prize", which), "error",
                    f"bonus_spin.top_prize.{which} is {dollars(amount)}; the {what} for paytable "
                    f"{spin.get('paytable')} must be at least {dollars(Decimal(str(minimum.value)))}",
                    minimum.citation)
        if minimum is not None and minimum.reading and top.get(which) is not None:
            ctx.add(check, ("bonus_spin", "top_prize", which), "note",
                    f"bonus_spin.top_prize.{which}: {minimum.reading}", minimum.citation, rule="reading")


def community_pay_designated(ctx: Context, check: Check) -> None:
    designated = _designated(ctx)
    if designated is None:
        return
    spin, _table = designated
    kind = str(spin.get("kind"))
    if spin.get("community_pay") is not None and community_pay_table(ctx.j, spin) is None \
            and ctx.j.community_pay_tables(kind):
        ctx.add(check, ("bonus_spin", "community_pay"), "error",
                f"bonus_spin.community_pay is {describe(spin.get('community_pay'))}, which is not a community-pay "
                f"table {ctx.j.name} authorizes for a {dollars(Decimal(str(spin.get('wager'))))} wager")
    community = community_pay_table(ctx.j, spin)
    # a community-pay table that pays by the wheel's symbols (not an Xtreme Community Prize Wheel of its own)
    named = [row["symbols"][0] for row in (community.value or []) if isinstance(row, dict) and row.get("symbols")] \
        if community is not None else []
    if community is not None and named:
        on_wheel = {_symbol_key(row.get("symbol")) for row in _table.value.get("symbols", [])}
        if not any(_symbol_key(symbol) in on_wheel for symbol in named):
            ctx.add(check, ("bonus_spin", "community_pay"), "warning",
                    f"bonus_spin.community_pay is {describe(spin.get('community_pay'))}, a table that names no symbol "
                    f"of Paytable {spin.get('paytable')}'s wheel: no community pay is ever made at this table, though "
                    f"the text has community pays made; designate a table that names one of the wheel's symbols, or "
                    f"put to the regulator a wager that pays none", community.citation, rule="community-unpaid")
    follows = ctx.j.cited("bonus_spin", kind, "community_pay_follows_paytable")
    designated_table = spin.get("community_pay")
    if follows is not None and follows.value and designated_table is not None \
            and str(designated_table) != str(spin.get("paytable")):
        ctx.add(check, ("bonus_spin", "community_pay"), "error",
                f"bonus_spin.community_pay is {describe(designated_table)}; Paytable {spin.get('paytable')}'s "
                f"community pays are its own Community Prize Wheel, community_pay {spin.get('paytable')}",
                follows.citation)


def _cents(value) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))


def spin_return(ctx: Context, check: Check) -> None:
    """A Bonus Spin wager that returns more than it takes cannot be the operator's game: with the wheel's weights
    the return is computed exactly; without them it is at least P(trigger) x the smallest prize / the wager."""
    if _designated(ctx) is None or any(ctx.failed(node) for node in (("bonus_spin",), ("cards",))):
        return
    from fractions import Fraction

    from rulegen.errors import RulegenError
    from rulegen.math.wheel import HOLE_PAIRS, TRIGGER_COMBINATIONS, trigger_probability
    from rulegen.resolved import resolve

    try:
        resolved = resolve(ctx.offering)
        spin = resolved.game_rules.bonus_spin
    except (RulegenError, ValueError, KeyError, TypeError):
        return  # what keeps the offering from resolving is reported by its own check
    if spin is None or spin.trigger not in TRIGGER_COMBINATIONS or spin.wager <= 0:
        return
    combinations = TRIGGER_COMBINATIONS[spin.trigger]
    p = trigger_probability(spin.trigger)  # the math's own, as the appendix's return uses it
    amounts = [segment.pays if segment.pays is not None else spin.top_prize_amount for segment in spin.segments]
    if any(amount is None for amount in amounts):
        return
    prizes = [(Fraction(amount or 0), segment.weight) for amount, segment in zip(amounts, spin.segments)]
    weighted = all(weight is not None for _prize, weight in prizes) and sum(w or 0 for _p, w in prizes) > 0
    if weighted:
        total = sum((Fraction(w or 0) for _p, w in prizes), Fraction(0))
        mean = sum((prize * Fraction(w or 0) for prize, w in prizes), Fraction(0)) / total
        figure = p * mean / Fraction(spin.wager)
        how = f"a mean prize of {dollars(_cents(mean))} from the wheel's weights"
        words = "returns"
    else:
        smallest = min(prize for prize, _w in prizes)
        figure, how = p * smallest / Fraction(spin.wager), f"its smallest prize, {dollars(_cents(smallest))}"
        words = "returns at least"
    if figure <= 1:
        if weighted:
            _full_table_return(ctx, check, resolved)
        return
    percent = f"{float(figure) * 100:,.0f}%"
    ctx.add(check, ("bonus_spin",), "error",
            f"bonus_spin {words} {percent} of the wager: the trigger ({spin.trigger.replace('_', ' ')}) comes "
            f"{combinations} times in {HOLE_PAIRS} deals and a spin pays {how}, on a "
            f"{dollars(spin.wager)} wager; a wager that pays back more than it takes cannot be offered",
            FORMAT, rule="spin-return")


def _full_table_return(ctx: Context, check: Check, resolved) -> None:
    """With the weights given, the return once the other positions hold the wager too: community pays from their
    spins can take it past 100%, a player advantage at a full table. A warning with the figures: the offering may
    stand, but the operator should see it."""
    from rulegen.math.report import wheel_setting
    from rulegen.math.wheel import bonus_spin_math

    setting = wheel_setting(resolved)
    if setting is None:
        return
    try:
        result = bonus_spin_math(resolved.game_rules.bonus_spin, setting)
    except (ValueError, ArithmeticError):
        return
    past = result.weighted.past_the_wager() if result.weighted is not None else None
    if past is None:
        return
    first, full = past
    also = "" if first is full else \
        f", and {full.return_with_community * 100:.2f}% with {full.other_players}"
    ctx.add(check, ("bonus_spin",), "warning",
            f"bonus_spin returns {first.return_with_community * 100:.2f}% of the wager once {first.other_players} "
            f"other player{'s' if first.other_players != 1 else ''} hold it (the community pays of their spins){also}: "
            f"a table that full plays at the player's advantage; the wheel's weights decide it", FORMAT,
            rule="spin-return-table")


def paytable_notes(ctx: Context, check: Check) -> None:
    designated = _designated(ctx)
    if designated is None:
        return
    _spin_, table = designated
    for text in (table.note, table.reading):
        if text:
            ctx.add(check, ("bonus_spin", "paytable"), "note", f"bonus_spin.paytable: {text}", table.citation)


def _wheel(ctx: Context):
    designated = _designated(ctx)
    if designated is None or not isinstance(designated[0].get("wheel"), list):
        return None
    spin, table = designated
    rows = {_symbol_key(row.get("symbol")): row for row in table.value.get("symbols", [])}
    return spin, table, rows, [(index, _symbol_key(segment.get("symbol")), segment)
                               for index, segment in enumerate(spin["wheel"]) if isinstance(segment, dict)]


def wheel_symbols(ctx: Context, check: Check) -> None:
    """Every segment a symbol of the table, and each symbol once."""
    wheel = _wheel(ctx)
    if wheel is None:
        return
    spin, table, rows, segments = wheel
    name = table_name(ctx.j, spin, table)
    seen: dict[str, int] = {}
    for index, symbol, segment in segments:
        node = WHEEL + (index, "symbol")
        if symbol not in rows:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {describe(segment.get('symbol'))}, a symbol {name} does not have; its symbols "
                    f"are {', '.join(_segment_words(s) for s in sorted(rows, key=_symbol_order))}", table.citation)
        elif symbol in seen:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {_segment_words(symbol)} again (also {dotted(WHEEL + (seen[symbol],))}); each "
                    f"symbol of {name} is listed once", table.citation, rule="wheel-duplicate")
        else:
            seen[symbol] = index


def wheel_complete(ctx: Context, check: Check) -> None:
    """The wheel lists every symbol of the table: the jackpot, and each player pay."""
    wheel = _wheel(ctx)
    if wheel is None:
        return
    spin, table, rows, segments = wheel
    name = table_name(ctx.j, spin, table)
    listed = {symbol for _index, symbol, _segment in segments}
    if "jackpot" in rows and "jackpot" not in listed:
        ctx.add(check, WHEEL, "error",
                f"bonus_spin.wheel has no jackpot segment; {name}'s top symbol is the jackpot, and the wheel lists "
                "every symbol of the designated table", table.citation, key=True, rule="wheel-jackpot")
    missing = [s for s in rows if s not in listed and s != "jackpot"]
    if missing:
        shown = [_segment_words(s) for s in missing]
        words = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        ctx.add(check, WHEEL, "error",
                f"bonus_spin.wheel has no {words} segment{'s' if len(shown) > 1 else ''}; the wheel lists every "
                f"symbol of {name}", table.citation, key=True, rule="wheel-missing")


def wheel_community(ctx: Context, check: Check) -> None:
    """Community pays exactly the designated table's: none added, changed or removed."""
    wheel = _wheel(ctx)
    if wheel is None:
        return
    spin, table, rows, segments = wheel
    pays, citation = designated_community_pays(ctx.j, spin)
    citation = citation or table.citation
    name = table_name(ctx.j, spin, table)
    if spin.get("community_pay") is not None and citation != table.citation:
        name = f"{name} with community-pay table {spin.get('community_pay')}"
    states_any = any(segment.get("community") is not None for _i, _s, segment in segments)
    seen: set[str] = set()
    for index, symbol, segment in segments:
        if symbol not in rows or symbol in seen:
            continue  # a symbol the table lacks, or listed twice: wheel_symbols reports it
        seen.add(symbol)
        node = WHEEL + (index, "community")
        given = number(segment.get("community"))
        designated = pays.get(symbol)
        shown = _segment_words(symbol)
        if given is not None and designated is None:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {dollars(given)}, but {name} gives the {shown} segment no community pay",
                    citation, rule="wheel-community")
        elif given is not None and given != designated:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {dollars(given)}; {name} gives the {shown} segment a community pay of "
                    f"{dollars(designated)}", citation, rule="wheel-community")
        elif given is None and designated is not None and states_any:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is missing; {name} gives the {shown} segment a community pay of "
                    f"{dollars(designated)} (a wheel that states community pays states every one)", citation,
                    key=True, at=WHEEL + (index,), rule="wheel-community")


def wheel_positions(ctx: Context, check: Check) -> None:
    """Where the table numbers its wheel positions, a segment's stated position is the table's."""
    wheel = _wheel(ctx)
    if wheel is None:
        return
    spin, table, rows, segments = wheel
    name = table_name(ctx.j, spin, table)
    for index, symbol, segment in segments:
        given = segment.get("position")
        if given is None or symbol not in rows:
            continue
        node = WHEEL + (index, "position")
        position = rows[symbol].get("position")
        if position is None:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {given}, but {name} gives no wheel positions; leave position out",
                    table.citation, rule="wheel-position")
        elif given != position:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {given}; {name} puts the {_segment_words(symbol)} segment at wheel "
                    f"position {position}", table.citation, rule="wheel-position")


def wheel_weights(ctx: Context, check: Check) -> None:
    designated = _designated(ctx)
    if designated is None or designated[0].get("wheel"):
        return
    ctx.add(check, WHEEL, "note",
            "bonus_spin.wheel is not given, so no return figure for the Bonus Spin can be computed; a DRAFT's math "
            "appendix gives the return as a function of the wheel's mean prize, and a final build needs the "
            "manufacturer's weights (a weight for every segment) so that the filed appendix states the return",
            FORMAT, key=True, at=("bonus_spin",))


COMMUNITY_WHEEL = ("bonus_spin", "community_wheel")


def community_wheel(ctx: Context, check: Check) -> None:
    """The Community Prize Wheel's weights: only with a designated Community Prize Wheel, each of its amounts once,
    every amount listed."""
    spin = _spin(ctx)
    given = (spin or {}).get("community_wheel")
    if spin is None or not isinstance(given, list) or not given or ctx.jurisdiction is None:
        return
    table = community_pay_table(ctx.j, spin) if spin.get("kind") == "xtreme" else None
    if table is None or not isinstance(table.value, list):
        ctx.add(check, COMMUNITY_WHEEL, "error",
                f"{dotted(COMMUNITY_WHEEL)} gives a Community Prize Wheel's weights, but this Bonus Spin designates no "
                f"Community Prize Wheel: only an Xtreme wager with a designated wheel (bonus_spin.community_pay) has "
                f"one", FORMAT)
        return
    amounts = {_symbol_key(row.get("symbol")): row for row in table.value}
    name = f"Community Prize Wheel {spin.get('community_pay')}"
    seen: dict[str, int] = {}
    for index, segment in enumerate(given):
        if not isinstance(segment, dict):
            continue
        node = COMMUNITY_WHEEL + (index, "symbol")
        key = _symbol_key(segment.get("symbol"))
        if key not in amounts:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {describe(segment.get('symbol'))}, an amount {name} does not have; its amounts "
                    f"are {', '.join(dollars(Decimal(k)) for k in amounts)}", table.citation)
        elif key in seen:
            ctx.add(check, node, "error",
                    f"{dotted(node)} is {dollars(Decimal(key))} again (also {dotted(COMMUNITY_WHEEL + (seen[key],))}); "
                    f"each amount of {name} is listed once", table.citation)
        else:
            seen[key] = index
    missing = [k for k in amounts if k not in seen]
    if missing:
        ctx.add(check, COMMUNITY_WHEEL, "error",
                f"{dotted(COMMUNITY_WHEEL)} leaves out {', '.join(dollars(Decimal(k)) for k in missing)}: a weight is "
                f"given for every amount of {name}", table.citation, key=True)


def hardware(ctx: Context, check: Check) -> None:
    if _designated(ctx) is None:
        return
    rule = ctx.cited("rules", "bonus_spin_hardware")
    if rule is not None and rule.value and not (rule.value or {}).get("approval"):
        ctx.add(check, ("bonus_spin",), "note",
                f"bonus_spin: a table offering this wager needs a "
                f"{rule.value.get('system', 'progressive table game system')}", rule.citation, key=True)


def after_fold(ctx: Context, check: Check) -> None:
    if _designated(ctx) is None:
        return
    reading = ctx.j.reading("bonus_spin_after_fold")
    if reading:
        ctx.add(check, ("bonus_spin",), "note", f"bonus_spin: {reading['reading']}", reading.get("citation"),
                key=True)


def _symbol_order(symbol: str):
    try:
        return (0, -Decimal(symbol))
    except Exception:
        return (-1, 0)


def _table_citations(j: Jurisdiction) -> list[str]:
    """Every Bonus Spin paytable's and community-pay table's citation (for listing rule codes)."""
    out: list[str] = []
    for kind, spec in (j.data.get("bonus_spin") or {}).items():
        for name in (spec.get("paytables") or {}):
            cited = j.cited("bonus_spin", kind, "paytables", name)
            if cited:
                out.append(cited.citation)
    return out


CHECKS = (
    Check("Bonus Spin paytable is authorized", ("bonus_spin", "paytable"), FORMAT, "spin-paytable",
          designated_paytable),
    Check("top prize kind fits the paytable", ("bonus_spin", "top_prize", "kind"), _table_citations, "top-prize",
          top_prize_kind),
    Check("top prize states what its kind needs", ("bonus_spin", "top_prize"), _table_citations, "top-prize-fixed",
          top_prize_fields, also=("top-prize-merchandise", "top-prize-progressive")),
    Check("top prize initial and reset minimums", ("bonus_spin", "top_prize"), ("bonus_spin",), "minimum",
          top_prize_minimums, also=("reading",)),
    Check("community-pay table is authorized", ("bonus_spin", "community_pay"), FORMAT, "community-table",
          community_pay_designated, also=("community-unpaid",)),
    Check("Bonus Spin return at most the wager", ("bonus_spin",), FORMAT, "spin-return", spin_return,
          jurisdictional=False, also=("spin-return-table",)),
    Check("Bonus Spin paytable notes", ("bonus_spin", "paytable"), _table_citations, "reading", paytable_notes),
    Check("wheel symbols are the table's, each once", WHEEL + (ANY, "symbol"), _table_citations, "wheel-symbol",
          wheel_symbols, also=("wheel-duplicate",)),
    Check("wheel lists every symbol, the jackpot too", WHEEL, _table_citations, "wheel-missing", wheel_complete,
          also=("wheel-jackpot",)),
    Check("wheel community pays are the table's", WHEEL + (ANY, "community"), _table_citations, "wheel-community",
          wheel_community),
    Check("wheel positions are the table's", WHEEL + (ANY, "position"), _table_citations, "wheel-position",
          wheel_positions),
    Check("wheel weights given", WHEEL, FORMAT, "weights", wheel_weights),
    Check("Community Prize Wheel weights", COMMUNITY_WHEEL + (ANY, "symbol"), FORMAT, "community-wheel",
          community_wheel),
    Check("Bonus Spin hardware", ("bonus_spin",), ("rules", "bonus_spin_hardware"), "hardware", hardware),
    Check("Bonus Spin after a fold", ("bonus_spin",), ("rules", "bonus_spin_after_fold"), "after-fold", after_fold),
)
