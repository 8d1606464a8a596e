"""Stacked decks and scripted play for the Euchre presets (presets.md, reference.md §12-§13).

`stack` builds a whole deck (top card first, as `new_deal(deck=...)` takes it)
from only the cards a scenario cares about: the hands named per seat, the
turn-up and, if wanted, the kitty under it. Every other place is filled from the
unused cards in a fixed order, so a test names what matters and nothing else
changes from run to run.

The dealing orders are written out here from presets.md, independently of the
engine (players counted from the dealer's left, i.e. seat ``(dealer + 1 + k) % 4``):

- ``euchre``: 3, 2, 3, 2 then 2, 3, 2, 3; then the turn-up; then the kitty.
- ``british-euchre``: 3 each, then 2 each; then the turn-up; then the kitty.
- ``euchre-openspiel``: one card at a time, the first to the DEALER (card ``i``
  goes to seat ``(dealer + i) % 4``); then the up-card; then the kitty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from bezique_rules import Card, DealState, GameState, new_deal
from bezique_rules.engine.euchre import EuchreDeal

__all__ = [
    "PACKETS",
    "cards",
    "codes",
    "deal",
    "deck_cards",
    "first_legal_play",
    "hand_of",
    "play_out",
    "run",
    "stack",
]

SUITS = "SHDC"
"""Suit letters in the library's face order."""

PACKETS: dict[str, tuple[tuple[int, int], ...]] = {
    "euchre": ((0, 3), (1, 2), (2, 3), (3, 2), (0, 2), (1, 3), (2, 2), (3, 3)),
    "british-euchre": ((0, 3), (1, 3), (2, 3), (3, 3), (0, 2), (1, 2), (2, 2), (3, 2)),
    "euchre-openspiel": tuple(((i + 3) % 4, 1) for i in range(20)),
}
"""Per preset: the packets (recipient counted from the dealer's left, count), as presets.md pins them."""

DEFAULT_SIZE = {"euchre": 24, "british-euchre": 25, "euchre-openspiel": 24}
"""Each preset's default deck size."""


def codes(text: str | Iterable[str]) -> list[str]:
    """Normalised card codes from ``"JH ts 9c"`` or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [str(Card.parse(c)) for c in items]


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes."""
    return [Card.parse(c) for c in codes(text)]


def deck_cards(size: int = 24, benny: str = "joker") -> list[str]:
    """Every card of a Euchre pack of ``size`` (24, 25, 32, 33), in fill order.

    Fill order: nines, tens, queens, kings, eights, sevens, aces, jacks (suits S H D C
    within a rank), then the Benny, so that unnamed places get the dullest cards first.
    """
    ranks = "9TQK" + ("87" if size in (32, 33) else "") + "AJ"
    out = [r + s for r in ranks for s in SUITS]
    if size in (25, 33):
        out.append("JK" if benny == "joker" else "2S")
    return out


def slots(preset: str, dealer: int) -> list[int]:
    """Per deck position of the dealt cards: the seat receiving it."""
    out: list[int] = []
    for recipient, count in PACKETS[preset]:
        out.extend([(dealer + 1 + recipient) % 4] * count)
    return out


def stack(
    preset: str = "euchre",
    hands: Mapping[int, str | Iterable[str]] | None = None,
    turn_up: str = "9S",
    kitty: str | Iterable[str] = (),
    *,
    dealer: int = 3,
    size: int | None = None,
    benny: str = "joker",
) -> list[str]:
    """A whole stacked deck for ``preset`` giving each seat in ``hands`` its cards.

    Args:
        preset: ``euchre``, ``british-euchre`` or ``euchre-openspiel``.
        hands: seat -> up to five cards; unnamed places are filled.
        turn_up: the turned-up card.
        kitty: the first cards of the kitty under the turn-up (the rest is filled).
        dealer: the dealer seat (the deal starts at his left).
        size: the deck size (default: the preset's).
        benny: ``joker`` or ``two_of_spades`` (decks of 25 and 33).
    """
    size = DEFAULT_SIZE[preset] if size is None else size
    want = {seat: codes(h) for seat, h in (hands or {}).items()}
    kitty_codes = codes(kitty)
    named = [c for h in want.values() for c in h] + [str(Card.parse(turn_up))] + kitty_codes
    pool = deck_cards(size, benny)
    for c in named:
        if c not in pool:
            raise ValueError(f"{c} is not in the deck or is named twice")
        pool.remove(c)
    for seat, h in want.items():
        if len(h) > 5:
            raise ValueError(f"seat {seat} gets more than five cards")
        want[seat] = h + [pool.pop(0) for _ in range(5 - len(h))]
    for seat in range(4):
        if seat not in want:
            want[seat] = [pool.pop(0) for _ in range(5)]
    taken = {seat: 0 for seat in range(4)}
    deck: list[str] = []
    for seat in slots(preset, dealer):
        deck.append(want[seat][taken[seat]])
        taken[seat] += 1
    deck.append(str(Card.parse(turn_up)))
    deck.extend(kitty_codes)
    deck.extend(pool)
    assert len(deck) == size
    return deck


def deal(
    preset: str = "euchre",
    hands: Mapping[int, str | Iterable[str]] | None = None,
    turn_up: str = "9S",
    kitty: str | Iterable[str] = (),
    *,
    dealer: int = 3,
    **options: Any,
) -> EuchreDeal:
    """A new deal of ``preset`` on a deck stacked with `stack` (options as for `new_deal`)."""
    size = options.get("deck_size")
    benny = options.get("benny", "joker")
    deck = stack(preset, hands, turn_up, kitty, dealer=dealer, size=size, benny=benny)
    state = new_deal(preset, deck=deck, dealer=dealer, **options)
    assert isinstance(state, EuchreDeal)
    return state


S = TypeVar("S", EuchreDeal, DealState, GameState)


def run(state: S, *actions: str) -> S:
    """Apply ``actions`` (notation) in order; return the final state (a deal or a game)."""
    for a in actions:
        state = state.apply(a)
    return state


def hand_of(state: DealState | GameState, seat: int) -> set[str]:
    """The codes of the cards ``seat`` holds (read from the state, not from his view)."""
    deal = state.deal if isinstance(state, GameState) else state
    return {str(c) for c in deal.rules.deck.cards_of(deal.hands[seat])}


def first_legal_play(state: DealState) -> str:
    """The first legal action in id order (as notation)."""
    return str(state.legal_actions()[0])


def play_out(state: EuchreDeal) -> EuchreDeal:
    """Play the deal to its end with the first legal action each time (after the bidding)."""
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state
