"""Decks with physical copies, the seeded shuffle, and packet dealing.

Inside the engines every physical card is a small int. A deck has ``F`` distinct
*faces* (suit-major: all ranks of the first suit, then the next suit, …, then
the extra cards such as the joker); physical id ``copy * F + face``. A set of
physical cards is an int bitmask, one bit per physical card.

The shuffle is a Fisher-Yates shuffle driven by ``random.Random(seed)``
(Mersenne Twister), drawing each index with ``getrandbits`` and rejection, so
the same seed gives the same deal on every platform and Python version:

    for i from n-1 down to 1:
        k = bit_length(i + 1); r = getrandbits(k) until r <= i
        swap positions i and r
"""

from __future__ import annotations

import _random
import itertools
import random
from collections.abc import Iterable, Sequence

import attrs

from .bits import bit_ids
from .cards import Card, Rank, Suit
from .checks import check_notation, check_seat
from .errors import DealError, DealTypeError, NotationError, quote
from .lazy import built_once

__all__ = ["WIDOW", "DealPattern", "DeckSpec", "Packet", "card_ids", "seeded_order", "shuffle"]

WIDOW = -1
"""The recipient of a packet dealt to the widow (kitty) instead of a player."""


@attrs.frozen
class DeckSpec:
    """The cards of a variant: suits x ranks, times ``packs`` copies, plus extra cards.

    >>> spec = DeckSpec(ranks=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK,
    ...                        Rank.NINE, Rank.EIGHT, Rank.SEVEN), packs=2)
    >>> spec.size, spec.num_faces, str(spec.card(0)), str(spec.card(32))
    (64, 32, 'AS', 'AS')
    """

    ranks: tuple[Rank, ...]
    """The ranks of each suit, in the variant's plain trick order (highest first)."""
    packs: int = 1
    """How many copies of every card (2 for Bezique and Pinochle, 4-8 for multi-pack Bezique)."""
    suits: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    """The suits, in face order."""
    extras: tuple[Card, ...] = ()
    """Extra faces after the suited ones (the joker for Euchre's Benny)."""

    @built_once
    def faces(self) -> tuple[Card, ...]:
        """The distinct faces, in face-id order."""
        return tuple(Card(s, r) for s in self.suits for r in self.ranks) + self.extras

    @property
    def num_faces(self) -> int:
        """How many distinct faces (``F``)."""
        return len(self.faces)

    @property
    def size(self) -> int:
        """How many physical cards."""
        return self.packs * self.num_faces

    @built_once
    def face_of(self) -> tuple[int, ...]:
        """Physical id to face id."""
        f = self.num_faces
        return tuple(i % f for i in range(self.size))

    @built_once
    def cards(self) -> tuple[Card, ...]:
        """Physical id to card."""
        return tuple(self.faces[i] for i in self.face_of)

    @built_once
    def face_index(self) -> dict[Card, int]:
        """Card to face id."""
        return {c: i for i, c in enumerate(self.faces)}

    @built_once
    def face_masks(self) -> tuple[int, ...]:
        """Face id to the mask of its physical copies."""
        f = self.num_faces
        return tuple(sum(1 << (c * f + i) for c in range(self.packs)) for i in range(f))

    @property
    def full_mask(self) -> int:
        """The mask of every physical card."""
        return (1 << self.size) - 1

    def card(self, pid: int) -> Card:
        """The card of physical id ``pid``."""
        return self.cards[pid]

    def face(self, card: Card) -> int:
        """The face id of ``card``.

        Raises:
            NotationError: the card is not in this deck.
        """
        try:
            return self.face_index[card]
        except KeyError:
            raise NotationError(f"{card} is not a card of this deck") from None

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards of a physical-card mask, in id order."""
        cards = self.cards
        return tuple(cards[i] for i in bit_ids(mask))

    def order_from_cards(self, deck: Sequence[Card | str]) -> tuple[int, ...]:
        """Turn a stacked deck (cards, top first) into physical ids.

        Identical cards take their copies in order (first QS is copy 0, …).

        Raises:
            DealError: the sequence is not a permutation of this deck; the message
                names the missing and extra cards.
            DealTypeError: ``deck`` is not a sequence of cards or card codes.
        """
        if isinstance(deck, (str, bytes, bytearray, dict)) or not isinstance(deck, Iterable):  # a class is not
            raise DealTypeError(f"a stacked deck is a sequence of cards (or card codes), not {quote(deck)}")
        limit = 2 * self.size
        deck = list(itertools.islice(deck, limit + 1))  # bounded: a generator may be endless
        if len(deck) > limit:
            raise DealError(f"the stacked deck has far more than this variant's {self.size} cards")
        try:
            faces = [self.face_index.get(Card.parse(c), -1) for c in deck]
        except NotationError as exc:
            raise DealError(f"the stacked deck holds something that is not a card: {exc}") from None
        counts = [0] * self.num_faces
        extra: list[str] = []
        order: list[int] = []
        for c, f in zip(deck, faces):
            if f < 0 or counts[f] >= self.packs:
                extra.append(str(Card.parse(c)))
                continue
            order.append(counts[f] * self.num_faces + f)
            counts[f] += 1
        missing = [str(self.faces[f]) for f in range(self.num_faces) for _ in range(self.packs - counts[f])]
        if missing or extra:
            parts = []
            if missing:
                parts.append("missing " + " ".join(missing))
            if extra:
                parts.append("extra " + " ".join(extra))
            raise DealError(f"the stacked deck is not this variant's {self.size}-card deck: " + "; ".join(parts))
        return tuple(order)


def card_ids(mask: int) -> list[int]:
    """The physical card ids in ``mask`` (one bit per id), lowest first.

    >>> card_ids(0b10110)
    [1, 2, 4]
    """
    return bit_ids(mask)


_BITS = tuple((i + 1).bit_length() for i in range(256))  # index i -> bit_length(i + 1)


def shuffle(items: Sequence[int], rng: random.Random) -> tuple[int, ...]:
    """Shuffle with the documented, platform-independent Fisher-Yates (see module docs).

    >>> shuffle(range(5), random.Random(1))
    (2, 3, 4, 0, 1)
    """
    out = list(items)
    getrandbits = rng.getrandbits
    bits = _BITS if len(out) <= len(_BITS) else tuple((i + 1).bit_length() for i in range(len(out)))
    for i in range(len(out) - 1, 0, -1):
        k = bits[i]
        r = getrandbits(k)
        while r > i:
            r = getrandbits(k)
        out[i], out[r] = out[r], out[i]
    return tuple(out)


def seeded_order(size: int, seed: int) -> tuple[int, ...]:
    """The deck order of ``seed``: ``shuffle(range(size), random.Random(seed))``.

    The generator is seeded once (``random.Random`` seeds twice: in ``__new__``
    and again in ``__init__``); the cards come out in exactly `shuffle`'s order.

    >>> seeded_order(5, 1) == shuffle(range(5), random.Random(1))
    True
    """
    rng: random.Random = _random.Random(seed)  # type: ignore[assignment]  # the same state for a whole number
    return shuffle(range(size), rng)


Packet = tuple[int, int]
"""A packet: (recipient, count); recipient counted from the dealer's left (0), or WIDOW."""


