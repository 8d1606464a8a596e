"""The Euchre engine: order-up rounds, the dealer's exchange, going alone, five tricks.

The engine sequences the phases only. The bidding rules come from the rule
set's `OrderUp` part, the trump order (bowers, Benny) from its `TrumpOrder`,
the play duty (follow the effective suit) from its trick policy, and the
points from its `EuchreScoring`.

Phases: ``TRUMP`` (a turned Benny: the dealer names a suit), ``DISCARD`` (a
farmer's-hand swap, or the dealer's discard after taking the turn-up),
``BID`` (round one: ``pass`` / ``order-up [alone]``; round two: ``pass`` /
``call S [alone]``), ``ALONE`` (``alone`` or ``pass``: the maker's decision when
it follows the bid, a partner taking over, a defender defending alone),
``TRICKS``, ``OVER``.
"""

from __future__ import annotations

import itertools
import operator
import random
from typing import Any, NamedTuple, cast

import attrs
from typing_extensions import Self

from ..actions import Action, ActionSpace, Verb
from ..bidding import Decision, OrderUp
from ..cards import CardSet, Rank, Suit
from ..checks import check_seat
from ..deck import WIDOW, card_ids
from ..errors import RuleCode
from ..knowledge import deal_hidden
from ..rules.ruleset import RuleSet, part_of
from ..scoring import EuchreScoring, ScoreBreakdown
from ..state import DealSetup, DealState, Move, Phase, PlayerView, relabel_seq
from ..tricks import PlayDuty

__all__ = ["EuchreCore", "EuchreDeal", "EuchreEngine"]

_FARMER_GUESSES = 1000  # guesses tried for one consistent with who held a farmer's hand

# the questions outside the bidding rounds, as module names (an enum's class attribute
# costs five times a global's look-up in CPython 3.11)
_MAKER_ALONE, _TAKEOVER, _DEFEND, _PICKUP = Decision.MAKER_ALONE, Decision.TAKEOVER, Decision.DEFEND, Decision.PICKUP
_FARMERS_HAND = Decision.FARMER

_PLAY, _DISCARD, _PASS, _ORDER, _ORDER_ALONE, _CALL, _CALL_ALONE, _TRUMP, _ALONE, _FARMER_SWAP = range(10)

_TRICKS = Phase.TRICKS
_BID = Phase.BID
_OVER = Phase.OVER
_bit = (1).__lshift__  # physical id -> its mask bit


@attrs.frozen
class _Meta:
    actions: ActionSpace
    meta: tuple[tuple[int, Any], ...]  # id -> (kind, argument)
    play_ids: tuple[int, ...]  # face -> id
    discard_ids: tuple[int, ...]  # face -> id
    farmer_ids: dict[frozenset[int], int]  # faces -> id
    pass_id: int
    order_id: int
    order_alone_id: int
    call_ids: tuple[int, ...]  # suit -> id
    call_alone_ids: tuple[int, ...]
    trump_ids: tuple[int, ...]
    alone_id: int
    farmer_faces: int  # mask of faces that count for a farmer's hand
    # -- tables for the hot paths (all derived from the rule set) --
    plays: int  # ids 0 .. plays-1 are the plays, id == face
    single: bool  # one copy of each card: physical id == face == play id
    width: int  # bits per chunk of a hand mask
    chunks: tuple[tuple[tuple[int, ...], ...], ...]  # chunk k -> its bits -> the play ids (single decks)
    chunk_mask: int  # (1 << width) - 1
    low_ids: tuple[tuple[int, ...], ...]  # chunks[0] when a mask has two chunks, else ()
    high_ids: tuple[tuple[int, ...], ...]  # chunks[1] when a mask has two chunks, else ()
    lead_power: tuple[tuple[tuple[int, ...], ...], ...]  # trump -> led card -> trick power of each card (single decks)
    follow: tuple[tuple[int, ...], ...] | None  # trump -> led card -> cards that follow it (None: ask the policy)
    next_seat: tuple[tuple[int, ...], ...]  # out -> seat -> the next seat in play
    active: tuple[int, ...]  # out -> how many seats are in play
    nth_seat: tuple[tuple[tuple[int, ...], ...], ...]  # out -> leader -> k -> the k-th seat in play after him
    bid_legal: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]  # round two -> is dealer -> candidate -> ids
    alone_legal: tuple[int, ...]
    trump_legal: tuple[int, ...]
    candidate_of: tuple[int, ...]  # turn-up -> the suit offered in round one, or -1 (the dealer names it)
    dealing: tuple[tuple[Any, ...], ...] | None  # dealer -> seat -> getter of its cards from the order
    turn_pos: int  # where the turn-up lies in the order (the kitty follows it)
    first: tuple[int, ...]  # dealer -> the seat on his left
    farmer_queue: tuple[tuple[tuple[int, int], ...], ...]  # dealer -> the farmer's-hand decisions, or ()
    zeros: tuple[int, ...]  # one 0 per seat
    made_queue: tuple[tuple[tuple[tuple[tuple[tuple[int, int], ...], ...], ...], ...], ...]
    # dealer -> maker -> alone -> the turned suit -> the decisions queued when trumps are made
    defence_allowed: tuple[bool, bool]  # the maker is alone -> a defender may be offered to defend alone
    defence_blocked_by_exchange: bool
    lead_left_of_lone: bool
    benny_makes_dealer: bool
    rows_before_play: tuple[Any, ...]  # the stored core's play rows before trumps are made
    play_of: dict[int, int]  # id() of each play action object -> its id (see ActionSpace.by_identity)
    low_actions: tuple[tuple[Action, ...], ...]  # low_ids as actions
    high_actions: tuple[tuple[Action, ...], ...]  # high_ids as actions


