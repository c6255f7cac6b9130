"""`rulegen diff`: every change between two revisions of an offering, in a regulator's words.

Each change says what moved ("Five Card Bonus maximum: $50 → $100"), which section of the rules document it
touches, and the rule that governs it (from the jurisdiction data, else from the jurisdiction's schema).
`changes_section` shapes the same changes for the "changes from revision N" section of the rules document.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulegen.jurisdiction import Jurisdiction
    from rulegen.offering import Offering

from rulegen import vocabulary
from rulegen.errors import InputError
from rulegen.money import dollars

# The rules document's sections, in document order, with the offering fields that print in each. The
# jurisdiction data's own `sections` (title, citation, order) take precedence where it names them.
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("submission", "Submission", ("offering", "schema_version")),
    ("equipment", "Table and layout", ("table",)),
    ("cards", "Cards, shuffling and dealing", ("cards",)),
    ("wagers", "Wagers and limits", ("limits",)),
    ("payouts", "Payouts", ("paytables",)),
    ("five_card_bonus", "Five Card Bonus", ("five_card_bonus",)),
    ("six_card_bonus", "Six Card Bonus", ("six_card_bonus",)),
    ("bonus_spin", "Bonus Spin", ("bonus_spin",)),
    ("payout_limit", "Payout limit", ("payout_limit",)),
    ("signoff", "Sign-off", ("signoff",)),
)
OPTIONAL_WAGERS = {key: vocabulary.WAGER_NAMES[key] for key in (*vocabulary.OPTIONAL_WAGERS, "payout_limit")}
PAYTABLES: dict[tuple[object, ...], str] = {("paytables", "criss_cross"): "Criss Cross paytable",
             ("paytables", "ante"): "Ante paytable",
             ("five_card_bonus", "paytable"): "Five Card Bonus paytable",
             ("six_card_bonus", "paytable"): "Six Card Bonus paytable"}
HANDS = vocabulary.HANDS
LABELS = {
    "schema_version": "Offering format version",
    "offering.id": "Offering identifier",
    "offering.jurisdiction": "Jurisdiction",
    "offering.operator.name": "Operator",
    "offering.operator.licence": "Licence",
    "offering.operator.logo": "Logo",
    "offering.version": "Submission revision",
    "offering.effective_date": "Effective date",
    "table.positions": "Betting positions",
    "table.payout_odds_display": "Payout odds shown",
    "table.payout_limit_display": "Payout limit shown",
    "cards.decks": "Decks",
    "cards.back_colours": "Card back colours",
    "cards.shuffling": "Shuffling",
    "cards.dealing": "Dealing",
    "cards.deck_change_hours": "Deck change interval",
    "limits.ante.minimum": "Ante minimum",
    "limits.ante.maximum": "Ante maximum",
    "limits.adjacent_boxes": "Adjacent boxes one player may wager on in a round",
    "five_card_bonus.minimum": "Five Card Bonus minimum",
    "five_card_bonus.maximum": "Five Card Bonus maximum",
    "bonus_spin.kind": "Bonus Spin kind",
    "bonus_spin.wager": "Bonus Spin wager",
    "bonus_spin.paytable": "Bonus Spin paytable",
    "bonus_spin.community_pay": "Bonus Spin community-pay table",
    "bonus_spin.trigger": "Bonus Spin trigger",
    "bonus_spin.top_prize.kind": "Bonus Spin top prize",
    "bonus_spin.top_prize.initial": "Bonus Spin top prize initial amount",
    "bonus_spin.top_prize.reset": "Bonus Spin top prize reset amount",
    "bonus_spin.top_prize.rate_of_progression_percent": "Bonus Spin rate of progression",
    "bonus_spin.hardware_approval": "Bonus Spin progressive system approval",
    "payout_limit.amount": "Payout limit (aggregate, per player per round)",
}
MONEY = {"limits.ante.minimum", "limits.ante.maximum", "five_card_bonus.minimum", "five_card_bonus.maximum",
         "bonus_spin.wager", "bonus_spin.top_prize.initial", "bonus_spin.top_prize.reset", "payout_limit.amount"}
WORDS = {
    "table.payout_odds_display": {"layout": "inscribed on the layout", "sign": "on a sign at each table"},
    "table.payout_limit_display": {"layout": "inscribed on the layout", "sign": "on a sign at each table"},
    "cards.shuffling": {"manual": "by hand", "automated": "automated shuffler",
                        "automated-counting": "automated shuffler that counts the cards after each shuffle"},
    "cards.dealing": {"manual-shoe": "by hand from a dealing shoe", "hand": "from the hand",
                      "automated-shoe": "from an automated dealing shoe"},
    "bonus_spin.trigger": {"pair_in_hole_cards": "a pair in the player's two cards",
                           "suited_hole_cards": "two suited cards", "pair_or_suited_hole_cards":
                           "a pair or two suited cards"},
}
SIGNOFF_ROLES = vocabulary.ROLE_TITLES

# An offering's data as loaded from YAML: a mapping of fields whose values are open (mappings, lists, text,
# numbers, dates); each reader below checks the shape it needs. A node is the path of keys to one field.
Data = Mapping[str, object]
Node = tuple[object, ...]


def _part(data: Data, key: str) -> Data:
    """The mapping at `key`, or an empty one where the field is absent or not a mapping."""
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


@dataclass(frozen=True)
class Change:
    field: str  # the dotted path of the offering field, e.g. "five_card_bonus.maximum"
    kind: str  # changed | added | removed
    old: object
    new: object
    text: str  # in a regulator's words: "Five Card Bonus maximum: $50 → $100"
    section: str  # the rules document's section it touches
    section_title: str
    citation: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# --- reading either kind of input --------------------------------------------------------------------------------

def offering_from_path(path: str | Path, display: str | None = None) -> Offering:
    """An offering from a file: an offering YAML, or a built filing's rules.pdf (its attached offering)."""
    from rulegen.offering import parse_offering

    from rulegen.safeio import UnsafeFile, read_regular

    file = Path(path)
    shown = display or str(file)
    try:  # read once, a regular file of bounded size: a FIFO given as --previous answers at once
        data = read_regular(file, MAX_FILING_READ, follow_symlinks=True)
    except UnsafeFile as exc:
        raise InputError(f"{shown}: {exc.reason}") from None
    if b"%PDF-" not in data[:1024]:
        return parse_offering(data, shown, file)
    source, name = _offering_in_filing(data, shown)
    return parse_offering(source, f"{shown}:{name}")


