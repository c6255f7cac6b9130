"""The evaluator, exhaustively: class counts over all 2,598,960 hands and agreement with phevaluator."""

from itertools import combinations

import numpy as np
import pytest

from rulegen import evaluator as ev
from rulegen.cards import parse_cards
from rulegen.errors import CardError

EXPECTED = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108,
            "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552, "one_pair": 1098240,
            "high_card": 1302540}


@pytest.fixture(scope="module")
def all_hands():
    return np.array(list(combinations(range(52), 5)), dtype=np.uint8)


@pytest.fixture(scope="module")
def all_strengths(all_hands):
    from rulegen.math.fasteval import evaluate_many

    return evaluate_many(all_hands)


def test_class_counts_over_every_hand(all_strengths):
    category = ev.strength_arrays()[5]
    counts = np.bincount(category[all_strengths], minlength=10)
    assert {ev.CATEGORIES[i]: int(c) for i, c in enumerate(counts)} == EXPECTED
    assert len(np.unique(all_strengths)) == ev.HAND_COUNT


def test_pay_class_counts(all_strengths):
    pay = np.bincount(ev.strength_arrays()[4][all_strengths], minlength=11)
    # pairs of 6s-10s: 5 ranks, of J-A: 4 ranks, of 2-5: 4 ranks, each 1,098,240 / 13
    per_rank = 1098240 // 13
    assert pay[ev.PAY_CLASS_INDEX["pair_sixes_through_tens"]] == 5 * per_rank
    assert pay[ev.PAY_CLASS_INDEX["pair_jacks_or_better"]] == 4 * per_rank
    assert pay[0] == 1302540 + 4 * per_rank


def test_agrees_with_phevaluator_on_every_hand(all_hands, all_strengths):
    import phevaluator  # a test dependency (the test extras): the oracle is never skipped
    # phevaluator numbers cards rank*4 + suit with suits c, d, h, s (as we do) and ranks 1 (best) .. 7462
    evaluate = phevaluator.evaluate_cards
    ph = np.fromiter((evaluate(a, b, c, d, e) for a, b, c, d, e in all_hands.tolist()), dtype=np.int64,
                     count=len(all_hands))
    assert np.array_equal(ev.HAND_COUNT - ph, all_strengths.astype(np.int64))


def test_python_path_matches_compiled(all_hands, all_strengths):
    rng = np.random.default_rng(7)
    for i in rng.choice(len(all_hands), 3000, replace=False):
        assert ev.strength([int(c) for c in all_hands[i]]) == all_strengths[i]


def test_wheel_and_no_wrap_around():
    wheel = ev.strength("Ad 2c 3h 4s 5d")
    assert ev.category_key(wheel) == "straight"
    assert ev.hand_name(wheel) == "straight, five high"
    assert ev.strength("2d 3c 4h 5s 6d") > wheel
    for no_straight in ("Qd Kc Ah 2s 3d", "Kd Ac 2h 3s 4d"):
        assert ev.category_key(ev.strength(no_straight)) == "high_card"
    steel = ev.strength("Ad 2d 3d 4d 5d")
    assert ev.category_key(steel) == "straight_flush" and ev.hand_name(steel) == "straight flush, five high"
    assert ev.category_key(ev.strength("As Ks Qs Js Ts")) == "royal_flush"


@pytest.mark.parametrize("cards, name, pay", [
    ("Js Jd 2c 5h 9s", "pair of jacks", "pair_jacks_or_better"),
    ("Ts Td 2c 5h 9s", "pair of tens", "pair_sixes_through_tens"),
    ("5s 5d 2c Kh 9s", "pair of fives", "no_qualifying_hand"),
    ("6s 6d 2c Kh 9s", "pair of sixes", "pair_sixes_through_tens"),
    ("8s 7d 6c 5h 4s", "straight, eight high", "straight"),
    ("Ks Kd 5c 5h 9s", "two pair, kings and fives", "two_pair"),
    ("Ks Kd Kc 5h 5s", "full house, kings full of fives", "full_house"),
    ("Ks 9s 7s 5s 2s", "flush, king high", "flush"),
    ("Ks Qd 7c 5h 2s", "king high", "no_qualifying_hand"),
])
def test_names_and_pay_classes(cards, name, pay):
    strength, pay_class, text = ev.evaluate(cards)
    assert text == name
    assert ev.PAY_CLASSES[pay_class] == pay


def test_best_five_of_six():
    strength, five = ev.best_five("As Ks Qs Js Ts 2d")
    assert ev.hand_name(strength) == "royal flush" and "2d" not in " ".join(map(str, five))
    strength, _ = ev.best_five("2s 2d 2c 9h 9s 3d")
    assert ev.hand_name(strength) == "full house, twos full of nines"
    with pytest.raises(CardError):
        ev.best_five("As Ks Qs Js")
    with pytest.raises(CardError):
        ev.strength(parse_cards("As Ks") + parse_cards("As Qd Jc"))


def test_pay_class_ladder():
    assert ev.PAY_CLASSES == ("no_qualifying_hand", "pair_sixes_through_tens", "pair_jacks_or_better", "two_pair",
                              "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
                              "straight_flush", "royal_flush")
