"""Heuristic play for the closing games (Sixty-six, Schnapsen): the ``marriage`` engine's strategy.

Read from the view alone (cards won and marriages are public):

* claim "out" as soon as the points reach the target, never falsely;
* exchange the low trump for the turn-up whenever allowed;
* announce the best marriage (in trumps first) and lead its queen;
* close the stock (``"full"`` strength only) when the points so far and the sure tricks in
  hand (the top trumps, with the aces and tens behind them) reach the target;
* lead a low plain card while the stock is open; follow by winning an ace or ten cheaply,
  else throw the cheapest card that is neither a trump nor half of a marriage; once the play
  is strict, win with the cheapest winning card, or throw the cheapest.

The weaker strengths play a random move (never a false claim) now and then: a quarter of the
time for ``"medium"``, half for ``"weak"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Verb
from ..cards import Card, Rank
from ..rules.ruleset import RuleSet
from ..state.deal import DealState, Phase, PlayerView
from .strategy import AgentStrategy, Rollout, RolloutKind, Strength
from .trickplay import _Reader

__all__ = ["STRATEGY", "closing_game_action", "view_points"]


def view_points(view: PlayerView, rules: RuleSet, player: int) -> int:
    """The points toward 66 that ``player`` has as ``view`` shows them: cards won, and the
    marriages he announced once he has won a trick (the last-trick bonus not included)."""
    values = rules.card_values
    deck = rules.deck
    won = view.won[player]
    points = sum(values[deck.cards.index(c)] for c in won)
    if len(won):
        points += sum(m.points for m in view.melds if m.player == player)
    return points


def _target(rules: RuleSet) -> int:
    parts = rules.closing_game
    return parts.out.target if parts is not None else 66


def closing_game_action(view: PlayerView, rules: RuleSet, rng: random.Random, *, close: bool = True) -> Action:
    """The heuristic action of a closing game (see the module docstring).

    Raises:
        ValueError: the player has no legal action.
    """
    legal = view.legal_actions()
    if not legal:
        raise ValueError("no legal action")
    by_verb: dict[Verb, list[Action]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    me = view.player
    target = _target(rules)
    mine = view_points(view, rules, me)
    if Verb.OUT in by_verb and mine >= target:
        return by_verb[Verb.OUT][0]
    if Verb.EXCHANGE in by_verb:
        return by_verb[Verb.EXCHANGE][0]
    reader = _Reader(rules)
    plays = by_verb.get(Verb.PLAY, [])
    if not view.trick and Verb.MELD in by_verb:
        return max(by_verb[Verb.MELD], key=lambda a: (a.meld == "royal-marriage", reader.value(a.cards[0])))
    if not view.trick and plays and len(plays) <= 2 and len(by_verb) <= 2 and Verb.MELD not in by_verb:
        marriage = [a for a in plays if a.cards[0].rank in (Rank.KING, Rank.QUEEN)]
        if len(marriage) == 2 and marriage[0].cards[0].suit is marriage[1].cards[0].suit:  # after announcing
            return next(a for a in marriage if a.cards[0].rank is Rank.QUEEN)
    if close and Verb.CLOSE in by_verb and mine + _sure_points(view, reader) >= target:
        return by_verb[Verb.CLOSE][0]
    return _play(view, reader, plays)


def _sure_points(view: PlayerView, reader: _Reader) -> int:
    """A cautious count of what the hand's top trumps will bring in once play is strict."""
    trump = view.trump
    trumps = sorted((c for c in view.hand if reader.is_trump(c, trump)), key=lambda c: -reader.power(c, trump))
    seen = {c for w in view.won for c in w} | set(view.hand)
    order = [
        c for c in sorted(reader.rules.deck.faces, key=lambda c: -reader.power(c, trump)) if reader.is_trump(c, trump)
    ]
    sure = 0
    for card, top in zip(trumps, (c for c in order if c not in seen or c in view.hand)):
        if card != top:
            break
        sure += reader.value(card) + 6  # the card, and a little of what the opponent must give
    return sure


