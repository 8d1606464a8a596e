"""The auction engine: bid, widow, trumps, passing, melds laid down at once, tricks, settlement.

For the Pinochle games without a stock. The engine
sequences the phases; the rules come from the rule set's parts: the `Auction`
(bids), the `ContractRules` (widow, passing, who melds, who leads, concessions),
the meld table (laid down at once: `best_melds` / `melds_fit`), the trick policy
(head the trick), the counters, and the `ContractScoring`.

Phases: ``BID`` (``bid N`` / ``pass``), ``TRUMP`` (``pass`` turns the widow up when
the bidder could still concede without seeing it; then ``trump S``; ``throw-in``
concedes), ``GIVE`` (``give`` the partner's cards to the declarer, then back),
``MELD`` (``meld best`` lays down the best combination at once; or lay melds one
by one with ``meld <kind> <cards>`` and finish with ``pass``), ``DISCARD`` (the
bidder buries cards, not ones used in his melds unless ``bury_melded``),
``CONCEDE`` (a declarer far short of the bid after the melds: ``throw-in`` or
``pass``), ``TRICKS``, ``OVER``.

The state record. An `AuctionDeal` is its fixed `DealSetup` (rules, deck order,
seed, dealer, the compiled `AuctionTables`) and one `AuctionCore`, a NamedTuple
changed with ``_replace`` (one measured exception: `_card_played`). Its fields:

- ``stage``: the phase; ``player``: who acts (-1 once over);
- ``hands``: per player, the mask of physical cards held; ``widow``: the widow's
  cards until the declarer takes them; ``widow_shown``: it was turned face up;
- ``passed``: a bit per player out of the auction; ``declarer``: the high bidder
  (-1: none); ``bid``: the high bid (0: none); ``trump``: the trump suit index (-1);
- ``conceded``: how the declarer conceded (a `Concession`, ``""`` if not);
- ``give_step``: passing cards (1 the partner gives, 2 the declarer gives back, 0
  otherwise); ``given``: the cards passed so far;
- ``laid``: per player, the melds laid down; ``known``: per player, the held cards
  everyone knows of (melded cards the melds still need, the widow's cards until the
  burial); ``to_meld``: who is still to meld, in order;
- ``buried``: the declarer's buried cards;
- ``leader``, ``trick``: the current trick and who led it; ``last_trick``,
  ``last_leader``: the previous one; ``won``: per player, the mask of cards won;
  ``taken``: per player, tricks taken; ``last_winner``: who won the last trick;
- ``points``: per side, the deal's points (or units) once over; ``misdeal``: all
  passed and the deal was thrown in;
- ``moves``: every action so far, as (player, action id) pairs.

The tables (`AuctionTables`, built once per rule set by `AuctionEngine.compile`):
``meanings`` says per action id what it does (an `ActionKind` and its face, bid,
suit, faces or meld); ``bidding`` holds the ids of bids, passes, trumps and the
throw-in; ``cards`` those of plays (a play's id is its face), gives and burials,
with the weights that list the legal gives and burials of a hand; ``melds`` those
of the meld phase, with per trump suit the meld instances to test.
Legality (``_compute_legal``, ``_refusal``) only reads the state; the
transitions (``_apply_id`` and the phase steps it calls) build the next one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple, cast

import attrs
from typing_extensions import Self

from ..actions import Action, ActionKind, ActionSpace, ActionTable, Verb
from ..bits import bit_ids, fold_copies, lowest_bit
from ..cards import CardSet, Suit
from ..checks import check_seat
from ..deck import card_ids
from ..errors import DealError, RuleCode
from ..parts.auction import Auction, Concession, ContractRules, ContractScoring
from ..parts.melds import Laid, MeldKind, best_melds
from ..parts.scoring import ScoreBreakdown
from ..parts.trumps import NO_TRUMP
from ..rules.ruleset import RuleSet, part_of
from ..state.deal import DealSetup, DealState, Move, Phase, PlayerView, TableMeld, relabel_mask
from ..state.knowledge import replayed, sample_hidden, swap_walk

__all__ = [
    "AuctionActionMeaning",
    "AuctionCore",
    "AuctionDeal",
    "AuctionEngine",
    "AuctionTables",
    "BidTable",
    "CardTable",
    "MeldCheck",
    "MeldIndex",
]

_PLAY = ActionKind.PLAY
_BID = ActionKind.BID
_PASS = ActionKind.PASS
_HELP = ActionKind.PASS_WITH_HELP
_TRUMP = ActionKind.TRUMP
_THROW_IN = ActionKind.THROW_IN
_GIVE = ActionKind.GIVE
_BURY = ActionKind.DISCARD
_MELD = ActionKind.MELD
_BEST = ActionKind.BEST_MELD


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
    actions: list[Action] = []
    meanings: list[AuctionActionMeaning] = []

    def add(action: Action, meaning: AuctionActionMeaning) -> int:
        actions.append(action)
        meanings.append(meaning)
        return len(actions) - 1

    play_ids = tuple(
        add(Action.make(Verb.PLAY, [c]), AuctionActionMeaning(_PLAY, number=f)) for f, c in enumerate(faces)
    )
    assert play_ids == tuple(range(deck.num_faces)), "the engine reads a play's face from its id"
    bid_ids = {b: add(Action(Verb.BID, number=b), AuctionActionMeaning(_BID, number=b)) for b in auction.ladder}
    pass_id = add(Action(Verb.PASS), AuctionActionMeaning(_PASS))
    trump_ids = tuple(add(Action(Verb.TRUMP, suit=s), AuctionActionMeaning(_TRUMP, number=s.value)) for s in Suit)
    throw_in_id = add(Action(Verb.THROW_IN), AuctionActionMeaning(_THROW_IN))
    give_ids = {}
    if contract.pass_cards:
        for combo in _multisets(deck.num_faces, contract.pass_cards, deck.packs):
            give = Action.make(Verb.GIVE, [faces[f] for f in combo])
            give_ids[combo] = add(give, AuctionActionMeaning(_GIVE, faces=combo))
    bury_ids = {}
    if contract.bury:
        for combo in _multisets(deck.num_faces, contract.bury, deck.packs):
            bury_ids[combo] = add(
                Action.make(Verb.DISCARD, [faces[f] for f in combo]), AuctionActionMeaning(_BURY, faces=combo)
            )
    meld_ids = {}
    kinds = rules.melds.kinds
    for laid in rules.melds.all_instances(deck):
        kind_index, inst = laid
        action = Action.make(Verb.MELD, [faces[f] for f in inst], meld=kinds[kind_index].name)
        meld_ids[laid] = add(action, AuctionActionMeaning(_MELD, laid=laid))
    best_id = add(Action(Verb.MELD, meld="best"), AuctionActionMeaning(_BEST))
    help_id = add(Action(Verb.PASS, with_help=True), AuctionActionMeaning(_HELP)) if auction.pass_with_help else -1
    classes: dict[str, int] = {}
    for kind in kinds:
        classes.setdefault(kind.meld_class or "=" + kind.group, len(classes))
    kind_class = tuple(classes[k.meld_class or "=" + k.group] for k in kinds)
    checks = []
    for instances in rules.meld_instances:
        by_id = {}
        for kind_index, inst in instances:
            i = meld_ids[(kind_index, inst)]
            need = tuple((f, inst.count(f)) for f in sorted(set(inst)))
            by_id[i] = MeldCheck(i, kind_class[kind_index], need)
        checks.append(tuple(by_id[i] for i in sorted(by_id)))
    return AuctionTables(
        auction=auction,
        contract=contract,
        scoring=part_of(rules, rules.scoring, ContractScoring),
        actions=ActionSpace.of(actions),
        meanings=tuple(meanings),
        action_table=ActionTable.of(
            (m.kind for m in meanings),
            face=(m.number if m.kind is _PLAY else -1 for m in meanings),
            meld_kind=(m.laid[0] if m.laid is not None else -1 for m in meanings),
            number=(m.number if m.kind is _BID else -1 for m in meanings),
            suit=(m.number if m.kind is _TRUMP else -1 for m in meanings),
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


_DETERMINIZE_TRIES = 2_000
"""How many deals of the hidden cards `AuctionDeal._determinize` tries for one that fits the
melds and burial seen before it walks from the deal itself (`knowledge.swap_walk`)."""
_WALK_STEPS = 400
"""How many swaps that walk tries."""


class _MeldTimeHand(NamedTuple):
    """What `AuctionDeal._determinize` checks of a guessed hand of another player: his hand
    when he melded, rebuilt from the guess, must explain what everyone saw."""

    player: int
    """The melder."""
    laid: tuple[Laid, ...]
    """The melds he laid."""
    played: tuple[int, ...]
    """Per face: the cards he has played since (they were in his hand when he melded)."""
    best: bool
    """He laid them with ``meld best``: the guessed hand must make exactly these melds."""
    burial: bool
    """He is the declarer and buried hidden cards: they must be cards his melds left spare."""


def _meld_need(kinds: tuple[MeldKind, ...], laid: tuple[Laid, ...]) -> dict[int, int]:
    """Per face: the copies the melds ``laid`` use together (a card serves once per class,
    so a face is needed as often as its busiest class needs it)."""
    per_class: dict[tuple[str, int], int] = {}
    for k, faces in laid:
        key = kinds[k].meld_class or kinds[k].group
        for f in faces:
            per_class[(key, f)] = per_class.get((key, f), 0) + 1
    need: dict[int, int] = {}
    for (_key, f), count in per_class.items():
        need[f] = max(need.get(f, 0), count)
    return need


class AuctionEngine:
    """Builds auction-game deals and their action space."""

    name = "auction"

    @staticmethod
    def compile(rules: RuleSet) -> AuctionTables:
        """The numbered actions: plays by face, bids, pass, trumps, throw-in, gives and burials
        (card multisets), melds, ``meld best``, ``pass help``; and the engine's lookup tables."""
        return _build(rules)

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> AuctionDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        n = rules.players
        hands, widow, _turn_up, rest = rules.deal.deal(order, n, dealer)
        if rest:
            raise DealError(f"the deal pattern leaves {len(rest)} cards undealt")
        zeros = (0,) * n
        core = AuctionCore(
            stage=Phase.BID,
            player=(dealer + 1) % n,
            hands=hands,
            widow=widow,
            widow_shown=False,
            passed=0,
            declarer=-1,
            bid=0,
            trump=NO_TRUMP,
            conceded="",
            give_step=0,
            given=(),
            laid=((),) * n,
            known=zeros,
            to_meld=(),
            buried=(),
            leader=-1,
            trick=(),
            last_trick=(),
            last_leader=-1,
            won=zeros,
            taken=zeros,
            last_winner=-1,
            points=(0,) * len(rules.sides),
            misdeal=False,
            moves=(),
        )
        return AuctionDeal(DealSetup(rules, order, seed, dealer, cast(AuctionTables, rules.tables)), core)