MAX_FILING_READ = 256 * 1024 * 1024  # a filing's rules.pdf is far smaller; an offering file is at most 1 MiB


def _offering_in_filing(data: bytes, display: str) -> tuple[bytes, str]:
    from rulegen.filing.manifest import MANIFEST_NAME, sha256
    from rulegen.filing.pdf import embedded_files, open_reader

    try:
        files = {f.name: f.data for f in embedded_files(open_reader(data))}
    except Exception as exc:
        raise InputError(f"{display}: the filing's attachments cannot be read ({type(exc).__name__})") from None
    try:
        manifest = json.loads(files[MANIFEST_NAME])
        entry = manifest["offering"]
        source = files[entry["file"]]
    except Exception:
        raise InputError(f"{display} carries no offering with a manifest; is it a rulegen filing?") from None
    if sha256(source) != entry.get("sha256"):
        raise InputError(f"{display}: the attached offering does not match its manifest; run rulegen verify")
    return source, entry["file"]


def _data(offering: Offering | Data) -> Data:
    data = offering.data if hasattr(offering, "data") else offering
    if not isinstance(data, dict):
        raise InputError("an offering is a YAML mapping of fields")
    return data


# --- the diff ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Context:
    jurisdiction: Jurisdiction | None  # the newer revision's (the older one's if the newer names none)
    old: Data
    new: Data


def diff_offerings(old: Offering | Data, new: Offering | Data) -> list[Change]:
    """Every change from `old` to `new` (Offering objects or their data), in rules-document order."""
    old_data, new_data = _data(old), _data(new)
    ctx = _Context(_jurisdiction(new_data) or _jurisdiction(old_data), old_data, new_data)
    changes: list[Change] = []
    for key in _ordered_keys(old_data, new_data):
        before, after = old_data.get(key), new_data.get(key)
        if before == after:
            continue
        if key in OPTIONAL_WAGERS and (before is None or after is None):
            changes.append(_whole_wager(key, before, after, ctx))
            continue
        changes.extend(_walk((key,), before, after, ctx))
    order = {key: index for index, key in enumerate(_section_order(ctx.jurisdiction))}
    changes.sort(key=lambda c: order.get(c.section, len(order)))  # stable: field order kept inside a section
    return changes


def _ordered_keys(old: Data, new: Data) -> list[str]:
    keys = list(new) + [k for k in old if k not in new]
    rank = {prefix: i for i, (_, _, prefixes) in enumerate(SECTIONS) for prefix in prefixes}
    return sorted(keys, key=lambda k: rank.get(k, len(rank)))


