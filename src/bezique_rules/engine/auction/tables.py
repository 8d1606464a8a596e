"""The auction engine's tables, compiled once per rule set (`AuctionEngine.compile`): what each
action id does, the ids of each phase's decisions, and the weights that list the legal gives
and burials of a hand."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import attrs

from ...actions import Action, ActionKind, ActionNumbering, ActionSpace, ActionTable, Verb
from ...cards import Suit
from ...parts.auction import Auction, ContractRules, ContractScoring
from ...parts.melds import Laid, face_needs
from ...rules.ruleset import RuleSet, part_of


class AuctionActionMeaning(NamedTuple):
    """What one action id does in this engine."""

    kind: ActionKind
    """The action's kind."""
    number: int = -1
    """The card face played, the bid, or the trump suit index (-1: none)."""
    faces: tuple[int, ...] = ()
    """The faces given or buried, ascending."""
    laid: Laid | None = None
    """The meld instance laid (``meld <kind> <cards>``)."""


@attrs.frozen
class BidTable:
    """The action ids of the bidding, trump and concession decisions."""

    bid_ids: Mapping[int, int]
    """Per bid on the ladder: its action id (read-only)."""
    pass_id: int
    """``pass`` (in the auction, before the widow, after the melds, to end one's melds)."""
    help_id: int
    """``pass help``, or -1 when the rules do not allow it."""
    trump_ids: tuple[int, ...]
    """Per suit index: ``trump <suit>``."""
    throw_in_id: int
    """``throw-in``."""


@attrs.frozen
class CardTable:
    """The action ids of plays, gives and burials, and how to find the legal ones."""

    play_ids: tuple[int, ...]
    """Per face: ``play <card>``. The plays are numbered first, so a play's id is its face
    (the trick-play paths rely on it)."""
    give_ids: Mapping[tuple[int, ...], int]
    """Per multiset of faces (ascending): ``give <cards>`` (read-only)."""
    bury_ids: Mapping[tuple[int, ...], int]
    """Per multiset of faces (ascending): ``discard <cards>`` (read-only)."""
    give_weights: tuple[tuple[int, ...], ...]
    """`_weights` of the gives."""
    bury_weights: tuple[tuple[int, ...], ...]
    """`_weights` of the burials."""


class MeldCheck(NamedTuple):
    """One meld instance with a trump suit, as the meld phase tests it."""

    action_id: int
    """``meld <kind> <cards>``."""
    meld_class: int
    """Its class number (a card serves once per class, `melds_fit`)."""
    need: tuple[tuple[int, int], ...]
    """(face, copies needed) pairs."""


@attrs.frozen
class MeldIndex:
    """The action ids of the meld phase."""

    meld_ids: Mapping[Laid, int]
    """Per meld instance: ``meld <kind> <cards>`` (read-only)."""
    best_id: int
    """``meld best``."""
    kind_class: tuple[int, ...]
    """Per meld kind: its class number."""
    checks: tuple[tuple[MeldCheck, ...], ...]
    """Per trump index: every meld instance with that trump, by action id."""


@attrs.frozen
class AuctionTables:
    """The auction engine's compiled tables for one rule set (`RuleSet.tables`)."""

    auction: Auction
    """The rule set's bidding part, checked to be an `Auction` when compiled."""
    contract: ContractRules
    """The rule set's `ContractRules`, checked when compiled."""
    scoring: ContractScoring
    """The rule set's `ContractScoring`, checked when compiled."""
    actions: ActionSpace
    """The numbered actions."""
    meanings: tuple[AuctionActionMeaning, ...]
    """Per action id: what it does."""
    action_table: ActionTable
    """The same, column by column (the shape every engine compiles)."""
    bidding: BidTable
    """Bids, passes, trumps, throw-in."""
    cards: CardTable
    """Plays, gives, burials."""
    melds: MeldIndex
    """Melds laid one by one and ``meld best``."""


