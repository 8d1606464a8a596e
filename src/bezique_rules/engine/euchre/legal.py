"""What a Euchre player may do now: the legal ids of each phase, from the compiled tables when
they hold them, else from the rule set's parts; and the rules of the decisions before the play
(the dealer's pick-up, the farmer's hand, the questions that lapse)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ...deck import card_ids
from ...parts.euchre import Decision, OrderUp
from ...rules.ruleset import part_of
from ...state.deal import DealSetup, Phase
from .record import Contract, EuchreState

if TYPE_CHECKING:
    from .tables import ActionIds, EuchreTables, EuchreTrickTables

_TRICKS = Phase.TRICKS
_BID = Phase.BID
_OVER = Phase.OVER


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


def _play_ids(t: EuchreTrickTables, mask: int) -> tuple[int, ...]:
    """The play ids of the cards of ``mask``, sorted (a deck with one copy of each card)."""
    w = t.width
    cm = t.chunk_mask
    out: tuple[int, ...] = ()
    for k, table in enumerate(t.chunks):
        out += table[mask >> k * w & cm]
    return out
