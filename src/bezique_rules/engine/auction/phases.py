"""The auction engine's transitions before the tricks: the auction, the widow, trumps, passing
cards, the melds, the burial and the concessions. Each builds the next `AuctionCore` from the
last, reading the declaration predicates of `declare` for what the rules allow."""

from __future__ import annotations

from ...actions import _BEST_MELD, _BID, _PASS, _THROW_IN
from ...deck import card_ids
from ...parts.melds import Laid, best_melds
from ...state.deal import DealSetup, Phase
from ..fields import with_item
from .declare import (
    burial_keeps_melds,
    concession,
    face_counts,
    give_receiver,
    may_concede_after_melds,
    meld_need,
    pick,
    spare_counts,
    widow_waits_at_minimum,
)
from .play import over, start_play
from .record import AuctionCore
from .tables import AuctionActionMeaning, AuctionTables


def decide(setup: DealSetup[AuctionTables], c: AuctionCore, meaning: AuctionActionMeaning) -> AuctionCore:
    """The record after the decision ``meaning`` (any phase but the tricks; ``c.moves``
    already log it)."""
    stage = c.stage
    kind = meaning.kind
    if stage is Phase.BID:
        return bid(setup, c, meaning.number if kind == _BID else 0)
    if kind == _THROW_IN:
        return over(setup, c._replace(conceded=concession(c)))
    if stage is Phase.CONCEDE:
        return start_play(setup, c)
    if stage is Phase.TRUMP:
        if kind == _PASS:  # the widow waited (`widow_waits`): turned up
            return take_widow(c)
        return after_trump(setup, c._replace(trump=meaning.number))
    if stage is Phase.GIVE:
        return give(setup, c, meaning.faces)
    if stage is Phase.MELD:
        return meld(setup, c, meaning)
    return bury(setup, c, meaning.faces)


def bid(setup: DealSetup[AuctionTables], c: AuctionCore, amount: int) -> AuctionCore:
    """A bid of ``amount`` (0: a pass, with or without help) by the player to act. Everyone
    passed: the deal is thrown in; one bidder left: he won the auction."""
    n = setup.rules.players
    p = c.player
    if amount:
        c = c._replace(bid=amount, declarer=p)
    else:
        c = c._replace(passed=c.passed | (1 << p))
    passed = c.passed
    active = [q for q in range(n) if not (passed >> q) & 1]
    if not active:
        return c._replace(stage=Phase.OVER, player=-1, misdeal=True)
    if len(active) == 1 and c.bid:
        return won_auction(setup, c)
    nxt = (p + 1) % n
    while (passed >> nxt) & 1:
        nxt = (nxt + 1) % n
    return c._replace(player=nxt)


def won_auction(setup: DealSetup[AuctionTables], c: AuctionCore) -> AuctionCore:
    """The auction is won: the declarer takes the widow, unless it waits face down
    (`widow_waits_at_minimum`); then he names trumps."""
    t = setup.tables
    c = c._replace(stage=Phase.TRUMP, player=c.declarer)
    if t.contract.widow and not widow_waits_at_minimum(t.auction, t.contract, c.bid):
        return take_widow(c)
    return c


def take_widow(c: AuctionCore) -> AuctionCore:
    """The declarer takes the widow into his hand, face up: its cards are known to be his."""
    d = c.declarer
    widow_mask = sum(1 << x for x in c.widow)
    hands = with_item(c.hands, d, c.hands[d] | widow_mask)
    known = with_item(c.known, d, c.known[d] | widow_mask)
    return c._replace(hands=hands, known=known, widow=(), widow_shown=True)


def after_trump(setup: DealSetup[AuctionTables], c: AuctionCore) -> AuctionCore:
    """Trumps named: the partners pass cards (`ContractRules.pass_cards`), or the melds begin."""
    rules = setup.rules
    if setup.tables.contract.pass_cards and rules.partnership:
        return c._replace(stage=Phase.GIVE, player=(c.declarer + 2) % rules.players, give_step=1)
    return start_melds(setup, c)