@attrs.frozen
class DealPattern:
    """How cards leave the deck: packets to players (from the dealer's left) or the widow.

    After the packets, an optional turn-up (the next card), and the rest is the stock.

    >>> DealPattern.rounds(2, (3, 2, 3), turn_up=True).hand_size
    8
    """

    packets: tuple[Packet, ...]
    """The packets in dealing order."""
    turn_up: bool = False
    """Whether the next card is turned up (trump indicator)."""
    turn_up_after: int | None = None
    """The turn-up is dealt after this many packets (Schnapsen: after the first round of
    threes); None: after every packet."""

    @classmethod
    def rounds(
        cls, players: int, sizes: Sequence[int], *, turn_up: bool = False, turn_up_after_round: int | None = None
    ) -> DealPattern:
        """Every player in turn gets ``sizes[0]`` cards, then ``sizes[1]`` each, …; the turn-up
        (if any) comes after round ``turn_up_after_round`` (None: after the last)."""
        after = None if turn_up_after_round is None else turn_up_after_round * players
        return cls(tuple((p, n) for n in sizes for p in range(players)), turn_up, after)

    @property
    def hand_size(self) -> int:
        """Cards dealt to player 0 (every player gets as many in the presets)."""
        return sum(n for p, n in self.packets if p == 0)

    def deal(
        self, order: Sequence[int], players: int, dealer: int
    ) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]:
        """Deal ``order`` (physical ids, top first).

        Returns:
            (hand masks per player, widow ids, turn-up id or -1, stock ids top first).
        """
        hands = [0] * players
        widow: list[int] = []
        pos = 0
        turn_up = -1
        for k, (recipient, n) in enumerate(self.packets):
            if self.turn_up and k == self.turn_up_after:
                turn_up = order[pos]
                pos += 1
            cards = order[pos : pos + n]
            pos += n
            if recipient == WIDOW:
                widow.extend(cards)
            else:
                seat = (dealer + 1 + recipient) % players
                for c in cards:
                    hands[seat] |= 1 << c
        if self.turn_up and turn_up < 0:
            turn_up = order[pos]
            pos += 1
        return tuple(hands), tuple(widow), turn_up, tuple(order[pos:])


def check_dealer(dealer: int | None, players: int) -> int:
    """Validate a dealer seat; None means the last seat (so player 0 acts first).

    Raises:
        DealTypeError: not an int (or a bool).
        DealError: no such seat.
    """
    if dealer is None:
        return players - 1
    return check_seat(dealer, players, "dealer")


MAX_SEED = 2**64 - 1
"""The greatest shuffle or game seed."""


def check_seed(seed: object) -> int:
    """Validate a seed: a whole number from 0 to `MAX_SEED`.

    Raises:
        DealTypeError: not an int (or a bool).
        DealError: out of range.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise DealTypeError(f"a seed is a whole number of 0 or more, not {quote(seed)}")
    if not 0 <= seed <= MAX_SEED:
        raise DealError(f"a seed is a whole number from 0 to 2**64 - 1, not {quote(seed)}")
    return int(seed)


def split_deck_text(text: str) -> list[str]:
    """A stacked deck given as one string (``"AS TS, KS ..."``): its card codes.

    Raises:
        NotationError: not notation (too long, or not ASCII text).
    """
    return check_notation(text, "a stacked deck", 4096).replace(",", " ").split()
