"""A side wager added by a data folder alone: the invented Hole Card Bonus of tests/data/hole-card-bonus/ (its
data file, its module, its templates), loaded through RULEGEN_DATA_PATH, validates, is computed exactly, is
settled, and is printed in the rules and on the sign of a real build."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from rulegen import assemble as pipeline
from rulegen import wagers
from rulegen.game import settle_round
from rulegen.math.bonus import side_counts, side_wager_table
from rulegen.offering import load_offering
from rulegen.resolved import resolve
from rulegen.resources import samples_dir
from rulegen.validate import validate_offering

DATA = Path(__file__).parent / "data" / "hole-card-bonus"
WAGER = "hole_card_bonus:\n  minimum: 1\n  maximum: 10\n  paytable: standard\n"


@pytest.fixture
def added(monkeypatch, tmp_path) -> Path:
    """The data folder in RULEGEN_DATA_PATH, its module on the Python path, and the house sample offering the
    Hole Card Bonus (its file written beside a copy of the sample's logo)."""
    monkeypatch.setenv("RULEGEN_DATA_PATH", str(DATA))
    monkeypatch.syspath_prepend(str(DATA))
    sample = samples_dir() / "house-six-card-bonus.yaml"
    for path in samples_dir().iterdir():
        if path.is_file() and path.suffix != ".yaml":
            (tmp_path / path.name).write_bytes(path.read_bytes())
    offering = tmp_path / "house-hole-card-bonus.yaml"
    offering.write_text(sample.read_text(encoding="utf-8") + "\n" + WAGER, encoding="utf-8")
    return offering


def by_hand_counts() -> dict[str, int]:
    """The 1,326 pairs of cards counted by hand: 13 ranks x C(4,2) pairs; 4 suits x C(13,2) suited pairs, of which
    one per suit is the ace and king; the rest neither."""
    pairs = 13 * math.comb(4, 2)
    suited = 4 * math.comb(13, 2)
    return {"other": math.comb(52, 2) - pairs - suited, "suited": suited - 4, "pair": pairs, "suited_ace_king": 4}


def test_the_added_wager_is_registered_only_with_its_data_folder(monkeypatch, added):
    assert wagers.keys()[-1] == "hole_card_bonus"
    monkeypatch.delenv("RULEGEN_DATA_PATH")
    assert "hole_card_bonus" not in wagers.keys()


def test_it_validates_and_a_wrong_row_is_an_error(added):
    findings = validate_offering(load_offering(added))
    assert [f for f in findings if f.level == "error"] == []
    wrong = _with_table(added, "{suited_ace_king: 25, pair: 6, suited: 1}")
    errors = [f for f in validate_offering(load_offering(wrong)) if f.level == "error"]
    assert [f.message for f in errors] == [
        "hole_card_bonus.paytable.pair is 6 to 1; House rules' standard Hole Card Bonus paytable pays 5 to 1"]
    unknown = [f.message for f in validate_offering(load_offering(_with_table(added, "{flush: 3}")))
               if f.level == "error"]
    assert len(unknown) == 1 and unknown[0].startswith("hole_card_bonus.paytable"), unknown


def _with_table(offering: Path, table: str) -> Path:
    """The offering with the Hole Card Bonus table written out as `table` (the last `paytable:` of the file)."""
    head, _, _ = offering.read_text(encoding="utf-8").rpartition("paytable: standard\n")
    changed = offering.with_name("changed.yaml")
    changed.write_text(f"{head}paytable: {table}\n", encoding="utf-8")
    return changed


def test_its_exact_return_is_the_count_by_hand(added):
    kind = wagers.kind("hole_card_bonus")
    expected = by_hand_counts()
    assert dict(zip(kind.pay_classes, side_counts(kind), strict=True)) == expected == \
        {"other": 936, "suited": 308, "pair": 78, "suited_ace_king": 4}
    table = resolve(load_offering(added)).game_rules.side_wager("hole_card_bonus")
    result = side_wager_table(table, kind)
    # 25 to 1 on 4 pairs, 5 to 1 on 78, 1 to 1 on 308, the 936 others lose: (100 + 390 + 308 - 936) / 1,326
    assert result.ev == Fraction(25 * 4 + 5 * 78 + 1 * 308 - 936, 1326) == Fraction(-23, 221)
    assert result.boards == 1326
    assert [(row.hand_class, row.combinations, row.pays) for row in result.outcomes] == [
        ("suited_ace_king", 4, "25 to 1"), ("pair", 78, "5 to 1"), ("suited", 308, "1 to 1"), ("other", 936, "loses")]


def test_a_round_settles_it_on_the_hole_cards(added):
    rules = resolve(load_offering(added)).game_rules
    settled = settle_round(rules, "As Ks", "2c 3d", "7h 8h", "9c", 2, (1, 0), side_bets={"hole_card_bonus": 3})
    line = next(line for line in settled.lines if line.wager == "hole_card_bonus")
    assert (line.amount, line.hand, line.result, line.net) == (Decimal(3), "suited ace king (As Ks)", "wins 25 to 1",
                                                                Decimal(75))


def test_a_build_prints_its_paytable_in_the_rules_and_on_the_sign(added, tmp_path):
    result = pipeline.build(added, pipeline.BuildOptions(out_dir=tmp_path / "out"))
    assert result.folder is not None, [f.message for f in result.findings]
    rules = (result.folder / "rules.html").read_text(encoding="utf-8")
    table = re.search(r"<caption>Hole Card Bonus — the house table.*?</table>", rules, re.S)
    assert table is not None
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", table.group(0))
    assert cells[:6] == ["Suited ace king", "25 to 1", "Pair", "5 to 1", "Suited", "1 to 1"]
    sign = _pdf_text((result.folder / "signage.pdf").read_bytes())
    assert re.search(r"HOLE CARD BONUS Your two hole cards · \$1 to \$10 Suited ace king 25 to 1 Pair 5 to 1 "
                     r"Suited 1 to 1", sign.replace("\u00a0", " ")), sign
    report = pipeline.math_results(resolve(load_offering(added)))
    assert dict(report.side_wagers)["hole_card_bonus"].ev == Fraction(-23, 221)
    assert "Hole Card Bonus: pairs of hole cards counted" in {check.check for check in report.verification}


def _pdf_text(data: bytes) -> str:
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        return re.sub(r"\s+", " ", " ".join(page.get_textpage().get_text_bounded() for page in document))
    finally:
        document.close()
