"""The loader: positions, exact money, and one clear finding (never a traceback) for unusable input."""

from decimal import Decimal

import pytest

from rulegen.errors import ExitCode
from rulegen.offering import MAX_BYTES, OfferingLoadError, dotted, load_offering, parse_offering


def load(text: str | bytes):
    return parse_offering(text.encode() if isinstance(text, str) else text, "offering.yaml")


def refused(text, code=ExitCode.UNUSABLE):
    with pytest.raises(OfferingLoadError) as info:
        load(text)
    assert info.value.exit_code == code
    return info.value.findings


def test_positions_count_from_one_and_point_at_values_and_keys():
    offering = load("schema_version: 1\ntable:\n  positions: 7\n  seats: [a, b]\n")
    assert offering.positions[("table", "positions")] == (3, 14)
    assert offering.key_positions[("table", "positions")] == (3, 3)
    assert offering.positions[("table", "seats", 1)] == (4, 14)
    assert offering.locate(("table", "missing")) == offering.positions[("table",)]
    assert offering.finding(("table", "positions"), "error", "x").format() == "offering.yaml:3:14: error: x"


def test_money_is_decimal_from_the_source_text_and_dates_stay_text():
    data = load("a: 5.50\nb: 19.99\nc: 2027-01-15\nd: '2027-01-15'\ne: 5\nf: push\ng: 0x1f\nh: ~\ni: true\n").data
    assert data["a"] == Decimal("5.50") and str(data["a"]) == "5.50"
    assert data["b"] == Decimal("19.99")
    assert data["c"] == data["d"] == "2027-01-15"
    assert data["e"] == 5 and isinstance(data["e"], int)
    assert data["f"] == "push" and data["g"] == 31 and data["h"] is None and data["i"] is True


def test_every_duplicate_key_is_an_error_naming_both_lines():
    findings = refused("offering:\n  id: a\n  id: b\ntable: 1\ntable: 2\n", ExitCode.INVALID)
    assert [f.format() for f in findings] == [
        "offering.yaml:3:3: error: duplicate key 'id' in offering: it is also on line 2; a key may appear once "
        "(which value was meant cannot be known) [offering format]",
        "offering.yaml:5:1: error: duplicate key 'table' in the top level: it is also on line 4; a key may appear "
        "once (which value was meant cannot be known) [offering format]",
    ]


@pytest.mark.parametrize("text, where, words", [
    ("a: &x [1, 2]\nb: *x\n", "1:4", "anchors"),
    ("a: [1]\nb: *x\n", "2:4", "aliases"),
    ("", "1:1", "empty"),
    ("# only a comment\n", "1:1", "holds no data"),
    ("- a\n- b\n", "1:1", "top level is a list"),
    ("just text\n", "1:1", "top level is a single value"),
    ("a: [1, 2\n", "2:1", "YAML syntax error"),
    ("a: b: c\n", "1:5", "YAML syntax error"),
    ("x: 1\n---\ny: 2\n", "2:1", "more than one YAML document"),
    ("a: !!python/object:os.system x\n", "1:4", "!!python/object:os.system"),
    ("a: !custom x\n", "1:4", "tag"),
    ("? [a]\n: 1\n", "1:3", "mapping key must be plain text"),
    ("a: " + "x" * 1001 + "\n", "1:4", "1,001 characters"),
    ("a: " + "[" * 40 + "]" * 40 + "\n", "1:35", "nested more than 32"),
])
def test_unusable_input_is_one_finding_with_exit_2(text, where, words):
    findings = refused(text)
    assert len(findings) == 1
    line = findings[0].format()
    assert line.startswith(f"offering.yaml:{where}: error: "), line
    assert words in line


def test_not_utf8_names_the_place_of_the_bad_byte():
    findings = refused(b"a: 1\nbb: \xff\xfe\n")
    assert findings[0].format().startswith("offering.yaml:2:5: error: the file is not UTF-8 text (byte 0xff")


def test_utf16_and_utf8_byte_order_marks():
    assert "UTF-16" in refused("a: 1\n".encode("utf-16"))[0].message
    assert load(b"\xef\xbb\xbfa: 1\n").data == {"a": 1}


def test_size_limit():
    findings = refused(b"a: 1\n" + b"#" * MAX_BYTES)
    assert "1 MiB" in findings[0].message


def test_alias_bomb_is_refused_before_expansion():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(20))
    findings = refused(bomb)
    assert "anchors" in findings[0].message


def test_load_offering_reads_files_and_reports_missing_ones(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\n")
    assert load_offering(path).data == {"a": 1}
    assert load_offering(path).sha256 == __import__("hashlib").sha256(b"a: 1\n").hexdigest()
    with pytest.raises(OfferingLoadError) as info:
        load_offering(tmp_path / "missing.yaml")
    assert info.value.exit_code == ExitCode.UNUSABLE and "no such file" in info.value.findings[0].message
    with pytest.raises(OfferingLoadError):
        load_offering(tmp_path)


def test_dotted_paths():
    assert dotted(("cards", "back_colours", 1)) == "cards.back_colours[1]"
    assert dotted(()) == ""
