"""Every way a document prints a value: money from Decimal, odds as "N to 1", percentages, dates."""

from __future__ import annotations

from decimal import Decimal

from rulegen.render import filters


def test_money_is_exact():
    assert filters.money(Decimal("5")) == "$5"
    assert filters.money(Decimal("5.50")) == "$5.50"
    assert filters.money(Decimal("50000")) == "$50,000"
    assert filters.money(Decimal("19.99")) == "$19.99"
    assert filters.money(7575) == "$7,575"
    assert filters.signed_money(Decimal("-10")) == "−$10"
    assert filters.signed_money(Decimal("175")) == "+$175"


def test_odds_are_n_to_1():
    assert filters.odds(500) == "500 to 1"
    assert filters.odds(Decimal("1")) == "1 to 1"
    assert filters.odds("push") == "Push"
    assert filters.odds(1000) == "1,000 to 1"
    assert "for 1" not in filters.odds(8)


def test_percent_probability_and_counts():
    assert filters.percent(0.034525) == "3.4525%"
    assert filters.percent(Decimal("0.5"), 2) == "50.00%"
    assert filters.count(2598960) == "2,598,960"
    assert filters.probability(Decimal("0.25")) == "0.25000000"
    assert filters.long_date("2027-01-15") == "January 15, 2027"
    assert filters.hand_name("pair_sixes_through_tens") == "Pair of 6s through 10s"


def test_bar_chart_axis_labels_never_overlap():
    import re

    from rulegen.render import svg

    bars = [(str(n), 10.0 ** -(n % 9)) for n in range(-11, 151)]
    drawn = str(svg.bar_chart(bars, title="t", value_labels=[""] * len(bars), log_scale=True))
    xs = [float(x) for x in re.findall(r'<text x="([0-9.]+)" y="[0-9.]+" [^>]*rotate', drawn)]
    labels = re.findall(r'rotate\([^)]*\)" fill="#111">([^<]*)</text>', drawn)
    assert labels[0] == "-11" and labels[-1] == "150"  # both ends are labelled
    assert all(b - a >= 16 for a, b in zip(xs, xs[1:])), xs
    few = str(svg.bar_chart([("a", 1.0), ("b", 2.0)], title="t", value_labels=["1", "2"]))
    assert re.findall(r'fill="#111">([ab])</text>', few) == ["a", "b"]


def test_small_counts_in_words_and_bet_multiples():
    assert [filters.number_word(n) for n in (1, 3, 10)] == ["one", "three", "ten"]
    assert filters.number_word(12) == "12" and filters.number_word(1000) == "1,000"  # past ten, numerals
    assert filters.multiples({"minimum": 1, "maximum": 3}) == "one to three times"
    assert filters.multiples({"minimum": 2, "maximum": 2}) == "two times"


def test_a_pay_reads_one_way_everywhere():
    """A pay of 1.5 reads "3 to 2" in the rules (filters.odds), in worked examples and `settle` (game.odds_text)
    and in the appendix, whatever form the number comes in."""
    from decimal import Decimal
    from fractions import Fraction

    from rulegen.game import odds_text
    from rulegen.render.filters import odds, pays_words

    for value in (1.5, Decimal("1.5"), Fraction(3, 2), "3/2"):
        assert odds(value) == "3 to 2"
    assert pays_words(Decimal("1.5")) == "wins 3 to 2" == odds_text(Fraction(3, 2))
    assert odds(1000) == "1,000 to 1" and odds_text(Fraction(1000)) == "wins 1,000 to 1"


def test_a_bonus_pay_reads_in_the_appendix_as_everywhere_else():
    """The appendix prints a bonus table's pays from the math layer's outcomes through the odds filter: a pay of
    1.5 reads "3 to 2" and a pay of 1,000 "1,000 to 1" there too (it printed "3/2 to 1" and "1000 to 1")."""
    from rulegen.game import Paytable
    from rulegen.math import bonus
    from rulegen.render.filters import odds

    table = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": Decimal("1.5"), "flush": 2,
                                   "straight": "push"})
    printed = {row.hand_class: odds(row.pays) for row in bonus.five_card_bonus(table).outcomes}
    assert printed["royal_flush"] == "1,000 to 1" and printed["straight_flush"] == "3 to 2"
    assert printed["flush"] == "2 to 1" and printed["straight"] == "Push" and printed["two_pair"] == "Loses"


def test_the_choices_read_one_way_in_the_rules_and_in_a_diff():
    """Shuffling, dealing, displays and triggers: a diff of two revisions words a choice as the rules do."""
    from rulegen import vocabulary
    from rulegen.filing.diff.words import WORDS

    assert WORDS["cards.shuffling"] == vocabulary.SHUFFLING_WORDS
    assert WORDS["cards.dealing"] == vocabulary.DEALING_WORDS
    assert WORDS["table.payout_odds_display"] == WORDS["table.payout_limit_display"] == vocabulary.DISPLAY_WORDS
    assert WORDS["bonus_spin.trigger"] == vocabulary.TRIGGER_WORDS


def test_an_operators_phrase_inside_a_sentence_keeps_its_words_but_not_a_leading_capital_article():
    assert filters.mid_sentence("A motorcycle") == "a motorcycle"
    assert filters.mid_sentence("An Airstream trailer") == "an Airstream trailer"
    assert filters.mid_sentence("The Vespa GTS 300") == "the Vespa GTS 300"
    assert filters.mid_sentence("Harley-Davidson Street Glide") == "Harley-Davidson Street Glide"
    assert filters.mid_sentence("Apple watch") == "Apple watch"  # a first word that is not an article stays
    assert filters.mid_sentence(None) == ""
