"""Game records: JSON-safe dicts that say how a deal or game was reached, and replay.

A record holds the format name and version, the variant, the variant's
behaviour version (``rules_version``) and every option, the seed or the stacked
deck order, the dealer, and the canonical action strings. `replay` re-applies
every action with full checks, so a tampered record fails at the step that no
longer fits.

```json
{"format": "bezique-rules-record", "version": 1, "kind": "deal",
 "variant": "bezique", "rules_version": 1, "options": {...}, "seed": 7, "dealer": 1,
 "actions": ["play AS", "play 7H", "pass", ...]}
```

Older behaviour versions replay: when a preset's behaviour changes, the change
comes with an option whose `OptionSpec.legacy` value keeps the old behaviour. A
record names every option of the version it was written under, so an option it
does not name was added later and takes its legacy value. A record without
``rules_version`` was written by release 0.1.0: behaviour version 1 of its preset.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .errors import BeziqueRulesError, RecordError

if TYPE_CHECKING:
    from .game import GameState
    from .state import DealState

__all__ = ["FORMAT", "FORMAT_VERSION", "record_of", "replay"]

FORMAT = "bezique-rules-record"
"""The ``format`` field of every record."""
FORMAT_VERSION = 1
"""The record format version this library writes and reads."""


def record_of(state: DealState | GameState) -> dict[str, Any]:
    """The record of a deal or game: how to reach ``state`` again with `replay`.

    >>> from bezique_rules import new_deal, record_of, replay
    >>> deal = new_deal("bezique", seed=3)
    >>> deal = deal.apply(deal.legal_actions()[0])
    >>> replay(record_of(deal)) == deal
    True
    """
    from .game import GameState

    rules = state.rules
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "kind": "game" if isinstance(state, GameState) else "deal",
        "variant": rules.name,
        "rules_version": rules.version,
        "options": _jsonable(dict(rules.option_values)),
    }
    if isinstance(state, GameState):
        record["seed"] = state.seed
        record["dealer"] = state.first_dealer
        if state.max_deals is not None:
            record["max_deals"] = state.max_deals
        if state.decks is not None:
            record["decks"] = [list(d) for d in state.decks]
        record["actions"] = [str(a) for a in state.all_actions()]
        return record
    if state.seed is not None:
        record["seed"] = state.seed
    else:
        cards = rules.deck.cards
        record["deck"] = [str(cards[c]) for c in state.deck_order]
    record["dealer"] = state.dealer
    record["actions"] = [str(a) for _p, a in state.history]
    return record


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sorted(options.items())}


def replay(record: dict[str, Any] | str) -> DealState | GameState:
    """Rebuild a deal or game from its record, re-checking every action.

    >>> from bezique_rules import new_deal
    >>> deal = new_deal("euchre", seed=2).apply("pass")
    >>> replay(record_of(deal)) == deal
    True

    Args:
        record: a record dict, or its JSON text.

    Raises:
        RecordError: not JSON, an unknown format or version, a bad field, or an
            action that does not parse or is illegal (``.step`` is its 1-based number).
    """
    from .api import new_deal
    from .game import new_game
    from .rules.registry import options_for_version

    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError as exc:
            raise RecordError(f"a record is JSON; this is not: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a bezique-rules record (format {record.get('format')!r})")
    if record.get("version") != FORMAT_VERSION:
        raise RecordError(
            f"unknown record format version {record.get('version')!r}; this library reads version {FORMAT_VERSION}"
        )
    kind = record.get("kind", "deal")
    variant = record.get("variant")
    options = record.get("options", {})
    actions = record.get("actions")
    if not isinstance(variant, str):
        raise RecordError("the record names no variant")
    if not isinstance(options, dict):
        raise RecordError("the record's options are not an object")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("the record's actions are not a list of strings")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"the record's seed is not a whole number: {seed!r}")
    rules_version = record.get("rules_version", 1)
    if not isinstance(rules_version, int) or isinstance(rules_version, bool) or rules_version < 1:
        raise RecordError(f"the record's rules_version is not a whole number from 1: {rules_version!r}")
    try:
        state: DealState | GameState
        options = options_for_version(variant, options, rules_version)
        if kind == "game":
            if seed is None:
                raise RecordError("a game record needs its seed")
            decks = record.get("decks")
            if decks is not None and not isinstance(decks, list):
                raise RecordError("the record's decks are not a list of card lists")
            state = new_game(
                variant,
                seed=seed,
                dealer=record.get("dealer"),
                max_deals=record.get("max_deals"),
                decks=decks,
                **options,
            )
        elif kind == "deal":
            deck = record.get("deck")
            if deck is not None and not isinstance(deck, list):
                raise RecordError("the record's deck is not a list of card codes")
            if deck is not None and seed is not None:
                raise RecordError("a deal record has either a seed or a deck list, not both")
            state = new_deal(variant, seed=seed, deck=deck, dealer=record.get("dealer"), **options)
        else:
            raise RecordError(f"unknown record kind {kind!r} (deal or game)")
    except RecordError:
        raise
    except BeziqueRulesError as exc:
        raise RecordError(f"the record's setup is invalid: {exc}") from None
    for step, text in enumerate(actions, start=1):
        try:
            state = state.apply(text)
        except BeziqueRulesError as exc:
            raise RecordError(f"step {step} ({text!r}) does not replay: {exc}", step=step) from None
    return state
