"""The main game's exact analysis and its Monte Carlo from the shared counts, with numpy alone (math layer).

`rulegen.math.shared` computes once per machine what the deals give whatever the paytables (the joint tables of
the middle cards, the kinds of across pair, each starting hand's across pairs), and keeps it in the math cache.
This module turns those counts into one paytable's `MainGameAnalysis`, every field equal to the exact analysis's
(`main_game._analyse`, which walks the deals again; tests compare them on several tables, exact fractions): the
Middle decision for each joint table and each (Across, Down) bet pair, the Down decision for each kind of across
pair, the Across decision for each starting hand, then the deals on the chosen path, from which the distribution,
the gross payouts, the decision frequencies and the ties follow. Every sum is an integer, with the same tie rule.

The Monte Carlo plays the rounds `montecarlo.simulate` deals (the same seeds, the same cards). What a round's play
and result depend on, whatever the paytables (its starting hand, its across pair in the frame of the hand's
representative, the joint table of its 46 middle cards, the cell of the middle card dealt), is found once beside
the counts (`MonteCarloDeals`, kept in the math cache and checked when read); each paytable's rounds are then
played by lookups into the decisions above, in the order they were dealt, so the result is the simulation's own
to the last bit. No compiled kernel is loaded once both are in the cache.
"""

from __future__ import annotations

import io
import math
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulegen.math.deals import DOWN_PAIRS, LEAVES_PER_HAND, MIDDLE_CARDS, starting_hands
from rulegen.math.shared import N_CLASSES, SharedCounts, arrays_digest, exact_payouts, store_arrays

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from rulegen.math.summary import PathTotals
    from rulegen.math.results import MainGameAnalysis, MonteCarloResult

DEALS_CODE_VERSION = "monte-carlo-deals-2"  # bump when what the deals hold, or how they are stored, changes
DEAL_DTYPES = {"hand": "uint8", "kind": "uint16", "table": "uint16", "cell": "uint8"}
DEAL_FIELDS = tuple(DEAL_DTYPES)
CHUNKS_AT_ONCE = 8  # rounds' joint tables held at once while the deals are found: 8 x 50,000 x 121 bytes


@dataclass(frozen=True, eq=False)
class CountTables:
    """The shared counts as the per-paytable arithmetic reads them."""
    counts: SharedCounts
    keys: np.ndarray  # [K, 121] int64: the joint tables
    across: np.ndarray  # [K, 11]: each joint table's middle cards by Across class
    down: np.ndarray  # [K, 11]: by Down class
    better: np.ndarray  # [K, 11]: by the better hand's class (what the Middle bet is paid on)
    cells: tuple[np.ndarray, np.ndarray, np.ndarray]  # the joint tables' nonzero cells: (table, cell, count)
    entry_type: np.ndarray  # [E]: the kind of across pair of each entry
    row_hand: np.ndarray  # [U]: the starting hand of each (hand, kind) row
    combinations: np.ndarray  # [169]


def tables_of(counts: SharedCounts) -> CountTables:
    import numpy as np

    keys = counts.keys.astype(np.int64)
    grid = keys.reshape(-1, N_CLASSES, N_CLASSES)
    better = np.zeros((keys.shape[0], N_CLASSES), dtype=np.int64)
    for a in range(N_CLASSES):
        for d in range(N_CLASSES):
            better[:, max(a, d)] += grid[:, a, d]
    n_types = counts.type_offsets.shape[0] - 1
    table, cell = np.nonzero(keys)
    return CountTables(
        counts=counts, keys=keys, across=grid.sum(axis=2), down=grid.sum(axis=1), better=better,
        cells=(table, cell, keys[table, cell]),
        entry_type=np.repeat(np.arange(n_types), np.diff(counts.type_offsets)),
        row_hand=np.repeat(np.arange(counts.hand_offsets.shape[0] - 1), np.diff(counts.hand_offsets)),
        combinations=np.array([h.combinations for h in starting_hands()], dtype=np.int64))


def _sums(index: np.ndarray, weights: np.ndarray, length: int) -> np.ndarray:
    """np.bincount of nonnegative integer weights, exact: every partial sum is below 2**53, where float64 holds each
    integer (checked), so the floating sums are the integers' own."""
    import numpy as np

    if weights.size and (int(weights.min()) < 0 or int(weights.sum(dtype=np.int64)) >= 2 ** 53):
        raise OverflowError("counts this large are not summed exactly")
    return np.rint(np.bincount(index, weights=weights.astype(np.float64), minlength=length)).astype(np.int64)


