"""The words of `rulegen diff`: the rules document's sections, each field's label, and how a value reads
("$50", "3 to 2", "by hand from a dealing shoe")."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from rulegen import vocabulary
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
WORDS = {  # the operator's choices in the words every document uses (rulegen.vocabulary), never a second wording
    "table.payout_odds_display": vocabulary.DISPLAY_WORDS,
    "table.payout_limit_display": vocabulary.DISPLAY_WORDS,
    "cards.shuffling": vocabulary.SHUFFLING_WORDS,
    "cards.dealing": vocabulary.DEALING_WORDS,
    "bonus_spin.trigger": vocabulary.TRIGGER_WORDS,
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
