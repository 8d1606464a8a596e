"""Meld kinds as data: the patterns (which cards make a meld), `MeldKind` and the `MeldTable` of a
rule set. Built once per rule set."""

from __future__ import annotations

import itertools
from typing import Literal, TypeAlias

import attrs

from ...cards import Card, Rank, Suit
from ...deck import DeckSpec
from ..trumps import NO_TRUMP

RunSuits: TypeAlias = Literal["trump", "plain", "any"]
"""Which suits a `SuitRun` may be in: trumps, a plain suit, or any suit."""


NewCardRule: TypeAlias = Literal["every_meld", "same_class_only"]
"""The new-card rule: which melds need a card not used before (see `MeldRules.new_card_rule`)."""


@attrs.frozen
class SuitRun:
    """Cards of the given ranks in one suit: a marriage (K Q) or a sequence (A T K Q J)."""

    ranks: tuple[Rank, ...]
    """The ranks, one card of each."""
    suits: RunSuits = "trump"
    """Which suits: ``"trump"`` (royal marriage, trump sequence), ``"plain"`` (common
    marriage, back-door sequence) or ``"any"``."""
    before_trump: bool = False
    """A ``"trump"`` meld that may be made in any suit while there is no trump yet (the
    multi-pack games: the first marriage or sequence fixes trumps)."""

    def faces(self, deck: DeckSpec, trump: int) -> list[tuple[int, ...]]:
        if self.suits == "trump":
            if trump != NO_TRUMP:
                suits = [trump]
            else:
                suits = [s.value for s in deck.suits] if self.before_trump else []
        elif self.suits == "plain":
            suits = [s.value for s in deck.suits if s.value != trump] if trump != NO_TRUMP else []
        else:
            suits = [s.value for s in deck.suits]
        return [tuple(sorted(deck.face(Card(Suit(s), r)) for r in self.ranks)) for s in suits]


@attrs.frozen
class FixedCards:
    """Named cards, e.g. the bezique (Q♠ J♦), or a double bezique (Q♠ Q♠ J♦ J♦).

    ``by_trump`` replaces the cards when trumps are a given suit (the colour-swap
    and trump-dependent bezique options).
    """

    cards: tuple[Card, ...]
    """The cards (repeat a card for a double, triple, … meld)."""
    by_trump: tuple[tuple[Suit, tuple[Card, ...]], ...] = ()
    """Replacement cards per trump suit."""
    needs_trump: bool = False
    """Only once trumps exist (the trump-dependent bezique)."""

    def faces(self, deck: DeckSpec, trump: int) -> list[tuple[int, ...]]:
        if self.needs_trump and trump == NO_TRUMP:
            return []
        cards = self.cards
        for suit, alt in self.by_trump:
            if suit.value == trump:
                cards = alt
        return [tuple(sorted(deck.face(c) for c in cards))]


@attrs.frozen
class Quartet:
    """Four (or ``count``) cards of one rank: any suits, one of each suit, or all trumps."""

    rank: Rank
    """The rank."""
    count: int = 4
    """How many cards."""
    one_per_suit: bool = False
    """One card of each suit (the "arounds"); otherwise any suits, duplicates allowed."""
    trump_only: bool = False
    """All of the trump suit (the multi-pack "four trump aces")."""

    def faces(self, deck: DeckSpec, trump: int) -> list[tuple[int, ...]]:
        if self.trump_only:
            if trump == NO_TRUMP or deck.packs < self.count:
                return []
            return [(deck.face(Card(Suit(trump), self.rank)),) * self.count]
        faces = [deck.face(Card(s, self.rank)) for s in deck.suits]
        if self.one_per_suit:
            return [tuple(sorted(faces))]
        out = []
        for combo in itertools.combinations_with_replacement(sorted(faces), self.count):
            if all(combo.count(f) <= deck.packs for f in set(combo)):
                out.append(combo)
        return out


