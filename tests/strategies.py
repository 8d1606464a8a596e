"""Hypothesis strategies for random legal play of every registered preset.

- `deal_specs`: a preset (every name `available_variants` lists, so new presets are
  covered without touching this file), a few non-default options drawn from the
  preset's own `OptionSpec`s, a dealer, and either a shuffle seed or a stacked deck
  (sometimes stacked so that a player is dealt a hand without court cards).
- `playthroughs`: a deal spec plus a sequence of choices that drives the play: step
  ``i`` takes legal action ``choices[i] % len(legal)``, then a `random.Random` seeded
  with ``policy_seed`` takes over. Shrinking the choices to zeros gives the simplest
  play (always the first legal action).
- `walk`: every intermediate state of a deal, from the deal to the end.
- `game_specs`: whole games (`new_game` with a small ``max_deals``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hypothesis import reject
from hypothesis import strategies as st

from bezique_rules import (
    Action,
    DealState,
    GameState,
    OptionError,
    OptionSpec,
    RuleSet,
    available_variants,
    get_rules,
    new_deal,
    new_game,
)
from bezique_rules.rules.registry import preset

__all__ = [
    "Chooser",
    "DealSpec",
    "GameSpec",
    "Options",
    "Playthrough",
    "Step",
    "deal_specs",
    "game_specs",
    "non_default_values",
    "option_changes",
    "play_game",
    "playthroughs",
    "walk",
]

Options = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class DealSpec:
    """How to make one deal: variant, option changes, dealer, and a seed or a stacked deck."""

    variant: str
    options: Options = ()
    seed: int | None = 1
    deck: tuple[str, ...] | None = None
    dealer: int | None = None

    def rules(self) -> RuleSet:
        """The rule set of the deal."""
        return get_rules(self.variant, **dict(self.options))

    def new_deal(self) -> DealState:
        """The deal itself."""
        return new_deal(self.variant, seed=self.seed, deck=self.deck, dealer=self.dealer, **dict(self.options))


@dataclass(frozen=True)
class GameSpec:
    """How to make one game: variant, option changes, seed, first dealer (a seat, None, or
    "cut") and a cap on deals."""

    variant: str
    options: Options
    seed: int
    dealer: int | Literal["cut"] | None
    max_deals: int

    def new_game(self) -> GameState:
        """The game itself."""
        return new_game(
            self.variant, seed=self.seed, first_dealer=self.dealer, max_deals=self.max_deals, **dict(self.options)
        )


class Chooser:
    """A deterministic choice policy: ``choices`` first, then a seeded `random.Random`."""

    def __init__(self, choices: Sequence[int] = (), seed: int = 0) -> None:
        self.choices = tuple(choices)
        self.rng = random.Random(seed)
        self.made = 0

    def __call__(self, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (which must not be empty)."""
        assert legal, "no legal action to choose from"
        i = self.made
        self.made += 1
        if i < len(self.choices):
            return legal[self.choices[i] % len(legal)]
        return legal[self.rng.randrange(len(legal))]


@dataclass(frozen=True)
class Playthrough:
    """A deal spec and the choices that drive its play."""

    spec: DealSpec
    choices: tuple[int, ...] = ()
    policy_seed: int = 0
    max_steps: int | None = None

    def chooser(self) -> Chooser:
        """A fresh choice policy for this playthrough."""
        return Chooser(self.choices, self.policy_seed)

    def steps(self) -> Iterator[Step]:
        """Every step of the playthrough (see `walk`)."""
        return walk(self.spec.new_deal(), self.chooser(), max_steps=self.max_steps)


@dataclass(frozen=True)
class Step:
    """One state of a walk: ``state`` is ``parent.apply(action)`` (both None for the deal itself)."""

    number: int
    state: DealState
    parent: DealState | None = None
    action: Action | None = None


def walk(
    state: DealState, choose: Callable[[Sequence[Action]], Action], *, max_steps: int | None = None
) -> Iterator[Step]:
    """Yield every intermediate state of a deal, the first one included, until it is over.

    ``choose`` picks among the legal actions; ``max_steps`` stops the walk early.
    """
    yield Step(0, state)
    number = 0
    while not state.is_over and (max_steps is None or number < max_steps):
        action = choose(state.legal_actions())
        parent, state = state, state.apply(action)
        number += 1
        yield Step(number, state, parent, action)


def play_game(game: GameState, choose: Callable[[Sequence[Action]], Action]) -> Iterator[GameState]:
    """Yield every state of a game, the first one included, until it is over."""
    yield game
    while not game.is_over:
        game = game.apply(choose(game.legal_actions()))
        yield game


# -- option strategies ----------------------------------------------------------


def non_default_values(spec: OptionSpec) -> st.SearchStrategy[Any] | None:
    """Values other than the default that ``spec`` allows (None when there are none)."""
    default = spec.default
    values: list[st.SearchStrategy[Any]] = []
    if spec.choices is not None:
        others = [c for c in spec.choices if not (c == default and type(c) is type(default))]
        if others:
            values.append(st.sampled_from(others))
    elif isinstance(default, bool):
        values.append(st.just(not default))
    elif isinstance(default, int) or spec.minimum is not None:
        low = spec.minimum if spec.minimum is not None else 0
        base = default if isinstance(default, int) else 100
        high = max(low + 10, 2 * base)
        values.append(st.integers(low, high).filter(lambda v: v != default))
    if spec.allow_none and default is not None:
        values.append(st.none())
    if not values:
        return None
    return st.one_of(values)


