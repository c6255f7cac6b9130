"""Paytables: a named table must be one the jurisdiction authorizes; a written-out one must equal one, or,
where the jurisdiction lets the operator write its own (`rules.paytables_written_freely`), be well formed."""

from __future__ import annotations

import difflib

from rulegen.evaluator import PAY_CLASS_INDEX
from rulegen.game import _OR_BETTER as OR_BETTER
from rulegen.jurisdiction import FORMAT, Cited
from rulegen import wagers
from rulegen.resolved import SHIPPED_SIDE, odds_mapping, pay_classes, payout_vector, resolve_paytable
from rulegen.validate.core import ANY, Check, Context, describe, dotted


KIND_WORDS = {"criss_cross": "Criss Cross paytable", "ante": "ante paytable", "five_card_bonus": "Five Card Bonus paytable",
              "six_card_bonus": "Six Card Bonus paytable"}
HAND_WORDS = {"pair_jacks_or_better": "a pair of jacks or better", "pair_sixes_through_tens": "a pair of 6s through 10s",
              "pair_sixes_or_better": "a pair of 6s or better", "no_qualifying_hand": "less than a pair of 6s",
              "two_pair": "two pair", "royal_flush": "a royal flush", "straight_flush": "a straight flush",
              "four_of_a_kind": "four of a kind", "full_house": "a full house", "flush": "a flush",
              "straight": "a straight", "three_of_a_kind": "three of a kind"}
TABLES = ((("paytables", "criss_cross"), "criss_cross", "the Criss Cross paytable"),
          (("paytables", "ante"), "ante", "the ante paytable"),
          (("five_card_bonus", "paytable"), "five_card_bonus", "the Five Card Bonus paytable"),
          (("six_card_bonus", "paytable"), "six_card_bonus", "the Six Card Bonus paytable"))


def _tables():
    """The paytables an offering may choose: the main game's, the shipped side wagers', each added one's."""
    added = tuple(((kind.key, "paytable"), kind.key, f"the {kind.name} paytable") for kind in wagers.registered()
                  if kind.key not in SHIPPED_SIDE)
    return TABLES + added


def _words(kind: str) -> str:
    return KIND_WORDS.get(kind) or f"{wagers.kind(kind).name} paytable"


def _choices(ctx: Context):
    """(node, kind, label, choice) for each paytable the offering chooses and the schema accepted."""
    for node, kind, label in _tables():
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
        message = f"{dotted(node)} is {describe(choice)}, which is not a {_words(kind)} {j.name} authorizes"
        message += (f"; did you mean '{hint[0]}'?" if hint else
                    (f"; the named tables are {', '.join(names)}" if names else "; write the table out"))
        ctx.add(check, node, "error", message, _citation(ctx, kind))


def _best_match(ctx: Context, kind: str, given: tuple) -> tuple[str, Cited, tuple] | None:
    """(name, cited, vector) of the authorized table closest to `given` (fewest pay classes differing)."""
    best = None
    for name in ctx.j.paytable_names(kind):
        cited = ctx.j.paytable(kind, name)
        if cited is None:
            continue
        vector = payout_vector(odds_mapping(cited.value), kind)
        distance = sum(1 for a, b in zip(vector, given) if a != b)
        if best is None or distance < best[0]:
            best = (distance, name, cited, vector)
    return best[1:] if best else None


def _row_of(table: dict, pay_class: str) -> str | None:
    """The row of a written-out table that pays `pay_class`: its own row, or the `_or_better` row reaching it."""
    if pay_class in table:
        return pay_class
    if pay_class not in PAY_CLASS_INDEX:  # a side wager's own classes have no "or better" rows
        return None
    index = PAY_CLASS_INDEX[pay_class]
    reach = [(base, key) for key, base in OR_BETTER.items() if key in table and base <= index]
    return max(reach)[1] if reach else None


def table_words(ctx: Context, kind: str, name: str, cited) -> str:
    """How a message names an authorized table: "New Jersey's Table 1", "Maryland's standard table"."""
    owner = f"{ctx.j.name}'" if ctx.j.name.endswith("s") else f"{ctx.j.name}'s"  # "House rules'", "Maryland's"
    if "Table " in cited.citation:
        return f"{owner} Table {cited.citation.rsplit('Table ', 1)[1]}"
    return f"{owner} {name} {_words(kind)}"


