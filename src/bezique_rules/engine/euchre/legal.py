"""What a Euchre player may do now: the bidding predicates, each rule of the bids and of the
decisions before the play stated once, and the legal ids of each phase built from them (from
the compiled tables when they hold them, else from the rule set's parts).

The predicates are read by the legal ids (and the bidding tables compiled from them), the
refusals (`EuchreDeal._refusal` asks them which rule an action breaks) and the transitions
(`EuchreDeal._settled` asks which pending question lapses, and whether the dealer names a suit
for a turned Benny):

- the bids: `may_pass_bid` (the stuck dealer), `may_order_up` (round one), `may_call`
  (round two, not the turned-down suit), `may_bid_alone` (going alone said with the bid);
- the turned Benny: `names_benny` (the dealer names the suit offered in round one);
- the dealer's exchange: `may_decline_pickup`, `may_discard_turn_up`, and the choices they
  leave him, `pickup_choices`;
- the farmer's hand: `farmer_swaps`, `has_farmers_hand`, `asks_farmer` (the question asked
  now), `second_farmers_hand` (a misdeal);
- the questions once trumps are made: `asks_pickup`, `pickup_lapses` (the dealer sits out),
  `question_lapses` (a take-over or a lone defence no longer open).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ...actions import _ST_BID, _ST_OVER, _ST_TRICKS
from ...deck import card_ids
from ...parts.euchre import Decision, OrderUp
from ...rules.ruleset import part_of
from ...state.deal import DealSetup, Phase
from .record import Bidding, Contract, EuchreState, Kitty

if TYPE_CHECKING:
    from .tables import ActionIds, EuchreTables, EuchreTrickTables


# -- the bids --------------------------------------------------------------------------------


def may_pass_bid(order_up: OrderUp, *, round_two: bool, is_dealer: bool) -> bool:
    """Whether a bidder may pass: anyone, but the dealer in round two when he is stuck
    (`OrderUp.stick_the_dealer`, pagat's "stick the dealer" variation)."""
    return order_up.may_pass(round_two=round_two, is_dealer=is_dealer)


def may_order_up(*, round_two: bool) -> bool:
    """Whether the turned suit may be ordered up: in round one only (pagat, Euchre: once all
    pass, the turn-up is turned down and round two names another suit)."""
    return not round_two


def may_call(*, round_two: bool, candidate: int, suit: int) -> bool:
    """Whether ``suit`` may be named trumps: in round two, any suit but the turned-down one
    (``candidate``; pagat, Euchre: the turned-down suit may not be named in round two)."""
    return round_two and suit != candidate


def may_bid_alone(order_up: OrderUp) -> bool:
    """Whether a bid may say it plays alone (``order-up alone``, ``call S alone``); if not,
    going alone is asked after the bid (`Phase.ALONE`, `OrderUp.alone_with_bid`)."""
    return order_up.alone_with_bid


def names_benny(bidding: Bidding) -> bool:
    """Whether the dealer must name a suit before the bidding: the turn-up is the Benny, which
    has no suit of its own, so no suit is offered yet (``candidate`` -1; pagat, British
    Euchre: the dealer names the suit it stands for)."""
    return bidding.candidate < 0


# -- the dealer's exchange --------------------------------------------------------------------


def may_decline_pickup(order_up: OrderUp) -> bool:
    """Whether the dealer may leave the turn-up he was ordered to take (``pass``: he keeps his
    hand; `OrderUp.dealer_pickup` ``"may"``)."""
    return order_up.dealer_pickup == "may"


def may_discard_turn_up(order_up: OrderUp) -> bool:
    """Whether the dealer who takes the turn-up may discard it again
    (`OrderUp.dealer_may_discard_upcard`)."""
    return order_up.dealer_may_discard_upcard


def pickup_choices(order_up: OrderUp, hand: int, turn_up: int) -> tuple[int, bool]:
    """The dealer's pick-up: the cards he may discard (a mask) and whether he may decline
    the turn-up with ``pass`` (then he keeps his hand: the turn-up is not among them)."""
    if may_decline_pickup(order_up):
        return hand, True
    if may_discard_turn_up(order_up):
        return hand | 1 << turn_up, False
    return hand, False


# -- the farmer's hand (a house rule) ---------------------------------------------------------


def farmer_swaps(setup: DealSetup[EuchreTables], hand: int) -> list[int]:
    """The ids of the farmer's swaps ``hand`` can make: three of its nines and tens (of one
    rank with ``farmers_hand="nines_or_tens"``) for the kitty's first three cards."""
    ids = setup.tables.ids
    face_of = setup.rules.deck.face_of
    faces = sorted({face_of[pid] for pid in card_ids(hand) if (ids.farmer_faces >> face_of[pid]) & 1})
    swap_of = {swap.faces: swap.action_id for swap in ids.farmer}
    return [swap_of[t] for t in map(frozenset, itertools.combinations(faces, 3)) if t in swap_of]


def has_farmers_hand(setup: DealSetup[EuchreTables], hand: int) -> bool:
    """Whether ``hand`` holds a farmer's hand (and so is asked whether to swap it)."""
    return bool(farmer_swaps(setup, hand))


def asks_farmer(s: EuchreState) -> bool:
    """Whether the question asked now is a farmer's hand: swap it, or ``pass``."""
    return s.stage is Phase.DISCARD and bool(s.queue) and s.queue[0].decision is Decision.FARMER


def second_farmers_hand(kitty: Kitty) -> bool:
    """Whether a farmer's swap now would be the deal's second, which throws it in (a misdeal):
    the kitty's first three cards have been taken already."""
    return kitty.farmer >= 0


# -- the questions once trumps are made ---------------------------------------------------------


def asks_pickup(s: EuchreState) -> bool:
    """Whether the question asked now is the dealer's pick-up: take the turn-up and discard."""
    return s.stage is Phase.DISCARD and bool(s.queue) and s.queue[0].decision is Decision.PICKUP


def pickup_lapses(contract: Contract, seat: int) -> bool:
    """Whether the pick-up asked of ``seat`` (the dealer) lapses: he sits out, his partner
    playing alone."""
    return (contract.out >> seat) & 1 == 1


def question_lapses(
    setup: DealSetup[EuchreTables], contract: Contract, exchanged: bool, seat: int, decision: Decision
) -> bool:
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


# -- the legal ids ------------------------------------------------------------------------------


def _legal_of(setup: DealSetup[EuchreTables], s: EuchreState) -> tuple[int, ...]:
    """The legal action ids of a deal with this setup and state, sorted."""
    stage = s.stage
    m = setup.tables
    if stage is _ST_TRICKS:
        follow = m.trick.follow
        if follow is not None:
            hand = s.hands[s.player]
            trick = s.trick
            if trick:
                hand = hand & follow[s.contract.trump][trick[0]] or hand
            return _play_ids(m.trick, hand)
    elif stage is _ST_BID:
        b = s.bidding
        return m.bidding.bid_legal[b.round == 2][s.player == setup.dealer][b.candidate]
    elif stage is _ST_OVER:
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
    if asks_farmer(s):
        return [ids.pass_id, *farmer_swaps(setup, s.hands[p])]
    # the dealer's pick-up and discard
    cards, decline = pickup_choices(bidding, s.hands[p], s.kitty.turn_up)
    out = [ids.discard[face_of[pid]] for pid in card_ids(cards)]
    if decline:
        out.append(ids.pass_id)
    return out


def _bid_ids(order_up: OrderUp, ids: ActionIds, round_two: bool, is_dealer: bool, candidate: int) -> list[int]:
    """The bids open to a player (before sorting), from the bid predicates."""
    out = []
    alone = may_bid_alone(order_up)
    if may_pass_bid(order_up, round_two=round_two, is_dealer=is_dealer):
        out.append(ids.pass_id)
    if may_order_up(round_two=round_two):
        out.append(ids.order_id)
        if alone:
            out.append(ids.order_alone_id)
    for suit in range(4):
        if may_call(round_two=round_two, candidate=candidate, suit=suit):
            out.append(ids.call[suit])
            if alone:
                out.append(ids.call_alone[suit])
    return out


def _play_ids(t: EuchreTrickTables, mask: int) -> tuple[int, ...]:
    """The play ids of the cards of ``mask``, sorted (a deck with one copy of each card)."""
    w = t.width
    cm = t.chunk_mask
    out: tuple[int, ...] = ()
    for k, table in enumerate(t.chunks):
        out += table[mask >> k * w & cm]
    return out
