"""Stacked decks and scripted play for every preset's scenario tests: one stacker, one toolkit.

`stack` builds a whole deck (top card first, as `new_deal(deck=...)` takes it) from only the
cards a scenario cares about: the hands named per seat, the widow, the turn-up and the stock
(Euchre's kitty). The places come from the rule set's own `DealPattern`, read exactly as
`batch.core.deck_tables` reads it (`rules.deal.deal(tuple(range(size)), players, dealer)`), so
no dealing order is restated here. That `DealPattern` is itself checked once per preset against
its rulebook's dealing sentence in `test_deal_patterns.py`: the independent oracle the old
per-family stacking helpers were written for.

Every place a scenario leaves open is filled from the unused cards in a fixed, harmless-first
order per family (`FILL`), so a test names what matters and nothing else changes from run to run.

`run`, `refusal`, `legal`, `play_trick`, `dull_action`, `play_until` and `play_out` are the
scripted-play toolkit every scenario module shares. The Rubicon scoring oracle
(`rubicon_result`) lives here too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

import pytest
from typing_extensions import Self

from bezique_rules import (
    Action,
    Card,
    DealState,
    GameState,
    IllegalActionError,
    Phase,
    RuleCode,
    RuleSet,
    Verb,
    get_rules,
    new_deal,
)
from bezique_rules.bits import bit_ids
from bezique_rules.engine.auction import AuctionDeal
from bezique_rules.engine.euchre import EuchreDeal
from bezique_rules.engine.stock import StockDeal

__all__ = [
    "FILL",
    "RUBICON_RESULTS",
    "Places",
    "auction_deal",
    "cards",
    "codes",
    "deal",
    "dull",
    "dull_action",
    "euchre_deal",
    "euchre_pack",
    "finish_deal",
    "hand_of",
    "legal",
    "pack",
    "pinochle_deal",
    "places",
    "play_out",
    "play_trick",
    "play_until",
    "refusal",
    "rubicon_result",
    "run",
    "run_exact",
    "skip_forced_pass",
    "stack",
    "stock_deal",
    "stock_game",
]

SUITS = "SHDC"

Cards = str | Iterable[str]
"""Card codes: ``"AS TH 7d"`` (commas allowed) or an iterable of codes."""


def codes(text: Cards) -> list[str]:
    """Normalised card codes from ``"AS TH 7d"`` or an iterable of codes."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [str(Card.parse(c)) for c in items]


def cards(text: Cards) -> list[Card]:
    """Cards from codes (a test compares these with views and hands)."""
    return [Card.parse(c) for c in codes(text)]


# -- where the cards go: the rule set's DealPattern ------------------------------------------


class Places(NamedTuple):
    """The deck places (0 = top card) of one deal, as the rule set's `DealPattern` deals them."""

    hands: tuple[tuple[int, ...], ...]
    """Per seat, its places in dealing order."""
    widow: tuple[int, ...]
    """The widow's places (auction pinochle), in dealing order."""
    turn_up: int | None
    """The turn-up's place, or None."""
    stock: tuple[int, ...]
    """The undealt places (the stock, Euchre's kitty), top first."""


def places(rules: RuleSet, dealer: int | None = None) -> Places:
    """Where each card of a stacked deck goes, read from ``rules.deal`` (default dealer: the last seat)."""
    seat = rules.players - 1 if dealer is None else dealer
    hands, widow, turn_up, stock = rules.deal.deal(tuple(range(rules.deck.size)), rules.players, seat)
    return Places(tuple(tuple(bit_ids(mask)) for mask in hands), widow, None if turn_up < 0 else turn_up, stock)


# -- what fills the open places: harmless cards first, per family -----------------------------


def _ranks(ranks: str, suits: str = SUITS) -> list[str]:
    return [r + s for r in ranks for s in suits]


def _bezique_fill(trump: str | None) -> list[str]:
    # Plain nines and eights, plain sevens, trump nines and eights (no meld uses them), then
    # tens, aces, jacks, queens, kings, and the trump seven last (no trump seven dealt by accident).
    plain = "".join(s for s in SUITS if s != trump)
    return [
        *_ranks("98", plain),
        *_ranks("7", plain),
        *_ranks("98", trump or ""),
        *_ranks("TAJQK"),
        "7" + (trump or ""),
    ]


