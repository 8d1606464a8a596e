"""Batched Euchre: the presets ``euchre``, ``british-euchre`` and ``euchre-openspiel``.

The tables are read from the rule set's parts: the deck and its deal pattern, the
trump tables (effective suits, trick powers per led card), the play duty
(`TrickPolicy.legal`), the `OrderUp` bidding part (who may pass, going alone,
pick-up, taking over, lone defence, who leads), the `EuchreScoring` points and the
action space. The phase sequencing restates the scalar Euchre engine's in array form;
the differential test (``tests/test_batch.py``) keeps the two equal.
"""

from __future__ import annotations

from typing import cast

import attrs
import numpy as np
import numpy.typing as npt

from ..actions import ActionKind
from ..deck import WIDOW
from ..engine.euchre import BiddingTables, EuchreTables
from ..errors import OptionError
from ..lazy import built_once_per_key
from ..parts.euchre import Decision, EuchreScoring, OrderUp
from ..parts.tricks import PlayDuty
from ..rules.ruleset import RuleSet, part_of
from .core import BatchState, BoolArray, DeckTables, IntArray, deck_tables, duty_tiers, kind_codes
from .core import Fields as _Fields
from .core import unpack_cards as _cards
from .shuffle import seeded_orders

__all__ = ["EuchreBatch", "new_euchre"]

# stages
TRUMP, BID, DISCARD, ALONE, TRICKS, OVER = range(6)
# queued decisions (`Decision`, the same codes as the scalar engine), and the padding
_MAKER_ALONE, _TAKEOVER, _DEFEND, _PICKUP, _FARMER = (
    Decision.MAKER_ALONE,
    Decision.TAKEOVER,
    Decision.DEFEND,
    Decision.PICKUP,
    Decision.FARMER,
)
# the action kinds the step code reads (as plain ints, `kind_codes`)
_PASS, _ALONE, _DISCARD, _FARMER_SWAP, _ORDER_UP, _ORDER_UP_ALONE = kind_codes(
    ActionKind.PASS,
    ActionKind.ALONE,
    ActionKind.DISCARD,
    ActionKind.FARMER_SWAP,
    ActionKind.ORDER_UP,
    ActionKind.ORDER_UP_ALONE,
)
_NONE = -1
_QUEUE = 5  # the longest queue (4) and one empty slot
_PLAYERS = 4

Int8 = npt.NDArray[np.int8]


