"""The fast exact main-game analysis (rulegen.math.exact): its own pay-class classifier against the evaluator on
every five-card hand, its per-hand results against the reference kernel (tests/reference_kernel.py) to the last
digit on the standard, HOUSE and odd paytables for a spread of starting hands, and one hand against the
independent brute force. The whole 169 hands are compared in tests/benchmarks/bench_math.py."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from rulegen.evaluator import strength_arrays
from rulegen.game import Paytable
from tests.standard_game import STANDARD_ANTE, STANDARD_CRISS_CROSS
from rulegen.math import exact
from rulegen.math import main_game as mg
from rulegen.math.exact_kernels import pay_classes_of
from rulegen.math.fasteval import evaluate_many
from tests import conftest_math
from tests.reference_kernel import run_reference_kernel


HOUSE = conftest_math.HOUSE
# Odd tables: a half (scale 2), thirds with a flat step (scale 3, pay(6-10 pair) = pay(J+ pair)), an ante
# table that pays more than even money, and a Criss Cross table that never loses below a pair.
ODD = conftest_math.ODD
THIRDS = conftest_math.THIRDS
RICH_ANTE = Paytable.from_mapping({"royal_flush": 100, "straight_flush": 20, "four_of_a_kind": 5, "flush": 2,
                                   "straight": 1, "two_pair": 1, "pair_jacks_or_better": 1,
                                   "pair_sixes_through_tens": "push"})
PUSH_LOW = Paytable.from_mapping({"royal_flush": 250, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7,
                                  "flush": 5, "straight": 4, "three_of_a_kind": 3, "two_pair": 1,
                                  "pair_jacks_or_better": "push", "pair_sixes_through_tens": "push"})

# pairs high and low, suited and offsuit, connected and gapped, playing and folding hands
SPREAD = ("AA", "88", "22", "AKs", "T9s", "72s", "AKo", "K9o", "J8o", "32o")
NAMES = ("ev1", "choice1", "choice2", "down_counts", "middle_counts", "ties", "net_hist", "gross_hist")


@njit(cache=True)
def _all_five_card_hands():
    out = np.empty((2598960, 5), dtype=np.uint8)
    n = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        out[n, 0] = a
                        out[n, 1] = b
                        out[n, 2] = c
                        out[n, 3] = d
                        out[n, 4] = e
                        n += 1
    return out


def test_classifier_equals_evaluator_on_every_hand():
    hands = _all_five_card_hands()
    pay = strength_arrays()[4]
    expected = pay[evaluate_many(hands)].astype(np.int64)
    got = pay_classes_of(hands)
    assert np.array_equal(got, expected)
    assert np.bincount(got, minlength=11).tolist() == np.bincount(expected, minlength=11).tolist()
    assert np.bincount(got)[10] == 4 and np.bincount(got)[9] == 36


def _compare(criss_cross, ante, names):
    hands = [h for h in mg.starting_hands() if h.name in names]
    assert len(hands) == len(names)
    run = run_reference_kernel(criss_cross, ante, hands)
    reference, scale, net_low = run.results, run.scale, run.net_low
    payouts = mg.integer_payouts(criss_cross, ante)
    fast = exact.analyse_hands(np.array([h.cards for h in hands]), payouts.ante, payouts.criss_cross, scale, net_low,
                               reference[0].net_histogram.shape[0], reference[0].gross_histogram.shape[0])
    for c, (hand, ref) in enumerate(zip(hands, reference)):
        for k, name in enumerate(NAMES):
            assert np.array_equal(np.asarray(ref[k]), np.asarray(fast[k][c])), (hand.name, name)
    return hands, fast


@pytest.mark.parametrize("criss_cross, ante, names", [
    (STANDARD_CRISS_CROSS, STANDARD_ANTE, SPREAD),
    (HOUSE, STANDARD_ANTE, SPREAD[::2]),
    (ODD, STANDARD_ANTE, SPREAD[1::2]),
    (THIRDS, RICH_ANTE, ("KK", "QJs", "A5o", "94o")),
    (PUSH_LOW, STANDARD_ANTE, ("TT", "KQs", "AJo", "63o")),
], ids=["standard", "house", "odd", "thirds-rich-ante", "push-low"])
def test_fast_equals_reference_kernel(criss_cross, ante, names):
    hands, fast = _compare(criss_cross, ante, names)
    for c in range(len(hands)):
        assert int(fast[6][c].sum()) == mg.LEAVES_PER_HAND
        assert int(fast[7][c].sum()) == mg.LEAVES_PER_HAND


def test_fast_equals_brute_force():
    hand = next(h for h in mg.starting_hands() if h.name == "QTs")
    payouts = mg.integer_payouts(HOUSE, STANDARD_ANTE)
    scale, an, cc = payouts.scale, payouts.ante, payouts.criss_cross
    fast = exact.analyse_hands(np.array([hand.cards]), an, cc, scale, -100 * scale, 10000 * scale, 10000 * scale)
    assert conftest_math.brute_force_hand(hand.cards, HOUSE, STANDARD_ANTE) == (scale, *map(int, fast[0][0]))


def test_refusals():
    payouts = mg.integer_payouts(STANDARD_CRISS_CROSS, STANDARD_ANTE)
    scale, an, cc = payouts.scale, payouts.ante, payouts.criss_cross
    holes = np.array([[48, 49]])
    with pytest.raises(ValueError):
        exact.analyse_hands(holes, an, cc[::-1], scale, -20, 100, 100)
    with pytest.raises(OverflowError):
        exact.analyse_hands(holes, an, cc * 10 ** 9, scale, -20, 100, 100)


def test_threads_do_not_change_the_result_and_progress_is_reported():
    hands = [h for h in mg.starting_hands() if h.name in ("KQs", "95o", "44", "A2o")]
    payouts = mg.integer_payouts(HOUSE, STANDARD_ANTE)
    scale, an, cc = payouts.scale, payouts.ante, payouts.criss_cross
    holes = np.array([h.cards for h in hands])
    seen = []
    one = exact.analyse_hands(holes, an, cc, scale, -100 * scale, 10000 * scale, 10000 * scale, threads=1)
    two = exact.analyse_hands(holes, an, cc, scale, -100 * scale, 10000 * scale, 10000 * scale, threads=2,
                              progress=lambda done, total: seen.append((done, total)))
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