def give(setup: DealSetup[AuctionTables], c: AuctionCore, combo: tuple[int, ...]) -> AuctionCore:
    """The player to act passes the cards of faces ``combo`` to `give_receiver`."""
    rules = setup.rules
    giver = c.player
    to = give_receiver(c, rules.players)
    hand = c.hands[giver]
    cards = []
    for f in combo:
        pid = pick(rules.deck, f, hand, c.known[giver])
        cards.append(pid)
        hand &= ~(1 << pid)
    moved = sum(1 << x for x in cards)
    hands = with_item(with_item(c.hands, giver, hand), to, c.hands[to] | moved)
    # the others do not see which cards went: none of the giver's cards stays known to be held
    c = c._replace(hands=hands, given=(*c.given, *cards), known=with_item(c.known, giver, 0))
    if c.give_step == 1:
        return c._replace(player=c.declarer, give_step=2)
    return start_melds(setup, c._replace(give_step=0))


def start_melds(setup: DealSetup[AuctionTables], c: AuctionCore) -> AuctionCore:
    """The meld phase: the declarer melds first, then (`ContractRules.melders`) the others."""
    n = setup.rules.players
    if setup.tables.contract.melders == "declarer":
        order: tuple[int, ...] = (c.declarer,)
    else:
        order = tuple((c.declarer + i) % n for i in range(n))
    return c._replace(stage=Phase.MELD, player=order[0], to_meld=order)


def meld(setup: DealSetup[AuctionTables], c: AuctionCore, meaning: AuctionActionMeaning) -> AuctionCore:
    """``meld <kind> <cards>`` lays one meld; ``meld best`` the best combination (`best_melds`),
    and ends the player's melds, as ``pass`` does."""
    rules = setup.rules
    p = c.player
    if meaning.laid is not None:
        return show(setup, c, (*c.laid[p], meaning.laid), done=False)
    if meaning.kind == _BEST_MELD:
        _points, best = best_melds(rules.melds, rules.meld_instances[c.trump], face_counts(rules.deck, c.hands[p]))
        return show(setup, c, best, done=True)
    return next_melder(setup, c)


def show(setup: DealSetup[AuctionTables], c: AuctionCore, laid: tuple[Laid, ...], *, done: bool) -> AuctionCore:
    """Lay down ``laid`` for the current player: the cards become known."""
    rules = setup.rules
    p = c.player
    shown = 0
    known = c.known[p]
    for f, count in meld_need(rules.melds.kinds, laid).items():
        # known copies first (a shown widow card): what the others know then grows the
        # same way whatever copies are concealed
        copies = card_ids(c.hands[p] & rules.deck.face_masks[f])
        for pid in sorted(copies, key=lambda x: not (known >> x) & 1)[:count]:
            shown |= 1 << pid
    c = c._replace(laid=with_item(c.laid, p, laid), known=with_item(c.known, p, c.known[p] | shown))
    if done:
        return next_melder(setup, c)
    return c


def next_melder(setup: DealSetup[AuctionTables], c: AuctionCore) -> AuctionCore:
    """The next player melds; after the last, the burial, the concession (when
    `may_concede_after_melds`) or the tricks."""
    rest = c.to_meld[1:]
    if rest:
        return c._replace(to_meld=rest, player=rest[0])
    c = c._replace(to_meld=())
    if setup.tables.contract.bury:
        return c._replace(stage=Phase.DISCARD, player=c.declarer)
    if may_concede_after_melds(setup.rules, setup.tables.contract, c):
        return c._replace(stage=Phase.CONCEDE, player=c.declarer)
    return start_play(setup, c)


def bury(setup: DealSetup[AuctionTables], c: AuctionCore, combo: tuple[int, ...]) -> AuctionCore:
    """Bury ``combo`` (faces). What stays public: the copies the declarer's melds need,
    when the rules keep them out of the burial (`burial_keeps_melds`); every other card (the
    widow's too) may be among the hidden buried cards, so it is no longer known to be held."""
    d = c.declarer
    hand = c.hands[d]
    rules = setup.rules
    contract = setup.tables.contract
    keep = 0
    if not contract.bury_melded:  # (written out: `burial_keeps_melds` needs the spare cards)
        kinds = rules.melds.kinds
        if burial_keeps_melds(contract, spare_counts(kinds, c.laid[d], face_counts(rules.deck, hand)), len(combo)):
            for f, n in meld_need(kinds, c.laid[d]).items():
                for pid in card_ids(hand & c.known[d] & rules.deck.face_masks[f])[:n]:
                    keep |= 1 << pid
    cards = []
    for f in combo:
        pid = pick(rules.deck, f, hand & ~keep)
        cards.append(pid)
        hand &= ~(1 << pid)
    known = with_item(c.known, d, keep)
    return start_play(setup, c._replace(hands=with_item(c.hands, d, hand), known=known, buried=tuple(cards)))