def _multipack_fill(trump: str | None) -> list[str]:
    # No three-, four-hand or multi-pack meld uses a nine, eight or seven.
    return _ranks("987") + _ranks("TAJQK")


def _euchre_fill(trump: str | None) -> list[str]:
    # Nines, tens, queens, kings, (eights, sevens), aces, jacks; the Benny (not listed) last.
    return _ranks("9TQK87AJ")


def _pinochle_fill(trump: str | None) -> list[str]:
    # Nines first (the dix, the nine of trumps, last), then tens, aces, jacks, queens, kings.
    plain = "".join(s for s in SUITS if s != trump)
    return [*_ranks("9", plain), *_ranks("TAJQK"), *_ranks("9", trump or "")]


def _suit_by_suit_fill(trump: str | None) -> list[str]:
    # Sixty-six and Schnapsen scenarios name whole hands: the rest is the pack suit by suit.
    return [r + s for s in SUITS for r in "ATKQJ987"]


class Fill(NamedTuple):
    """How `stack` fills the places a scenario leaves open, for one family of presets."""

    order: Callable[[str | None], list[str]]
    """The fill order given the trump suit letter (None: not known yet); deck faces not
    listed come last."""
    hands_first: bool
    """Whether each hand is completed first (named seats in order, then the others) before the
    other places are filled in deck order; else every place is filled in deck order."""
    default_turn_up: str | None
    """The turn-up when none is named (None: the first free card of ``order("C")`` when
    ``hands_first``, else whatever the deck order fill puts there)."""
    guard_blank: bool = False
    """Whether a hand naming no king, queen or jack gets a spare plain jack, so that no carte
    blanche is dealt by accident (unless its seat is in ``blank``)."""


FILL: dict[str, Fill] = {
    "bezique": Fill(_bezique_fill, True, None),
    "bezique-match": Fill(_bezique_fill, True, None),
    "marjolet": Fill(_bezique_fill, True, "9S"),
    "sixty-six": Fill(_suit_by_suit_fill, True, None),
    "schnapsen": Fill(_suit_by_suit_fill, True, None),
    "three-hand-bezique": Fill(_multipack_fill, True, "9H"),
    "four-hand-bezique": Fill(_multipack_fill, True, "9H"),
    "partnership-bezique": Fill(_multipack_fill, True, "9H"),
    "rubicon-bezique": Fill(_multipack_fill, True, None, guard_blank=True),
    "six-pack-bezique": Fill(_multipack_fill, True, None, guard_blank=True),
    "eight-pack-bezique": Fill(_multipack_fill, True, None, guard_blank=True),
    "euchre": Fill(_euchre_fill, True, "9S"),
    "british-euchre": Fill(_euchre_fill, True, "9S"),
    "euchre-openspiel": Fill(_euchre_fill, True, "9S"),
    "pinochle": Fill(_pinochle_fill, False, None),
    "auction-pinochle": Fill(_pinochle_fill, False, None),
    "partnership-pinochle": Fill(_pinochle_fill, False, None),
    "double-deck-pinochle": Fill(_pinochle_fill, False, None),
}
"""Per preset: how the open places are filled."""

_SPARE_JACKS = ("JC", "JH", "JS", "JD")


def _court(code: str) -> bool:
    return code[0] in "KQJ"


def _rules(variant: str | RuleSet, options: Mapping[str, Any] | None = None) -> RuleSet:
    if isinstance(variant, RuleSet):
        return variant.with_options(**options) if options else variant
    return get_rules(variant, **(options or {}))


def pack(variant: str | RuleSet, trump: str | None = None, **options: Any) -> list[str]:
    """Every card of the preset's deck in its `FILL` order (copies side by side): a fixed deck
    that a test may shuffle with its own seed."""
    rules = _rules(variant, options)
    count = Counter(str(c) for c in rules.deck.cards)
    listed = FILL[rules.name].order(trump)
    order = [*listed, *(c for c in count if c not in listed)]
    return [c for c in order if c in count for _ in range(count[c])]