def written_out(ctx: Context, check: Check) -> None:
    """A written-out table equals an authorized one: one error per differing row, at that row."""
    if _written_freely(ctx):
        return
    for node, kind, label, choice in _choices(ctx):
        if isinstance(choice, str):
            continue
        given = payout_vector(odds_mapping(choice), kind)
        classes = pay_classes(kind)
        index_of = {hand: i for i, hand in enumerate(classes)}
        _table, name, _cited = resolve_paytable(ctx.j, kind, choice)
        match = _best_match(ctx, kind, given) if name is None else None
        if match is None:
            continue
        name, cited, authorized = match
        words = table_words(ctx, kind, name, cited)
        authorized_rows = odds_mapping(cited.value)
        # a row of the authorized table the written one leaves out is reported as missing, by its own name; the
        # other rows are compared with it filled in, so that an "or better" row is not blamed for the gap
        # (only where the written rows are all the authorized table's: a row named otherwise is reported as such)
        extra = [row for row in choice if row not in authorized_rows]
        absent = [row for row in authorized_rows if row not in choice] if not extra else []
        for row in absent:
            row_node = node + (row,)
            base = row if row in index_of else classes[OR_BETTER[row]]
            ctx.add(check, row_node, "error",
                    f"{dotted(row_node)} is missing; {words} pays {_pay_words(authorized[index_of[base]])} "
                    f"for {_hand(row)}", cited.citation, key=True, at=node, rule="table-missing-row")
        if absent:
            given = payout_vector(odds_mapping({**choice, **{row: cited.value[row] for row in absent}}), kind)
        reported: set[str] = set(absent)
        missing: list[str] = []
        for index in reversed(range(len(classes))):  # strongest hand first, as a paytable reads
            if given[index] == authorized[index]:
                continue
            hand = classes[index]
            row = _row_of(choice, hand)
            if row is None:
                missing.append(hand)
                continue
            if row in reported:
                continue
            reported.add(row)
            row_node = node + (row,)
            if row in authorized_rows:
                base = row if row in index_of else classes[OR_BETTER[row]]
                ctx.add(check, row_node, "error",
                        f"{dotted(row_node)} is {_odds(choice[row])}; {words} pays "
                        f"{_pay_words(authorized[index_of[base]])}", cited.citation, key=True)
            else:
                ctx.add(check, row_node, "error",
                        f"{dotted(row_node)} is a row {words} does not have; it pays {_odds(choice[row])} for "
                        f"{_hand(hand)}, where {words} pays {_pay_words(authorized[index])} (its rows are "
                        f"{', '.join(authorized_rows)})", cited.citation, key=True, rule="table-extra-row")
        for hand in missing:
            row_node = node + (hand,)
            ctx.add(check, row_node, "error",
                    f"{dotted(row_node)} is missing; {words} pays "
                    f"{_pay_words(authorized[index_of[hand]])} for {_hand(hand)}", cited.citation,
                    key=True, at=node, rule="table-missing-row")


def well_formed(ctx: Context, check: Check) -> None:
    """Where the operator writes its own tables: a better hand never pays less than a worse one. The error is
    at the row of the better hand that pays less."""
    if not _written_freely(ctx):
        return
    for node, kind, _label, choice in _choices(ctx):
        if isinstance(choice, str):
            continue
        classes = pay_classes(kind)
        try:
            vector = payout_vector(odds_mapping(choice), kind)
        except Exception as exc:  # a table the game layer refuses
            ctx.add(check, node, "error", f"{dotted(node)} is not a usable paytable: {exc}")
            continue
        # each pair of hands out of order (the better one paying less); the rows to blame are the fewest that
        # cover every such pair: first the row in most of them (a raised or lowered row), on a tie the weaker
        inversions = {(w, b) for w in range(len(vector)) for b in range(w + 1, len(vector)) if vector[b] < vector[w]}
        while inversions:
            counts: dict[int, int] = {}
            for pair in inversions:
                for index in pair:
                    counts[index] = counts.get(index, 0) + 1
            culprit = max(counts, key=lambda i: (counts[i], -i))
            pairs = sorted(p for p in inversions if culprit in p)
            inversions -= set(pairs)
            hand = classes[culprit]
            row = _row_of(choice, hand)
            row_node = node + (row,) if row else node + (hand,)
            ups = [b for w, b in pairs if w == culprit]  # better hands that pay less than this one
            downs = [w for w, b in pairs if b == culprit]  # weaker hands that pay more than this one
            parts = []
            for others, more, side in ((ups, "more", "better"), (downs, "less", "weaker")):
                if others:
                    shown = _join([f"{_hand(classes[o])} ({_short_pay(vector[o])})" for o in others])
                    parts.append(f"{more} than {shown}, {'a ' + side + ' hand' if len(others) == 1 else side + ' hands'}")
            ctx.add(check, row_node, "error",
                    f"{dotted(row_node)} pays {_pay_words(vector[culprit])} for {_hand(hand)}, {' and '.join(parts)}; "
                    "a better hand never pays less than a worse one", key=True, at=None if row else node)


def _short_pay(value) -> str:
    return "it loses" if value < 0 else "a push" if value == 0 else f"{value} to 1"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _pays(value) -> str:
    if value < 0:
        return "loses"
    if value == 0:
        return "is a push"
    return f"pays {value} to 1"


def _odds(value) -> str:
    if isinstance(value, str):
        return value
    return f"{_plain(value)} to 1"


def _plain(value) -> str:
    text = str(value)
    return text.rstrip("0").rstrip(".") if "." in text else text


def _for(row: str, hand: str) -> str:
    return "" if row == hand else f" for {_hand(hand)}"


def _hand(hand: str) -> str:
    return HAND_WORDS.get(hand, hand.replace("_", " "))


def _pay_words(value) -> str:
    if value < 0:
        return "nothing (the hand loses)"
    if value == 0:
        return "a push"
    return f"{value} to 1"


CHECKS = (
    Check("named paytable is authorized", ("paytables",), ("rules", "paytables_written_freely"), "named-table", named),
    Check("written-out paytable equals an authorized one, row by row", ("paytables", ANY, ANY),
          ("rules", "paytables_written_freely"), "table-row", written_out, also=("table-extra-row", "table-missing-row")),
    Check("written-out paytable is well formed, row by row", ("paytables", ANY, ANY),
          ("rules", "paytables_written_freely"), "table-order", well_formed),
)
