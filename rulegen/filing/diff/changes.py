"""Every change between two revisions of an offering, field by field, in a regulator's words, and the same changes
shaped for the "changes from revision N" section of the rules document."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from rulegen.filing.diff.mathematics import math_diff
from rulegen.filing.diff.places import _jurisdiction, _place, _section_order
from rulegen.filing.diff.reading import _data
from rulegen.filing.diff.words import (
    HANDS, OPTIONAL_WAGERS, PAYTABLES, SECTIONS, SIGNOFF_ROLES, Data, Node, _dotted, _hand, _label, _money, _part,
    _pays, _plain, _value,
)

if TYPE_CHECKING:
    from rulegen.jurisdiction import Jurisdiction
    from rulegen.offering import Offering


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
