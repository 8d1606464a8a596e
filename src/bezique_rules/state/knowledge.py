"""What players can infer, and dealing hidden cards consistently with it.

Used by `determinize` in engines where the play reveals something about hidden
hands (a player who did not follow suit holds none of that suit).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

__all__ = ["deal_hidden", "swap_walk"]


def deal_hidden(cards: Sequence[int], slots: Sequence[tuple[int, int]], rng: random.Random) -> list[list[int]] | None:
    """Deal ``cards`` (physical ids) into ``slots`` at random, honouring what each slot may not hold.

    Args:
        cards: the hidden cards; as many as the slots' capacities add up to.
        slots: (capacity, forbidden mask) per slot.
        rng: the random source.

    Returns:
        The cards of each slot, or None when no deal satisfies the constraints.

    Cards are placed most-constrained first, each into a random slot that still
    has room and may hold it, backtracking when a card has nowhere to go; every
    hidden arrangement consistent with the constraints can come out.

    >>> first, second = deal_hidden([0, 1, 2], [(1, 0b001), (2, 0)], random.Random(1))
    >>> len(first), 0 in first, sorted(first + second)
    (1, False, [0, 1, 2])
    """
    order = sorted(cards, key=lambda c: (-sum(1 for _cap, forb in slots if (forb >> c) & 1), rng.random()))
    room = [cap for cap, _forb in slots]
    out: list[list[int]] = [[] for _ in slots]

    def place(i: int) -> bool:
        if i == len(order):
            return True
        card = order[i]
        choices = [k for k, (_cap, forb) in enumerate(slots) if room[k] and not (forb >> card) & 1]
        rng.shuffle(choices)
        # weight by room so that the result is close to uniform
        choices.sort(key=lambda k: -room[k] * rng.random())
        for k in choices:
            room[k] -= 1
            out[k].append(card)
            if place(i + 1):
                return True
            out[k].pop()
            room[k] += 1
        return False

    if sum(room) != len(order):
        return None
    return out if place(0) else None


def swap_walk(
    arrangement: Sequence[Sequence[int]],
    forbidden: Sequence[int],
    fits: Callable[[list[list[int]]], bool],
    rng: random.Random,
    steps: int,
) -> list[list[int]]:
    """A random walk over the arrangements of hidden cards that fit every constraint.

    From ``arrangement`` (the cards of each slot; it must fit), each of ``steps`` steps
    swaps two cards of different slots, and keeps the swap only when each slot may hold
    its new card (``forbidden``: a mask per slot) and ``fits`` accepts the result. For
    when constraints are too tight for `deal_hidden`'s guesses to meet by chance: every
    arrangement it returns fits, and a long walk forgets where it started.

    >>> walked = swap_walk([[0, 1], [2, 3]], [0, 0b0001], lambda a: 0 in a[0], random.Random(2), 50)
    >>> 0 in walked[0], sorted(walked[0] + walked[1])
    (True, [0, 1, 2, 3])
    """
    out = [list(cards) for cards in arrangement]
    places = [(k, i) for k, cards in enumerate(out) for i in range(len(cards))]
    if len({k for k, _ in places}) < 2:
        return out
    for _ in range(steps):
        (k1, i1), (k2, i2) = rng.sample(places, 2)
        if k1 == k2:
            continue
        a, b = out[k1][i1], out[k2][i2]
        if (forbidden[k1] >> b) & 1 or (forbidden[k2] >> a) & 1:
            continue
        out[k1][i1], out[k2][i2] = b, a
        if not fits(out):
            out[k1][i1], out[k2][i2] = a, b
    return out