@attrs.frozen(eq=False)
class EuchreBatchTables(DeckTables):
    """Lookup tables of one Euchre rule set (C cards, A actions), built once per rule set: the
    columns of the Euchre engine's compiled tables (`EuchreTables`) as arrays, by keyword."""

    kind: Int8
    """int8[A]: what each action id does (an `ActionKind`: `EuchreTables.action_table.kind`)."""
    arg: Int8
    """int8[A]: its card (plays, discards) or suit (call, trump), else -1."""
    alone_bid: npt.NDArray[np.bool_]
    """bool[A]: ``order-up alone`` and ``call S alone``."""
    play_ids: npt.NDArray[np.int64]
    """int64[C]: card -> its ``play`` id."""
    discard_ids: npt.NDArray[np.int64]
    """int64[C]: card -> its ``discard`` id."""
    plays_from: int
    """The first play id when card ``x`` is played by id ``plays_from + x``, else -1."""
    bid_rows: BoolArray
    """bool[2, 2, 4, A]: round two? -> bidder is the dealer? -> offered suit -> legal bids."""
    trump_row: BoolArray
    """bool[A]: the four ``trump S`` (the dealer names a suit for a turned Benny)."""
    alone_row: BoolArray
    """bool[A]: ``alone`` and ``pass``."""
    candidate_of: Int8
    """int8[C]: turn-up -> the suit offered in round one, -1 when the dealer names it."""
    farmer_ids: npt.NDArray[np.int64]
    """int64[F]: the ids of the farmer's-hand swaps (``discard 9S 9H 9D``; none when off)."""
    farmer_cards: npt.NDArray[np.uint64]
    """uint64[F]: each swap's three cards, as a hand mask."""
    farmer_trios: Int8
    """int8[F, 3]: each swap's three cards, lowest first (they go under the kitty in this order)."""
    farmers: bool
    """Whether the farmer's hand is played (option ``farmers_hand`` not ``"off"``)."""
    follow: npt.NDArray[np.uint64]
    """uint64[4, C + 1]: trumps -> led card -> the mask of the cards that follow it (a hand
    holding none may play any card); the last column, no card led, is 0."""
    next_seat: Int8
    """int8[16, 4]: seats sitting out (bits) -> seat -> the next seat in play."""
    active: Int8
    """int8[16]: seats sitting out -> how many play."""
    nth_seat: Int8
    """int8[16, 4, 4]: seats sitting out -> leader -> k -> the k-th seat in play from him."""
    made_seat: Int8
    """int8[4, 4, 2, 2, Q]: dealer -> maker -> alone? -> turned suit? -> queued deciders."""
    made_kind: Int8
    """int8[4, 4, 2, 2, Q]: the same -> the decisions (_NONE pads)."""
    points: npt.NDArray[np.int32]
    """int32[T+1, 2, 2, 2]: makers' tricks -> alone? -> lone defender? -> (makers, defenders)."""
    hand_size: int
    """Cards (tricks) per hand."""
    pickup: str
    """The dealer's pick-up: ``"may"`` (hand or pass), ``"must"`` (hand and turn-up), or
    ``"must_keep"`` (hand only: he may not discard the turn-up)."""
    takeover_refused: BoolArray
    """bool[2, 2]: the maker is the dealer? -> he took the turn-up? -> a queued take-over lapses."""
    bidding: BiddingTables
    """The Euchre engine's bidding tables, read where no array is needed: a turned Benny
    (``benny_makes_dealer``), lone defence (``defence_allowed``,
    ``defence_blocked_by_exchange``) and who leads (``lead_left_of_lone``)."""


def supports(rules: RuleSet) -> tuple[OrderUp, EuchreScoring]:
    """The bidding and scoring parts of ``rules``; `OptionError` unless the batch Euchre
    engine plays ``rules`` exactly."""
    bidding, scoring = rules.bidding, rules.scoring
    if (
        rules.players != _PLAYERS
        or rules.deck.packs != 1
        or not isinstance(bidding, OrderUp)
        or not isinstance(scoring, EuchreScoring)
        or rules.playoff_policy.duty is not PlayDuty.FOLLOW_EFFECTIVE_SUIT
        or any(recipient == WIDOW for recipient, _ in rules.deal.packets)
        or not rules.deal.turn_up
        or rules.deck.size - 1 - sum(count for _, count in rules.deal.packets) < 3
    ):
        raise OptionError(f"the batch engine does not support this Euchre rule set: {rules.name!r}")
    return bidding, scoring


