"""Suits, ranks, cards and card sets, with their text codes.

A card is a value: ``Card(Suit.SPADES, Rank.QUEEN)`` prints as ``QS`` and parses
back from ``"QS"``, ``"Q♠"`` or ``"qs"``. Identical cards of a multi-pack deck
compare equal; the engines track physical copies internally.

Trick order is *not* a property of `Rank`: it belongs to a rule set's trump
order (see `bezique_rules.parts.trumps`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar

import attrs

from .checks import check_notation
from .errors import NotationError, NotationTypeError, quote

__all__ = ["JOKER", "Card", "CardSet", "Rank", "Suit", "parse_cards"]


class Suit(enum.Enum):
    """The four suits, with their one-letter codes and symbols."""

    SPADES = 0
    """Spades: code ``S``, symbol ``♠``."""
    HEARTS = 1
    """Hearts: code ``H``, symbol ``♥``."""
    DIAMONDS = 2
    """Diamonds: code ``D``, symbol ``♦``."""
    CLUBS = 3
    """Clubs: code ``C``, symbol ``♣``."""

    @property
    def code(self) -> str:
        """The one-letter code: ``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♠``, ``♥``, ``♦`` or ``♣``."""
        return "♠♥♦♣"[self.value]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def same_colour(self) -> Suit:
        """The other suit of the same colour (spades and clubs, hearts and diamonds)."""
        return _SAME_COLOUR[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit code (``S H D C``, any case) or symbol (``♠ ♥ ♦ ♣``).

        >>> Suit.parse("h"), Suit.parse("♠")
        (<Suit.HEARTS: 1>, <Suit.SPADES: 0>)
        """
        return _member(_SUIT_CODES, text, "a suit", "S, H, D, C or ♠ ♥ ♦ ♣")

    def __str__(self) -> str:
        return self.code


_SUIT_CODES = {s.code: s for s in Suit} | {s.symbol: s for s in Suit}
_SAME_COLOUR = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}


