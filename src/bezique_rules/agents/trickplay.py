"""Heuristic play for the games without a stock: the Pinochle auction presets and Euchre.

These heuristics read the player's view (his hand, the trick, the trump, the
bid, the melds on the table) and the rule set, and choose by the verbs of the
legal actions, so they follow every phase an engine offers:

* Pinochle auctions: bid (one step at a time) while the estimate of the hand
  (its best meld under its best trump, a share of the counters growing with the
  trumps and aces held, a little for the widow or the partner) covers the bid;
  name the trump that makes that estimate; turn up the widow; concede when far
  short; give the partner trumps and aces, give back and bury low cards that are
  neither trumps nor counters; lay down the best melds.
* Euchre: order up or call the suit that gives the strongest hand (bowers,
  trumps, side aces), go alone with a very strong one, discard the weakest side
  card.
* Tricks (both): lead a side ace, or trumps when the contract is ours and the
  trumps are long, else a low card; follow with the cheapest card that wins,
  give counters to a partner who is winning, and throw the cheapest card when
  nothing wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TypeAlias

from ..actions import Action, Verb
from ..bits import lowest_bit
from ..cards import Card, Rank, Suit
from ..parts.auction import Auction, ContractScoring
from ..parts.melds import best_melds
from ..parts.trumps import NO_TRUMP, TrumpTable
from ..rules.ruleset import RuleSet
from ..state.deal import PlayerView
from .strategy import AgentStrategy, Strength

__all__ = ["AUCTION", "EUCHRE", "GENERIC", "contract_reward_scale", "euchre_action", "trick_game_action"]


class _Reader:
    """Card facts for one rule set: physical representatives, powers, points."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.deck = rules.deck
        self.values = rules.card_values

    def pid(self, card: Card) -> int:
        mask = self.deck.face_masks[self.deck.face(card)]
        return lowest_bit(mask)

    def table(self, trump: Suit | None) -> TrumpTable:
        return self.rules.trump_tables[trump.value if trump is not None else NO_TRUMP]

    def value(self, card: Card) -> int:
        return self.values[self.pid(card)]

    def power(self, card: Card, trump: Suit | None) -> int:
        return self.table(trump).power[self.pid(card)]

    def is_trump(self, card: Card, trump: Suit | None) -> bool:
        return trump is not None and (self.table(trump).trump_mask >> self.pid(card)) & 1 == 1

    def counts(self, cards: Iterable[Card]) -> list[int]:
        counts = [0] * self.deck.num_faces
        for c in cards:
            counts[self.deck.face(c)] += 1
        return counts


_Bidding: TypeAlias = Callable[[PlayerView, "_Reader", Sequence[Action], set[Verb], random.Random], Action]
"""A bidding heuristic: the action for a player who has no card to play."""


def _action(view: PlayerView, rules: RuleSet, rng: random.Random, bidding: _Bidding) -> Action:
    legal = view.legal_actions()
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    reader = _Reader(rules)
    verbs = {a.verb for a in legal}
    if Verb.PLAY in verbs:
        return _play(view, reader, [a for a in legal if a.verb is Verb.PLAY])
    return bidding(view, reader, legal, verbs, rng)


def trick_game_action(view: PlayerView, rules: RuleSet, rng: random.Random) -> Action:
    """The heuristic action for a Pinochle auction game (or any trick game with an auction).

    Raises:
        ValueError: the player has no legal action.
    """
    return _action(view, rules, rng, _auction)


def euchre_action(view: PlayerView, rules: RuleSet, rng: random.Random) -> Action:
    """The heuristic action for a Euchre deal: order up or call from the strength of the
    trumps, then win tricks cheaply.

    Raises:
        ValueError: the player has no legal action.
    """
    return _action(view, rules, rng, _euchre)


def _heuristic(
    play: Callable[[PlayerView, RuleSet, random.Random], Action],
) -> Callable[[PlayerView, random.Random, Strength], Action]:
    """The heuristic at a strength, read from the view alone: the weaker ones play a random
    move now and then (a quarter of the time for ``"medium"``, half for ``"weak"``)."""

    def choose(view: PlayerView, rng: random.Random, strength: Strength) -> Action:
        blunders = 0.0 if strength == "full" else 0.25 if strength == "medium" else 0.5
        if blunders and rng.random() < blunders:
            legal = view.legal_actions()
            return legal[rng.randrange(len(legal))]
        return play(view, view.rules, rng)

    return choose


def _strategy(engine: str, play: Callable[[PlayerView, RuleSet, random.Random], Action]) -> AgentStrategy:
    """A strategy whose heuristic reads only the view (no world is sampled for it)."""
    heuristic = _heuristic(play)
    return AgentStrategy(
        engine,
        lambda _world, view, rng, strength: heuristic(view, rng, strength),
        contract_reward_scale,
        view_heuristic=heuristic,
    )