def _walk(node: Node, before: object, after: object, ctx: _Context) -> list[Change]:
    if node in PAYTABLES:
        return _paytable(node, before, after, ctx)
    if node == ("signoff",):
        return _signoffs(before, after, ctx)
    if node == ("bonus_spin", "wheel"):
        return _wheel(before, after, ctx)
    if isinstance(before, dict) or isinstance(after, dict):
        before_map = before if isinstance(before, dict) else {}
        after_map = after if isinstance(after, dict) else {}
        if not isinstance(before, dict) and before is not None or not isinstance(after, dict) and after is not None:
            return [_change(node, before, after, ctx)]
        changes: list[Change] = []
        for key in list(after_map) + [k for k in before_map if k not in after_map]:
            if before_map.get(key) != after_map.get(key):
                changes.extend(_walk(node + (key,), before_map.get(key), after_map.get(key), ctx))
        return changes
    return [_change(node, before, after, ctx)]


def _change(node: Node, before: object, after: object, ctx: _Context, *, label: str | None = None,
            text: str | None = None) -> Change:
    path = _dotted(node)
    label = label or _label(node)
    if text is None:
        if before is None:
            text = f"{label}: {_value(node, after)} (new)"
        elif after is None:
            text = f"{label}: {_value(node, before)} → removed"
        else:
            text = f"{label}: {_value(node, before)} → {_value(node, after)}"
    kind = "added" if before is None else "removed" if after is None else "changed"
    section, title, citation = _place(node, ctx.jurisdiction, ctx.new if after is not None else ctx.old)
    return Change(path, kind, _plain(before), _plain(after), text, section, title, citation)


def _whole_wager(key: str, before: object, after: object, ctx: _Context) -> Change:
    name = OPTIONAL_WAGERS[key]
    present = after if after is not None else before
    summary = _summary((key,), present)
    if after is not None:
        text = f"{name}: now offered" + (f" ({summary})" if summary else "")
    else:
        text = f"{name}: no longer offered" + (f" (was {summary})" if summary else "")
    return _change((key,), before, after, ctx, label=name, text=text)


def _summary(node: Node, value: object) -> str:
    if not isinstance(value, dict):
        return _value(node, value)
    parts = []
    for key, item in value.items():
        child = node + (key,)
        if isinstance(item, (dict, list)) and child not in PAYTABLES:
            continue
        label = _label(child).removeprefix(_label(node)).strip() or key
        if child in PAYTABLES:
            shown = str(item) if not isinstance(item, dict) else "written out"
            parts.append(f"paytable {shown}")
        else:
            parts.append(f"{label[:1].lower() + label[1:]} {_value(child, item)}")
    return ", ".join(parts)


def _paytable(node: Node, before: object, after: object, ctx: _Context) -> list[Change]:
    label = PAYTABLES[node]
    kind = str(node[0] if node[0] != "paytables" else node[1])
    if before is None or after is None:
        return [_change(node, before, after, ctx, label=label,
                        text=f"{label}: {_table_words(before)} → {_table_words(after)}")]
    if isinstance(before, str) and isinstance(after, str):
        detail = _pay_changes(_resolve(ctx, kind, before), _resolve(ctx, kind, after))
        text = f"{label}: {before} → {after}" + (f" ({'; '.join(detail)})" if detail else "")
        return [_change(node, before, after, ctx, label=label, text=text)]
    old_pays, new_pays = _resolve(ctx, kind, before), _resolve(ctx, kind, after)
    if old_pays is None or new_pays is None:
        return [_change(node, before, after, ctx, label=label,
                        text=f"{label}: {_table_words(before)} → {_table_words(after)}")]
    changes: list[Change] = []
    for hand in _hands(old_pays, new_pays):
        if old_pays.get(hand) != new_pays.get(hand):
            changes.append(_change(node + (hand,), old_pays.get(hand), new_pays.get(hand), ctx,
                                   text=f"{label}, {_hand(hand)}: {_pays(old_pays.get(hand))} → "
                                        f"{_pays(new_pays.get(hand))}"))
    if not changes:  # a named table written out, or the reverse: the same pays, said differently
        changes.append(_change(node, before, after, ctx, label=label,
                               text=f"{label}: {_table_words(before)} → {_table_words(after)}, paying the same"))
    return changes