def _choose(fold, one, three):
    """(choice, value, tie) elementwise: the best of fold / 1x / 3x, the smaller wager on a tie (as the kernels)."""
    import numpy as np

    choice = np.where(one > fold, 1, 0)
    best = np.maximum(fold, one)
    choice = np.where(three > best, 3, choice)
    best = np.maximum(best, three)
    tie = ((choice == 0) & ((one == fold) | (three == fold))) | ((choice == 1) & (three == one))
    return choice, best, tie


@dataclass(frozen=True, eq=False)
class Decisions:
    """One paytable's strategy over the counts, and the totals of its path."""
    middle: np.ndarray  # [K, 4]: the Middle bet (0, 1, 3) per joint table and q = 2 * (b1 == 3) + (b2 == 3)
    down: np.ndarray  # [T, 2]: the Down bet per kind of across pair after Across 1x / 3x
    across: np.ndarray  # [169]: the Across bet per starting hand
    totals: PathTotals
    ante: np.ndarray  # [11] scaled payouts
    criss_cross: np.ndarray
    scale: int


def decide(tables: CountTables, criss_cross, ante) -> Decisions:
    """The strategy and the totals of its path for these Criss Cross and ante paytables."""
    import numpy as np

    from rulegen.math.summary import PathTotals, histogram_bounds

    payouts = exact_payouts(criss_cross, ante)
    an, cc, scale = payouts.ante, payouts.criss_cross, payouts.scale
    counts = tables.counts
    down_leaves = DOWN_PAIRS * MIDDLE_CARDS
    all_leaves = LEAVES_PER_HAND
    # --- the Middle decision per joint table and q: bet iff the best bet's value beats folding
    sa = (tables.across + tables.down) @ an
    sx, sd, sm = tables.across @ cc, tables.down @ cc, tables.better @ cc
    base = sa + sm + 2 * np.maximum(sm, 0)
    n_keys = tables.keys.shape[0]
    values = np.empty((n_keys, 4), dtype=np.int64)
    middle = np.empty((n_keys, 4), dtype=np.int64)
    middle_tie = np.empty((n_keys, 4), dtype=bool)
    for q in range(4):
        b1, b2 = 1 + 2 * (q >> 1), 1 + 2 * (q & 1)
        fold = -(2 + b1 + b2) * MIDDLE_CARDS * scale
        t = base + b1 * sx + b2 * sd
        bet = t > fold
        values[:, q] = np.where(bet, t, fold)
        middle[:, q] = np.where(bet, np.where(sm > 0, 3, 1), 0)
        middle_tie[:, q] = (t == fold) | (bet & (sm == 0))
    # --- the Down decision per kind (its down pairs' Middle values summed), then the Across decision per hand
    sums = np.add.reduceat(values[counts.type_key] * counts.type_count[:, None].astype(np.int64),
                           counts.type_offsets[:-1], axis=0)
    n_types = sums.shape[0]
    down = np.empty((n_types, 2), dtype=np.int64)
    down_best = np.empty((n_types, 2), dtype=np.int64)
    down_tie = np.empty((n_types, 2), dtype=bool)
    for j in range(2):
        fold = -(3 + 2 * j) * down_leaves * scale
        down[:, j], down_best[:, j], down_tie[:, j] = _choose(fold, sums[:, 2 * j], sums[:, 2 * j + 1])
    starts = counts.hand_offsets[:-1]
    ev = np.empty((starts.shape[0], 3), dtype=np.int64)
    ev[:, 0] = -2 * all_leaves * scale
    ev[:, 1] = np.add.reduceat(counts.hand_weight * down_best[counts.hand_type, 0], starts)
    ev[:, 2] = np.add.reduceat(counts.hand_weight * down_best[counts.hand_type, 1], starts)
    across, _best, across_tie = _choose(ev[:, 0], ev[:, 1], ev[:, 2])
    # --- the deals on the chosen path: per (hand, kind) row, then per kind and q, then per joint table and q
    net_low, net_size, gross_size = histogram_bounds(an, cc)
    net_hist = np.zeros(net_size, dtype=np.int64)
    gross_hist = np.zeros(gross_size, dtype=np.int64)

    def lose(amount: int, count: int) -> None:  # a fold: the wagers made lost, nothing paid
        net_hist[-amount * scale - net_low] += count
        gross_hist[0] += count

    lose(2, int(tables.combinations[across == 0].sum()) * all_leaves)
    b1 = across[tables.row_hand]
    j = (b1 == 3).astype(np.int64)
    weight = tables.combinations[tables.row_hand] * counts.hand_weight  # across pairs, by hole combinations
    b2 = down[counts.hand_type, j]
    on_path = b1 != 0
    down_counts = np.array([int(weight[on_path & (b2 == b)].sum()) for b in (0, 1, 3)], dtype=np.int64)
    ties = np.zeros(3, dtype=np.int64)
    ties[0] = int(tables.combinations[across_tie].sum())
    ties[1] = int(weight[on_path & down_tie[counts.hand_type, j]].sum())
    for bet in (1, 3):
        lose(2 + bet, int(weight[on_path & (b1 == bet) & (b2 == 0)].sum()) * down_leaves)
    raised = on_path & (b2 != 0)
    type_weight = _sums(counts.hand_type[raised] * 4 + 2 * j[raised] + (b2[raised] == 3), weight[raised],
                        n_types * 4).reshape(n_types, 4)
    key_weight = np.stack([_sums(counts.type_key, type_weight[tables.entry_type, q] * counts.type_count, n_keys)
                           for q in range(4)], axis=1)
    middle_counts = np.array([int(key_weight[middle == b].sum()) for b in (0, 1, 3)], dtype=np.int64)
    ties[2] = int(key_weight[middle_tie].sum())
    # joint outcomes on the path per (b1, b2, b3): the joint tables weighted by the pairs reaching them
    table, cell, count = tables.cells
    joint = [_sums(cell, (key_weight[:, q] * (middle[:, q] == b3))[table] * count, N_CLASSES * N_CLASSES)
             for q in range(4) for b3 in (1, 3)]
    ka, kd = np.divmod(np.arange(N_CLASSES * N_CLASSES), N_CLASSES)
    km = np.maximum(ka, kd)
    for q in range(4):
        bet1, bet2 = 1 + 2 * (q >> 1), 1 + 2 * (q & 1)
        lose(2 + bet1 + bet2, int(key_weight[middle[:, q] == 0, q].sum()) * MIDDLE_CARDS)
        for h, bet3 in enumerate((1, 3)):
            net = an[ka] + an[kd] + bet1 * cc[ka] + bet2 * cc[kd] + bet3 * cc[km]
            gross = (np.maximum(an[ka], 0) + np.maximum(an[kd], 0) + bet1 * np.maximum(cc[ka], 0)
                     + bet2 * np.maximum(cc[kd], 0) + bet3 * np.maximum(cc[km], 0))
            np.add.at(net_hist, net - net_low, joint[2 * q + h])
            np.add.at(gross_hist, gross, joint[2 * q + h])
    totals = PathTotals(across, ev, down_counts, middle_counts, ties, net_hist, gross_hist, scale, net_low)
    return Decisions(middle, down, across, totals, an, cc, scale)


