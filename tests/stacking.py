"""Stacked decks and scripted play for two-hand Bezique scenario tests.

`stack` builds a full 64-card deck (top card first, as `new_deal(deck=...)` takes
it) from only the cards a scenario cares about; every other place is filled from
the unused cards in a fixed, harmless-first order, so a test names what matters
and nothing else changes from run to run. `run` drives a deal (or a game)
through notation strings; `play_until` plays a deal forward with a dull but
fixed policy (first legal card not kept back, never declare).

Dealing (reference.md §2.1, presets.md): with the default dealer 1, player 0
gets ``deck[0:3]``, player 1 ``deck[3:6]``, player 0 ``deck[6:8]``, player 1
``deck[8:10]``, player 0 ``deck[10:13]``, player 1 ``deck[13:16]``; ``deck[16]``
is the turn-up (drawn last); ``deck[17:]`` is the stock, top first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

from typing_extensions import Self

from bezique_rules import Action, Card, DealState, GameState, Phase, Verb, new_deal
from bezique_rules.engine.stock import StockDeal

__all__ = [
    "DECK_SIZE",
    "HAND_SIZE",
    "STOCK_SIZE",
    "cards",
    "codes",
    "deal",
    "dull_action",
    "finish_deal",
    "play_trick",
    "play_until",
    "run",
    "skip_forced_pass",
    "stack",
    "stock_deal",
]

SUITS = "SHDC"
HAND_SIZE = 8
DECK_SIZE = 64
STOCK_SIZE = DECK_SIZE - 2 * HAND_SIZE - 1  # 47 face-down cards under which the turn-up lies
FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in "ATKQJ987") * 2
"""Every card of the 64-card deck (two copies of each of the 32 faces)."""

# Where each hand's cards sit in the deck: 3-2-3, non-dealer (player 0) first.
_HAND_SLOTS: tuple[tuple[int, ...], tuple[int, ...]] = (
    (0, 1, 2, 6, 7, 10, 11, 12),
    (3, 4, 5, 8, 9, 13, 14, 15),
)
_TURN_UP_SLOT = 16


def codes(text: str | Iterable[str]) -> list[str]:
    """Normalised card codes from ``"AS TH 7d"`` or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [str(Card.parse(c)) for c in items]


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes (a test compares these with views and hands)."""
    return [Card.parse(c) for c in codes(text)]


def _fill_order(trump: str) -> list[str]:
    """The order in which unused cards fill the deck: harmless cards first.

    Plain nines and eights, then plain sevens, then trump nines and eights (no
    meld uses any of them), then tens, aces, jacks, queens, kings, and the trump
    sevens last (so that no trump seven turns up in a hand by accident).
    """
    plain = [s for s in SUITS if s != trump]
    order: list[str] = []
    order += [r + s for r in "98" for s in plain]
    order += ["7" + s for s in plain]
    order += [r + trump for r in "98"]
    for rank in "TAJQK":
        order += [rank + s for s in SUITS]
    order.append("7" + trump)
    return order


def stack(
    p0: str | Iterable[str] = "",
    p1: str | Iterable[str] = "",
    *,
    turn_up: str | None = None,
    stock: str | Iterable[str] = "",
    bottom: str | Iterable[str] = "",
    dealer: int = 1,
) -> list[str]:
    """A full 64-card stacked deck, top card first.

    Args:
        p0: up to 8 cards of player 0's dealt hand (the non-dealer, who leads).
        p1: up to 8 cards of player 1's dealt hand (the dealer).
        turn_up: the turn-up (its suit is trumps); default the first unused plain
            nine or eight (9S when free: spades trumps).
        stock: the top cards of the stock in drawing order (after trick 1 the
            winner draws ``stock[0]`` and the loser ``stock[1]``, and so on); a
            ``?`` leaves its place to a filler card.
        bottom: the last face-down cards of the stock; its final card is the one
            the winner of the 24th trick takes (the loser takes the turn-up).
        dealer: who deals (as for `new_deal`); the non-dealer gets the first
            packet, so with ``dealer=0`` player 1 is dealt first.

    Raises:
        ValueError: too many cards for a place, a card named more than twice, or a bad dealer.

    >>> deck = stack(p0="KH QH AH", p1="8C", turn_up="9H", stock="QS ? JD", bottom="7H")
    >>> deck[0:4], deck[16], deck[17], deck[19], deck[63], len(deck)
    (['KH', 'QH', 'AH', '8C'], '9H', 'QS', 'JD', '7H', 64)
    """
    if dealer not in (0, 1):
        raise ValueError(f"dealer is 0 or 1, not {dealer!r}")
    hands = (codes(p0), codes(p1))
    top_text = stock.replace(",", " ").split() if isinstance(stock, str) else list(stock)
    top: list[str | None] = [None if c == "?" else str(Card.parse(c)) for c in top_text]
    low = codes(bottom)
    named = [*hands[0], *hands[1], *(c for c in top if c is not None), *low]
    if turn_up is not None:
        turn_up = str(Card.parse(turn_up))
        named.append(turn_up)
    for h in hands:
        if len(h) > HAND_SIZE:
            raise ValueError(f"a hand holds {HAND_SIZE} cards, not {len(h)}")
    if len(top) + len(low) > STOCK_SIZE:
        raise ValueError(f"the stock holds {STOCK_SIZE} cards")
    pool = Counter(FULL_DECK)
    pool.subtract(named)
    over = sorted(c for c, n in pool.items() if n < 0)
    if over:
        raise ValueError(f"named more than twice: {' '.join(over)}")
    if turn_up is None:
        turn_up = next(c for c in _fill_order("C") if pool[c] > 0)
        pool[turn_up] -= 1
    fillers = iter([c for c in _fill_order(turn_up[-1]) for _ in range(pool[c])])
    deck: list[str | None] = [None] * DECK_SIZE
    for p in (0, 1):
        padded = hands[p] + [next(fillers) for _ in range(HAND_SIZE - len(hands[p]))]
        for slot, card in zip(_HAND_SLOTS[(p + dealer + 1) % 2], padded):
            deck[slot] = card
    deck[_TURN_UP_SLOT] = turn_up
    for i, maybe in enumerate(top):
        deck[_TURN_UP_SLOT + 1 + i] = maybe
    for i, card in enumerate(low):
        deck[DECK_SIZE - len(low) + i] = card
    result = [c if c is not None else next(fillers) for c in deck]
    assert sorted(result) == sorted(FULL_DECK)
    return result


def deal(
    variant: str = "bezique",
    *,
    p0: str | Iterable[str] = "",
    p1: str | Iterable[str] = "",
    turn_up: str | None = None,
    stock: str | Iterable[str] = "",
    bottom: str | Iterable[str] = "",
    dealer: int | None = None,
    **options: Any,
) -> StockDeal:
    """A two-hand Bezique deal on a deck built by `stack`, with rule options."""
    deck = stack(p0, p1, turn_up=turn_up, stock=stock, bottom=bottom, dealer=1 if dealer is None else dealer)
    return stock_deal(new_deal(variant, deck=deck, dealer=dealer, **options))


def stock_deal(state: DealState) -> StockDeal:
    """The deal as the stock engine's state (to read its raw fields)."""
    assert isinstance(state, StockDeal)
    return state