@built_once_per_key(32)
def euchre_batch_tables(rules: RuleSet) -> EuchreBatchTables:
    """The lookup tables of ``rules`` (a rule set is a value: equal rule sets share them): the
    Euchre engine's compiled tables (`EuchreTables`) as arrays, and the array-only encodings
    (the follow masks, the points per trick count)."""
    bidding, scoring = supports(rules)
    m = cast(EuchreTables, rules.tables)
    ids, bids, trick = m.ids, m.bidding, m.trick
    c = rules.deck.size
    kind = np.asarray(m.action_table.kind, np.int8)
    a = kind.size
    bid_rows = np.zeros((2, 2, 4, a), bool)
    for round_two, per_seat in enumerate(bids.bid_legal):
        for is_dealer, per_candidate in enumerate(per_seat):
            for candidate, legal in enumerate(per_candidate):
                bid_rows[round_two, is_dealer, candidate, list(legal)] = True
    alone_row = np.zeros(a, bool)
    alone_row[list(bids.alone_legal)] = True
    follow = np.zeros((4, c + 1), np.uint64)
    follow[:, :c] = duty_tiers(rules, rules.playoff_policy, 1)[:, :, 0]
    made_seat = np.zeros((4, 4, 2, 2, _QUEUE), np.int8)
    made_kind = np.full((4, 4, 2, 2, _QUEUE), _NONE, np.int8)
    for dealer, per_maker in enumerate(bids.made_queue):
        for maker, per_alone in enumerate(per_maker):
            for alone, per_turned in enumerate(per_alone):
                for turned, questions in enumerate(per_turned):
                    for k, question in enumerate(questions):
                        made_seat[dealer, maker, alone, turned, k] = question.seat
                        made_kind[dealer, maker, alone, turned, k] = question.decision
    hand = rules.deal.hand_size
    points = np.zeros((hand + 1, 2, 2, 2), np.int32)
    for tricks in range(hand + 1):
        for alone in (0, 1):
            for lone in (0, 1):
                points[tricks, alone, lone] = scoring.points(tricks=tricks, alone=bool(alone), lone_defender=bool(lone))
    if bidding.dealer_pickup == "may":
        pickup = "may"
    else:
        pickup = "must" if bidding.dealer_may_discard_upcard else "must_keep"
    play_ids = np.asarray(ids.play, np.int64)
    farmer_trios = [sorted(swap.faces) for swap in ids.farmer]
    return EuchreBatchTables(
        kind=kind,
        arg=np.asarray(ids.args, np.int8),
        alone_bid=np.isin(kind, (ActionKind.ORDER_UP_ALONE, ActionKind.CALL_ALONE)),
        play_ids=play_ids,
        discard_ids=np.asarray(ids.discard, np.int64),
        plays_from=int(play_ids[0]) if (play_ids == play_ids[0] + np.arange(c)).all() else -1,
        bid_rows=bid_rows,
        trump_row=kind == ActionKind.TRUMP,
        alone_row=alone_row,
        candidate_of=np.asarray(bids.candidate_of, np.int8),
        farmer_ids=np.array([swap.action_id for swap in ids.farmer], np.int64),
        farmer_cards=np.array([sum(1 << x for x in trio) for trio in farmer_trios], np.uint64),
        farmer_trios=np.array(farmer_trios, np.int8).reshape(-1, 3),
        farmers=bidding.farmers_hand != "off",
        follow=follow,
        next_seat=np.asarray(trick.next_seat, np.int8),
        active=np.asarray(trick.active, np.int8),
        nth_seat=np.asarray(trick.nth_seat, np.int8),
        made_seat=made_seat,
        made_kind=made_kind,
        points=points,
        hand_size=hand,
        pickup=pickup,
        takeover_refused=np.array(
            [[bidding.takeover_refused(maker_is_dealer=d, dealer_took_turn_up=took) for took in (False, True)]
             for d in (False, True)]
        ),
        bidding=bids,
        **deck_tables(rules),
    )  # fmt: skip


