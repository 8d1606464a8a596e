"""The seeded shuffles of many deals at once: `seeded_orders`, equal to `seeded_order` row by row.

`bezique_rules.deck.seeded_order` seeds CPython's Mersenne Twister (MT19937) with
``random.Random(seed)`` and shuffles with Fisher-Yates, drawing each index with
``getrandbits(k)`` and rejection. For many deals this module does the same in array form,
all deals at once:

- the seeding: CPython's ``init_by_array`` over the 32-bit words of the seed (lowest
  first; one word 0 for seed 0), a chain of 2 x 624 steps, each step five array
  operations over all the deals;
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
_ONE, _SEVEN, _ELEVEN, _FIFTEEN, _EIGHTEEN = (np.uint32(v) for v in (1, 7, 11, 15, 18))
_TEMPER_B = np.uint32(0x9D2C5680)
_TEMPER_C = np.uint32(0xEFC60000)
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


def _seeded_states(seeds: Sequence[int], length: int, mt: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """uint32[624, N]: the states after ``init_by_array`` with each seed's ``length`` words
    (CPython's ``random_seed`` of a whole number), one deal per column, written into ``mt``
    (624 x at least N)."""
    n = len(seeds)
    if length <= 2:  # seeds below 2**64: their words by array operations
        whole = np.array(seeds, np.uint64)
        key = np.stack([whole & np.uint64(0xFFFFFFFF), whole >> np.uint64(32)])[:length].astype(np.uint32)
    else:
        key = np.array([_key_words(s, length) for s in seeds], np.uint32).T  # length x N
    plus = list(key + np.arange(length, dtype=np.uint32)[:, None])  # init_key[j] + j
    mt = mt[:, :n]
    rows = list(mt)  # the words' rows, as views: indexing costs as much as a small operation
    rows[0][...] = _START[0]
    prev = rows[0]
    tmp = np.empty(n, np.uint32)
    shift, xor, multiply, add, subtract = np.right_shift, np.bitwise_xor, np.multiply, np.add, np.subtract
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
        add(tmp, plus[j], out=out)
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
        subtract(tmp, minus[i], out=out)
        prev = out
        i += 1
        if i >= _N:
            rows[0][...] = rows[_N - 1]
            prev = rows[0]
            i = 1
    rows[0][...] = _UPPER
    return mt


_TWIST_ROWS = 4  # outputs made per pass: the pass's arrays stay in the cache


def _first_outputs(mt: npt.NDArray[np.uint32], count: int) -> npt.NDArray[np.uint32]:
    """uint32[count, N]: the first ``count`` (<= 227) tempered outputs of each state."""
    n = mt.shape[1]
    out = np.empty((count, n), np.uint32)
    y = np.empty((_TWIST_ROWS, n), np.uint32)
    t = np.empty((_TWIST_ROWS, n), np.uint32)
    for a in range(0, count, _TWIST_ROWS):
        b = min(a + _TWIST_ROWS, count)
        yb, tb, x = y[: b - a], t[: b - a], out[a:b]
        np.bitwise_and(mt[a:b], _UPPER, out=yb)
        np.bitwise_and(mt[a + 1 : b + 1], _LOWER, out=tb)
        yb |= tb
        np.right_shift(yb, _ONE, out=x)
        x ^= mt[_M + a : _M + b]
        yb &= _ONE
        yb *= _MATRIX_A
        x ^= yb  # the twist: new word a
        np.right_shift(x, _ELEVEN, out=tb)  # the tempering
        x ^= tb
        np.left_shift(x, _SEVEN, out=tb)
        tb &= _TEMPER_B
        x ^= tb
        np.left_shift(x, _FIFTEEN, out=tb)
        tb &= _TEMPER_C
        x ^= tb
        np.right_shift(x, _EIGHTEEN, out=tb)
        x ^= tb
    return out


def _draws(size: int) -> int:
    """How many outputs to make per deal (at most 227): the mean number of draws and six
    standard deviations (each draw for position i is accepted with probability
    p = (i + 1) / 2**bit_length(i + 1): a geometric number of draws, mean 1 / p, variance
    (1 - p) / p**2); about 1.4 draws per card on average."""
    accept = [(i + 1) / (1 << (i + 1).bit_length()) for i in range(1, size)]
    mean = sum(1 / p for p in accept)
    spread = sum((1 - p) / p**2 for p in accept) ** 0.5
    return min(_TWISTED, int(mean + 6 * spread) + 4)


def _fisher_yates(outputs: npt.NDArray[np.uint32], size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Fisher-Yates with rejection over each column of ``outputs`` (count x N): the orders
    (N x size) and which deals ran out of outputs (their orders are wrong)."""
    count, n = outputs.shape
    flat = outputs.reshape(-1)  # output j of deal d at j * n + d: neighbouring deals read nearby
    deals = np.arange(n, dtype=np.intp)
    pos = deals.copy()  # each deal's next output (flat index)
    last_output = (count - 1) * n
    order = np.repeat(np.arange(size, dtype=np.int8), n)  # card at position i of deal d: i * n + d
    short = np.zeros(n, bool)
    for i in range(size - 1, 0, -1):
        shift = np.uint32(32 - (i + 1).bit_length())
        r = flat.take(pos) >> shift
        bad = np.flatnonzero(r > i)
        while bad.size:  # rejected: the deal's next output
            p = pos.take(bad) + n
            over = p > last_output
            if over.any():  # out of outputs: flagged, any index will do
                short[bad[over]] = True
                r[bad[over]] = 0
                bad, p = bad[~over], p[~over]
            pos[bad] = p
            rb = flat.take(p) >> shift
            r[bad] = rb
            bad = bad[rb > i]
        pos += n
        gone = pos > last_output
        if gone.any():
            short |= gone
            np.minimum(pos, last_output, out=pos)
        at = r.astype(np.intp) * n + deals
        held = order[i * n : (i + 1) * n].copy()
        order[i * n : (i + 1) * n] = order.take(at)
        order[at] = held
    return order.reshape(size, n).T.astype(np.int64), short


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
    if n < ARRAY_FROM or max(seeds) < 1 << 32:  # one group (one-word keys, the usual seeds)
        groups = {1: np.arange(n)}
    else:
        bits = np.fromiter(map(int.bit_length, seeds), np.int64, n)
        lengths = np.maximum(1, -(-bits // 32))
        groups = {int(v): np.flatnonzero(lengths == v) for v in set(lengths.tolist())}
    for length, cols in groups.items():
        group = list(seeds) if cols.size == n else [seeds[c] for c in cols.tolist()]
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
