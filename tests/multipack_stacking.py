"""Stacked decks and scripted play for multi-pack Bezique scenario tests (reference.md §4-§6).

`stack` builds a whole deck (top card first, as `new_deal(deck=...)` takes it) of
``rubicon-bezique`` (4 packs, 128 cards), ``six-pack-bezique`` (6 packs, 192 cards)
or ``eight-pack-bezique`` (8 packs, 256 cards) from only the cards a scenario cares
about; every other place is filled from the unused cards in a fixed, harmless-first
order (nines, eights and sevens, which no multi-pack meld uses, then tens, aces,
jacks, queens and kings), so a test names what matters and nothing else changes from
run to run. `run` drives a deal through notation strings; `play_until` plays a deal
forward with a dull but fixed policy (first legal card not kept back, never declare).

Dealing (reference.md §4.1, §5.1, §6; presets.md), non-dealer first, no turn-up:

- ``rubicon-bezique``: three at a time, three rounds (9 each). With the default
  dealer 1, player 0 gets ``deck[0:3]``, ``deck[6:9]``, ``deck[12:15]`` and player 1
  ``deck[3:6]``, ``deck[9:12]``, ``deck[15:18]``; the stock is ``deck[18:]`` (110).
- ``six-pack-bezique``: one at a time, 12 each: player 0 gets the even places of
  ``deck[0:24]``, player 1 the odd ones; the stock is ``deck[24:]`` (168).
- ``eight-pack-bezique``: one at a time, 15 each (``deck[0:30]``); stock ``deck[30:]`` (226).

After each stock-phase trick the winner draws the top stock card, then the loser.

A hand that names no king, queen or jack would be a carte blanche (rubicon and
six-pack); unless ``blank`` asks for one, `stack` gives such a hand a lone jack of
clubs (or another plain jack) so that no carte blanche appears by accident.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bezique_rules import Action, Card, DealState, Phase, Verb, new_deal
from bezique_rules.engine.stock import StockDeal
from stacking import skip_forced_pass

__all__ = [
    "LAYOUTS",
    "Layout",
    "cards",
    "codes",
    "deal",
    "dull_action",
    "finish",
    "full_deck",
    "hand_slots",
    "layout",
    "play_trick",
    "play_until",
    "random_finish",
    "run",
    "stack",
    "stock_deal",
]

SUITS = "SHDC"
RANKS = "ATKQJ987"


@dataclass(frozen=True)
class Layout:
    """The deck and deal of one multi-pack preset."""

    packs: int
    """Copies of each of the 32 faces."""
    packet_sizes: tuple[int, ...]
    """Packet sizes per round (each player gets one packet of each size, non-dealer first)."""

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return sum(self.packet_sizes)

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return 32 * self.packs

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after the deal (no turn-up)."""
        return self.size - 2 * self.hand_size


LAYOUTS: dict[str, Layout] = {
    "rubicon-bezique": Layout(4, (3, 3, 3)),
    "six-pack-bezique": Layout(6, (1,) * 12),
    "eight-pack-bezique": Layout(8, (1,) * 15),
}
_ALIASES = {"chinese-bezique": "six-pack-bezique", "japanese-bezique": "rubicon-bezique"}


def layout(variant: str) -> Layout:
    """The layout of a multi-pack preset (aliases allowed)."""
    return LAYOUTS[_ALIASES.get(variant, variant)]


def full_deck(variant: str) -> tuple[str, ...]:
    """Every card of the preset's deck (``packs`` copies of each of the 32 faces)."""
    return tuple(r + s for s in SUITS for r in RANKS) * layout(variant).packs


