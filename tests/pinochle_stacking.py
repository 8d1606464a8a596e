"""Stacked decks and scripted play for the Pinochle presets (presets.md, reference.md §8-§11).

`stack` builds a whole deck (top card first, as `new_deal(deck=...)` takes it)
from only the cards a scenario cares about: the hands named per seat, the widow,
the turn-up and the stock. Every other place is filled, in deck order, from the
unused cards in a fixed order (nines first, then tens, aces, jacks, queens,
kings; in two-hand the nines of trumps last), so a test names what matters and
nothing else changes from run to run. `dull_action` is a fixed dull policy (it
can keep named cards back), `play_until` / `play_out` play on with it.

The dealing orders are written out here from presets.md, independently of the
engine (packets go to the players counted from the dealer's left, i.e. seat
``(dealer + 1 + k) % n``; the default dealer is the last seat):

- ``pinochle``: 4 at a time, 3 rounds (12 each); then the turn-up; then the
  stock (23 cards), top first. With dealer 1: player 0 gets ``deck[0:4]``,
  player 1 ``deck[4:8]``, player 0 ``deck[8:12]`` …; ``deck[24]`` is the turn-up.
- ``auction-pinochle``: 3 each, then 3 to the widow, then 3 each four more times.
- ``partnership-pinochle``: 3 at a time, 4 rounds (12 each).
- ``double-deck-pinochle``: 4 at a time, 5 rounds (20 each), 80 cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from typing_extensions import Self

from bezique_rules import Action, Card, DealState, Phase, Verb, new_deal
from bezique_rules.engine.auction import AuctionDeal
from bezique_rules.engine.stock import StockDeal
from stacking import skip_forced_pass

__all__ = [
    "PACKETS",
    "PLAYERS",
    "PRESETS",
    "WIDOW",
    "auction_deal",
    "cards",
    "codes",
    "deck_cards",
    "dull_action",
    "play_out",
    "play_until",
    "run",
    "slots",
    "stack",
    "stock_deal",
    "two_hand",
]

WIDOW = -1
"""The recipient of a widow packet."""

SUITS = "SHDC"

PRESETS = ("pinochle", "auction-pinochle", "partnership-pinochle", "double-deck-pinochle")

PLAYERS = {"pinochle": 2, "auction-pinochle": 3, "partnership-pinochle": 4, "double-deck-pinochle": 4}
"""Players per preset."""

PACKETS: dict[str, tuple[tuple[int, int], ...]] = {
    "pinochle": tuple((p, 4) for _ in range(3) for p in range(2)),
    "auction-pinochle": ((0, 3), (1, 3), (2, 3), (WIDOW, 3)) + ((0, 3), (1, 3), (2, 3)) * 4,
    "partnership-pinochle": tuple((p, 3) for _ in range(4) for p in range(4)),
    "double-deck-pinochle": tuple((p, 4) for _ in range(5) for p in range(4)),
}
"""Per preset: the packets (recipient counted from the dealer's left, or WIDOW; count), from presets.md."""

TURN_UP = {"pinochle": True}


def codes(text: str | Iterable[str]) -> list[str]:
    """Normalised card codes from ``"AS th 9c"`` or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [str(Card.parse(c)) for c in items]


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes."""
    return [Card.parse(c) for c in codes(text)]


def deck_cards(preset: str, trump: str | None = None) -> list[str]:
    """Every card of the preset's deck, in fill order: nines, tens, aces, jacks, queens, kings.

    48 cards (A T K Q J 9, two of each) or, for ``double-deck-pinochle``, 80 (A T K Q J, four of
    each). With a ``trump`` suit letter the nines of trumps (the dix) come last.
    """
    double = preset == "double-deck-pinochle"
    copies = 4 if double else 2
    out = [] if double else [f"9{s}" for s in SUITS if s != trump for _ in range(copies)]
    out += [r + s for r in "TAJQK" for s in SUITS for _ in range(copies)]
    if not double and trump is not None:
        out += [f"9{trump}"] * copies
    return out


def slots(preset: str, dealer: int | None = None) -> list[int]:
    """Per dealt deck position: the seat that receives it (WIDOW for the widow)."""
    n = PLAYERS[preset]
    d = n - 1 if dealer is None else dealer
    out: list[int] = []
    for recipient, count in PACKETS[preset]:
        out.extend([WIDOW if recipient == WIDOW else (d + 1 + recipient) % n] * count)
    return out


def stack(
    preset: str,
    hands: Mapping[int, str | Iterable[str]] | None = None,
    *,
    widow: str | Iterable[str] = (),
    turn_up: str | None = None,
    stock: str | Iterable[str] = (),
    bottom: str | Iterable[str] = (),
    dealer: int | None = None,
) -> list[str]:
    """A whole stacked deck for ``preset``: the named cards in their places, the rest filled.

    Args:
        preset: one of `PRESETS`.
        hands: seat -> up to a full hand of cards (unnamed places are filled).
        widow: auction-pinochle: up to 3 widow cards.
        turn_up: pinochle: the turn-up (its suit is trumps); default the first free filler.
        stock: pinochle: the top of the stock in drawing order (after trick 1 the winner draws
            ``stock[0]`` and the loser ``stock[1]``); a ``?`` leaves its place to a filler.
        bottom: pinochle: the last face-down cards; the final one is taken by the winner of
            the 12th trick (the loser then takes the turn-up).
        dealer: the dealer seat (default the last seat).

    Raises:
        ValueError: a card named more often than the deck holds it, or too many cards for a place.
    """
    seat_of = slots(preset, dealer)
    full = deck_cards(preset, str(Card.parse(turn_up))[-1] if turn_up is not None else None)
    size = len(full)
    deck: list[str | None] = [None] * size
    pool = Counter(full)

    def take(card: str) -> str:
        if pool[card] <= 0:
            raise ValueError(f"{card} is named more often than the deck holds it")
        pool[card] -= 1
        return card

    for seat, named in (hands or {}).items():
        places = [i for i, s in enumerate(seat_of) if s == seat]
        wanted = codes(named)
        if len(wanted) > len(places):
            raise ValueError(f"seat {seat} gets {len(places)} cards, not {len(wanted)}")
        for i, c in zip(places, wanted):
            deck[i] = take(c)
    widow_places = [i for i, s in enumerate(seat_of) if s == WIDOW]
    widow_cards = codes(widow)
    if len(widow_cards) > len(widow_places):
        raise ValueError("too many widow cards")
    for i, c in zip(widow_places, widow_cards):
        deck[i] = take(c)
    dealt = len(seat_of)
    if TURN_UP.get(preset):
        if turn_up is not None:
            deck[dealt] = take(str(Card.parse(turn_up)))
        top = [None if c == "?" else str(Card.parse(c)) for c in (stock.split() if isinstance(stock, str) else stock)]
        low = codes(bottom)
        if len(top) + len(low) > size - dealt - 1:
            raise ValueError("the stock is too small")
        for i, maybe in enumerate(top):
            if maybe is not None:
                deck[dealt + 1 + i] = take(maybe)
        for i, c in enumerate(low):
            deck[size - len(low) + i] = take(c)
    elif turn_up is not None or stock or bottom:
        raise ValueError(f"{preset} has no turn-up or stock")
    fill: list[str] = []
    for c in full:
        if pool[c] > 0:
            fill.append(c)
            pool[c] -= 1
    fillers = iter(fill)
    result = [c if c is not None else next(fillers) for c in deck]
    assert sorted(result) == sorted(full)
    return result


def auction_deal(
    preset: str,
    hands: Mapping[int, str | Iterable[str]] | None = None,
    *,
    widow: str | Iterable[str] = (),
    dealer: int | None = None,
    **options: Any,
) -> AuctionDeal:
    """A new deal of an auction preset on a deck built by `stack` (options as for `new_deal`)."""
    deck = stack(preset, hands, widow=widow, dealer=dealer)
    state = new_deal(preset, deck=deck, dealer=dealer, **options)
    assert isinstance(state, AuctionDeal)
    return state


def two_hand(
    p0: str | Iterable[str] = (),
    p1: str | Iterable[str] = (),
    *,
    turn_up: str | None = None,
    stock: str | Iterable[str] = (),
    bottom: str | Iterable[str] = (),
    dealer: int | None = None,
    **options: Any,
) -> StockDeal:
    """A new two-hand ``pinochle`` deal on a stacked deck (options as for `new_deal`)."""
    deck = stack("pinochle", {0: p0, 1: p1}, turn_up=turn_up, stock=stock, bottom=bottom, dealer=dealer)
    return stock_deal(new_deal("pinochle", deck=deck, dealer=dealer, **options))


def stock_deal(state: DealState) -> StockDeal:
    """The deal as the stock engine's state (to read its raw fields)."""
    assert isinstance(state, StockDeal)
    return state


def _steps(actions: str | Sequence[str]) -> list[str]:
    if isinstance(actions, str):
        return [a.strip() for a in actions.split(";") if a.strip()]
    return [a.strip() for a in actions]


class _Applies(Protocol):
    def apply(self, action: Action | str | int, *, check: bool = True) -> Self: ...

    @property
    def phase(self) -> Phase: ...

    def legal_actions(self) -> tuple[Action, ...]: ...


S = TypeVar("S", bound=_Applies)
D = TypeVar("D", bound=DealState)


def run(state: S, actions: str | Sequence[str]) -> S:
    """Apply notation strings in order (a list, or one string separated by ``;``); a stock
    game's forced ``pass`` is applied by itself (`stacking.skip_forced_pass`)."""
    for text in _steps(actions):
        state = skip_forced_pass(state.apply(text))
    return state


def dull_action(state: DealState, keep: Mapping[int, str | Iterable[str]] | None = None) -> Action:
    """A fixed dull policy: ``pass`` when declaring, else the first legal card not kept (then the first legal action).

    A card counts as kept while the player holds no more copies of it than ``keep[player]`` names;
    when only kept cards are legal the first legal card is played.
    """
    legal = state.legal_actions()
    if state.phase is Phase.DECLARE:
        return Action(Verb.PASS)
    player = state.current_player
    assert player is not None, "the deal is over"
    kept = Counter(cards((keep or {}).get(player, ())))
    held = Counter(state.view(player).hand)
    plays = [a for a in legal if a.verb is Verb.PLAY]
    free = [a for a in plays if held[a.cards[0]] > kept[a.cards[0]]]
    return (free or plays or list(legal))[0]


def play_out(state: D, keep: Mapping[int, str | Iterable[str]] | None = None) -> D:
    """Play the deal (a `DealState`) on with `dull_action` until it is over."""
    while not state.is_over:
        state = state.apply(dull_action(state, keep))
    return state


def play_until(state: StockDeal, tricks: int, keep: Mapping[int, str | Iterable[str]] | None = None) -> StockDeal:
    """Play a two-hand deal on with `dull_action` until ``tricks`` tricks are done and the next is unstarted."""
    while not (state.tricks >= tricks and not state.trick and state.phase is not Phase.DECLARE):
        if state.is_over:
            raise AssertionError(f"the deal ended after {state.tricks} tricks, before {tricks}")
        state = state.apply(dull_action(state, keep))
    return state