class Rank(enum.Enum):
    """Card ranks, with their one-letter codes.

    The order of the members is the Bezique/Pinochle trick order (ace high, ten
    second), used only to sort cards for display; rule sets carry their own
    trick order.
    """

    ACE = 0
    """Ace: code ``A``."""
    TEN = 1
    """Ten: code ``T`` (parsing also accepts ``10``)."""
    KING = 2
    """King: code ``K``."""
    QUEEN = 3
    """Queen: code ``Q``."""
    JACK = 4
    """Jack: code ``J``."""
    NINE = 5
    """Nine: code ``9``."""
    EIGHT = 6
    """Eight: code ``8``."""
    SEVEN = 7
    """Seven: code ``7``."""
    SIX = 8
    """Six: code ``6``."""
    FIVE = 9
    """Five: code ``5``."""
    FOUR = 10
    """Four: code ``4``."""
    THREE = 11
    """Three: code ``3``."""
    TWO = 12
    """Two: code ``2``."""
    JOKER = 13
    """The joker (Euchre's Benny): the card ``JK``, which has no suit."""

    @property
    def code(self) -> str:
        """The rank code: ``A T K Q J 9 8 7 6 5 4 3 2`` (the joker's card code is ``JK``)."""
        return _RANK_CODE_LIST[self.value]

    @property
    def is_court(self) -> bool:
        """True for king, queen and jack (the cards a carte blanche lacks)."""
        return self in (Rank.KING, Rank.QUEEN, Rank.JACK)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank code (``A T K Q J 9 8 7 …``, ``10`` for the ten).

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 1>, <Rank.QUEEN: 3>)
        """
        return _member(_RANK_CODES, text, "a rank", "A T K Q J 9 8 7 6 5 4 3 2")

    def __str__(self) -> str:
        return self.code


_RANK_CODE_LIST = ("A", "T", "K", "Q", "J", "9", "8", "7", "6", "5", "4", "3", "2", "JK")
_RANK_CODES = {r.code: r for r in Rank if r is not Rank.JOKER} | {"10": Rank.TEN}

_Member = TypeVar("_Member", Suit, Rank)


def _member(codes: Mapping[str, _Member], text: str, what: str, written: str) -> _Member:
    """The suit or rank ``text`` names (any case) in ``codes``; ``written`` lists the codes
    for the error."""
    member = codes.get(check_notation(text, what, 16).strip().upper())
    if member is None:
        raise NotationError(f"not {what} (use {written}): {quote(text)}")
    return member


@attrs.frozen(order=False, repr=False)
class Card:
    """One card face: a suit and a rank (the joker has no suit).

    >>> Card(Suit.SPADES, Rank.QUEEN)
    Card('QS')
    >>> str(Card.parse("Q♠")), Card.parse("qs") == Card.parse("QS")
    ('QS', True)
    >>> str(Card.parse("JK")), Card.parse("JK").suit is None
    ('JK', True)
    """

    suit: Suit | None
    """The suit, or None for the joker."""
    rank: Rank
    """The rank."""

    def __attrs_post_init__(self) -> None:
        if (self.suit is None) != (self.rank is Rank.JOKER):
            raise NotationError("only the joker has no suit, and the joker has no suit")

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse a card code: rank then suit (``QS``, ``Q♠``, ``10H``), or ``JK``.

        Raises:
            NotationError: the text is not a card.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise NotationTypeError(f"not a card (a card is text such as 'QS', or a Card): {quote(text)}")
        card = _CARD_CACHE.get(text)
        if card is not None:
            return card
        key = check_notation(text, "a card", 32).strip().upper()
        card = _CARD_CACHE.get(key)
        if card is None and any(ch.isspace() for ch in key):
            raise NotationError(f"not a card (no spaces inside a card code): {quote(text)}")
        if card is None:
            if key == "JK":
                return JOKER
            if len(key) < 2:
                raise NotationError(f"not a card (write rank then suit, e.g. 'QS'): {quote(text)}")
            try:
                card = Card(Suit.parse(key[-1]), Rank.parse(key[:-1]))
            except NotationError:
                raise NotationError(f"not a card (write rank then suit, e.g. 'QS' or 'Q♠'): {quote(text)}") from None
        return card

    @property
    def sort_key(self) -> tuple[int, int]:
        """The display order: suits S H D C, then ranks A T K Q J 9 8 7 …; the joker last."""
        return (4 if self.suit is None else self.suit.value, self.rank.value)

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return self.rank.code + self.suit.code

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key


JOKER = Card(None, Rank.JOKER)
"""The joker (Euchre's Benny)."""

_CARD_CACHE: dict[str, Card] = {}
for _s in Suit:
    for _r in Rank:
        if _r is Rank.JOKER:
            continue
        _c = Card(_s, _r)
        _CARD_CACHE[str(_c)] = _c
        _CARD_CACHE[_r.code + _s.symbol] = _c
        if _r is Rank.TEN:
            _CARD_CACHE["10" + _s.code] = _c
            _CARD_CACHE["10" + _s.symbol] = _c
_CARD_CACHE["JK"] = JOKER


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, or an iterable of codes.

    >>> parse_cards("QS JD 10H")
    (Card('QS'), Card('JD'), Card('TH'))

    Raises:
        NotationError: a token is not a card.
    """
    if isinstance(text, str):
        tokens: Iterable[str | Card] = check_notation(text, "a card list", 100_000).replace(",", " ").split()
    elif hasattr(text, "__iter__") and not isinstance(text, (bytes, bytearray)):
        tokens = text
    else:
        raise NotationTypeError(f"cards are text such as 'QS JD' or a list of codes, not {quote(text)}")
    return tuple(Card.parse(t) for t in tokens)


def cards_without(cards: Iterable[Card], removed: Iterable[Card]) -> list[Card]:
    """The cards of ``cards`` left once each card of ``removed`` has taken away one equal
    copy (multiset difference), in the order of ``cards``.

    >>> [str(c) for c in cards_without(parse_cards("QS QS JD 9C"), parse_cards("QS 9C AH"))]
    ['QS', 'JD']
    """
    rest = list(removed)
    out = []
    for c in cards:
        if c in rest:
            rest.remove(c)
        else:
            out.append(c)
    return out


def _key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_key))


@attrs.frozen(repr=False)
class CardSet:
    """An immutable multiset of cards, kept in display order.

    Two card sets are equal when they hold the same cards the same number of
    times, whatever the physical copies behind them.

    >>> hand = CardSet.of("QS JD QS")
    >>> str(hand), len(hand), hand.count(Card.parse("QS")), Card.parse("JD") in hand
    ('QS QS JD', 3, 2, True)
    """

    cards: tuple[Card, ...] = attrs.field(converter=_sorted_cards)
    """The cards, sorted by suit (S H D C) then rank (A T K Q J 9 8 7 …)."""

    @classmethod
    def of(cls, cards: str | Iterable[str | Card]) -> CardSet:
        """Build a card set from text (``"QS JD"``) or an iterable of cards or codes."""
        return cls(parse_cards(cards))

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the set holds."""
        return self.cards.count(card)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __bool__(self) -> bool:
        return bool(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