def hand_slots(variant: str, dealer: int = 1) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The deck places dealt to player 0 and player 1 (the non-dealer gets each first packet)."""
    slots: list[list[int]] = [[], []]
    pos = 0
    for size in layout(variant).packet_sizes:
        for seat in ((dealer + 1) % 2, dealer):
            slots[seat].extend(range(pos, pos + size))
            pos += size
    return tuple(slots[0]), tuple(slots[1])


def codes(text: str | Iterable[str]) -> list[str]:
    """Normalised card codes from ``"AS TH 7d"`` or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [str(Card.parse(c)) for c in items]


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes (a test compares these with views and hands)."""
    return [Card.parse(c) for c in codes(text)]


def _is_court(code: str) -> bool:
    return code[0] in "KQJ"


# Harmless first: no multi-pack meld uses a nine, eight or seven; then tens (a meld only
# with four_tens), aces, jacks, queens and kings.
_FILL_ORDER: tuple[str, ...] = tuple(r + s for r in "987" for s in SUITS) + tuple(r + s for r in "TAJQK" for s in SUITS)
_SPARE_JACKS = ("JC", "JH", "JS", "JD")


def stack(
    variant: str,
    p0: str | Iterable[str] = "",
    p1: str | Iterable[str] = "",
    *,
    stock: str | Iterable[str] = "",
    bottom: str | Iterable[str] = "",
    dealer: int = 1,
    blank: tuple[bool, bool] = (False, False),
) -> list[str]:
    """A full stacked deck of ``variant``, top card first.

    Args:
        variant: ``rubicon-bezique``, ``six-pack-bezique`` (``chinese-bezique``) or
            ``eight-pack-bezique``.
        p0: up to a hand of player 0's dealt cards.
        p1: up to a hand of player 1's dealt cards.
        stock: the top cards of the stock in drawing order (after trick 1 the winner
            draws ``stock[0]`` and the loser ``stock[1]``, and so on); ``?`` leaves a
            place to a filler card.
        bottom: the last cards of the stock (its final card is drawn last).
        dealer: who deals (the non-dealer is dealt first).
        blank: per player, whether the hand must be a carte blanche (no K, Q or J): its
            named cards must then hold none, and the fillers are nines, eights, sevens.

    Raises:
        ValueError: too many cards for a place, a card named more often than the deck
            holds it, a court card in a blank hand, or a bad dealer.
    """
    if dealer not in (0, 1):
        raise ValueError(f"dealer is 0 or 1, not {dealer!r}")
    lay = layout(variant)
    hands = [codes(p0), codes(p1)]
    top_text = stock.replace(",", " ").split() if isinstance(stock, str) else list(stock)
    top: list[str | None] = [None if c == "?" else str(Card.parse(c)) for c in top_text]
    low = codes(bottom)
    for p, h in enumerate(hands):
        if len(h) > lay.hand_size:
            raise ValueError(f"a hand holds {lay.hand_size} cards, not {len(h)}")
        if blank[p] and any(_is_court(c) for c in h):
            raise ValueError(f"player {p}'s hand must be blank but names a court card")
    if len(top) + len(low) > lay.stock_size:
        raise ValueError(f"the stock holds {lay.stock_size} cards")
    pool = Counter(full_deck(variant))
    pool.subtract([*hands[0], *hands[1], *(c for c in top if c is not None), *low])
    over = sorted(c for c, n in pool.items() if n < 0)
    if over:
        raise ValueError(f"named more often than the deck holds it: {' '.join(over)}")
    for p in (0, 1):
        if not blank[p] and len(hands[p]) < lay.hand_size and not any(_is_court(c) for c in hands[p]):
            jack = next(j for j in _SPARE_JACKS if pool[j] > 0)
            pool[jack] -= 1
            hands[p].append(jack)
    fillers = iter([c for c in _FILL_ORDER for _ in range(pool[c])])
    deck: list[str | None] = [None] * lay.size
    for p, slots in enumerate(hand_slots(variant, dealer)):
        padded = hands[p] + [next(fillers) for _ in range(lay.hand_size - len(hands[p]))]
        if blank[p] and any(_is_court(c) for c in padded):
            raise ValueError(f"not enough harmless cards to fill player {p}'s blank hand")
        for slot, card in zip(slots, padded):
            deck[slot] = card
    first_stock = 2 * lay.hand_size
    for i, maybe in enumerate(top):
        deck[first_stock + i] = maybe
    for i, card in enumerate(low):
        deck[lay.size - len(low) + i] = card
    result = [c if c is not None else next(fillers) for c in deck]
    assert sorted(result) == sorted(full_deck(variant))
    return result


def stock_deal(state: DealState) -> StockDeal:
    """The deal as the stock engine's state (to read its raw fields)."""
    assert isinstance(state, StockDeal)
    return state


