"""What a player saw happen between two of his views: `what_happened`.

A front end that tells a player what happened (a log, a narration, sounds, an
animation) should be built on `what_happened(before, after)`: it reads the two
`PlayerView` values alone, so whatever it returns is something the player may know.
The moves come as that player saw them (the Euchre dealer's discard of another seat is
``discard``, without its card; cards passed between two other players are ``give``,
without the cards), and the rest is read from the views' public fields: the tricks
completed (from the cards played), the cards the player drew or received (his hand), the
cards other players showed (their known cards), trumps fixed, the phase and the scores.

>>> from bezique_rules import new_deal, what_happened
>>> deal = new_deal("bezique", seed=1)
>>> before = deal.view(1)
>>> deal = deal.apply("play AH").apply("play TS").apply("pass")
>>> for event in what_happened(before, deal.view(1)):
...     print(event)
player 0: play AH
player 1: play TS
player 0 wins the trick AH TS
player 0: pass
received from the stock: 8C
>>> what_happened(before, deal.view(1))[2]
TrickWon(player=0, cards=(Card('AH'), Card('TS')), leader=0)

The built-in games (``bezique-rules play`` and ``serve``) tell every move from these
events and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeAlias

import attrs

from ..actions import Action, Verb
from ..cards import Card, Suit, cards_without
from ..errors import ArgumentTypeError, DealError, quote
from .deal import Phase, PlayerView

__all__ = [
    "CardsReceived",
    "CardsShown",
    "DealOver",
    "Event",
    "Moved",
    "PhaseChanged",
    "ScoresChanged",
    "TrickWon",
    "TrumpsFixed",
    "what_happened",
]


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


@attrs.frozen
class Moved:
    """A move, as the viewer saw it: another player's hidden cards are left out of it
    (``discard`` rather than ``discard KH``)."""

    player: int
    """Who moved."""
    action: Action
    """The move as the viewer's `PlayerView.history` shows it."""

    def __str__(self) -> str:
        return f"player {self.player}: {self.action}"


@attrs.frozen
class TrickWon:
    """A trick completed: who won it, and its cards in play order."""

    player: int
    """The winner (who leads next)."""
    cards: tuple[Card, ...]
    """The trick's cards in play order."""
    leader: int
    """Who led it."""

    def __str__(self) -> str:
        return f"player {self.player} wins the trick {_cards(self.cards)}"


@attrs.frozen
class CardsReceived:
    """Cards that came into the viewer's hand (never another player's)."""

    cards: tuple[Card, ...]
    """The cards, in display order."""
    source: Literal["stock", "turn-up", "widow", "given", "other"]
    """Where they came from: ``stock`` (drawn after a trick), ``turn-up`` (the turned-up
    card: drawn as the last card, or taken up by the Euchre dealer), ``widow`` (the whole
    face-down pile taken up at once, as the auction's winner does), ``given`` (passed by
    another player), ``other`` (anything else: a hand picked up after naming trumps
    blind, a house rule's swap)."""

    def __str__(self) -> str:
        return f"received from the {self.source}: {_cards(self.cards)}"


@attrs.frozen
class CardsShown:
    """Cards of another player that became known to everybody without a move naming them:
    the turn-up taken as the last card of the stock, a widow turned face up, a hand shown."""

    player: int
    """Whose cards."""
    cards: tuple[Card, ...]
    """The cards, in display order."""

    def __str__(self) -> str:
        return f"player {self.player} shows {_cards(self.cards)}"


@attrs.frozen
class TrumpsFixed:
    """The trump suit became known."""

    suit: Suit

    def __str__(self) -> str:
        return f"trumps: {self.suit.name.lower()}"


@attrs.frozen
class PhaseChanged:
    """The deal moved to another phase (the play-off, the tricks after the bidding …)."""

    before: Phase
    after: Phase

    def __str__(self) -> str:
        return f"phase: {self.before.value} -> {self.after.value}"


@attrs.frozen
class ScoresChanged:
    """The deal's scores (per player, or per side) changed."""

    before: tuple[int, ...]
    after: tuple[int, ...]

    @property
    def gained(self) -> tuple[int, ...]:
        """Per player (or side): the points scored between the two views."""
        return tuple(a - b for a, b in zip(self.after, self.before))

    def __str__(self) -> str:
        return f"scores: {' '.join(map(str, self.before))} -> {' '.join(map(str, self.after))}"


@attrs.frozen
class DealOver:
    """The deal ended."""

    scores: tuple[int, ...]
    """The deal's final scores (per player, or per side)."""

    def __str__(self) -> str:
        return f"the deal is over: {' '.join(map(str, self.scores))}"


Event: TypeAlias = Moved | TrickWon | CardsReceived | CardsShown | TrumpsFixed | PhaseChanged | ScoresChanged | DealOver
"""One thing a player saw happen (see `what_happened`)."""


