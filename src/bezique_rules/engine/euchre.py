"""The Euchre engine: order-up rounds, the dealer's exchange, going alone, five tricks.

The engine sequences the phases only. The bidding rules come from the rule
set's `OrderUp` part, the trump order (bowers, Benny) from its `TrumpOrder`,
the play duty (follow the effective suit) from its trick policy, and the
points from its `EuchreScoring`.

Phases: ``DISCARD`` (a farmer's-hand swap, asked first when that house rule is
on), ``TRUMP`` (a turned Benny: the dealer names a suit), ``BID`` (round one:
``pass`` / ``order-up [alone]``; round two: ``pass`` / ``call S [alone]``),
``DISCARD`` (the dealer's exchange after the turned suit is made trumps),
``ALONE`` (``alone`` or ``pass``: the maker's decision when it follows the bid, a
partner taking over, a defender defending alone), ``TRICKS``, ``OVER``.

The state record
----------------

A deal (`EuchreDeal`) is its `DealSetup`, one `EuchreState` record (a NamedTuple, the
deal's `core`) and, as in every engine, its legal actions once known (the ``_legal`` slot:
the legal ids, sorted; or, during the play on a deck with one copy of each card, a
`PlayableMask`, the mask of the playable cards, whose ids `legal_action_ids` and actions
`legal_actions` read from the trick tables). The record's fields that change with every card
come first, then those that change once a trick, then four named records that the play only
passes on:

- ``player``: who acts, -1 once the deal is over.
- ``hands``: per seat, the mask of the cards held (physical ids).
- ``trick``: the current trick's cards (physical ids) in play order.
- ``moves``: every action so far, as ``(player, action_id)`` pairs.
- ``stage``: the phase (`Phase`).
- ``leader``: who leads (or led) the current trick; before the play, the dealer's left.
- ``won``: per seat, the mask of the cards won in tricks (the tricks taken are
  counted from it: a trick adds ``table.active`` cards).
- ``last_trick`` and ``last_leader``: the trick before, and who led it (-1: none).
- ``points``: per side, the points of the deal (set when it ends).
- ``queue``: the pending `Question` s, who decides what next (from `OrderUp`; the
  first is being asked, or lapses): answering one drops it.
- ``bidding``: a `Bidding` (changes with the bids): ``round`` (1 or 2),
  ``candidate`` (the suit offered in round one; -1 until the dealer names one for
  a turned Benny), ``passes`` (in this round), ``asked`` (how many farmer's-hand
  questions were answered: the first moves), ``misdeal`` (the deal ended without
  play).
- ``contract``: a `Contract` (taken from the tables when trumps are made, changed
  by the lone decisions): ``trump`` (the suit index, or -1), ``maker``, ``alone``
  (the lone player), ``defender`` (the lone defender), ``out`` (a bit per seat
  sitting out).
- ``kitty``: a `Kitty`: ``cards`` (the hidden cards under the turn-up, then the
  dealer's discard), ``turn_up``, ``buried`` (the dealer's discard), ``farmer``
  (who swapped a farmer's hand).
- ``table``: a `PlayTable`, the rows the play reads at every card, taken from the
  tables when the play starts: ``seats`` (seat -> the next seat in play),
  ``active`` (how many seats play), ``follow`` (led card -> the cards that follow
  it, or None: ask the trick policy) and ``power`` (led card -> the power of each
  card in that trick, or None: ask the trump table).

-1 means "nobody" or "none" throughout. The tables (`EuchreTables`) are compiled once per rule set by
`EuchreEngine.compile`, in four named groups: the action ids, the trick tables,
the bidding tables and the deal layout.
"""

from __future__ import annotations

import itertools
import operator
import random
import warnings
from collections.abc import Callable
from typing import NamedTuple, TypeAlias, TypeVar, cast

import attrs
from typing_extensions import Self

from ..actions import Action, ActionKind, ActionSpace, ActionTable, Verb
from ..bits import lowest_bit
from ..cards import CardSet, Rank, Suit
from ..checks import check_seat
from ..deck import WIDOW, card_ids
from ..errors import IllegalActionError, RuleCode
from ..parts.euchre import Decision, EuchreScoring, OrderUp
from ..parts.scoring import ScoreBreakdown
from ..parts.tricks import PlayDuty
from ..parts.trumps import NO_TRUMP
from ..rules.ruleset import RuleSet, part_of
from ..state.deal import DealSetup, DealState, Move, Phase, PlayerView, _unpickled_deal, relabel_mask, relabel_seq
from ..state.knowledge import sample_hidden

__all__ = [
    "Contract",
    "EuchreDeal",
    "EuchreEngine",
    "EuchreState",
    "EuchreTables",
    "FarmersRound",
    "PlayTable",
    "PlayableMask",
    "Question",
]

_FARMER_GUESSES = 1000  # guesses tried for one consistent with who held a farmer's hand

_TRICKS = Phase.TRICKS
_BID = Phase.BID
_OVER = Phase.OVER
_bit = (1).__lshift__  # physical id -> its mask bit
# the questions outside the bidding rounds, as module names (an enum's class attribute
# costs five times a global's look-up in CPython 3.11)
_MAKER_ALONE, _TAKEOVER, _DEFEND = Decision.MAKER_ALONE, Decision.TAKEOVER, Decision.DEFEND
_PICKUP, _FARMERS_HAND = Decision.PICKUP, Decision.FARMER
# the action kinds the bidding reads, likewise
_PASS, _DISCARD, _ORDER_UP, _ORDER_UP_ALONE = (
    ActionKind.PASS,
    ActionKind.DISCARD,
    ActionKind.ORDER_UP,
    ActionKind.ORDER_UP_ALONE,
)
_CALL_ALONE = ActionKind.CALL_ALONE
DealT = TypeVar("DealT", bound="EuchreDeal")


class Question(NamedTuple):
    """One pending decision: who decides, and about what."""

    seat: int
    """Who decides."""
    decision: Decision
    """What he decides (asked only when it applies: see `EuchreDeal._settled`)."""


# -- the state record ------------------------------------------------------------------------


class Bidding(NamedTuple):
    """How far the bidding has come, and the questions still pending before the play."""

    round: int
    """The bidding round: 1 (order up) or 2 (call another suit)."""
    candidate: int
    """The suit offered in round one (the turn-up's, or the one named for a Benny), or -1."""
    passes: int
    """Passes in the current round."""
    asked: int
    """How many farmer's-hand questions were answered (the first moves of the deal): only a
    holder is asked, so a ``pass`` among them is shown to him alone."""
    misdeal: bool
    """The deal ended without play (everybody passed, or a second farmer's hand)."""


class Contract(NamedTuple):
    """Who made trumps and who plays: a record of the tables until a lone decision changes it."""

    trump: int
    """The trump suit index, or -1."""
    maker: int
    """Who made trumps, or -1."""
    alone: int
    """Who plays alone, or -1."""
    defender: int
    """Who defends alone, or -1."""
    out: int
    """A bit per seat sitting out this deal."""


class Kitty(NamedTuple):
    """The cards not dealt to the hands, and what happened to them."""

    cards: tuple[int, ...]
    """The hidden cards under the turn-up (and the dealer's discard once made)."""
    turn_up: int
    """The turned-up card (physical id)."""
    buried: int
    """The dealer's discard (physical id), or -1."""
    farmer: int
    """Who swapped a farmer's hand for the kitty's first three cards, or -1."""


class PlayTable(NamedTuple):
    """The rows the play reads at every card, for the seats in play and the trump suit."""

    seats: tuple[int, ...]
    """Seat -> the next seat in play."""
    active: int
    """How many seats play."""
    follow: tuple[int, ...] | None
    """Led card -> the mask of the cards that follow it (None: no tables, ask the policy)."""
    power: tuple[tuple[int, ...], ...] | None
    """Led card -> the power of each card in that trick (None: ask the trump table)."""


PlayableMask: TypeAlias = int
"""The mask of the cards the player to act may play (physical ids): how a deal on a deck with
one copy of each card keeps its legal actions during the play (a card's play id is its id)."""

EuchreLegal: TypeAlias = "tuple[int, ...] | PlayableMask"
"""A Euchre deal's legal actions as it keeps them: the ids, sorted, or a `PlayableMask`."""


class EuchreState(NamedTuple):
    """What changes during a Euchre deal, the deal's `core` (see the module docstring, field by field)."""

    player: int
    """Who acts (-1 when over)."""
    hands: tuple[int, ...]
    """Per seat: the mask of the cards held."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""
    stage: Phase
    """The phase."""
    leader: int
    """Who led (or will lead) the current trick."""
    won: tuple[int, ...]
    """Per seat: the mask of the cards won in tricks (a trick adds ``table.active`` cards,
    so the tricks taken are counted from it)."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick, or -1."""
    points: tuple[int, int]
    """Per side: the points of the deal (set when it ends)."""
    queue: tuple[Question, ...]
    """The pending questions, in order (the first is being asked, or lapses)."""
    bidding: Bidding
    """The bidding's progress and the pending questions."""
    contract: Contract
    """Who made trumps and who plays."""
    kitty: Kitty
    """The undealt cards."""
    table: PlayTable
    """The rows the play reads at every card."""

    def __getattr__(self, name: str) -> object:
        """Deprecated: the flat names of the former `EuchreCore` (``core.round``, ``core.trump``,
        ``core.turn_up``, ...), read from the sub-record that holds them now."""
        where = _FLAT_NAMES.get(name)
        if where is None:
            raise AttributeError(name)
        warnings.warn(
            f"EuchreDeal.core.{name} is deprecated: read core.{where}.{name}"
            if where != "taken"
            else "EuchreDeal.core.taken is deprecated: read EuchreDeal.tricks_taken",
            DeprecationWarning,
            stacklevel=2,
        )
        if where == "taken":
            return _taken(self.won, self.table.active)
        return getattr(getattr(self, where), name)