def stack(
    variant: str | RuleSet,
    hands: Mapping[int, Cards] | Sequence[Cards] | None = None,
    *,
    p0: Cards | None = None,
    p1: Cards | None = None,
    turn_up: str | None = None,
    stock: Cards = (),
    kitty: Cards = (),
    bottom: Cards = (),
    widow: Cards = (),
    dealer: int | None = None,
    blank: Collection[int] = (),
    options: Mapping[str, Any] | None = None,
) -> list[str]:
    """A whole stacked deck of ``variant`` (top card first): the named cards in their places,
    every other place filled by the family's `FILL`.

    Args:
        variant: a preset name or a `RuleSet` (``options`` applied: they may change the deck or
            the dealing, e.g. Euchre's ``deck_size`` and ``deal_pattern``).
        hands: seat -> up to a hand of cards (a sequence: seat 0, 1, ...); ``p0``/``p1`` are
            shorthands for seats 0 and 1.
        turn_up: the turn-up (its suit is trumps); default per `FILL`.
        stock: the top of the stock in drawing order (after a trick the winner draws first); a
            ``?`` leaves its place to a filler. ``kitty`` is the same places in Euchre's words.
        bottom: the last face-down cards (the final one is drawn last).
        widow: the widow's cards (auction pinochle).
        dealer: the dealer seat (default the last seat: player 0 is dealt first).
        blank: seats whose hand must be a carte blanche (multi-pack: no K, Q or J is filled in).

    Raises:
        ValueError: too many cards for a place, or a card named more often than the deck holds it.

    >>> deck = stack("bezique", p0="KH QH AH", p1="8C", turn_up="9H", stock="QS ? JD", bottom="7H")
    >>> deck[0:4], deck[16], deck[17], deck[19], deck[63], len(deck)
    (['KH', 'QH', 'AH', '8C'], '9H', 'QS', 'JD', '7H', 64)
    """
    rules = _rules(variant, options)
    if rules.name not in FILL:
        raise ValueError(f"no fill order for {rules.name!r}: add its family to FILL")
    fill = FILL[rules.name]
    where = places(rules, dealer)
    named_hands: dict[int, list[str]] = {}
    if hands is not None:
        items = hands.items() if isinstance(hands, Mapping) else enumerate(hands)
        named_hands = {seat: codes(h) for seat, h in items}
    if p0 is not None or p1 is not None:  # the two-hand shorthand names both hands, in seat order
        if named_hands:
            raise ValueError("name the hands either by seat or with p0/p1")
        named_hands = {0: codes(p0 or ()), 1: codes(p1 or ())}
    if stock and kitty:
        raise ValueError("the kitty is the stock's places: name one of them")
    top_text = stock or kitty
    top_items = top_text.replace(",", " ").split() if isinstance(top_text, str) else list(top_text)
    top: list[str | None] = [None if c == "?" else str(Card.parse(c)) for c in top_items]
    low = codes(bottom)
    widow_cards = codes(widow)
    turn = None if turn_up is None else str(Card.parse(turn_up))
    if turn is None and fill.default_turn_up is not None and where.turn_up is not None:
        turn = fill.default_turn_up
    if turn is not None and where.turn_up is None:
        raise ValueError(f"{rules.name} has no turn-up")
    for seat, h in named_hands.items():
        if not 0 <= seat < rules.players:
            raise ValueError(f"{rules.name} has no seat {seat}")
        if len(h) > len(where.hands[seat]):
            raise ValueError(f"seat {seat} gets {len(where.hands[seat])} cards, not {len(h)}")
        if seat in blank and any(_court(c) for c in h):
            raise ValueError(f"seat {seat}'s hand must be blank but names a court card")
    if len(widow_cards) > len(where.widow):
        raise ValueError(f"the widow holds {len(where.widow)} cards, not {len(widow_cards)}")
    if len(top) + len(low) > len(where.stock):
        raise ValueError(f"the stock holds {len(where.stock)} cards")
    full = [str(c) for c in rules.deck.cards]
    pool = Counter(full)
    pool.subtract(
        [c for h in named_hands.values() for c in h]
        + [c for c in top if c is not None]
        + low
        + widow_cards
        + ([turn] if turn is not None else [])
    )
    over = sorted(c for c, n in pool.items() if n < 0)
    if over:
        raise ValueError(f"named more often than the deck holds it: {' '.join(over)}")
    if turn is None and fill.hands_first and where.turn_up is not None:
        turn = next(c for c in fill.order("C") if pool[c] > 0)
        pool[turn] -= 1
    if fill.guard_blank:
        for seat in range(rules.players):
            h = named_hands.setdefault(seat, [])
            if seat not in blank and len(h) < len(where.hands[seat]) and not any(_court(c) for c in h):
                jack = next(j for j in _SPARE_JACKS if pool[j] > 0)
                pool[jack] -= 1
                h.append(jack)
    listed = fill.order(None if turn is None else turn[-1])
    order = [*listed, *(c for c in dict.fromkeys(full) if c not in listed)]
    fillers = iter([c for c in order if c in pool for _ in range(max(pool[c], 0))])
    deck: list[str | None] = [None] * rules.deck.size
    if fill.hands_first:
        seats = [*named_hands, *(s for s in range(rules.players) if s not in named_hands)]
        for seat in seats:
            h = named_hands.get(seat, [])
            padded = h + [next(fillers) for _ in range(len(where.hands[seat]) - len(h))]
            if seat in blank and any(_court(c) for c in padded):
                raise ValueError(f"not enough harmless cards to fill seat {seat}'s blank hand")
            for place, card in zip(where.hands[seat], padded):
                deck[place] = card
    else:
        for seat, h in named_hands.items():
            for place, card in zip(where.hands[seat], h):
                deck[place] = card
    for place, card in zip(where.widow, widow_cards):
        deck[place] = card
    if where.turn_up is not None and turn is not None:
        deck[where.turn_up] = turn
    for place, maybe in zip(where.stock, top):
        deck[place] = maybe
    for place, card in zip(where.stock[len(where.stock) - len(low) :], low):
        deck[place] = card
    result = [c if c is not None else next(fillers) for c in deck]
    assert sorted(result) == sorted(full)
    return result