@attrs.frozen(eq=False)
class EuchreBatch(BatchState):
    """N Euchre deals (C cards): the fields of `BatchState`, then these, one row per deal."""

    tables: EuchreBatchTables
    """The rule set's lookup tables (shared by every state of the batch)."""
    hands: npt.NDArray[np.uint64]
    """uint64[N, 4]: each seat's hand, bit ``x`` for card ``x`` (the rest of the pack is
    the turn-up, the kitty and the cards played)."""
    stage: Int8
    """int8[N]: 0 the dealer names a suit (a turned Benny), 1 bidding, 2 a discard (the dealer's
    pick-up, or a farmer's-hand swap), 3 a decision to go alone / take over / defend alone, 4 tricks, 5 over."""
    turn_up: Int8
    """int8[N]: the turned-up card."""
    candidate: Int8
    """int8[N]: the suit offered in round one (-1 until the dealer names it for a Benny)."""
    round: Int8
    """int8[N]: bidding round, 1 or 2."""
    passes: Int8
    """int8[N]: passes in the current round."""
    trump: Int8
    """int8[N]: trump suit, -1 before trumps are made."""
    maker: Int8
    """int8[N]: who made trumps, -1 before."""
    alone: Int8
    """int8[N]: who plays alone, -1 for nobody."""
    defender: Int8
    """int8[N]: who defends alone, -1 for nobody."""
    out: Int8
    """int8[N]: bit per seat sitting out."""
    buried: Int8
    """int8[N]: the dealer's discard after taking the turn-up, -1 before (or declined)."""
    kitty: Int8
    """int8[N, 3]: the three hidden cards under the turn-up (a farmer's hand swaps for them)."""
    farmer: Int8
    """int8[N]: who swapped a farmer's hand, -1 for nobody."""
    queue_seat: Int8
    """int8[N, Q]: the pending decisions' seats."""
    queue_kind: Int8
    """int8[N, Q]: the pending decisions (0 pads)."""
    queue_head: Int8
    """int8[N]: the index of the next pending decision."""
    leader: Int8
    """int8[N]: who led the current trick."""
    trick: Int8
    """int8[N, 4]: the current trick's cards in play order (-1 pads)."""
    trick_size: Int8
    """int8[N]: cards in the current trick."""
    taken: Int8
    """int8[N, 4]: tricks taken per seat."""

    def legal_mask(self) -> BoolArray:
        """bool[N, rules.num_actions]: the legal action ids of every deal (see `BatchState`)."""
        t = self.tables
        n = self.size
        mask = np.zeros((n, t.kind.shape[0]), bool)
        stage = self.stage
        player = self.current_player
        idx = np.flatnonzero(stage == TRICKS)
        if idx.size:
            rows: IntArray | slice = slice(None) if idx.size == n else idx  # every deal: no gathering
            hand = self.hands.reshape(-1).take(idx * _PLAYERS + player[idx])
            led = self.trick[rows, 0].astype(np.intp) % t.follow.shape[1]  # no card led: the last column, 0
            f = hand & t.follow.reshape(-1).take(self.trump[rows].astype(np.intp) * t.follow.shape[1] + led)
            playable = _cards(np.where(f != 0, f, hand), t.card_bit.shape[0])
            if t.plays_from >= 0:  # the play ids are contiguous, in card order
                mask[rows, t.plays_from : t.plays_from + playable.shape[1]] = playable
            else:
                mask[idx[:, None], t.play_ids[None, :]] = playable
        idx = np.flatnonzero(stage == BID)
        if idx.size:
            is_dealer = (player[idx] == self.dealer).astype(np.intp)  # an index, not a boolean mask
            mask[idx] = t.bid_rows[self.round[idx] - 1, is_dealer, self.candidate[idx]]
        idx = np.flatnonzero(stage == ALONE)
        if idx.size:
            mask[idx] = t.alone_row
        idx = np.flatnonzero(stage == TRUMP)
        if idx.size:
            mask[idx] = t.trump_row
        idx = np.flatnonzero(stage == DISCARD)
        if t.farmers and idx.size:
            farm = self.queue_kind[idx, self.queue_head[idx]] == _FARMER
            asked = idx[farm]
            idx = idx[~farm]
            if asked.size:
                hand = self.hands[asked, player[asked]]
                mask[asked, t.pass_id] = True
                mask[asked[:, None], t.farmer_ids[None, :]] = (hand[:, None] & t.farmer_cards) == t.farmer_cards
        if idx.size:
            hand = self.hands[idx, player[idx]]
            if t.pickup == "must":
                hand = hand | t.card_bit[self.turn_up[idx]]
            mask[idx[:, None], t.discard_ids[None, :]] = _cards(hand, t.card_bit.shape[0])
            if t.pickup == "may":
                mask[idx, t.pass_id] = True
        return mask

    def _advance(self, s: _Fields, actions: IntArray) -> EuchreBatch:
        t = self.tables
        kind = t.kind[actions]
        arg = t.arg[actions]
        stage = self.stage  # the stage before this step (s["stage"] changes)
        _tricks(s, t, np.flatnonzero(stage == TRICKS), arg)
        _bid(s, t, self.dealer, np.flatnonzero(stage == BID), kind, arg, actions)
        _trump_named(s, t, self.dealer, np.flatnonzero(stage == TRUMP), arg)
        _alone(s, t, self.dealer, np.flatnonzero(stage == ALONE), kind)
        _discard(s, t, self.dealer, np.flatnonzero(stage == DISCARD), kind, arg)
        return EuchreBatch(**s)


State = _Fields


