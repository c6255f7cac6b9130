"""Cards: one deck or two, their backs, the shuffler, dealing from the hand, the deck-change interval."""

from __future__ import annotations

from decimal import Decimal

from rulegen.validate.core import Check, Context, describe, number

AUTOMATED = ("automated", "automated-counting")


def back_colour_count(ctx: Context, check: Check) -> None:
    cards = ctx.get(("cards",))
    if not isinstance(cards, dict):
        return
    decks, colours = cards.get("decks"), cards.get("back_colours")
    if ctx.failed(("cards", "back_colours")) or ctx.failed(("cards", "decks")):
        return  # the schema has said what is wrong with them
    if isinstance(colours, list) and decks in (1, 2) and len(colours) != decks:
        rule = ctx.cited("rules", "one_deck_cover_card" if decks == 1 else "two_decks")
        ctx.add(check, ("cards", "back_colours"), "error",
                f"cards.back_colours lists {_count(len(colours), 'colour')} for {_count(decks, 'deck')}; give one "
                "colour per deck",
                rule.citation if rule else None)


def two_decks_shuffler(ctx: Context, check: Check) -> None:
    two = ctx.cited("rules", "two_decks")
    if two is None or ctx.get(("cards", "decks")) != 2:
        return
    allowed = (two.value or {}).get("requires_shuffling") or list(AUTOMATED)
    shuffling = ctx.get(("cards", "shuffling"))
    if shuffling not in allowed and not ctx.failed(("cards", "shuffling")):
        ctx.add(check, ("cards", "shuffling"), "error",
                f"cards.shuffling is {describe(shuffling)}; two decks are allowed only with an automated card "
                "shuffling device")


def two_decks_backs(ctx: Context, check: Check) -> None:
    two = ctx.cited("rules", "two_decks")
    colours = ctx.get(("cards", "back_colours"))
    if two is None or ctx.get(("cards", "decks")) != 2 or not (two.value or {}).get("back_colours_differ"):
        return
    if isinstance(colours, list) and len(colours) == 2 \
            and str(colours[0]).strip().lower() == str(colours[1]).strip().lower():
        ctx.add(check, ("cards", "back_colours", 1), "error",
                f"cards.back_colours[1] is {describe(colours[1])}, the colour of cards.back_colours[0]; the two decks' "
                "backs must be of different colours")


def hand_dealing_shuffler(ctx: Context, check: Check) -> None:
    rule = ctx.cited("rules", "hand_dealing_requires_automated_shuffler")
    shuffling = ctx.get(("cards", "shuffling"))
    if ctx.failed(("cards", "shuffling")):
        return  # missing or not a shuffling method: the schema says so
    if ctx.get(("cards", "dealing")) == "hand" and shuffling not in AUTOMATED and (rule is None or rule.value):
        ctx.add(check, ("cards", "shuffling"), "error",
                f"cards.shuffling is {describe(shuffling)}; cards dealt from the hand must be shuffled by an "
                "automated shuffling device")


def deck_change_interval(ctx: Context, check: Check) -> None:
    hours = number(ctx.get(("cards", "deck_change_hours")))
    dealing = ctx.get(("cards", "dealing"))
    rule = ctx.cited("rules", "deck_change_hours")
    if hours is None or rule is None or not isinstance(rule.value, dict) or dealing not in rule.value:
        return
    most = Decimal(str(rule.value[dealing]))
    if hours > most:
        how = "by hand" if dealing == "hand" else f"from {_article(dealing.replace('-', ' '))}"
        ctx.add(check, ("cards", "deck_change_hours"), "error",
                f"cards.deck_change_hours is {hours}; decks dealt {how} must be changed at least every {most} hours")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _article(words: str) -> str:
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


CHECKS = (
    Check("one back colour per deck", ("cards", "back_colours"), ("rules", "two_decks"), "back-colours",
          back_colour_count),
    Check("two decks need an automated shuffler", ("cards", "shuffling"), ("rules", "two_decks"),
          "two-decks-shuffler", two_decks_shuffler),
    Check("two decks' backs differ", ("cards", "back_colours"), ("rules", "two_decks"), "two-decks-backs",
          two_decks_backs),
    Check("dealing from the hand needs an automated shuffler", ("cards", "shuffling"),
          ("rules", "hand_dealing_requires_automated_shuffler"), "hand-dealing-shuffler", hand_dealing_shuffler),
    Check("deck-change interval", ("cards", "deck_change_hours"), ("rules", "deck_change_hours"), "deck-change",
          deck_change_interval),
)
