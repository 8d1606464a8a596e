"""Stacked decks for Marjolet scenario tests (reference.md §14.2, presets.md).

`stack` builds the whole 32-card deck (top card first, as `new_deal(deck=...)` takes it)
from only the cards a scenario cares about; every other place is filled from the unused
cards in a fixed, harmless-first order (plain nines and eights, then plain sevens, then
trump nines and eights, which no meld uses; then tens, aces, jacks, queens, kings; the
trump seven last).

Dealing: with the default dealer 1, player 0 (the non-dealer, who leads) gets
``deck[0:3]`` and ``deck[6:9]``, player 1 ``deck[3:6]`` and ``deck[9:12]``; ``deck[12]``
is the turn-up (drawn last); ``deck[13:]`` is the stock (19 face-down cards), top first:
after each stock trick the winner draws the next card, then the loser.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bezique_rules import Card, new_deal
from bezique_rules.engine.stock import StockDeal
from stacking import codes, run, skip_forced_pass, stock_deal

__all__ = ["FULL_DECK", "HAND_SIZE", "STOCK_SIZE", "deal", "run", "skip_forced_pass", "stack"]

SUITS = "SHDC"
HAND_SIZE = 6
FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in "ATKQJ987")
STOCK_SIZE = len(FULL_DECK) - 2 * HAND_SIZE - 1  # 19 face-down cards over the turn-up
_HAND_SLOTS = ((0, 1, 2, 6, 7, 8), (3, 4, 5, 9, 10, 11))
_TURN_UP_SLOT = 12


def _fill_order(trump: str) -> list[str]:
    plain = [s for s in SUITS if s != trump]
    order = [r + s for r in "98" for s in plain] + ["7" + s for s in plain] + [r + trump for r in "98"]
    for rank in "TAJQK":
        order += [rank + s for s in SUITS]
    return [*order, "7" + trump]


def stack(
    p0: str | Iterable[str] = "",
    p1: str | Iterable[str] = "",
    *,
    turn_up: str = "9S",
    stock: str | Iterable[str] = "",
    dealer: int = 1,
) -> list[str]:
    """A full 32-card stacked deck, top card first.

    Args:
        p0: up to 6 cards of player 0's dealt hand (the non-dealer with ``dealer=1``).
        p1: up to 6 cards of player 1's dealt hand.
        turn_up: the turn-up (its suit is trumps).
        stock: the top cards of the stock in drawing order; ``?`` leaves a place to a filler.
        dealer: who deals; the non-dealer gets the first packet.

    >>> deck = stack(p0="KH QH AH", p1="8C", turn_up="9H", stock="QS ? JD")
    >>> deck[0:4], deck[12], deck[13], deck[15], len(deck)
    (['KH', 'QH', 'AH', '8C'], '9H', 'QS', 'JD', 32)
    """
    hands = (codes(p0), codes(p1))
    top_text = stock.replace(",", " ").split() if isinstance(stock, str) else list(stock)
    top: list[str | None] = [None if c == "?" else str(Card.parse(c)) for c in top_text]
    turn = str(Card.parse(turn_up))
    named = [*hands[0], *hands[1], *(c for c in top if c is not None), turn]
    if len(set(named)) != len(named):
        raise ValueError(f"a card named twice: {' '.join(sorted(named))}")
    if any(len(h) > HAND_SIZE for h in hands) or len(top) > STOCK_SIZE:
        raise ValueError("too many cards for a place")
    fillers = iter([c for c in _fill_order(turn[-1]) if c not in named])
    deck: list[str | None] = [None] * len(FULL_DECK)
    for p in (0, 1):
        padded = hands[p] + [next(fillers) for _ in range(HAND_SIZE - len(hands[p]))]
        for slot, card in zip(_HAND_SLOTS[(p + dealer + 1) % 2], padded):
            deck[slot] = card
    deck[_TURN_UP_SLOT] = turn
    for i, maybe in enumerate(top):
        deck[_TURN_UP_SLOT + 1 + i] = maybe
    result = [c if c is not None else next(fillers) for c in deck]
    assert sorted(result) == sorted(FULL_DECK)
    return result


def deal(
    *,
    p0: str | Iterable[str] = "",
    p1: str | Iterable[str] = "",
    turn_up: str = "9S",
    stock: str | Iterable[str] = "",
    dealer: int = 1,
    **options: Any,
) -> StockDeal:
    """A ``marjolet`` deal on a deck built by `stack`, with rule options."""
    deck = stack(p0, p1, turn_up=turn_up, stock=stock, dealer=dealer)
    return stock_deal(new_deal("marjolet", deck=deck, dealer=dealer, **options))