_PLACES = frozenset({"p0", "p1", "turn_up", "stock", "kitty", "bottom", "widow", "blank"})
"""`stack`'s keywords naming cards and their places; `deal` passes every other keyword to `new_deal`."""


def deal(
    variant: str,
    hands: Mapping[int, Cards] | Sequence[Cards] | None = None,
    *,
    dealer: int | None = None,
    **kw: Any,
) -> DealState:
    """A new deal of ``variant`` on a deck built by `stack`: the keywords `stack` takes (``p0``,
    ``turn_up``, ``stock``, ...) place cards, every other keyword is a rule option (as for `new_deal`)."""
    placed = {k: v for k, v in kw.items() if k in _PLACES}
    options = {k: v for k, v in kw.items() if k not in _PLACES}
    deck = stack(variant, hands, dealer=dealer, options=options, **placed)
    return new_deal(variant, deck=deck, dealer=dealer, **options)


def stock_deal(state: DealState) -> StockDeal:
    """The deal as the stock engine's state (to read its raw fields)."""
    assert isinstance(state, StockDeal)
    return state


def auction_deal(variant: str, hands: Mapping[int, Cards] | None = None, **kw: Any) -> AuctionDeal:
    """`deal` of an auction preset, typed as the auction engine's state."""
    state = deal(variant, hands, **kw)
    assert isinstance(state, AuctionDeal)
    return state


def euchre_deal(
    variant: str = "euchre",
    hands: Mapping[int, Cards] | None = None,
    turn_up: str = "9S",
    kitty: Cards = (),
    **kw: Any,
) -> EuchreDeal:
    """`deal` of a Euchre preset (the hands, the turn-up and the top of the kitty in the Euchre
    scenarios' order), typed as the Euchre engine's state."""
    state = deal(variant, hands, turn_up=turn_up, kitty=kitty, **kw)
    assert isinstance(state, EuchreDeal)
    return state


def euchre_pack(size: int = 24, benny: str = "joker") -> list[str]:
    """Every card of a Euchre pack of ``size`` (24, 25, 32, 33), written out from the rulebook
    (§12.2 deck notes, §12.3 ``deck_size``): A K Q J T 9 of each suit, with 8 and 7 in the
    32-card packs, and the Benny (the joker, or the two of spades) in the 25- and 33-card packs.

    In the `FILL` order (nines, tens, queens, kings, eights, sevens, aces, jacks; the Benny last),
    so that a deck of it deals the dullest cards first.
    """
    out = _ranks("9TQK" + ("87" if size in (32, 33) else "") + "AJ")
    if size in (25, 33):
        out.append("JK" if benny == "joker" else "2S")
    return out