def analysis(tables: CountTables, criss_cross, ante, deals: DealIndex | None = None,
             seed: int = 0) -> MainGameAnalysis:
    """The exact analysis of the main game from the counts; with `deals`, its Monte Carlo too."""
    from dataclasses import replace

    from rulegen.math.summary import summarise_totals

    decisions = decide(tables, criss_cross, ante)
    result = summarise_totals(criss_cross, ante, decisions.totals)
    if deals is not None:
        result = replace(result, monte_carlo=monte_carlo(tables, deals, decisions, result.ev_per_ante, seed))
    return result


def monte_carlo(tables: CountTables, deals: DealIndex, decisions: Decisions, exact_ev,
                seed: int) -> MonteCarloResult:
    """The Monte Carlo's rounds played under the decisions, as `montecarlo.simulate` plays them: each round's
    result is a lookup by what it reached (folded at Across, at Down after 1x / 3x, or the Middle decision after
    (b1, b2)), the Middle bet its joint table calls for, and the cell of its middle card."""
    import numpy as np

    from rulegen.math.montecarlo import summarise_nets

    an, cc, scale = decisions.ante, decisions.criss_cross, decisions.scale
    # reached[c, t]: 0 folded at Across, 1 + j folded at Down after Across 1x / 3x, else 3 + q (q the bets)
    j = (decisions.across == 3).astype(np.int64)[:, None]
    b2 = decisions.down.T[j[:, 0]]  # [169, T]: the Down bet after the hand's Across bet
    reached = np.where(decisions.across[:, None] == 0, 0,
                       np.where(b2 == 0, 1 + j, 3 + 2 * j + (b2 == 3))).astype(np.int8)
    reached = reached.reshape(-1)[deals.hand_kind]
    middle = np.searchsorted(np.array([0, 1, 3]), decisions.middle).astype(np.int8).reshape(-1)  # 0, 1, 2
    paid_with = middle[deals.table_row + np.maximum(reached - 3, 0)]
    # net[reached, Middle bet, cell]: a fold loses the wagers made whatever the cards
    net = np.empty((7, 3, N_CLASSES * N_CLASSES), dtype=np.int64)
    ka, kd = np.divmod(np.arange(N_CLASSES * N_CLASSES), N_CLASSES)
    net[0] = -2 * scale
    net[1], net[2] = -3 * scale, -5 * scale
    for q in range(4):
        b1, b2_bet = 1 + 2 * (q >> 1), 1 + 2 * (q & 1)
        net[3 + q, 0] = -(2 + b1 + b2_bet) * scale
        for h, b3 in ((1, 1), (2, 3)):
            net[3 + q, h] = an[ka] + an[kd] + b1 * cc[ka] + b2_bet * cc[kd] + b3 * cc[np.maximum(ka, kd)]
    where = (reached.astype(np.int32) * 3 + paid_with) * (N_CLASSES * N_CLASSES) + deals.cell
    return summarise_nets(net.reshape(-1)[where], scale, exact_ev, deals.rounds, seed)


