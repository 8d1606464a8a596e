"""The meld search: the candidate melds of a rule set (`index_instances`) and the search built
on them (`MeldSearch`), both per rule set and trump, and every legal declaration from a hand
(`MeldSearch.legal`, per state), with the physical copies chosen for the player."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

import attrs

from ...bits import bit_ids, fold_copies, single_bits
from ...deck import DeckSpec
from ...errors import RuleCode
from .kinds import CopyOrder, Declaration, MeldTable
from .rules import MeldRules, quick_rules, reuse_blocks


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
    return tuple(out)


@attrs.frozen(eq=False)
class MeldSearch:
    """The meld search of a rule set for one trump: the parts it reads, built once per rule set
    (`RuleSet.meld_search`, indexed like its trump tables) and read by the engine, the agents
    and the batch engines, with the quick search's plan (`_Plan`) made when it is built.
    Compared by identity, like the rule set's other tables."""

    deck: DeckSpec
    """The deck."""
    table: MeldTable
    """The meld kinds."""
    rules: MeldRules
    """The declaration rules."""
    instances: tuple[InstanceGroup, ...] = attrs.field(repr=False)
    """The candidate melds for this trump, from `index_instances`."""
    plan: _Plan | None = attrs.field(init=False, repr=False)
    """The quick search's tables, or None when the rules need the general search."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "plan", _make_plan(self.deck, self.table, self.rules, self.instances))

    def legal(
        self, held: int, tabled: int, history: Sequence[Declaration], forbidden: int = 0
    ) -> list[tuple[int, tuple[tuple[int, bool], ...], int]]:
        """Every legal declaration from ``held``, one per distinct notation: what
        `legal_declarations` gives."""
        plan = self.plan
        if plan is None:
            return _search_generic(self, held, tabled, history, forbidden)
        copy_order = self.rules.copy_order
        return [
            (kind_index, key, _fast_copies(plan, key, kind_index, held, tabled, history, forbidden, copy_order))
            for kind_index, key in _search_fast(plan, held, tabled, history, forbidden)
        ]

    def keys(
        self, held: int, tabled: int, history: Sequence[Declaration], forbidden: int = 0
    ) -> list[tuple[int, tuple[tuple[int, bool], ...]]]:
        """The (kind index, key) pairs of `legal`, in the same order, without choosing the
        physical copies (what an engine needs to list the legal actions)."""
        if self.plan is None:
            return [(k, key) for k, key, _mask in _search_generic(self, held, tabled, history, forbidden)]
        return _search_fast(self.plan, held, tabled, history, forbidden)

    def choose(
        self,
        kind_index: int,
        key: tuple[tuple[int, bool], ...],
        held: int,
        tabled: int,
        history: Sequence[Declaration],
        forbidden: int = 0,
    ) -> tuple[int, tuple[RuleCode, str] | None]:
        """Pick physical copies for a declaration named by faces and places.

        Returns (mask, None) when some choice is legal, else (0, the refusal of the
        first choice tried, or a CARD_NOT_HELD refusal when the cards are not there). Where
        the quick rules apply, the copies are those the quick search would take.
        """
        deck, rules = self.deck, self.rules
        if self.plan is not None:
            mask = _fast_copies(self.plan, key, kind_index, held, tabled, history, forbidden, rules.copy_order)
            if mask:
                return mask, None
        usage = _usage(history, rules.copy_order)
        concealed = held & ~tabled
        copies: dict[tuple[int, bool], list[int]] = {}
        for f, star in set(key):
            avail = held & deck.face_masks[f] & ~forbidden & (tabled if star else concealed)
            copies[(f, star)] = _bits(avail, usage)
        first: list[tuple[RuleCode, str] | None] = []

        def judge(mask: int) -> tuple[RuleCode, str] | None:
            why = rules.refusal(self.table, kind_index, mask, concealed, held, history, deck.face_of)
            if not first:
                first.append(why)
            return why

        mask = _choose(key, copies, judge)
        if mask:
            return mask, None
        if not first:
            return 0, (RuleCode.CARD_NOT_HELD, "you do not hold those cards in the places named")
        return 0, first[0]


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
    so the player is never asked to pick between identical cards. This builds the
    search's tables on every call: to search many hands, read the rule set's
    ``rules.meld_search[trump].legal(held, tabled, history)``.

    Args:
        instances: the candidate melds, from `index_instances`.
        forbidden: cards that may not be used now (the card just taken in an exchange).
    """
    return MeldSearch(deck, table, rules, instances).legal(held, tabled, history, forbidden)


Finder = Callable[[int, int, Sequence[Declaration], int], list[tuple[int, tuple[tuple[int, bool], ...]]]]
"""``finder(held, tabled, history, forbidden)``: what `MeldSearch.keys` gives."""


def declaration_finder(search: MeldSearch) -> Finder:
    """`MeldSearch.keys`, calling the quick search directly where it applies (for an engine
    to keep per trump)."""
    if search.plan is None:
        return search.keys
    return functools.partial(_search_fast, search.plan)


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


_CLUSTER_FACES = 12


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
    copy_order: CopyOrder = "melds",
) -> int:
    """The copies `_choose` takes for ``key`` when `MeldSearch.plan` decides legality: per (face,
    place), the unblocked copies used least in earlier melds, then the lowest ids; 0
    when the key is not legal."""
    free = held & ~forbidden
    usage: dict[int, tuple[int, int]] = {}
    if history:
        free &= ~_blocked(plan.blocks, history)[kind_index]
        usage = _usage(history, copy_order)
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


def _search_generic(
    search: MeldSearch, held: int, tabled: int, history: Sequence[Declaration], forbidden: int
) -> list[tuple[int, tuple[tuple[int, bool], ...], int]]:
    """`legal_declarations` by trying every choice of copies against `MeldRules.refusal`."""
    deck, table, rules = search.deck, search.table, search.rules
    out: list[tuple[int, tuple[tuple[int, bool], ...], int]] = []
    held_faces = fold_copies(held, deck.num_faces, deck.packs)
    concealed = held & ~tabled
    usage: dict[int, tuple[int, int]] | None = None
    f_masks = deck.face_masks
    for g in search.instances:
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
                usage = _usage(history, rules.copy_order)
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


def _usage(history: Sequence[Declaration], copy_order: CopyOrder = "melds") -> dict[int, tuple[int, int]]:
    """Per physical card (as a one-bit mask) in earlier declarations: how many it is in, and
    which (bit ``i``: ``history[i]``): the order `_bits` gives copies in. Both are public
    (every declaration is shown), so two copies that tie on them are alike for every rule,
    and a choice between copies never depends on how the copies are numbered (issue 26
    item 6: a record names cards, not copies, and must give back the same deal). With
    ``copy_order="ids"`` (behaviour version 2) only the count."""
    usage: dict[int, tuple[int, int]] = {}
    by_melds = copy_order == "melds"
    for i, (_k, m) in enumerate(history):
        for bit in single_bits(m):
            count, where = usage.get(bit, _UNUSED)
            usage[bit] = (count + 1, where | 1 << i if by_melds else 0)
    return usage


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