class EuchreEngine:
    """Builds Euchre deals and their action space."""

    name = "euchre"

    @staticmethod
    def compile(rules: RuleSet) -> _Meta:
        """The numbered actions: plays and discards by face, the bids, ``trump``, ``alone``,
        farmer's swaps; and the engine's lookup tables."""
        m = _build(rules)
        return m

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> EuchreDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        m = cast(_Meta, rules.tables)
        dealing = m.dealing
        if dealing is None:
            hands, _widow, turn_up, kitty = rules.deal.deal(order, rules.players, dealer)
        else:  # the same deal as the pattern's, from precomputed positions
            hands = tuple([sum(map(_bit, get(order))) for get in dealing[dealer]])
            turn_up = order[m.turn_pos]
            kitty = order[m.turn_pos + 1 :]
        first = m.first[dealer]
        queue = m.farmer_queue[dealer]
        candidate = m.candidate_of[turn_up]
        legal: tuple[int, ...] | None = None
        if candidate < 0:  # a turned Benny (or suitless card): the dealer names a suit
            stage, player = Phase.TRUMP, dealer
        else:
            stage, player = _BID, first
            legal = m.bid_legal[False][first == dealer][candidate]
        zeros = m.zeros
        raw: tuple[Any, ...] = (legal, player, hands, (), (), (
            stage, first, zeros, zeros, (), -1, (0, 0), -1, 0, kitty, turn_up, 1, candidate, 0, -1, -1, -1, queue,
            -1, -1, False, 0, *m.rows_before_play,
        ))  # fmt: skip
        setup = _new(DealSetup)  # DealSetup(rules, order, seed, dealer, m), without attrs' __init__
        _set_rules(setup, rules)
        _set_order(setup, order)
        _set_seed(setup, seed)
        _set_dealer(setup, dealer)
        _set_meta(setup, m)
        _set_packet(setup, -1)
        deal = _new(EuchreDeal)
        _set_setup(deal, setup)
        if queue or legal is None:
            _set_raw(deal, raw)
            return deal._settle([*raw[:_REST], *raw[_REST]])
        _set_raw(deal, raw)
        _set_over(deal, False)
        return deal


def _build(rules: RuleSet) -> _Meta:
    deck = rules.deck
    faces = deck.faces
    actions: list[Action] = []
    meta: list[tuple[int, Any]] = []

    def add(action: Action, kind: int, arg: Any) -> int:
        actions.append(action)
        meta.append((kind, arg))
        return len(actions) - 1

    play_ids = tuple(add(Action.make(Verb.PLAY, [c]), _PLAY, f) for f, c in enumerate(faces))
    discard_ids = tuple(add(Action.make(Verb.DISCARD, [c]), _DISCARD, f) for f, c in enumerate(faces))
    pass_id = add(Action(Verb.PASS), _PASS, None)
    order_id = add(Action(Verb.ORDER_UP), _ORDER, None)
    order_alone_id = add(Action(Verb.ORDER_UP, alone=True), _ORDER_ALONE, None)
    call_ids = tuple(add(Action(Verb.CALL, suit=s), _CALL, s.value) for s in Suit)
    call_alone_ids = tuple(add(Action(Verb.CALL, suit=s, alone=True), _CALL_ALONE, s.value) for s in Suit)
    trump_ids = tuple(add(Action(Verb.TRUMP, suit=s), _TRUMP, s.value) for s in Suit)
    alone_id = add(Action(Verb.ALONE), _ALONE, None)
    farmer_faces = 0
    farmer_ids: dict[frozenset[int], int] = {}
    bidding = part_of(rules, rules.bidding, OrderUp)
    if bidding.farmers_hand != "off":
        low = [f for f, c in enumerate(faces) if c.rank in (Rank.NINE, Rank.TEN)]
        for f in low:
            farmer_faces |= 1 << f
        for trio in itertools.combinations(low, 3):
            ranks = {faces[f].rank for f in trio}
            if bidding.farmers_hand == "nines_or_tens" and len(ranks) != 1:
                continue
            farmer_ids[frozenset(trio)] = add(
                Action.make(Verb.DISCARD, [faces[f] for f in trio]), _FARMER_SWAP, frozenset(trio)
            )
    n = rules.players
    size = deck.size
    single = (
        deck.packs == 1
        and play_ids == tuple(range(len(faces)))
        and discard_ids == tuple(range(len(faces), 2 * len(faces)))
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
    bid_legal = tuple(
        tuple(
            tuple(
                tuple(sorted(set(_bid_ids(bidding, pass_id, order_id, order_alone_id, call_ids, call_alone_ids,
                                          round_two, is_dealer, cand))))
                for cand in range(4)
            )
            for is_dealer in (False, True)
        )
        for round_two in (False, True)
    )  # fmt: skip
    candidate_of = tuple(
        -1 if card.suit is None or card == rules.trump_order.benny else card.suit.value for card in deck.cards
    )
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
            tuple(operator.itemgetter(*seat_positions[(seat - dealer - 1) % n]) for seat in range(n))
            for dealer in range(n)
        )
    space = ActionSpace.of(actions)
    return _Meta(
        space, tuple(meta), play_ids, discard_ids, farmer_ids, pass_id, order_id, order_alone_id,
        call_ids, call_alone_ids, trump_ids, alone_id, farmer_faces,
        len(faces), single, width, chunks, (1 << width) - 1,
        chunks[0] if len(chunks) == 2 else (), chunks[1] if len(chunks) == 2 else (),
        lead_power, follow, tuple(next_seat),
        tuple((n - out.bit_count()) for out in range(1 << n)), tuple(nth_seat), bid_legal,
        tuple(sorted({alone_id, pass_id})), tuple(sorted(set(trump_ids))), candidate_of, dealing, pos,
        tuple((d + 1) % n for d in range(n)),
        tuple(
            bidding.decisions_before_bidding(n, d) for d in range(n)
        ),
        (0,) * n,
        tuple(
            tuple(
                tuple(
                    tuple(
                        bidding.decisions_after_trump(n, dealer, maker, alone=alone, turned_suit=turned)
                        for turned in (False, True)
                    )
                    for alone in (False, True)
                )
                for maker in range(n)
            )
            for dealer in range(n)
        ),
        (bidding.defence_allowed(maker_alone=False), bidding.defence_allowed(maker_alone=True)),
        bidding.defence_blocked_by_exchange,
        bidding.lone_lead == "left_of_lone_player",
        bidding.benny_turned == "dealer_forced_maker",
        (next_seat[0], n, None, None),
        {k: i for k, i in space.by_identity.items() if i < len(faces)},
        tuple(tuple(space.actions[i] for i in ids) for ids in chunks[0]) if len(chunks) == 2 else (),
        tuple(tuple(space.actions[i] for i in ids) for ids in chunks[1]) if len(chunks) == 2 else (),
    )  # fmt: skip


def _nested(e: list[Any]) -> tuple[Any, ...]:
    """The stored core from its flat list: (legal, player, hands, trick, moves, rest)."""
    return (*e[:_REST], tuple(e[_REST:]))


def _play_rows(m: _Meta, out: int, trump: int) -> tuple[Any, ...]:
    """The stored core's play rows (_SEATS, _ACTIVE, _FOLLOW, _POWER) for these seats out and trumps."""
    if trump < 0:
        return (m.next_seat[out], m.active[out], None, None)
    follow = m.follow[trump] if m.follow is not None else None
    power = m.lead_power[trump] if m.lead_power else None
    return (m.next_seat[out], m.active[out], follow, power)