# -- scripted play -------------------------------------------------------------------------------


class _Applies(Protocol):
    def apply(self, action: Action | str | int, *, check: bool = True) -> Self: ...

    @property
    def phase(self) -> Phase: ...

    def legal_actions(self) -> tuple[Action, ...]: ...


S = TypeVar("S", bound=_Applies)
D = TypeVar("D", bound=DealState)


def _steps(actions: Sequence[str | Sequence[str]]) -> list[str]:
    out: list[str] = []
    for item in actions:
        if isinstance(item, str):
            out += [a.strip() for a in item.replace("\n", ";").split(";") if a.strip()]
        else:
            out += [a.strip() for a in item]
    return out


def run(state: S, *actions: str | Sequence[str], forced_pass: bool = True) -> S:
    """Apply notation strings in order (each argument a string separated by ``;`` or a list).

    A scenario, like a record, may leave out a stock-game trick winner's ``pass`` when it is
    his only action: `skip_forced_pass` applies it after each step (unless ``forced_pass`` is
    False, for scenarios that write every ``pass``).
    """
    for text in _steps(actions):
        state = state.apply(text)
        if forced_pass:
            state = skip_forced_pass(state)
    return state


def run_exact(state: S, *actions: str | Sequence[str]) -> S:
    """`run` applying every step as written (the scenario writes each ``pass`` itself)."""
    return run(state, *actions, forced_pass=False)


def skip_forced_pass(state: S) -> S:
    """``state`` after the declaration decision's ``pass`` when that is the only legal action
    (the trick winner of a stock game with nothing, or nothing more, to declare)."""
    if state.phase is Phase.DECLARE:
        legal = state.legal_actions()
        if len(legal) == 1 and legal[0].verb is Verb.PASS:
            return state.apply(legal[0])
    return state


def legal(state: DealState | GameState) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in state.legal_actions()]


def refusal(state: DealState | GameState, action: str) -> RuleCode:
    """The rule code with which ``action`` is refused (the test fails if it is accepted).

    Also checks that `is_legal`, `check` and `apply` agree, and that the state is unchanged.
    """
    before = (state.to_dict(), state.legal_action_ids())
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError) as checked:
        state.check(action)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert checked.value.rule is info.value.rule
    assert (state.to_dict(), state.legal_action_ids()) == before
    rule: RuleCode = info.value.rule
    return rule


Keep = Sequence[Cards] | Mapping[int, Cards] | None
"""Cards each player keeps back from `dull_action` (per seat)."""


def dull_action(state: DealState, keep: Keep = None) -> Action:
    """The dull policy's action: ``pass`` when declaring, the smallest guess of a cut, else the
    first legal card not kept (then the first legal action).

    A card counts as kept while the player holds no more copies of it than ``keep[player]``
    names; when only kept cards are legal the first legal card is played.
    """
    if state.phase is Phase.DECLARE:
        return Action(Verb.PASS)
    legal_actions = state.legal_actions()
    if state.phase is Phase.GUESS:
        return legal_actions[0]
    player = state.current_player
    assert player is not None, "the deal is over"
    if keep is None:
        kept_codes: Cards = ()
    elif isinstance(keep, Mapping):
        kept_codes = keep.get(player, ())
    else:
        kept_codes = keep[player] if player < len(keep) else ()
    kept = Counter(cards(kept_codes))
    held = Counter(state.view(player).hand)
    plays = [a for a in legal_actions if a.verb is Verb.PLAY]
    free = [a for a in plays if held[a.cards[0]] > kept[a.cards[0]]]
    return (free or plays or list(legal_actions))[0]


def dull(state: DealState) -> DealState:
    """One dull step: ``pass`` when declaring, else the first legal action."""
    legal_actions = state.legal_actions()
    if state.phase is Phase.DECLARE:
        return state.apply(next(a for a in legal_actions if a.verb is Verb.PASS))
    return state.apply(legal_actions[0])