def _tricks(s: State, t: EuchreBatchTables, idx: IntArray, arg: Int8) -> None:
    if not idx.size:
        return
    # flat indices (row * columns + column): numpy's take and put are much faster on them
    every = idx.size == arg.size  # every deal plays a card (most steps): whole arrays, no gathering
    card = arg if every else arg[idx]
    p = (s["current_player"] if every else s["current_player"][idx]).astype(np.intp)
    at = idx * _PLAYERS + p
    hands = s.w("hands").reshape(-1)
    hands[at] = hands.take(at) & ~t.card_bit[card]
    size = (s["trick_size"] if every else s["trick_size"][idx]).astype(np.intp)
    s.w("trick").reshape(-1)[idx * _PLAYERS + size] = card
    size = size + 1
    s.w("trick_size")[idx] = size
    out = (s["out"] if every else s["out"][idx]).astype(np.intp)
    full = size >= t.active[out]
    going = ~full
    s.w("current_player")[idx[going]] = t.next_seat.reshape(-1).take(out[going] * _PLAYERS + p[going])
    c = idx[full]
    if not c.size:
        return
    trick = s["trick"][c].astype(np.intp)
    seats = np.arange(trick.shape[1])
    cards = t.power.shape[1]
    first = s["trump"][c].astype(np.intp) * cards * cards + trick[:, 0] * cards
    power = t.power.reshape(-1).take(first[:, None] + np.maximum(trick, 0))
    power = np.where(seats[None, :] < s["trick_size"][c][:, None], power, -1)
    k = np.zeros(c.size, np.int64)  # the first card of highest power (column by column: 4 columns are few)
    high = power[:, 0]
    for j in range(1, power.shape[1]):
        k = np.where(power[:, j] > high, j, k)
        high = np.maximum(high, power[:, j])
    winner = t.nth_seat.reshape(-1).take(
        out[full] * _PLAYERS * _PLAYERS + s["leader"][c].astype(np.intp) * _PLAYERS + k
    )
    taken_flat = s.w("taken").reshape(-1)
    won = c * _PLAYERS + winner
    taken_flat[won] = taken_flat.take(won) + 1
    s.w("trick")[c] = -1
    s.w("trick_size")[c] = 0
    s.w("leader")[c] = winner
    s.w("current_player")[c] = winner
    taken = s["taken"][c]
    end = taken[:, 0] + taken[:, 1] + taken[:, 2] + taken[:, 3] == t.hand_size
    e = c[end]
    if not e.size:
        return
    maker = s["maker"][e]
    taken = taken[end]
    rows = np.arange(e.size)
    tricks = taken[rows, maker] + taken[rows, (maker + 2) % _PLAYERS]
    pts = t.points[tricks, (s["alone"][e] >= 0).astype(np.int8), (s["defender"][e] >= 0).astype(np.int8)]
    side = maker % 2
    s.w("scores")[e, side] = pts[:, 0]
    s.w("scores")[e, 1 - side] = pts[:, 1]
    _finish(s, e)


def _finish(s: State, idx: IntArray) -> None:
    s.w("stage")[idx] = OVER
    s.w("current_player")[idx] = -1
    s.w("done")[idx] = True


def _bid(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray, kind: Int8, arg: Int8, actions: IntArray) -> None:
    if not idx.size:
        return
    k = kind[idx]
    passed = idx[k == _PASS]
    if passed.size:
        passes = s["passes"][passed] + 1
        p = s["current_player"][passed]
        more = passes < _PLAYERS
        s.w("passes")[passed] = np.where(more, passes, 0)
        s.w("current_player")[passed] = np.where(more, (p + 1) % _PLAYERS, (dealer + 1) % _PLAYERS)
        ended = passed[~more]
        over = ended[s["round"][ended] == 2]
        s.w("round")[ended] = 2
        _finish(s, over)
    made = idx[k != _PASS]
    if made.size:
        bid = kind[made]
        order = (bid == _ORDER_UP) | (bid == _ORDER_UP_ALONE)
        trump = np.where(order, s["candidate"][made], arg[made])
        _made(s, t, dealer, made, s["current_player"][made], trump, t.alone_bid[actions[made]], order)


def _trump_named(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray, arg: Int8) -> None:
    if not idx.size:
        return
    s.w("candidate")[idx] = arg[idx]
    if t.bidding.benny_makes_dealer:
        m = idx.size
        _made(s, t, dealer, idx, np.full(m, dealer, np.int8), arg[idx], np.zeros(m, bool), np.ones(m, bool))
    else:
        s.w("stage")[idx] = BID
        s.w("current_player")[idx] = (dealer + 1) % _PLAYERS


