"""What players can infer, and dealing hidden cards consistently with it.

Used by `determinize` in engines where the play reveals something about hidden
hands (a player who did not follow suit holds none of that suit).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["deal_hidden"]


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