def _bid_ids(
    bidding: OrderUp,
    pass_id: int,
    order_id: int,
    order_alone_id: int,
    call_ids: tuple[int, ...],
    call_alone_ids: tuple[int, ...],
    round_two: bool,
    is_dealer: bool,
    candidate: int,
) -> list[int]:
    """The bids open to a player (before sorting)."""
    ids = []
    if bidding.may_pass(round_two=round_two, is_dealer=is_dealer):
        ids.append(pass_id)
    if not round_two:
        ids.append(order_id)
        if bidding.alone_with_bid:
            ids.append(order_alone_id)
    else:
        for s in range(4):
            if s != candidate:
                ids.append(call_ids[s])
                if bidding.alone_with_bid:
                    ids.append(call_alone_ids[s])
    return ids


class EuchreCore(NamedTuple):
    """The changing part of a Euchre deal, as `EuchreDeal.core` gives it (a snapshot:
    the deal stores the same fields laid out for speed)."""

    player: int
    """Who is to act (-1 when over)."""
    hands: tuple[int, ...]
    """Per player: the mask of held cards."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""
    stage: Phase
    """The phase."""
    leader: int
    """Who led (or will lead) the current trick."""
    won: tuple[int, ...]
    """Per player: the mask of cards won in tricks."""
    taken: tuple[int, ...]
    """Per player: tricks taken."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick."""
    points: tuple[int, int]
    """Per side: points of the deal (set when it ends)."""
    trump: int
    """The trump suit index, or -1."""
    out: int
    """Bit per seat: sitting out this deal."""
    kitty: tuple[int, ...]
    """The undealt cards under the turn-up (and the dealer's discard once made), hidden."""
    turn_up: int
    """The turned-up card (physical id)."""
    round: int
    """Bidding round: 1 (order up) or 2 (call another suit)."""
    candidate: int
    """The suit offered in round one (the turn-up's suit, or the one named for a Benny)."""
    passes: int
    """Passes in the current round."""
    maker: int
    """The player who made trumps, or -1."""
    alone: int
    """The player playing alone, or -1."""
    defender: int
    """The player defending alone, or -1."""
    queue: tuple[tuple[int, int], ...]
    """Pending decisions: (seat, kind)."""
    buried: int
    """The dealer's discard (physical id), or -1."""
    farmer: int
    """The player who swapped a farmer's hand, or -1."""
    misdeal: bool
    """The deal ended without play (everybody passed, or a misdeal)."""
    asked: int
    """How many farmer's-hand decisions were made (the first moves of the deal): only a
    player holding one is asked, so a ``pass`` among them is shown to him alone."""


# The stored core (`EuchreDeal._raw`) is `EuchreCore` laid out for the hot path:
#
#     (legal, player, hands, trick, moves, rest)
#
# ``rest`` holds the other fields of EuchreCore in order (from ``stage``), then four
# rows the play reads at every card, set when the play starts. A card played
# mid-trick builds a new 6-tuple and shares ``rest``; a completed trick rebuilds
# ``rest``. ``legal`` is the sorted legal ids, or, during the play on a deck with
# tables, the mask of the playable cards (legal_action_ids() and legal_actions()
# read their ids and actions from the tables). The bidding transitions edit a flat
# list copy, indexed by these positions:
(
    _LEGAL, _PLAYER, _HANDS, _TRICK, _MOVES, _STAGE, _LEADER, _WON, _TAKEN, _LAST_TRICK, _LAST_LEADER, _POINTS,
    _TRUMP, _OUT, _KITTY, _TURN_UP, _ROUND, _CANDIDATE, _PASSES, _MAKER, _ALONE, _DEFENDER, _QUEUE, _BURIED,
    _FARMER, _MISDEAL, _ASKED,
) = range(27)  # fmt: skip
_CORE_END = 27  # the end of EuchreCore's fields; the play rows follow:
_SEATS = 27  # m.next_seat[out]: seat -> the next seat in play
_ACTIVE = 28  # m.active[out]: how many seats are in play
_FOLLOW = 29  # m.follow[trump]: led card -> the cards that follow it (None: no tables, ask the policy)
_POWER = 30  # m.lead_power[trump]: led card -> trick power of each card (None: ask the trump table)
_REST = _STAGE  # where rest starts in the flat list
# positions in rest
_R_STAGE, _R_LEADER, _R_WON, _R_TAKEN, _R_POINTS = (k - _REST for k in (_STAGE, _LEADER, _WON, _TAKEN, _POINTS))
_R_TRUMP, _R_OUT, _R_KITTY, _R_TURN_UP = (k - _REST for k in (_TRUMP, _OUT, _KITTY, _TURN_UP))
_R_MAKER, _R_ALONE, _R_DEFENDER = (k - _REST for k in (_MAKER, _ALONE, _DEFENDER))
_R_SEATS, _R_ACTIVE, _R_FOLLOW, _R_POWER = (k - _REST for k in (_SEATS, _ACTIVE, _FOLLOW, _POWER))


def _core_key(raw: tuple[Any, ...]) -> tuple[Any, ...]:
    """What equality and hashing compare in a stored core: the fields of `EuchreCore`
    (the legal actions and the play rows follow from them)."""
    return raw[1:_REST], raw[_REST][: _CORE_END - _REST]


