"""What a Euchre player may know, derived per viewer: his view of a deal (`view_of`: the moves
as he sees them, his hand unless he is blind), and the worlds he cannot tell from it
(`world_for`: the hidden cards dealt again, consistent with the voids, the dealer's exchange
and the farmer's-hand decisions he saw). `EuchreDeal.view` and `EuchreDeal._determinize` call
these."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

from ...actions import Action, ActionKind, Verb
from ...bits import lowest_bit
from ...cards import CardSet, Suit
from ...checks import check_seat
from ...deck import card_ids
from ...parts.euchre import OrderUp
from ...rules.ruleset import part_of
from ...state.deal import DealSetup, Phase, PlayerView, relabel_masks, relabel_seq
from ...state.knowledge import sample_hidden
from .legal import _legal_of, asks_farmer
from .record import EuchreState

if TYPE_CHECKING:
    from .deal import EuchreDeal

DealT = TypeVar("DealT", bound="EuchreDeal")

_FARMER_GUESSES = 1000  # guesses tried for one consistent with who held a farmer's hand


def history_seen(deal: DealT, viewer: int) -> tuple[tuple[int, Action], ...]:
    """The moves as ``viewer`` sees them: the dealer's discard without its card, and no
    other player's farmer's-hand ``pass`` (only a holder is asked, so his declining
    would show what he holds); a farmer's swap is shown."""
    m = deal.setup.tables
    actions = m.actions.actions
    kinds = m.action_table.kind
    asked = deal.core.bidding.asked
    seen = []
    for i, (who, action_id) in enumerate(deal.moves):
        if who != viewer:
            kind = kinds[action_id]
            if kind is ActionKind.DISCARD:
                seen.append((who, Action(Verb.DISCARD)))
                continue
            if i < asked and kind is ActionKind.PASS:
                continue
        seen.append((who, actions[action_id]))
    return tuple(seen)


def is_blind(deal: DealT, player: int) -> bool:
    """Whether ``player`` has not looked at his hand yet: the dealer naming a suit for a
    turned Benny does so before looking (the British rule), unless a farmer's-hand decision
    (a house rule, asked first) already showed him his cards."""
    c = deal.core
    return c.stage is Phase.TRUMP and player == deal.setup.dealer and all(who != player for who, _ in c.moves)


def view_of(deal: DealT, player: int) -> PlayerView:
    """What ``player`` may know: own hand, the turn-up, every played card; never the
    other hands, the kitty or the dealer's discard."""
    rules = deal.setup.rules
    n = rules.players
    check_seat(player, n)  # a real int seat (not a bool): DealError / DealTypeError
    unseen = past_hidden_decisions(deal, player)
    if unseen is not deal:
        return view_of(unseen, player)
    c = deal.core
    deck = rules.deck
    cards = deck.cards
    known = [0] * n
    if turn_up_kept(deal):
        known[deal.setup.dealer] = c.hands[deal.setup.dealer] & (1 << c.kitty.turn_up)
    empty = CardSet(())
    return PlayerView(
        player=player,
        phase=c.stage,
        current_player=deal.current_player,
        dealer=deal.setup.dealer,
        hand=empty if is_blind(deal, player) else CardSet(deck.cards_of(c.hands[player])),
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
        history=history_seen(deal, player),
        maker=deal.maker,
        alone=None if c.contract.alone < 0 else c.contract.alone,
        lone_defender=None if c.contract.defender < 0 else c.contract.defender,
        sitting_out=deal.sitting_out,
        buried=(cards[c.kitty.buried],) if player == deal.setup.dealer and c.kitty.buried >= 0 else (),
        rules=rules,
        legal=deal.legal_actions() if deal.current_player == player else (),
    )


def past_hidden_decisions(deal: DealT, player: int) -> DealT:
    """This deal as ``player`` sees it while another player decides on a farmer's hand:
    every pending such decision of another player made as a ``pass`` (which nobody else
    sees). Only a holder is asked, so showing him as the player to act would tell what
    he holds; ``player`` sees the deal as if nobody held one until a swap is shown."""
    state = deal
    pass_id = deal.setup.tables.ids.pass_id
    while True:
        s = state.core
        if not (s.player != player and asks_farmer(s)):
            return state
        state = state._apply_id(pass_id)


def turn_up_kept(deal: DealT) -> bool:
    """Whether everyone knows the dealer holds the turn-up: he took it and could not
    discard it (``dealer_may_discard_upcard=False``, or a pick-up he could decline)."""
    bidding = part_of(deal.setup.rules, deal.setup.rules.bidding, OrderUp)
    return deal.core.kitty.buried >= 0 and bidding.taken_turn_up_shown


