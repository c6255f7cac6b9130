"""The most one player can win in one round betting the table minimum: the figure the payout-limit floor uses.

Reading (ours): both antes at the table minimum and every raise (Across, Down, Middle) at 3x; plus the Five
Card Bonus at its minimum when the limit covers it (58 Pa. Code § 674a.12(d) excludes it in Pennsylvania), and
the house Six Card Bonus, which equals the Five Card Bonus wager, when the limit covers it; Bonus Spin prizes
are not counted (they are paid by the progressive system). "Win" is what the winning wagers are paid (a losing
wager is not netted against it).

The maximum is exact, over every deal. The main game depends on the three cards both hands share (the hole
cards and the middle card, as a set T) and the two pairs of outside cards; the Five Card Bonus on the two pairs
and which card of T is the middle card. For each T the pay classes of T + every pair are computed, and pairs
are searched best first with a bound (main game's best possible + the bonus's top payout) that stops the
search as soon as nothing left can beat the best total found: exact, and fast. The Six Card Bonus (the hole
cards and four cards dealt apart from the cross) adds, at each deal the bound leaves, the best class the hole
cards can make with four of the cards the deal leaves free (`maxwin_search.best_six_classes`; the search
runs in numpy, `maxwin_search`); the four cards of
the deal found are then found by enumeration and the round settled by the game layer.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from rulegen.game import MAIN_WAGERS
from rulegen.math.cache import memoised as disk_memoised
from rulegen.money import dollars
from rulegen.math.payload import from_payload, to_payload
from rulegen.math.kernel_types import MaxWinBounds
from rulegen.math.results import DealtCards, MaxWin, MaxWinDetail, WinningRound

if TYPE_CHECKING:
    import numpy as np

CODE_VERSION = "maxwin-8"  # bump when what the result holds (its reading included) changes
# How the figure is counted. Which wagers it counts is the jurisdiction's (its data's payout_limit.covers and
# counted_in_max_win, each with its citation), never written here.
READING = ("both antes at the table minimum and every raise at 3x, plus each bonus wager the jurisdiction counts "
           "(its data's counted_in_max_win), where it is offered: the Five Card Bonus at its minimum, a "
           "Six Card Bonus equal to the Five Card Bonus wager, a Bonus Spin's largest prize on hole cards that trigger "
           "it, paid in full; a win is what the winning wagers are paid, "
           "losing wagers not deducted")


def reachable_classes() -> tuple[np.ndarray, np.ndarray]:
    """(triples, masks): every 3-card set T (x < y < z, in order) and, as bits, the pay classes T makes with a pair
    of the other cards (`maxwin_search.triple_classes`)."""
    from rulegen.math.maxwin_search import triple_classes

    table = triple_classes()
    return table.triples, table.masks


@lru_cache(maxsize=4)
def _bounds(hand_value: bytes, mid_value: bytes) -> MaxWinBounds:
    """Every 3-card set T and an upper bound of the main game's win over it: twice the best Across/Down value of a
    class T makes with a pair, plus the best Middle value of one (per-class values as int64 bytes; a maximum win's
    two searches share them)."""
    import numpy as np

    triples, masks = reachable_classes()
    reached = ((masks[:, None] >> np.arange(11)) & 1).astype(bool)  # [22100, 11]
    per_hand = np.frombuffer(hand_value, np.int64)
    per_middle = np.frombuffer(mid_value, np.int64)
    best_hand = np.where(reached, per_hand, 0).max(axis=1)  # never below 0: a win, not a loss
    best_middle = np.where(reached, per_middle, 0).max(axis=1)
    return MaxWinBounds(triples, (2 * best_hand + best_middle).astype(np.int64))


def max_win_per_round(rules, ante_minimum, five_card_bonus_minimum=None,
                      counted: frozenset[str] = frozenset(), other_players: int = 0) -> MaxWin:
    """The exact maximum win per round at the minimum wager (see the module's reading); memoised in process
    and on disk. Where the limit covers the Bonus Spin, its best prize counts in a deal whose hole cards trigger
    it, and each of `other_players` can spin the wheel's largest community pay to this player."""
    ante_minimum, five, main_counted, fcb_table, six_table = counted_wagers(rules, ante_minimum,
                                                                           five_card_bonus_minimum, counted)
    spin = rules.bonus_spin if "bonus_spin" in counted and _spin_prize(rules.bonus_spin) is not None else None
    return _max_win(rules.criss_cross, rules.ante, fcb_table, ante_minimum, five if fcb_table is not None else None,
                    main_counted, six_table, spin, other_players if spin is not None else 0)


def counted_wagers(rules, ante_minimum, five_card_bonus_minimum, counted: frozenset[str]):
    """What the maximum win counts, as (ante minimum, Five Card Bonus minimum, the main wagers counted, the Five
    Card Bonus table or None, the Six Card Bonus table or None): the bonuses where offered, given a minimum and
    counted (every wager when `counted` is empty)."""
    ante_minimum = Decimal(str(ante_minimum))
    five = Decimal(str(five_card_bonus_minimum)) if five_card_bonus_minimum is not None else None
    counted = frozenset(counted)
    main_counted = tuple(w for w in MAIN_WAGERS if w in counted) or MAIN_WAGERS
    use_five = five is not None and rules.five_card_bonus is not None and (not counted or "five_card_bonus" in counted)
    fcb_table = rules.five_card_bonus if use_five else None
    # the Six Card Bonus wager equals the Five Card Bonus wager (house rules, 6 Card Bonus Wager)
    six_table = rules.six_card_bonus if use_five and "six_card_bonus" in counted else None
    return ante_minimum, five, main_counted, fcb_table, six_table


def _spin_prize(spin):
    """The Bonus Spin's best segment and its prize (the top prize at its stated amount), or None when a prize has
    no amount."""
    if spin is None:
        return None
    prizes = [(segment, segment.pays if segment.pays is not None else spin.top_prize_amount)
              for segment in spin.segments]
    if not prizes or any(prize is None for _segment, prize in prizes):
        return None
    return max(prizes, key=lambda item: item[1])


def _spin_key(spin) -> list | None:
    if spin is None:
        return None
    return [str(spin.wager), spin.trigger, str(spin.top_prize_amount),
            [[s.symbol, str(s.pays), str(s.community)] for s in spin.segments]]


@disk_memoised
def _max_win(criss_cross, ante, fcb_table, ante_minimum: Decimal, five: Decimal | None, main_counted: tuple,
             six_table=None, spin=None, others: int = 0) -> MaxWin:
    from rulegen.math import cache as disk

    key = disk.key("max_win", CODE_VERSION, criss_cross.canonical(), ante.canonical(),
                   fcb_table.canonical() if fcb_table else None, str(ante_minimum), str(five), list(main_counted),
                   six_table.canonical() if six_table else None, _spin_key(spin), others)
    found = disk.load(key)
    cached = from_payload(MaxWin, found) if found is not None else None
    if cached is not None:
        return cached
    main_only = _search(criss_cross, ante, None, ante_minimum, None, main_counted)
    with_bonus = _search(criss_cross, ante, fcb_table, ante_minimum, five, main_counted, six_table, spin, others) \
        if fcb_table or spin is not None else None
    chosen = with_bonus or main_only
    wagers = {w: ante_minimum * (1 if w.startswith("ante") else 3) for w in main_counted}
    if with_bonus is not None and five is not None:
        wagers["five_card_bonus"] = five
        if six_table is not None:
            wagers["six_card_bonus"] = five
    if with_bonus is not None and spin is not None:
        wagers["bonus_spin"] = spin.wager
        if "bonus_spin_community" in chosen.per_wager_win:
            wagers["bonus_spin_community"] = spin.wager
    detail = MaxWinDetail(reading=READING, ante_minimum=ante_minimum, wagers=wagers, chosen=chosen,
                          main_game_only=main_only, with_five_card_bonus=with_bonus,
                          summary=_summary(chosen, ante_minimum, five))
    result = MaxWin(chosen.amount, detail)
    disk.store(key, to_payload(result))
    return result


def _summary(chosen: WinningRound, ante_minimum: Decimal, five: Decimal | None) -> str:
    text = (f"antes {_show(ante_minimum)} each and 3x raises of {_show(3 * ante_minimum)}: "
            f"{chosen.hands['across']} Across, {chosen.hands['down']} Down")
    if five is not None:
        text += f", Five Card Bonus {_show(five)} on {chosen.hands['five_card_bonus']}"
    if five is not None and "six_card_bonus" in chosen.hands:
        text += f", Six Card Bonus {_show(five)} on {chosen.hands['six_card_bonus']}"
    if "bonus_spin" in chosen.hands:
        text += f", Bonus Spin: {chosen.hands['bonus_spin']}"
    if "bonus_spin_community" in chosen.hands:
        text += f", and {chosen.hands['bonus_spin_community']}"
    return text


def _show(amount: Decimal) -> str:
    return dollars(amount)


def _search(criss_cross, ante, fcb_table, ante_minimum: Decimal, five: Decimal | None,
            main_counted: tuple, six_table=None, spin=None, others: int = 0) -> WinningRound:
    import numpy as np

    from rulegen.cards import Card, format_cards
    from rulegen.game import GameRules, bonus_spin_triggered, settle_round
    from rulegen.math.deals import pair_cards
    from rulegen.math.maxwin_search import search, six_card_draw

    # Integer money: cents times the LCM of the odds' denominators.
    tables = [criss_cross, ante] + ([fcb_table] if fcb_table else []) + ([six_table] if six_table else [])
    scale = math.lcm(*(Fraction(p).denominator for t in tables for p in t.payouts))
    unit = 100 * scale
    ante_units = int(ante_minimum * unit)

    def win(payout: Fraction, wager_units: int) -> int:
        return int(max(payout, Fraction(0)) * wager_units)

    hand_value = np.array([(win(ante.payout(k), ante_units) if "ante_across" in main_counted else 0)
                           + (win(criss_cross.payout(k), 3 * ante_units) if "across" in main_counted else 0)
                           for k in range(11)], dtype=np.int64)
    # the Across and Down wagers are symmetric in the search (both T + a pair); count them alike
    if ("ante_across" in main_counted) != ("ante_down" in main_counted) or \
            ("across" in main_counted) != ("down" in main_counted):
        raise ValueError("a payout limit that counts only one of the Across/Down wagers is not supported")
    mid_value = np.array([win(criss_cross.payout(k), 3 * ante_units) if "middle" in main_counted else 0
                          for k in range(11)], dtype=np.int64)
    if fcb_table is not None and five is not None:
        bonus_value = np.array([win(fcb_table.payout(k), int(five * unit)) for k in range(11)], dtype=np.int64)
    else:
        bonus_value = np.zeros(11, dtype=np.int64)
    six_value = np.zeros(11, dtype=np.int64)
    if six_table is not None and five is not None:
        six_value = np.array([win(six_table.payout(k), int(five * unit)) for k in range(11)], dtype=np.int64)
        # the class search finds the best hand the six cards can make: it is the best pay only if no better hand
        # pays less (every paytable a jurisdiction accepts pays more for a better hand)
        if any(six_value[k] > six_value[k + 1] for k in range(10)):
            raise ValueError("the Six Card Bonus paytable pays a better hand less than a worse one: its maximum win "
                             "is not computed")
    spin_value, spin_trigger, best_segment = 0, 0, None
    if spin is not None:
        best_segment, prize = _spin_prize(spin)
        spin_value = int(prize * unit)  # what the winning spin is paid (its wager, collected or not, not deducted)
        spin_trigger = {"pair_in_hole_cards": 1, "suited_hole_cards": 2, "pair_or_suited_hole_cards": 3}[spin.trigger]
    pairs = pair_cards()
    bounded = _bounds(hand_value.tobytes(), mid_value.tobytes())
    triples = bounded.triples
    order = np.argsort(-bounded.upper, kind="mergesort")
    found = search(order, triples, bounded.upper, hand_value, mid_value, bonus_value, int(bonus_value.max()), pairs,
                   six_value, int(six_value.max()), spin_value, spin_trigger)
    best = found.best
    t, m, pa, pd = int(found.triple), int(found.middle), int(found.across_pair), int(found.down_pair)
    middle = Card(m)
    hole = tuple(Card(int(c)) for c in triples[t] if int(c) != m)
    across = (Card(int(pairs[pa, 0])), Card(int(pairs[pa, 1])))
    down = (Card(int(pairs[pd, 0])), Card(int(pairs[pd, 1])))
    six: tuple[Card, ...] | None = None
    if six_table is not None:
        used = np.zeros(52, dtype=np.bool_)
        used[[int(c) for c in triples[t]] + [int(c) for c in across + down]] = True
        _, drawn = six_card_draw(int(hole[0]), int(hole[1]), used, six_value)
        six = tuple(Card(int(c)) for c in drawn)
    # Settle the round the search found with the game layer: the figure is the game's own payment.
    rules = GameRules(criss_cross=criss_cross, ante=ante, five_card_bonus=fcb_table, six_card_bonus=six_table,
                      bonus_spin=spin)
    spins = spin is not None and best_segment is not None and bonus_spin_triggered(spin.trigger, hole)
    settlement = settle_round(rules, hole, across, down, (middle,), ante_minimum, (3, 3, 3),
                              five_card_bonus=five if fcb_table is not None else None, six_card=six,
                              bonus_spin_wager=spin.wager if spins else None,
                              wheel_symbol=best_segment.symbol if spins and best_segment is not None else None)
    counted = set(main_counted) | ({"five_card_bonus"} if fcb_table is not None else set()) \
        | ({"six_card_bonus"} if six is not None else set()) | ({"bonus_spin"} if spins else set())
    prize = Decimal(_spin_prize(spin)[1]) if spins else None

    def paid(line) -> Decimal:
        # a winning spin is paid its prize: the wager, collected win or lose where the data says so, is not deducted
        if line.wager == "bonus_spin" and prize is not None:
            return prize
        return max(line.net, Decimal(0))

    per_wager = {line.wager: paid(line) for line in settlement.lines if line.wager in counted}
    amount = sum((paid(line) for line in settlement.lines if line.wager in counted), Decimal(0))
    assert amount * unit == best, "the search and the game layer disagree on the maximum win"
    community = max((s.community or Decimal(0) for s in spin.segments), default=Decimal(0)) if spin else Decimal(0)
    if others and community > 0:
        # each other player's spin can land on the wheel's largest community pay, paid to this player too
        per_wager["bonus_spin_community"] = others * community
        amount += others * community
    hands = {"across": settlement.hands["across"], "down": settlement.hands["down"]}
    if spins and best_segment is not None:
        hands["bonus_spin"] = (f"{spin.trigger.replace('_', ' ')} spins the wheel: "
                               f"{'the top prize' if best_segment.pays is None else best_segment.symbol}")
    if "bonus_spin_community" in per_wager:
        hands["bonus_spin_community"] = (f"{others} other players' spins, each paying this player "
                                         f"{_show(community)}")
    for bonus in ("five_card_bonus", "six_card_bonus"):
        if bonus in settlement.hands:
            hands[bonus] = settlement.hands[bonus]
    return WinningRound(amount=amount, hands=hands, per_wager_win=per_wager,
                        cards=DealtCards(hole=format_cards(hole), across=format_cards(across), down=format_cards(down),
                                         middle=str(middle), six=format_cards(six) if six else None))