def _made(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray, maker: Int8, trump: Int8,
          alone: BoolArray, turned: BoolArray) -> None:  # fmt: skip
    s.w("trump")[idx] = trump
    s.w("maker")[idx] = maker
    s.w("alone")[idx] = np.where(alone, maker, -1)
    s.w("out")[idx] = np.where(alone, 1 << ((maker + 2) % _PLAYERS), 0)
    a = alone.astype(np.int8)
    u = turned.astype(np.int8)
    s.w("queue_seat")[idx] = t.made_seat[dealer, maker, a, u]
    s.w("queue_kind")[idx] = t.made_kind[dealer, maker, a, u]
    s.w("queue_head")[idx] = 0
    s.w("passes")[idx] = 0
    _settle(s, t, dealer, idx)


def _settle(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray) -> None:
    """Move each deal of ``idx`` to its next pending decision that applies, or to the play."""
    pending = idx
    allowed = np.array(t.bidding.defence_allowed)
    for _ in range(_QUEUE):
        if not pending.size:
            return
        head = s["queue_head"][pending]
        seat = s["queue_seat"][pending, head]
        what = s["queue_kind"][pending, head]
        sitting = (s["out"][pending] >> seat) & 1 == 1
        skip = (what == _PICKUP) & sitting
        blocked = (s["defender"][pending] >= 0) | ~allowed[(s["alone"][pending] >= 0).astype(np.int8)]
        if t.bidding.defence_blocked_by_exchange:
            blocked |= ((seat + 2) % _PLAYERS == dealer) & (s["buried"][pending] >= 0)
        skip |= (what == _DEFEND) & blocked
        refused = t.takeover_refused[
            (s["maker"][pending] == dealer).astype(np.intp), (s["buried"][pending] >= 0).astype(np.intp)
        ]
        skip |= (what == _TAKEOVER) & refused
        if t.farmers:
            hand = s["hands"][pending, seat]
            skip |= (what == _FARMER) & ~((hand[:, None] & t.farmer_cards) == t.farmer_cards).any(axis=1)
        empty = what == _NONE
        ask = ~skip & ~empty
        asked = pending[ask]
        s.w("stage")[asked] = np.where((what[ask] == _PICKUP) | (what[ask] == _FARMER), DISCARD, ALONE)
        s.w("current_player")[asked] = seat[ask]
        done = pending[empty]
        bidding = s["trump"][done] < 0  # the farmer's-hand decisions are over: the bidding starts
        _play_starts(s, t, dealer, done[~bidding])
        _bidding_starts(s, dealer, done[bidding])
        pending = pending[skip]
        s.w("queue_head")[pending] += 1


def _bidding_starts(s: State, dealer: int, idx: IntArray) -> None:
    if not idx.size:
        return
    benny = s["candidate"][idx] < 0  # a turned Benny: the dealer names a suit first
    s.w("stage")[idx] = np.where(benny, TRUMP, BID)
    s.w("current_player")[idx] = np.where(benny, dealer, (dealer + 1) % _PLAYERS)


def _play_starts(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray) -> None:
    if not idx.size:
        return
    alone = s["alone"][idx]
    lone = np.where(alone >= 0, alone, s["defender"][idx])
    start = np.where((lone >= 0) & t.bidding.lead_left_of_lone, lone, dealer)
    leader = t.next_seat[s["out"][idx], start]
    s.w("stage")[idx] = TRICKS
    s.w("current_player")[idx] = leader
    s.w("leader")[idx] = leader


