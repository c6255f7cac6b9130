"""The typed math results: money in `math --json` is written exactly from Decimal, and the JSON keeps the
spec's keys."""

import json
from decimal import Decimal
from fractions import Fraction

import pytest

from rulegen.math.json_values import json_text, money_json
from rulegen.math.results import BonusOutcome, BonusResult


@pytest.mark.parametrize("amount, text", [
    (Decimal("16510.00"), "16510"), (Decimal(3624), "3624"), (Decimal("5.5"), "5.50"), (Decimal("5.50"), "5.50"),
    (Decimal("0.10"), "0.10"), (Decimal("8.325"), "8.325"), (Decimal("-2.5"), "-2.50"),
    (Decimal("12345678901234567.89"), "12345678901234567.89"),  # beyond a double's 15-17 digits: still exact
])
def test_money_is_an_exact_decimal_numeral(amount, text):
    assert json_text({"amount": money_json(amount)}, indent=None) == '{"amount": ' + text + "}"


def test_json_text_keeps_other_numbers_as_json_does():
    document = {"p": 0.1, "n": 2_598_960, "none": None, "list": [1.5e-9, True]}
    assert json_text(document) == json.dumps(document, indent=2)


def test_bonus_to_json_keys():
    table = BonusResult(cards=5, boards=10, ev=Fraction(-1, 10), standard_deviation=0.5, hit_frequency=0.3,
                        outcomes=(BonusOutcome("flush", 3, 0.3, "2 to 1", 0.6),
                                  BonusOutcome("nothing", 7, 0.7, "loses", -0.7)))
    data = table.to_json()
    assert list(data) == ["cards", "boards", "outcomes", "ev", "house_edge", "return", "hit_frequency",
                          "standard_deviation", "element_of_risk"]
    assert data["ev"] == "-1/10" and data["house_edge"] == 0.1 and data["return"] == 0.9
    assert data["outcomes"][0] == {"hand_class": "flush", "combinations": 3, "probability": 0.3, "pays": "2 to 1",
                                   "return": 0.6}


def test_max_win_round_trips_through_the_cache_payload():
    from rulegen.math.payload import from_payload, to_payload
    from rulegen.math.results import DealtCards, MaxWin, MaxWinDetail, WinningRound

    cards = DealtCards("Jc Qc", "Kc Ac", "8c 9c", "Tc")
    main = WinningRound(Decimal("16510.00"), cards, {"across": "royal flush", "down": "straight flush"},
                        {"ante_across": Decimal(5), "across": Decimal("7500.00")})
    win = MaxWin(Decimal("16510.00"), MaxWinDetail("reading", Decimal("5.50"), {"ante_across": Decimal("5.50")},
                                                   main, main, None, "summary"))
    payload = json.loads(json.dumps(to_payload(win)))
    back = from_payload(MaxWin, payload)
    assert back == win and back.detail == win.detail and str(back.amount) == "16510.00"
    assert list(back.detail.per_wager_win) == ["ante_across", "across"]  # the order the table prints
    payload["amount"] = 16510.0  # money through a binary float is not this format
    assert from_payload(MaxWin, payload) is None