def _weights(ids: dict[tuple[int, ...], int], faces: int, most: int) -> tuple[tuple[int, ...], ...]:
    """Per-position face weights that add up to the ids of the multisets in ``ids``.

    The multisets of one size are numbered in lexicographic order; those starting with
    face ``a`` are ``a`` followed by the smaller multisets starting at ``a`` or higher
    (at most ``most - 1`` more ``a``), a run of that smaller order. So the rank of a
    multiset is ``w[size][a] + rank(rest)``, and by induction a sum of one weight per
    position. Returns ``w`` with ``w[m - 1]`` the weights of the m-th face from the end;
    the first face's weights include the first id.
    """
    if not ids:
        return ()
    size = len(next(iter(ids)))
    first = min(ids.values())
    rank: dict[tuple[int, ...], int] = {(): 0}
    out: list[tuple[int, ...]] = []
    for m in range(1, size + 1):
        ranks = {c: i - first for c, i in ids.items()} if m == size else {
            c: i for i, c in enumerate(_multisets(faces, m, most))
        }  # fmt: skip
        w: dict[int, int] = {}
        for combo, r in ranks.items():
            if w.setdefault(combo[0], r - rank[combo[1:]]) != r - rank[combo[1:]]:  # pragma: no cover
                raise AssertionError("multiset ids are not in lexicographic order")
        out.append(tuple(w.get(f, 0) + (first if m == size else 0) for f in range(faces)))
        rank = ranks
    return tuple(out)


def _multiset_ids(weights: tuple[tuple[int, ...], ...], held: list[int], counts: list[int]) -> list[int]:
    """The ids of the distinct multisets of ``len(weights)`` cards from a hand, ascending.

    ``held`` are the faces held, ascending, ``counts`` how many of each. Built up one card
    at a time, the last first: the m-card multisets from ``held[j:]`` in order are those
    starting with ``held[j]`` (``own[j][c]``, ``c = counts[j]``) then those from
    ``held[j + 1:]``, so they are all suffixes of one list (``flat[starts[j]:]``); with
    only ``q < c`` copies of ``held[j]`` left, they are ``own[j][q]`` then that suffix.
    """
    n = len(held)
    if not n or not weights:
        return []
    w = weights[0]
    flat = [w[f] for f in held]
    starts = list(range(n + 1))
    own = [[[], *[[w[f]]] * (c - 1)] for f, c in zip(held, counts)]
    last = len(weights) - 1
    for m in range(1, last + 1):
        w = weights[m]
        new_flat: list[int] = []
        new_starts: list[int] = []
        new_own: list[list[list[int]]] = []
        for j in range(n):
            new_starts.append(len(new_flat))
            wf = w[held[j]]
            c = counts[j]
            tail = [wf + x for x in flat[starts[j + 1] :]]
            mine = own[j]
            new_flat += [wf + x for x in mine[c - 1]]
            new_flat += tail
            if m < last:
                new_own.append([[], *[[wf + x for x in mine[q - 1]] + tail for q in range(1, c)]])
        new_starts.append(len(new_flat))
        flat, starts, own = new_flat, new_starts, new_own
    return flat


def _multisets(faces: int, size: int, most: int) -> list[tuple[int, ...]]:
    return [
        c
        for c in itertools.combinations_with_replacement(range(faces), size)
        if all(c.count(f) <= most for f in set(c))
    ]