@st.composite
def option_changes(draw: st.DrawFn, variant: str, max_changes: int = 3) -> Options:
    """A few options of ``variant`` set to non-default values (possibly none)."""
    specs = [s for s in preset(variant).options if non_default_values(s) is not None]
    if not specs or max_changes <= 0:
        return ()
    chosen = draw(st.lists(st.sampled_from(specs), max_size=max_changes, unique_by=lambda s: s.name))
    changes: list[tuple[str, Any]] = []
    for spec in sorted(chosen, key=lambda s: s.name):
        values = non_default_values(spec)
        assert values is not None
        changes.append((spec.name, draw(values)))
    return tuple(changes)


# -- deals ----------------------------------------------------------------------


def _seat_positions(rules: RuleSet, dealer: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the deck positions (top first) dealt to it."""
    hands, _widow, _turn_up, _stock = rules.deal.deal(tuple(range(rules.deck.size)), rules.players, dealer)
    return tuple(tuple(i for i in range(rules.deck.size) if (h >> i) & 1) for h in hands)


@st.composite
def stacked_deck(draw: st.DrawFn, rules: RuleSet, dealer: int, blank_seat: int | None) -> tuple[str, ...]:
    """A random deck order (a seeded shuffle, which shrinks well); with ``blank_seat``, that
    seat is dealt no king, queen or jack (a carte-blanche hand) when the deck has enough other cards."""
    deck = rules.deck
    order = list(range(deck.size))
    random.Random(draw(st.integers(0, 2**32 - 1), label="deck seed")).shuffle(order)
    if blank_seat is not None:
        positions = _seat_positions(rules, dealer)[blank_seat]
        taken = set(positions)
        spare = [i for i in range(deck.size) if i not in taken and not deck.card(order[i]).rank.is_court]
        for pos in positions:
            if deck.card(order[pos]).rank.is_court and spare:
                other = spare.pop()
                order[pos], order[other] = order[other], order[pos]
    return tuple(str(deck.card(pid)) for pid in order)


def rules_or_reject(variant: str, options: dict[str, Any]) -> RuleSet:
    """The rule set, or the example is rejected when the options are refused as a whole (an
    `OptionError`: each value is allowed, but together the engine cannot serve them)."""
    try:
        return get_rules(variant, **options)
    except OptionError:
        reject()


@st.composite
def deal_specs(
    draw: st.DrawFn,
    variants: Sequence[str] | None = None,
    *,
    max_changes: int = 3,
    stacked: bool = True,
    forced: Options = (),
) -> DealSpec:
    """A random deal of a registered preset (all of them by default) with a few option changes.

    Mostly seeded shuffles; sometimes a stacked deck, sometimes one that deals a seat a
    hand without court cards together with a carte-blanche option when the preset has one.
    """
    names = tuple(variants) if variants is not None else available_variants(builtin=True)
    variant = draw(st.sampled_from(names))
    options = dict(draw(option_changes(variant, max_changes)))
    options.update(forced)  # options every example sets (e.g. to cover an option that is off by default)
    rules = rules_or_reject(variant, options)
    dealer = draw(st.one_of(st.none(), st.integers(0, rules.players - 1)))
    seat = rules.players - 1 if dealer is None else dealer
    kind = draw(st.sampled_from(("seed", "seed", "seed", "deck", "blank"))) if stacked else "seed"
    if kind == "seed":
        seed = draw(st.integers(0, 2**63 - 1))
        return DealSpec(variant, tuple(sorted(options.items())), seed, None, dealer)
    blank_seat = None
    if kind == "blank":
        blank_seat = draw(st.integers(0, rules.players - 1))
        cb = {s.name: s for s in preset(variant).options}.get("carte_blanche")
        if cb is not None and not options.get("carte_blanche", cb.default):
            # switch the carte blanche on: True for a yes/no option, some points for a number
            values = non_default_values(cb)
            assert values is not None
            options["carte_blanche"] = draw(values.filter(bool))
            rules = get_rules(variant, **options)
    deck = draw(stacked_deck(rules, seat, blank_seat))
    return DealSpec(variant, tuple(sorted(options.items())), None, deck, dealer)


@st.composite
def playthroughs(
    draw: st.DrawFn,
    variants: Sequence[str] | None = None,
    *,
    max_steps: int | None = None,
    max_changes: int = 3,
    forced: Options = (),
) -> Playthrough:
    """A random deal and the choices that play it (to the end unless ``max_steps``), with the
    ``forced`` options set on top of the random changes."""
    spec = draw(deal_specs(variants, max_changes=max_changes, forced=forced))
    choices = tuple(draw(st.lists(st.integers(0, 255), max_size=40)))
    policy_seed = draw(st.integers(0, 2**32 - 1))
    return Playthrough(spec, choices, policy_seed, max_steps)


@st.composite
def game_specs(draw: st.DrawFn, variants: Sequence[str] | None = None, *, max_deals: int = 2) -> GameSpec:
    """A random game of a registered preset, at most ``max_deals`` deals long."""
    names = tuple(variants) if variants is not None else available_variants(builtin=True)
    variant = draw(st.sampled_from(names))
    options = draw(option_changes(variant, 2))
    players = rules_or_reject(variant, dict(options)).players
    dealer: int | Literal["cut"] | None = draw(st.one_of(st.none(), st.integers(0, players - 1), st.just("cut")))
    return GameSpec(variant, options, draw(st.integers(0, 2**63 - 1)), dealer, draw(st.integers(1, max_deals)))