def void_masks(deal: DealT) -> list[int]:
    """Per player: cards they cannot hold, shown by not following suit."""
    rules = deal.setup.rules
    n = rules.players
    c = deal.core
    if c.contract.trump < 0:
        return [0] * n
    table = rules.trump_tables[c.contract.trump]
    voids = [0] * n
    # replay the tricks from the moves: plays only
    actions = deal.setup.tables.actions.actions
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


def world_for(deal: DealT, player: int, rng: random.Random) -> DealT:
    """A world ``player`` cannot tell from this deal: the cards he cannot see (the other
    hands, the kitty, a discard he did not make) dealt again among their places.

    What it samples: uniformly among the deals that keep what the history shows, by
    rejection (`knowledge.sample_hidden`): the voids shown by not following the effective
    suit (`void_masks`); the turn-up where the dealer's exchange put it (kept, or, when
    nobody can tell, his discard as often as each of his cards: `exchange_guess`); a
    shown farmer's swap. Under the farmer's-hand house rule a world must also show the
    same moves: a deal that gives another player a farmer's hand has him decline it
    unseen (`with_hidden_passes`), and a guess is kept only when the world shows
    ``player`` what he sees (rejection again: uniform among the consistent deals). When
    no guess fits in ``_FARMER_GUESSES`` tries, a walk of swaps from the deal itself,
    each kept only when the world still fits (`swap_walk`). Never the deal itself."""
    if part_of(deal.setup.rules, deal.setup.rules.bidding, OrderUp).farmers_hand == "off":
        return guess(deal, player, rng)
    # Only a holder of a farmer's hand is asked whether to swap it; the others do not see
    # his ``pass``. A guess replays its deal with a hidden pass for each other holder its
    # hands make, and is kept when the viewer sees it as he sees this deal (rejection
    # sampling: a shown swap pins who held such a hand; a pending decision of another
    # player is not shown, see `past_hidden_decisions`).
    seen = view_of(deal, player)
    for _ in range(_FARMER_GUESSES):
        world = with_hidden_passes(guess(deal, player, rng), player)
        if world is not None and world.view(player) == seen:
            return world
    # Every guess failed (vanishingly rare once the hidden passes are read right): walk
    # from the deal itself, by swaps of two hidden cards kept when the world still shows
    # ``player`` what he sees. A deal no swap keeps is the only world: an equal copy.
    return swap_walk(deal, player, seen, rng)


