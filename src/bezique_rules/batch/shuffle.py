"""The seeded shuffles of many deals at once: `seeded_orders`, equal to `seeded_order` row by row.

`bezique_rules.deck.seeded_order` seeds CPython's Mersenne Twister (MT19937) with
``random.Random(seed)`` and shuffles with Fisher-Yates, drawing each index with
``getrandbits(k)`` and rejection. For many deals this module does the same in array form,
all deals at once:

- the seeding: CPython's ``init_by_array`` over the 32-bit words of the seed (lowest
  first; one word 0 for seed 0), a chain of 2 x 624 steps, each step one array
  operation over the deals;
- the first outputs: the state's first words after its first regeneration (the
  "twist"; each of the first 227 new words reads old words only), tempered;
  ``getrandbits(k)`` is the output's top ``k`` bits (k <= 32);
- Fisher-Yates with rejection, each deal reading its own outputs from its own position.

A deal that would need more outputs than were made (rare), and every deal of a batch too
small for the array form to pay (`ARRAY_FROM`), gets `seeded_order` itself. The differential test
(``tests/test_batch_shuffle.py``) pins the two to each other over many seeds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..deck import seeded_order

__all__ = ["seeded_orders"]

_N = 624  # MT19937's state words
_M = 397
_TWISTED = _N - _M  # the first 227 new words read old words only
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)
_THIRTY = np.uint32(30)
ARRAY_FROM = 4096
"""From this many deals (of one key length) on, the shuffles run in array form; below it
each deal gets `seeded_order` (CPython's C seeding beats 1,248 array steps on few deals)."""
CHUNK = 8192
"""Deals seeded together in array form: enough to spread each array operation's fixed cost,
few enough that the 624 state words of all of them stay in the cache."""


def _genrand_init() -> npt.NDArray[np.uint32]:
    """``init_genrand(19650218)``: the state every ``init_by_array`` starts from."""
    mt = [19650218]
    for i in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(mt, np.uint32)


_START = _genrand_init()
_START_WORDS = list(_START)  # numpy scalars, one per word
_INDEX_WORDS = list(np.arange(_N, dtype=np.uint32))


def _key_words(seed: int, length: int) -> list[int]:
    """The 32-bit words of ``seed``, lowest first, ``length`` of them."""
    return [(seed >> (32 * w)) & 0xFFFFFFFF for w in range(length)]


def _key_length(seed: int) -> int:
    return max(1, -(-seed.bit_length() // 32))


def _seeded_states(seeds: Sequence[int], length: int, mt: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """uint32[624, N]: the states after ``init_by_array`` with each seed's ``length`` words
    (CPython's ``random_seed`` of a whole number), one deal per column, written into ``mt``
    (624 x at least N)."""
    n = len(seeds)
    key = np.array([_key_words(s, length) for s in seeds], np.uint32).T  # length x N
    plus = list(key + np.arange(length, dtype=np.uint32)[:, None])  # init_key[j] + j
    mt = mt[:, :n]
    rows = list(mt)  # the words' rows, as views: indexing costs as much as a small operation
    rows[0][...] = _START[0]
    prev = rows[0]
    tmp = np.empty(n, np.uint32)
    shift, xor, multiply = np.right_shift, np.bitwise_xor, np.multiply
    thirty = _THIRTY
    mul1 = np.uint32(1664525)
    mul2 = np.uint32(1566083941)
    start = _START_WORDS
    i, j = 1, 0
    for step in range(max(_N, length)):
        out = rows[i]
        shift(prev, thirty, out=tmp)
        xor(tmp, prev, out=tmp)
        multiply(tmp, mul1, out=tmp)
        # the first pass over words 1..623 finds them as init_genrand left them
        xor(tmp, start[i] if step < _N - 1 else out, out=tmp)
        np.add(tmp, plus[j], out=out)
        prev = out
        i += 1
        j += 1
        if i >= _N:
            rows[0][...] = rows[_N - 1]
            prev = rows[0]
            i = 1
        if j >= length:
            j = 0
    minus = _INDEX_WORDS
    for _ in range(_N - 1):
        out = rows[i]
        shift(prev, thirty, out=tmp)
        xor(tmp, prev, out=tmp)
        multiply(tmp, mul2, out=tmp)
        xor(tmp, out, out=tmp)
        np.subtract(tmp, minus[i], out=out)
        prev = out
        i += 1
        if i >= _N:
            rows[0][...] = rows[_N - 1]
            prev = rows[0]
            i = 1
    rows[0][...] = _UPPER
    return mt


def _first_outputs(mt: npt.NDArray[np.uint32], count: int) -> npt.NDArray[np.uint32]:
    """uint32[count, N]: the first ``count`` (<= 227) tempered outputs of each state."""
    y = (mt[:count] & _UPPER) | (mt[1 : count + 1] & _LOWER)
    x: npt.NDArray[np.uint32] = mt[_M : _M + count] ^ (y >> np.uint32(1))
    x ^= np.where((y & np.uint32(1)) != 0, _MATRIX_A, np.uint32(0))
    x ^= x >> np.uint32(11)
    x ^= (x << np.uint32(7)) & np.uint32(0x9D2C5680)
    x ^= (x << np.uint32(15)) & np.uint32(0xEFC60000)
    x ^= x >> np.uint32(18)
    return x


def _draws(size: int) -> int:
    """How many outputs to make per deal: well above the mean number of draws
    (sum over i of 2**bit_length(i + 1) / (i + 1), about 1.4 per card) and at most 227."""
    mean = sum((1 << (i + 1).bit_length()) / (i + 1) for i in range(1, size))
    return min(_TWISTED, int(mean * 1.5) + 32)


def _fisher_yates(outputs: npt.NDArray[np.uint32], size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Fisher-Yates with rejection over each column of ``outputs`` (count x N): the orders
    (N x size) and which deals ran out of outputs (their orders are wrong)."""
    count, n = outputs.shape
    flat = np.ascontiguousarray(outputs.T).reshape(-1)  # deal-major: deal d's outputs at d * count
    base = np.arange(n, dtype=np.intp) * count
    pos = base.copy()
    end = base + count - 1
    order = np.tile(np.arange(size, dtype=np.int64), n)
    obase = np.arange(n, dtype=np.intp) * size
    short = np.zeros(n, bool)
    for i in range(size - 1, 0, -1):
        shift = np.uint32(32 - (i + 1).bit_length())
        r = flat.take(pos) >> shift
        bad = np.flatnonzero(r > i)
        while bad.size:  # rejected: the deal's next output
            p = pos.take(bad) + 1
            over = p > end.take(bad)
            if over.any():  # out of outputs: flagged, any index will do
                short[bad[over]] = True
                r[bad[over]] = 0
                bad, p = bad[~over], p[~over]
            pos[bad] = p
            rb = flat.take(p) >> shift
            r[bad] = rb
            bad = bad[rb > i]
        pos += 1
        short |= pos > end
        np.minimum(pos, end, out=pos)
        at = obase + r.astype(np.intp)
        last = obase + i
        held = order.take(last)
        order[last] = order.take(at)
        order[at] = held
    return order.reshape(n, size), short


def seeded_orders(size: int, seeds: Sequence[int]) -> npt.NDArray[np.int64]:
    """int64[N, size]: row d is ``seeded_order(size, seeds[d])``.

    Args:
        size: the deck's size (its cards are ``range(size)``).
        seeds: whole numbers of 0 or more (checked by the caller).

    >>> from bezique_rules.deck import seeded_order
    >>> rows = seeded_orders(24, list(range(40)))
    >>> all(tuple(rows[s]) == seeded_order(24, s) for s in range(40))
    True
    """
    n = len(seeds)
    orders = np.empty((n, size), np.int64)
    lengths = np.array([_key_length(s) for s in seeds], np.intp) if n >= ARRAY_FROM else np.zeros(n, np.intp)
    for length in np.unique(lengths).tolist():
        cols = np.flatnonzero(lengths == length)
        group = [seeds[c] for c in cols.tolist()]
        if cols.size < ARRAY_FROM or size < 2:
            chain = itertools.chain.from_iterable(seeded_order(size, s) for s in group)
            orders[cols] = np.fromiter(chain, np.int64, cols.size * size).reshape(-1, size)
            continue
        count = _draws(size)
        chunk = min(CHUNK, cols.size)
        parts = -(-cols.size // chunk)
        chunk = -(-cols.size // parts)  # equal parts
        mt = np.empty((_N, chunk), np.uint32)
        for a in range(0, cols.size, chunk):
            part = cols[a : a + chunk]
            outputs = _first_outputs(_seeded_states(group[a : a + chunk], length, mt), count)
            rows, short = _fisher_yates(outputs, size)
            for d in np.flatnonzero(short).tolist():  # out of outputs (rare): the deal's own shuffle
                rows[d] = seeded_order(size, seeds[int(part[d])])
            orders[part] = rows
    return orders