def play_until(state: StockDeal, tricks: int, keep: Keep = None) -> StockDeal:
    """Play on with `dull_action` until ``tricks`` tricks are done and the next is unstarted."""
    while not (state.tricks >= tricks and not state.trick and state.phase is not Phase.DECLARE):
        if state.is_over:
            raise AssertionError(f"the deal ended after {state.tricks} tricks, before {tricks}")
        state = state.apply(dull_action(state, keep))
    return state


def play_trick(state: StockDeal, player: int, card: str, keep: Keep = None) -> StockDeal:
    """Play one whole two-hand trick: ``player`` plays ``card`` (``QS`` or ``QS*``), the other
    plays dully. Works whoever leads; the state must be at the start of a trick."""
    assert not state.trick and state.phase in (Phase.PLAY, Phase.PLAYOFF)
    for _ in range(2):
        if state.current_player == player:
            state = state.apply(f"play {card}")
        else:
            state = state.apply(dull_action(state, keep))
    return state


def play_out(state: D, keep: Keep = None) -> D:
    """Play the deal on with `dull_action` until it is over."""
    while not state.is_over:
        state = state.apply(dull_action(state, keep))
    return state


def finish_deal(game: GameState, keep: Keep = None) -> GameState:
    """Play the game's current deal to its end with `dull_action` (the next deal is then dealt)."""
    number = game.deal_number
    while not game.is_over and game.deal_number == number:
        game = game.apply(dull_action(game.deal, keep))
    return game


def hand_of(state: DealState | GameState, seat: int) -> set[str]:
    """The codes of the cards ``seat`` holds (read from the state, not from his view)."""
    d = state.deal if isinstance(state, GameState) else state
    return {str(c) for c in d.rules.deck.cards_of(d.hands[seat])}


def pinochle_deal(p0: Cards = (), p1: Cards = (), **kw: Any) -> StockDeal:
    """A two-hand ``pinochle`` deal with player 0's and player 1's named cards (`deal`'s keywords)."""
    return stock_game("pinochle", {0: p0, 1: p1}, **kw)


def stock_game(
    variant: str = "bezique", hands: Mapping[int, Cards] | Sequence[Cards] | None = None, **kw: Any
) -> StockDeal:
    """`deal` of a stock-engine preset (default ``bezique``), typed as the stock engine's state."""
    return stock_deal(deal(variant, hands, **kw))


# -- the Rubicon scoring oracle -------------------------------------------------------------------

RUBICON_RESULTS: dict[str, tuple[int, int, int, int]] = {
    "rubicon-bezique": (500, 1000, 50, 300),
    "six-pack-bezique": (1000, 3000, 250, 0),
    "eight-pack-bezique": (1000, 5000, 250, 0),
}
"""Reference §4.6, §5.4, §6: (game bonus, rubicon, last trick, brisques added against a rubiconed loser)."""


def rubicon_result(
    variant: str, totals: tuple[int, int], won: tuple[int, int], *, double_bonus: bool = False
) -> tuple[tuple[int, int], bool]:
    """An independent statement of §4.6 / §5.4 / §6: (the deal's scores, whether brisques count).

    Brisques count (for both) only on a tie, or when the loser's total is under the rubicon and
    his brisques lift it to the rubicon or above. Totals are cut to the hundred after the winner
    is known. The winner scores bonus + difference, or against a rubiconed loser the bonus
    (doubled in Rubicon, or with ``double_bonus``) + both totals (+ 300 of brisques in Rubicon,
    when the totals do not count them already).
    """
    bonus, rubicon, _last, all_brisques = RUBICON_RESULTS[variant]
    if variant == "rubicon-bezique":
        double_bonus = True
    counted = totals[0] == totals[1]
    if not counted:
        loser = 0 if totals[0] < totals[1] else 1
        counted = totals[loser] < rubicon <= totals[loser] + won[loser]
    t = (totals[0] + won[0], totals[1] + won[1]) if counted else totals
    if t[0] == t[1]:
        return (0, 0), counted
    winner = 0 if t[0] > t[1] else 1
    w, lo = t[winner] // 100 * 100, t[1 - winner] // 100 * 100
    if t[1 - winner] < rubicon:  # every brisque added, unless the totals count them already
        score = bonus * (2 if double_bonus else 1) + w + lo + (0 if counted else all_brisques)
    else:
        score = bonus + w - lo
    return ((score, 0) if winner == 0 else (0, score)), counted
