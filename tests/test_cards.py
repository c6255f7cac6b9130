import pytest

from rulegen.cards import Card, check_distinct, format_cards, full_deck, parse_card, parse_cards
from rulegen.errors import CardError


@pytest.mark.parametrize("text, rank, suit", [("As", 12, 3), ("Td", 8, 1), ("10h", 8, 2), ("2c", 0, 0),
                                               ("kS", 11, 3), ("qd", 10, 1)])
def test_parse_card(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


def test_print_round_trip_over_the_deck():
    deck = full_deck()
    assert len({str(c) for c in deck}) == 52
    for card in deck:
        assert parse_card(str(card)) == card
    assert str(parse_card("10h")) == "Th"


@pytest.mark.parametrize("bad", ["1s", "Ax", "11h", "", "AsK", "A", "T", 5, None])
def test_bad_card_names_the_input(bad):
    with pytest.raises(CardError) as error:
        parse_card(bad)
    assert repr(bad.strip() if isinstance(bad, str) else bad) in error.value.message or "card" in error.value.message


def test_duplicate_card_is_an_error():
    with pytest.raises(CardError, match="As is given twice"):
        parse_cards("As Ks As")
    with pytest.raises(CardError, match="Qd"):
        check_distinct(parse_cards("Qd Jd"), parse_cards("Qd"))


def test_count_checked():
    with pytest.raises(CardError, match="must be 2 cards"):
        parse_cards("As Ks Qs", count=2, what="the hole cards")
    assert format_cards(parse_cards("As,10d  2c")) == "As Td 2c"


def test_card_index_range():
    with pytest.raises(CardError):
        Card(52)
