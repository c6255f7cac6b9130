"""Paytables: a named table must be one the jurisdiction authorizes; a written-out one must equal one, or,
where the jurisdiction lets the operator write its own (`rules.paytables_written_freely`), be well formed."""

from __future__ import annotations

import difflib

from rulegen.evaluator import PAY_CLASSES
from rulegen.jurisdiction import FORMAT
from rulegen.resolved import odds_mapping, payout_vector, resolve_paytable
from rulegen.validate.core import Check, Context, describe, dotted

TABLES = ((("paytables", "criss_cross"), "criss_cross", "the Criss Cross paytable"),
          (("paytables", "ante"), "ante", "the ante paytable"),
          (("five_card_bonus", "paytable"), "five_card_bonus", "the Five Card Bonus paytable"),
          (("six_card_bonus", "paytable"), "six_card_bonus", "the Six Card Bonus paytable"))


def _choices(ctx: Context):
    """(node, kind, label, choice) for each paytable the offering chooses and the schema accepted."""
    for node, kind, label in TABLES:
        if node[0] != "paytables" and not isinstance(ctx.get(node[:1]), dict):
            continue
        choice = ctx.get(node)
        if choice is None or ctx.failed(node):
            continue
        yield node, kind, label, choice


def _citation(ctx: Context, kind: str) -> str:
    names = ctx.j.paytable_names(kind)
    if names:
        cited = ctx.j.paytable(kind, names[0])
        if cited:
            return cited.citation
    return FORMAT


def _written_freely(ctx: Context) -> bool:
    rule = ctx.cited("rules", "paytables_written_freely")
    return bool(rule and rule.value)


def named(ctx: Context, check: Check) -> None:
    j = ctx.j
    for node, kind, label, choice in _choices(ctx):
        if not isinstance(choice, str):
            continue
        table, _name, _cited = resolve_paytable(j, kind, choice)
        if table is not None:
            continue
        names = j.paytable_names(kind)
        hint = difflib.get_close_matches(choice, names, n=1, cutoff=0.5)
        message = f"{dotted(node)} is {describe(choice)}, which is not a {label} {j.name} authorizes"
        message += (f"; did you mean '{hint[0]}'?" if hint else
                    (f"; the named tables are {', '.join(names)}" if names else "; write the table out"))
        ctx.add(check, node, "error", message, _citation(ctx, kind))


def written_out(ctx: Context, check: Check) -> None:
    if _written_freely(ctx):
        return
    j = ctx.j
    for node, kind, label, choice in _choices(ctx):
        if isinstance(choice, str):
            continue
        _table, name, _cited = resolve_paytable(j, kind, choice)
        if name is None:
            names = j.paytable_names(kind)
            ctx.add(check, node, "error",
                    f"{dotted(node)} pays differently from every {label} {j.name} authorizes; use "
                    f"{', '.join(repr(n) for n in names) or 'an authorized table'} or write one out exactly",
                    _citation(ctx, kind))


def well_formed(ctx: Context, check: Check) -> None:
    """Where the operator writes its own tables: no negative pays, and a better hand never pays less."""
    if not _written_freely(ctx):
        return
    for node, _kind, _label, choice in _choices(ctx):
        if isinstance(choice, str):
            continue
        try:
            vector = payout_vector(odds_mapping(choice))
        except Exception as exc:  # a table the game layer refuses
            ctx.add(check, node, "error", f"{dotted(node)} is not a usable paytable: {exc}")
            continue
        for weaker in range(len(vector)):
            found = next((stronger for stronger in range(weaker + 1, len(vector))
                          if vector[stronger] < vector[weaker]), None)
            if found is not None:
                ctx.add(check, node, "error",
                        f"{dotted(node)} pays {_pay_words(vector[found])} for "
                        f"{PAY_CLASSES[found].replace('_', ' ')} but {_pay_words(vector[weaker])} for the weaker "
                        f"{PAY_CLASSES[weaker].replace('_', ' ')}; a better hand must never pay less than a worse "
                        "one")
                break


def _pay_words(value) -> str:
    if value < 0:
        return "a loss"
    if value == 0:
        return "a push"
    return f"{value} to 1"


CHECKS = (
    Check("named paytable is authorized", ("paytables",), ("rules", "paytables_written_freely"), "named-table", named),
    Check("written-out paytable equals an authorized one", ("paytables",), ("rules", "paytables_written_freely"),
          "table", written_out),
    Check("written-out paytable is well formed", ("paytables",), ("rules", "paytables_written_freely"),
          "table-order", well_formed),
)