@attrs.frozen(repr=False)
class EuchreDeal(DealState):
    """A Euchre deal: immutable. Read it through the properties and `view`."""

    setup: DealSetup[_Meta]
    """The rules, deck order, seed and dealer."""
    _raw: tuple[Any, ...] = attrs.field(alias="_raw", eq=_core_key)
    """The stored core: `EuchreCore` laid out for the hot path, with the legal actions
    (read it as `core`)."""
    is_over: bool = attrs.field(init=False, eq=False)
    """True when the deal is finished (kept as a field: the loop of every game reads it)."""

    def __attrs_post_init__(self) -> None:
        _set_over(self, self._raw[_REST][_R_STAGE] is _OVER)

    @classmethod
    def of(cls, setup: DealSetup[_Meta], core: EuchreCore) -> Self:
        """The deal with this setup and core (its legal actions are worked out here)."""
        m: _Meta = setup.meta
        e: list[Any] = [_legal_of(setup, core), *core, *_play_rows(m, core.out, core.trump)]
        return cls(setup, _nested(e))

    def __repr__(self) -> str:
        return f"EuchreDeal(setup={self.setup!r}, core={self.core!r})"

    @property
    def core(self) -> EuchreCore:
        """Everything that changes during the deal."""
        c = self._raw
        return EuchreCore._make((*c[1:_REST], *c[_REST][: _CORE_END - _REST]))

    def _state(self, e: list[Any]) -> Self:
        """The next state of this deal from a list of its stored core (the legal ids at
        ``e[_LEGAL]`` are worked out when None)."""
        if e[_LEGAL] is None:
            e[_LEGAL] = _legal_of(self.setup, EuchreCore._make(e[1:_CORE_END]))
        new = _new(self.__class__)
        _set_setup(new, self.setup)
        _set_raw(new, _nested(e))
        _set_over(new, e[_STAGE] is _OVER)
        return new

    # -- what every deal state reads: from the stored core, without building `core` --

    @property
    def thrown_in(self) -> bool:
        """Whether everyone passed (or a second farmer's hand was a misdeal)."""
        return bool(self.core.misdeal)

    @property
    def phase(self) -> Phase:
        """The current phase."""
        stage: Phase = self._raw[_REST][_R_STAGE]
        return stage

    @property
    def current_player(self) -> int | None:
        """Who acts next (None when the deal is over)."""
        p: int = self._raw[_PLAYER]
        return None if p < 0 else p

    @property
    def hands(self) -> tuple[int, ...]:
        """Per player: the mask of held cards."""
        hands: tuple[int, ...] = self._raw[_HANDS]
        return hands

    @property
    def won(self) -> tuple[int, ...]:
        """Per player: the mask of cards won in tricks."""
        won: tuple[int, ...] = self._raw[_REST][_R_WON]
        return won

    @property
    def trick(self) -> tuple[int, ...]:
        """The current trick's cards (physical ids) in play order."""
        trick: tuple[int, ...] = self._raw[_TRICK]
        return trick

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every action so far, as (player, action_id) pairs."""
        moves: tuple[Move, ...] = self._raw[_MOVES]
        return moves

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids of the legal actions, sorted."""
        legal = self._raw[_LEGAL]
        if type(legal) is int:  # the mask of the playable cards: their play ids from the tables
            m: _Meta = self.setup.meta
            low = m.low_ids
            return low[legal & m.chunk_mask] + m.high_ids[legal >> m.width] if low else _play_ids(m, legal)
        ids: tuple[int, ...] = legal
        return ids

    def legal_actions(self) -> tuple[Action, ...]:
        """Every distinct legal action, sorted by action id (empty when over)."""
        legal = self._raw[_LEGAL]
        if type(legal) is int:
            m: _Meta = self.setup.meta
            low = m.low_actions
            if low:
                return low[legal & m.chunk_mask] + m.high_actions[legal >> m.width]
        return super().legal_actions()

    # -- plain accessors ----------------------------------------------------

    @property
    def kitty(self) -> tuple[int, ...]:
        """The hidden kitty (and the dealer's discard)."""
        return self._raw[_REST][_R_KITTY]  # type: ignore[no-any-return]

    @property
    def turn_up(self) -> int:
        """The turned-up card (physical id)."""
        return self._raw[_REST][_R_TURN_UP]  # type: ignore[no-any-return]

    @property
    def trump(self) -> int:
        """The trump suit index, or -1."""
        return self._raw[_REST][_R_TRUMP]  # type: ignore[no-any-return]

    @property
    def maker(self) -> int | None:
        """Who made trumps, or None."""
        maker: int = self._raw[_REST][_R_MAKER]
        return None if maker < 0 else maker

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats sitting out (the partner of a lone player or defender)."""
        out: int = self._raw[_REST][_R_OUT]
        return tuple(s for s in range(self.rules.players) if (out >> s) & 1)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of the deal per side (0 until the deal ends)."""
        return self._raw[_REST][_R_POINTS]  # type: ignore[no-any-return]

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where the points came from: the contract, per side."""
        return tuple(ScoreBreakdown(contract=p) for p in self._raw[_REST][_R_POINTS])

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per player."""
        return self._raw[_REST][_R_TAKEN]  # type: ignore[no-any-return]

    # -- legality -----------------------------------------------------------

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        c = self.core
        m = self.setup.meta
        kind, arg = m.meta[action_id]
        stage = c.stage
        rules = self.setup.rules
        if kind == _PLAY:
            if stage is not Phase.TRICKS:
                return RuleCode.WRONG_PHASE, f"no card is played during the {stage.value} phase"
            pid = self._pick(arg, c.hands[c.player])
            if pid < 0:
                return RuleCode.CARD_NOT_HELD, "you do not hold that card"
            why = rules.playoff_policy.refusal(rules.trump_tables[c.trump], c.hands[c.player], c.trick, pid)
            return why or (RuleCode.NOT_AN_ACTION, "not playable")
        if kind in (_ORDER, _ORDER_ALONE):
            if stage is Phase.BID and c.round == 2:
                return RuleCode.WRONG_PHASE, "the turn-up is turned down: name another suit with 'call'"
            if stage is Phase.BID:
                return RuleCode.NOT_AN_ACTION, "going alone is decided after the bid in this variant"
            return RuleCode.WRONG_PHASE, "ordering up is a first-round bid"
        if kind in (_CALL, _CALL_ALONE):
            if stage is Phase.BID and c.round == 1:
                return RuleCode.WRONG_PHASE, "in the first round only the turned suit can be ordered up"
            if stage is Phase.BID and arg == c.candidate:
                return RuleCode.NOT_AN_ACTION, "the turned-down suit may not be named in the second round"
            if stage is Phase.BID:
                return RuleCode.NOT_AN_ACTION, "going alone is decided after the bid in this variant"
            return RuleCode.WRONG_PHASE, "naming a suit is a second-round bid"
        if kind == _PASS:
            if stage is Phase.BID:
                return RuleCode.MUST_BID, "the dealer is stuck: he must name a suit"
            if stage is Phase.DISCARD:
                return RuleCode.MUST_BID, "the dealer must take the turn-up and discard a card"
            return RuleCode.WRONG_PHASE, f"nothing to pass during the {stage.value} phase"
        if kind == _DISCARD:
            if stage is not Phase.DISCARD or c.queue[0][1] != _PICKUP:
                return RuleCode.WRONG_PHASE, "only the dealer discards, after taking the turn-up"
            if (
                arg == rules.deck.face_of[c.turn_up]
                and not part_of(rules, rules.bidding, OrderUp).dealer_may_discard_upcard
            ):
                return RuleCode.CARD_NOT_HELD, "the dealer may not discard the card he just took up"
            return RuleCode.CARD_NOT_HELD, "you do not hold that card"
        if kind == _FARMER_SWAP:
            if stage is not Phase.DISCARD or c.queue[0][1] != _FARMERS_HAND:
                return RuleCode.WRONG_PHASE, "a farmer's hand is exchanged before the bidding"
            return RuleCode.CARD_NOT_HELD, "you do not hold those cards"
        if kind == _TRUMP:
            return RuleCode.WRONG_PHASE, "only the dealer names a suit, when the turn-up is the Benny"
        return RuleCode.WRONG_PHASE, f"no decision to play alone is pending during the {stage.value} phase"

    def _pick(self, face: int, hand: int) -> int:
        copies = hand & self.setup.rules.deck.face_masks[face]
        return (copies & -copies).bit_length() - 1 if copies else -1

    # -- transitions ---------------------------------------------------------

    def apply(self, action: Action | str | int, *, check: bool = True) -> Self:
        """The state after ``action`` (an action, its notation or its id): see `DealState.apply`.

        A card played with ``check=False``, the action taken from `legal_actions`,
        is the hot path of every simulation: it is handled here in one step.
        """
        m: _Meta = self.setup.meta
        action_id = m.play_of.get(id(action))  # a play action object taken from legal_actions()
        if action_id is None:
            if check or type(action) is not int or not 0 <= action < m.plays:
                return DealState.apply(self, action, check=check)
            action_id = action  # a play id, as legal_action_ids() gives them
        elif check:
            return DealState.apply(self, action, check=check)
        # a card played to the trick (ids 0 .. plays-1, id == face)
        c = self._raw
        p = c[_PLAYER]
        held = list(c[_HANDS])
        pid = action_id if m.single else self._pick(action_id, held[p])
        held[p] ^= 1 << pid
        hands = tuple(held)
        trick = c[_TRICK] + (pid,)
        moves = c[_MOVES] + ((p, action_id),)
        new = _new(self.__class__)
        _set_setup(new, self.setup)
        rest = c[_REST]
        if len(trick) < rest[_R_ACTIVE]:
            nxt = rest[_R_SEATS][p]
            follow = rest[_R_FOLLOW]
            if follow is None:  # no tables for this deck: the general way
                return self._state([None, nxt, hands, trick, moves, *rest])
            # the next player's playable cards: those of the led card's effective suit, or any
            h = hands[nxt]
            _set_raw(new, (h & follow[trick[0]] or h, nxt, hands, trick, moves, rest))
            _set_over(new, False)
            return new
        return self._trick_won(new, rest, hands, trick, moves)

    def _apply_id(self, action_id: int) -> Self:
        m: _Meta = self.setup.meta
        if action_id < m.plays:  # a card played: the hot path in apply
            return self.apply(action_id, check=False)
        # a bid, a decision or a discard
        c = self._raw
        kind, arg = m.meta[action_id]
        e = [*c[:_REST], *c[_REST]]
        e[_MOVES] = c[_MOVES] + ((c[_PLAYER], action_id),)
        e[_LEGAL] = None
        stage = e[_STAGE]
        if stage is _BID:
            return self._bid(e, kind, arg)
        if stage is Phase.TRUMP:
            return self._benny_named(e, arg)
        if stage is Phase.ALONE:
            return self._alone(e, kind == _ALONE)
        return self._discard(e, kind, arg)

    def _trick_won(
        self, new: Self, rest: tuple[Any, ...], hands: tuple[int, ...], trick: tuple[int, ...], moves: tuple[Move, ...]
    ) -> Self:
        """The trick is complete: its winner takes it and leads next, or the deal is scored."""
        m: _Meta = self.setup.meta
        leader = rest[_R_LEADER]
        power = rest[_R_POWER]
        if power is not None:  # one copy of each card: the highest power wins
            powers = operator.itemgetter(*trick)(power[trick[0]])  # a trick has two cards or more
            k = powers.index(max(powers))
        else:
            k = self.setup.rules.trump_tables[rest[_R_TRUMP]].winner(trick)
        winner = m.nth_seat[rest[_R_OUT]][leader][k]
        won = list(rest[_R_WON])
        won[winner] |= sum(map(_bit, trick))
        taken_l = list(rest[_R_TAKEN])
        taken_l[winner] += 1
        taken = tuple(taken_l)
        h = hands[winner]
        if h:
            tail = (_TRICKS, winner, tuple(won), taken, trick, leader) + rest[_R_POINTS:]
            if rest[_R_FOLLOW] is None:  # no tables for this deck: the general way
                return self._state([None, winner, hands, (), moves, *tail])
            _set_raw(new, (h, winner, hands, (), moves, tail))
            _set_over(new, False)
            return new
        maker = rest[_R_MAKER]
        scoring = part_of(self.setup.rules, self.setup.rules.scoring, EuchreScoring)
        tricks = taken[maker] + taken[(maker + 2) % len(hands)]
        alone = rest[_R_ALONE] >= 0
        mine, theirs = scoring.points(tricks=tricks, alone=alone, lone_defender=rest[_R_DEFENDER] >= 0)
        points = (mine, theirs) if maker % 2 == 0 else (theirs, mine)
        tail = (_OVER, winner, tuple(won), taken, trick, leader, points) + rest[_R_POINTS + 1 :]
        _set_raw(new, ((), -1, hands, (), moves, tail))
        _set_over(new, True)
        return new

    # The bidding transitions edit a list copy of the stored core (indexed by the
    # _FIELD constants) and build the next state once, in _settle.

    def _benny_named(self, e: list[Any], suit: int) -> Self:
        m: _Meta = self.setup.meta
        dealer = self.setup.dealer
        e[_CANDIDATE] = suit
        if m.benny_makes_dealer:
            return self._made(e, dealer, suit, False, True)
        e[_STAGE] = _BID
        e[_PLAYER] = m.first[dealer]
        return self._settle(e)

    def _bid(self, e: list[Any], kind: int, arg: Any) -> Self:
        m: _Meta = self.setup.meta
        n = len(e[_HANDS])
        dealer = self.setup.dealer
        p = e[_PLAYER]
        if kind == _PASS:
            passes = e[_PASSES] + 1
            if passes < n:
                e[_PASSES] = passes
                e[_PLAYER] = (p + 1) % n
            elif e[_ROUND] == 1:
                e[_ROUND] = 2
                e[_PASSES] = 0
                e[_PLAYER] = m.first[dealer]
            else:  # everybody passed twice: the deal is thrown in
                e[_STAGE] = _OVER
                e[_PLAYER] = -1
                e[_MISDEAL] = True
            return self._settle(e)
        if kind in (_ORDER, _ORDER_ALONE):
            return self._made(e, p, e[_CANDIDATE], kind == _ORDER_ALONE, True)
        return self._made(e, p, arg, kind == _CALL_ALONE, False)

    def _made(self, e: list[Any], maker: int, trump: int, alone: bool, turned_suit: bool) -> Self:
        """Trumps are made: queue what follows (pick-up, going alone, lone defence)."""
        m: _Meta = self.setup.meta
        dealer = self.setup.dealer
        e[_TRUMP] = trump
        e[_MAKER] = maker
        e[_ALONE] = maker if alone else -1
        e[_OUT] = (1 << (maker + 2) % len(e[_HANDS])) if alone else 0
        e[_QUEUE] = m.made_queue[dealer][maker][alone][turned_suit]
        e[_PASSES] = 0
        return self._settle(e)

    def _settle(self, e: list[Any]) -> Self:
        """Move to the next pending decision that applies (or start the bidding, or the
        play), and build the state."""
        m: _Meta = self.setup.meta
        dealer = self.setup.dealer
        queue = e[_QUEUE]
        e[_LEGAL] = None
        while queue:
            seat, kind = queue[0]
            if kind == _FARMERS_HAND:
                if not self._has_farmers_hand(e[_HANDS][seat], m):
                    queue = queue[1:]
                    continue
                stage = Phase.DISCARD
            elif kind == _PICKUP:
                if (e[_OUT] >> seat) & 1:
                    queue = queue[1:]
                    continue
                stage = Phase.DISCARD
                if m.follow is not None:  # one copy of each card: discard id == plays + card id
                    cards, decline = _pickup_choices(
                        part_of(self.setup.rules, self.setup.rules.bidding, OrderUp), e[_HANDS][seat], e[_TURN_UP]
                    )
                    ids = tuple([m.plays + i for i in _play_ids(m, cards)])
                    e[_LEGAL] = ids + (m.pass_id,) if decline else ids
            elif self._not_asked(e, seat, kind):
                queue = queue[1:]
                continue
            else:  # going alone, taking over, defending alone
                stage = Phase.ALONE
                e[_LEGAL] = m.alone_legal
            e[_QUEUE] = queue
            e[_STAGE] = stage
            e[_PLAYER] = seat
            return self._state(e)
        e[_QUEUE] = ()
        stage = e[_STAGE]
        if stage is _OVER:
            e[_LEGAL] = ()
        elif e[_TRUMP] < 0:  # the farmer's-hand decisions are done, or the bidding goes on
            if e[_CANDIDATE] < 0:  # a turned Benny: the dealer names a suit first
                e[_STAGE] = Phase.TRUMP
                e[_PLAYER] = dealer
                e[_LEGAL] = m.trump_legal
            else:
                if stage is not _BID:  # after the farmer's-hand decisions: the dealer's left bids first
                    e[_STAGE] = _BID
                    e[_PLAYER] = m.first[dealer]
                e[_LEGAL] = m.bid_legal[e[_ROUND] == 2][e[_PLAYER] == dealer][e[_CANDIDATE]]
        else:  # the first trick starts
            out = e[_OUT]
            lone = e[_ALONE] if e[_ALONE] >= 0 else e[_DEFENDER]
            start = lone if m.lead_left_of_lone and lone >= 0 else dealer
            leader = m.next_seat[out][start]  # the first seat in play on his left
            e[_STAGE] = _TRICKS
            e[_PLAYER] = e[_LEADER] = leader
            e[_SEATS:] = _play_rows(m, out, e[_TRUMP])
            if e[_FOLLOW] is not None:  # the leader's playable cards: his hand
                e[_LEGAL] = e[_HANDS][leader]
        return self._state(e)

    def _not_asked(self, e: list[Any], seat: int, kind: int) -> bool:
        """Whether a queued take-over or lone-defence question lapses: a take-over when the
        maker is the dealer who took the turned card (seed 004); a lone defence when someone
        already defends alone, the rules allow none now, or his partner is the dealer who
        has exchanged (seed 004)."""
        m: _Meta = self.setup.meta
        dealer = self.setup.dealer
        if kind == _TAKEOVER:
            bidding = part_of(self.setup.rules, self.setup.rules.bidding, OrderUp)
            return bidding.takeover_refused(maker_is_dealer=e[_MAKER] == dealer, dealer_took_turn_up=e[_BURIED] >= 0)
        return kind == _DEFEND and (
            e[_DEFENDER] >= 0
            or not m.defence_allowed[e[_ALONE] >= 0]
            or (m.defence_blocked_by_exchange and (seat + 2) % len(e[_HANDS]) == dealer and e[_BURIED] >= 0)
        )

    def _has_farmers_hand(self, hand: int, m: _Meta) -> bool:
        face_of = self.setup.rules.deck.face_of
        faces = sorted({face_of[pid] for pid in card_ids(hand) if (m.farmer_faces >> face_of[pid]) & 1})
        return any(frozenset(t) in m.farmer_ids for t in itertools.combinations(faces, 3))

    def _alone(self, e: list[Any], yes: bool) -> Self:
        n = len(e[_HANDS])
        queue = e[_QUEUE]
        seat, kind = queue[0]
        e[_QUEUE] = queue[1:]
        if not yes:
            pass
        elif kind == _MAKER_ALONE:
            e[_ALONE] = seat
            e[_OUT] |= 1 << ((seat + 2) % n)
        elif kind == _TAKEOVER:
            e[_ALONE] = seat
            e[_OUT] = 1 << e[_MAKER]
        else:
            e[_DEFENDER] = seat
            e[_OUT] |= 1 << ((seat + 2) % n)
        return self._settle(e)

    def _discard(self, e: list[Any], kind: int, arg: Any) -> Self:
        p = e[_PLAYER]
        queue = e[_QUEUE]
        _seat, qkind = queue[0]
        e[_QUEUE] = queue[1:]
        hands = list(e[_HANDS])
        kitty = e[_KITTY]
        if qkind == _FARMERS_HAND:
            e[_ASKED] += 1
            if kind == _FARMER_SWAP:
                if e[_FARMER] >= 0:  # a second farmer's hand: misdeal
                    e[_STAGE] = _OVER
                    e[_PLAYER] = -1
                    e[_MISDEAL] = True
                    e[_QUEUE] = ()
                    return self._settle(e)
                trio = [self._pick(f, hands[p]) for f in sorted(arg)]
                gone = sum(1 << x for x in trio)
                hands[p] = (hands[p] & ~gone) | sum(1 << x for x in kitty[:3])
                e[_HANDS] = tuple(hands)
                e[_KITTY] = (*trio, *kitty[3:])
                e[_FARMER] = p
            return self._settle(e)
        # the dealer's exchange
        if kind == _PASS:
            return self._settle(e)
        held = hands[p] | (1 << e[_TURN_UP])
        gone = self._pick(arg, held)
        hands[p] = held & ~(1 << gone)
        e[_HANDS] = tuple(hands)
        e[_KITTY] = (*kitty, gone)
        e[_BURIED] = gone
        return self._settle(e)

    # -- knowledge -----------------------------------------------------------

    def _history(self, viewer: int) -> tuple[tuple[int, Action], ...]:
        """The moves as ``viewer`` sees them: the dealer's discard without its card, and no
        other player's farmer's-hand ``pass`` (only a holder is asked, so his declining
        would show what he holds); a farmer's swap is shown."""
        m: _Meta = self.setup.meta
        actions = m.actions.actions
        asked = self.core.asked
        seen = []
        for i, (who, action_id) in enumerate(self.moves):
            if who != viewer:
                kind = m.meta[action_id][0]
                if kind == _DISCARD:
                    seen.append((who, Action(Verb.DISCARD)))
                    continue
                if i < asked and kind == _PASS:
                    continue
            seen.append((who, actions[action_id]))
        return tuple(seen)

    def _blind(self, player: int) -> bool:
        """Whether ``player`` has not looked at his hand yet: the dealer naming a suit for a
        turned Benny does so before looking (seed 004), unless a farmer's-hand decision
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
            known[self.setup.dealer] = c.hands[self.setup.dealer] & (1 << c.turn_up)
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
            trump=None if c.trump < 0 else Suit(c.trump),
            turn_up=cards[c.turn_up],
            stock_size=len(c.kitty),
            scores=c.points,
            melds=(),
            won=tuple(CardSet(deck.cards_of(w)) for w in c.won),
            history=self._history(player),
            maker=self.maker,
            alone=None if c.alone < 0 else c.alone,
            lone_defender=None if c.defender < 0 else c.defender,
            sitting_out=self.sitting_out,
            buried=(cards[c.buried],) if player == self.setup.dealer and c.buried >= 0 else (),
            state=self,
        )

    def _past_hidden_decisions(self, player: int) -> Self:
        """This deal as ``player`` sees it while another player decides on a farmer's hand:
        every pending such decision of another player made as a ``pass`` (which nobody else
        sees). Only a holder is asked, so showing him as the player to act would tell what
        he holds; ``player`` sees the deal as if nobody held one until a swap is shown."""
        state = self
        while (
            state.core.stage is Phase.DISCARD
            and state.core.player != player
            and state.core.queue
            and state.core.queue[0][1] == _FARMERS_HAND
        ):
            state = state._apply_id(self.setup.meta.pass_id)
        return state

    def _turn_up_kept(self) -> bool:
        """Whether everyone knows the dealer holds the turn-up: he took it and could not
        discard it (``dealer_may_discard_upcard=False``, or a pick-up he could decline)."""
        bidding = part_of(self.setup.rules, self.setup.rules.bidding, OrderUp)
        return self.core.buried >= 0 and bidding.taken_turn_up_shown

    def _void_masks(self) -> list[int]:
        """Per player: cards they cannot hold, shown by not following suit."""
        rules = self.setup.rules
        n = rules.players
        c = self.core
        if c.trump < 0:
            return [0] * n
        table = rules.trump_tables[c.trump]
        voids = [0] * n
        # replay the tricks from the moves: plays only
        actions = self.setup.meta.actions.actions
        trick: list[tuple[int, int]] = []
        face_masks = rules.deck.face_masks
        face_index = rules.deck.face_index
        active = n - c.out.bit_count()
        for who, action_id in c.moves:
            a = actions[action_id]
            if a.verb is not Verb.PLAY:
                continue
            face = face_index[a.cards[0]]
            pid = (face_masks[face] & -face_masks[face]).bit_length() - 1
            if trick:
                led_suit = table.suit[trick[0][1]]
                if table.suit[pid] != led_suit:
                    voids[who] |= table.suit_masks[led_suit]
            trick.append((who, pid))
            if len(trick) == active:
                trick = []
        return voids

    def _determinize(self, player: int, rng: random.Random) -> Self:
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
        return self  # every guess failed: vanishingly rare (a holder's chance is 3% a guess or more)

    def _with_hidden_passes(self, player: int) -> Self | None:
        """This deal replayed on its own deck with the moves ``player`` sees, each farmer's-hand
        decision of another player not among them made as a ``pass`` (None: they do not fit)."""
        setup = self.setup
        m: _Meta = setup.meta
        c = self.core
        hidden = [i < c.asked and who != player and m.meta[a][0] == _PASS for i, (who, a) in enumerate(c.moves)]
        seen = [mv for mv, h in zip(c.moves, hidden) if not h]
        state = cast(Self, EuchreEngine.new_deal(setup.rules, setup.deck_order, setup.seed, setup.dealer))
        k = 0
        while True:
            now = state.core
            seat = now.player
            if now.stage is Phase.DISCARD and now.queue[0][1] == _FARMERS_HAND and seat != player:
                if k < len(seen) and seen[k][0] == seat:
                    pass  # his swap, as everybody saw it
                else:
                    state = state._apply_id(m.pass_id)
                    continue
            if k == len(seen):
                return state
            who, action_id = seen[k]
            if who != seat or action_id not in state.legal_action_ids():
                return None
            state = state._apply_id(action_id)
            k += 1

    def _exchange_guess(self, player: int, dealer_void: int, rng: random.Random) -> EuchreCore:
        """This deal's core, or one just as consistent with what ``player`` sees in which the
        dealer kept or discarded the turn-up he took: when ``player`` cannot tell (the dealer
        may discard it and his discard is hidden) and the turn-up is not played, it is his
        discard with a chance of one in his hand size plus one (as likely as each of his
        cards), or never when he has shown he holds no card of its suit (``dealer_void``)."""
        c = self.core
        dealer = self.setup.dealer
        up = 1 << c.turn_up
        hand = c.hands[dealer]
        in_hand = bool(hand & up)
        if player == dealer or c.buried < 0 or self._turn_up_kept() or not (in_hand or c.buried == c.turn_up):
            return c
        k = hand.bit_count()
        keep = not dealer_void & up and rng.randrange(k + 1) < k
        if keep == in_hand:
            return c
        if in_hand:  # he discarded the turn-up instead of the card he did discard
            buried = c.turn_up
            hand = hand & ~up | 1 << c.buried
        else:  # he kept the turn-up and discarded one of the cards he holds
            buried = rng.choice(card_ids(hand))
            hand = hand & ~(1 << buried) | up
        hands = list(c.hands)
        hands[dealer] = hand
        kitty = tuple(buried if x == c.buried else x for x in c.kitty)
        return c._replace(hands=tuple(hands), kitty=kitty, buried=buried)

    def _guess(self, player: int, rng: random.Random) -> Self:
        """A deal consistent with what ``player`` sees (but for who held a farmer's hand)."""
        rules = self.setup.rules
        n = rules.players
        voids = self._void_masks()
        c = self._exchange_guess(player, voids[self.setup.dealer], rng)
        dealer = self.setup.dealer
        fixed = [0] * n
        kitty_fixed = 0
        if c.buried >= 0:
            # the dealer took the turn-up: it stays where the guessed exchange put it, in his hand
            # or as his discard (so that every guess replays)
            fixed[dealer] = c.hands[dealer] & (1 << c.turn_up)
            if c.buried == c.turn_up:
                kitty_fixed |= 1 << c.turn_up
        if player == dealer and c.buried >= 0:
            kitty_fixed |= 1 << c.buried
        if c.farmer >= 0:  # the swapped nines and tens were shown
            kitty_fixed |= sum(1 << x for x in c.kitty[:3])
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
        kitty_free = [x for x in c.kitty if not (kitty_fixed >> x) & 1]
        slots.append((len(kitty_free), 0))
        hidden.extend(kitty_free)
        dealt = deal_hidden(hidden, slots, rng)
        if dealt is None:  # cannot happen for a consistent state; keep the state itself
            return self
        hands = list(c.hands)
        perm: dict[int, int] = {}
        for q, cards_q in zip(owners, dealt[:-1]):
            old = card_ids(c.hands[q] & ~fixed[q])
            hands[q] = (c.hands[q] & fixed[q]) | sum(1 << x for x in cards_q)
            perm.update(zip(old, sorted(cards_q)))
        kitty_new = list(dealt[-1])
        rng.shuffle(kitty_new)
        perm.update(zip(kitty_free, kitty_new))
        kitty = tuple(perm.get(x, x) for x in c.kitty)
        # the identity of hidden cards in the record: relabel the deck order and hidden moves
        order = relabel_seq(self.setup.deck_order, _as_permutation(perm))
        moves = c.moves
        buried = c.buried
        if buried >= 0 and player != dealer:
            buried = perm.get(buried, buried)
            m = self.setup.meta
            hidden_discard = m.discard_ids[rules.deck.face_of[buried]]
            moves = tuple(
                (who, hidden_discard) if m.meta[action_id][0] == _DISCARD else (who, action_id)
                for who, action_id in moves
            )
        core = c._replace(hands=tuple(hands), kitty=kitty, buried=buried, moves=moves)
        return type(self).of(DealSetup(rules, order, None, dealer, self.setup.meta), core)


def _legal_of(setup: DealSetup[_Meta], c: EuchreCore) -> tuple[int, ...]:
    """The legal action ids of a deal with this setup and core, sorted."""
    stage = c.stage
    if stage is _TRICKS:
        m: _Meta = setup.meta
        follow = m.follow
        if follow is not None:
            hand = c.hands[c.player]
            trick = c.trick
            if trick:
                hand = hand & follow[c.trump][trick[0]] or hand
            return _play_ids(m, hand)
    elif stage is _BID:
        m = setup.meta
        return m.bid_legal[c.round == 2][c.player == setup.dealer][c.candidate]
    elif stage is _OVER:
        return ()
    elif stage is Phase.ALONE:
        alone_legal: tuple[int, ...] = setup.meta.alone_legal
        return alone_legal
    elif stage is Phase.TRUMP:
        trump_legal: tuple[int, ...] = setup.meta.trump_legal
        return trump_legal
    return tuple(sorted(set(_legal_list(setup, c))))


def _legal_list(setup: DealSetup[_Meta], c: EuchreCore) -> list[int]:
    """The legal action ids (unsorted, maybe repeated) the general way: from the rule set's parts."""
    m = setup.meta
    stage = c.stage
    p = c.player
    if stage is Phase.OVER:
        return []
    rules = setup.rules
    bidding = part_of(rules, rules.bidding, OrderUp)
    if stage is Phase.TRICKS:
        table = rules.trump_tables[c.trump]
        playable = rules.playoff_policy.legal(table, c.hands[p], c.trick)
        face_of = rules.deck.face_of
        return [m.play_ids[face_of[pid]] for pid in card_ids(playable)]
    if stage is Phase.TRUMP:
        return list(m.trump_ids)
    if stage is Phase.BID:
        return _bid_ids(
            bidding, m.pass_id, m.order_id, m.order_alone_id, m.call_ids, m.call_alone_ids,
            c.round == 2, p == setup.dealer, c.candidate,
        )  # fmt: skip
    kind = c.queue[0][1]
    if stage is Phase.ALONE:
        return [m.alone_id, m.pass_id]
    face_of = rules.deck.face_of
    if kind == _FARMERS_HAND:
        hand_faces = [face_of[pid] for pid in card_ids(c.hands[p]) if (m.farmer_faces >> face_of[pid]) & 1]
        ids = [m.pass_id]
        for trio in itertools.combinations(sorted(set(hand_faces)), 3):
            i = m.farmer_ids.get(frozenset(trio))
            if i is not None:
                ids.append(i)
        return ids
    # the dealer's pick-up and discard
    cards, decline = _pickup_choices(bidding, c.hands[p], c.turn_up)
    ids = [m.discard_ids[face_of[pid]] for pid in card_ids(cards)]
    if decline:
        ids.append(m.pass_id)
    return ids


def _pickup_choices(bidding: OrderUp, hand: int, turn_up: int) -> tuple[int, bool]:
    """The dealer's pick-up: the cards he may discard (a mask) and whether he may decline
    the turn-up with ``pass`` (then he keeps his hand: the turn-up is not among them)."""
    if bidding.dealer_pickup == "may":
        return hand, True
    if bidding.dealer_may_discard_upcard:
        return hand | 1 << turn_up, False
    return hand, False


_new = object.__new__
_set_setup = EuchreDeal.__dict__["setup"].__set__
_set_raw = EuchreDeal.__dict__["_raw"].__set__
_set_rules = DealSetup.__dict__["rules"].__set__
_set_order = DealSetup.__dict__["deck_order"].__set__
_set_seed = DealSetup.__dict__["seed"].__set__
_set_dealer = DealSetup.__dict__["dealer"].__set__
_set_meta = DealSetup.__dict__["meta"].__set__
_set_packet = DealSetup.__dict__["packet"].__set__
_set_over = EuchreDeal.__dict__["is_over"].__set__


def _as_permutation(perm: dict[int, int]) -> dict[int, int]:
    """Complete a partial map of hidden cards into a permutation of them."""
    sources = set(perm)
    targets = set(perm.values())
    free_targets = sorted(sources - targets)
    free_sources = sorted(targets - sources)
    full = dict(perm)
    full.update(zip(free_sources, free_targets))
    return full


def _play_ids(m: _Meta, mask: int) -> tuple[int, ...]:
    """The play ids of the cards of ``mask``, sorted (a deck with one copy of each card)."""
    w = m.width
    cm = m.chunk_mask
    out: tuple[int, ...] = ()
    for k, table in enumerate(m.chunks):
        out += table[mask >> k * w & cm]
    return out


ENGINE = EuchreEngine()
"""The Euchre engine, as the registry finds it."""
