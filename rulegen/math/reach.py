"""Which hand classes one deal can give together, for every paytable's maximum win at once (math layer).

The maximum win per round (`rulegen.math.maxwin`) depends on a deal only through its Across class, its Down
class, the class of the five community cards (the Five Card Bonus) and the best class the Six Card Bonus can
make with the hole cards and four of the 45 cards the deal leaves. `reach_table` finds, once, every (Across,
Down, five-card) triple some deal gives and the best Six Card Bonus class over those deals; the maximum win of
any paytable is then the best of its pays over at most 1,331 triples (`max_win_amount`), the figure
`maxwin.max_win_per_round` finds by its search, to the cent (tests compare them).

Every deal is visited once per starting hand class and across pair orbit (a suit permutation keeps every
class): 4.9 billion (hole, across, down, middle) deals. The Six Card Bonus class is 8, 9 or 10: four of a kind
is always open (seven cards dealt leave at least six ranks untouched), a straight flush (or royal) when one
holding a hole card has none of its other cards dealt; the six card table must pay a better class at least as
much, as `maxwin` also requires.
"""

from __future__ import annotations

import math
import threading
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from rulegen.game import money
from rulegen.math.cache import memoised as disk_memoised
from rulegen.math.deals import starting_hands

if TYPE_CHECKING:
    import numpy as np

_lock = threading.Lock()
_held: list[np.ndarray] = []


def compute_hand_reach_tables(threads: int | None = None) -> np.ndarray:
    """[169, 11, 11, 11]: each starting hand's reach table (in the order of deals.starting_hands()), the deals
    dealt it alone. The starting hands run on `threads` threads."""
    from concurrent.futures import ThreadPoolExecutor

    import numba
    import numpy as np

    from rulegen.math.exact import suit_permutations
    from rulegen.math.shared_kernels import hand_reach

    perms = suit_permutations()
    hands = starting_hands()
    first = hand_reach(hands[0].cards[0], hands[0].cards[1], perms)  # loads (or compiles) the kernel once
    workers = max(1, min(threads or numba.get_num_threads(), len(hands)))
    with ThreadPoolExecutor(workers) as pool:
        rest = list(pool.map(lambda hand: hand_reach(hand.cards[0], hand.cards[1], perms), hands[1:]))
    return np.stack([first, *rest]).astype(np.int8)


HAND_TABLES_VERSION = "hand-reach-1"  # bump when what the per-hand tables hold, or how they are stored, changes


@disk_memoised
def hand_reach_tables() -> np.ndarray:
    """The per-hand reach tables: read from the math cache when a checked entry is there, else computed (seconds,
    once per machine) and stored; held for the process (forgotten inside cache.fresh(), where nothing is read)."""
    import base64

    import numpy as np

    from rulegen.math import cache as disk
    from rulegen.math.shared import disk_lock

    shape = (len(starting_hands()), 11, 11, 11)
    key = disk.key("hand_reach_tables", HAND_TABLES_VERSION)
    with disk_lock("hand-reach"):  # processes beside this one wait for one to compute them
        found = disk.load(key)
        tables = None
        if isinstance(found, str):
            try:
                tables = np.frombuffer(base64.b64decode(found, validate=True), dtype=np.int8).reshape(shape)
            except ValueError:
                tables = None
        if tables is None or not np.all(np.isin(tables, (-1, 8, 9, 10))) \
                or not np.all((tables >= 0).any(axis=(1, 2, 3))):  # every hand reaches some classes
            tables = compute_hand_reach_tables()
            disk.store(key, base64.b64encode(tables.tobytes()).decode("ascii"))
    return tables


def triggering_reach(trigger: str) -> np.ndarray:
    """The reach table of the deals whose hole cards trigger the Bonus Spin (`trigger`, the game layer's rule)."""
    import numpy as np

    from rulegen.cards import Card
    from rulegen.game import bonus_spin_triggered

    tables = hand_reach_tables()
    spinning = [c for c, hand in enumerate(starting_hands())
                if bonus_spin_triggered(trigger, (Card(hand.cards[0]), Card(hand.cards[1])))]
    if not spinning:
        raise ValueError(f"no hole cards trigger the Bonus Spin ({trigger})")
    return tables[spinning].max(axis=0).astype(np.int64)


def reach_table() -> np.ndarray:
    """reach[a, d, f]: -1 where no deal gives Across class a, Down class d and five-card class f, else the best
    Six Card Bonus class over the deals that do. The per-hand tables' maximum (they are kept in the math cache),
    held for the process."""
    import numpy as np

    with _lock:
        if not _held:
            _held.append(hand_reach_tables().max(axis=0).astype(np.int64))
        return _held[0]