_FLAT_NAMES = {
    **dict.fromkeys(("round", "candidate", "passes", "asked", "misdeal"), "bidding"),
    **dict.fromkeys(("trump", "maker", "alone", "defender", "out"), "contract"),
    **dict.fromkeys(("turn_up", "buried", "farmer"), "kitty"),
    "taken": "taken",
}
"""The former `EuchreCore`'s flat names, and the sub-record of `EuchreState` that holds each."""


def __getattr__(name: str) -> object:
    """Deprecated module names: ``EuchreCore`` (the former flat record) is `EuchreState`."""
    if name == "EuchreCore":
        warnings.warn(
            "EuchreCore is deprecated: EuchreDeal.core is an EuchreState (its fields grouped in records)",
            DeprecationWarning,
            stacklevel=2,
        )
        return EuchreState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_tuple_new = tuple.__new__  # the transitions build `EuchreState` in field order (module docstring)


# -- the compiled tables ---------------------------------------------------------------------


class FarmerSwap(NamedTuple):
    """A farmer's swap: the faces given away, and its action id."""

    faces: frozenset[int]
    action_id: int


@attrs.frozen
class ActionIds:
    """What each action id does, and the ids of each kind of action."""

    kinds: tuple[ActionKind, ...]
    """Action id -> its kind."""
    args: tuple[int, ...]
    """Action id -> its card face (plays, discards), suit (calls, ``trump``), index in
    ``farmer`` (farmer's swaps), or -1."""
    play: tuple[int, ...]
    """Face -> the id of playing it."""
    discard: tuple[int, ...]
    """Face -> the id of discarding it."""
    farmer: tuple[FarmerSwap, ...]
    """The farmer's swaps."""
    farmer_faces: int
    """The mask of the faces that count for a farmer's hand."""
    pass_id: int
    order_id: int
    order_alone_id: int
    call: tuple[int, ...]
    """Suit -> the id of calling it."""
    call_alone: tuple[int, ...]
    """Suit -> the id of calling it alone."""
    trump: tuple[int, ...]
    """Suit -> the id of naming it for a turned Benny."""
    alone_id: int


@attrs.frozen
class EuchreTrickTables:
    """The tables the play reads: plays by mask, who plays next, who wins a trick."""

    plays: int
    """Ids 0 .. plays-1 are the plays (id == face)."""
    single: bool
    """One copy of each card: physical id == face == play id."""
    width: int
    """Bits per chunk of a hand mask."""
    chunk_mask: int
    """(1 << width) - 1."""
    chunks: tuple[tuple[tuple[int, ...], ...], ...]
    """Chunk k -> its bits -> the play ids (single decks)."""
    low_ids: tuple[tuple[int, ...], ...]
    """chunks[0] when a mask has two chunks, else ()."""
    high_ids: tuple[tuple[int, ...], ...]
    """chunks[1] when a mask has two chunks, else ()."""
    low_actions: tuple[tuple[Action, ...], ...]
    """low_ids as actions."""
    high_actions: tuple[tuple[Action, ...], ...]
    """high_ids as actions."""
    lead_power: tuple[tuple[tuple[int, ...], ...], ...]
    """Trump -> led card -> the power of each card in that trick (single decks), or ()."""
    follow: tuple[tuple[int, ...], ...] | None
    """Trump -> led card -> the cards that follow it (None: ask the policy)."""
    next_seat: tuple[tuple[int, ...], ...]
    """Seats out -> seat -> the next seat in play."""
    active: tuple[int, ...]
    """Seats out -> how many seats play."""
    nth_seat: tuple[tuple[tuple[int, ...], ...], ...]
    """Seats out -> leader -> k -> the k-th seat in play after him."""
    before_play: PlayTable
    """The play rows a deal holds before the play starts (every seat in, no trumps)."""
    play_table: tuple[tuple[PlayTable, ...], ...]
    """Seats out -> trump suit -> the play rows."""


@attrs.frozen
class BiddingTables:
    """The legal bids and the decisions that follow a made trump."""

    bid_legal: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
    """Round two -> is the dealer -> candidate suit -> the legal ids."""
    alone_legal: tuple[int, ...]
    trump_legal: tuple[int, ...]
    candidate_of: tuple[int, ...]
    """Turn-up -> the suit offered in round one, or -1 (the dealer names it)."""
    opening: tuple[Bidding, ...]
    """Turn-up -> the bidding as the deal starts (round one, the turn-up's suit offered)."""
    farmer_queue: tuple[tuple[Question, ...], ...]
    """Dealer -> the questions asked before the bidding (the farmer's hands), or ()."""
    no_contract: Contract
    """The contract before trumps are made: nobody, no trump, every seat in."""
    made: tuple[tuple[tuple[Contract, ...], ...], ...]
    """Maker -> trump suit -> alone -> the contract a bid makes."""
    made_queue: tuple[tuple[tuple[tuple[tuple[Question, ...], ...], ...], ...], ...]
    """Dealer -> maker -> alone -> the turned suit -> the questions once trumps are made."""
    defence_allowed: tuple[bool, bool]
    """The maker is alone -> a defender may be asked to defend alone."""
    defence_blocked_by_exchange: bool
    lead_left_of_lone: bool
    benny_makes_dealer: bool


@attrs.frozen
class DealLayout:
    """Where the cards of a deal come from in the deck order."""

    dealing: tuple[tuple[Callable[[tuple[int, ...]], tuple[int, ...]], ...], ...] | None
    """Dealer -> seat -> getter of its cards from the order, two or more (None: ask the deal
    pattern)."""
    turn_pos: int
    """Where the turn-up lies in the order (the kitty follows it)."""
    first: tuple[int, ...]
    """Dealer -> the seat on his left."""
    zeros: tuple[int, ...]
    """One 0 per seat."""


@attrs.frozen
class EuchreTables:
    """The Euchre engine's tables for one rule set (`RuleSet.tables`)."""

    actions: ActionSpace
    """The numbered actions."""
    action_table: ActionTable
    """What each id does, column by column (read by the batch engine)."""
    ids: ActionIds
    trick: EuchreTrickTables
    bidding: BiddingTables
    deal: DealLayout


class EuchreEngine:
    """Builds Euchre deals and their action space."""

    name = "euchre"

    @staticmethod
    def compile(rules: RuleSet) -> EuchreTables:
        """The numbered actions: plays and discards by face, the bids, ``trump``, ``alone``,
        farmer's swaps; and the engine's lookup tables."""
        return _build(rules)

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> EuchreDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        m = cast(EuchreTables, rules.tables)
        layout = m.deal
        dealing = layout.dealing
        if dealing is None:
            hands, _widow, turn_up, kitty = rules.deal.deal(order, rules.players, dealer)
        else:  # the same deal as the pattern's, from precomputed positions
            hands = tuple([sum(map(_bit, get(order))) for get in dealing[dealer]])
            turn_up = order[layout.turn_pos]
            kitty = order[layout.turn_pos + 1 :]
        tables = m.bidding
        setup = DealSetup(rules, order, seed, dealer, m)
        return EuchreDeal._settled(
            setup,
            layout.first[dealer],
            hands,
            (),
            _BID,
            tables.farmer_queue[dealer],
            tables.opening[turn_up],
            tables.no_contract,
            Kitty(cards=kitty, turn_up=turn_up, buried=-1, farmer=-1),
        )


def _build(rules: RuleSet) -> EuchreTables:
    """Compile the tables of ``rules``: four named groups."""
    actions: list[Action] = []
    ids = _action_ids(rules, actions)
    space = ActionSpace.of(actions)
    trick = _trick_tables(rules, ids, space)
    carded = (ActionKind.PLAY, ActionKind.DISCARD)
    suited = (ActionKind.CALL, ActionKind.CALL_ALONE, ActionKind.TRUMP)
    action_table = ActionTable.of(
        ids.kinds,
        face=(arg if kind in carded else -1 for kind, arg in zip(ids.kinds, ids.args)),
        suit=(arg if kind in suited else -1 for kind, arg in zip(ids.kinds, ids.args)),
    )
    return EuchreTables(
        actions=space,
        action_table=action_table,
        ids=ids,
        trick=trick,
        bidding=_bidding_tables(rules, ids),
        deal=_deal_layout(rules),
    )


def _action_ids(rules: RuleSet, actions: list[Action]) -> ActionIds:
    """Number the actions (appended to ``actions``) and say what each id does."""
    faces = rules.deck.faces
    kinds: list[ActionKind] = []
    args: list[int] = []

    def add(action: Action, kind: ActionKind, arg: int = -1) -> int:
        actions.append(action)
        kinds.append(kind)
        args.append(arg)
        return len(actions) - 1

    play = tuple(add(Action.make(Verb.PLAY, [c]), ActionKind.PLAY, f) for f, c in enumerate(faces))
    discard = tuple(add(Action.make(Verb.DISCARD, [c]), ActionKind.DISCARD, f) for f, c in enumerate(faces))
    pass_id = add(Action(Verb.PASS), ActionKind.PASS)
    order_id = add(Action(Verb.ORDER_UP), ActionKind.ORDER_UP)
    order_alone_id = add(Action(Verb.ORDER_UP, alone=True), ActionKind.ORDER_UP_ALONE)
    call = tuple(add(Action(Verb.CALL, suit=s), ActionKind.CALL, s.value) for s in Suit)
    call_alone = tuple(add(Action(Verb.CALL, suit=s, alone=True), ActionKind.CALL_ALONE, s.value) for s in Suit)
    trump = tuple(add(Action(Verb.TRUMP, suit=s), ActionKind.TRUMP, s.value) for s in Suit)
    alone_id = add(Action(Verb.ALONE), ActionKind.ALONE)
    farmer_faces = 0
    farmer: list[FarmerSwap] = []
    bidding = part_of(rules, rules.bidding, OrderUp)
    if bidding.farmers_hand != "off":
        low = [f for f, c in enumerate(faces) if c.rank in (Rank.NINE, Rank.TEN)]
        for f in low:
            farmer_faces |= 1 << f
        for trio in itertools.combinations(low, 3):
            if bidding.farmers_hand == "nines_or_tens" and len({faces[f].rank for f in trio}) != 1:
                continue
            action_id = add(Action.make(Verb.DISCARD, [faces[f] for f in trio]), ActionKind.FARMER_SWAP, len(farmer))
            farmer.append(FarmerSwap(frozenset(trio), action_id))
    return ActionIds(
        kinds=tuple(kinds), args=tuple(args), play=play, discard=discard, farmer=tuple(farmer),
        farmer_faces=farmer_faces, pass_id=pass_id, order_id=order_id, order_alone_id=order_alone_id, call=call,
        call_alone=call_alone, trump=trump, alone_id=alone_id,
    )  # fmt: skip


