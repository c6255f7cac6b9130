"""Money printed one way everywhere: whole dollars without cents, other amounts with exactly two, half to even."""

from decimal import Decimal
from fractions import Fraction

import pytest

from rulegen.money import dollars, json_amount, signed_dollars, to_decimal


@pytest.mark.parametrize("value, text", [
    (Decimal("1000"), "$1,000"), (5, "$5"), (Decimal("5.5"), "$5.50"), (Decimal("5.50"), "$5.50"),
    (Decimal("1234567.891"), "$1,234,567.89"), (Decimal("0.125"), "$0.12"), (Decimal("0.135"), "$0.14"),
    (Fraction(1, 3), "$0.33"), (Decimal("-12.5"), "-$12.50"), (0, "$0"), (Decimal("50000.00"), "$50,000"),
])
def test_dollars(value, text):
    assert dollars(value) == text


def test_cents_forced_or_dropped():
    assert dollars(5, cents=True) == "$5.00"
    assert dollars(Decimal("2.5"), cents=False) == "$2"  # half to even
    assert dollars(Decimal("3.5"), cents=False) == "$4"


def test_signed():
    assert signed_dollars(Decimal("175")) == "+$175"
    assert signed_dollars(0) == "$0"
    assert signed_dollars(Decimal("-10")) == "\u2212$10"
    assert signed_dollars(Decimal("-10.5"), minus="-") == "-$10.50"


def test_json_amounts_are_never_floats():
    assert json_amount(Decimal("5")) == 5 and isinstance(json_amount(Decimal("5.00")), int)
    assert json_amount(Decimal("5.5")) == "5.50"
    assert json_amount(Fraction(1, 8)) == "0.125"  # exact, not rounded to a cent


def test_a_float_is_read_by_its_shortest_text_and_a_bool_is_refused():
    assert to_decimal(0.1) == Decimal("0.1")
    with pytest.raises(TypeError):
        to_decimal(True)


def test_settle_json_gives_money_as_exact_decimal_numerals_never_a_float():
    import json

    from typer.testing import CliRunner

    from rulegen.cli import app

    result = CliRunner().invoke(app, ["settle", "--hole", "Js Ts", "--across", "As Ks", "--down", "9s 8s",
                                      "--middle", "Qs", "--ante", "2.50", "--bets", "1,0", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout, parse_float=Decimal)
    assert data["net"] == Decimal("-7.50") and '"net": -7.50' in result.stdout  # three $2.50 wagers lost
    assert [w["amount"] for w in data["wagers"]] == [Decimal("2.50")] * 3
    assert '"amount": 2.50' in result.stdout