# --- the Monte Carlo's deals, found once and kept beside the counts ---------------------------------------------

@dataclass(frozen=True, eq=False)
class MonteCarloDeals:
    """Per round dealt (in order): the starting hand (index into deals.starting_hands()), the kind of its across
    pair (in the shared counts), the joint table of its 46 middle cards (a row of the counts' keys) and the cell
    11 * Across class + Down class of the middle card dealt."""
    hand: np.ndarray  # [rounds] uint8
    kind: np.ndarray  # [rounds] uint16
    table: np.ndarray  # [rounds] uint16
    cell: np.ndarray  # [rounds] uint8

    def check(self, counts: SharedCounts, rounds: int) -> None:
        """Raise ValueError unless every round is one the counts can play: its across pair of a kind its starting
        hand has, its joint table one of theirs, its middle card's cell one its table counts."""
        import numpy as np

        for name, dtype in DEAL_DTYPES.items():
            array = getattr(self, name)
            if array.shape != (rounds,) or array.dtype.name != dtype:
                raise ValueError("the Monte Carlo's deals are not shaped as they should be")
        n_types = counts.type_offsets.shape[0] - 1
        if self.hand.max() >= counts.pair_type.shape[0] or self.kind.max() >= n_types \
                or self.table.max() >= counts.keys.shape[0] or self.cell.max() >= N_CLASSES * N_CLASSES:
            raise ValueError("a round of the Monte Carlo's deals names nothing the counts hold")
        has = np.zeros((counts.pair_type.shape[0], n_types), dtype=bool)
        has[np.repeat(np.arange(counts.hand_offsets.shape[0] - 1), np.diff(counts.hand_offsets)),
            counts.hand_type] = True
        if not has.reshape(-1)[self.hand_kind(n_types)].all() or (counts.keys[self.table, self.cell] == 0).any():
            raise ValueError("a round of the Monte Carlo's deals is not a deal")

    def hand_kind(self, n_types: int) -> np.ndarray:
        import numpy as np

        return self.hand.astype(np.int32) * n_types + self.kind

    def digest(self) -> str:
        return arrays_digest(self, DEAL_FIELDS)


@dataclass(frozen=True, eq=False)
class DealIndex:
    """The deals as the play reads them: per round, the row of its (starting hand, kind) in a [169, T] table, the
    first of its joint table's four entries in a [K, 4] table, and its middle card's cell."""
    hand_kind: np.ndarray  # [rounds] int32
    table_row: np.ndarray  # [rounds] int32
    cell: np.ndarray  # [rounds] uint8
    rounds: int


def index_of(deals: MonteCarloDeals, counts: SharedCounts) -> DealIndex:
    import numpy as np

    return DealIndex(deals.hand_kind(counts.type_offsets.shape[0] - 1), deals.table.astype(np.int32) * 4, deals.cell,
                     deals.hand.shape[0])