def _resolve(ctx: _Context, kind: str, choice: object) -> dict[str, object] | None:
    """A paytable as {hand: pays}: the mapping as written, or the named table from the jurisdiction data."""
    if isinstance(choice, dict):
        return {str(k): v for k, v in choice.items()}
    if ctx.jurisdiction is None:
        return None
    try:
        cited = ctx.jurisdiction.paytable(kind, str(choice))
    except Exception:
        return None
    if cited is None or not isinstance(cited.value, dict):
        return None
    return {str(k): v for k, v in cited.value.items()}


def _pay_changes(old: Mapping[str, object] | None, new: Mapping[str, object] | None) -> list[str]:
    if old is None or new is None:
        return []
    return [f"{_hand(hand)} {_pays(old.get(hand))} → {_pays(new.get(hand))}"
            for hand in _hands(old, new) if old.get(hand) != new.get(hand)]


def _hands(old: Mapping[str, object], new: Mapping[str, object]) -> list[str]:
    known = [h for h in HANDS if h in old or h in new]
    return known + [h for h in list(new) + list(old) if h not in HANDS and h not in known]


def _table_words(choice: object) -> str:
    if choice is None:
        return "none"
    if isinstance(choice, dict):
        return "written out (" + ", ".join(f"{_hand(h)} {_pays(v)}" for h, v in choice.items()) + ")"
    return f"table {choice}" if len(str(choice)) <= 2 else str(choice)


def _signoffs(before: object, after: object, ctx: _Context) -> list[Change]:
    def by_role(entries: object) -> dict[str, dict[str, Any]]:
        listed = entries if isinstance(entries, list) else []  # the schema's list of sign-offs; else none to read
        return {str(e.get("role")): e for e in listed if isinstance(e, dict)}

    old_roles, new_roles = by_role(before), by_role(after)
    changes: list[Change] = []
    for role in list(new_roles) + [r for r in old_roles if r not in new_roles]:
        old_entry, new_entry = old_roles.get(role), new_roles.get(role)
        if old_entry == new_entry:
            continue
        label = SIGNOFF_ROLES.get(role, f"Sign-off ({role})")
        changes.append(_change(("signoff", role), old_entry, new_entry, ctx, label=label,
                               text=f"{label}: {_person(old_entry)} → {_person(new_entry)}"))
    return changes


def _person(entry: Mapping[str, object] | None) -> str:
    if not entry:
        return "none"
    parts = [str(entry.get("name") or "")]
    if entry.get("title"):
        parts.append(str(entry["title"]))
    text = ", ".join(p for p in parts if p)
    return text + (f" ({_plain(entry.get('date'))})" if entry.get("date") else "")


def _wheel(before: object, after: object, ctx: _Context) -> list[Change]:
    def by_symbol(entries: object) -> dict[str, dict[str, Any]]:
        listed = entries if isinstance(entries, list) else []  # the schema's list of segments; else none to read
        return {str(e.get("symbol")): e for e in listed if isinstance(e, dict)}

    old_segments, new_segments = by_symbol(before), by_symbol(after)
    if not old_segments or not new_segments:
        text = ("Bonus Spin wheel weights: given from the manufacturer's par sheet" if new_segments
                else "Bonus Spin wheel weights: removed (no return figure)")
        return [_change(("bonus_spin", "wheel"), before, after, ctx, label="Bonus Spin wheel", text=text)]
    changes: list[Change] = []
    for symbol in list(new_segments) + [s for s in old_segments if s not in new_segments]:
        old_seg, new_seg = old_segments.get(symbol) or {}, new_segments.get(symbol) or {}
        for key in ("weight", "community"):
            if old_seg.get(key) != new_seg.get(key):
                what = "weight" if key == "weight" else "community pay"
                shown = "jackpot" if symbol == "jackpot" else _money(symbol)
                changes.append(_change(("bonus_spin", "wheel", symbol, key), old_seg.get(key), new_seg.get(key),
                                       ctx, text=f"Bonus Spin wheel, {shown} segment {what}: "
                                       f"{_segment(key, old_seg.get(key))} → {_segment(key, new_seg.get(key))}"))
    return changes


def _segment(key: str, value: object) -> str:
    if value is None:
        return "none"
    return _money(value) if key == "community" else str(value)


# --- words -------------------------------------------------------------------------------------------------------

def _dotted(node: Node) -> str:
    return ".".join(str(part) for part in node)


def _label(node: Node) -> str:
    path = _dotted(node)
    if path in LABELS:
        return LABELS[path]
    words = []
    for part in node:
        text = str(part).replace("_", " ")
        words.append(OPTIONAL_WAGERS.get(str(part), text))
    label = " ".join(words)
    return label[:1].upper() + label[1:]


