"""Stacked decks and scripted play for three- and four-hand Bezique scenario tests (reference.md §7).

`stack` builds a whole deck (top card first, as `new_deal(deck=...)` takes it) of
``three-hand-bezique`` (3 packs, 96 cards), ``four-hand-bezique`` or
``partnership-bezique`` (4 packs, 128 cards) from only the cards a scenario cares
about; every other place is filled from the unused cards in a fixed, harmless-first
order (plain nines and eights, then sevens, tens, aces, jacks, queens, kings), so a
test names what matters and nothing else changes from run to run.

Dealing (presets.md): 3-2-3 from the dealer's left, then the turn-up, then the stock.
With the default dealer (the last seat) player 0 is dealt first and leads trick 1:
with ``n`` players, player ``p`` gets ``deck[3p:3p+3]``, ``deck[3n+2p:3n+2p+2]`` and
``deck[5n+3p:5n+3p+3]``; ``deck[8n]`` is the turn-up; ``deck[8n+1:]`` the stock, top
first. After each stock trick the winner draws first, then each player to his left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from bezique_rules import Card, DealState, Phase, Verb, new_deal

__all__ = ["PLAYERS", "cards", "codes", "deal", "dull", "hand_slots", "run", "stack"]

SUITS = "SHDC"
PLAYERS = {"three-hand-bezique": 3, "four-hand-bezique": 4, "partnership-bezique": 4}
_FILL = (
    tuple(r + s for r in "98" for s in "SHDC")
    + tuple("7" + s for s in "SHDC")
    + tuple(r + s for r in "TAJQK" for s in "SHDC")
)


def codes(text: str | Iterable[str]) -> list[str]:
    """Normalised card codes from ``"AS TH 7d"`` or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [str(Card.parse(c)) for c in items]


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes."""
    return [Card.parse(c) for c in codes(text)]


def hand_slots(n: int, player: int) -> tuple[int, ...]:
    """The deck places dealt to ``player`` (dealer n - 1: player 0 is dealt first)."""
    return (
        tuple(range(3 * player, 3 * player + 3))
        + tuple(range(3 * n + 2 * player, 3 * n + 2 * player + 2))
        + tuple(range(5 * n + 3 * player, 5 * n + 3 * player + 3))
    )


def stack(variant: str, hands: Iterable[str], turn_up: str = "9H", stock: str = "") -> list[str]:
    """A full stacked deck: ``hands[p]`` (up to 8 cards) for each player, the turn-up (its
    suit is trumps) and the top of the stock in drawing order; the rest harmless fillers."""
    n = PLAYERS[variant]
    named = [codes(h) for h in hands]
    named += [[] for _ in range(n - len(named))]
    top = codes(stock)
    pool = Counter(tuple(r + s for s in SUITS for r in "ATKQJ987") * n)
    pool.subtract([c for h in named for c in h] + top + codes(turn_up))
    over = sorted(c for c, k in pool.items() if k < 0)
    if over:
        raise ValueError(f"named more often than the deck holds it: {over}")
    fillers = iter([c for c in _FILL for _ in range(pool[c])])
    deck: list[str] = [""] * (32 * n)
    for p in range(n):
        hand = named[p] + [next(fillers) for _ in range(8 - len(named[p]))]
        for slot, card in zip(hand_slots(n, p), hand):
            deck[slot] = card
    deck[8 * n] = codes(turn_up)[0]
    for i, c in enumerate(top):
        deck[8 * n + 1 + i] = c
    rest = list(fillers)
    for i in range(8 * n + 1 + len(top), 32 * n):
        deck[i] = rest.pop(0)
    return deck


def deal(variant: str, hands: Iterable[str], turn_up: str = "9H", stock: str = "", **options: Any) -> DealState:
    """A deal of ``variant`` from a stacked deck (player 0 leads)."""
    return new_deal(variant, deck=stack(variant, hands, turn_up, stock), **options)


def run(state: DealState, script: str) -> DealState:
    """Apply ``;``-separated actions in notation."""
    for text in script.split(";"):
        if text.strip():
            state = state.apply(text.strip())
    return state


def dull(state: DealState) -> DealState:
    """One dull step: ``pass`` when declaring, else the first legal action."""
    legal = state.legal_actions()
    if state.phase is Phase.DECLARE:
        return state.apply(next(a for a in legal if a.verb is Verb.PASS))
    return state.apply(legal[0])