def contract_reward_scale(rules: RuleSet) -> float:
    """A typical winning margin of one deal settled by a contract (2 when nothing better is known)."""
    scoring = rules.scoring
    if isinstance(scoring, ContractScoring):
        minimum = rules.bidding.minimum if isinstance(rules.bidding, Auction) else 250
        if scoring.settlement == "units":
            return max(2.0, 2.0 * scoring.units(minimum) * (len(rules.sides) - 1))
        return float(max(20, minimum))
    return 2.0


AUCTION = _strategy("auction", trick_game_action)
"""The computer players' strategy in the auction games (Pinochle)."""
EUCHRE = _strategy("euchre", euchre_action)
"""The computer players' strategy in Euchre."""
GENERIC = _strategy("*", trick_game_action)
"""The strategy of an engine with none of its own: trick play read from the view."""


# -- tricks ------------------------------------------------------------------------------------


def _play(view: PlayerView, reader: _Reader, plays: Sequence[Action]) -> Action:
    rules = reader.rules
    trump = view.trump
    table = reader.table(trump)
    n = rules.players
    me = view.player
    cards = [a.cards[0] for a in plays]
    by_card = dict(zip(cards, plays))
    value = reader.value
    power = {c: reader.power(c, trump) for c in cards}
    sitting = len(view.sitting_out)
    if view.trick:
        trick = tuple(reader.pid(c) for c in view.trick)
        win_index = table.winner(trick)
        win_card = trick[win_index]
        winner_seat = view.seats_in_play(view.trick_leader)[win_index]
        partner_winning = rules.partnership and winner_seat % 2 == me % 2 and winner_seat != me
        last = len(view.trick) + 1 + sitting >= n
        beating = [c for c in cards if table.beats(reader.pid(c), win_card)]
        if partner_winning and (last or power[next(iter(cards))] >= 0):
            losers = [c for c in cards if c not in beating] or cards
            # give the partner points, but no trump or ace he does not need
            return by_card[max(losers, key=lambda c: (value(c) - 4 * reader.is_trump(c, trump), -power[c]))]
        if beating:
            return by_card[min(beating, key=lambda c: (power[c], value(c)))]
        return by_card[min(cards, key=lambda c: (value(c), power[c]))]
    # leading
    ours = view.maker is not None and (view.maker == me or (rules.partnership and view.maker % 2 == me % 2))
    trumps = [c for c in cards if reader.is_trump(c, trump)]
    hand_trumps = [c for c in view.hand if reader.is_trump(c, trump)]
    if ours and len(hand_trumps) >= 3 and trumps:
        return by_card[max(trumps, key=lambda c: power[c])]
    aces = [c for c in cards if c.rank is Rank.ACE and not reader.is_trump(c, trump)]
    if aces:
        return by_card[max(aces, key=lambda c: value(c))]
    side = [c for c in cards if not reader.is_trump(c, trump)] or cards
    return by_card[min(side, key=lambda c: (value(c), power[c]))]


# -- Pinochle auctions -------------------------------------------------------------------------


def _estimate(view: PlayerView, reader: _Reader, hand: Sequence[Card]) -> tuple[float, Suit]:
    """The best trump for ``hand`` and what the hand is worth with it (meld + counters)."""
    rules = reader.rules
    counts = reader.counts(hand)
    total = sum(rules.card_values) + rules.card_points.last_trick
    players = rules.players
    best = (-1.0, Suit.SPADES)
    for suit in Suit:
        meld, _laid = best_melds(rules.melds, rules.meld_instances[suit.value], counts)
        length = sum(1 for c in hand if c.suit is suit)
        aces = sum(1 for c in hand if c.rank is Rank.ACE)
        share = min(0.75, 1.0 / players + 0.035 * (length - len(hand) / 4) + 0.02 * aces)
        est = meld + share * total
        if est > best[0]:
            best = (est, suit)
    minimum = float(rules.bidding.minimum) if isinstance(rules.bidding, Auction) else 0.0
    if rules.partnership:
        best = (best[0] + 0.2 * minimum, best[1])
    if rules.contract is not None and rules.contract.widow:
        best = (best[0] + 0.06 * minimum, best[1])
    return best


