"""`new_deal`: one deal of any registered variant."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .cards import Card
from .deck import check_dealer, check_seed, seeded_order, split_deck_text
from .engine.registry import engine_for
from .errors import DealError, NotationError
from .rules.registry import get_rules
from .rules.ruleset import RuleSet

if TYPE_CHECKING:
    from .state.deal import DealState

__all__ = ["new_deal", "resolve_rules"]


def resolve_rules(variant: str | RuleSet, options: dict[str, Any]) -> RuleSet:
    """The rule set for a variant name or rule set, with ``options`` applied."""
    if isinstance(variant, RuleSet):
        return variant.with_options(**options)
    return get_rules(variant, **options)


def new_deal(
    variant: str | RuleSet,
    *,
    seed: int | None = None,
    deck: Sequence[Card | str] | None = None,
    dealer: int | None = None,
    **options: Any,
) -> DealState:
    """One deal of ``variant``, from the shuffle to the last trick.

    Args:
        variant: a registered name (see `available_variants`) or a `RuleSet`.
        seed: shuffle seed; the same seed deals the same cards on every platform
            (see `bezique_rules.deck.shuffle`). None picks a fresh seed, kept in
            the state so that the deal can be recorded and replayed.
        deck: a stacked deck, top card first, dealt exactly as the variant's
            rules page says (instead of a shuffle).
        dealer: the dealer's seat; default the last seat, so player 0 acts first.
        **options: option changes (see `get_rules`).

    >>> deal = new_deal("bezique", seed=42)
    >>> deal.current_player, len(deal.view(0).hand), deal.view(0).stock_size
    (0, 8, 47)

    Raises:
        UnknownVariantError: no such variant.
        OptionError: an unknown option or a bad value.
        DealError: ``deck`` is not a permutation of the variant's deck (the message
            names what is missing or extra), a bad dealer or seed (0 to 2**64 - 1), or
            both seed and deck (a `DealTypeError`, also a TypeError, for a wrong type).
    """
    rules = variant if not options and isinstance(variant, RuleSet) else resolve_rules(variant, options)
    seat = rules.players - 1 if dealer is None else check_dealer(dealer, rules.players)
    if deck is not None:
        if seed is not None:
            raise DealError("give either a seed or a stacked deck, not both")
        if isinstance(deck, str):
            try:
                deck = split_deck_text(deck)
            except NotationError as exc:
                raise DealError(f"the stacked deck is not card notation: {exc}") from None
        order = rules.deck.order_from_cards(deck)
    else:
        seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
        order = seeded_order(rules.deck.size, seed)
    return engine_for(rules.engine).new_deal(rules, order, seed, seat)