def compute_deals(counts: SharedCounts, rounds: int, seed: int) -> MonteCarloDeals:
    """Deal the Monte Carlo's rounds (`montecarlo.simulate`'s seeds and cards) and describe each (seconds)."""
    import numpy as np

    from rulegen.evaluator import strength_arrays
    from rulegen.math.deals import pair_index
    from rulegen.math.mc_kernels import deal_features
    from rulegen.math.montecarlo import class_tables, hole_frames

    if counts.type_offsets.shape[0] > 2 ** 16 or counts.keys.shape[0] > 2 ** 16:  # before seconds of dealing
        raise ValueError("more kinds of across pair or joint tables than the deals can name")
    frames = hole_frames()
    card_key, card_bit = strength_arrays()[:2]
    nonflush_class, flush_class = class_tables()
    per_chunk = 50_000 if rounds >= 50_000 else rounds
    chunks = max(1, math.ceil(rounds / per_chunk))
    width = N_CLASSES * N_CLASSES
    row = np.dtype((np.void, width))
    known = np.ascontiguousarray(counts.keys).view(row).reshape(-1)
    parts: list[tuple[np.ndarray, ...]] = []
    for first in range(0, chunks, CHUNKS_AT_ONCE):
        hand, across, found, cell = deal_features(seed, first, min(CHUNKS_AT_ONCE, chunks - first), per_chunk,
                                                  frames.hand, frames.card_map, pair_index(), card_key, card_bit,
                                                  nonflush_class, flush_class)
        found = np.ascontiguousarray(found)
        table = np.minimum(np.searchsorted(known, found.view(row).reshape(-1)), known.shape[0] - 1)
        if not np.array_equal(counts.keys[table], found):
            raise ValueError("a round dealt has a joint table the shared counts do not hold")
        parts.append((hand, counts.pair_type[hand, across], table, cell))
    deals = MonteCarloDeals(*(np.concatenate([part[i] for part in parts])[:rounds].astype(dtype)
                              for i, dtype in enumerate(DEAL_DTYPES.values())))
    deals.check(counts, rounds)
    return deals


def _deals_key(counts: SharedCounts, rounds: int, seed: int) -> str:
    from rulegen.math import cache as disk

    return disk.key("monte_carlo_deals", DEALS_CODE_VERSION, rounds, seed, counts.digest())


def _deals_path(entry_key: str) -> Path:
    from rulegen.math import cache as disk

    return disk.cache_dir() / f"monte-carlo-deals-{entry_key[:32]}.npz"


def load_deals(counts: SharedCounts, rounds: int, seed: int) -> MonteCarloDeals | None:
    """The deals from the math cache when a whole, checked copy written for these counts, rounds and seed is
    there; else None."""
    import numpy as np

    from rulegen.math import cache as disk
    from rulegen.safeio import UnsafeFile, read_regular

    if not disk.reading():
        return None
    entry_key = _deals_key(counts, rounds, seed)
    try:
        data = read_regular(_deals_path(entry_key), 256 * 1024 * 1024)
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            deals = MonteCarloDeals(**{name: stored[name] for name in DEAL_FIELDS})
            recorded, written_for = str(stored["digest"]), str(stored["key"])
        if written_for != entry_key or deals.digest() != recorded:
            return None
        deals.check(counts, rounds)
        return deals
    except (UnsafeFile, OSError, ValueError, KeyError, TypeError, IndexError, EOFError, zipfile.BadZipFile):
        return None  # a copy that does not read back whole is dealt again


def store_deals(counts: SharedCounts, deals: MonteCarloDeals, rounds: int, seed: int) -> None:
    entry_key = _deals_key(counts, rounds, seed)
    store_arrays(_deals_path(entry_key), entry_key, deals.digest(),
                 {name: getattr(deals, name) for name in DEAL_FIELDS})


_lock = threading.Lock()
_held: dict[object, object] = {}


def held_tables(progress: Callable[[int, int], None] | None = None) -> CountTables:
    """The counts (read from the math cache, or computed there once per machine), prepared, held for the process."""
    from rulegen.math.shared import shared_counts

    counts = shared_counts(progress)
    with _lock:
        found = _held.get("tables")
        if not isinstance(found, CountTables) or found.counts is not counts:
            found = tables_of(counts)
            _held.clear()
            _held["tables"] = found
        return found


def held_deals(tables: CountTables, rounds: int, seed: int) -> DealIndex:
    """The Monte Carlo's deals for these counts (read from the math cache, or dealt once and kept there)."""
    from rulegen.math.shared import disk_lock

    with _lock:
        found = _held.get(("deals", rounds, seed))
        if isinstance(found, tuple) and found[0] is tables.counts:  # held for these very counts
            return found[1]
        with disk_lock("monte-carlo-deals"):
            deals = load_deals(tables.counts, rounds, seed)
            if deals is None:
                deals = compute_deals(tables.counts, rounds, seed)
                store_deals(tables.counts, deals, rounds, seed)
        index = index_of(deals, tables.counts)
        _held[("deals", rounds, seed)] = (tables.counts, index)
        return index


def forget() -> None:
    """Drop what this process holds (tests)."""
    with _lock:
        _held.clear()
