"""The main game's shared counts: every paytable's exact analysis from one table of counts (math layer).

The exact analysis (`rulegen.math.exact`) walks the deals again for each paytable. But what the deals give is
the same for every paytable: at the Middle decision (the hole cards, the Across pair and the Down pair seen),
the 46 middle cards give each joint outcome (Across class, Down class) some number of times, and that joint
table is all the decision and the results depend on. Only the payouts, and so the decisions, change.

So the counts are computed once (`shared_counts`): per starting hand (169 classes) and across pair (one per
suit orbit, 93,769 in all, weighted by the orbit's size), the distinct joint tables its 1,128 down pairs
have and how many down pairs have each (about 26 per across pair), over 14,696 distinct joint tables in all.
Across pairs with the same entries, of whatever starting hand, are one kind (5,453 kinds, 197,405 entries), and
each starting hand counts its across pairs of each kind. A paytable's analysis (`figures`) is then: the Middle
decision for each joint table and each (Across, Down) bet pair; the Down decision for each kind from the sums
of its entries; the Across decision per starting hand from its kinds; and the joint outcomes on the chosen
path, from which the result's distribution, its variance and hit frequency follow. Every sum is an integer, as
in the exact analysis, with the same tie rule, so every figure is the exact analysis's own to the last digit
(tests compare them on several tables; the counts themselves are checked against the evaluator's classes).

The counts take 6 to 12 s to compute on two cores and a few megabytes to hold; they are kept in memory for the
process and on disk beside the math cache (`RULEGEN_CACHE_DIR`), checked when read back (a SHA-256 of the
arrays and the totals: every deal counted once).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from rulegen.math.results import MainGameRates
from rulegen.math.summary import CHOICE_COLUMN, CHOICE_NAMES
from rulegen.math.deals import (
    ACROSS_PAIRS, DOWN_PAIRS, LEAVES_PER_HAND, MIDDLE_CARDS, N_PAIRS, TOTAL_DEALS, across_orbits, integer_payouts,
    starting_hands,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import numpy as np

CODE_VERSION = "shared-counts-3"  # bump when what the counts hold, or how they are stored, changes
N_CLASSES = 11
INT64_MAX = 2 ** 63 - 1


FIELDS = ("keys", "type_offsets", "type_key", "type_count", "hand_offsets", "hand_type", "hand_weight", "pair_type")


@dataclass(frozen=True, eq=False)
class SharedCounts:
    """The paytable-independent counts of the main game (see the module's docstring).

    A joint table is a row of `keys`: 121 counts, how many of the 46 middle cards give Across class a and Down
    class d, at 11 * a + d. A kind of across pair t says that `type_count[e]` of its 1,128 down pairs have joint
    table `type_key[e]`, for e in `type_offsets[t]:type_offsets[t + 1]` (many across pairs of many starting
    hands share a kind: 93,769 across pairs, about 5,500 kinds). Starting hand c (in the order of
    `deals.starting_hands()`) has `hand_weight[u]` across pairs of kind `hand_type[u]`, for u in
    `hand_offsets[c]:hand_offsets[c + 1]`; `pair_type[c, p]` is the kind of the across pair p (a card pair's index,
    as in `deals.pair_index`) dealt with the starting hand's representative hole cards, -1 where p holds one."""
    keys: np.ndarray  # [K, 121] uint8, in increasing order of the rows
    type_offsets: np.ndarray  # [T + 1] int64
    type_key: np.ndarray  # [E] int32, increasing within a kind
    type_count: np.ndarray  # [E] int32
    hand_offsets: np.ndarray  # [170] int64
    hand_type: np.ndarray  # [U] int32, increasing within a hand
    hand_weight: np.ndarray  # [U] int64
    pair_type: np.ndarray  # [169, 1326] int32

    def check(self) -> None:
        """Raise ValueError unless the counts are whole: every deal counted once, every table of 46 cards."""
        import numpy as np

        hands = starting_hands()
        n_types = self.type_offsets.shape[0] - 1
        if self.hand_offsets.shape != (len(hands) + 1,) or self.hand_offsets[0] != 0 \
                or self.hand_offsets[-1] != self.hand_type.shape[0] or self.hand_weight.shape != self.hand_type.shape \
                or self.type_offsets.ndim != 1 or n_types < 1 or self.type_offsets[0] != 0 \
                or self.type_offsets[-1] != self.type_key.shape[0] or self.type_count.shape != self.type_key.shape \
                or self.keys.ndim != 2 or self.keys.shape[1] != N_CLASSES * N_CLASSES:
            raise ValueError("the shared counts are not shaped as they should be")
        if np.any(np.diff(self.hand_offsets) <= 0) or np.any(np.diff(self.type_offsets) <= 0):
            raise ValueError("the shared counts have an empty starting hand or kind of across pair")
        if not np.all(self.keys.sum(axis=1, dtype=np.int64) == MIDDLE_CARDS):
            raise ValueError("a joint table of the shared counts does not count 46 middle cards")
        if self.type_key.min() < 0 or self.type_key.max() >= self.keys.shape[0] or self.type_count.min() <= 0:
            raise ValueError("an entry of the shared counts names no joint table")
        if self.hand_type.min() < 0 or self.hand_type.max() >= n_types or self.hand_weight.min() <= 0:
            raise ValueError("a starting hand of the shared counts names no kind of across pair")
        per_type = np.add.reduceat(self.type_count.astype(np.int64), self.type_offsets[:-1])
        if not np.all(per_type == DOWN_PAIRS):
            raise ValueError("a kind of across pair of the shared counts does not count 1,128 down pairs")
        per_hand = np.add.reduceat(self.hand_weight, self.hand_offsets[:-1])
        if not np.all(per_hand == ACROSS_PAIRS):
            raise ValueError("a starting hand of the shared counts does not count 1,225 across pairs")
        self._check_pair_types(hands, n_types)
        if sum(h.combinations for h in hands) * ACROSS_PAIRS * DOWN_PAIRS * MIDDLE_CARDS != TOTAL_DEALS:
            raise ValueError("the shared counts do not count every deal")

    def _check_pair_types(self, hands, n_types: int) -> None:
        """Each starting hand's across pairs, kind by kind, are the hand's weights; the pairs holding a hole card
        have none."""
        import numpy as np

        from rulegen.math.deals import N_PAIRS, pair_index

        if self.pair_type.shape != (len(hands), N_PAIRS) or self.pair_type.max() >= n_types:
            raise ValueError("the shared counts' kinds of across pair are not shaped as they should be")
        index = pair_index()
        for c, hand in enumerate(hands):
            row = self.pair_type[c]
            held = np.unique(index[list(hand.cards)])
            held = held[held >= 0]
            if np.any(row[held] != -1) or np.count_nonzero(row >= 0) != ACROSS_PAIRS:
                raise ValueError("a starting hand's across pairs in the shared counts hold its hole cards")
            kinds, weights = np.unique(row[row >= 0], return_counts=True)
            start, end = self.hand_offsets[c], self.hand_offsets[c + 1]
            if not (np.array_equal(kinds, self.hand_type[start:end])
                    and np.array_equal(weights, self.hand_weight[start:end])):
                raise ValueError("a starting hand's across pairs in the shared counts are not its kinds' weights")

    def digest(self) -> str:
        """SHA-256 of the counts: equal on every machine that computes them."""
        return arrays_digest(self, FIELDS)


def compute_shared_counts(threads: int | None = None,
                          progress: Callable[[int, int], None] | None = None) -> SharedCounts:
    """Compute the shared counts (tens of seconds), the starting hands on `threads` threads (default: numba's
    thread count). The result does not depend on the threads or their order: each hand's joint tables are
    found apart, then all of them are put in the order of their rows, and the kinds of across pair in the
    order of their entries."""
    from concurrent.futures import ThreadPoolExecutor

    import numba
    import numpy as np

    from rulegen.math.exact import suit_permutations
    from rulegen.math.shared_kernels import hand_counts

    hands = starting_hands()
    perms = suit_permutations()
    first = hand_counts(hands[0].cards[0], hands[0].cards[1], perms)  # loads (or compiles) the kernel once
    done = 1
    if progress is not None:
        progress(1, len(hands))

    def one(hand):
        return hand_counts(hand.cards[0], hand.cards[1], perms)

    workers = max(1, min(threads or numba.get_num_threads(), len(hands)))
    results = [first]
    with ThreadPoolExecutor(workers) as pool:
        for result in pool.map(one, hands[1:]):
            results.append(result)
            done += 1
            if progress is not None:
                progress(done, len(hands))
    keys, inverse = np.unique(np.concatenate([r[1] for r in results]), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int32)
    # every across pair's entries in the global joint tables' numbering, sorted by table: its kind
    kinds: dict[bytes, int] = {}
    found: list[tuple[np.ndarray, np.ndarray]] = []
    per_hand: list[tuple[np.ndarray, np.ndarray]] = []
    key_base = 0
    for weight, hand_keys, offsets, ekey, ecount, _pairs in results:
        global_keys = inverse[key_base + ekey]
        key_base += hand_keys.shape[0]
        local_types = np.empty(weight.shape[0], dtype=np.int64)
        for r in range(weight.shape[0]):
            k = global_keys[offsets[r]:offsets[r + 1]]
            n = ecount[offsets[r]:offsets[r + 1]]
            by_key = np.argsort(k, kind="stable")
            k, n = k[by_key], n[by_key]
            signature = k.tobytes() + n.tobytes()
            if signature not in kinds:
                kinds[signature] = len(found)
                found.append((k, n))
            local_types[r] = kinds[signature]
        per_hand.append((local_types, weight))
    # the kinds in the order of their entries (keys, then counts), so the numbering is the counts' own
    order = sorted(range(len(found)), key=lambda t: (found[t][0].tolist(), found[t][1].tolist()))
    renumber = np.empty(len(found), dtype=np.int64)
    renumber[np.array(order, dtype=np.int64)] = np.arange(len(found))
    type_offsets = np.zeros(len(found) + 1, dtype=np.int64)
    type_offsets[1:] = np.cumsum([found[t][0].shape[0] for t in order])
    hand_offsets = [0]
    hand_type, hand_weight = [], []
    pair_type = np.full((len(hands), N_PAIRS), -1, dtype=np.int32)
    for c, (local_types, weight) in enumerate(per_hand):
        numbered = renumber[local_types]
        # every across pair is of its orbit's kind: the kernel's representative's, spread over the orbit
        canonical = across_orbits(hands[c]).canonical
        by_orbit = np.full(N_PAIRS, -1, dtype=np.int64)
        by_orbit[canonical[results[c][5]]] = numbered
        valid = canonical >= 0
        pair_type[c, valid] = by_orbit[canonical[valid]]
        unique, where = np.unique(numbered, return_inverse=True)
        hand_type.append(unique)
        hand_weight.append(np.bincount(where.reshape(-1), weights=weight, minlength=unique.shape[0]).astype(np.int64))
        hand_offsets.append(hand_offsets[-1] + unique.shape[0])
    counts = SharedCounts(
        keys=np.ascontiguousarray(keys, dtype=np.uint8),
        type_offsets=type_offsets,
        type_key=np.concatenate([found[t][0] for t in order]).astype(np.int32),
        type_count=np.concatenate([found[t][1] for t in order]).astype(np.int32),
        hand_offsets=np.array(hand_offsets, dtype=np.int64),
        hand_type=np.concatenate(hand_type).astype(np.int32),
        hand_weight=np.concatenate(hand_weight).astype(np.int64),
        pair_type=pair_type,
    )
    counts.check()
    return counts


# --- kept for the process and on disk ---------------------------------------------------------------------------

_lock = threading.Lock()
_held: list[SharedCounts] = []


def _disk_key() -> str:
    from rulegen.math import cache as disk

    return disk.key("shared_counts", CODE_VERSION)


def _disk_path() -> Path:
    from rulegen.math import cache as disk

    return disk.cache_dir() / f"shared-counts-{_disk_key()[:32]}.npz"


def _load_disk() -> SharedCounts | None:
    import numpy as np

    from rulegen.math import cache as disk
    from rulegen.safeio import UnsafeFile, read_regular

    if not disk.reading():
        return None
    try:
        data = read_regular(_disk_path(), 256 * 1024 * 1024)
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            counts = SharedCounts(**{name: stored[name] for name in FIELDS})
            recorded = str(stored["digest"])
            written_for = str(stored["key"])
        if written_for != _disk_key() or counts.digest() != recorded:  # another version's file, or altered
            return None
        counts.check()
        return counts
    except (UnsafeFile, OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        return None  # a copy that does not read back whole is computed again


def arrays_digest(holder: object, names: tuple[str, ...]) -> str:
    """SHA-256 over the named arrays of `holder`, each with its name, type and shape: what a cache file of them is
    checked against when read."""
    sha = hashlib.sha256()
    for name in names:
        array = getattr(holder, name)
        sha.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        sha.update(array.tobytes())
    return sha.hexdigest()


def store_arrays(target: Path, key: str, digest: str, arrays: dict) -> None:
    """One cache file of arrays with the key it was written for and its digest, written whole or not at all (a
    temporary file renamed into place); a cache that cannot be written is skipped."""
    import numpy as np

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".tmp-", suffix=".npz", dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, key=np.array(key), digest=np.array(digest), **arrays)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except OSError:
        pass


def _store_disk(counts: SharedCounts) -> None:
    store_arrays(_disk_path(), _disk_key(), counts.digest(), {name: getattr(counts, name) for name in FIELDS})


def shared_counts(progress: Callable[[int, int], None] | None = None, *, use_cache: bool = True) -> SharedCounts:
    """The shared counts: held once per process; read from the disk cache when a whole, checked copy is there
    (and `use_cache`), else computed and stored."""
    with _lock:
        if _held:
            return _held[0]
        if not use_cache:
            counts = compute_shared_counts(progress=progress)
        else:
            with disk_lock("shared-counts"):  # processes beside this one (local workers) wait for one to compute them
                stored = _load_disk()
                if stored is None:
                    counts = compute_shared_counts(progress=progress)
                    _store_disk(counts)
                else:
                    counts = stored
        _held.append(counts)
        return counts


@contextlib.contextmanager
def disk_lock(name: str) -> Iterator[None]:
    """An exclusive lock on the cache folder's lock file `name`.lock (while one process computes what the others
    will read from the cache); none where it cannot be taken."""
    try:
        import fcntl
    except ImportError:  # not POSIX: each process computes its own
        yield
        return
    from rulegen.math import cache as disk

    path = disk.cache_dir() / f"{name}.lock"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()


def forget() -> None:
    """Drop the counts this process holds (tests)."""
    with _lock:
        _held.clear()


# --- one paytable's figures -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MainGameFigures(MainGameRates):
    """The main game's exact figures for one paytable, per unit of one ante: each equal to the exact analysis's
    (`rulegen.math.results.MainGameAnalysis`) field of the same name."""
    ev_per_ante: Fraction
    average_total_wager_exact: Fraction
    hit_frequency_exact: Fraction
    variance: Fraction
    across_decision: dict[str, str]
    ev_per_hand: tuple[tuple[int, int, int], ...]  # per starting hand: results summed for fold / 1x / 3x (scaled)
    scale: int


@dataclass(frozen=True, eq=False)
class PreparedCounts:
    """The shared counts as the per-paytable kernel reads them, with its scratch arrays (one per thread)."""
    counts: SharedCounts
    marginals: np.ndarray  # [K, 3, 11]: Across, Down and better-hand class counts of each joint table
    cells: np.ndarray  # [K, m] the nonzero cells of each joint table, -1 after the last
    cell_counts: np.ndarray  # [K, m]
    combinations: np.ndarray  # [169]


def prepare(counts: SharedCounts) -> PreparedCounts:
    import numpy as np

    keys = counts.keys.astype(np.int64).reshape(-1, N_CLASSES, N_CLASSES)
    marginals = np.zeros((keys.shape[0], 3, N_CLASSES), dtype=np.int64)
    marginals[:, 0] = keys.sum(axis=2)
    marginals[:, 1] = keys.sum(axis=1)
    for a in range(N_CLASSES):
        for d in range(N_CLASSES):
            marginals[:, 2, max(a, d)] += keys[:, a, d]
    flat = counts.keys.reshape(keys.shape[0], -1)
    width = int((flat > 0).sum(axis=1).max())
    cells = np.full((keys.shape[0], width), -1, dtype=np.int64)
    cell_counts = np.zeros((keys.shape[0], width), dtype=np.int64)
    for k in range(keys.shape[0]):
        nonzero = np.nonzero(flat[k])[0]
        cells[k, :nonzero.shape[0]] = nonzero
        cell_counts[k, :nonzero.shape[0]] = flat[k, nonzero]
    combinations = np.array([h.combinations for h in starting_hands()], dtype=np.int64)
    return PreparedCounts(counts, marginals, cells, cell_counts, combinations)


_scratch = threading.local()


def exact_payouts(criss_cross, ante):
    """The paytables' payouts as integers on one scale (`integer_payouts`), refused where the Middle bet is undefined
    (a better hand paid less) or where a hand's sums could overflow 64 bits."""
    import numpy as np

    if not criss_cross.is_monotone():
        raise ValueError("the Criss Cross paytable pays less for a better hand; the Middle bet is undefined")
    payouts = integer_payouts(criss_cross, ante)
    largest = 2 * int(np.abs(payouts.ante).max()) + 9 * int(np.abs(payouts.criss_cross).max()) + 9 * payouts.scale
    if LEAVES_PER_HAND * largest > INT64_MAX:
        raise OverflowError("payouts this large overflow the exact 64-bit sums")
    return payouts


def figures(prepared: PreparedCounts, criss_cross, ante) -> MainGameFigures:
    """The exact figures of the main game under these Criss Cross and ante paytables, from the shared counts."""
    import numpy as np

    from rulegen.math.shared_kernels import evaluate

    payouts = exact_payouts(criss_cross, ante)
    an, cc, scale = payouts.ante, payouts.criss_cross, payouts.scale
    counts = prepared.counts
    n_keys, n_types = counts.keys.shape[0], counts.type_offsets.shape[0] - 1
    scratch = getattr(_scratch, "arrays", None)
    if scratch is None or scratch[0].shape[0] != n_keys or scratch[3].shape[0] != n_types:
        scratch = (np.zeros((n_keys, 4), dtype=np.int64), np.zeros((n_keys, 4), dtype=np.int64),
                   np.zeros((n_keys, 4), dtype=np.int64), np.zeros((n_types, 4), dtype=np.int64),
                   np.zeros((n_types, 4), dtype=np.int64))
        _scratch.arrays = scratch
    ev1, across, joint, folds, wagered = evaluate(
        prepared.marginals, prepared.cells, prepared.cell_counts, prepared.combinations, counts.hand_offsets,
        counts.hand_type, counts.hand_weight, counts.type_offsets, counts.type_key, counts.type_count,
        np.ascontiguousarray(an, dtype=np.int64), np.ascontiguousarray(cc, dtype=np.int64), scale, *scratch)
    return _summarise(ev1, across, joint, folds, int(wagered), [int(v) for v in an], [int(v) for v in cc], scale)


def _summarise(ev1, across, joint, folds, wagered: int, an: list[int], cc: list[int], scale: int) -> MainGameFigures:
    hands = starting_hands()
    ev_sum = 0
    decisions = {}
    for c, hand in enumerate(hands):
        choice = int(across[c])
        ev_sum += hand.combinations * int(ev1[c, CHOICE_COLUMN[choice]])
        decisions[hand.name] = CHOICE_NAMES[choice]
    ev = Fraction(ev_sum, scale * TOTAL_DEALS)
    # the distribution: the folds, then every joint outcome on the path under its bets
    outcomes: dict[int, int] = {}

    def add(net: int, count: int) -> None:
        if count:
            outcomes[net] = outcomes.get(net, 0) + count

    add(-2 * scale, int(folds[0]))
    add(-3 * scale, int(folds[1]))
    add(-5 * scale, int(folds[2]))
    for g1 in range(2):
        b1 = 1 + 2 * g1
        for g2 in range(2):
            b2 = 1 + 2 * g2
            for g3 in range(2):
                b3 = 1 + 2 * g3
                row = joint[g1, g2, g3]
                for cell in range(N_CLASSES * N_CLASSES):
                    count = int(row[cell])
                    if count:
                        ka, kd = divmod(cell, N_CLASSES)
                        add(an[ka] + an[kd] + b1 * cc[ka] + b2 * cc[kd] + b3 * cc[max(ka, kd)], count)
    for q in range(4):  # folded at the Middle decision: the antes and both raises lost
        add(-(2 + (1 + 2 * (q >> 1)) + (1 + 2 * (q & 1))) * scale, int(folds[3 + q]))
    total = sum(outcomes.values())
    assert total == TOTAL_DEALS, "the shared counts' distribution does not count every deal"
    mean = Fraction(sum(v * c for v, c in outcomes.items()), scale * TOTAL_DEALS)
    assert mean == ev, "the distribution and the decision values disagree"
    second = Fraction(sum(v * v * c for v, c in outcomes.items()), scale * scale * TOTAL_DEALS)
    return MainGameFigures(
        ev_per_ante=ev,
        average_total_wager_exact=Fraction(2 * TOTAL_DEALS + wagered, TOTAL_DEALS),
        hit_frequency_exact=Fraction(sum(c for v, c in outcomes.items() if v > 0), TOTAL_DEALS),
        variance=second - mean * mean,
        across_decision=decisions,
        ev_per_hand=tuple((int(ev1[c, 0]), int(ev1[c, 1]), int(ev1[c, 2])) for c in range(len(hands))),
        scale=scale,
    )
