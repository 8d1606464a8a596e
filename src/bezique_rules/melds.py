"""Meld tables as data, and the declaration rules.

A `MeldKind` names a scoring combination, its points and its *pattern* (which
cards make it), plus the bookkeeping that the reuse rules need:

- ``group``: the kind for the rule against reusing a card in the same kind (royal and common marriages share the group
  ``"marriage"``): a card never scores twice in one group;
- ``meld_class`` and ``level``: the class within which melds go up, never down (A: marriages and
  sequences, B: beziques, C: quartets); a card may move up a class (royal
  marriage → sequence, bezique → double bezique) but not down.

`MeldRules` holds the options that change those rules, and
`MeldRules.refusal` decides one declaration. `legal_declarations` searches a
hand for every legal declaration, choosing physical copies for the player.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Literal, TypeAlias

import attrs

from .bits import bit_ids, fold_copies, iter_bits, single_bits
from .cards import Card, Rank, Suit
from .deck import DeckSpec
from .errors import RuleCode
from .lazy import BUILD_LOCK
from .trumps import NO_TRUMP

__all__ = [
    "DixMethods",
    "DixRule",
    "FixedCards",
    "InstanceGroup",
    "MeldKind",
    "MeldReuse",
    "MeldRules",
    "MeldTable",
    "NewCardRule",
    "Quartet",
    "RunSuits",
    "SuitRun",
    "TrumpWith",
    "index_instances",
    "legal_declarations",
]

RunSuits: TypeAlias = Literal["trump", "plain", "any"]
"""Which suits a `SuitRun` may be in: trumps, a plain suit, or any suit."""
NewCardRule: TypeAlias = Literal["every_meld", "same_class_only"]
"""The new-card rule: which melds need a card not used before (see `MeldRules.new_card_rule`)."""
DixMethods: TypeAlias = Literal["both", "exchange_only", "score_only"]
"""What the trump seven / dix does after a won trick (see `DixRule.methods`)."""


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

MeldReuse = Literal["classes", "distinct_sets"]
"""How declared cards may be used again (`MeldRules.reuse`): by the reuse rules of their
kinds and classes, or freely with only the exact same set of cards never melded twice."""

Declaration = tuple[int, int]
"""A scored declaration of one player: (kind index, mask of physical cards)."""


@attrs.frozen
class MeldRules:
    """The declaration rules with their options."""

    new_card_rule: NewCardRule = "every_meld"
    """The new-card rule: ``"every_meld"`` (each meld needs a card from the concealed hand) or
    ``"same_class_only"`` (a card not yet used in a meld of the same class)."""
    double_after_two_singles: bool = False
    """A meld made only of intact lower melds of its class (two single beziques
    → double bezique) is allowed despite the new-card rule."""
    reform_after_play: bool = False
    """Multi-pack: once a card of a scored meld is played, its other cards may form
    that kind again."""
    upgrade_classes: frozenset[str] = frozenset({"A", "B", "C"})
    """Classes in which a card may be reused in a higher meld."""
    downgrade_classes: frozenset[str] = frozenset()
    """Classes in which a card of a higher meld may be reused in a lower one (the no-downgrade rule lifted)."""
    cross_class_reuse: CrossClassReuse = "any"
    """A card of an earlier meld may join a meld of another class whatever it scores
    (``"any"``), or only a meld that scores more than the earlier one (``"higher_only"``,
    the Japanese Wikipedia article: a king of a marriage may join four kings, a king of four kings may not
    later marry)."""
    rescore_groups: frozenset[str] = frozenset()
    """The same-kind rule (a card scores once per kind) lifted in these groups for a second
    meld made half of cards already scored in the group and half of new ones, face by face
    (three- and four-hand Bezique, Britannica 9th ed.: "a second double bezique, counting
    500, may be declared to a bezique on the table, which has already been used for double
    bezique": one Q♠ and one J♦ reused, one of each new)."""
    reuse: MeldReuse = "classes"
    """``"classes"``: the reuse rules above; ``"distinct_sets"``
    (Marjolet): a melded card stays free for any later meld, even one made only of
    cards already on the table, and the only refusal is the exact same set of cards melded
    a second time (the reuse rules and the options above do not apply)."""

    def refusal(
        self,
        table: MeldTable,
        kind_index: int,
        cards: int,
        concealed: int,
        held: int,
        history: Sequence[Declaration],
        face_of: Sequence[int] = (),
    ) -> tuple[RuleCode, str] | None:
        """Why declaring ``cards`` as ``table.kinds[kind_index]`` is illegal (None if legal).

        The most specific rule is reported first: a card scored twice in one
        kind, then down a class, then no new card.

        Args:
            table: the meld table.
            kind_index: the kind declared.
            cards: the physical cards of the declaration.
            concealed: the player's cards not lying on the table.
            held: every card the player holds.
            history: the player's earlier declarations.
            face_of: physical id -> face (`DeckSpec.face_of`), for `rescore_groups` (without
                it, only the number of reused cards is checked).
        """
        kinds = table.kinds
        kind = kinds[kind_index]
        if cards & ~held:
            return RuleCode.CARD_NOT_HELD, "every card of a meld must be held, none played"
        if self.reuse == "distinct_sets":
            if any(m == cards for _k, m in history):
                return RuleCode.MELD_CARD_REUSED, "the same set of cards may be melded only once"
            return None
        # R2: no card twice in one group.
        orphans = 0
        if self.reform_after_play:
            intact = [m for k, m in history if kinds[k].group == kind.group and m & held == m]
            in_intact = 0
            scored = 0
            for k, m in history:
                if kinds[k].group == kind.group:
                    scored |= m
            for m in intact:
                in_intact |= m
            orphans = cards & scored & ~in_intact  # cards of a scored meld of this kind broken by play
            if not cards & ~in_intact or cards in intact:
                return RuleCode.MELD_CARD_REUSED, f"these cards already form an intact {kind.group}"
            if cards & in_intact and not orphans:
                return RuleCode.MELD_CARD_REUSED, (
                    f"cards of an intact {kind.group} may form it again only with a card of one broken by play"
                )
        elif kind.group in self.rescore_groups:
            scored = 0
            for k, m in history:
                if kinds[k].group == kind.group:
                    scored |= m
            if not _half_new(cards, scored, face_of):
                return RuleCode.MELD_CARD_REUSED, (
                    f"a second {kind.group} may reuse at most half its cards, half of each card, from an earlier one"
                )
        else:
            for k, m in history:
                if m & cards and kinds[k].group == kind.group:
                    return RuleCode.MELD_CARD_REUSED, f"a card may score only once in a {kind.group}"
        # R3/R4: up the class, never down.
        if kind.meld_class:
            for k, m in history:
                other = kinds[k]
                if not m & cards or other.meld_class != kind.meld_class or other.group == kind.group:
                    continue
                if other.level < kind.level and kind.meld_class not in self.upgrade_classes:
                    return RuleCode.MELD_UPGRADE, f"cards of a {other.name} may not be reused in a {kind.name}"
                if other.level > kind.level and kind.meld_class not in self.downgrade_classes:
                    return RuleCode.MELD_DOWNGRADE, f"cards of a {other.name} may not be reused in a lower {kind.name}"
        # R5 with "higher_only": across classes only into a meld that scores more.
        if self.cross_class_reuse == "higher_only":
            for k, m in history:
                other = kinds[k]
                if m & cards and _class_key(table, k) != _class_key(table, kind_index) and other.points >= kind.points:
                    return RuleCode.MELD_DOWNGRADE, (
                        f"cards of a {other.name} ({other.points}) may join a meld of another class only if it "
                        f"scores more, not a {kind.name} ({kind.points})"
                    )
        # R1: a new card (re-forming a meld broken by play needs none).
        if orphans:
            return None
        if self.new_card_rule == "every_meld":
            if not cards & concealed and not self._made_of_lower(kinds, kind, cards, held, history):
                return RuleCode.MELD_NEEDS_NEW_CARD, "every meld needs at least one card from the concealed hand"
        else:
            used = 0
            for k, m in history:
                other = kinds[k]
                if (other.meld_class and other.meld_class == kind.meld_class) or other.group == kind.group:
                    used |= m
            if not cards & ~used and not self._made_of_lower(kinds, kind, cards, held, history):
                return RuleCode.MELD_NEEDS_NEW_CARD, "a meld needs a card not yet used in its class"
        return None

    def _made_of_lower(
        self, kinds: tuple[MeldKind, ...], kind: MeldKind, cards: int, held: int, history: Sequence[Declaration]
    ) -> bool:
        """``cards`` is exactly a union of intact lower melds of the same class."""
        if not self.double_after_two_singles or not kind.meld_class:
            return False
        union = 0
        for k, m in history:
            other = kinds[k]
            if other.meld_class == kind.meld_class and other.level < kind.level and m & held == m and not m & ~cards:
                union |= m
        return union == cards


@attrs.frozen
class Instance:
    """A meld instance ready for search."""

    kind: int
    """Its meld kind's index."""
    faces: tuple[int, ...]
    """Its face ids."""
    face_mask: int
    """The mask of the faces it needs."""
    counts: tuple[tuple[int, int], ...]
    """(face, copies needed) pairs, by face."""


@attrs.frozen
class InstanceGroup:
    """The instances of one kind, with their search keys. The search skips the kind when too
    few of its cards are held, else looks up ``held_faces & face_mask`` in ``lookup``."""

    cards: int
    """The mask of every physical card they use."""
    fewest: int
    """The fewest cards any of them needs."""
    face_mask: int
    """The mask of the faces they use."""
    lookup: Mapping[int, tuple[Instance, ...]] | None
    """The instances by the faces held among those (read-only), or None when the kind spans
    too many faces to tabulate."""
    instances: tuple[Instance, ...]
    """Every instance."""


_LOOKUP_FACES = 10


class InstanceIndex(tuple[InstanceGroup, ...]):
    """The candidate melds of a rule set for one trump (a tuple of `InstanceGroup`), carrying
    the quick search's plan for the parts it was last searched with (so that the plan lives
    exactly as long as the rule set whose tables hold this index: no module-level cache)."""

    plan_memo: _PlanMemo | None = None
    """The parts and the plan of the last search, or None."""


def index_instances(deck: DeckSpec, instances: tuple[tuple[int, tuple[int, ...]], ...]) -> tuple[InstanceGroup, ...]:
    """Group (kind index, faces) instances by kind and precompute their search keys."""
    groups: dict[int, list[Instance]] = {}
    for kind_index, faces in instances:
        need = 0
        counts: dict[int, int] = {}
        for f in faces:
            need |= 1 << f
            counts[f] = counts.get(f, 0) + 1
        groups.setdefault(kind_index, []).append(Instance(kind_index, faces, need, tuple(sorted(counts.items()))))
    out = []
    for insts in groups.values():
        face_mask = 0
        for inst in insts:
            face_mask |= inst.face_mask
        bits = bit_ids(face_mask)
        lookup: dict[int, tuple[Instance, ...]] | None = None
        if len(bits) <= _LOOKUP_FACES:
            lookup = {}
            for r in range(len(bits) + 1):
                for subset in itertools.combinations(bits, r):
                    held = sum(1 << b for b in subset)
                    fits = tuple(i for i in insts if not i.face_mask & ~held)
                    if fits:
                        lookup[held] = fits
        phys = 0
        for b in bits:
            phys |= deck.face_masks[b]
        out.append(
            InstanceGroup(
                cards=phys,
                fewest=min(len(i.faces) for i in insts),
                face_mask=face_mask,
                lookup=None if lookup is None else MappingProxyType(lookup),
                instances=tuple(insts),
            )
        )
    return InstanceIndex(out)


def legal_declarations(
    deck: DeckSpec,
    table: MeldTable,
    rules: MeldRules,
    instances: tuple[InstanceGroup, ...],
    held: int,
    tabled: int,
    history: Sequence[Declaration],
    forbidden: int = 0,
) -> list[tuple[int, tuple[tuple[int, bool], ...], int]]:
    """Every legal declaration from ``held``, one per distinct notation.

    Returns (kind index, ((face, from_table), …) sorted, physical mask) triples.
    Where several physical copies with the same place (hand or table) could
    serve, the copy used least in earlier melds (then the lowest id) is chosen,
    so the player is never asked to pick between identical cards.

    Args:
        instances: the candidate melds, from `index_instances`.
        forbidden: cards that may not be used now (the card just taken in an exchange).
    """
    plan = _plan(deck, table, rules, instances)
    if plan is None:
        return _search_generic(deck, table, rules, instances, held, tabled, history, forbidden)
    return [
        (kind_index, key, _fast_copies(plan, key, kind_index, held, tabled, history, forbidden))
        for kind_index, key in _search_fast(plan, held, tabled, history, forbidden)
    ]


def declarable_keys(
    deck: DeckSpec,
    table: MeldTable,
    rules: MeldRules,
    instances: tuple[InstanceGroup, ...],
    held: int,
    tabled: int,
    history: Sequence[Declaration],
    forbidden: int = 0,
) -> list[tuple[int, tuple[tuple[int, bool], ...]]]:
    """The (kind index, key) pairs of `legal_declarations`, in the same order, without
    choosing the physical copies (what an engine needs to list the legal actions)."""
    plan = _plan(deck, table, rules, instances)
    if plan is None:
        found = _search_generic(deck, table, rules, instances, held, tabled, history, forbidden)
        return [(k, key) for k, key, _mask in found]
    return _search_fast(plan, held, tabled, history, forbidden)


Finder = Callable[[int, int, Sequence[Declaration], int], list[tuple[int, tuple[tuple[int, bool], ...]]]]
"""``finder(held, tabled, history, forbidden)``: what `declarable_keys` gives."""


def declaration_finder(
    deck: DeckSpec, table: MeldTable, rules: MeldRules, instances: tuple[InstanceGroup, ...]
) -> Finder:
    """`declarable_keys` with its first four arguments bound (for an engine to keep per trump)."""
    plan = _plan(deck, table, rules, instances)
    if plan is None:
        return functools.partial(declarable_keys, deck, table, rules, instances)
    return functools.partial(_search_fast, plan)


# -- the quick search ---------------------------------------------------------
#
# With R1 as "every_meld", without D1 and without re-forming after play, a choice of
# copies is legal exactly when it avoids every card that the player's earlier
# declarations keep out of its kind (R2, R3, R4) and takes a card from the concealed
# hand (R1). So a key (faces and places) is legal when each place it names holds
# enough unblocked copies and it names the hand at least once, and the copies
# `_choose` would take are the first unblocked ones. `_Plan` holds what that search
# needs, with the kinds' lookups merged into clusters of up to `_CLUSTER_FACES` faces
# so that a hand that forms nothing is turned away in a few dict lookups. A cluster's
# table is filled as hands come (a cache of what its kinds' own lookups say).

_Blocks = tuple[tuple[int, ...], ...]
"""Per kind index k: the kinds whose declarations may not reuse a card of an earlier
declaration of kind k."""


@attrs.frozen
class _Entry:
    """A kind whose instances fit the faces held."""

    kind: int
    """The kind index."""
    cards: int
    """The mask of every physical card its instances use."""
    fewest: int
    """The fewest cards any of them needs."""
    instances: tuple[Instance, ...]
    """The instances that fit."""


@attrs.frozen
class _Cluster:
    """Kinds searched together: one lookup of the faces held finds the kinds that fit."""

    face_mask: int
    """The mask of its faces."""
    lookup: dict[int, tuple[_Entry, ...]] | None
    """The entries by the faces held among those, filled as hands come (a cache of what
    the members' own lookups say); None for a single kind too wide to tabulate."""
    wide: _Entry | None
    """For such a kind: its entry with every instance (the search filters them); else None."""
    members: tuple[InstanceGroup, ...]
    """The kinds' groups."""


@attrs.frozen
class _Plan:
    """What the quick search needs."""

    blocks: _Blocks
    """`reuse_blocks` of the meld table and rules."""
    num_faces: int
    """The deck's faces."""
    packs: int
    """The deck's copies of each face."""
    face_masks: tuple[int, ...]
    """Per face: the mask of its physical copies."""
    clusters: tuple[_Cluster, ...]
    """The clusters, in the order of the kinds."""


@attrs.frozen
class _PlanMemo:
    """The parts a plan was made for (compared by identity), and the plan."""

    table: MeldTable
    rules: MeldRules
    deck: DeckSpec
    plan: _Plan | None


_CLUSTER_FACES = 12


def _plan(deck: DeckSpec, table: MeldTable, rules: MeldRules, instances: tuple[InstanceGroup, ...]) -> _Plan | None:
    """The quick search's tables for these arguments (kept on an `InstanceIndex`), or None
    when the rules need the general search."""
    if not isinstance(instances, InstanceIndex):
        return _make_plan(deck, table, rules, instances)
    memo = instances.plan_memo
    if memo is not None and memo.table is table and memo.rules is rules and memo.deck is deck:
        return memo.plan
    with BUILD_LOCK:  # threads searching a cold index at once build one plan
        memo = instances.plan_memo
        if memo is None or memo.table is not table or memo.rules is not rules or memo.deck is not deck:
            memo = _PlanMemo(table, rules, deck, _make_plan(deck, table, rules, instances))
            instances.plan_memo = memo
        return memo.plan


def quick_rules(rules: MeldRules) -> bool:
    """Whether the quick search decides ``rules`` (the classes' reuse rules with ``new_card_rule`` as
    ``"every_meld"``, no ``double_after_two_singles``, no re-forming after play): then a choice of copies is legal
    exactly when it avoids the cards that `reuse_blocks` keeps out of its kind and takes a
    card from the concealed hand."""
    return (
        rules.new_card_rule == "every_meld"
        and not rules.double_after_two_singles
        and not rules.reform_after_play
        and not rules.rescore_groups
        and rules.reuse == "classes"
    )


def reuse_blocks(table: MeldTable, rules: MeldRules) -> tuple[tuple[int, ...], ...]:
    """Per kind index k: the kinds whose declarations may not reuse a card of an earlier
    declaration of kind k (same kind, up or down a class, and across classes with ``"higher_only"``)."""
    kinds = table.kinds
    higher_only = rules.cross_class_reuse == "higher_only"
    rows = []
    for i, other in enumerate(kinds):
        row = []
        for j, kind in enumerate(kinds):
            cls = kind.meld_class
            if other.group == kind.group:  # R2
                row.append(j)
            elif higher_only and _class_key(table, i) != _class_key(table, j) and other.points >= kind.points:
                row.append(j)  # R5 "higher_only"
            elif cls and other.meld_class == cls:  # R3 (up) and R4 (down)
                up = other.level < kind.level and cls not in rules.upgrade_classes
                down = other.level > kind.level and cls not in rules.downgrade_classes
                if up or down:
                    row.append(j)
        rows.append(tuple(row))
    return tuple(rows)


def _make_plan(
    deck: DeckSpec, table: MeldTable, rules: MeldRules, instances: tuple[InstanceGroup, ...]
) -> _Plan | None:
    if not quick_rules(rules):
        return None
    rows = reuse_blocks(table, rules)
    clusters: list[_Cluster] = []
    run: list[InstanceGroup] = []

    def close() -> None:
        if run:
            union = 0
            for g in run:
                union |= g.face_mask
            clusters.append(_Cluster(face_mask=union, lookup={}, wide=None, members=tuple(run)))
            run.clear()

    union = 0
    for g in instances:
        if g.lookup is None:
            close()
            union = 0
            wide = _Entry(g.instances[0].kind, g.cards, g.fewest, g.instances)
            clusters.append(_Cluster(face_mask=g.face_mask, lookup=None, wide=wide, members=(g,)))
            continue
        if run and (union | g.face_mask).bit_count() > _CLUSTER_FACES:
            close()
            union = 0
        run.append(g)
        union |= g.face_mask
    close()
    return _Plan(
        blocks=tuple(rows),
        num_faces=deck.num_faces,
        packs=deck.packs,
        face_masks=deck.face_masks,
        clusters=tuple(clusters),
    )


def _cluster_entries(members: tuple[InstanceGroup, ...], faces: int) -> tuple[_Entry, ...]:
    """The kinds of a cluster with instances that fit ``faces``, and those instances."""
    entries = []
    for g in members:
        assert g.lookup is not None  # clusters only join tabulated kinds
        fits = g.lookup.get(faces & g.face_mask)
        if fits:
            entries.append(_Entry(g.instances[0].kind, g.cards, g.fewest, fits))
    return tuple(entries)


def _blocked(blocks: _Blocks, history: Sequence[Declaration]) -> list[int]:
    """Per kind index: the cards the player's earlier declarations keep out of it."""
    out = [0] * len(blocks)
    for k, m in history:
        for j in blocks[k]:
            out[j] |= m
    return out


def _search_fast(
    plan: _Plan, held: int, tabled: int, history: Sequence[Declaration], forbidden: int
) -> list[tuple[int, tuple[tuple[int, bool], ...]]]:
    """The legal (kind index, key) pairs, in the order of `legal_declarations`."""
    nf, packs, f_masks = plan.num_faces, plan.packs, plan.face_masks
    out: list[tuple[int, tuple[tuple[int, bool], ...]]] = []
    free_all = held & ~forbidden
    faces = fold_copies(free_all, nf, packs)
    blocked = _blocked(plan.blocks, history) if history else None
    concealed = held & ~tabled
    for cluster in plan.clusters:
        lookup = cluster.lookup
        if lookup is not None:
            sub = faces & cluster.face_mask
            entries = lookup.get(sub)
            if entries is None:
                entries = lookup[sub] = _cluster_entries(cluster.members, sub)
            if not entries:
                continue
        else:
            wide = cluster.wide
            assert wide is not None  # a cluster without a lookup is one wide kind
            fits = tuple(i for i in wide.instances if not i.face_mask & ~faces)
            if not fits:
                continue
            entries = (attrs.evolve(wide, instances=fits),)
        for entry in entries:
            group = entry.instances
            free = free_all
            if blocked is not None:
                b = blocked[entry.kind]
                if b & free:
                    free &= ~b
                    kind_faces = fold_copies(free, nf, packs)
                    group = tuple(i for i in group if not i.face_mask & ~kind_faces)
            if (free & entry.cards).bit_count() < entry.fewest:
                continue
            hand = free & concealed
            table = free & tabled
            for inst in group:
                keys: list[tuple[tuple[int, bool], ...]] = [()]
                some_hand: list[bool] = [False]
                for f, mult in inst.counts:
                    fm = f_masks[f]
                    nh = (hand & fm).bit_count()
                    nt = (table & fm).bit_count()
                    low = mult - nh if mult > nh else 0
                    high = nt if nt < mult else mult
                    if low > high:
                        break
                    if low == mult:  # only from the table
                        part = ((f, True),) * mult
                        keys = [k + part for k in keys]
                    elif high == 0:  # only from the hand
                        part = ((f, False),) * mult
                        keys = [k + part for k in keys]
                        some_hand = [True] * len(keys)
                    else:
                        new_keys = []
                        new_hand = []
                        for k, h in zip(keys, some_hand):
                            for t in range(low, high + 1):
                                new_keys.append(k + ((f, False),) * (mult - t) + ((f, True),) * t)
                                new_hand.append(h or t < mult)
                        keys, some_hand = new_keys, new_hand
                else:
                    for k, h in zip(keys, some_hand):
                        if h:
                            out.append((inst.kind, k))
    return out


def _fast_copies(
    plan: _Plan,
    key: tuple[tuple[int, bool], ...],
    kind_index: int,
    held: int,
    tabled: int,
    history: Sequence[Declaration],
    forbidden: int,
) -> int:
    """The copies `_choose` takes for ``key`` when `_plan` decides legality: per (face,
    place), the unblocked copies used least in earlier melds, then the lowest ids; 0
    when the key is not legal."""
    free = held & ~forbidden
    usage: dict[int, tuple[int, int]] = {}
    if history:
        free &= ~_blocked(plan.blocks, history)[kind_index]
        usage = _usage(history)
    concealed = held & ~tabled
    f_masks = plan.face_masks
    mask = 0
    from_hand = False
    i = 0
    n = len(key)
    while i < n:
        slot = key[i]
        j = i + 1
        while j < n and key[j] == slot:
            j += 1
        f, star = slot
        avail = _bits(free & f_masks[f] & (tabled if star else concealed), usage)
        if len(avail) < j - i:
            return 0
        for b in avail[: j - i]:
            mask |= b
        from_hand = from_hand or not star
        i = j
    return mask if from_hand else 0


def meld_copies(
    deck: DeckSpec,
    table: MeldTable,
    rules: MeldRules,
    instances: tuple[InstanceGroup, ...],
    kind_index: int,
    key: tuple[tuple[int, bool], ...],
    held: int,
    tabled: int,
    history: Sequence[Declaration],
    forbidden: int = 0,
) -> int:
    """The physical cards `choose_copies` picks for a declaration (0 when none is legal),
    by the quick rules where they apply; ``instances`` are any of the rule set's
    (`index_instances`), only used to find the cached tables."""
    plan = _plan(deck, table, rules, instances)
    if plan is not None:
        mask = _fast_copies(plan, key, kind_index, held, tabled, history, forbidden)
        if mask:
            return mask
    return choose_copies(deck, table, rules, kind_index, key, held, tabled, history, forbidden)[0]


def _search_generic(
    deck: DeckSpec,
    table: MeldTable,
    rules: MeldRules,
    instances: tuple[InstanceGroup, ...],
    held: int,
    tabled: int,
    history: Sequence[Declaration],
    forbidden: int = 0,
) -> list[tuple[int, tuple[tuple[int, bool], ...], int]]:
    """`legal_declarations` by trying every choice of copies against `MeldRules.refusal`."""
    out: list[tuple[int, tuple[tuple[int, bool], ...], int]] = []
    held_faces = fold_copies(held, deck.num_faces, deck.packs)
    concealed = held & ~tabled
    usage: dict[int, tuple[int, int]] | None = None
    f_masks = deck.face_masks
    for g in instances:
        if (held & g.cards).bit_count() < g.fewest:
            continue
        if g.lookup is not None:
            group = g.lookup.get(held_faces & g.face_mask)
            if not group:
                continue
        else:
            group = tuple(i for i in g.instances if not i.face_mask & ~held_faces)
        for kind_index, counts in ((i.kind, i.counts) for i in group):
            if usage is None:
                usage = _usage(history)
            options: list[list[tuple[tuple[int, bool], ...]]] = []
            copies: dict[tuple[int, bool], list[int]] = {}
            for f, mult in counts:
                avail = held & f_masks[f] & ~forbidden
                hand_c = _bits(avail & concealed, usage)
                table_c = _bits(avail & tabled, usage)
                copies[(f, False)] = hand_c
                copies[(f, True)] = table_c
                choices = [
                    ((f, False),) * (mult - t) + ((f, True),) * t
                    for t in range(max(0, mult - len(hand_c)), min(mult, len(table_c)) + 1)
                ]
                if not choices:
                    break
                options.append(choices)
            else:
                judge = functools.partial(_refusal_of, rules, table, kind_index, concealed, held, history, deck.face_of)
                for combo in itertools.product(*options):
                    key = tuple(sorted(itertools.chain.from_iterable(combo)))
                    mask = _choose(key, copies, judge)
                    if mask:
                        out.append((kind_index, key, mask))
    return out


_UNUSED = (0, 0)


def _usage(history: Sequence[Declaration]) -> dict[int, tuple[int, int]]:
    """Per physical card (as a one-bit mask) in earlier declarations: how many it is in, and
    which (bit ``i``: ``history[i]``): the order `_bits` gives copies in. Both are public
    (every declaration is shown), so two copies that tie on them are alike for every rule,
    and a choice between copies never depends on how the copies are numbered (issue 26
    item 6: a record names cards, not copies, and must give back the same deal)."""
    usage: dict[int, tuple[int, int]] = {}
    for i, (_k, m) in enumerate(history):
        for bit in single_bits(m):
            count, where = usage.get(bit, _UNUSED)
            usage[bit] = (count + 1, where | 1 << i)
    return usage


def choose_copies(
    deck: DeckSpec,
    table: MeldTable,
    rules: MeldRules,
    kind_index: int,
    key: tuple[tuple[int, bool], ...],
    held: int,
    tabled: int,
    history: Sequence[Declaration],
    forbidden: int = 0,
) -> tuple[int, tuple[RuleCode, str] | None]:
    """Pick physical copies for a declaration named by faces and places.

    Returns (mask, None) when some choice is legal, else (0, the refusal of the
    first choice tried, or a CARD_NOT_HELD refusal when the cards are not there).
    """
    usage = _usage(history)
    concealed = held & ~tabled
    copies: dict[tuple[int, bool], list[int]] = {}
    for f, star in set(key):
        avail = held & deck.face_masks[f] & ~forbidden & (tabled if star else concealed)
        copies[(f, star)] = _bits(avail, usage)
    first: list[tuple[RuleCode, str] | None] = []

    def judge(mask: int) -> tuple[RuleCode, str] | None:
        why = rules.refusal(table, kind_index, mask, concealed, held, history, deck.face_of)
        if not first:
            first.append(why)
        return why

    mask = _choose(key, copies, judge)
    if mask:
        return mask, None
    if not first:
        return 0, (RuleCode.CARD_NOT_HELD, "you do not hold those cards in the places named")
    return 0, first[0]


def _refusal_of(
    rules: MeldRules,
    table: MeldTable,
    kind_index: int,
    concealed: int,
    held: int,
    history: Sequence[Declaration],
    face_of: Sequence[int],
    mask: int,
) -> tuple[RuleCode, str] | None:
    return rules.refusal(table, kind_index, mask, concealed, held, history, face_of)


def _half_new(cards: int, scored: int, face_of: Sequence[int]) -> bool:
    """Whether at most half of ``cards`` are in ``scored``, and (with ``face_of``) at most
    half of each face's copies among them (`MeldRules.rescore_groups`).

    >>> _half_new(0b1111, 0b0011, (0, 0, 1, 1)), _half_new(0b1111, 0b0101, (0, 0, 1, 1))
    (False, True)
    >>> _half_new(0b1111, 0b0011, ())  # without faces only the count is checked
    True
    """
    if 2 * (cards & scored).bit_count() > cards.bit_count():
        return False
    if not face_of:
        return True
    copies: dict[int, int] = {}
    reused: dict[int, int] = {}
    for bit in iter_bits(cards):
        f = face_of[bit]
        copies[f] = copies.get(f, 0) + 1
        if (scored >> bit) & 1:
            reused[f] = reused.get(f, 0) + 1
    return all(2 * n <= copies[f] for f, n in reused.items())


def _bits(mask: int, usage: dict[int, tuple[int, int]]) -> list[int]:
    """The single-bit masks of ``mask``, least-used first, then those in the earlier
    declarations (`_usage`), then lowest id (copies tied so far are alike)."""
    out = single_bits(mask)
    if usage:
        out.sort(key=lambda b: (usage.get(b, _UNUSED), b))
    return out


def _choose(
    key: tuple[tuple[int, bool], ...],
    copies: dict[tuple[int, bool], list[int]],
    judge: Callable[[int], tuple[RuleCode, str] | None],
) -> int:
    """The first legal choice of physical copies for ``key`` (0 when none)."""
    need: dict[tuple[int, bool], int] = {}
    for slot in key:
        need[slot] = need.get(slot, 0) + 1
    per_slot = []
    for slot, n in need.items():
        avail = copies.get(slot, [])
        if len(avail) < n:
            return 0
        per_slot.append(list(itertools.combinations(avail, n)))
    for choice in itertools.product(*per_slot):
        mask = 0
        for group in choice:
            for b in group:
                mask |= b
        if judge(mask) is None:
            return mask
    return 0


@attrs.frozen
class DixRule:
    """The low trump that scores and may be exchanged for the turn-up.

    Bezique's trump seven and Pinochle's dix (the nine of
    trumps) follow the same rules with a different rank.
    """

    rank: Rank = Rank.SEVEN
    """The rank: SEVEN for Bezique, NINE for Pinochle."""
    points: int = 10
    """What it scores."""
    methods: DixMethods = "both"
    """After winning a trick: ``"both"`` (exchange when the turn-up is not of this rank,
    or declare without exchange), ``"exchange_only"`` (declaring exchanges whenever an
    exchange is possible) or ``"score_only"`` (declare, never exchange)."""
    score_on_play: bool = True
    """Playing an unscored one to a trick in the stock phase scores it, win or lose."""
    score_on_play_in_playoff: bool = False
    """With ``score_on_play``: playing an unscored one scores in the last tricks too, once
    the stock is gone (Marjolet: "the trump seven scores 10 when played, win or lose"; the
    exception of the last tricks is Bezique's)."""
    turned_up_scores: bool = True
    """A turned-up card of this rank scores for the dealer at once."""
    turned_up_points: int | None = None
    """What a turned-up one scores for the dealer (None: ``points``)."""
    exchange_card_usable_same_trick: bool = False
    """The card taken in an exchange may join a meld declared on the same trick."""
    no_meld_when_exchanging: bool = False
    """A meld and an exchange may not share a trick (house rule)."""
    any_time: bool = False
    """A second method some rules give: besides after a won trick, the holder may declare an unscored one
    on his own turn in the stock phase, before playing a card (and playing it scores it,
    see ``score_on_play``); a declared one is never exchanged."""


Laid = tuple[int, tuple[int, ...]]
"""A meld laid down at once: (kind index, face ids)."""


def _class_key(table: MeldTable, kind_index: int) -> str:
    kind = table.kinds[kind_index]
    return kind.meld_class or "=" + kind.group


def melds_fit(table: MeldTable, laid: Sequence[Laid], counts: Sequence[int]) -> bool:
    """Whether the melds ``laid`` can be made together from a hand with ``counts`` of each
    face: a card may serve in melds of different classes, never twice in one class.

    >>> from bezique_rules import parse_cards
    >>> from bezique_rules.rules.pinochle import partnership_meld_table, PINOCHLE_DECK as deck
    >>> table = partnership_meld_table()
    >>> faces = lambda text: tuple(sorted(deck.face(c) for c in parse_cards(text)))
    >>> counts = [0] * deck.num_faces
    >>> for f in faces("KH QH KS KD KC"):
    ...     counts[f] += 1
    >>> marriage = (table.index("royal-marriage"), faces("KH QH"))
    >>> kings = (table.index("kings-around"), faces("KS KH KD KC"))
    >>> melds_fit(table, [marriage, kings], counts), melds_fit(table, [marriage, marriage], counts)
    (True, False)
    """
    demand: dict[tuple[str, int], int] = {}
    for kind_index, faces in laid:
        key = _class_key(table, kind_index)
        for f in faces:
            demand[(key, f)] = demand.get((key, f), 0) + 1
    return all(n <= counts[f] for (_key, f), n in demand.items())


def best_melds(
    table: MeldTable, instances: Sequence[tuple[int, int]], counts: Sequence[int]
) -> tuple[int, tuple[Laid, ...]]:
    """The highest-scoring combination of melds from a hand with ``counts`` of each face.

    Each class is solved on its own (a card may serve once per class): a small
    exhaustive search over how many times each candidate meld is laid.

    Returns:
        (points, the melds laid, sorted).
    """
    by_class: dict[str, list[tuple[int, tuple[int, ...], dict[int, int]]]] = {}
    for kind_index, faces in instances:
        need: dict[int, int] = {}
        for f in faces:
            need[f] = need.get(f, 0) + 1
        if all(counts[f] >= n for f, n in need.items()):
            by_class.setdefault(_class_key(table, kind_index), []).append((kind_index, faces, need))
    total = 0
    laid: list[Laid] = []
    for candidates in by_class.values():
        points, best = _best_in_class(table, candidates, list(counts))
        total += points
        laid.extend(best)
    return total, tuple(sorted(laid))


def _best_in_class(
    table: MeldTable, candidates: list[tuple[int, tuple[int, ...], dict[int, int]]], left: list[int]
) -> tuple[int, list[Laid]]:
    kinds = table.kinds
    best: tuple[int, list[Laid]] = (0, [])
    chosen: list[Laid] = []

    def search(i: int, points: int) -> None:
        nonlocal best
        if i == len(candidates):
            if points > best[0]:
                best = (points, list(chosen))
            return
        kind_index, faces, need = candidates[i]
        times = min(left[f] // n for f, n in need.items())
        for k in range(times, -1, -1):
            for f, n in need.items():
                left[f] -= n * k
            chosen.extend([(kind_index, faces)] * k)
            search(i + 1, points + k * kinds[kind_index].points)
            del chosen[len(chosen) - k :]
            for f, n in need.items():
                left[f] += n * k

    search(0, 0)
    return best