def _trick_tables(rules: RuleSet, ids: ActionIds, space: ActionSpace) -> EuchreTrickTables:
    """The play's tables: plays by chunks of a hand mask, following, trick powers, seats."""
    deck = rules.deck
    faces = deck.faces
    n = rules.players
    size = deck.size
    single = (
        deck.packs == 1
        and ids.play == tuple(range(len(faces)))
        and ids.discard == tuple(range(len(faces), 2 * len(faces)))
    )
    follow = None
    chunks: tuple[tuple[tuple[int, ...], ...], ...] = ()
    parts = 2 if size <= 26 else 3  # two tables of at most 2**13 entries, or three
    width = max(1, -(-size // parts))
    if single and size <= 36 and rules.playoff_policy.duty in (PlayDuty.FOLLOW_EFFECTIVE_SUIT, PlayDuty.FOLLOW_ONLY):
        # the same duty as TrickPolicy.legal: follow the led card's effective suit when able
        follow = tuple(
            tuple(t.suit_masks[t.suit[x]] if t.suit[x] < 4 else 0 for x in range(size)) for t in rules.trump_tables[:4]
        )
        # a mask's play ids, sorted, from a table look-up per ``width`` bits
        chunks = tuple(
            tuple(tuple(k * width + i for i in range(width) if (b >> i) & 1) for b in range(1 << width))
            for k in range(parts)
        )
    lead_power: tuple[tuple[tuple[int, ...], ...], ...] = ()
    if single:  # no identical cards: a trick goes to its card of highest lead power
        lead_power = tuple(t.lead_powers() for t in rules.trump_tables[:4])
    next_seat = []
    for out in range(1 << n):
        row = []
        for p in range(n):
            q = (p + 1) % n
            while (out >> q) & 1 and q != p:
                q = (q + 1) % n
            row.append(q)
        next_seat.append(tuple(row))
    nth_seat = []
    for out in range(1 << n):
        per_leader = []
        for leader in range(n):
            seats = [leader]
            for _ in range(n - 1):
                seats.append(next_seat[out][seats[-1]])
            per_leader.append(tuple(seats))
        nth_seat.append(tuple(per_leader))
    two = len(chunks) == 2
    return EuchreTrickTables(
        plays=len(faces),
        single=single,
        width=width,
        chunk_mask=(1 << width) - 1,
        chunks=chunks,
        low_ids=chunks[0] if two else (),
        high_ids=chunks[1] if two else (),
        low_actions=tuple(tuple(space.actions[i] for i in row) for row in chunks[0]) if two else (),
        high_actions=tuple(tuple(space.actions[i] for i in row) for row in chunks[1]) if two else (),
        lead_power=lead_power,
        follow=follow,
        next_seat=tuple(next_seat),
        active=tuple(n - out.bit_count() for out in range(1 << n)),
        nth_seat=tuple(nth_seat),
        before_play=PlayTable(seats=next_seat[0], active=n, follow=None, power=None),
        play_table=tuple(
            tuple(
                PlayTable(
                    seats=next_seat[out],
                    active=n - out.bit_count(),
                    follow=follow[trump] if follow is not None else None,
                    power=lead_power[trump] if lead_power else None,
                )
                for trump in range(4)
            )
            for out in range(1 << n)
        ),
    )


def _bidding_tables(rules: RuleSet, ids: ActionIds) -> BiddingTables:
    """The legal bids per round, seat and candidate; the questions that follow a made trump."""
    bidding = part_of(rules, rules.bidding, OrderUp)
    n = rules.players
    bid_legal = tuple(
        tuple(
            tuple(tuple(sorted(set(_bid_ids(bidding, ids, round_two, is_dealer, cand)))) for cand in range(4))
            for is_dealer in (False, True)
        )
        for round_two in (False, True)
    )
    candidate_of = tuple(
        -1 if card.suit is None or card == rules.trump_order.benny else card.suit.value for card in rules.deck.cards
    )
    opening = tuple(
        Bidding(round=1, candidate=candidate, passes=0, asked=0, misdeal=False) for candidate in candidate_of
    )
    made = tuple(
        tuple(
            tuple(
                Contract(
                    trump=trump,
                    maker=maker,
                    alone=maker if alone else -1,
                    defender=-1,
                    out=1 << (maker + 2) % n if alone else 0,
                )
                for alone in (False, True)
            )
            for trump in range(4)
        )
        for maker in range(n)
    )
    made_queue = tuple(
        tuple(
            tuple(
                tuple(
                    _questions(bidding.decisions_after_trump(n, dealer, maker, alone=alone, turned_suit=turned))
                    for turned in (False, True)
                )
                for alone in (False, True)
            )
            for maker in range(n)
        )
        for dealer in range(n)
    )
    return BiddingTables(
        bid_legal=bid_legal,
        alone_legal=tuple(sorted({ids.alone_id, ids.pass_id})),
        trump_legal=tuple(sorted(set(ids.trump))),
        candidate_of=candidate_of,
        opening=opening,
        farmer_queue=tuple(_questions(bidding.decisions_before_bidding(n, dealer)) for dealer in range(n)),
        no_contract=Contract(trump=NO_TRUMP, maker=-1, alone=-1, defender=-1, out=0),
        made=made,
        made_queue=made_queue,
        defence_allowed=(bidding.defence_allowed(maker_alone=False), bidding.defence_allowed(maker_alone=True)),
        defence_blocked_by_exchange=bidding.defence_blocked_by_exchange,
        lead_left_of_lone=bidding.lone_lead == "left_of_lone_player",
        benny_makes_dealer=bidding.benny_turned == "dealer_forced_maker",
    )


def _deal_layout(rules: RuleSet) -> DealLayout:
    """Where each seat's cards, the turn-up and the kitty lie in the deck order."""
    n = rules.players
    pattern = rules.deal
    dealing = None
    seat_positions: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for recipient, count in pattern.packets:
        if recipient == WIDOW:
            seat_positions = []
            break
        seat_positions[recipient % n].extend(range(pos, pos + count))
        pos += count
    if pattern.turn_up and seat_positions and all(len(x) >= 2 for x in seat_positions):
        # seat_positions[r]: positions dealt to the r-th seat from the dealer's left
        dealing = tuple(
            tuple(_getter(seat_positions[(seat - dealer - 1) % n]) for seat in range(n)) for dealer in range(n)
        )
    zeros = (0,) * n
    return DealLayout(dealing=dealing, turn_pos=pos, first=tuple((d + 1) % n for d in range(n)), zeros=zeros)


def _getter(positions: list[int]) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """The items of a tuple at ``positions`` (two or more), as a tuple."""
    return cast("Callable[[tuple[int, ...]], tuple[int, ...]]", operator.itemgetter(*positions))


def _questions(decisions: tuple[tuple[int, Decision], ...]) -> tuple[Question, ...]:
    """`OrderUp`'s (seat, decision) pairs as `Question` records."""
    return tuple(Question(seat, decision) for seat, decision in decisions)


def _bid_ids(bidding: OrderUp, ids: ActionIds, round_two: bool, is_dealer: bool, candidate: int) -> list[int]:
    """The bids open to a player (before sorting)."""
    out = []
    if bidding.may_pass(round_two=round_two, is_dealer=is_dealer):
        out.append(ids.pass_id)
    if not round_two:
        out.append(ids.order_id)
        if bidding.alone_with_bid:
            out.append(ids.order_alone_id)
    else:
        for s in range(4):
            if s != candidate:
                out.append(ids.call[s])
                if bidding.alone_with_bid:
                    out.append(ids.call_alone[s])
    return out


def _table_of(m: EuchreTables, s: EuchreState) -> PlayTable:
    """The play rows a state carries: those of its seats and trumps once the play has started
    (as `EuchreDeal._settled` takes them), else the rows before the play."""
    contract = s.contract
    if s.stage is _TRICKS or (s.stage is _OVER and not s.bidding.misdeal):
        return m.trick.play_table[contract.out][contract.trump]
    return m.trick.before_play


@attrs.frozen(repr=False)
class EuchreDeal(DealState):
    """A Euchre deal: immutable. Read it through the properties and `view`."""

    setup: DealSetup[EuchreTables]
    """The rules, deck order, seed and dealer."""
    core: EuchreState
    """Everything that changes during the deal (see the module docstring)."""
    _legal: EuchreLegal | None = attrs.field(  # type: ignore[assignment]  # a PlayableMask too
        default=None, eq=False, repr=False, alias="_legal"
    )
    """The legal actions once known: the ids, or a `PlayableMask` during the play."""

    @classmethod
    def of(cls, setup: DealSetup[EuchreTables], core: EuchreState) -> Self:
        """Deprecated: the deal with this setup and core is ``EuchreDeal(setup, core)``."""
        warnings.warn("EuchreDeal.of is deprecated: call EuchreDeal(setup, core)", DeprecationWarning, stacklevel=2)
        return cls(setup, core)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle (and copy) as `DealState` does, without the play rows (``core.table``: the
        tables' own rows, found again when unpickled)."""
        return (_unpickled_deal, (type(self), self.setup, tuple(self.core[:-1])))

    @classmethod
    def _from_core(cls, setup: DealSetup[EuchreTables], core: object) -> Self:
        """The deal of ``setup`` and ``core``, an `EuchreState` or its fields without the play
        rows (as `__reduce__` keeps them)."""
        if not isinstance(core, EuchreState):
            fields = cast("tuple[object, ...]", core)
            partial = EuchreState._make((*fields, setup.tables.trick.before_play))
            core = partial._replace(table=_table_of(setup.tables, partial))
        return cls(setup, core)

    @property
    def state(self) -> EuchreState:
        """Deprecated: the former name of `core`."""
        warnings.warn("EuchreDeal.state is deprecated: read EuchreDeal.core", DeprecationWarning, stacklevel=2)
        return self.core

    # -- what every deal state reads -------------------------------------------------------

    @property
    def thrown_in(self) -> bool:
        """Whether everyone passed (or a second farmer's hand was a misdeal)."""
        return self.core.bidding.misdeal

    def _compute_legal(self) -> tuple[int, ...]:
        return _legal_of(self.setup, self.core)

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids of the legal actions, sorted."""
        legal = self._legal
        if type(legal) is int:  # a PlayableMask: the play ids of its cards, from the tables
            t: EuchreTrickTables = self.setup.tables.trick
            low = t.low_ids
            return low[legal & t.chunk_mask] + t.high_ids[legal >> t.width] if low else _play_ids(t, legal)
        if legal is None:
            return DealState.legal_action_ids(self)
        return cast("tuple[int, ...]", legal)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every distinct legal action, sorted by action id (empty when over)."""
        legal = self._legal
        if type(legal) is int:
            t: EuchreTrickTables = self.setup.tables.trick
            low = t.low_actions
            if low:
                return low[legal & t.chunk_mask] + t.high_actions[legal >> t.width]
        return super().legal_actions()

    # -- plain accessors ---------------------------------------------------------------------

    @property
    def kitty(self) -> tuple[int, ...]:
        """The hidden kitty (and the dealer's discard)."""
        return self.core.kitty.cards

    @property
    def turn_up(self) -> int:
        """The turned-up card (physical id)."""
        return self.core.kitty.turn_up

    @property
    def trump(self) -> int:
        """The trump suit index, or -1."""
        return self.core.contract.trump

    @property
    def maker(self) -> int | None:
        """Who made trumps, or None."""
        maker = self.core.contract.maker
        return None if maker < 0 else maker

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats sitting out (the partner of a lone player or defender)."""
        out = self.core.contract.out
        return tuple(s for s in range(self.rules.players) if (out >> s) & 1)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of the deal per side (0 until the deal ends)."""
        return self.core.points

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where the points came from: the contract, per side."""
        return tuple(ScoreBreakdown(contract=p) for p in self.core.points)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per player."""
        s = self.core
        return _taken(s.won, s.table.active)

    # -- legality ----------------------------------------------------------------------------

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        c = self.core
        ids = self.setup.tables.ids
        kind = ids.kinds[action_id]
        arg = ids.args[action_id]
        stage = c.stage
        rules = self.setup.rules
        if kind is ActionKind.PLAY:
            if stage is not Phase.TRICKS:
                return RuleCode.WRONG_PHASE, f"no card is played during the {stage.value} phase"
            pid = self._pick(arg, c.hands[c.player])
            if pid < 0:
                return RuleCode.CARD_NOT_HELD, "you do not hold that card"
            why = rules.playoff_policy.refusal(rules.trump_tables[c.contract.trump], c.hands[c.player], c.trick, pid)
            return why or (RuleCode.NOT_AN_ACTION, "not playable")
        if kind in (ActionKind.ORDER_UP, ActionKind.ORDER_UP_ALONE):
            if stage is Phase.BID and c.bidding.round == 2:
                return RuleCode.WRONG_PHASE, "the turn-up is turned down: name another suit with 'call'"
            if stage is Phase.BID:
                return RuleCode.NOT_AN_ACTION, "going alone is decided after the bid in this variant"
            return RuleCode.WRONG_PHASE, "ordering up is a first-round bid"
        if kind in (ActionKind.CALL, ActionKind.CALL_ALONE):
            if stage is Phase.BID and c.bidding.round == 1:
                return RuleCode.WRONG_PHASE, "in the first round only the turned suit can be ordered up"
            if stage is Phase.BID and arg == c.bidding.candidate:
                return RuleCode.NOT_AN_ACTION, "the turned-down suit may not be named in the second round"
            if stage is Phase.BID:
                return RuleCode.NOT_AN_ACTION, "going alone is decided after the bid in this variant"
            return RuleCode.WRONG_PHASE, "naming a suit is a second-round bid"
        if kind is ActionKind.PASS:
            if stage is Phase.BID:
                return RuleCode.MUST_BID, "the dealer is stuck: he must name a suit"
            if stage is Phase.DISCARD:
                return RuleCode.MUST_BID, "the dealer must take the turn-up and discard a card"
            return RuleCode.WRONG_PHASE, f"nothing to pass during the {stage.value} phase"
        if kind is ActionKind.DISCARD:
            if stage is not Phase.DISCARD or c.queue[0].decision is not Decision.PICKUP:
                return RuleCode.WRONG_PHASE, "only the dealer discards, after taking the turn-up"
            if (
                arg == rules.deck.face_of[c.kitty.turn_up]
                and not part_of(rules, rules.bidding, OrderUp).dealer_may_discard_upcard
            ):
                return RuleCode.CARD_NOT_HELD, "the dealer may not discard the card he just took up"
            return RuleCode.CARD_NOT_HELD, "you do not hold that card"
        if kind is ActionKind.FARMER_SWAP:
            if stage is not Phase.DISCARD or c.queue[0].decision is not Decision.FARMER:
                return RuleCode.WRONG_PHASE, "a farmer's hand is exchanged before the bidding"
            return RuleCode.CARD_NOT_HELD, "you do not hold those cards"
        if kind is ActionKind.TRUMP:
            return RuleCode.WRONG_PHASE, "only the dealer names a suit, when the turn-up is the Benny"
        return RuleCode.WRONG_PHASE, f"no decision to play alone is pending during the {stage.value} phase"

    def _pick(self, face: int, hand: int) -> int:
        copies = hand & self.setup.rules.deck.face_masks[face]
        return lowest_bit(copies)

    # -- transitions -------------------------------------------------------------------------

    def apply(self, action: Action | str | int, *, check: bool = True) -> Self:
        """The state after ``action`` (an action, its notation or its id): see `DealState.apply`.

        A card played with ``check=False``, the action taken from `legal_actions`,
        is the hot path of every simulation: it is handled here in one step.
        """
        setup = self.setup
        m: EuchreTables = setup.tables
        t = m.trick
        plays = t.plays
        if type(action) is int and check is False:
            if not 0 <= action < plays:
                if plays <= action < len(m.actions.actions):
                    return self._apply_id(action)  # a bid or a decision, as legal_action_ids() gives them
                return DealState.apply(self, action, check=check)
            action_id = action  # a play id, as legal_action_ids() gives them
        else:
            known = m.actions.by_identity.get(id(action))  # an action object taken from legal_actions()
            checked_play = check is True and known is not None and known < plays and self._legal_play(known)
            if known is None or not (check is False or checked_play):
                return DealState.apply(self, action, check=check)  # checks it (and raises, naming the rule)
            if known >= plays:
                return self._apply_id(known)  # a bid or a decision, unchecked
            action_id = known  # a play: unchecked, or checked against the playable cards
        # a card played to the trick (ids 0 .. plays-1, id == face)
        (
            p, held_before, trick_before, moves_before, stage, leader, won, last_trick, last_leader, points, queue,
            bidding, contract, kitty, table,
        ) = self.core  # the record read in field order, one name per field  # fmt: skip
        held = list(held_before)
        pid = action_id if t.single else self._pick(action_id, held[p])
        held[p] ^= 1 << pid
        hands = tuple(held)
        trick = trick_before + (pid,)
        moves = moves_before + ((p, action_id),)
        seats, active, follow, _power = table
        if len(trick) == active:
            return self._trick_won(hands, trick, moves, leader, won, queue, bidding, contract, kitty, table)
        nxt = seats[p]
        core = _tuple_new(EuchreState, (  # EuchreState in field order
            nxt, hands, trick, moves, stage, leader, won, last_trick, last_leader, points, queue, bidding, contract,
            kitty, table,
        ))  # fmt: skip
        if follow is None:  # no tables for this deck: the general way
            return self._make(setup, core, _legal_of(setup, core))
        # the next player's playable cards: those of the led card's effective suit, or any
        h = hands[nxt]
        return self._make(setup, core, h & follow[trick[0]] or h)

    def _legal_play(self, play_id: int) -> bool:
        """Whether playing ``play_id`` is legal now: read from the mask of playable cards
        when the state holds one (only in the play, on decks with tables: one copy of each
        card, so a play's id is the card's id), else from the legal ids."""
        legal = self._legal
        if type(legal) is int:
            return (legal >> play_id) & 1 == 1
        return play_id in self.legal_action_ids()

    def _apply_id(self, action_id: int) -> Self:
        m: EuchreTables = self.setup.tables
        if action_id < m.trick.plays:  # a card played (ids 0 .. plays-1): the hot path in apply
            return self.apply(action_id, check=False)
        ids = m.ids
        kind = ids.kinds[action_id]
        # a bid, a decision or a discard
        s = self.core
        moves = s.moves + ((s.player, action_id),)
        stage = s.stage
        if stage is _BID:
            return self._bid(s, moves, kind, ids.args[action_id])
        if stage is Phase.TRUMP:
            return self._benny_named(s, moves, ids.args[action_id])
        if stage is Phase.ALONE:
            return self._alone(s, moves, kind is ActionKind.ALONE)
        return self._discard(s, moves, kind, ids.args[action_id])

    def _trick_won(
        self,
        hands: tuple[int, ...],
        trick: tuple[int, ...],
        moves: tuple[Move, ...],
        leader: int,
        won_before: tuple[int, ...],
        queue: tuple[Question, ...],
        bidding: Bidding,
        contract: Contract,
        kitty: Kitty,
        table: PlayTable,
    ) -> Self:
        """The trick is complete: its winner takes it and leads next, or the deal is scored."""
        setup = self.setup
        power = table.power
        if power is not None:  # one copy of each card: the highest power wins
            powers = operator.itemgetter(*trick)(power[trick[0]])  # a trick has two cards or more
            k = powers.index(max(powers))
        else:
            k = setup.rules.trump_tables[contract.trump].winner(trick)
        winner = setup.tables.trick.nth_seat[contract.out][leader][k]
        held = list(won_before)
        held[winner] |= sum(map(_bit, trick))
        won = tuple(held)
        h = hands[winner]
        if h:
            core = _tuple_new(EuchreState, (  # EuchreState in field order
                winner, hands, (), moves, _TRICKS, winner, won, trick, leader, (0, 0), queue, bidding, contract,
                kitty, table,
            ))  # fmt: skip
            if table.follow is None:  # no tables for this deck: the general way
                return self._make(setup, core, _legal_of(setup, core))
            return self._make(setup, core, h)
        maker = contract.maker
        scoring = part_of(setup.rules, setup.rules.scoring, EuchreScoring)
        made = (won[maker] | won[(maker + 2) % len(hands)]).bit_count() // table.active
        mine, theirs = scoring.points(tricks=made, alone=contract.alone >= 0, lone_defender=contract.defender >= 0)
        points = (mine, theirs) if maker % 2 == 0 else (theirs, mine)
        over = _tuple_new(EuchreState, (  # EuchreState in field order
            -1, hands, (), moves, _OVER, winner, won, trick, leader, points, queue, bidding, contract, kitty, table,
        ))  # fmt: skip
        return self._make(setup, over, ())

    # The bidding and the decisions before the play: each works out the new records (and
    # hands), and `_settled` moves on to the next pending question (or the bidding, or the play).

    def _benny_named(self, s: EuchreState, moves: tuple[Move, ...], suit: int) -> Self:
        setup = self.setup
        m = setup.tables
        dealer = setup.dealer
        bidding = s.bidding._replace(candidate=suit)
        if m.bidding.benny_makes_dealer:
            return self._made(s, moves, bidding, dealer, suit, alone=False, turned_suit=True)
        player = m.deal.first[dealer]
        return self._settled(setup, player, s.hands, moves, s.stage, s.queue, bidding, s.contract, s.kitty)

    def _bid(self, s: EuchreState, moves: tuple[Move, ...], kind: ActionKind, arg: int) -> Self:
        setup = self.setup
        n = len(s.hands)
        p = s.player
        bidding = s.bidding
        if kind is _PASS:
            passes = bidding.passes + 1
            stage = s.stage
            if passes < n:
                bidding = bidding._replace(passes=passes)
                p = (p + 1) % n
            elif bidding.round == 1:
                bidding = bidding._replace(round=2, passes=0)
                p = setup.tables.deal.first[setup.dealer]
            else:  # everybody passed twice: the deal is thrown in
                bidding = bidding._replace(misdeal=True)
                stage = _OVER
                p = -1
            return self._settled(setup, p, s.hands, moves, stage, s.queue, bidding, s.contract, s.kitty)
        if kind is _ORDER_UP or kind is _ORDER_UP_ALONE:
            alone = kind is _ORDER_UP_ALONE
            return self._made(s, moves, bidding, p, bidding.candidate, alone=alone, turned_suit=True)
        return self._made(s, moves, bidding, p, arg, alone=kind is _CALL_ALONE, turned_suit=False)

    def _made(
        self,
        s: EuchreState,
        moves: tuple[Move, ...],
        bidding: Bidding,
        maker: int,
        trump: int,
        *,
        alone: bool,
        turned_suit: bool,
    ) -> Self:
        """Trumps are made: the contract, and the questions that follow (pick-up, going
        alone, taking over, lone defence)."""
        setup = self.setup
        tables = setup.tables.bidding
        if bidding.passes:
            bidding = bidding._replace(passes=0)
        queue = tables.made_queue[setup.dealer][maker][alone][turned_suit]
        contract = tables.made[maker][trump][alone]
        return self._settled(setup, maker, s.hands, moves, s.stage, queue, bidding, contract, s.kitty)

    def _alone(self, s: EuchreState, moves: tuple[Move, ...], yes: bool) -> Self:
        n = len(s.hands)
        contract = s.contract
        queue = s.queue
        seat, decision = queue[0]
        if not yes:
            pass
        elif decision is _MAKER_ALONE:
            contract = contract._replace(alone=seat, out=contract.out | 1 << (seat + 2) % n)
        elif decision is _TAKEOVER:
            contract = contract._replace(alone=seat, out=1 << contract.maker)
        else:
            contract = contract._replace(defender=seat, out=contract.out | 1 << (seat + 2) % n)
        return self._settled(self.setup, s.player, s.hands, moves, s.stage, queue[1:], s.bidding, contract, s.kitty)

    def _discard(self, s: EuchreState, moves: tuple[Move, ...], kind: ActionKind, arg: int) -> Self:
        setup = self.setup
        p = s.player
        bidding = s.bidding
        kitty = s.kitty
        queue = s.queue
        hands = list(s.hands)
        if queue[0].decision is _FARMERS_HAND:
            if kind is ActionKind.FARMER_SWAP:
                if kitty.farmer >= 0:  # a second farmer's hand: misdeal
                    bidding = bidding._replace(asked=bidding.asked + 1, misdeal=True)
                    return self._settled(setup, -1, s.hands, moves, _OVER, (), bidding, s.contract, kitty)
                faces = setup.tables.ids.farmer[arg].faces
                trio = [self._pick(f, hands[p]) for f in sorted(faces)]
                gone = sum(1 << x for x in trio)
                hands[p] = (hands[p] & ~gone) | sum(1 << x for x in kitty.cards[:3])
                kitty = kitty._replace(cards=(*trio, *kitty.cards[3:]), farmer=p)
            bidding = bidding._replace(asked=bidding.asked + 1)
            return self._settled(setup, p, tuple(hands), moves, s.stage, queue[1:], bidding, s.contract, kitty)
        # the dealer's exchange
        if kind is _DISCARD:
            held = hands[p] | (1 << kitty.turn_up)
            gone = self._pick(arg, held)
            hands[p] = held & ~(1 << gone)
            kitty = kitty._replace(cards=(*kitty.cards, gone), buried=gone)
        return self._settled(setup, p, tuple(hands), moves, s.stage, queue[1:], bidding, s.contract, kitty)

    @classmethod
    def _settled(
        cls,
        setup: DealSetup[EuchreTables],
        player: int,
        hands: tuple[int, ...],
        moves: tuple[Move, ...],
        stage: Phase,
        queue: tuple[Question, ...],
        bidding: Bidding,
        contract: Contract,
        kitty: Kitty,
    ) -> Self:
        """Ask the first pending question that applies (those that lapse are dropped), or
        go on with the bidding, or start the play; and build the state."""
        m: EuchreTables = setup.tables
        dealer = setup.dealer
        while queue:
            seat, decision = queue[0]
            legal: tuple[int, ...] | None = None
            if decision is _FARMERS_HAND:
                if not _has_farmers_hand(setup, hands[seat]):
                    queue = queue[1:]
                    continue
                asking = Phase.DISCARD
            elif decision is _PICKUP:
                if (contract.out >> seat) & 1:
                    queue = queue[1:]
                    continue
                asking = Phase.DISCARD
                if m.trick.follow is not None:  # one copy of each card: discard id == plays + card id
                    cards, decline = _pickup_choices(
                        part_of(setup.rules, setup.rules.bidding, OrderUp), hands[seat], kitty.turn_up
                    )
                    legal = tuple([m.trick.plays + i for i in _play_ids(m.trick, cards)])
                    if decline:
                        legal += (m.ids.pass_id,)
            elif _lapses(setup, contract, kitty.buried >= 0, seat, decision):
                queue = queue[1:]
                continue
            else:  # going alone, taking over, defending alone
                asking = Phase.ALONE
                legal = m.bidding.alone_legal
            return cls._build_state(setup, seat, hands, moves, asking, queue, bidding, contract, kitty, legal)
        if stage is _OVER:
            return cls._build_state(setup, -1, hands, moves, _OVER, (), bidding, contract, kitty, ())
        if contract.trump < 0:  # the farmer's-hand questions are done, or the bidding goes on
            if bidding.candidate < 0:  # a turned Benny: the dealer names a suit first
                return cls._build_state(
                    setup, dealer, hands, moves, Phase.TRUMP, (), bidding, contract, kitty, m.bidding.trump_legal
                )
            if stage is not _BID:  # after the farmer's-hand questions: the dealer's left bids first
                player = m.deal.first[dealer]
            legal = m.bidding.bid_legal[bidding.round == 2][player == dealer][bidding.candidate]
            return cls._build_state(setup, player, hands, moves, _BID, (), bidding, contract, kitty, legal)
        # the first trick starts
        out = contract.out
        lone = contract.alone if contract.alone >= 0 else contract.defender
        start = lone if m.bidding.lead_left_of_lone and lone >= 0 else dealer
        leader = m.trick.next_seat[out][start]  # the first seat in play on his left
        table = m.trick.play_table[out][contract.trump]
        zeros = m.deal.zeros
        core = _tuple_new(EuchreState, (  # EuchreState in field order
            leader, hands, (), moves, _TRICKS, leader, zeros, (), -1, (0, 0), (), bidding, contract, kitty, table,
        ))  # fmt: skip
        # the leader's playable cards: his hand (a mask), or the ids the general way
        if table.follow is None:
            return cls._make(setup, core, _legal_of(setup, core))
        return cls._make(setup, core, hands[leader])

    @classmethod
    def _build_state(
        cls,
        setup: DealSetup[EuchreTables],
        player: int,
        hands: tuple[int, ...],
        moves: tuple[Move, ...],
        stage: Phase,
        queue: tuple[Question, ...],
        bidding: Bidding,
        contract: Contract,
        kitty: Kitty,
        legal: tuple[int, ...] | None,
    ) -> Self:
        """A state before the play (its legal ids worked out when ``legal`` is None)."""
        m: EuchreTables = setup.tables
        table = m.trick.before_play
        leader = m.deal.first[setup.dealer]
        zeros = m.deal.zeros
        core = _tuple_new(EuchreState, (  # EuchreState in field order
            player, hands, (), moves, stage, leader, zeros, (), -1, (0, 0), queue, bidding, contract, kitty, table,
        ))  # fmt: skip
        return cls._make(setup, core, _legal_of(setup, core) if legal is None else legal)

    # -- knowledge -----------------------------------------------------------

    def _history(self, viewer: int) -> tuple[tuple[int, Action], ...]:
        """The moves as ``viewer`` sees them: the dealer's discard without its card, and no
        other player's farmer's-hand ``pass`` (only a holder is asked, so his declining
        would show what he holds); a farmer's swap is shown."""
        m = self.setup.tables
        actions = m.actions.actions
        kinds = m.ids.kinds
        asked = self.core.bidding.asked
        seen = []
        for i, (who, action_id) in enumerate(self.moves):
            if who != viewer:
                kind = kinds[action_id]
                if kind is ActionKind.DISCARD:
                    seen.append((who, Action(Verb.DISCARD)))
                    continue
                if i < asked and kind is ActionKind.PASS:
                    continue
            seen.append((who, actions[action_id]))
        return tuple(seen)

    def _blind(self, player: int) -> bool:
        """Whether ``player`` has not looked at his hand yet: the dealer naming a suit for a
        turned Benny does so before looking (the British rule), unless a farmer's-hand decision
        (a house rule, asked first) already showed him his cards."""
        c = self.core
        return c.stage is Phase.TRUMP and player == self.setup.dealer and all(who != player for who, _ in c.moves)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: own hand, the turn-up, every played card; never the
        other hands, the kitty or the dealer's discard."""
        rules = self.setup.rules
        n = rules.players
        check_seat(player, n)  # a real int seat (not a bool): DealError / DealTypeError
        unseen = self._past_hidden_decisions(player)
        if unseen is not self:
            return unseen.view(player)
        c = self.core
        deck = rules.deck
        cards = deck.cards
        known = [0] * n
        if self._turn_up_kept():
            known[self.setup.dealer] = c.hands[self.setup.dealer] & (1 << c.kitty.turn_up)
        empty = CardSet(())
        return PlayerView(
            player=player,
            phase=c.stage,
            current_player=self.current_player,
            dealer=self.setup.dealer,
            hand=empty if self._blind(player) else CardSet(deck.cards_of(c.hands[player])),
            hand_sizes=tuple(h.bit_count() for h in c.hands),
            tabled=(empty,) * n,
            known=tuple(CardSet(deck.cards_of(k)) for k in known),
            trick=tuple(cards[x] for x in c.trick),
            trick_leader=c.leader,
            last_trick=tuple(cards[x] for x in c.last_trick),
            last_trick_leader=c.last_leader,
            trump=None if c.contract.trump < 0 else Suit(c.contract.trump),
            turn_up=cards[c.kitty.turn_up],
            stock_size=len(c.kitty.cards),
            scores=c.points,
            melds=(),
            won=tuple(CardSet(deck.cards_of(w)) for w in c.won),
            history=self._history(player),
            maker=self.maker,
            alone=None if c.contract.alone < 0 else c.contract.alone,
            lone_defender=None if c.contract.defender < 0 else c.contract.defender,
            sitting_out=self.sitting_out,
            buried=(cards[c.kitty.buried],) if player == self.setup.dealer and c.kitty.buried >= 0 else (),
            rules=rules,
            legal=self.legal_actions() if self.current_player == player else (),
        )

    def _past_hidden_decisions(self, player: int) -> Self:
        """This deal as ``player`` sees it while another player decides on a farmer's hand:
        every pending such decision of another player made as a ``pass`` (which nobody else
        sees). Only a holder is asked, so showing him as the player to act would tell what
        he holds; ``player`` sees the deal as if nobody held one until a swap is shown."""
        state = self
        pass_id = self.setup.tables.ids.pass_id
        while True:
            s = state.core
            queue = s.queue
            if not (s.stage is Phase.DISCARD and s.player != player and queue and queue[0].decision is Decision.FARMER):
                return state
            state = state._apply_id(pass_id)

    def _public_ids(self) -> int:
        c = self.core
        out = super()._public_ids() | 1 << c.kitty.turn_up
        if c.kitty.farmer >= 0:  # the swapped nines and tens were shown
            out |= sum(1 << x for x in c.kitty.cards[:3])
        return out

    def _unseen_turn(self, viewer: int) -> int | None:
        """A farmer's-hand question of another player: his ``pass`` is never shown (only a
        holder is asked; see `_past_hidden_decisions`)."""
        s = self.core
        queue = s.queue
        if s.stage is Phase.DISCARD and s.player != viewer and queue and queue[0].decision is Decision.FARMER:
            pass_id: int = self.setup.tables.ids.pass_id
            return pass_id
        return None

    def _turn_up_kept(self) -> bool:
        """Whether everyone knows the dealer holds the turn-up: he took it and could not
        discard it (``dealer_may_discard_upcard=False``, or a pick-up he could decline)."""
        bidding = part_of(self.setup.rules, self.setup.rules.bidding, OrderUp)
        return self.core.kitty.buried >= 0 and bidding.taken_turn_up_shown

    def _void_masks(self) -> list[int]:
        """Per player: cards they cannot hold, shown by not following suit."""
        rules = self.setup.rules
        n = rules.players
        c = self.core
        if c.contract.trump < 0:
            return [0] * n
        table = rules.trump_tables[c.contract.trump]
        voids = [0] * n
        # replay the tricks from the moves: plays only
        actions = self.setup.tables.actions.actions
        trick: list[tuple[int, int]] = []
        face_masks = rules.deck.face_masks
        face_index = rules.deck.face_index
        active = n - c.contract.out.bit_count()
        for who, action_id in c.moves:
            a = actions[action_id]
            if a.verb is not Verb.PLAY:
                continue
            face = face_index[a.cards[0]]
            pid = lowest_bit(face_masks[face])
            if trick:
                led_suit = table.suit[trick[0][1]]
                if table.suit[pid] != led_suit:
                    voids[who] |= table.suit_masks[led_suit]
            trick.append((who, pid))
            if len(trick) == active:
                trick = []
        return voids

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """A world ``player`` cannot tell from this deal: the cards he cannot see (the other
        hands, the kitty, a discard he did not make) dealt again among their places.

        What it samples: uniformly among the deals that keep what the history shows, by
        rejection (`knowledge.sample_hidden`): the voids shown by not following the effective
        suit (`_void_masks`); the turn-up where the dealer's exchange put it (kept, or, when
        nobody can tell, his discard as often as each of his cards: `_exchange_guess`); a
        shown farmer's swap. Under the farmer's-hand house rule a world must also show the
        same moves: a deal that gives another player a farmer's hand has him decline it
        unseen (`_with_hidden_passes`), and a guess is kept only when the world shows
        ``player`` what he sees (rejection again: uniform among the consistent deals). When
        no guess fits in ``_FARMER_GUESSES`` tries, a walk of swaps from the deal itself,
        each kept only when the world still fits (`_swap_walk`). Never the deal itself."""
        if part_of(self.setup.rules, self.setup.rules.bidding, OrderUp).farmers_hand == "off":
            return self._guess(player, rng)
        # Only a holder of a farmer's hand is asked whether to swap it; the others do not see
        # his ``pass``. A guess replays its deal with a hidden pass for each other holder its
        # hands make, and is kept when the viewer sees it as he sees this deal (rejection
        # sampling: a shown swap pins who held such a hand; a pending decision of another
        # player is not shown, see `_past_hidden_decisions`).
        seen = self.view(player)
        for _ in range(_FARMER_GUESSES):
            world = self._guess(player, rng)._with_hidden_passes(player)
            if world is not None and world.view(player) == seen:
                return world
        # Every guess failed (vanishingly rare once the hidden passes are read right): walk
        # from the deal itself, by swaps of two hidden cards kept when the world still shows
        # ``player`` what he sees. A deal no swap keeps is the only world: an equal copy.
        return self._swap_walk(player, seen, rng)

    def _swap_walk(self, player: int, seen: PlayerView, rng: random.Random) -> Self:
        """A random walk over the worlds ``player`` sees as ``seen``, from this deal: each step
        swaps two cards hidden from him in different places (not breaking a shown void) and
        keeps the swap when the world, its hidden farmer's-hand passes made again, replays and
        shows him ``seen`` (`knowledge.swap_walk`'s walk, with the replay as the check)."""
        s = self.core
        kitty = s.kitty
        n = self.setup.rules.players
        voids = self._void_masks()
        shown = 1 << kitty.turn_up  # the turn-up, the swapped farmer's hand, his own discard
        if kitty.farmer >= 0:
            shown |= sum(1 << x for x in kitty.cards[:3])
        if player == self.setup.dealer and kitty.buried >= 0:
            shown |= 1 << kitty.buried
        places: list[tuple[int, int]] = []  # (hidden card, its place: a seat, or n for the kitty)
        for q in range(n):
            if q != player:
                places += [(x, q) for x in card_ids(s.hands[q] & ~shown)]
        places += [(x, n) for x in kitty.cards if not (shown >> x) & 1]
        if len(places) < 2:
            return self._relabel({})
        world = self._relabel({})
        for _ in range(_FARMER_GUESSES // 10):
            (a, qa), (b, qb) = rng.sample(places, 2)
            if qa == qb or (qa < n and (voids[qa] >> b) & 1) or (qb < n and (voids[qb] >> a) & 1):
                continue
            swapped = world._relabel({a: b, b: a})._with_hidden_passes(player)
            if swapped is not None and swapped.view(player) == seen:
                world = swapped
        return world

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with its cards renamed by ``perm`` (a permutation of physical ids; ids it
        leaves out stay) wherever a card is named: the deck as dealt, the hands, the tricks,
        the cards won, the kitty (its turn-up, the dealer's discard), and the moves that name
        a card (a play, the dealer's discard, a farmer's swap: their ids are read again from
        the renamed cards). The seed goes (the deck is no longer the seed's). The legal
        actions are worked out again."""
        setup = self.setup
        s = self.core
        m = setup.tables
        face_of = setup.rules.deck.face_of
        ids = m.ids

        def re(x: int) -> int:
            return perm.get(x, x)

        def masks(row: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(relabel_mask(mask, perm) for mask in row)

        kitty = s.kitty
        new_kitty = kitty._replace(
            cards=tuple(re(x) for x in kitty.cards), turn_up=re(kitty.turn_up),
            buried=re(kitty.buried) if kitty.buried >= 0 else -1,
        )  # fmt: skip
        swap_of = {swap.faces: swap.action_id for swap in ids.farmer}
        moves = []
        for who, action_id in s.moves:
            kind = ids.kinds[action_id]
            if kind is ActionKind.PLAY or kind is ActionKind.DISCARD:
                table = ids.play if kind is ActionKind.PLAY else ids.discard
                face = ids.args[action_id]
                pid = re(lowest_bit(setup.rules.deck.face_masks[face]))
                action_id = table[face_of[pid]]
            elif kind is ActionKind.FARMER_SWAP and new_kitty.farmer == who:
                action_id = swap_of[frozenset(face_of[x] for x in new_kitty.cards[:3])]
            moves.append((who, action_id))
        state = s._replace(
            hands=masks(s.hands), trick=tuple(re(x) for x in s.trick), moves=tuple(moves), won=masks(s.won),
            last_trick=tuple(re(x) for x in s.last_trick), kitty=new_kitty,
        )  # fmt: skip
        order = relabel_seq(setup.deck_order, perm)
        new_setup = DealSetup(setup.rules, order, None, setup.dealer, m)
        return self._make(new_setup, state, _legal_of(new_setup, state))

    def _with_hidden_passes(self, player: int) -> Self | None:
        """This deal replayed on its own deck with the moves ``player`` sees, each farmer's-hand
        decision of another player not among them made as a ``pass`` (None: they do not fit)."""
        setup = self.setup
        m = setup.tables
        c = self.core
        kinds = m.ids.kinds
        hidden = [
            i < c.bidding.asked and who != player and kinds[a] is ActionKind.PASS for i, (who, a) in enumerate(c.moves)
        ]
        seen = [mv for mv, h in zip(c.moves, hidden) if not h]
        state = cast(Self, EuchreEngine.new_deal(setup.rules, setup.deck_order, setup.seed, setup.dealer))
        k = 0
        while True:
            now = state.core
            seat = now.player
            asked = now.stage is Phase.DISCARD and now.queue[0].decision is Decision.FARMER and seat != player
            swap = k < len(seen) and seen[k][0] == seat and kinds[seen[k][1]] is ActionKind.FARMER_SWAP
            if asked and not swap:  # his hidden decline (a seen move of his is a bid: issue 25 cause 3)
                state = state._apply_id(m.ids.pass_id)
                continue
            if k == len(seen):
                return state
            who, action_id = seen[k]
            if who != seat or action_id not in state.legal_action_ids():
                return None
            state = state._apply_id(action_id)
            k += 1

    def _exchange_guess(self, player: int, dealer_void: int, rng: random.Random) -> EuchreState:
        """This deal's core, or one just as consistent with what ``player`` sees in which the
        dealer kept or discarded the turn-up he took: when ``player`` cannot tell (the dealer
        may discard it and his discard is hidden) and the turn-up is not played, it is his
        discard with a chance of one in his hand size plus one (as likely as each of his
        cards), or never when he has shown he holds no card of its suit (``dealer_void``)."""
        c = self.core
        dealer = self.setup.dealer
        kitty = c.kitty
        up = 1 << kitty.turn_up
        hand = c.hands[dealer]
        in_hand = bool(hand & up)
        if (
            player == dealer
            or kitty.buried < 0
            or self._turn_up_kept()
            or not (in_hand or kitty.buried == kitty.turn_up)
        ):
            return c
        k = hand.bit_count()
        keep = not dealer_void & up and rng.randrange(k + 1) < k
        if keep == in_hand:
            return c
        if in_hand:  # he discarded the turn-up instead of the card he did discard
            buried = kitty.turn_up
            hand = hand & ~up | 1 << kitty.buried
        else:  # he kept the turn-up and discarded one of the cards he holds
            buried = rng.choice(card_ids(hand))
            hand = hand & ~(1 << buried) | up
        hands = list(c.hands)
        hands[dealer] = hand
        cards = tuple(buried if x == kitty.buried else x for x in kitty.cards)
        return c._replace(hands=tuple(hands), kitty=kitty._replace(cards=cards, buried=buried))

    def _guess(self, player: int, rng: random.Random) -> Self:
        """A deal consistent with what ``player`` sees (but for who held a farmer's hand)."""
        rules = self.setup.rules
        n = rules.players
        voids = self._void_masks()
        c = self._exchange_guess(player, voids[self.setup.dealer], rng)
        k = c.kitty
        dealer = self.setup.dealer
        fixed = [0] * n
        kitty_fixed = 0
        if k.buried >= 0:
            # the dealer took the turn-up: it stays where the guessed exchange put it, in his hand
            # or as his discard (so that every guess replays)
            fixed[dealer] = c.hands[dealer] & (1 << k.turn_up)
            if k.buried == k.turn_up:
                kitty_fixed |= 1 << k.turn_up
        if player == dealer and k.buried >= 0:
            kitty_fixed |= 1 << k.buried
        if k.farmer >= 0:  # the swapped nines and tens were shown
            kitty_fixed |= sum(1 << x for x in k.cards[:3])
        slots: list[tuple[int, int]] = []
        hidden: list[int] = []
        owners: list[int] = []
        blind = self._blind(player)  # his own hand is as unknown to him as the others'
        for q in range(n):
            if q == player and not blind:
                continue
            free = c.hands[q] & ~fixed[q]
            slots.append((free.bit_count(), voids[q]))
            owners.append(q)
            hidden.extend(card_ids(free))
        kitty_free = [x for x in k.cards if not (kitty_fixed >> x) & 1]
        slots.append((len(kitty_free), 0))
        hidden.extend(kitty_free)
        dealt = sample_hidden(hidden, slots, rng)
        if dealt is None:  # cannot happen for a consistent state: walk from the deal itself
            return self._swap_walk(player, self.view(player), rng)
        hands = list(c.hands)
        perm: dict[int, int] = {}
        for q, cards_q in zip(owners, dealt[:-1]):
            old = card_ids(c.hands[q] & ~fixed[q])
            hands[q] = (c.hands[q] & fixed[q]) | sum(1 << x for x in cards_q)
            perm.update(zip(old, sorted(cards_q)))
        kitty_new = list(dealt[-1])
        rng.shuffle(kitty_new)
        perm.update(zip(kitty_free, kitty_new))
        kitty = tuple(perm.get(x, x) for x in k.cards)
        # the identity of hidden cards in the record: relabel the deck order and hidden moves
        order = relabel_seq(self.setup.deck_order, _as_permutation(perm))
        moves = c.moves
        buried = k.buried
        if buried >= 0 and player != dealer:
            buried = perm.get(buried, buried)
            m = self.setup.tables
            hidden_discard = m.ids.discard[rules.deck.face_of[buried]]
            moves = tuple(
                (who, hidden_discard) if m.ids.kinds[action_id] is ActionKind.DISCARD else (who, action_id)
                for who, action_id in moves
            )
        core = c._replace(hands=tuple(hands), kitty=k._replace(cards=kitty, buried=buried), moves=moves)
        return type(self)(DealSetup(rules, order, None, dealer, self.setup.tables), core)


def _legal_of(setup: DealSetup[EuchreTables], s: EuchreState) -> tuple[int, ...]:
    """The legal action ids of a deal with this setup and state, sorted."""
    stage = s.stage
    m = setup.tables
    if stage is _TRICKS:
        follow = m.trick.follow
        if follow is not None:
            hand = s.hands[s.player]
            trick = s.trick
            if trick:
                hand = hand & follow[s.contract.trump][trick[0]] or hand
            return _play_ids(m.trick, hand)
    elif stage is _BID:
        b = s.bidding
        return m.bidding.bid_legal[b.round == 2][s.player == setup.dealer][b.candidate]
    elif stage is _OVER:
        return ()
    elif stage is Phase.ALONE:
        return m.bidding.alone_legal
    elif stage is Phase.TRUMP:
        return m.bidding.trump_legal
    return tuple(sorted(set(_legal_list(setup, s))))


def _legal_list(setup: DealSetup[EuchreTables], s: EuchreState) -> list[int]:
    """The legal action ids (unsorted, maybe repeated) the general way: from the rule set's parts."""
    ids = setup.tables.ids
    stage = s.stage
    b = s.bidding
    p = s.player
    if stage is Phase.OVER:
        return []
    rules = setup.rules
    bidding = part_of(rules, rules.bidding, OrderUp)
    face_of = rules.deck.face_of
    if stage is Phase.TRICKS:
        table = rules.trump_tables[s.contract.trump]
        playable = rules.playoff_policy.legal(table, s.hands[p], s.trick)
        return [ids.play[face_of[pid]] for pid in card_ids(playable)]
    if stage is Phase.TRUMP:
        return list(ids.trump)
    if stage is Phase.BID:
        return _bid_ids(bidding, ids, b.round == 2, p == setup.dealer, b.candidate)
    if stage is Phase.ALONE:
        return [ids.alone_id, ids.pass_id]
    if s.queue[0].decision is Decision.FARMER:
        return [ids.pass_id, *_farmer_swaps(setup, s.hands[p])]
    # the dealer's pick-up and discard
    cards, decline = _pickup_choices(bidding, s.hands[p], s.kitty.turn_up)
    out = [ids.discard[face_of[pid]] for pid in card_ids(cards)]
    if decline:
        out.append(ids.pass_id)
    return out


def _farmer_swaps(setup: DealSetup[EuchreTables], hand: int) -> list[int]:
    """The ids of the farmer's swaps ``hand`` can make."""
    ids = setup.tables.ids
    face_of = setup.rules.deck.face_of
    faces = sorted({face_of[pid] for pid in card_ids(hand) if (ids.farmer_faces >> face_of[pid]) & 1})
    swap_of = {swap.faces: swap.action_id for swap in ids.farmer}
    return [swap_of[t] for t in map(frozenset, itertools.combinations(faces, 3)) if t in swap_of]


def _has_farmers_hand(setup: DealSetup[EuchreTables], hand: int) -> bool:
    """Whether ``hand`` holds a farmer's hand (and so is asked whether to swap it)."""
    return bool(_farmer_swaps(setup, hand))


def _lapses(setup: DealSetup[EuchreTables], contract: Contract, exchanged: bool, seat: int, decision: Decision) -> bool:
    """Whether a queued take-over or lone-defence question lapses: a take-over when the
    maker is the dealer who took the turned card (the British rule); a lone defence when someone
    already defends alone, the rules allow none now, or his partner is the dealer who
    has exchanged (the British rule). ``exchanged``: the dealer has taken the turn-up."""
    dealer = setup.dealer
    if decision is Decision.TAKEOVER:
        bidding = part_of(setup.rules, setup.rules.bidding, OrderUp)
        return bidding.takeover_refused(maker_is_dealer=contract.maker == dealer, dealer_took_turn_up=exchanged)
    tables = setup.tables.bidding
    return decision is Decision.DEFEND and (
        contract.defender >= 0
        or not tables.defence_allowed[contract.alone >= 0]
        or (tables.defence_blocked_by_exchange and (seat + 2) % setup.rules.players == dealer and exchanged)
    )


def _pickup_choices(bidding: OrderUp, hand: int, turn_up: int) -> tuple[int, bool]:
    """The dealer's pick-up: the cards he may discard (a mask) and whether he may decline
    the turn-up with ``pass`` (then he keeps his hand: the turn-up is not among them)."""
    if bidding.dealer_pickup == "may":
        return hand, True
    if bidding.dealer_may_discard_upcard:
        return hand | 1 << turn_up, False
    return hand, False


def _taken(won: tuple[int, ...], active: int) -> tuple[int, ...]:
    """Per seat: the tricks taken, from the cards won (``active`` cards a trick)."""
    return tuple([w.bit_count() // active for w in won])


def _as_permutation(perm: dict[int, int]) -> dict[int, int]:
    """Complete a partial map of hidden cards into a permutation of them."""
    sources = set(perm)
    targets = set(perm.values())
    free_targets = sorted(sources - targets)
    free_sources = sorted(targets - sources)
    full = dict(perm)
    full.update(zip(free_sources, free_targets))
    return full


def _play_ids(t: EuchreTrickTables, mask: int) -> tuple[int, ...]:
    """The play ids of the cards of ``mask``, sorted (a deck with one copy of each card)."""
    w = t.width
    cm = t.chunk_mask
    out: tuple[int, ...] = ()
    for k, table in enumerate(t.chunks):
        out += table[mask >> k * w & cm]
    return out


ENGINE = EuchreEngine()
"""The Euchre engine, as the registry finds it."""


# -- the farmer's-hand round as every player sees it (the adapters) --------------------------


@attrs.frozen
class FarmersRound:
    """A Euchre deal played with its farmer's-hand round asked of every seat in turn.

    Under the ``farmers_hand`` house rule the engine asks only a holder whether to swap
    his farmer's hand, and its views hide a holder's ``pass`` (`EuchreDeal.view`). An
    interface that tells everybody whose turn it is (OpenSpiel's ``current_player``,
    PettingZoo's ``agent_selection`` and action masks) would still show who is asked, and
    so who holds one. Through this record each seat, from the dealer's left, is asked in
    turn: a seat the deal asks (a holder) answers with the deal's own legal actions; any
    other seat's only answer is ``pass``, which leaves the deal as it is. Who is asked, and
    when, then shows nothing. The deal's record is unchanged: only the holders' answers
    are moves of the deal, as without this record.

    Without the house rule, or for a deal of another family, the round is empty and the
    record only passes the deal's own turns on.

    >>> from bezique_rules import new_deal
    >>> deal = new_deal("euchre", seed=1002, farmers_hand="mixed")
    >>> deal.current_player  # the deal asks the holder
    3
    >>> FarmersRound.start(deal).current_player  # everybody sees the dealer's left asked first
    0
    """

    deal: DealState
    """The deal."""
    asked: int = 0
    """How many seats of the round have answered (0 … players)."""

    @classmethod
    def start(cls, deal: DealState) -> FarmersRound:
        """The round over ``deal`` where its moves leave it: over once a move after the
        farmer's-hand questions is made (or the deal is over); else just after the seat of
        the last farmer's-hand answer, or at its start."""
        seats = _round_seats(deal)
        if not seats:
            return cls(deal, 0)
        assert isinstance(deal, EuchreDeal)
        s = deal.core
        if deal.is_over or len(s.moves) > s.bidding.asked:
            return cls(deal, len(seats))
        asked = max((seats.index(who) + 1 for who, _ in s.moves), default=0)
        return cls(deal, asked)

    @property
    def seat(self) -> int | None:
        """The seat asked now in the farmer's-hand round, or None once the round is over."""
        seats = _round_seats(self.deal)
        if self.asked >= len(seats) or self.deal.is_over:
            return None
        return seats[self.asked]

    @property
    def forwarded(self) -> bool:
        """Whether the seat asked now is the one the deal asks (a holder: his answer is a
        move of the deal); False once the round is over."""
        seat = self.seat
        return seat is not None and _asks_farmer(self.deal, seat)

    @property
    def current_player(self) -> int | None:
        """Who is to act: the seat asked in the round, then the deal's player."""
        seat = self.seat
        return self.deal.current_player if seat is None else seat

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids legal now: the deal's, except for a seat the round asks and the deal does
        not (``pass`` only)."""
        if self.seat is None or self.forwarded:
            return self.deal.legal_action_ids()
        return (_pass_id(self.deal),)

    def apply(self, action_id: int) -> FarmersRound:
        """The round after ``action_id`` (an id of `legal_action_ids`).

        Raises:
            IllegalActionError: not legal now (the deal's own refusal, or a seat the deal
                does not ask answering with anything but ``pass``).
        """
        if self.seat is None:
            return FarmersRound(self.deal.apply(action_id), self.asked)
        if self.forwarded:
            return FarmersRound(self.deal.apply(action_id), self.asked + 1)._caught_up()
        if action_id not in self.legal_action_ids():
            raise IllegalActionError(
                f"seat {self.seat} is asked about a farmer's hand and holds none: its only answer is pass"
                f" (id {_pass_id(self.deal)}), not {action_id!r}",
                rule=RuleCode.NOT_AN_ACTION,
                action=action_id,
                player=self.seat,
                phase=Phase.DISCARD,
            )
        return FarmersRound(self.deal, self.asked + 1)._caught_up()

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats the round asks, in turn (from the dealer's left); () without it."""
        return _round_seats(self.deal)

    def moves_seen_in_turn(self) -> tuple[Move, ...]:
        """The deal's moves less a farmer's-hand ``pass`` of a seat the round has not asked
        yet (a `determinize` world makes such hidden passes at once)."""
        seats = _round_seats(self.deal)
        moves = self.deal.moves
        if not seats or self.asked >= len(seats):
            return moves
        assert isinstance(self.deal, EuchreDeal)
        answered = self.deal.core.bidding.asked
        waiting = set(seats[self.asked :])
        pass_id = _pass_id(self.deal)
        return tuple(m for i, m in enumerate(moves) if not (i < answered and m[0] in waiting and m[1] == pass_id))

    def over(self, world: DealState) -> FarmersRound:
        """The same round over ``world`` (a deal some player cannot tell from this one, such
        as a `determinize` world): a farmer's-hand question the world still asks of a seat
        the round has passed is answered ``pass``, unseen by the others."""
        return FarmersRound(world, self.asked)._caught_up()

    def _caught_up(self) -> FarmersRound:
        seats = _round_seats(self.deal)
        deal = self.deal
        passed = set(seats[: self.asked])
        while not deal.is_over and deal.current_player in passed and _asks_farmer(deal, deal.current_player):
            deal = deal.apply(_pass_id(deal))
        return self if deal is self.deal else FarmersRound(deal, self.asked)


def _round_seats(deal: DealState) -> tuple[int, ...]:
    """The seats the farmer's-hand round asks in turn (from the dealer's left); () without it."""
    if not isinstance(deal, EuchreDeal):
        return ()
    rules = deal.setup.rules
    bidding = part_of(rules, rules.bidding, OrderUp)
    return tuple(seat for seat, _ in bidding.decisions_before_bidding(rules.players, deal.setup.dealer))


def _pass_id(deal: DealState) -> int:
    """The id of ``pass``."""
    return deal.rules.action_id(Action(Verb.PASS))


def _asks_farmer(deal: DealState, seat: int | None) -> bool:
    """Whether ``deal`` (a Euchre deal) asks ``seat`` whether to swap a farmer's hand now."""
    assert isinstance(deal, EuchreDeal)
    s = deal.core
    return s.stage is Phase.DISCARD and s.player == seat and bool(s.queue) and s.queue[0].decision is _FARMERS_HAND