def _build(rules: RuleSet) -> AuctionTables:
    deck = rules.deck
    faces = deck.faces
    auction = part_of(rules, rules.bidding, Auction)
    contract = part_of(rules, rules.contract, ContractRules)
    numbering = ActionNumbering[AuctionActionMeaning]()
    add = numbering.add
    play_ids = tuple(
        add(Action.make(Verb.PLAY, [c]), AuctionActionMeaning(ActionKind.PLAY, number=f)) for f, c in enumerate(faces)
    )
    assert play_ids == tuple(range(deck.num_faces)), "the engine reads a play's face from its id"
    bid_ids = {
        b: add(Action(Verb.BID, number=b), AuctionActionMeaning(ActionKind.BID, number=b)) for b in auction.ladder
    }
    pass_id = add(Action(Verb.PASS), AuctionActionMeaning(ActionKind.PASS))
    trump_ids = tuple(
        add(Action(Verb.TRUMP, suit=s), AuctionActionMeaning(ActionKind.TRUMP, number=s.value)) for s in Suit
    )
    throw_in_id = add(Action(Verb.THROW_IN), AuctionActionMeaning(ActionKind.THROW_IN))
    give_ids = {}
    if contract.pass_cards:
        for combo in _multisets(deck.num_faces, contract.pass_cards, deck.packs):
            give = Action.make(Verb.GIVE, [faces[f] for f in combo])
            give_ids[combo] = add(give, AuctionActionMeaning(ActionKind.GIVE, faces=combo))
    bury_ids = {}
    if contract.bury:
        for combo in _multisets(deck.num_faces, contract.bury, deck.packs):
            bury_ids[combo] = add(
                Action.make(Verb.DISCARD, [faces[f] for f in combo]),
                AuctionActionMeaning(ActionKind.DISCARD, faces=combo),
            )
    meld_ids = {}
    kinds = rules.melds.kinds
    for laid in rules.melds.all_instances(deck):
        kind_index, inst = laid
        action = Action.make(Verb.MELD, [faces[f] for f in inst], meld=kinds[kind_index].name)
        meld_ids[laid] = add(action, AuctionActionMeaning(ActionKind.MELD, laid=laid))
    best_id = add(Action(Verb.MELD, meld="best"), AuctionActionMeaning(ActionKind.BEST_MELD))
    help_id = -1
    if auction.pass_with_help:
        help_id = add(Action(Verb.PASS, with_help=True), AuctionActionMeaning(ActionKind.PASS_WITH_HELP))
    classes: dict[str, int] = {}
    for kind in kinds:
        classes.setdefault(kind.meld_class or "=" + kind.group, len(classes))
    kind_class = tuple(classes[k.meld_class or "=" + k.group] for k in kinds)
    checks = []
    for instances in rules.meld_instances:
        by_id = {}
        for kind_index, inst in instances:
            i = meld_ids[(kind_index, inst)]
            by_id[i] = MeldCheck(i, kind_class[kind_index], face_needs(inst))
        checks.append(tuple(by_id[i] for i in sorted(by_id)))
    meanings = numbering.meanings
    return AuctionTables(
        auction=auction,
        contract=contract,
        scoring=part_of(rules, rules.scoring, ContractScoring),
        actions=numbering.space(),
        meanings=tuple(meanings),
        action_table=ActionTable.of(
            (m.kind for m in meanings),
            face=(m.number if m.kind is ActionKind.PLAY else -1 for m in meanings),
            meld_kind=(m.laid[0] if m.laid is not None else -1 for m in meanings),
            number=(m.number if m.kind is ActionKind.BID else -1 for m in meanings),
            suit=(m.number if m.kind is ActionKind.TRUMP else -1 for m in meanings),
        ),
        bidding=BidTable(
            bid_ids=MappingProxyType(bid_ids), pass_id=pass_id, help_id=help_id, trump_ids=trump_ids,
            throw_in_id=throw_in_id,
        ),
        cards=CardTable(
            play_ids=play_ids,
            give_ids=MappingProxyType(give_ids),
            bury_ids=MappingProxyType(bury_ids),
            give_weights=_weights(give_ids, deck.num_faces, deck.packs),
            bury_weights=_weights(bury_ids, deck.num_faces, deck.packs),
        ),
        melds=MeldIndex(
            meld_ids=MappingProxyType(meld_ids), best_id=best_id, kind_class=kind_class, checks=tuple(checks)
        ),
    )  # fmt: skip
