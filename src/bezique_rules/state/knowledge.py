"""What players can infer, and dealing hidden cards consistently with it.

Used by `determinize` in engines where the play reveals something about hidden
hands (a player who did not follow suit holds none of that suit).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from ..actions import Phase

if TYPE_CHECKING:
    from .deal import DealState

__all__ = ["canonical_order", "deal_hidden", "replayed", "sample_hidden", "swap_walk"]

_DealT = TypeVar("_DealT", bound="DealState")

SHUFFLE_TRIES = 200
"""How many plain shuffles `sample_hidden` tries (each uniform, kept only when it fits)
before it lets `deal_hidden` place the cards."""


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


def sample_hidden(
    cards: Sequence[int], slots: Sequence[tuple[int, int]], rng: random.Random, tries: int = SHUFFLE_TRIES
) -> list[list[int]] | None:
    """Deal ``cards`` into ``slots`` (capacity, forbidden mask) uniformly among the deals that
    honour every slot's forbidden mask, when a plain shuffle meets them within ``tries``
    shuffles (rejection sampling: each shuffle is uniform, and the first that fits is uniform
    among those that fit); else `deal_hidden`'s placement (every fitting deal can come out,
    close to uniform). The cards of each slot come in shuffled order (a stock's order is
    part of the deal). None: no deal fits.

    >>> first, second = sample_hidden([0, 1, 2], [(1, 0b001), (2, 0)], random.Random(1))
    >>> len(first), 0 in first, sorted(first + second)
    (1, False, [0, 1, 2])
    """
    pool = list(cards)
    if sum(cap for cap, _ in slots) != len(pool):
        return None
    constrained = any(forbid for _, forbid in slots)
    for _ in range(tries if constrained else 1):
        rng.shuffle(pool)
        out: list[list[int]] = []
        at = 0
        fits = True
        for cap, forbid in slots:
            part = pool[at : at + cap]
            at += cap
            if forbid and any((forbid >> c) & 1 for c in part):
                fits = False
                break
            out.append(part)
        if fits:
            return out
    dealt = deal_hidden(pool, slots, rng)
    if dealt is not None:
        for part in dealt:
            rng.shuffle(part)
    return dealt


def canonical_order(order: Sequence[int], num_faces: int) -> tuple[int, ...]:
    """``order`` (physical ids, top first) with the copies of each face renumbered in the
    order they lie: the ids a record's deck list deals (`DeckSpec.order_from_cards`: the
    first copy of a face in the deck is copy 0, and a physical id is ``copy * num_faces +
    face``).

    >>> canonical_order([24 + 3, 3, 5], 24)
    (3, 27, 5)
    """
    copies = [0] * num_faces
    out = []
    for pid in order:
        face = pid % num_faces
        out.append(copies[face] * num_faces + face)
        copies[face] += 1
    return tuple(out)


def replayed(state: _DealT, order: Sequence[int]) -> _DealT:
    """The deal of ``order`` (the deck as dealt, physical ids; its copies renumbered by
    `canonical_order`) with ``state``'s moves made again, unchecked: the deal a replay of its
    record gives, copy for copy. For a determinized world on a deck with several copies of a
    card: which copy lies where is not in a record (it names cards), so the world is built as
    its replay builds it, and ``replay(record_of(world)) == world``.

    The moves must be legal on ``order`` (the caller has dealt the hidden cards so that they
    are); six-pack Bezique's cut stays ``state``'s once it has been shown (after the guess),
    and is the one the new deck gives before.
    """
    from ..engine.registry import engine_for  # the engines are above: their registry is imported on use

    setup = state.setup
    rules = setup.rules
    world = engine_for(rules.engine).new_deal(rules, canonical_order(order, rules.deck.num_faces), None, setup.dealer)
    if setup.packet >= 0 and state.phase is not Phase.GUESS and world.setup.packet != setup.packet:
        world = world._with_cut_packet(setup.packet)
    for _, action_id in state.moves:
        world = world.apply(action_id, check=False)
    return world  # type: ignore[return-value]