def swap_walk(deal: DealT, player: int, seen: PlayerView, rng: random.Random) -> DealT:
    """A random walk over the worlds ``player`` sees as ``seen``, from this deal: each step
    swaps two cards hidden from him in different places (not breaking a shown void) and
    keeps the swap when the world, its hidden farmer's-hand passes made again, replays and
    shows him ``seen`` (`knowledge.swap_walk`'s walk, with the replay as the check)."""
    s = deal.core
    kitty = s.kitty
    n = deal.setup.rules.players
    voids = void_masks(deal)
    shown = 1 << kitty.turn_up  # the turn-up, the swapped farmer's hand, his own discard
    if kitty.farmer >= 0:
        shown |= sum(1 << x for x in kitty.cards[:3])
    if player == deal.setup.dealer and kitty.buried >= 0:
        shown |= 1 << kitty.buried
    places: list[tuple[int, int]] = []  # (hidden card, its place: a seat, or n for the kitty)
    for q in range(n):
        if q != player:
            places += [(x, q) for x in card_ids(s.hands[q] & ~shown)]
    places += [(x, n) for x in kitty.cards if not (shown >> x) & 1]
    if len(places) < 2:
        return relabelled(deal, {})
    world = relabelled(deal, {})
    for _ in range(_FARMER_GUESSES // 10):
        (a, qa), (b, qb) = rng.sample(places, 2)
        if qa == qb or (qa < n and (voids[qa] >> b) & 1) or (qb < n and (voids[qb] >> a) & 1):
            continue
        swapped = with_hidden_passes(relabelled(world, {a: b, b: a}), player)
        if swapped is not None and swapped.view(player) == seen:
            world = swapped
    return world


def relabelled(deal: DealT, perm: dict[int, int]) -> DealT:
    """This deal with its cards renamed by ``perm`` (a permutation of physical ids; ids it
    leaves out stay) wherever a card is named: the deck as dealt, the hands, the tricks,
    the cards won, the kitty (its turn-up, the dealer's discard), and the moves that name
    a card (a play, the dealer's discard, a farmer's swap: their ids are read again from
    the renamed cards). The seed goes (the deck is no longer the seed's). The legal
    actions are worked out again."""
    setup = deal.setup
    s = deal.core
    m = setup.tables
    face_of = setup.rules.deck.face_of
    ids = m.ids

    def re(x: int) -> int:
        return perm.get(x, x)

    kitty = s.kitty
    new_kitty = kitty._replace(
        cards=tuple(re(x) for x in kitty.cards), turn_up=re(kitty.turn_up),
        buried=re(kitty.buried) if kitty.buried >= 0 else -1,
    )  # fmt: skip
    swap_of = {swap.faces: swap.action_id for swap in ids.farmer}
    moves = []
    for who, action_id in s.moves:
        kind = m.action_table.kind[action_id]
        if kind is ActionKind.PLAY or kind is ActionKind.DISCARD:
            table = ids.play if kind is ActionKind.PLAY else ids.discard
            face = ids.args[action_id]
            pid = re(lowest_bit(setup.rules.deck.face_masks[face]))
            action_id = table[face_of[pid]]
        elif kind is ActionKind.FARMER_SWAP and new_kitty.farmer == who:
            action_id = swap_of[frozenset(face_of[x] for x in new_kitty.cards[:3])]
        moves.append((who, action_id))
    state = s._replace(
        hands=relabel_masks(s.hands, perm), trick=tuple(re(x) for x in s.trick), moves=tuple(moves),
        won=relabel_masks(s.won, perm),
        last_trick=tuple(re(x) for x in s.last_trick), kitty=new_kitty,
    )  # fmt: skip
    order = relabel_seq(setup.deck_order, perm)
    new_setup = DealSetup(setup.rules, order, None, setup.dealer, m)
    return deal._make(new_setup, state, _legal_of(new_setup, state))


def with_hidden_passes(deal: DealT, player: int) -> DealT | None:
    """This deal replayed on its own deck with the moves ``player`` sees, each farmer's-hand
    decision of another player not among them made as a ``pass`` (None: they do not fit)."""
    setup = deal.setup
    m = setup.tables
    c = deal.core
    kinds = m.action_table.kind
    hidden = [
        i < c.bidding.asked and who != player and kinds[a] is ActionKind.PASS for i, (who, a) in enumerate(c.moves)
    ]
    seen = [mv for mv, h in zip(c.moves, hidden) if not h]
    state = type(deal)._dealt(setup.rules, setup.deck_order, setup.seed, setup.dealer)
    k = 0
    while True:
        now = state.core
        seat = now.player
        asked = seat != player and asks_farmer(now)
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


def exchange_guess(deal: DealT, player: int, dealer_void: int, rng: random.Random) -> EuchreState:
    """This deal's core, or one just as consistent with what ``player`` sees in which the
    dealer kept or discarded the turn-up he took: when ``player`` cannot tell (the dealer
    may discard it and his discard is hidden) and the turn-up is not played, it is his
    discard with a chance of one in his hand size plus one (as likely as each of his
    cards), or never when he has shown he holds no card of its suit (``dealer_void``)."""
    c = deal.core
    dealer = deal.setup.dealer
    kitty = c.kitty
    up = 1 << kitty.turn_up
    hand = c.hands[dealer]
    in_hand = bool(hand & up)
    if player == dealer or kitty.buried < 0 or turn_up_kept(deal) or not (in_hand or kitty.buried == kitty.turn_up):
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


def guess(deal: DealT, player: int, rng: random.Random) -> DealT:
    """A deal consistent with what ``player`` sees (but for who held a farmer's hand)."""
    rules = deal.setup.rules
    n = rules.players
    voids = void_masks(deal)
    c = exchange_guess(deal, player, voids[deal.setup.dealer], rng)
    k = c.kitty
    dealer = deal.setup.dealer
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
    blind = is_blind(deal, player)  # his own hand is as unknown to him as the others'
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
        return swap_walk(deal, player, view_of(deal, player), rng)
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
    order = relabel_seq(deal.setup.deck_order, _as_permutation(perm))
    moves = c.moves
    buried = k.buried
    if buried >= 0 and player != dealer:
        buried = perm.get(buried, buried)
        m = deal.setup.tables
        hidden_discard = m.ids.discard[rules.deck.face_of[buried]]
        moves = tuple(
            (who, hidden_discard) if m.action_table.kind[action_id] is ActionKind.DISCARD else (who, action_id)
            for who, action_id in moves
        )
    core = c._replace(hands=tuple(hands), kitty=k._replace(cards=kitty, buried=buried), moves=moves)
    return type(deal)(DealSetup(rules, order, None, dealer, deal.setup.tables), core)


def _as_permutation(perm: dict[int, int]) -> dict[int, int]:
    """Complete a partial map of hidden cards into a permutation of them."""
    sources = set(perm)
    targets = set(perm.values())
    free_targets = sorted(sources - targets)
    free_sources = sorted(targets - sources)
    full = dict(perm)
    full.update(zip(free_sources, free_targets))
    return full