def _alone(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray, kind: Int8) -> None:
    if not idx.size:
        return
    head = s["queue_head"][idx]
    seat = s["queue_seat"][idx, head]
    what = s["queue_kind"][idx, head]
    s.w("queue_head")[idx] = head + 1
    yes = kind[idx] == _ALONE
    lone = yes & ((what == _MAKER_ALONE) | (what == _TAKEOVER))
    s.w("alone")[idx] = np.where(lone, seat, s["alone"][idx])
    defend = yes & (what == _DEFEND)
    s.w("defender")[idx] = np.where(defend, seat, s["defender"][idx])
    out = s["out"][idx]
    partner_out = (1 << ((seat + 2) % _PLAYERS)).astype(np.int8)
    out = np.where(yes & (what != _TAKEOVER), out | partner_out, out)
    out = np.where(yes & (what == _TAKEOVER), (1 << s["maker"][idx]).astype(np.int8), out)
    s.w("out")[idx] = out
    _settle(s, t, dealer, idx)


def _discard(s: State, t: EuchreBatchTables, dealer: int, idx: IntArray, kind: Int8, arg: Int8) -> None:
    if not idx.size:
        return
    s.w("queue_head")[idx] += 1
    swap = idx[kind[idx] == _FARMER_SWAP]
    if swap.size:
        second = s["farmer"][swap] >= 0  # a second farmer's hand: misdeal
        misdeal = swap[second]
        _finish(s, misdeal)
        idx = idx[~np.isin(idx, misdeal)]
        swap = swap[~second]
        j = arg[swap]
        p = s["current_player"][swap]
        under = np.bitwise_or.reduce(t.card_bit[s["kitty"][swap]], axis=1)
        s.w("hands")[swap, p] = (s["hands"][swap, p] & ~t.farmer_cards[j]) | under
        s.w("kitty")[swap] = t.farmer_trios[j]
        s.w("farmer")[swap] = p
    took = idx[kind[idx] == _DISCARD]
    if took.size:
        gone = arg[took]
        s.w("hands")[took, dealer] = (s["hands"][took, dealer] | t.card_bit[s["turn_up"][took]]) & ~t.card_bit[gone]
        s.w("buried")[took] = gone
    _settle(s, t, dealer, idx)


def new_euchre(rules: RuleSet, seeds: list[int], dealer: int) -> EuchreBatch:
    """N Euchre deals of ``rules``, one per seed (see `bezique_rules.batch.new`)."""
    t = euchre_batch_tables(rules)
    n = len(seeds)
    c = rules.deck.size
    orders = seeded_orders(c, seeds)
    hands = np.bitwise_or.reduce(t.card_bit[orders[:, t.dealt[dealer]]], axis=2)  # N x seat x hand -> N x seat
    turn_up = orders[:, t.turn_pos].astype(np.int8)
    candidate = t.candidate_of[turn_up]
    benny = candidate < 0

    def full(value: int, shape: tuple[int, ...] = (n,)) -> Int8:
        return np.full(shape, value, np.int8)

    fields = _Fields(
        dict(
            rules=rules,
            dealer=dealer,
            seeds=np.array(seeds, np.int64),
            current_player=np.where(benny, dealer, (dealer + 1) % _PLAYERS).astype(np.int8),
            done=np.zeros(n, bool),
            scores=np.zeros((n, 2), np.int32),
            steps=(),
            moves=np.zeros(n, np.int16),
            tables=t,
            hands=hands,
            stage=np.where(benny, TRUMP, BID).astype(np.int8),
            turn_up=turn_up,
            candidate=candidate,
            round=full(1),
            passes=full(0),
            trump=full(-1),
            maker=full(-1),
            alone=full(-1),
            defender=full(-1),
            out=full(0),
            buried=full(-1),
            kitty=orders[:, t.turn_pos + 1 : t.turn_pos + 4].astype(np.int8),
            farmer=full(-1),
            queue_seat=full(0, (n, _QUEUE)),
            queue_kind=full(_NONE, (n, _QUEUE)),
            queue_head=full(0),
            leader=full(-1),
            trick=full(-1, (n, 4)),
            trick_size=full(0),
            taken=full(0, (n, 4)),
        )
    )
    before = part_of(rules, rules.bidding, OrderUp).decisions_before_bidding(_PLAYERS, dealer)
    if before:  # from the dealer's left, each holder of a farmer's hand may swap it first
        fields["queue_seat"][:, : len(before)] = [seat for seat, _ in before]
        fields["queue_kind"][:, : len(before)] = [what for _, what in before]
        _settle(fields, t, dealer, np.arange(n))
    return EuchreBatch(**fields)