@attrs.frozen
class TrumpWith:
    """A card of the trump suit with cards of one other suit: Marjolet's marjolet (the jack
    of trumps) married to a queen of a plain suit.

    >>> from bezique_rules.rules.marjolet import MARJOLET_DECK as deck
    >>> len(TrumpWith(Rank.JACK, (Rank.QUEEN,)).faces(deck, Suit.HEARTS.value))
    3
    """

    trump_rank: Rank
    """The rank of the trump card."""
    ranks: tuple[Rank, ...]
    """The ranks of the other suit, one card of each."""
    suits: Literal["plain"] = "plain"
    """Which other suits: ``"plain"`` (every suit but trumps); none before trumps exist."""

    def faces(self, deck: DeckSpec, trump: int) -> list[tuple[int, ...]]:
        if trump == NO_TRUMP:
            return []
        head = deck.face(Card(Suit(trump), self.trump_rank))
        return [
            tuple(sorted((head, *(deck.face(Card(s, r)) for r in self.ranks)))) for s in deck.suits if s.value != trump
        ]


Pattern = SuitRun | FixedCards | Quartet | TrumpWith


@attrs.frozen
class MeldKind:
    """One line of a meld table.

    >>> from bezique_rules.cards import Rank
    >>> MeldKind("four-kings", 80, Quartet(Rank.KING), meld_class="C").group
    'four-kings'
    """

    name: str
    """The kebab-case name used in notation (``meld <name> <cards>``)."""
    points: int
    """What it scores."""
    pattern: Pattern
    """Which cards make it."""
    group: str = attrs.field()
    """The reuse kind (a card scores once per kind); defaults to ``name``."""
    meld_class: str = ""
    """The class within which melds go up, never down (``"A"``, ``"B"``, ``"C"``), or empty for none."""
    level: int = 0
    """Order inside the class: a card may be reused in a meld of a higher level."""
    fixes_trump: bool = False
    """Declared while there is no trump, this meld makes its suit trumps (multi-pack)."""

    @group.default
    def _group(self) -> str:
        return self.name


@attrs.frozen
class MeldTable:
    """The melds of a variant, in table order."""

    kinds: tuple[MeldKind, ...]
    """Every meld kind."""

    def index(self, name: str) -> int:
        """The index of the kind named ``name`` (-1 when none)."""
        for i, k in enumerate(self.kinds):
            if k.name == name:
                return i
        return -1

    def instances(self, deck: DeckSpec, trump: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Every (kind index, sorted face ids) that forms a meld with trump ``trump``."""
        out = []
        for i, kind in enumerate(self.kinds):
            for faces in kind.pattern.faces(deck, trump):
                out.append((i, faces))
        return tuple(out)

    def all_instances(self, deck: DeckSpec) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The union of `instances` over every trump suit and no trump, in a stable order."""
        seen: dict[tuple[int, tuple[int, ...]], None] = {}
        for trump in [NO_TRUMP, *range(4)]:
            for inst in self.instances(deck, trump):
                seen.setdefault(inst, None)
        return tuple(sorted(seen))


CrossClassReuse = Literal["any", "higher_only"]
"""How the rule across classes lets a declared card join a meld of another class (`MeldRules.cross_class_reuse`)."""

CopyOrder: TypeAlias = Literal["melds", "ids"]
"""Between two copies of a card in as many earlier melds, which the engine takes first:
``"melds"``, the one in the earlier melds (public, so the choice never depends on how the
copies are numbered); ``"ids"``, the lower-numbered copy (behaviour version 2)."""


MeldReuse = Literal["classes", "distinct_sets"]
"""How declared cards may be used again (`MeldRules.reuse`): by the reuse rules of their
kinds and classes, or freely with only the exact same set of cards never melded twice."""


Declaration = tuple[int, int]
"""A scored declaration of one player: (kind index, mask of physical cards)."""


def face_needs(faces: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The (face, copies) pairs of a meld instance given by its face ids, by face: the
    copies of each face a hand must hold to make it (a double bezique needs two of each)."""
    return tuple((f, faces.count(f)) for f in sorted(set(faces)))


def _class_key(table: MeldTable, kind_index: int) -> str:
    kind = table.kinds[kind_index]
    return kind.meld_class or "=" + kind.group
