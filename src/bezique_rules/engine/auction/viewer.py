"""What one player of an auction game may know, derived per viewer: his view and the history as
he saw it, the worlds he cannot tell from the deal (`determinize`) and the renaming of hidden
cards they are built by (`relabel`)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from ...actions import _DISCARD, _GIVE, Action, Verb
from ...bits import lowest_bit
from ...cards import CardSet, Suit
from ...checks import check_seat
from ...deck import card_ids
from ...parts.melds import Laid, best_melds
from ...state.deal import DealSetup, Move, PlayerView, TableMeld, relabel_masks
from ...state.knowledge import replayed, sample_hidden, swap_walk
from .declare import burial_keeps_melds, face_counts, meld_need
from .record import AuctionCore
from .tables import AuctionTables

if TYPE_CHECKING:
    from .deal import AuctionDeal

_DealT = TypeVar("_DealT", bound="AuctionDeal")

_DETERMINIZE_TRIES = 2_000
"""How many deals of the hidden cards `determinize` tries for one that fits the melds and burial
seen before it walks from the deal itself (`knowledge.swap_walk`)."""
_WALK_STEPS = 400
"""How many swaps that walk tries."""


class _MeldTimeHand(NamedTuple):
    """What `determinize` checks of a guessed hand of another player: his hand when he melded,
    rebuilt from the guess, must explain what everyone saw."""

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


# -- the view -----------------------------------------------------------------------------------


def public_move(setup: DealSetup[AuctionTables], c: AuctionCore, move: Move, viewer: int) -> tuple[int, Action]:
    """``move`` as ``viewer`` saw it: another player's burial, and cards passed between two
    other players, without their cards."""
    who, action_id = move
    action = setup.tables.actions.actions[action_id]
    if action.verb is Verb.DISCARD and who != viewer:
        return who, Action(Verb.DISCARD)
    if action.verb is Verb.GIVE and who != viewer:
        receiver = c.declarer if who != c.declarer else (who + 2) % setup.rules.players
        if viewer != receiver:
            return who, Action(Verb.GIVE)
    return who, action


def player_view(deal: AuctionDeal, player: int) -> PlayerView:
    """What ``player`` may know: own hand, the widow once turned up, every meld laid down and
    card played; never the other hands, a face-down widow or buried cards."""
    setup = deal.setup
    rules = setup.rules
    n = rules.players
    check_seat(player, n)  # a real int seat (not a bool): DealError / DealTypeError
    c = deal.core
    deck = rules.deck
    cards = deck.cards
    kinds = rules.melds.kinds
    empty = CardSet(())
    return PlayerView(
        player=player,
        phase=c.stage,
        current_player=deal.current_player,
        dealer=setup.dealer,
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
        history=tuple(public_move(setup, c, mv, player) for mv in c.moves),
        maker=deal.declarer,
        buried=tuple(CardSet(cards[x] for x in c.buried)) if player == c.declarer else (),
        rules=rules,
        legal=deal.legal_actions() if deal.current_player == player else (),
    )


# -- the worlds a player cannot tell apart ------------------------------------------------------


def exclusions(setup: DealSetup[AuctionTables], c: AuctionCore) -> list[int]:
    """Per player: cards the play shows they did not hold (from the tricks so far)."""
    rules = setup.rules
    n = rules.players
    out = [0] * n
    if c.trump < 0:
        return out
    table = rules.trump_tables[c.trump]
    policy = rules.playoff_policy
    actions = setup.tables.actions.actions
    deck = rules.deck
    trick: list[int] = []
    seats: list[int] = []
    played = 0
    for who, action_id in c.moves:
        a = actions[action_id]
        if a.verb is not Verb.PLAY:
            continue
        # a physical id for the played card (the copies of a face are interchangeable here)
        pid = lowest_bit(deck.face_masks[deck.face_index[a.cards[0]]] & ~played)
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


def determinize(deal: _DealT, player: int, rng: random.Random) -> _DealT:
    """A world ``player`` cannot tell from ``deal``: the cards he cannot see dealt again among
    their places (the other players' cards nobody has seen, a face-down widow, a burial he did
    not make), and the history made again on the deck that gives.

    What stays: every card known to all (melded and still needed, a shown widow's until
    the burial), and the cards passed by or to ``player``, where they went. What the
    history shows of the hidden cards is honoured: the voids the duties show in the play
    (`exclusions`), and for every player who melded, his hand when he melded (his hand
    now, the cards he has played since, his burial) must hold the cards of his melds, make
    exactly the melds ``meld best`` laid, and leave spare the cards he buried when the
    rules keep melded cards out of the burial (`hidden_checks`, `fits`).

    What it samples: uniformly among the deals of the hidden cards that meet all that, by
    rejection (`knowledge.sample_hidden` for the voids, then the meld checks), up to
    `_DETERMINIZE_TRIES` deals; when none fits (late in a deal whose melds pin most of
    the hidden cards) a random walk of swaps from the deal itself, each keeping every
    check (`knowledge.swap_walk`: every step is a consistent deal; it is not exactly
    uniform). The deck holds two or four copies of each card and a record names cards,
    not copies, so the world is the replay of its history on its deck
    (`knowledge.replayed`): ``replay(record_of(world)) == world``.
    """
    setup = deal.setup
    rules = setup.rules
    n = rules.players
    c = deal.core
    fixed = list(c.known)
    # cards this player passed to the declarer (or got back) are known to him
    if c.given and player in (c.declarer, (c.declarer + 2) % n):
        for x in c.given:
            for q in range(n):
                if q != player and (c.hands[q] >> x) & 1:
                    fixed[q] |= 1 << x
    excluded = exclusions(setup, c)
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
    checks = hidden_checks(setup, c, player)

    def explains(dealt: list[list[int]]) -> bool:
        """Whether the hidden cards dealt so explain every meld and burial seen."""
        hands = list(c.hands)
        for q, new in zip(owners, dealt):
            hands[q] = (c.hands[q] & fixed[q]) | sum(1 << x for x in new)
        buried = dealt[-1] if buried_hidden else list(c.buried)
        return all(fits(setup, c, check, hands[check.player], buried) for check in checks)

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
    world = relabel(deal, perm)
    return replayed(world, world.setup.deck_order)


def hidden_checks(setup: DealSetup[AuctionTables], c: AuctionCore, viewer: int) -> list[_MeldTimeHand]:
    """What a guessed hand must reproduce, for each other player who melded: the cards of his
    melds, the melds ``meld best`` laid, and the declarer's hidden burial (cards his melds did
    not need)."""
    t = setup.tables
    rules = setup.rules
    actions = t.actions.actions
    deck = rules.deck
    out = []
    for q in range(rules.players):
        if q == viewer:
            continue
        best = any(who == q and action_id == t.melds.best_id for who, action_id in c.moves)
        burial = q == c.declarer and bool(c.buried) and not t.contract.bury_melded
        if not (c.laid[q] or best or burial):
            continue
        played = [0] * deck.num_faces
        for who, action_id in c.moves:
            if who == q and actions[action_id].verb is Verb.PLAY:
                played[deck.face_index[actions[action_id].cards[0]]] += 1
        out.append(_MeldTimeHand(q, c.laid[q], tuple(played), best=best, burial=burial))
    return out


def fits(setup: DealSetup[AuctionTables], c: AuctionCore, check: _MeldTimeHand, hand: int, buried: list[int]) -> bool:
    """Whether a guessed ``hand`` (now) and burial agree with ``check``: his hand when he melded
    (``hand``, the cards played since, the burial for the declarer) holds the cards of his
    melds, makes exactly the melds ``meld best`` laid, and the burial was his to make
    (`burial_keeps_melds`)."""
    rules = setup.rules
    face_of = rules.deck.face_of
    counts = [n + p for n, p in zip(face_counts(rules.deck, hand), check.played)]
    if check.player == c.declarer:
        for x in buried:
            counts[face_of[x]] += 1
    need = meld_need(rules.melds.kinds, check.laid)
    if any(counts[f] < k for f, k in need.items()):
        return False
    if check.best and best_melds(rules.melds, rules.meld_instances[c.trump], counts)[1] != check.laid:
        return False
    if check.burial:
        spare = [n - need.get(f, 0) for f, n in enumerate(counts)]
        if burial_keeps_melds(setup.tables.contract, spare, len(buried)):  # else any cards may be buried
            return all(spare[face_of[x]] >= sum(1 for y in buried if face_of[y] == face_of[x]) for x in buried)
    return True


def relabel(deal: _DealT, perm: dict[int, int]) -> _DealT:
    """``deal`` with its physical cards renamed by ``perm`` (a permutation of physical ids; ids
    it leaves out stay), everywhere a card is named: the deck as dealt, the hands, the widow,
    the cards passed and buried (and the ``give`` and burial moves that name them), the known
    cards, the tricks and the cards won. Plays and melds name faces and stay (a permutation of
    cards nobody has seen leaves them as they are). The seed goes (the deck is no longer the
    seed's)."""
    setup = deal.setup
    rules = setup.rules
    c = deal.core
    t = setup.tables
    face_of = rules.deck.face_of

    def re(x: int) -> int:
        return perm.get(x, x)

    given = tuple(re(x) for x in c.given)
    buried = tuple(re(x) for x in c.buried)
    moves = list(c.moves)
    gives = [i for i, (_, action_id) in enumerate(moves) if t.meanings[action_id].kind == _GIVE]
    k = t.contract.pass_cards
    for g, i in enumerate(gives):
        combo = tuple(sorted(face_of[x] for x in given[g * k : (g + 1) * k]))
        moves[i] = (moves[i][0], t.cards.give_ids[combo])
    for i, (who, action_id) in enumerate(moves):
        if t.meanings[action_id].kind == _DISCARD:
            moves[i] = (who, t.cards.bury_ids[tuple(sorted(face_of[x] for x in buried))])
    order = tuple(re(x) for x in setup.deck_order)
    core = c._replace(
        hands=relabel_masks(c.hands, perm), widow=tuple(re(x) for x in c.widow), given=given,
        known=relabel_masks(c.known, perm),
        buried=buried, trick=tuple(re(x) for x in c.trick), last_trick=tuple(re(x) for x in c.last_trick),
        won=relabel_masks(c.won, perm), moves=tuple(moves),
    )  # fmt: skip
    return type(deal)(DealSetup(rules, order, None, setup.dealer, t), core)