def _value(node: Node, value: object) -> str:
    path = _dotted(node)
    if value is None:
        return "none"
    if path in MONEY:
        return _money(value)
    if path in WORDS and isinstance(value, str):
        return WORDS[path].get(value, value)
    if path == "cards.deck_change_hours":
        return f"{value} hours" if value != 1 else "1 hour"
    if path.endswith("rate_of_progression_percent"):
        return f"{_plain(value)}%"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_value(node, item) for item in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')} {_value(node + (k,), v)}" for k, v in value.items())
    return str(_plain(value))


def _money(value: object) -> str:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    if not amount.is_finite():
        return str(value)
    return dollars(amount)


def _hand(hand: str) -> str:
    return vocabulary.hand_name(hand).lower()


def _pays(value: object) -> str:
    if value is None:
        return "loses"
    if isinstance(value, str):
        return value
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    shown = f"{int(amount):,}" if amount == amount.to_integral_value() else str(amount)
    return f"{shown} to 1"


def _plain(value: object) -> object:
    import datetime as _dt

    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.is_finite() else str(value)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --- sections and citations ---------------------------------------------------------------------------------------
# The rules document follows the jurisdiction's sections (`sections` in its data: id, title, citation). A change
# belongs to the section whose citation its own citation falls under; its own citation comes from the cited value
# that governs the field. Where the data cites nothing for a field, the section is found by what it is about.

CITED_BY: dict[str, tuple[tuple[str, ...], ...]] = {
    "table.positions": (("rules", "positions"),),
    "table.payout_odds_display": (("rules", "payout_odds_display"),),
    "table.payout_limit_display": (("rules", "payout_limit_display"),),
    "cards.decks": (("rules", "{decks_rule}"),),
    "cards.back_colours": (("rules", "{decks_rule}"),),
    "cards.shuffling": (("rules", "two_decks"),),
    "cards.dealing": (("rules", "dealing_procedures", "{dealing}"), ("rules", "dealing_procedures")),
    "cards.deck_change_hours": (("rules", "deck_change_hours"),),
    "limits.ante": (("rules", "equal_antes"),),
    "limits.adjacent_boxes": (("rules", "adjacent_boxes_required"), ("rules", "adjacent_boxes")),
    "paytables.criss_cross": (("paytables", "criss_cross", "{criss_cross_table}"),),
    "paytables.ante": (("paytables", "ante", "{ante_table}"),),
    "five_card_bonus.paytable": (("paytables", "five_card_bonus", "{five_card_bonus_table}"),
                                 ("wagers", "five_card_bonus")),
    "five_card_bonus": (("wagers", "five_card_bonus"),),
    "six_card_bonus.paytable": (("paytables", "six_card_bonus", "{six_card_bonus_table}"),
                                ("wagers", "six_card_bonus")),
    "six_card_bonus": (("wagers", "six_card_bonus"),),
    "bonus_spin.paytable": (("bonus_spin", "{kind}", "paytables", "{spin_table}"),),
    "bonus_spin.wheel": (("bonus_spin", "{kind}", "paytables", "{spin_table}"),),
    "bonus_spin.community_pay": (("bonus_spin", "{kind}", "community_pays"),),
    "bonus_spin.wager": (("bonus_spin", "{kind}", "wagers"),),
    "bonus_spin.trigger": (("bonus_spin", "{kind}", "triggers"),),
    "bonus_spin.top_prize.initial": (("bonus_spin", "{kind}", "minimum_initial", "{spin_table}"),
                                     ("bonus_spin", "{kind}", "minimum_initial")),
    "bonus_spin.top_prize.reset": (("bonus_spin", "{kind}", "minimum_reset", "{spin_table}"),
                                   ("bonus_spin", "{kind}", "minimum_reset")),
    "bonus_spin.top_prize.rate_of_progression_percent": (("bonus_spin", "{kind}", "rate_of_progression_required"),),
    "bonus_spin.hardware_approval": (("rules", "bonus_spin_hardware"),),
    "bonus_spin": (("wagers", "bonus_spin"),),
    "payout_limit": (("payout_limit", "rule"),),
}
# Where nothing is cited: the section whose title speaks of the field's subject (first match wins).
TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "table": ("table", "physical"),
    "cards.shuffling": ("shuffl",),
    "cards.dealing": ("dealing",),
    "cards": ("decks", "cards"),
    "limits": ("wager",),
    "paytables": ("payout", "pay"),
    "five_card_bonus": ("wager",),
    "six_card_bonus": ("six card", "wager"),
    "bonus_spin": ("bonus spin", "wager"),
    "payout_limit": ("payout",),
}
OWN_SECTIONS = {"offering": ("submission", "Submission"), "schema_version": ("submission", "Submission"),
                "signoff": ("signoff", "Sign-off")}


