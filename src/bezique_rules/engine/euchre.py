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
from typing import Any, NamedTuple

import attrs
from typing_extensions import Self

from ..actions import Action, ActionSpace, Verb
from ..bidding import OrderUp
from ..cards import CardSet, Rank, Suit
from ..deck import WIDOW, card_ids
from ..errors import DealError, RuleCode
from ..knowledge import deal_hidden
from ..rules.ruleset import RuleSet
from ..scoring import EuchreScoring, ScoreBreakdown
from ..state import DealSetup, DealState, Phase, PlayerView, relabel_seq
from ..tricks import PlayDuty

__all__ = ["EuchreCore", "EuchreDeal", "EuchreEngine"]

# decisions queued after trumps are made
_MAKER_ALONE, _TAKEOVER, _DEFEND, _PICKUP, _FARMER = range(5)

_PLAY, _DISCARD, _PASS, _ORDER, _ORDER_ALONE, _CALL, _CALL_ALONE, _TRUMP, _ALONE, _FARMER_SWAP = range(10)

_TRICKS = Phase.TRICKS
_BID = Phase.BID
_OVER = Phase.OVER
_tuple_new = tuple.__new__  # EuchreCore from a full tuple, without the NamedTuple's Python-level __new__
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


class EuchreEngine:
    """Builds Euchre deals and their action space."""

    @staticmethod
    def tables(rules: RuleSet) -> tuple[ActionSpace, Any]:
        """The numbered actions: plays and discards by face, the bids, ``trump``, ``alone``,
        farmer's swaps; and the engine's lookup tables."""
        m = _build(rules)
        return m.actions, m

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> EuchreDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        n = rules.players
        m: _Meta = rules.engine_data[1]
        dealing = m.dealing
        if dealing is None:
            hands, _widow, turn_up, kitty = rules.deal.deal(order, n, dealer)
        else:  # the same deal as the pattern's, from precomputed positions
            hands = tuple([sum(map(_bit, get(order))) for get in dealing[dealer]])
            turn_up = order[m.turn_pos]
            kitty = tuple(order[m.turn_pos + 1 :])
        setup = DealSetup(rules, order, seed, dealer, m)
        first = (dealer + 1) % n
        queue: tuple[tuple[int, int], ...] = ()
        if rules.bidding.farmers_hand != "off":
            queue = tuple(((dealer + 1 + i) % n, _FARMER) for i in range(n))
        candidate = m.candidate_of[turn_up]
        if candidate < 0:  # a turned Benny (or suitless card): the dealer names a suit
            stage, player = Phase.TRUMP, dealer
        else:
            stage, player = _BID, first
        core = EuchreCore(
            stage, player, hands, kitty, turn_up, 1, candidate, 0, -1, -1, -1, -1, 0, queue, -1, -1, first, (), (),
            -1, (0,) * n, (0,) * n, (0, 0), False, (),
        )  # fmt: skip
        deal = EuchreDeal(setup, core)
        return deal._next_queued(core) if queue else deal


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
    bidding: OrderUp = rules.bidding
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
    single = deck.packs == 1 and play_ids == tuple(range(len(faces)))
    follow = None
    chunks: tuple[tuple[tuple[int, ...], ...], ...] = ()
    width = max(1, -(-size // 3))
    if single and size <= 36 and rules.playoff_policy.duty in (PlayDuty.FOLLOW_EFFECTIVE_SUIT, PlayDuty.FOLLOW_ONLY):
        # the same duty as TrickPolicy.legal: follow the led card's effective suit when able
        follow = tuple(
            tuple(t.suit_masks[t.suit[x]] if t.suit[x] < 4 else 0 for x in range(size)) for t in rules.trump_tables[:4]
        )
        # a mask's play ids, sorted, from three table look-ups of ``width`` bits each
        chunks = tuple(
            tuple(tuple(k * width + i for i in range(width) if (b >> i) & 1) for b in range(1 << width))
            for k in range(3)
        )
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
    return _Meta(
        ActionSpace.of(actions), tuple(meta), play_ids, discard_ids, farmer_ids, pass_id, order_id, order_alone_id,
        call_ids, call_alone_ids, trump_ids, alone_id, farmer_faces,
        len(faces), single, width, chunks, follow, tuple(next_seat),
        tuple((n - out.bit_count()) for out in range(1 << n)), tuple(nth_seat), bid_legal,
        tuple(sorted({alone_id, pass_id})), tuple(sorted(set(trump_ids))), candidate_of, dealing, pos,
    )  # fmt: skip


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
    """The changing part of a Euchre deal."""

    stage: Phase
    """The phase."""
    player: int
    """Who is to act (-1 when over)."""
    hands: tuple[int, ...]
    """Per player: the mask of held cards."""
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
    trump: int
    """The trump suit index, or -1."""
    maker: int
    """The player who made trumps, or -1."""
    alone: int
    """The player playing alone, or -1."""
    defender: int
    """The player defending alone, or -1."""
    out: int
    """Bit per seat: sitting out this deal."""
    queue: tuple[tuple[int, int], ...]
    """Pending decisions: (seat, kind)."""
    buried: int
    """The dealer's discard (physical id), or -1."""
    farmer: int
    """The player who swapped a farmer's hand, or -1."""
    leader: int
    """Who led (or will lead) the current trick."""
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
    points: tuple[int, int]
    """Per side: points of the deal (set when it ends)."""
    misdeal: bool
    """The deal ended without play (everybody passed, or a misdeal)."""
    moves: tuple[int, ...]
    """Every action so far, encoded ``action_id << 3 | player``."""


@attrs.frozen
class EuchreDeal(DealState):
    """A Euchre deal: immutable. Read it through the properties and `view`."""

    setup: DealSetup
    """The rules, deck order, seed and dealer."""
    core: EuchreCore
    """Everything that changes during the deal."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")

    # -- plain accessors ----------------------------------------------------

    @property
    def kitty(self) -> tuple[int, ...]:
        """The hidden kitty (and the dealer's discard)."""
        return self.core.kitty

    @property
    def turn_up(self) -> int:
        """The turned-up card (physical id)."""
        return self.core.turn_up

    @property
    def trump(self) -> int:
        """The trump suit index, or -1."""
        return self.core.trump

    @property
    def maker(self) -> int | None:
        """Who made trumps, or None."""
        return None if self.core.maker < 0 else self.core.maker

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats sitting out (the partner of a lone player or defender)."""
        return tuple(s for s in range(self.rules.players) if (self.core.out >> s) & 1)

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
        return self.core.taken

    # -- legality -----------------------------------------------------------

    def _compute_legal(self) -> tuple[int, ...]:
        c = self.core
        stage = c.stage
        if stage is _TRICKS:
            m: _Meta = self.setup.meta
            follow = m.follow
            if follow is not None:
                hand = c.hands[c.player]
                trick = c.trick
                if trick:
                    hand = hand & follow[c.trump][trick[0]] or hand
                return _play_ids(m, hand)
        elif stage is _BID:
            m = self.setup.meta
            return m.bid_legal[c.round == 2][c.player == self.setup.dealer][c.candidate]
        elif stage is _OVER:
            return ()
        elif stage is Phase.ALONE:
            alone_legal: tuple[int, ...] = self.setup.meta.alone_legal
            return alone_legal
        elif stage is Phase.TRUMP:
            trump_legal: tuple[int, ...] = self.setup.meta.trump_legal
            return trump_legal
        return tuple(sorted(set(self._legal_list())))

    def _legal_list(self) -> list[int]:
        c = self.core
        m = self.setup.meta
        stage = c.stage
        p = c.player
        if stage is Phase.OVER:
            return []
        rules = self.setup.rules
        bidding: OrderUp = rules.bidding
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
                c.round == 2, p == self.setup.dealer, c.candidate,
            )  # fmt: skip
        kind = c.queue[0][1]
        if stage is Phase.ALONE:
            return [m.alone_id, m.pass_id]
        face_of = rules.deck.face_of
        if kind == _FARMER:
            hand_faces = [face_of[pid] for pid in card_ids(c.hands[p]) if (m.farmer_faces >> face_of[pid]) & 1]
            ids = [m.pass_id]
            for trio in itertools.combinations(sorted(set(hand_faces)), 3):
                i = m.farmer_ids.get(frozenset(trio))
                if i is not None:
                    ids.append(i)
            return ids
        # the dealer's pick-up and discard
        hand = c.hands[p]
        ids = [m.discard_ids[face_of[pid]] for pid in card_ids(hand)]
        if bidding.dealer_pickup == "may":
            ids.append(m.pass_id)
        elif bidding.dealer_may_discard_upcard:
            ids.append(m.discard_ids[face_of[c.turn_up]])
        return ids

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
            if arg == rules.deck.face_of[c.turn_up] and not rules.bidding.dealer_may_discard_upcard:
                return RuleCode.CARD_NOT_HELD, "the dealer may not discard the card he just took up"
            return RuleCode.CARD_NOT_HELD, "you do not hold that card"
        if kind == _FARMER_SWAP:
            if stage is not Phase.DISCARD or c.queue[0][1] != _FARMER:
                return RuleCode.WRONG_PHASE, "a farmer's hand is exchanged before the bidding"
            return RuleCode.CARD_NOT_HELD, "you do not hold those cards"
        if kind == _TRUMP:
            return RuleCode.WRONG_PHASE, "only the dealer names a suit, when the turn-up is the Benny"
        return RuleCode.WRONG_PHASE, f"no decision to play alone is pending during the {stage.value} phase"

    def _pick(self, face: int, hand: int) -> int:
        copies = hand & self.setup.rules.deck.face_masks[face]
        return (copies & -copies).bit_length() - 1 if copies else -1

    # -- transitions ---------------------------------------------------------

    def _apply_id(self, action_id: int) -> Self:
        c = self.core
        m: _Meta = self.setup.meta
        if action_id < m.plays:  # a card played to the trick (ids 0 .. plays-1, id == face)
            (
                stage, p, hands, kitty, turn_up, rnd, candidate, passes, trump, maker, alone, defender, out, queue,
                buried, farmer, leader, trick, last_trick, last_leader, won, taken, points, misdeal, moves,
            ) = c  # fmt: skip
            moves = moves + (action_id << 3 | p,)
            pid = action_id if m.single else self._pick(action_id, hands[p])
            held = list(hands)
            held[p] ^= 1 << pid
            hands = tuple(held)
            trick = (*trick, pid)
            if len(trick) < m.active[out]:
                nxt = m.next_seat[out][p]
                legal = None
                follow = m.follow
                if follow is not None:  # the next player's legal plays, as _compute_legal finds them
                    h = hands[nxt]
                    h = h & follow[trump][trick[0]] or h
                    w = m.width
                    low, mid, high = m.chunks
                    legal = low[h & ((1 << w) - 1)] + mid[h >> w & ((1 << w) - 1)] + high[h >> 2 * w]
                return type(self)(
                    self.setup,
                    _tuple_new(EuchreCore, (
                        stage, nxt, hands, kitty, turn_up, rnd, candidate, passes, trump, maker,
                        alone, defender, out, queue, buried, farmer, leader, trick, last_trick, last_leader, won,
                        taken, points, misdeal, moves,
                    )),
                    legal,
                )  # fmt: skip
            return self._trick_done(c, hands, trick, moves)
        kind, arg = m.meta[action_id]
        moves = (*c.moves, action_id << 3 | c.player)
        stage = c.stage
        if stage is Phase.TRUMP:
            return self._benny_named(c, arg, moves)
        if stage is _BID:
            return self._bid(c, kind, arg, moves)
        if stage is Phase.ALONE:
            return self._alone(c, kind == _ALONE, moves)
        return self._discard(c, kind, arg, moves)

    def _trick_done(
        self, c: EuchreCore, hands: tuple[int, ...], trick: tuple[int, ...], moves: tuple[int, ...]
    ) -> Self:
        """The trick is complete: its winner takes it and leads next, or the deal is scored."""
        rules = self.setup.rules
        m: _Meta = self.setup.meta
        (
            _stage, _p, _hands, kitty, turn_up, rnd, candidate, passes, trump, maker, alone, defender, out, queue,
            buried, farmer, leader, _trick, _last_trick, _last_leader, won, taken, points, misdeal, _moves,
        ) = c  # fmt: skip
        winner = m.nth_seat[out][leader][rules.trump_tables[trump].winner(trick)]
        won_mask = 0
        for x in trick:
            won_mask |= 1 << x
        won_l = list(won)
        won_l[winner] |= won_mask
        taken_l = list(taken)
        taken_l[winner] += 1
        taken = tuple(taken_l)
        legal: tuple[int, ...] | None = ()
        if hands[winner]:
            stage, player = _TRICKS, winner
            legal = None if m.follow is None else _play_ids(m, hands[winner])
        else:
            n = rules.players
            scoring: EuchreScoring = rules.scoring
            tricks = taken[maker] + taken[(maker + 2) % n]
            mine, theirs = scoring.points(tricks=tricks, alone=alone >= 0, lone_defender=defender >= 0)
            points = (mine, theirs) if maker % 2 == 0 else (theirs, mine)
            stage, player = _OVER, -1
        return type(self)(
            self.setup,
            _tuple_new(EuchreCore, (
                stage, player, hands, kitty, turn_up, rnd, candidate, passes, trump, maker, alone, defender, out,
                queue, buried, farmer, winner, (), trick, leader, tuple(won_l), taken, points, misdeal, moves,
            )),
            legal,
        )  # fmt: skip

    def _benny_named(self, c: EuchreCore, suit: int, moves: tuple[int, ...]) -> Self:
        bidding: OrderUp = self.setup.rules.bidding
        dealer = self.setup.dealer
        first = (dealer + 1) % self.setup.rules.players
        if bidding.benny_turned == "dealer_forced_maker":
            return self._made(c._replace(candidate=suit), dealer, suit, False, True, moves)
        return type(self)(self.setup, c._replace(stage=_BID, player=first, candidate=suit, moves=moves))

    def _bid(self, c: EuchreCore, kind: int, arg: Any, moves: tuple[int, ...]) -> Self:
        n = self.setup.rules.players
        dealer = self.setup.dealer
        p = c.player
        if kind == _PASS:
            passes = c.passes + 1
            if passes < n:
                return type(self)(self.setup, c._replace(passes=passes, player=(p + 1) % n, moves=moves))
            if c.round == 1:
                return type(self)(self.setup, c._replace(round=2, passes=0, player=(dealer + 1) % n, moves=moves))
            return type(self)(self.setup, c._replace(stage=_OVER, player=-1, misdeal=True, moves=moves))
        if kind in (_ORDER, _ORDER_ALONE):
            return self._made(c, p, c.candidate, kind == _ORDER_ALONE, True, moves)
        return self._made(c, p, arg, kind == _CALL_ALONE, False, moves)

    def _made(
        self, c: EuchreCore, maker: int, trump: int, alone: bool, turned_suit: bool, moves: tuple[int, ...]
    ) -> Self:
        """Trumps are made: queue what follows (pick-up, going alone, lone defence)."""
        rules = self.setup.rules
        bidding: OrderUp = rules.bidding
        n = rules.players
        dealer = self.setup.dealer
        partner = (maker + 2) % n
        out = (1 << partner) if alone else 0
        queue: list[tuple[int, int]] = []
        if bidding.alone_with_bid:
            if alone and bidding.takeover_allowed(maker_is_dealer=maker == dealer, round_one=turned_suit):
                queue.append((partner, _TAKEOVER))
            if turned_suit:
                queue.append((dealer, _PICKUP))
        else:
            if turned_suit:
                queue.append((dealer, _PICKUP))
            queue.append((maker, _MAKER_ALONE))
        if bidding.lone_defender != "never":
            for i in range(1, n + 1):
                seat = (dealer + i) % n
                if seat % 2 != maker % 2:
                    queue.append((seat, _DEFEND))
        c = c._replace(
            trump=trump, maker=maker, alone=maker if alone else -1, out=out, queue=tuple(queue), passes=0,
            moves=moves,
        )  # fmt: skip
        return self._next_queued(c)

    def _next_queued(self, c: EuchreCore) -> Self:
        """Move to the next pending decision that applies, or start the play."""
        rules = self.setup.rules
        bidding: OrderUp = rules.bidding
        m = self.setup.meta
        dealer = self.setup.dealer
        queue = c.queue
        while queue:
            seat, kind = queue[0]
            if kind == _FARMER:
                if not self._has_farmers_hand(c.hands[seat], m):
                    queue = queue[1:]
                    continue
                return type(self)(self.setup, c._replace(queue=queue, stage=Phase.DISCARD, player=seat))
            if kind == _PICKUP:
                if (c.out >> seat) & 1:
                    queue = queue[1:]
                    continue
                return type(self)(self.setup, c._replace(queue=queue, stage=Phase.DISCARD, player=seat))
            if kind in (_MAKER_ALONE, _TAKEOVER):
                return type(self)(self.setup, c._replace(queue=queue, stage=Phase.ALONE, player=seat))
            # a defender may defend alone
            partner = (seat + 2) % rules.players
            if (
                c.defender >= 0
                or not bidding.defence_allowed(maker_alone=c.alone >= 0)
                or (bidding.defence_blocked_by_exchange and partner == dealer and c.buried >= 0)
            ):
                queue = queue[1:]
                continue
            return type(self)(self.setup, c._replace(queue=queue, stage=Phase.ALONE, player=seat))
        if c.trump < 0:  # the farmer's-hand decisions are done: the bidding starts
            if c.candidate < 0:  # a turned Benny: the dealer names a suit first
                return type(self)(self.setup, c._replace(queue=(), stage=Phase.TRUMP, player=dealer))
            first = (dealer + 1) % rules.players
            return type(self)(self.setup, c._replace(queue=(), stage=Phase.BID, player=first))
        return self._start_play(c)

    def _has_farmers_hand(self, hand: int, m: _Meta) -> bool:
        face_of = self.setup.rules.deck.face_of
        faces = sorted({face_of[pid] for pid in card_ids(hand) if (m.farmer_faces >> face_of[pid]) & 1})
        return any(frozenset(t) in m.farmer_ids for t in itertools.combinations(faces, 3))

    def _start_play(self, c: EuchreCore) -> Self:
        """The pending decisions are done: the first trick starts."""
        rules = self.setup.rules
        bidding: OrderUp = rules.bidding
        n = rules.players
        start = self.setup.dealer
        lone = c.alone if c.alone >= 0 else c.defender
        if bidding.lone_lead == "left_of_lone_player" and lone >= 0:
            start = lone
        leader = (start + 1) % n
        while (c.out >> leader) & 1:
            leader = (leader + 1) % n
        return type(self)(self.setup, c._replace(stage=_TRICKS, player=leader, leader=leader, queue=()))

    def _alone(self, c: EuchreCore, yes: bool, moves: tuple[int, ...]) -> Self:
        n = self.setup.rules.players
        seat, kind = c.queue[0]
        queue = c.queue[1:]
        if not yes:
            c = c._replace(queue=queue, moves=moves)
        elif kind == _MAKER_ALONE:
            c = c._replace(alone=seat, out=c.out | (1 << ((seat + 2) % n)), queue=queue, moves=moves)
        elif kind == _TAKEOVER:
            c = c._replace(alone=seat, out=(1 << c.maker), queue=queue, moves=moves)
        else:
            c = c._replace(defender=seat, out=c.out | (1 << ((seat + 2) % n)), queue=queue, moves=moves)
        return self._next_queued(c)

    def _discard(self, c: EuchreCore, kind: int, arg: Any, moves: tuple[int, ...]) -> Self:
        p = c.player
        _seat, qkind = c.queue[0]
        queue = c.queue[1:]
        hands = list(c.hands)
        if qkind == _FARMER:
            if kind == _FARMER_SWAP:
                if c.farmer >= 0:  # a second farmer's hand: misdeal
                    return type(self)(
                        self.setup, c._replace(stage=_OVER, player=-1, misdeal=True, queue=(), moves=moves)
                    )
                trio = [self._pick(f, hands[p]) for f in sorted(arg)]
                gone = sum(1 << x for x in trio)
                hands[p] = (hands[p] & ~gone) | sum(1 << x for x in c.kitty[:3])
                kitty = (*trio, *c.kitty[3:])
                return self._next_queued(
                    c._replace(hands=tuple(hands), kitty=kitty, farmer=p, queue=queue, moves=moves)
                )
            return self._next_queued(c._replace(queue=queue, moves=moves))
        # the dealer's exchange
        if kind == _PASS:
            return self._next_queued(c._replace(queue=queue, moves=moves))
        held = hands[p] | (1 << c.turn_up)
        gone = self._pick(arg, held)
        hands[p] = held & ~(1 << gone)
        kitty = (*c.kitty, gone)
        return self._next_queued(c._replace(hands=tuple(hands), kitty=kitty, buried=gone, queue=queue, moves=moves))

    # -- knowledge -----------------------------------------------------------

    def _public_move(self, move: int, viewer: int) -> tuple[int, Action]:
        actions = self.setup.meta.actions.actions
        who = move & 7
        action = actions[move >> 3]
        if who != viewer and self.setup.meta.meta[move >> 3][0] == _DISCARD:  # the dealer's discard is hidden
            return who, Action(Verb.DISCARD)
        return who, action  # a farmer's swap is shown

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: own hand, the turn-up, every played card; never the
        other hands, the kitty or the dealer's discard."""
        rules = self.setup.rules
        n = rules.players
        if not isinstance(player, int) or not 0 <= player < n:
            raise DealError(f"player must be a seat from 0 to {n - 1}: {player!r}")
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
            hand=CardSet(deck.cards_of(c.hands[player])),
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
            history=tuple(self._public_move(mv, player) for mv in c.moves),
            maker=self.maker,
            alone=None if c.alone < 0 else c.alone,
            lone_defender=None if c.defender < 0 else c.defender,
            sitting_out=self.sitting_out,
            buried=(cards[c.buried],) if player == self.setup.dealer and c.buried >= 0 else (),
            state=self,
        )

    def _turn_up_kept(self) -> bool:
        """Whether everyone knows the dealer holds the turn-up: he took it and could not
        discard it (``dealer_may_discard_upcard=False``, or a pick-up he could decline)."""
        bidding: OrderUp = self.setup.rules.bidding
        return self.core.buried >= 0 and (not bidding.dealer_may_discard_upcard or bidding.dealer_pickup == "may")

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
        for mv in c.moves:
            a = actions[mv >> 3]
            if a.verb is not Verb.PLAY:
                continue
            who = mv & 7
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
        rules = self.setup.rules
        n = rules.players
        c = self.core
        dealer = self.setup.dealer
        fixed = [0] * n
        kitty_fixed = 0
        if c.buried >= 0:
            # the dealer took the turn-up: it stays where it is, in his hand or as his discard
            # (this keeps every guess replayable; it tells a search whether he discarded it)
            fixed[dealer] = c.hands[dealer] & (1 << c.turn_up)
            if c.buried == c.turn_up:
                kitty_fixed |= 1 << c.turn_up
        if player == dealer and c.buried >= 0:
            kitty_fixed |= 1 << c.buried
        if c.farmer >= 0:  # the swapped nines and tens were shown
            kitty_fixed |= sum(1 << x for x in c.kitty[:3])
        voids = self._void_masks()
        slots: list[tuple[int, int]] = []
        hidden: list[int] = []
        owners: list[int] = []
        for q in range(n):
            if q == player:
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
            moves = tuple(
                (m.discard_ids[rules.deck.face_of[buried]] << 3 | (mv & 7)) if m.meta[mv >> 3][0] == _DISCARD else mv
                for mv in moves
            )
        core = c._replace(hands=tuple(hands), kitty=kitty, buried=buried, moves=moves)
        return type(self)(DealSetup(rules, order, None, dealer, self.setup.meta), core)


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
    low, mid, high = m.chunks
    return low[mask & ((1 << w) - 1)] + mid[mask >> w & ((1 << w) - 1)] + high[mask >> 2 * w]