def _auction(
    view: PlayerView, reader: _Reader, legal: Sequence[Action], verbs: set[Verb], rng: random.Random
) -> Action:
    hand = list(view.hand)
    me = view.player
    trump = view.trump
    by_verb: dict[Verb, list[Action]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    passing = by_verb.get(Verb.PASS, [])
    throw = by_verb.get(Verb.THROW_IN, [])
    if Verb.BID in verbs:
        est, _suit = _estimate(view, reader, hand)
        bids = sorted(by_verb[Verb.BID], key=lambda a: a.number or 0)
        if (bids[0].number or 0) <= est or not passing:
            return bids[0]
        return passing[0]
    high = _current_bid(view)
    if Verb.TRUMP in verbs:
        est, suit = _estimate(view, reader, hand)
        if throw and est < 0.75 * high:
            return throw[0]
        for a in by_verb[Verb.TRUMP]:
            if a.suit is suit:
                return a
        return by_verb[Verb.TRUMP][0]
    if Verb.MELD in verbs:
        best = [a for a in by_verb[Verb.MELD] if a.meld == "best"]
        if best:
            return best[0]
        return max(by_verb[Verb.MELD], key=lambda a: len(a.cards))
    if Verb.GIVE in verbs:
        gives = by_verb[Verb.GIVE]
        declarer = view.maker == me

        def worth(card: Card) -> float:
            v = float(reader.value(card))
            if reader.is_trump(card, trump):
                v += 12.0 + 0.1 * reader.power(card, trump)
            if card.rank is Rank.ACE:
                v += 6.0
            return v

        if declarer:
            return min(gives, key=lambda a: sum(worth(c) for c in a.cards))
        return max(gives, key=lambda a: sum(worth(c) for c in a.cards))
    if Verb.DISCARD in verbs:
        discards = by_verb[Verb.DISCARD]

        def keep(card: Card) -> float:
            v = -0.5 * reader.value(card)
            if reader.is_trump(card, trump):
                v += 15.0
            if card.rank is Rank.ACE:
                v += 4.0
            return v

        return min(discards, key=lambda a: sum(keep(c) for c in a.cards))
    if passing and throw and not (verbs - {Verb.PASS, Verb.THROW_IN}):
        # turn up the widow (pass) rather than concede, unless far short
        est, _suit = _estimate(view, reader, hand)
        if est < 0.6 * high and high:
            return throw[0]
        return passing[0]
    keep_playing = [a for a in legal if a.verb is not Verb.THROW_IN]
    return keep_playing[0] if keep_playing else legal[0]


def _current_bid(view: PlayerView) -> int:
    high = 0
    for _p, a in view.history:
        if a.verb is Verb.BID and a.number is not None:
            high = max(high, a.number)
    return high


# -- Euchre ------------------------------------------------------------------------------------


def _strength(reader: _Reader, hand: Sequence[Card], suit: Suit) -> float:
    """How strong ``hand`` is with ``suit`` trumps: trumps (the top ones more), side aces."""
    table = reader.table(suit)
    powers = sorted((table.power[reader.pid(c)] for c in hand if (table.trump_mask >> reader.pid(c)) & 1), reverse=True)
    top = sorted({table.power[p] for p in range(reader.deck.size) if (table.trump_mask >> p) & 1}, reverse=True)
    s = 0.0
    for p in powers:
        rank = top.index(p) if p in top else len(top)
        s += 1.0 + max(0.0, 1.0 - 0.3 * rank)
    for c in hand:
        if c.rank is Rank.ACE and not (table.trump_mask >> reader.pid(c)) & 1:
            s += 0.6
    return s


def _euchre(view: PlayerView, reader: _Reader, legal: Sequence[Action], verbs: set[Verb], rng: random.Random) -> Action:
    hand = list(view.hand)
    me = view.player
    by_verb: dict[Verb, list[Action]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    passing = by_verb.get(Verb.PASS, [])
    if Verb.ORDER_UP in verbs:
        up = view.turn_up
        suit = up.suit if up is not None and up.suit is not None else view.trump
        if suit is None:
            return passing[0] if passing else by_verb[Verb.ORDER_UP][0]
        s = _strength(reader, hand, suit)
        if view.dealer == me:
            s += 0.8
        elif view.dealer % 2 == me % 2:
            s += 0.4
        else:
            s -= 0.4
        if s >= 3.2 or not passing:
            alone = s >= 5.2
            for a in by_verb[Verb.ORDER_UP]:
                if a.alone == alone:
                    return a
            return by_verb[Verb.ORDER_UP][0]
        return passing[0]
    if Verb.CALL in verbs:
        calls = by_verb[Verb.CALL]
        suits = {a.suit for a in calls if a.suit is not None}
        best = max(suits, key=lambda s: (_strength(reader, hand, s), -s.value))
        s = _strength(reader, hand, best)
        if s >= 3.2 or not passing:
            alone = s >= 5.2
            for a in calls:
                if a.suit is best and a.alone == alone:
                    return a
            return next(a for a in calls if a.suit is best)
        return passing[0]
    if Verb.TRUMP in verbs:
        named = by_verb[Verb.TRUMP]
        return max(named, key=lambda a: _strength(reader, hand, a.suit) if a.suit is not None else 0.0)
    if Verb.ALONE in verbs:
        trump = view.trump
        s = _strength(reader, hand, trump) if trump is not None else 0.0
        if s >= 5.2:
            return by_verb[Verb.ALONE][0]
        return passing[0] if passing else by_verb[Verb.ALONE][0]
    if Verb.DISCARD in verbs:
        trump = view.trump
        singles = [a for a in by_verb[Verb.DISCARD] if len(a.cards) == 1]
        if not singles:
            return passing[0] if passing else by_verb[Verb.DISCARD][0]

        def cost(a: Action) -> tuple[int, int, int]:
            c = a.cards[0]
            same_suit = sum(1 for x in hand if x.suit is c.suit)
            return (int(reader.is_trump(c, trump)), int(c.rank is Rank.ACE), reader.power(c, trump) + 3 * same_suit)

        return min(singles, key=cost)
    return passing[0] if passing else legal[rng.randrange(len(legal))]
