"""The shared counts (rulegen.math.shared): the counts against a second computation (the evaluator's own classes,
every deal of three starting hands, the orbits of rulegen.math.deals), and every figure from the counts against
the exact analysis (rulegen.math.main_game) on the standard, house and odd tables, to the last digit."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from numba import njit

from rulegen.evaluator import strength_arrays
from rulegen.game import Paytable
from tests.standard_game import STANDARD_ANTE, STANDARD_CRISS_CROSS
from rulegen.math import shared
from rulegen.math.deals import LEAVES_PER_HAND, across_orbits, pair_cards, starting_hands
from rulegen.math.fasteval import eval5
from tests import conftest_math
from tests.test_math_exact import PUSH_LOW, RICH_ANTE

HOUSE_ANTE = Paytable.from_mapping({"pair_jacks_or_better": 1, "pair_sixes_through_tens": "push"})
TABLES = {
    "standard": (STANDARD_CRISS_CROSS, STANDARD_ANTE),
    "house": (conftest_math.HOUSE, HOUSE_ANTE),
    "odd half": (conftest_math.ODD, STANDARD_ANTE),
    "thirds, rich ante": (conftest_math.THIRDS, RICH_ANTE),
    "push below two pair": (PUSH_LOW, STANDARD_ANTE),
}


@pytest.fixture(scope="module")
def counts() -> shared.SharedCounts:
    return shared.shared_counts()


@pytest.fixture(scope="module")
def prepared(counts) -> shared.PreparedCounts:
    return shared.prepare(counts)


def test_the_counts_are_whole(counts):
    counts.check()  # every deal once, every joint table of 46 middle cards
    assert counts.hand_offsets.shape == (170,)
    assert counts.keys.shape == (14_696, 121)
    assert counts.type_offsets.shape[0] - 1 == 5_453  # kinds of across pair
    assert counts.type_key.shape == (197_405,)


@njit(cache=True)
def _joint_tables(h0, h1, reps, pairs, card_key, card_bit, nonflush, flush, pay):
    """[rep, down pair, 121]: for each across pair and each down pair (by index 0..1325, -1 rows where it meets
    the hole or across cards) the joint table of (Across class, Down class) over the middle cards, each hand
    classed by the evaluator's tables."""
    out = np.full((reps.shape[0], pairs.shape[0], 121), -1, dtype=np.int64)
    for r in range(reps.shape[0]):
        ax, ay = pairs[reps[r], 0], pairs[reps[r], 1]
        for p in range(pairs.shape[0]):
            dx, dy = pairs[p, 0], pairs[p, 1]
            if dx == h0 or dx == h1 or dy == h0 or dy == h1 or dx == ax or dx == ay or dy == ax or dy == ay:
                continue
            out[r, p, :] = 0
            for m in range(52):
                if m == h0 or m == h1 or m == ax or m == ay or m == dx or m == dy:
                    continue
                ka = pay[eval5(h0, h1, ax, ay, m, card_key, card_bit, nonflush, flush)]
                kd = pay[eval5(h0, h1, dx, dy, m, card_key, card_bit, nonflush, flush)]
                out[r, p, ka * 11 + kd] += 1
    return out


@pytest.mark.parametrize("name", ["QQ", "T9s", "72o"])
def test_the_counts_against_a_second_computation(counts, name):
    """Every deal of the starting hand classed by the evaluator, the across pairs by deals.across_orbits: the
    kinds of across pair (each one's joint tables and how many down pairs have each) and how many across pairs
    are of each kind must be the counts' own."""
    hands = starting_hands()
    c = next(i for i, hand in enumerate(hands) if hand.name == name)
    hand = hands[c]
    orbits = across_orbits(hand)
    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    tables = _joint_tables(hand.cards[0], hand.cards[1], orbits.representatives, pair_cards(), card_key, card_bit,
                           nonflush, flush, pay_of.astype(np.int64))
    expected: Counter = Counter()
    for r, weight in enumerate(orbits.weights):
        rows = tables[r][tables[r, :, 0] >= 0]
        assert rows.shape == (1128, 121) and np.all(rows.sum(axis=1) == 46)
        kind = tuple(sorted(Counter(row.astype(np.uint8).tobytes() for row in rows).items()))
        expected[kind] += int(weight)
    found: Counter = Counter()
    for u in range(counts.hand_offsets[c], counts.hand_offsets[c + 1]):
        t = counts.hand_type[u]
        entries = range(counts.type_offsets[t], counts.type_offsets[t + 1])
        kind = tuple(sorted((counts.keys[counts.type_key[e]].tobytes(), int(counts.type_count[e])) for e in entries))
        found[kind] += int(counts.hand_weight[u])
    assert found == expected


@pytest.mark.parametrize("name", list(TABLES))
def test_every_figure_is_the_exact_analysis_own(prepared, name):
    from rulegen.math.main_game import _summarise, run_kernel

    criss_cross, ante = TABLES[name]
    analysis = _summarise(criss_cross, ante, run_kernel(criss_cross, ante))
    figures = shared.figures(prepared, criss_cross, ante)
    assert figures.ev_per_ante == analysis.ev_per_ante
    assert figures.average_total_wager_exact == analysis.average_total_wager_exact
    assert figures.hit_frequency_exact == analysis.hit_frequency_exact
    assert figures.variance == analysis.variance
    assert figures.across_decision == analysis.across_decision
    assert figures.element_of_risk == analysis.element_of_risk
    assert figures.standard_deviation == analysis.standard_deviation
    per_ante = figures.scale * LEAVES_PER_HAND
    for values, row in zip(figures.ev_per_hand, analysis.starting_hands):
        assert tuple(Fraction(v, per_ante) for v in values) == (row.ev_fold, row.ev_1x, row.ev_3x)


def test_a_table_that_pays_a_better_hand_less_is_refused(prepared):
    worse = Paytable.from_mapping({"royal_flush": 10, "straight_flush": 50, "pair_jacks_or_better": 1})
    with pytest.raises(ValueError, match="pays less for a better hand"):
        shared.figures(prepared, worse, STANDARD_ANTE)


def test_payouts_too_large_for_exact_sums_are_refused(prepared):
    huge = Paytable.from_mapping({"royal_flush": 10 ** 12, "pair_jacks_or_better": 1})
    with pytest.raises(OverflowError):
        shared.figures(prepared, huge, STANDARD_ANTE)


def test_a_copy_on_disk_is_read_only_whole(counts, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    shared._store_disk(counts)
    back = shared._load_disk()
    assert back is not None and back.digest() == counts.digest()
    path = shared._disk_path()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit changed anywhere: the digest (or the archive) no longer holds
    path.write_bytes(bytes(data))
    assert shared._load_disk() is None