def _jurisdiction(data: Data) -> Jurisdiction | None:
    from rulegen.jurisdiction import codes, load_jurisdiction

    code = _part(data, "offering").get("jurisdiction")
    if not isinstance(code, str) or code not in codes():
        return None
    try:
        return load_jurisdiction(code)
    except Exception:  # a diff still reads without the data; it only loses citations
        return None


def _data_sections(jurisdiction: Jurisdiction | None) -> list[dict[str, Any]]:
    if jurisdiction is None:
        return []
    sections = jurisdiction.data.get("sections") or []
    if isinstance(sections, dict):
        sections = [{"id": key, **(value if isinstance(value, dict) else {"title": value})}
                    for key, value in sections.items()]
    return [s for s in sections if isinstance(s, dict) and (s.get("id") or s.get("key"))]


def _section_order(jurisdiction: Jurisdiction | None) -> list[str]:
    return ["submission"] + [str(s.get("id") or s.get("key")) for s in _data_sections(jurisdiction)] + [
        key for key, _, _ in SECTIONS if key != "submission"] + ["signoff"]


def _fill(template: str, data: Data) -> str | None:
    if not template.startswith("{"):
        return template
    name = template[1:-1]
    cards, tables, spin = _part(data, "cards"), _part(data, "paytables"), _part(data, "bonus_spin")
    values = {
        "decks_rule": "two_decks" if cards.get("decks") == 2 else "one_deck_cover_card",
        "dealing": cards.get("dealing"),
        "criss_cross_table": tables.get("criss_cross"),
        "ante_table": tables.get("ante"),
        "five_card_bonus_table": _part(data, "five_card_bonus").get("paytable"),
        "six_card_bonus_table": _part(data, "six_card_bonus").get("paytable"),
        "kind": spin.get("kind"),
        "spin_table": spin.get("paytable"),
    }
    value = values.get(name)
    return None if value is None or isinstance(value, (dict, list)) else str(value)


def _field_citation(node: Node, jurisdiction: Jurisdiction | None, data: Data) -> str | None:
    """The rule that governs this field: a cited value in the jurisdiction data, else its schema's x-citation."""
    if jurisdiction is None:
        return None
    path = tuple(str(p) for p in node)
    for length in range(len(path), 0, -1):
        for keys in CITED_BY.get(".".join(path[:length]), ()):
            filled = [_fill(k, data) for k in keys]
            known = [k for k in filled if k is not None]
            if len(known) != len(filled):
                continue
            citation = _cited_at(jurisdiction, known)
            if citation:
                return citation
        table = _written_out_table(path[:length], jurisdiction, data)
        if table:
            return table
    citations = _schema_citations(jurisdiction.code)
    for length in range(len(path), 0, -1):
        if path[:length] in citations:
            return citations[path[:length]]
    return None


def _cited_at(jurisdiction: Jurisdiction, keys: list[str]) -> str | None:
    """The citation at `keys` in the data; a key missing from a cited value is looked up inside its value, where
    a text is itself a citation (`dealing_procedures: {value: {hand: "N.J.A.C. 13:69F-40.8"}, ...}`)."""
    node: Any = jurisdiction.data
    for key in keys:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, dict) and isinstance(node.get("value"), dict) and key in node["value"]:
            node = node["value"][key]
        else:
            return None
    if isinstance(node, str):
        return node if any(ch.isdigit() for ch in node) else None
    if isinstance(node, dict) and node.get("citation"):
        return str(node["citation"])
    return None


def _written_out_table(path: tuple[str, ...], jurisdiction: Jurisdiction, data: Data) -> str | None:
    """A paytable written out in full is cited as the authorized table it matches."""
    key = tuple(path)
    if key not in PAYTABLES:
        return None
    choice = _part(data, key[0]).get(key[1])
    if not isinstance(choice, dict):
        return None
    try:
        from rulegen.resolved import resolve_paytable

        kind = key[0] if key[0] != "paytables" else key[1]
        _table, _name, citation = resolve_paytable(jurisdiction, kind, choice)
    except Exception:
        return None
    return citation


def _under(citation: str, section_citation: str) -> bool:
    """True when `citation` falls under `section_citation`: a prefix that ends where a part ends
    ("40.1" covers "40.1(a)" but not "40.11"; "Chapter 1" covers "Chapter 1 §A" but not "Chapter 12")."""
    if not section_citation or not citation.startswith(section_citation):
        return False
    rest = citation[len(section_citation):]
    return not rest or not (rest[0].isalnum() or rest[0] in ".-:")


