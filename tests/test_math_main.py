"""The exact main-game analysis: a few starting hands recomputed by an independent brute-force loop (every
across pair, down pair and middle card, no symmetry or linearity), exact integer agreement; the full analysis
is marked slow."""

from fractions import Fraction

import pytest

from rulegen.game import Paytable
from tests.standard_game import STANDARD_ANTE, STANDARD_CRISS_CROSS, STANDARD_RULES
from rulegen.math import main_game as mg
from tests import conftest_math


HOUSE = conftest_math.HOUSE
ODD = conftest_math.ODD


def _hands(*names):
    return [h for h in mg.starting_hands() if h.name in names]


@pytest.mark.parametrize("criss_cross, names", [
    (STANDARD_CRISS_CROSS, ("AKs", "72o", "22")),
    (HOUSE, ("QJs",)),
    (ODD, ("T9o",)),
])
def test_kernel_equals_brute_force(criss_cross, names):
    run = mg.run_kernel(criss_cross, STANDARD_ANTE, _hands(*names))
    for hand, result in zip(run.hands, run.results):
        brute_scale, fold, one, three = conftest_math.brute_force_hand(hand.cards, criss_cross, STANDARD_ANTE)
        assert brute_scale == run.scale
        assert [int(v) for v in result.ev] == [fold, one, three], hand.name
        # the distributions of this hand count each of its deals once
        assert int(result.net_histogram.sum()) == mg.LEAVES_PER_HAND
        assert int(result.gross_histogram.sum()) == mg.LEAVES_PER_HAND


def test_starting_hands_and_orbits():
    hands = mg.starting_hands()
    assert len(hands) == 169 and sum(h.combinations for h in hands) == 1326
    assert hands[0].name == "AA" and hands[1].name == "AKs" and hands[2].name == "AKo"
    for hand in _hands("AA", "AKs", "AKo"):
        assert mg.across_orbits(hand).weights.sum() == 1225
    # suited hands: the three other suits are interchangeable, so orbits are up to 6 pairs
    assert len(mg.across_orbits(_hands("AKs")[0]).representatives) < \
        len(mg.across_orbits(_hands("AKo")[0]).representatives)


def test_integer_payouts_scale():
    payouts = mg.integer_payouts(ODD, STANDARD_ANTE)
    assert payouts.scale == 2 and payouts.criss_cross[6] == 13 and payouts.criss_cross[0] == -2


def test_non_monotone_table_refused():
    bad = Paytable.from_mapping({"flush": 8, "straight": 9, "pair_jacks_or_better": 1})
    with pytest.raises(ValueError):
        mg.run_kernel(bad, STANDARD_ANTE, _hands("AA"))


@pytest.mark.slow
def test_full_analysis_standard(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    result = mg.analyse_main_game(STANDARD_RULES, use_cache=False)
    assert result.rounds == 84_284_272_800
    assert result.ev_per_ante == Fraction(-579091, 6689228)
    assert result.across_decision["AA"] == "3x" and result.across_decision["32o"] == "fold"
    assert result.monte_carlo is not None and result.monte_carlo.covers_exact
