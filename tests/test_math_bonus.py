"""Five and Six Card Bonus tables over every board."""

from fractions import Fraction


from rulegen.evaluator import PAY_CLASS_INDEX as K
from rulegen.game import Paytable
from tests.standard_game import STANDARD_FIVE_CARD_BONUS
from rulegen.math import bonus

SIX = Paytable.from_mapping({"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 50, "full_house": 20,
                             "flush": 15, "straight": 10, "three_of_a_kind": 5})


def test_five_card_bonus_full(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    counts = bonus.class_counts(5)
    assert sum(counts) == 2_598_960
    assert counts[K["royal_flush"]] == 4 and counts[K["two_pair"]] == 123_552
    assert counts[K["pair_jacks_or_better"]] == 4 * 84_480 and counts[K["pair_sixes_through_tens"]] == 5 * 84_480
    table = bonus.five_card_bonus(STANDARD_FIVE_CARD_BONUS)
    # independent: the same sum written out from the textbook counts
    pays = {4: 250, 36: 100, 624: 40, 3744: 15, 5108: 10, 10200: 6, 54912: 4, 123552: 3, 9 * 84480: 1}
    ev = Fraction(sum(n * p for n, p in pays.items()) - (2598960 - sum(pays)), 2598960)
    assert table.ev == ev
    assert table.house_edge == float(-ev) and table.element_of_risk == table.house_edge
    assert sum(r.combinations for r in table.outcomes) == 2_598_960


def test_six_card_bonus(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    counts = bonus.class_counts(6)
    assert sum(counts) == 20_358_520
    # the best-five-of-six counts (known values)
    assert counts[K["royal_flush"]] == 188 and counts[K["straight_flush"]] == 1656
    assert counts[K["four_of_a_kind"]] == 14664 and counts[K["full_house"]] == 165984
    assert counts[K["flush"]] == 205792 and counts[K["straight"]] == 361620
    assert counts[K["three_of_a_kind"]] == 732160 and counts[K["two_pair"]] == 2532816
    table = bonus.six_card_bonus(SIX)
    wins = 188 * 1000 + 1656 * 200 + 14664 * 50 + 165984 * 20 + 205792 * 15 + 361620 * 10 + 732160 * 5
    losses = 20358520 - (188 + 1656 + 14664 + 165984 + 205792 + 361620 + 732160)
    assert table.ev == Fraction(wins - losses, 20358520)


def test_counts_cached_and_checked(tmp_path, monkeypatch):
    from rulegen.math import cache as disk

    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    bonus.class_counts.cache_clear()
    first = bonus.class_counts(5)
    key = disk.key("class_counts", bonus.CODE_VERSION, 5)
    assert disk.load(key) == list(first)
    bonus.class_counts.cache_clear()
    assert bonus.class_counts(5) == first