def deal(
    variant: str,
    *,
    p0: str | Iterable[str] = "",
    p1: str | Iterable[str] = "",
    stock: str | Iterable[str] = "",
    bottom: str | Iterable[str] = "",
    dealer: int | None = None,
    blank: tuple[bool, bool] = (False, False),
    **options: Any,
) -> StockDeal:
    """A multi-pack deal on a deck built by `stack`, with rule options."""
    deck = stack(variant, p0, p1, stock=stock, bottom=bottom, dealer=1 if dealer is None else dealer, blank=blank)
    return stock_deal(new_deal(variant, deck=deck, dealer=dealer, **options))


def _steps(actions: str | Sequence[str]) -> list[str]:
    if isinstance(actions, str):
        return [a.strip() for a in actions.replace("\n", ";").split(";") if a.strip()]
    return [a.strip() for a in actions]


def run(state: StockDeal, actions: str | Sequence[str]) -> StockDeal:
    """Apply notation strings in order (a list, or one string separated by ``;``); a stock
    game's forced ``pass`` is applied by itself (`stacking.skip_forced_pass`)."""
    for text in _steps(actions):
        state = skip_forced_pass(state.apply(text))
    return state


def dull_action(state: StockDeal, keep: Sequence[str | Iterable[str]] = ("", "")) -> Action:
    """The dull policy's action: ``pass`` when declaring, the smallest guess of the cut,
    else the first legal card not kept (never a carte blanche).

    A card counts as kept while the player holds no more copies of it than
    ``keep[player]`` names; when only kept cards are legal the first legal card is played.
    """
    if state.phase is Phase.DECLARE:
        return Action(Verb.PASS)
    legal = state.legal_actions()
    if state.phase is Phase.GUESS:
        return legal[0]
    player = state.current_player
    assert player is not None, "the deal is over"
    kept = Counter(cards(keep[player]))
    held = Counter(state.view(player).hand)
    plays = [a for a in legal if a.verb is Verb.PLAY]
    free = [a for a in plays if held[a.cards[0]] > kept[a.cards[0]]]
    return (free or plays)[0]


def play_until(state: StockDeal, tricks: int, keep: Sequence[str | Iterable[str]] = ("", "")) -> StockDeal:
    """Play on with `dull_action` until ``tricks`` tricks are done and the next is unstarted."""
    while not (state.tricks >= tricks and not state.trick and state.phase is not Phase.DECLARE):
        if state.is_over:
            raise AssertionError(f"the deal ended after {state.tricks} tricks, before {tricks}")
        state = state.apply(dull_action(state, keep))
    return state


def play_trick(state: StockDeal, player: int, card: str, keep: Sequence[str | Iterable[str]] = ("", "")) -> StockDeal:
    """One whole trick: ``player`` plays ``card`` (``QS`` or ``QS*``), the other plays dully."""
    assert not state.trick and state.phase in (Phase.PLAY, Phase.PLAYOFF)
    for _ in range(2):
        if state.current_player == player:
            state = state.apply(f"play {card}")
        else:
            state = state.apply(dull_action(state, keep))
    return state


def finish(state: StockDeal, keep: Sequence[str | Iterable[str]] = ("", "")) -> StockDeal:
    """Play the deal to its end with `dull_action`."""
    while not state.is_over:
        state = state.apply(dull_action(state, keep))
    return state


def random_finish(state: StockDeal, rng: random.Random, *, declare: bool = True) -> StockDeal:
    """Play the deal to its end with random legal actions (``pass`` only, without ``declare``)."""
    while not state.is_over:
        legal = state.legal_actions()
        if not declare and state.phase is Phase.DECLARE:
            state = state.apply(Action(Verb.PASS))
            continue
        if not declare:
            legal = tuple(a for a in legal if a.verb is not Verb.MELD) or legal
        state = state.apply(rng.choice(legal))
    return state