class AuctionCore(NamedTuple):
    """The changing part of an auction-game deal."""

    stage: Phase
    """The phase."""
    player: int
    """Who is to act (-1 when over)."""
    hands: tuple[int, ...]
    """Per player: the mask of held cards."""
    widow: tuple[int, ...]
    """The widow (kitty), until the bidder takes it."""
    widow_shown: bool
    """Whether the widow has been turned face up."""
    passed: int
    """Bit per player: has passed in the auction."""
    declarer: int
    """The high bidder (the declarer once the auction ends), or -1."""
    bid: int
    """The high bid (0: none yet)."""
    trump: int
    """The trump suit index, or -1."""
    conceded: Concession
    """How the declarer conceded (``"before_widow"``, ``"after_widow"``, ``"after_meld"``), or ``""``."""
    give_step: int
    """Passing: 0 not yet / done, 1 the partner gives, 2 the declarer gives back."""
    given: tuple[int, ...]
    """The cards passed so far (partner's, then declarer's), physical ids."""
    laid: tuple[tuple[Laid, ...], ...]
    """Per player: the melds laid down."""
    known: tuple[int, ...]
    """Per player: held cards everyone has seen (melded, or from the widow)."""
    to_meld: tuple[int, ...]
    """The players still to lay down melds, in order."""
    buried: tuple[int, ...]
    """The cards the bidder buried, physical ids."""
    leader: int
    """Who led the current trick."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick."""
    won: tuple[int, ...]
    """Per player: the mask of cards won in tricks."""
    taken: tuple[int, ...]
    """Per player: tricks taken."""
    last_winner: int
    """Who won the last trick (-1 before the end)."""
    points: tuple[int, ...]
    """Per side: the deal's points (or units), once over."""
    misdeal: bool
    """Everyone passed and the deal was thrown in."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""


@attrs.frozen(repr=False)  # DealState.__repr__: short
class AuctionDeal(DealState):
    """A deal of an auction game (three-hand, partnership or double-deck Pinochle): immutable."""

    setup: DealSetup[AuctionTables]
    """The rules, deck order, seed and dealer."""
    core: AuctionCore
    """Everything that changes during the deal."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")

    # -- accessors ------------------------------------------------------------

    @property
    def widow(self) -> tuple[int, ...]:
        """The widow while it lies on the table."""
        return self.core.widow

    @property
    def buried(self) -> tuple[int, ...]:
        """The buried cards."""
        return self.core.buried

    @property
    def declarer(self) -> int | None:
        """The high bidder (declarer), or None."""
        return None if self.core.declarer < 0 else self.core.declarer

    @property
    def thrown_in(self) -> bool:
        """Whether everyone passed and the deal was thrown in."""
        return self.core.misdeal

    @property
    def contract_side(self) -> int | None:
        """The declarer's side, once the auction has a winner."""
        d = self.core.declarer
        return None if d < 0 or self.core.misdeal else self.setup.rules.side_of(d)

    @property
    def scores(self) -> tuple[int, ...]:
        """The deal's points (or units) per side, once settled (zeros before)."""
        return self.core.points

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where each side's points came from (melds and counters when they count, the
        contract when the bid was lost or conceded, or the units of a settlement)."""
        if self.core.stage is not Phase.OVER or self.core.misdeal:
            return tuple(ScoreBreakdown() for _ in self.core.points)
        return self._settlement()[1]

    def meld_points(self) -> tuple[int, ...]:
        """Points of the melds laid down, per player."""
        kinds = self.setup.rules.melds.kinds
        return tuple(sum(kinds[k].points for k, _f in laid) for laid in self.core.laid)

    # -- legality --------------------------------------------------------------

    def _counts(self, hand: int) -> list[int]:
        deck = self.setup.rules.deck
        return [(hand & fm).bit_count() for fm in deck.face_masks]

    def _compute_legal(self) -> tuple[int, ...]:
        c = self.core
        stage = c.stage
        if stage is Phase.TRICKS:  # a play's id is its face (`CardTable.play_ids`)
            rules = self.setup.rules
            deck = rules.deck
            playable = rules.playoff_policy.legal(
                rules.trump_tables[c.trump], c.hands[c.player], c.trick, self._partner_winning()
            )
            return tuple(bit_ids(fold_copies(playable, deck.num_faces, deck.packs)))
        t = self.setup.tables
        if stage is Phase.GIVE:
            return tuple(self._multisets_held(self._counts(c.hands[c.player]), t.cards.give_weights))
        if stage is Phase.DISCARD:
            contract = self.setup.tables.contract
            counts = self._counts(c.hands[c.player])
            ids = []
            if not contract.bury_melded:
                spare = self._spare_counts(c.player)
                ids = self._multisets_held([max(0, n) for n in spare], t.cards.bury_weights)
            if not ids:  # too few unmelded cards: any may then be buried
                ids = self._multisets_held(counts, t.cards.bury_weights)
            if contract.concede_after_widow:
                ids.insert(0, t.bidding.throw_in_id)
            return tuple(ids)
        if stage is Phase.MELD:
            return self._meld_legal()
        return tuple(sorted(set(self._legal_list())))

    def _multisets_held(self, counts: list[int], weights: tuple[tuple[int, ...], ...]) -> list[int]:
        """The ids of the distinct multisets (gives or burials) from ``counts`` cards of each face."""
        held = [f for f, n in enumerate(counts) if n]
        return _multiset_ids(weights, held, [counts[f] for f in held])

    def _meld_legal(self) -> tuple[int, ...]:
        """``pass``, the melds that fit beside those laid down, ``meld best`` (as `melds_fit`)."""
        c = self.core
        t = self.setup.tables
        p = c.player
        counts = self._counts(c.hands[p])
        laid = c.laid[p]
        ids = [t.bidding.pass_id]
        checks = t.melds.checks[c.trump]
        if not laid:
            for i, _cls, need in checks:
                for f, n in need:
                    if counts[f] < n:
                        break
                else:
                    ids.append(i)
        else:
            nf = len(counts)
            demand: dict[int, int] = {}
            kind_class = t.melds.kind_class
            for k, faces in laid:
                base = kind_class[k] * nf
                for f in faces:
                    demand[base + f] = demand.get(base + f, 0) + 1
            if all(n <= counts[key % nf] for key, n in demand.items()):
                get = demand.get
                for i, cls, need in checks:
                    base = cls * nf
                    for f, n in need:
                        if get(base + f, 0) + n > counts[f]:
                            break
                    else:
                        ids.append(i)
        ids.append(t.melds.best_id)
        return tuple(ids)

    def _legal_list(self) -> list[int]:
        """The legal ids in the bidding, trump and concede phases (any order)."""
        c = self.core
        table = self.setup.tables.bidding
        rules = self.setup.rules
        contract = self.setup.tables.contract
        stage = c.stage
        p = c.player
        if stage is Phase.BID:
            auction = self.setup.tables.auction
            ids = [table.bid_ids[b] for b in auction.bids_above(c.bid or None)]
            n = rules.players
            stuck = (
                auction.all_pass == "dealer_stuck"
                and p == self.setup.dealer
                and c.bid == 0
                and c.passed.bit_count() == n - 1
            )
            if not stuck:
                ids.append(table.pass_id)
                if table.help_id >= 0:
                    ids.append(table.help_id)
            return ids
        if stage is Phase.TRUMP:
            if contract.widow and not c.widow_shown:
                return [table.pass_id, table.throw_in_id]
            ids = list(table.trump_ids)
            if contract.concede_after_widow:
                ids.append(table.throw_in_id)
            return ids
        if stage is Phase.CONCEDE:
            return [table.pass_id, table.throw_in_id]
        return []  # over

    def _combos(self, hand: int, size: int) -> set[tuple[int, ...]]:
        face_of = self.setup.rules.deck.face_of
        faces = sorted(face_of[pid] for pid in card_ids(hand))
        return set(itertools.combinations(faces, size))

    def _partner_winning(self) -> bool:
        c = self.core
        rules = self.setup.rules
        if not c.trick or not rules.partnership:
            return False
        n = rules.players
        seat = (c.leader + rules.trump_tables[c.trump].winner(c.trick)) % n
        return seat != c.player and seat % 2 == c.player % 2

    def _spare_counts(self, player: int) -> list[int]:
        """Per face: the copies ``player`` holds beyond those his melds use (a card serves
        once per class, so a face is needed as often as its busiest class needs it)."""
        need = _meld_need(self.setup.rules.melds.kinds, self.core.laid[player])
        counts = self._counts(self.core.hands[player])
        return [held - need.get(f, 0) for f, held in enumerate(counts)]

    def _may_throw_in(self) -> bool:
        """After the melds: a declarer far enough short of the bid may concede."""
        c = self.core
        rules = self.setup.rules
        contract = self.setup.tables.contract
        if contract.throw_in_short is None:
            return False
        side = rules.side_of(c.declarer)
        meld = sum(pts for q, pts in enumerate(self.meld_points()) if rules.side_of(q) == side)
        return c.bid - meld >= contract.throw_in_short

    def _bid_refusal(self, number: int) -> tuple[RuleCode, str]:
        c = self.core
        if c.stage is not Phase.BID:
            return RuleCode.WRONG_PHASE, "the auction is over"
        auction = self.setup.tables.auction
        if number <= c.bid:
            return RuleCode.BID_TOO_LOW, f"a bid must be higher than {c.bid}"
        if number < auction.minimum:
            return RuleCode.BID_TOO_LOW, f"the lowest bid is {auction.minimum}"
        if c.bid and number in auction.ladder and number not in auction.bids_above(c.bid):
            return RuleCode.RAISE_TOO_BIG, f"a raise is one of {', '.join(map(str, auction.bids_above(c.bid)))}"
        return RuleCode.BID_TOO_LOW, "not an allowed bid (off the step)"

    def _unlisted(self, action: Action) -> tuple[RuleCode, str] | None:
        if action.verb is Verb.BID and action.number is not None:
            return self._bid_refusal(action.number)
        return None

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        c = self.core
        meaning = self.setup.tables.meanings[action_id]
        kind, laid = meaning.kind, meaning.laid
        stage = c.stage
        rules = self.setup.rules
        if kind == _PLAY:
            if stage is not Phase.TRICKS:
                return RuleCode.WRONG_PHASE, f"no card is played during the {stage.value} phase"
            pid = self._pick(meaning.number, c.hands[c.player])
            if pid < 0:
                return RuleCode.CARD_NOT_HELD, "you do not hold that card"
            why = rules.playoff_policy.refusal(
                rules.trump_tables[c.trump], c.hands[c.player], c.trick, pid, self._partner_winning()
            )
            return why or (RuleCode.NOT_AN_ACTION, "not playable")
        if kind == _BID:
            return self._bid_refusal(meaning.number)
        if kind in (_PASS, _HELP):
            if stage is Phase.BID and c.bid == 0:
                return RuleCode.MUST_BID, "everyone else passed: the dealer must bid"
            return RuleCode.WRONG_PHASE, f"nothing to pass during the {stage.value} phase"
        if kind == _TRUMP:
            if stage is Phase.TRUMP:
                return RuleCode.WRONG_PHASE, "turn up the widow first ('pass') or concede ('throw-in')"
            return RuleCode.WRONG_PHASE, "only the declarer names trumps, after the auction"
        if kind == _GIVE:
            if stage is not Phase.GIVE:
                return RuleCode.WRONG_PHASE, "cards are passed after trumps are named"
            return (
                RuleCode.CARD_NOT_HELD,
                f"pass exactly {self.setup.tables.contract.pass_cards} cards that you hold",
            )
        if kind == _BURY:
            if stage is not Phase.DISCARD:
                return RuleCode.WRONG_PHASE, "the bidder buries cards after melding"
            if meaning.faces in self._combos(c.hands[c.player], self.setup.tables.contract.bury):
                return RuleCode.BURY_MELDED, "a card used in your melds may not be buried"
            return (
                RuleCode.CARD_NOT_HELD,
                f"bury exactly {self.setup.tables.contract.bury} cards that you hold",
            )
        if kind in (_MELD, _BEST):
            if stage is not Phase.MELD:
                return RuleCode.WRONG_PHASE, "melds are laid down in the meld phase"
            if laid is not None:
                if laid not in rules.meld_instances[c.trump]:
                    return RuleCode.NOT_A_MELD, "these cards do not form that meld with these trumps"
                counts = self._counts(c.hands[c.player])
                if any(laid[1].count(f) > counts[f] for f in set(laid[1])):
                    return RuleCode.CARD_NOT_HELD, "you do not hold those cards"
            return RuleCode.MELD_CARD_REUSED, "you cannot also make that meld: a card serves once in each class"
        return RuleCode.WRONG_PHASE, "you cannot concede now"

    def _pick(self, face: int, hand: int, known: int = 0) -> int:
        """The physical card of ``face`` that leaves ``hand``: a ``known`` copy first (so
        what the others know of the hand does not depend on which copy it was), or -1."""
        copies = hand & self.setup.rules.deck.face_masks[face]
        return lowest_bit(copies & known or copies)

    # -- transitions ------------------------------------------------------------

    def _apply_id(self, action_id: int) -> Self:
        c = self.core
        p = c.player
        moves = c.moves + ((p, action_id),)
        stage = c.stage
        if stage is Phase.TRICKS:  # a play's id is its face (`CardTable.play_ids`)
            return self._play(c, self._pick(action_id, c.hands[p], c.known[p]), moves)
        meaning = self.setup.tables.meanings[action_id]
        kind = meaning.kind
        c = c._replace(moves=moves)
        if stage is Phase.CONCEDE:
            if kind == _THROW_IN:
                return self._over(c._replace(conceded="after_meld"))
            return self._start_play(c)
        if stage is Phase.BID:
            return self._bid(c, meaning.number if kind == _BID else 0)
        if kind == _THROW_IN:
            return self._over(c._replace(conceded="after_widow" if c.widow_shown or not c.widow else "before_widow"))
        if stage is Phase.TRUMP:
            if kind == _PASS:
                return self._take_widow(c)
            return self._after_trump(c._replace(trump=meaning.number))
        if stage is Phase.GIVE:
            return self._give(c, meaning.faces)
        if stage is Phase.MELD:
            return self._meld(c, meaning)
        return self._bury(c, meaning.faces)

    def _bid(self, c: AuctionCore, amount: int) -> Self:
        """A bid of ``amount`` (0: a pass, with or without help) by the player to act."""
        n = self.setup.rules.players
        p = c.player
        if amount:
            c = c._replace(bid=amount, declarer=p)
        else:
            c = c._replace(passed=c.passed | (1 << p))
        passed = c.passed
        active = [q for q in range(n) if not (passed >> q) & 1]
        if not active:
            return self._make(self.setup, c._replace(stage=Phase.OVER, player=-1, misdeal=True))
        if len(active) == 1 and c.bid:
            return self._won_auction(c)
        nxt = (p + 1) % n
        while (passed >> nxt) & 1:
            nxt = (nxt + 1) % n
        return self._make(self.setup, c._replace(player=nxt))

    def _won_auction(self, c: AuctionCore) -> Self:
        contract = self.setup.tables.contract
        auction = self.setup.tables.auction
        c = c._replace(stage=Phase.TRUMP, player=c.declarer)
        if contract.widow and contract.concede_before_widow and c.bid == auction.minimum:
            return self._make(self.setup, c)
        if contract.widow:
            return self._take_widow(c)
        return self._make(self.setup, c)

    def _take_widow(self, c: AuctionCore) -> Self:
        d = c.declarer
        widow_mask = sum(1 << x for x in c.widow)
        hands = _set(c.hands, d, c.hands[d] | widow_mask)
        known = _set(c.known, d, c.known[d] | widow_mask)
        return self._make(self.setup, c._replace(hands=hands, known=known, widow=(), widow_shown=True))

    def _after_trump(self, c: AuctionCore) -> Self:
        rules = self.setup.rules
        contract = self.setup.tables.contract
        n = rules.players
        if contract.pass_cards and rules.partnership:
            return self._make(self.setup, c._replace(stage=Phase.GIVE, player=(c.declarer + 2) % n, give_step=1))
        return self._start_melds(c)

    def _give(self, c: AuctionCore, combo: tuple[int, ...]) -> Self:
        rules = self.setup.rules
        n = rules.players
        giver = c.player
        to = c.declarer if c.give_step == 1 else (c.declarer + 2) % n
        hand = c.hands[giver]
        cards = []
        for f in combo:
            pid = self._pick(f, hand, c.known[giver])
            cards.append(pid)
            hand &= ~(1 << pid)
        moved = sum(1 << x for x in cards)
        hands = _set(_set(c.hands, giver, hand), to, c.hands[to] | moved)
        # the others do not see which cards went: none of the giver's cards stays known to be held
        c = c._replace(hands=hands, given=(*c.given, *cards), known=_set(c.known, giver, 0))
        if c.give_step == 1:
            return self._make(self.setup, c._replace(player=c.declarer, give_step=2))
        return self._start_melds(c._replace(give_step=0))

    def _start_melds(self, c: AuctionCore) -> Self:
        rules = self.setup.rules
        contract = self.setup.tables.contract
        n = rules.players
        if contract.melders == "declarer":
            order: tuple[int, ...] = (c.declarer,)
        else:
            order = tuple((c.declarer + i) % n for i in range(n))
        return self._make(self.setup, c._replace(stage=Phase.MELD, player=order[0], to_meld=order))

    def _meld(self, c: AuctionCore, meaning: AuctionActionMeaning) -> Self:
        rules = self.setup.rules
        p = c.player
        if meaning.laid is not None:
            return self._show(c, (*c.laid[p], meaning.laid), done=False)
        if meaning.kind == _BEST:
            _points, best = best_melds(rules.melds, rules.meld_instances[c.trump], self._counts(c.hands[p]))
            return self._show(c, best, done=True)
        return self._next_melder(c)

    def _show(self, c: AuctionCore, laid: tuple[Laid, ...], *, done: bool) -> Self:
        """Lay down ``laid`` for the current player: the cards become known."""
        rules = self.setup.rules
        p = c.player
        shown = 0
        known = c.known[p]
        for f, count in _meld_need(rules.melds.kinds, laid).items():
            # known copies first (a shown widow card): what the others know then grows the
            # same way whatever copies are concealed
            copies = card_ids(c.hands[p] & rules.deck.face_masks[f])
            for pid in sorted(copies, key=lambda x: not (known >> x) & 1)[:count]:
                shown |= 1 << pid
        c = c._replace(laid=_set_t(c.laid, p, laid), known=_set(c.known, p, c.known[p] | shown))
        if done:
            return self._next_melder(c)
        return self._make(self.setup, c)

    def _next_melder(self, c: AuctionCore) -> Self:
        contract = self.setup.tables.contract
        rest = c.to_meld[1:]
        if rest:
            return self._make(self.setup, c._replace(to_meld=rest, player=rest[0]))
        c = c._replace(to_meld=())
        if contract.bury:
            return self._make(self.setup, c._replace(stage=Phase.DISCARD, player=c.declarer))
        if self._make(self.setup, c)._may_throw_in():
            return self._make(self.setup, c._replace(stage=Phase.CONCEDE, player=c.declarer))
        return self._start_play(c)

    def _bury(self, c: AuctionCore, combo: tuple[int, ...]) -> Self:
        """Bury ``combo`` (faces). What stays public: the copies the declarer's melds need,
        when the rules keep them out of the burial; every other card (the widow's too) may
        be among the hidden buried cards, so it is no longer known to be held."""
        d = c.declarer
        hand = c.hands[d]
        rules = self.setup.rules
        keep = 0
        if not self.setup.tables.contract.bury_melded:
            need = _meld_need(rules.melds.kinds, c.laid[d])
            counts = self._counts(hand)
            if sum(max(0, n - need.get(f, 0)) for f, n in enumerate(counts)) >= len(combo):
                for f, n in need.items():
                    for pid in card_ids(hand & c.known[d] & rules.deck.face_masks[f])[:n]:
                        keep |= 1 << pid
        cards = []
        for f in combo:
            pid = self._pick(f, hand & ~keep)
            cards.append(pid)
            hand &= ~(1 << pid)
        known = _set(c.known, d, keep)
        return self._start_play(c._replace(hands=_set(c.hands, d, hand), known=known, buried=tuple(cards)))

    def _start_play(self, c: AuctionCore) -> Self:
        rules = self.setup.rules
        contract = self.setup.tables.contract
        leader = c.declarer if contract.leader == "declarer" else (self.setup.dealer + 1) % rules.players
        return self._make(self.setup, c._replace(stage=Phase.TRICKS, player=leader, leader=leader))

    def _play(self, c: AuctionCore, pid: int, moves: tuple[Move, ...]) -> Self:
        rules = self.setup.rules
        n = rules.players
        p = c.player
        bit = 1 << pid
        hands = _set(c.hands, p, c.hands[p] ^ bit)
        known = _set(c.known, p, c.known[p] & ~bit) if c.known[p] & bit else c.known
        trick = (*c.trick, pid)
        if len(trick) < n:
            return self._make(self.setup, _card_played(c, moves, hands, known, trick, (p + 1) % n))
        leader = c.leader
        winner = (leader + rules.trump_tables[c.trump].winner(trick)) % n
        won = 0
        for x in trick:
            won |= 1 << x
        c = c._replace(
            moves=moves,
            hands=hands,
            known=known,
            won=_set(c.won, winner, c.won[winner] | won),
            taken=_set(c.taken, winner, c.taken[winner] + 1),
            trick=(),
            last_trick=trick,
            last_leader=leader,
            leader=winner,
            player=winner,
        )
        if hands[winner]:
            return self._make(self.setup, c)
        return self._over(c._replace(last_winner=winner))

    def _over(self, c: AuctionCore) -> Self:
        state = self._make(self.setup, c._replace(stage=Phase.OVER, player=-1))
        points = tuple(b.total for b in state._settlement()[1])
        return self._make(self.setup, state.core._replace(points=points))

    def _settlement(self) -> tuple[tuple[int, ...], tuple[ScoreBreakdown, ...]]:
        c = self.core
        rules = self.setup.rules
        scoring = self.setup.tables.scoring
        sides = len(rules.sides)
        values = rules.card_values
        melds = [0] * sides
        counters = [0] * sides
        last = [0] * sides
        tricks = [0] * sides
        for q, pts in enumerate(self.meld_points()):
            melds[rules.side_of(q)] += pts
        for q in range(rules.players):
            s = rules.side_of(q)
            counters[s] += sum(values[x] for x in card_ids(c.won[q]))
            tricks[s] += c.taken[q]
        declarer_side = rules.side_of(c.declarer)
        counters[declarer_side] += sum(values[x] for x in c.buried)
        counters = [rules.card_points.rounded(x) for x in counters]
        if c.last_winner >= 0:
            last[rules.side_of(c.last_winner)] += rules.card_points.last_trick
        counted = tuple(counters[s] + last[s] for s in range(sides))
        totals = scoring.settle(
            bid=c.bid, declarer=declarer_side, melds=tuple(melds), counters=counted, tricks=tuple(tricks),
            conceded=c.conceded,
        )  # fmt: skip
        breakdown = []
        for s in range(sides):
            counts_meld = bool(c.conceded) or not (scoring.meld_needs_trick and not tricks[s])
            if scoring.settlement == "units" or (s == declarer_side and (c.conceded or totals[s] < 0)):
                breakdown.append(ScoreBreakdown(contract=totals[s]))
            elif c.conceded:
                breakdown.append(ScoreBreakdown(melds=melds[s] if counts_meld else 0))
            else:
                breakdown.append(
                    ScoreBreakdown(melds=melds[s] if counts_meld else 0, cards=counters[s], last_trick=last[s])
                )
        return totals, tuple(breakdown)

    # -- knowledge ----------------------------------------------------------------

    def _public_move(self, move: Move, viewer: int) -> tuple[int, Action]:
        who, action_id = move
        action = self.setup.tables.actions.actions[action_id]
        if action.verb is Verb.DISCARD and who != viewer:
            return who, Action(Verb.DISCARD)
        if action.verb is Verb.GIVE and who != viewer:
            rules = self.setup.rules
            receiver = self.core.declarer if who != self.core.declarer else (who + 2) % rules.players
            if viewer != receiver:
                return who, Action(Verb.GIVE)
        return who, action

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: own hand, the widow once turned up, every meld laid
        down and card played; never the other hands, a face-down widow or buried cards."""
        rules = self.setup.rules
        n = rules.players
        check_seat(player, n)  # a real int seat (not a bool): DealError / DealTypeError
        c = self.core
        deck = rules.deck
        cards = deck.cards
        kinds = rules.melds.kinds
        empty = CardSet(())
        return PlayerView(
            player=player,
            phase=c.stage,
            current_player=self.current_player,
            dealer=self.setup.dealer,
            hand=CardSet(deck.cards_of(c.hands[player])),
            hand_sizes=tuple(h.bit_count() for h in c.hands),
            tabled=(empty,) * n,
            known=tuple(CardSet(deck.cards_of(k)) for k in c.known),
            trick=tuple(cards[x] for x in c.trick),
            trick_leader=c.leader,
            last_trick=tuple(cards[x] for x in c.last_trick),
            last_trick_leader=c.last_leader,
            trump=None if c.trump < 0 else Suit(c.trump),
            turn_up=None,
            stock_size=len(c.widow),
            scores=c.points,
            melds=tuple(
                TableMeld(q, kinds[k].name, CardSet(deck.faces[f] for f in faces), kinds[k].points)
                for q in range(n)
                for k, faces in c.laid[q]
            ),
            won=tuple(CardSet(deck.cards_of(w)) for w in c.won),
            history=tuple(self._public_move(mv, player) for mv in c.moves),
            maker=self.declarer,
            buried=tuple(CardSet(cards[x] for x in c.buried)) if player == c.declarer else (),
            rules=rules,
            legal=self.legal_actions() if self.current_player == player else (),
        )

    def _public_ids(self) -> int:
        out = super()._public_ids()
        for k in self.core.known:
            out |= k
        return out

    def _exclusions(self) -> list[int]:
        """Per player: cards the play shows they did not hold (from the tricks so far)."""
        rules = self.setup.rules
        n = rules.players
        c = self.core
        out = [0] * n
        if c.trump < 0:
            return out
        table = rules.trump_tables[c.trump]
        policy = rules.playoff_policy
        actions = self.setup.tables.actions.actions
        trick: list[int] = []
        seats: list[int] = []
        played = 0
        for who, action_id in c.moves:
            a = actions[action_id]
            if a.verb is not Verb.PLAY:
                continue
            pid = self._played_pid(a, played)
            played |= 1 << pid
            partner = False
            if trick and rules.partnership:
                w = seats[table.winner(tuple(trick))]
                partner = w != who and w % 2 == who % 2
            out[who] |= policy.excluded(table, tuple(trick), pid, partner)
            trick.append(pid)
            seats.append(who)
            if len(trick) == n:
                trick, seats = [], []
        return out

    def _played_pid(self, action: Action, played: int) -> int:
        """A physical id for a played card (the copies of a face are interchangeable here)."""
        deck = self.setup.rules.deck
        face = deck.face_index[action.cards[0]]
        return lowest_bit(deck.face_masks[face] & ~played)

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """A world ``player`` cannot tell from this deal: the cards he cannot see dealt again
        among their places (the other players' cards nobody has seen, a face-down widow, a
        burial he did not make), and the history made again on the deck that gives.

        What stays: every card known to all (melded and still needed, a shown widow's until
        the burial), and the cards passed by or to ``player``, where they went. What the
        history shows of the hidden cards is honoured: the voids the duties show in the play
        (`_exclusions`), and for every player who melded, his hand when he melded (his hand
        now, the cards he has played since, his burial) must hold the cards of his melds, make
        exactly the melds ``meld best`` laid, and leave spare the cards he buried when the
        rules keep melded cards out of the burial (`_hidden_checks`, `_fits`).

        What it samples: uniformly among the deals of the hidden cards that meet all that, by
        rejection (`knowledge.sample_hidden` for the voids, then the meld checks), up to
        ``_DETERMINIZE_TRIES`` deals; when none fits (late in a deal whose melds pin most of
        the hidden cards) a random walk of swaps from the deal itself, each keeping every
        check (`knowledge.swap_walk`: every step is a consistent deal; it is not exactly
        uniform). The deck holds two or four copies of each card and a record names cards,
        not copies, so the world is the replay of its history on its deck
        (`knowledge.replayed`): ``replay(record_of(world)) == world``.
        """
        rules = self.setup.rules
        n = rules.players
        c = self.core
        fixed = list(c.known)
        # cards this player passed to the declarer (or got back) are known to him
        if c.given and player in (c.declarer, (c.declarer + 2) % n):
            for x in c.given:
                for q in range(n):
                    if q != player and (c.hands[q] >> x) & 1:
                        fixed[q] |= 1 << x
        excluded = self._exclusions()
        slots: list[tuple[int, int]] = []
        owners: list[int] = []
        places: list[list[int]] = []
        for q in range(n):
            if q == player:
                continue
            free = c.hands[q] & ~fixed[q]
            owners.append(q)
            slots.append((free.bit_count(), excluded[q]))
            places.append(list(card_ids(free)))
        widow_hidden = list(c.widow) if not c.widow_shown else []
        buried_hidden = list(c.buried) if player != c.declarer else []
        slots.append((len(widow_hidden), 0))
        slots.append((len(buried_hidden), 0))
        places += [widow_hidden, buried_hidden]
        hidden = [x for cards in places for x in cards]
        checks = self._hidden_checks(player)

        def explains(dealt: list[list[int]]) -> bool:
            """Whether the hidden cards dealt so explain every meld and burial seen."""
            hands = list(c.hands)
            for q, new in zip(owners, dealt):
                hands[q] = (c.hands[q] & fixed[q]) | sum(1 << x for x in new)
            buried = dealt[-1] if buried_hidden else list(c.buried)
            return all(self._fits(check, hands[check.player], buried) for check in checks)

        dealt: list[list[int]] | None = None
        for _ in range(_DETERMINIZE_TRIES if checks else 1):
            guess = sample_hidden(hidden, slots, rng, tries=20)
            if guess is None:
                break
            if not checks or explains(guess):
                dealt = guess
                break
        if dealt is None:
            # No guess fitted (rare, late in a deal whose melds pin most hidden cards): walk
            # from the deal itself by swaps that keep every meld and burial explained.
            dealt = swap_walk(places, [forbid for _, forbid in slots], explains, rng, _WALK_STEPS)
        perm: dict[int, int] = {}
        for old, new in zip(places, dealt):
            perm.update(zip(old, new))
        world = self._relabel(perm)
        return replayed(world, world.setup.deck_order)

    def _hidden_checks(self, viewer: int) -> list[_MeldTimeHand]:
        """What a guessed hand must reproduce, for each other player who melded: the cards
        of his melds, the melds ``meld best`` laid, and the declarer's hidden burial (cards
        his melds did not need)."""
        c = self.core
        t = self.setup.tables
        rules = self.setup.rules
        actions = t.actions.actions
        deck = rules.deck
        out = []
        for q in range(rules.players):
            if q == viewer:
                continue
            best = any(who == q and action_id == t.melds.best_id for who, action_id in c.moves)
            burial = q == c.declarer and bool(c.buried) and not self.setup.tables.contract.bury_melded
            if not (c.laid[q] or best or burial):
                continue
            played = [0] * deck.num_faces
            for who, action_id in c.moves:
                if who == q and actions[action_id].verb is Verb.PLAY:
                    played[deck.face_index[actions[action_id].cards[0]]] += 1
            out.append(_MeldTimeHand(q, c.laid[q], tuple(played), best=best, burial=burial))
        return out

    def _fits(self, check: _MeldTimeHand, hand: int, buried: list[int]) -> bool:
        """Whether a guessed ``hand`` (now) and burial agree with ``check``: his hand when
        he melded (``hand``, the cards played since, the burial for the declarer) holds the
        cards of his melds, makes exactly the melds ``meld best`` laid, and the burial was
        his to make."""
        rules = self.setup.rules
        face_of = rules.deck.face_of
        counts = [n + p for n, p in zip(self._counts(hand), check.played)]
        if check.player == self.core.declarer:
            for x in buried:
                counts[face_of[x]] += 1
        need = _meld_need(rules.melds.kinds, check.laid)
        if any(counts[f] < k for f, k in need.items()):
            return False
        if check.best and best_melds(rules.melds, rules.meld_instances[self.core.trump], counts)[1] != check.laid:
            return False
        if check.burial:
            spare = [max(0, n - need.get(f, 0)) for f, n in enumerate(counts)]
            if sum(spare) >= len(buried):  # else any cards may be buried
                return all(spare[face_of[x]] >= sum(1 for y in buried if face_of[y] == face_of[x]) for x in buried)
        return True

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with its physical cards renamed by ``perm`` (a permutation of physical
        ids; ids it leaves out stay), everywhere a card is named: the deck as dealt, the
        hands, the widow, the cards passed and buried (and the ``give`` and burial moves that
        name them), the known cards, the tricks and the cards won. Plays and melds name faces
        and stay (a permutation of cards nobody has seen leaves them as they are). The seed
        goes (the deck is no longer the seed's)."""
        rules = self.setup.rules
        c = self.core
        t = self.setup.tables
        face_of = rules.deck.face_of

        def re(x: int) -> int:
            return perm.get(x, x)

        def masks(row: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(relabel_mask(m, perm) for m in row)

        given = tuple(re(x) for x in c.given)
        buried = tuple(re(x) for x in c.buried)
        moves = list(c.moves)
        gives = [i for i, (_, action_id) in enumerate(moves) if t.meanings[action_id].kind == _GIVE]
        k = t.contract.pass_cards
        for g, i in enumerate(gives):
            combo = tuple(sorted(face_of[x] for x in given[g * k : (g + 1) * k]))
            moves[i] = (moves[i][0], t.cards.give_ids[combo])
        for i, (who, action_id) in enumerate(moves):
            if t.meanings[action_id].kind == _BURY:
                moves[i] = (who, t.cards.bury_ids[tuple(sorted(face_of[x] for x in buried))])
        order = tuple(re(x) for x in self.setup.deck_order)
        core = c._replace(
            hands=masks(c.hands), widow=tuple(re(x) for x in c.widow), given=given, known=masks(c.known),
            buried=buried, trick=tuple(re(x) for x in c.trick), last_trick=tuple(re(x) for x in c.last_trick),
            won=masks(c.won), moves=tuple(moves),
        )  # fmt: skip
        return type(self)(DealSetup(rules, order, None, self.setup.dealer, t), core)


_MOVES, _HANDS, _KNOWN, _TRICK, _PLAYER = (
    AuctionCore._fields.index(f) for f in ("moves", "hands", "known", "trick", "player")
)


def _card_played(
    c: AuctionCore,
    moves: tuple[Move, ...],
    hands: tuple[int, ...],
    known: tuple[int, ...],
    trick: tuple[int, ...],
    player: int,
) -> AuctionCore:
    """``c._replace(moves=moves, hands=hands, known=known, trick=trick, player=player)``, the
    engine's hottest step (a card played to an unfinished trick), two to four times quicker
    than ``_replace`` on this 26-field record: `benchmarks/bench_auction_core.py` measures
    both. The one place that edits the record by position; the positions come from the
    field names."""
    fields = list(c)
    fields[_MOVES] = moves
    fields[_HANDS] = hands
    fields[_KNOWN] = known
    fields[_TRICK] = trick
    fields[_PLAYER] = player
    return tuple.__new__(AuctionCore, fields)


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _set_t(t: tuple[tuple[Laid, ...], ...], i: int, v: tuple[Laid, ...]) -> tuple[tuple[Laid, ...], ...]:
    return (*t[:i], v, *t[i + 1 :])


ENGINE = AuctionEngine()
"""The auction engine, as the registry finds it."""
