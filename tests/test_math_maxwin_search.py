"""The maximum win's search in numpy (rulegen.math.maxwin_search) against the compiled search it replaces
(rulegen.math.maxwin_kernels): the same round found, to the cards, with and without bonuses, a Six Card Bonus and
a Bonus Spin; and the progressive meter of a limit set by rule, from the per-hand reach tables, equal to the
search's."""

from __future__ import annotations

import dataclasses
import random
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from rulegen.math import cache as disk
from rulegen.math import maxwin, maxwin_kernels, maxwin_search
from rulegen.math.deals import pair_cards
from tests.test_math_maxwin import HOUSE, MAIN, SIX

SAMPLES = Path(__file__).resolve().parent.parent / "jurisdictions" / "samples"
EVERY_WAGER = MAIN | {"five_card_bonus", "six_card_bonus", "bonus_spin"}


def _sample(name: str):
    from rulegen.math.report import with_limit_by_rule
    from rulegen.offering import load_offering
    from rulegen.resolved import resolve

    return with_limit_by_rule(resolve(load_offering(SAMPLES / f"{name}.yaml")))


def _compiled_search(order, triples, upper, hand_value, mid_value, bonus_value, bonus_top, pairs, six_value, six_top,
                     spin_value, spin_trigger):
    from rulegen.evaluator import strength_arrays

    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    return maxwin_kernels.search(order, triples, upper, card_key, card_bit, nonflush, flush, pay_of.astype(np.int64),
                                 hand_value, mid_value, bonus_value, bonus_top, pairs, six_value, six_top,
                                 spin_value, spin_trigger)


def _compiled_draw(h1, h2, used, six_value):
    from rulegen.evaluator import strength_arrays

    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    return maxwin_kernels.six_card_draw(h1, h2, used, card_key, card_bit, nonflush, flush, pay_of.astype(np.int64),
                                        six_value)


def _both(monkeypatch, rules, *args, **kwargs):
    """The maximum win found by the numpy search and by the compiled one (nothing read from the cache)."""
    with disk.fresh():
        found = maxwin.max_win_per_round(rules, *args, **kwargs)
    with monkeypatch.context() as patched:
        patched.setattr(maxwin_search, "search", _compiled_search)
        patched.setattr(maxwin_search, "six_card_draw", _compiled_draw)
        with disk.fresh():
            compiled = maxwin.max_win_per_round(rules, *args, **kwargs)
    return found, compiled


CASES = {
    "house, main game only": (HOUSE, Decimal(2), None, MAIN),
    "house, Five Card Bonus": (HOUSE, Decimal(2), Decimal(2), MAIN | {"five_card_bonus"}),
    "house, Six Card Bonus": (dataclasses.replace(HOUSE, six_card_bonus=SIX), Decimal(2), Decimal(2),
                              MAIN | {"five_card_bonus", "six_card_bonus"}),
    "the ante alone counted": (HOUSE, Decimal(5), None, frozenset({"ante_across", "ante_down"})),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_same_round_as_the_compiled_search(monkeypatch, name):
    found, compiled = _both(monkeypatch, *CASES[name])
    assert found == compiled


@pytest.mark.parametrize("name", ["house-six-card-bonus", "pa-five-card-bonus", "md-progressive", "nj-bonus-spin"])
@pytest.mark.parametrize("counting", ["the jurisdiction's", "every wager"])
def test_the_same_round_on_every_sample(monkeypatch, name, counting):
    offering = _sample(name)
    counted = EVERY_WAGER if counting == "every wager" else frozenset(offering.payout_limit.counted_in_max_win)
    found, compiled = _both(monkeypatch, offering.game_rules, offering.limits.ante.minimum,
                            offering.five_card_bonus_minimum, counted, other_players=3)
    assert found == compiled
    assert found.detail.chosen.cards == compiled.detail.chosen.cards


def test_the_reachable_classes_are_the_compiled_ones():
    from rulegen.evaluator import strength_arrays

    rows = np.array(random.Random(7).sample([(x, y, z) for x in range(52) for y in range(x + 1, 52)
                                             for z in range(y + 1, 52)], 300), dtype=np.int64)
    card_key, card_bit, nonflush, flush, pay_of, _ = strength_arrays()
    expected = maxwin_kernels.reachable_classes(rows, card_key, card_bit, nonflush, flush, pay_of.astype(np.int64),
                                                pair_cards())
    assert np.array_equal(maxwin_search.reachable_classes(rows, pair_cards()), expected)


def test_the_six_card_classes_and_draw_are_the_compiled_ones():
    rng = random.Random(20261127)
    six_value = np.array([0, 0, 0, 0, 5, 10, 15, 20, 50, 200, 1000], dtype=np.int64)
    for _ in range(40):
        deal = rng.sample(range(52), 7)
        h1, h2 = deal[0], deal[1]
        used = np.zeros(52, dtype=np.bool_)
        used[deal] = True
        dealt = np.int64(sum(1 << c for c in deal[2:]))
        assert int(maxwin_search.best_six_classes(h1, h2, np.array([dealt]))[0]) == \
            maxwin_kernels.best_six_class(h1, h2, used)
    for _ in range(3):
        deal = rng.sample(range(52), 7)
        used = np.zeros(52, dtype=np.bool_)
        used[deal] = True
        value, cards = maxwin_search.six_card_draw(deal[0], deal[1], used, six_value)
        expected_value, expected_cards = _compiled_draw(deal[0], deal[1], used, six_value)
        assert value == expected_value and np.array_equal(cards, expected_cards)


@pytest.mark.parametrize("positions", [7, 1])
def test_the_meter_from_the_reach_tables_is_the_searchs(positions):
    """NJ's limit is the greater of its base amount and the maximum win, which counts the progressive top prize:
    the meter above which the win passes the base, from the tables (the cache read) and by the search (inside
    fresh(), where nothing is read)."""
    from rulegen.math.report import limit_follows_meter_above

    offering = _sample("nj-bonus-spin")
    offering = dataclasses.replace(offering, table=dataclasses.replace(offering.table, positions=positions))
    from_tables = limit_follows_meter_above(offering)
    with disk.fresh():
        searched = limit_follows_meter_above(offering)
    assert from_tables is not None and from_tables == searched


def test_a_table_of_classes_altered_in_the_cache_is_computed_again(tmp_path, monkeypatch):
    import base64

    monkeypatch.setenv("RULEGEN_CACHE_DIR", str(tmp_path))
    maxwin_search.triple_classes.cache_clear()
    whole = maxwin_search.triple_classes()  # computed and stored
    key = disk.key("triple_classes", maxwin_search.CLASSES_VERSION)
    payload = disk.load(key)
    assert isinstance(payload, dict)
    pattern = np.frombuffer(base64.b64decode(payload["pattern"]), dtype=np.uint16).copy()
    pattern[0] = (pattern[0] + 1) % whole.classes.shape[0]  # a set given another's suit pattern
    assert disk.store(key, {**payload, "pattern": base64.b64encode(pattern.tobytes()).decode("ascii")})
    maxwin_search.triple_classes.cache_clear()
    again = maxwin_search.triple_classes()
    assert np.array_equal(again.pattern, whole.pattern) and np.array_equal(again.classes, whole.classes)
    assert np.array_equal(again.masks, whole.masks)
    path = tmp_path / f"{key}.json"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit anywhere: the entry's checksum no longer holds
    path.write_bytes(bytes(data))
    assert disk.load(key) is None
    maxwin_search.triple_classes.cache_clear()
    assert np.array_equal(maxwin_search.triple_classes().masks, whole.masks)
    maxwin_search.triple_classes.cache_clear()