TRIGGERING_WIN_VERSION = "triggering-max-win-1"  # bump when what triggering_max_win counts changes


def triggering_max_win(rules, ante_minimum, five_card_bonus_minimum, counted: frozenset[str],
                       others: int) -> Decimal:
    """The most one player can win in a round whose hole cards trigger the Bonus Spin, apart from the spin's own
    prize (the maximum win's reading otherwise: `maxwin.max_win_per_round`), with the wheel's largest community pay
    from each of `others` other players. Kept in the math cache like a maximum win."""
    from rulegen.math import cache as disk
    from rulegen.math.maxwin import counted_wagers

    spin = rules.bonus_spin
    _, five, main_counted, fcb_table, six_table = counted_wagers(rules, ante_minimum, five_card_bonus_minimum,
                                                                counted)
    key = disk.key("triggering_max_win", TRIGGERING_WIN_VERSION, rules.criss_cross.canonical(), rules.ante.canonical(),
                   fcb_table.canonical() if fcb_table else None, six_table.canonical() if six_table else None,
                   str(Decimal(str(ante_minimum))), str(five), list(main_counted), spin.trigger,
                   [str(s.community) for s in spin.segments], others)
    found = disk.load(key)
    if isinstance(found, str):
        try:
            return Decimal(found)
        except ArithmeticError:
            pass
    win = max_win_amount(rules, ante_minimum, five_card_bonus_minimum, counted, reach=triggering_reach(spin.trigger))
    community = max((s.community or Decimal(0) for s in spin.segments), default=Decimal(0))
    if others and community > 0:
        win += others * community
    disk.store(key, str(win))
    return win


def max_win_amount(rules, ante_minimum, five_card_bonus_minimum=None, counted: frozenset[str] = frozenset(),
                   reach: np.ndarray | None = None) -> Decimal:
    """`maxwin.max_win_per_round(rules, ante_minimum, five_card_bonus_minimum, counted).amount`, from the reach
    table: the same reading (both antes at the minimum, every raise 3x; the bonuses counted as it counts them)."""
    import numpy as np

    if reach is None:
        reach = reach_table()
    from rulegen.math.maxwin import counted_wagers

    ante_minimum, five, main_counted, fcb_table, six_table = counted_wagers(rules, ante_minimum,
                                                                           five_card_bonus_minimum, counted)
    if ("ante_across" in main_counted) != ("ante_down" in main_counted) or \
            ("across" in main_counted) != ("down" in main_counted):
        raise ValueError("a payout limit that counts only one of the Across/Down wagers is not supported")
    tables = [rules.criss_cross, rules.ante] + ([fcb_table] if fcb_table else []) + ([six_table] if six_table else [])
    scale = math.lcm(*(Fraction(p).denominator for t in tables for p in t.payouts))
    unit = 100 * scale
    ante_units = int(ante_minimum * unit)

    def win(payout: Fraction, wager_units: int) -> int:
        return int(max(payout, Fraction(0)) * wager_units)

    hand = [(win(rules.ante.payout(k), ante_units) if "ante_across" in main_counted else 0)
            + (win(rules.criss_cross.payout(k), 3 * ante_units) if "across" in main_counted else 0)
            for k in range(11)]
    middle = [win(rules.criss_cross.payout(k), 3 * ante_units) if "middle" in main_counted else 0 for k in range(11)]
    bonus = [win(fcb_table.payout(k), int(five * unit)) if fcb_table is not None and five is not None else 0
             for k in range(11)]
    six = [win(six_table.payout(k), int(five * unit)) if six_table is not None and five is not None else 0
           for k in range(11)]
    if any(six[k] > six[k + 1] for k in range(10)):
        raise ValueError("the Six Card Bonus paytable pays a better hand less than a worse one: its maximum win "
                         "is not computed")
    a, d, f = np.nonzero(reach >= 0)
    if 5 * max(map(abs, hand + middle + bonus + six)) < 2 ** 62:  # exact in 64-bit integers
        totals = (np.array(hand, dtype=np.int64)[a] + np.array(hand, dtype=np.int64)[d]
                  + np.array(middle, dtype=np.int64)[np.maximum(a, d)] + np.array(bonus, dtype=np.int64)[f]
                  + np.array(six, dtype=np.int64)[reach[a, d, f]])
        best = int(totals.max())
    else:
        best = max(hand[i] + hand[j] + middle[max(i, j)] + bonus[k] + six[int(reach[i, j, k])]
                   for i, j, k in zip(a, d, f))
    return money(Fraction(int(best), unit))