def what_happened(before: PlayerView, after: PlayerView) -> tuple[Event, ...]:
    """What the viewer of two views of one deal saw happen between them, in order.

    ``after`` must be a later view of the same player in the same deal (its history
    extends ``before``'s); the two may be any number of moves apart. Read from the two
    views alone, so nothing in the result is hidden from that player:

    - a `Moved` for each move, as the viewer saw it;
    - `TrumpsFixed` when the trump suit became known;
    - `CardsShown` for cards of other players that became known (the turn-up taken as the
      last card, a widow turned up, a hand shown), beyond those the moves name;
    - a `TrickWon` for each trick completed, in order;
    - `CardsReceived` for the cards that came into the viewer's hand;
    - `PhaseChanged`, `ScoresChanged`, and `DealOver` when the deal ended.

    Two views equal as values give equal events: the result depends on nothing the
    viewer cannot see.

    Raises:
        ArgumentTypeError: ``before`` or ``after`` is not a `PlayerView`.
        DealError: the views are of different players, or ``after``'s history does not
            extend ``before``'s (not a later view of the same deal).
    """
    for name, v in (("before", before), ("after", after)):
        if not isinstance(v, PlayerView):
            raise ArgumentTypeError(f"what_happened compares two PlayerView values; {name} is {quote(v)}")
    if before.player != after.player:
        raise DealError(f"what_happened compares two views of one player, not of players {before.player} "
                        f"and {after.player}")  # fmt: skip
    seen = len(before.history)
    if after.history[:seen] != before.history:
        raise DealError("what_happened: the second view is not a later view of the same deal (its history "
                        "does not continue the first's)")  # fmt: skip
    moves = after.history[seen:]
    events: list[Event] = []
    tricks = _tricks(before, after, moves)
    for k, (who, action) in enumerate(moves):
        events.append(Moved(who, action))
        if k in tricks:
            events.append(tricks[k])
    if before.trump is None and after.trump is not None:
        events.append(TrumpsFixed(after.trump))
    events.extend(_shown(before, after, moves))
    received = _received(before, after, moves)
    if received is not None:
        events.append(received)
    if after.phase is not before.phase:
        events.append(PhaseChanged(before.phase, after.phase))
    if after.scores != before.scores:
        events.append(ScoresChanged(before.scores, after.scores))
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        events.append(DealOver(after.scores))
    return tuple(events)


def _shown(before: PlayerView, after: PlayerView, moves: Sequence[tuple[int, Action]]) -> list[CardsShown]:
    """Other players' cards that became known, beyond those their moves name."""
    out = []
    for p in range(len(after.known)):
        if p == after.player or p >= len(before.known):
            continue
        new = cards_without(after.known[p], before.known[p])
        for who, action in moves:
            if who != p:
                continue
            named = list(action.cards)
            if action.verb is Verb.EXCHANGE and before.turn_up is not None:
                named.append(before.turn_up)
            new = cards_without(new, named)
        melded = cards_without(
            [c for m in (*after.melds, *after.pending) if m.player == p for c in m.cards],
            [c for m in (*before.melds, *before.pending) if m.player == p for c in m.cards],
        )
        new = cards_without(new, melded)  # laid in melds just now: told by the moves
        if new:
            out.append(CardsShown(p, tuple(new)))
    return out


def _tricks(before: PlayerView, after: PlayerView, moves: Sequence[tuple[int, Action]]) -> dict[int, TrickWon]:
    """The tricks completed between the views, by the index of the move that completed
    each: the cards played, cut into tricks; a trick's winner is who plays first after it
    (the last one's: who leads now)."""
    size = len(after.hand_sizes) - len(after.sitting_out)
    current = list(before.trick)
    leader = before.trick_leader
    completed: list[tuple[int, int, tuple[Card, ...]]] = []  # (move index, leader, cards)
    for k, (who, action) in enumerate(moves):
        if action.verb is not Verb.PLAY or not action.cards:
            continue
        if not current:
            leader = who
        current.append(action.cards[0])
        if len(current) == size:
            completed.append((k, leader, tuple(current)))
            current = []
    out = {}
    for n, (k, lead, cards) in enumerate(completed):
        if n + 1 < len(completed):
            winner = completed[n + 1][1]
        elif current:
            winner = leader  # the leader of the trick under way
        else:
            winner = _last_winner(before, after)
        out[k] = TrickWon(winner, cards, lead)
    return out


def _last_winner(before: PlayerView, after: PlayerView) -> int:
    """Who won the trick just completed: whose won cards grew by it, else who leads now."""
    grew = [p for p in range(len(after.won)) if len(after.won[p]) > len(before.won[p])]
    if len(grew) == 1:
        return grew[0]
    return after.trick_leader


def _received(before: PlayerView, after: PlayerView, moves: Sequence[tuple[int, Action]]) -> CardsReceived | None:
    me = after.player
    gained = cards_without(after.hand, before.hand)
    if before.turn_up is not None and any(w == me and a.verb is Verb.EXCHANGE for w, a in moves):
        gained = cards_without(gained, [before.turn_up])
    if not gained:
        return None
    up = before.turn_up
    # the turn-up drawn as the last card (it is gone), or taken up without drawing (Euchre's dealer)
    if up is not None and gained == [up] and (after.turn_up != up or after.stock_size >= before.stock_size):
        return CardsReceived((up,), "turn-up")
    if any(w != me and a.verb is Verb.GIVE for w, a in moves):
        return CardsReceived(tuple(gained), "given")
    drawn = before.stock_size - after.stock_size
    if drawn > 0:
        if drawn == before.stock_size and drawn > 1 and len(gained) == drawn and not _plays_in(moves):
            return CardsReceived(tuple(gained), "widow")
        return CardsReceived(tuple(gained), "stock")
    return CardsReceived(tuple(gained), "other")


def _plays_in(moves: Sequence[tuple[int, Action]]) -> bool:
    """Whether any of the moves plays a card."""
    return any(a.verb is Verb.PLAY for _, a in moves)