def _play(view: PlayerView, reader: _Reader, plays: Sequence[Action]) -> Action:
    trump = view.trump
    table = reader.table(trump)
    cards = [a.cards[0] for a in plays]
    by_card = dict(zip(cards, plays))
    value = reader.value
    power = {c: reader.power(c, trump) for c in cards}
    hand = set(view.hand)

    def in_marriage(c: Card) -> bool:
        other = Rank.QUEEN if c.rank is Rank.KING else Rank.KING if c.rank is Rank.QUEEN else None
        return other is not None and Card(c.suit, other) in hand

    def cheap(c: Card) -> tuple[int, int, int, int]:
        return (reader.is_trump(c, trump), in_marriage(c), value(c), power[c])

    strict = view.phase is Phase.PLAYOFF
    if view.trick:
        led = view.trick[0]
        beating = [c for c in cards if table.beats(reader.pid(c), reader.pid(led))]
        worth = value(led)
        if beating and (strict or worth >= 10 or (worth >= 3 and any(not reader.is_trump(c, trump) for c in beating))):
            return by_card[min(beating, key=lambda c: (reader.is_trump(c, trump), value(c), power[c]))]
        return by_card[min(cards, key=cheap)]
    if strict:
        trumps = [c for c in cards if reader.is_trump(c, trump)]
        if trumps:
            return by_card[max(trumps, key=lambda c: power[c])]
        aces = [c for c in cards if c.rank is Rank.ACE]
        if aces:
            return by_card[aces[0]]
    return by_card[min(cards, key=cheap)]


def _choose(view: PlayerView, rng: random.Random, strength: Strength) -> Action:
    """The heuristic at a strength, read from the view alone (the weaker ones play a random
    move now and then, never a false "out")."""
    blunders = 0.0 if strength == "full" else 0.25 if strength == "medium" else 0.5
    if blunders and rng.random() < blunders:
        legal = [a for a in view.legal_actions() if a.verb is not Verb.OUT] or list(view.legal_actions())
        return legal[rng.randrange(len(legal))]
    return closing_game_action(view, view.rules, rng, close=strength == "full")


def _reward_scale(rules: RuleSet) -> float:
    return 2.0


def _heuristic_rollout(state: DealState, rng: random.Random) -> int:
    """The full heuristic's action id (read from the acting player's view)."""
    player = state.current_player
    assert player is not None  # rollouts stop at the end of the deal
    return state.rules.action_id(closing_game_action(state.view(player), state.rules, rng))


def _fast_rollout(state: DealState, rng: random.Random) -> int:
    """A random card, but "out" as soon as the points allow it and never falsely."""
    player = state.current_player
    assert player is not None
    view = state.view(player)
    legal = view.legal_actions()
    out = [a for a in legal if a.verb is Verb.OUT]
    if out and view_points(view, state.rules, player) >= _target(state.rules):
        return state.rules.action_id(out[0])
    plays = [a for a in legal if a.verb is Verb.PLAY] or [a for a in legal if a.verb is not Verb.OUT] or list(legal)
    return state.rules.action_id(plays[rng.randrange(len(plays))])


def _rollouts(kind: RolloutKind) -> Rollout | None:
    return _heuristic_rollout if kind == "heuristic" else _fast_rollout if kind == "fast" else None


def _ranking(state: DealState, rng: random.Random) -> list[int]:
    """The full heuristic's action first, then the other actions that are not a false claim
    (declarations and closing before cards)."""
    player = state.current_player
    assert player is not None
    view = state.view(player)
    rules = state.rules
    favourite = rules.action_id(closing_game_action(view, rules, rng))
    honest = view_points(view, rules, player) >= _target(rules)
    rest = [a for a in view.legal_actions() if a.verb is not Verb.OUT or honest]
    rng.shuffle(rest)
    rest.sort(key=lambda a: a.verb is Verb.PLAY)
    ids = [rules.action_id(a) for a in rest]
    return [favourite, *(i for i in ids if i != favourite)]


STRATEGY = AgentStrategy(
    "marriage",
    lambda _world, view, rng, strength: _choose(view, rng, strength),
    _reward_scale,
    rollouts=_rollouts,
    ranking=_ranking,
    view_heuristic=_choose,
)
"""The computer players' strategy in the closing games."""