class _Applies(Protocol):
    def apply(self, action: Action | str | int, *, check: bool = True) -> Self: ...

    @property
    def phase(self) -> Phase: ...

    def legal_actions(self) -> tuple[Action, ...]: ...


S = TypeVar("S", bound=_Applies)


def _steps(actions: str | Sequence[str]) -> list[str]:
    if isinstance(actions, str):
        return [a.strip() for a in actions.replace("\n", ";").split(";") if a.strip()]
    return [a.strip() for a in actions]


def run(state: S, actions: str | Sequence[str]) -> S:
    """Apply notation strings in order (a list, or one string separated by ``;``).

    A scenario, like a record, may leave out a stock-game trick winner's ``pass`` when it
    is his only action: `skip_forced_pass` applies it after each step.
    """
    for text in _steps(actions):
        state = skip_forced_pass(state.apply(text))
    return state


def skip_forced_pass(state: S) -> S:
    """``state`` after the declaration decision's ``pass`` when that is the only legal action
    (the trick winner of a stock game with nothing, or nothing more, to declare)."""
    if state.phase is Phase.DECLARE:
        legal = state.legal_actions()
        if len(legal) == 1 and legal[0].verb is Verb.PASS:
            return state.apply(legal[0])
    return state


def dull_action(state: DealState, keep: Sequence[str | Iterable[str]] = ("", "")) -> Action:
    """The dull policy's action: ``pass`` when declaring, else the first legal card not kept.

    A card counts as kept while the player holds no more copies of it than
    ``keep[player]`` names; when only kept cards are legal the first legal card is played.
    """
    if state.phase is Phase.DECLARE:
        return Action(Verb.PASS)
    player = state.current_player
    assert player is not None, "the deal is over"
    kept = Counter(cards(keep[player]))
    held = Counter(state.view(player).hand)
    legal = [a for a in state.legal_actions() if a.verb is Verb.PLAY]
    free = [a for a in legal if held[a.cards[0]] > kept[a.cards[0]]]
    return (free or legal)[0]


def play_until(state: StockDeal, tricks: int, keep: Sequence[str | Iterable[str]] = ("", "")) -> StockDeal:
    """Play on with `dull_action` until ``tricks`` tricks are done and the next is unstarted.

    With ``tricks=32`` this plays the deal to its end.
    """
    while not (state.tricks >= tricks and not state.trick and state.phase is not Phase.DECLARE):
        if state.is_over:
            raise AssertionError(f"the deal ended after {state.tricks} tricks, before {tricks}")
        state = state.apply(dull_action(state, keep))
    return state


def play_trick(state: StockDeal, player: int, card: str, keep: Sequence[str | Iterable[str]] = ("", "")) -> StockDeal:
    """Play one whole trick: ``player`` plays ``card`` (notation ``QS`` or ``QS*``), the other plays dully.

    Works whoever leads; the state must be at the start of a trick.
    """
    assert not state.trick and state.phase in (Phase.PLAY, Phase.PLAYOFF)
    for _ in range(2):
        if state.current_player == player:
            state = state.apply(f"play {card}")
        else:
            state = state.apply(dull_action(state, keep))
    return state


def finish_deal(game: GameState, keep: Sequence[str | Iterable[str]] = ("", "")) -> GameState:
    """Play the game's current deal to its end with `dull_action` (the next deal is then dealt)."""
    number = game.deal_number
    while not game.is_over and game.deal_number == number:
        game = game.apply(dull_action(game.deal, keep))
    return game
