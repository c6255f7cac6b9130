"""Compiled (numba) five-card evaluation over arrays, and the exhaustive class counts the bonus tables use.

The tables come from `rulegen.evaluator` (one source of truth); here they are passed as arrays to
functions compiled with `cache=True`, so the compile cost is paid once per machine.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from rulegen.evaluator import strength_arrays


@intrinsic
def popcount(typingctx, value):
    """The number of set bits of an int64 (one `popcnt` instruction)."""
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@njit(inline="always")
def eval5(a, b, c, d, e, card_key, card_bit, nonflush, flush):
    # One well-predicted branch: the suits seen, as bits, form a single bit only for a flush.
    suits = (1 << (a & 3)) | (1 << (b & 3)) | (1 << (c & 3)) | (1 << (d & 3)) | (1 << (e & 3))
    if (suits & (suits - 1)) == 0:
        return flush[card_bit[a] | card_bit[b] | card_bit[c] | card_bit[d] | card_bit[e]]
    return nonflush[card_key[a] + card_key[b] + card_key[c] + card_key[d] + card_key[e]]


@njit(cache=True)
def _evaluate_rows(hands, out, card_key, card_bit, nonflush, flush):
    # The body of eval5 written out: numba leaves a called helper un-vectorised here (about 10x slower).
    for i in range(hands.shape[0]):
        a = np.int64(hands[i, 0])
        b = np.int64(hands[i, 1])
        c = np.int64(hands[i, 2])
        d = np.int64(hands[i, 3])
        e = np.int64(hands[i, 4])
        suits = (1 << (a & 3)) | (1 << (b & 3)) | (1 << (c & 3)) | (1 << (d & 3)) | (1 << (e & 3))
        if (suits & (suits - 1)) == 0:
            out[i] = flush[card_bit[a] | card_bit[b] | card_bit[c] | card_bit[d] | card_bit[e]]
        else:
            out[i] = nonflush[card_key[a] + card_key[b] + card_key[c] + card_key[d] + card_key[e]]


def tables():
    card_key, card_bit, nonflush, flush, pay, category = strength_arrays()
    return card_key, card_bit, nonflush, flush


def evaluate_many(hands: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Strengths (uint16, see rulegen.evaluator) of an (n, 5) array of card indices 0..51, on one core."""
    hands = np.ascontiguousarray(hands)
    if hands.ndim != 2 or hands.shape[1] != 5:
        raise ValueError("hands must be an (n, 5) array of card indices")
    if out is None:
        out = np.empty(hands.shape[0], dtype=np.uint16)
    _evaluate_rows(hands, out, *tables())
    return out


@njit(cache=True)
def _five_card_counts(card_key, card_bit, nonflush, flush):
    counts = np.zeros(7462, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        counts[eval5(a, b, c, d, e, card_key, card_bit, nonflush, flush)] += 1
    return counts


@njit(cache=True, parallel=True)
def _six_card_counts(card_key, card_bit, nonflush, flush):
    """Best five of six over every six-card set. Five of the six five-card subsets contain the last card f,
    so their rank-key sums are a four-card partial sum (fixed above the f loop) plus f's key. Sets holding
    five or more of one suit (about 1%) take the slow path through eval5."""
    rows = np.zeros((52, 7462), dtype=np.int64)
    nibble = np.zeros(52, dtype=np.int64)
    for card in range(52):
        nibble[card] = np.int64(1) << (4 * (card & 3))
    for a in prange(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                sabc = card_key[a] + card_key[b] + card_key[c]
                for d in range(c + 1, 52):
                    sabcd = sabc + card_key[d]
                    for e in range(d + 1, 52):
                        ke = card_key[e]
                        s_abcde = sabcd + ke
                        s_abce = sabc + ke
                        s_abde = card_key[a] + card_key[b] + card_key[d] + ke
                        s_acde = card_key[a] + card_key[c] + card_key[d] + ke
                        s_bcde = card_key[b] + card_key[c] + card_key[d] + ke
                        suits5 = nibble[a] + nibble[b] + nibble[c] + nibble[d] + nibble[e]
                        for f in range(e + 1, 52):
                            suits = suits5 + nibble[f]
                            if ((suits + 0x3333) & 0x8888) != 0:  # five or more of one suit
                                best = eval5(a, b, c, d, e, card_key, card_bit, nonflush, flush)
                                best = max(best, eval5(a, b, c, d, f, card_key, card_bit, nonflush, flush))
                                best = max(best, eval5(a, b, c, e, f, card_key, card_bit, nonflush, flush))
                                best = max(best, eval5(a, b, d, e, f, card_key, card_bit, nonflush, flush))
                                best = max(best, eval5(a, c, d, e, f, card_key, card_bit, nonflush, flush))
                                best = max(best, eval5(b, c, d, e, f, card_key, card_bit, nonflush, flush))
                            else:
                                kf = card_key[f]
                                best = nonflush[s_abcde]
                                best = max(best, nonflush[sabcd + kf])
                                best = max(best, nonflush[s_abce + kf])
                                best = max(best, nonflush[s_abde + kf])
                                best = max(best, nonflush[s_acde + kf])
                                best = max(best, nonflush[s_bcde + kf])
                            rows[a, best] += 1
    return rows.sum(axis=0)


@cache
def five_card_strength_counts() -> np.ndarray:
    """How many of the 2,598,960 five-card hands have each strength (length 7462)."""
    return _five_card_counts(*tables())


@cache
def six_card_strength_counts() -> np.ndarray:
    """How many of the 20,358,520 six-card sets have each best-five strength (length 7462)."""
    return _six_card_counts(*tables())


def pay_class_counts(strength_counts: np.ndarray) -> list[int]:
    pay = strength_arrays()[4]
    return [int(strength_counts[pay == k].sum()) for k in range(11)]


def category_counts(strength_counts: np.ndarray) -> list[int]:
    category = strength_arrays()[5]
    return [int(strength_counts[category == k].sum()) for k in range(10)]
