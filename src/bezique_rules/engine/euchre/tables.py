"""The Euchre engine's tables, built once per rule set (`EuchreEngine.compile`, held by
`RuleSet.tables` and each deal's `DealSetup.tables`), in four named groups: the action ids
(`ActionIds`: what each id does), the trick tables (`EuchreTrickTables`: plays by mask, who
plays next, who wins), the bidding tables (`BiddingTables`: the legal bids, the contracts and
the questions a made trump asks) and the deal layout (`DealLayout`)."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import NamedTuple, cast

import attrs

from ...actions import _ST_OVER, _ST_TRICKS, Action, ActionKind, ActionNumbering, ActionSpace, ActionTable, Verb
from ...cards import Rank, Suit
from ...deck import WIDOW
from ...parts.euchre import Decision, OrderUp
from ...parts.tricks import PlayDuty
from ...parts.trumps import NO_TRUMP
from ...rules.ruleset import RuleSet, part_of
from .legal import _bid_ids
from .record import Bidding, Contract, EuchreState, PlayTable, Question

# -- the compiled tables ---------------------------------------------------------------------


class FarmerSwap(NamedTuple):
    """A farmer's swap: the faces given away, and its action id."""

    faces: frozenset[int]
    action_id: int


@attrs.frozen
class ActionIds:
    """The ids of each kind of action, and what the shared `ActionTable` does not say of an id
    (its kind is in `EuchreTables.action_table`)."""

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


def _build(rules: RuleSet) -> EuchreTables:
    """Compile the tables of ``rules``: four named groups."""
    numbering = ActionNumbering[tuple[ActionKind, int]]()
    ids = _action_ids(rules, numbering)
    space = numbering.space()
    trick = _trick_tables(rules, ids, space)
    carded = (ActionKind.PLAY, ActionKind.DISCARD)
    suited = (ActionKind.CALL, ActionKind.CALL_ALONE, ActionKind.TRUMP)
    meanings = numbering.meanings
    action_table = ActionTable.of(
        (kind for kind, _ in meanings),
        face=(arg if kind in carded else -1 for kind, arg in meanings),
        suit=(arg if kind in suited else -1 for kind, arg in meanings),
    )
    return EuchreTables(
        actions=space,
        action_table=action_table,
        ids=ids,
        trick=trick,
        bidding=_bidding_tables(rules, ids),
        deal=_deal_layout(rules),
    )


def _action_ids(rules: RuleSet, numbering: ActionNumbering[tuple[ActionKind, int]]) -> ActionIds:
    """Number the actions (each meaning its kind and its `ActionIds.args` entry) and say what
    each id does."""
    faces = rules.deck.faces

    def add(action: Action, kind: ActionKind, arg: int = -1) -> int:
        return numbering.add(action, (kind, arg))

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
        args=tuple(arg for _, arg in numbering.meanings), play=play, discard=discard, farmer=tuple(farmer),
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


def _table_of(m: EuchreTables, s: EuchreState) -> PlayTable:
    """The play rows a state carries: those of its seats and trumps once the play has started
    (as `EuchreDeal._settled` takes them), else the rows before the play."""
    contract = s.contract
    if s.stage is _ST_TRICKS or (s.stage is _ST_OVER and not s.bidding.misdeal):
        return m.trick.play_table[contract.out][contract.trump]
    return m.trick.before_play