def _place(node: Node, jurisdiction: Jurisdiction | None, data: Data | None = None) -> tuple[str, str, str | None]:
    """(section id, section title, citation) for an offering field."""
    data = data or {}
    head = str(node[0])
    citation = _field_citation(node, jurisdiction, data) if head not in OWN_SECTIONS else None
    if head in OWN_SECTIONS:
        key, title = OWN_SECTIONS[head]
        return key, title, None
    sections = _data_sections(jurisdiction)
    if citation:
        best = None
        for section in sections:
            section_citation = str(section.get("citation") or "")
            if _under(citation, section_citation) and (best is None or len(section_citation) > len(best[1])):
                best = (section, section_citation)
        if best is not None:
            section = best[0]
            return str(section.get("id") or section.get("key")), str(section.get("title") or ""), citation
    path = ".".join(str(p) for p in node)
    for prefix, words in sorted(TOPIC_WORDS.items(), key=lambda item: -len(item[0])):
        if path == prefix or path.startswith(prefix + "."):
            for word in words:
                for section in sections:
                    if word in str(section.get("title") or "").lower():
                        return (str(section.get("id") or section.get("key")), str(section.get("title")),
                                citation or section.get("citation"))
            break
    for key, title, prefixes in SECTIONS:
        if head in prefixes:
            return key, title, citation
    return "submission", "Submission", citation


def _schema_citations(code: str) -> dict[tuple[str, ...], str]:
    """Field path → the x-citation beside the first constraint on it in the jurisdiction's schema (shipped, or
    in a `RULEGEN_DATA_PATH` folder)."""
    from rulegen.resources import schema_files

    return _citations_in(schema_files().get(f"{code.lower()}.schema.json"))


@cache
def _citations_in(path: Path | None) -> dict[tuple[str, ...], str]:
    try:
        schema = json.loads(path.read_text(encoding="utf-8")) if path is not None else {}
    except (OSError, ValueError):
        return {}
    found: dict[tuple[str, ...], str] = {}

    def visit(node: object, path: tuple[str, ...], depth: int = 0) -> None:
        if depth > 40:
            return
        if isinstance(node, list):
            for item in node:
                visit(item, path, depth + 1)
            return
        if not isinstance(node, dict):
            return
        citation = node.get("x-citation")
        if isinstance(citation, str):
            for field in node.get("required") or []:
                found.setdefault(path + (str(field),), citation)
            if path and not node.get("required"):
                found.setdefault(path, citation)
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, child in value.items():
                    visit(child, path + (str(name),), depth + 1)
            elif key in ("allOf", "anyOf", "oneOf", "then", "else", "items"):
                visit(value, path, depth + 1)

    visit(schema, ())
    return found


# --- the section of the rules document ------------------------------------------------------------------------------

def changes_section(old: Offering, new: Offering) -> dict[str, Any]:
    """The "changes from revision N" section, as data for the template: heading, then groups of changes by
    the section of the rules document they touch, each with its citation."""
    old_data, new_data = _data(old), _data(new)
    old_revision = _part(old_data, "offering").get("version")
    new_revision = _part(new_data, "offering").get("version")
    changes = [c for c in diff_offerings(old_data, new_data) if c.section != "signoff"
               and c.field not in ("offering.version", "offering.effective_date")]
    groups: list[dict[str, Any]] = []
    for change in changes:
        if not groups or groups[-1]["section"] != change.section:
            groups.append({"section": change.section, "title": change.section_title, "changes": []})
        groups[-1]["changes"].append({"text": change.text, "field": change.field, "citation": change.citation,
                                      "kind": change.kind})
    title = (f"Changes from revision {old_revision}" if old_revision is not None
             else "Changes from the previous revision")
    effective = _part(new_data, "offering").get("effective_date")
    mathematics = math_diff(old, new)
    return {
        "math": mathematics["changes"],
        "math_note": mathematics["note"],
        "math_title": f"Mathematics, revision {old_revision} → this revision",
        "title": title,
        "from_revision": _plain(old_revision),
        "to_revision": _plain(new_revision),
        "effective_date": _plain(effective),
        "count": len(changes),
        "summary": (f"{len(changes)} change{'s' if len(changes) != 1 else ''} to the rules since revision "
                    f"{old_revision}" if changes else f"No change to the rules since revision {old_revision}"),
        "groups": groups,
    }


def changes_json(changes: list[Change], old_display: str, new_display: str,
                 mathematics: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The diff as JSON; with `mathematics` (math_diff's result), the figures that changed as "math"."""
    groups: list[dict[str, Any]] = []
    for change in changes:
        if not groups or groups[-1]["section"] != change.section:
            groups.append({"section": change.section, "title": change.section_title, "changes": []})
        groups[-1]["changes"].append(change.to_json())
    payload: dict[str, Any] = {"old": old_display, "new": new_display, "count": len(changes), "sections": groups}
    if mathematics is not None:
        payload["math"] = mathematics["changes"]
        payload["math_note"] = mathematics["note"]
    return payload


# --- the mathematics that changed ----------------------------------------------------------------------------------

# The figures a regulator compares between revisions, by their path in `rulegen math --json` (the spec's keys).
# A bonus's return is 1 − its house edge; a wager not offered is None ("not offered").
MATH_FIGURES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("house_edge", "House edge (per ante, optimal strategy)", ("main_game", "house_edge_per_ante"), "percent"),
    ("element_of_risk", "Element of risk", ("main_game", "element_of_risk"), "percent"),
    ("hit_frequency", "Hit frequency (rounds with a net win)", ("main_game", "hit_frequency"), "percent"),
    ("five_card_bonus_return", "Five Card Bonus return to the player", ("five_card_bonus", "house_edge"), "return"),
    ("six_card_bonus_return", "Six Card Bonus return to the player", ("six_card_bonus", "house_edge"), "return"),
    ("bonus_spin_return", "Bonus Spin return to the player", ("bonus_spin", "return_per_wager"), "percent"),
    ("max_win", "Maximum win per round at the minimum wagers", ("max_win_per_round_at_minimum",), "money"),
)
MATH_TOLERANCE = 1e-12  # figures closer than this are the same figure computed twice


@dataclass(frozen=True)
class MathChange:
    figure: str
    label: str
    old: float | None
    new: float | None
    old_text: str
    new_text: str
    text: str  # "House edge (per ante, optimal strategy): 3.4120% → 3.2855%"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def offering_math(offering: Offering) -> dict[str, Any]:
    """The offering's mathematics with the keys of `rulegen math --json` (computed, or read from the math cache)."""
    from rulegen.math.report import offering_report
    from rulegen.resolved import resolve

    report: dict[str, Any] = offering_report(resolve(offering)).to_json()
    return report


def _figure(report: dict[str, Any], path: tuple[str, ...], kind: str) -> float | None:
    value: Any = report
    for key in path:
        if not isinstance(value, dict) or value.get(key) is None:
            return None
        value = value[key]
    number = float(value)
    return 1.0 - number if kind == "return" else number


def _figure_text(value: float | None, kind: str, digits: int) -> str:
    if value is None:
        return "not offered"
    if kind == "money":
        return _money(int(value) if value == int(value) else value)
    return f"{100 * value:.{digits}f}%"


def math_changes(old_report: dict[str, Any], new_report: dict[str, Any]) -> list[MathChange]:
    """Each figure of MATH_FIGURES that differs between the two revisions' mathematics, old → new. Percentages
    print to 4 decimals, or as many more (up to 8) as it takes for the two to read differently."""
    changes: list[MathChange] = []
    for figure, label, path, kind in MATH_FIGURES:
        old, new = _figure(old_report, path, kind), _figure(new_report, path, kind)
        if old is None and new is None:
            continue
        if old is not None and new is not None and abs(old - new) <= MATH_TOLERANCE:
            continue
        digits = 4
        while digits < 8 and _figure_text(old, kind, digits) == _figure_text(new, kind, digits):
            digits += 1
        old_text, new_text = _figure_text(old, kind, digits), _figure_text(new, kind, digits)
        changes.append(MathChange(figure, label, old, new, old_text, new_text, f"{label}: {old_text} → {new_text}"))
    return changes


def math_diff(old: Offering, new: Offering) -> dict[str, Any]:
    """{"changes": [...], "note": None} for two offerings; when either's mathematics cannot be computed (it does
    not validate, say), no changes and a note that says why."""
    try:
        before, after = offering_math(old), offering_math(new)
    except Exception as exc:  # an offering that does not validate may break the analysis anywhere
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return {"changes": [], "note": f"the mathematics could not be computed for both revisions ({reason})"}
    changes = math_changes(before, after)
    return {"changes": [c.to_json() for c in changes],
            "note": None if changes else "no figure of the mathematics changed"}
