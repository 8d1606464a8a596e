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

A game that began with the cut for the first deal (``first_dealer="cut"``) records it as
``"cut": {"cards": ["AS", "9C"], "decision": "deal"}`` (every card drawn, in drawing
order; ``decision`` only where the winner decides), and its ``dealer`` is the seat the cut
gave; replaying draws exactly those cards. A record without ``cut`` had its first dealer
given by seat.

Older behaviour versions replay: when a preset's behaviour changes, the change
comes with an option whose `OptionSpec.legacy` value keeps the old behaviour. A
record names every option of the version it was written under, so an option it
does not name was added later and takes its legacy value. A record without
``rules_version`` was written by release 0.1.0: behaviour version 1 of its preset.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from ..actions import Phase, Verb
from ..api import new_deal
from ..errors import ArgumentTypeError, BeziqueRulesError, RecordError, RecordTypeError, quote
from ..rules.registry import options_for_version
from .deal import DealState
from .game import GameState, new_game

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_RECORD_ACTIONS",
    "MAX_RECORD_CHARS",
    "MAX_RECORD_DEPTH",
    "check_record",
    "record_of",
    "replay",
]

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

    Raises:
        ArgumentTypeError: ``state`` is not a deal or a game (also a TypeError).
    """
    if not isinstance(state, (DealState, GameState)):
        raise ArgumentTypeError(f"record_of needs a DealState or a GameState, not {quote(state)}")
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
        cut = state.cut_for_deal
        if cut is not None:
            record["cut"] = {"cards": [str(c) for c in cut.cards]}
            if cut.decision is not None:
                record["cut"]["decision"] = cut.decision
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
    if "deck" in record and state.setup.packet >= 0 and _replayed_packet(record) != state.setup.packet:
        record["cut_packet"] = state.setup.packet
    record["actions"] = [str(a) for _p, a in state.history]
    return record


def _replayed_packet(record: dict[str, Any]) -> int:
    """The dealer's cut (six-pack Bezique) that the deal of ``record``'s deck list gives."""
    deal = new_deal(record["variant"], deck=record["deck"], dealer=record.get("dealer"), **record["options"])
    return deal.setup.packet


def _with_packet(state: DealState, packet: object) -> DealState:
    """``state`` (a new deal of a stacked deck) with the dealer's cut ``packet`` of its record."""
    cut = state.rules.stock.cut_guess
    if cut is None or cut.packet is not None:
        raise RecordError(f"the record gives a cut_packet, but {state.rules.name} has no random cut to give")
    if not isinstance(packet, int) or isinstance(packet, bool) or not cut.smallest <= packet <= cut.largest:
        raise RecordError(
            f"the record's cut_packet is a whole number from {cut.smallest} to {cut.largest}, not {quote(packet)}"
        )
    return state._with_cut_packet(packet)


def _pass_left_out(state: DealState | GameState, text: str) -> DealState | GameState:
    """``state`` after a ``pass`` that a record may leave out: a declaration decision whose
    only legal action is ``pass``, where the record goes on with another action.

    Records written by 0.1.0 of the stock games have no such pass (that engine skipped a
    trick winner with nothing to declare); this reads them, and records written now, alike.
    """
    if state.phase is not Phase.DECLARE or text.strip().lower() == "pass":
        return state
    legal = state.legal_actions()
    if len(legal) == 1 and legal[0].verb is Verb.PASS:
        return state.apply(legal[0])
    return state


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sorted(options.items())}


MAX_RECORD_CHARS = 16_000_000
"""The longest record text `replay` parses (a 1,500-deal game is about 1.5 MB)."""
MAX_RECORD_DEPTH = 8
"""The deepest nesting of arrays and objects in a record's JSON text (records need 3)."""
MAX_RECORD_ACTIONS = 2_000_000
"""The most actions a record may hold."""

_SCALARS = (str, int, bool, type(None))
_DEAL_KEYS = frozenset(
    {"format", "version", "kind", "variant", "rules_version", "options", "seed", "deck", "dealer", "cut_packet"}
    | {"actions"}
)
_GAME_KEYS = frozenset(
    {
        "format",
        "version",
        "kind",
        "variant",
        "rules_version",
        "options",
        "seed",
        "dealer",
        "max_deals",
        "decks",
        "cut",
        "actions",
    }
)
_NOT_OPTIONS = _DEAL_KEYS | _GAME_KEYS | {"first_dealer", "cut_decision", "cut_cards"}
"""Names that may not appear among a record's ``options``: the record's own fields and the
other keywords of `new_deal` and `new_game` (no variant has an option of these names)."""
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def _parse_json(text: str) -> Any:
    """``json.loads(text)`` after checking its size and its nesting depth (so that a deeply
    nested text is refused before the parser recurses into it)."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"a record is at most {MAX_RECORD_CHARS} characters of JSON, not {len(text)}")
    depth = deepest = 0
    for ch in _NOT_BRACKETS.sub("", _STRINGS.sub("", text)):
        depth += 1 if ch in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_RECORD_DEPTH:
                raise RecordError(f"a record nests arrays and objects at most {MAX_RECORD_DEPTH} deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"a record is JSON; this is not: {quote(str(exc))}") from None


def _optional_int(record: dict[str, Any], key: str) -> int | None:
    value = record.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError(f"the record's {key} is not a whole number: {quote(value)}")
    return value


def _card_list(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"the record's {what} is not a list of card codes: {quote(value)}")
    if len(value) > 1000:
        raise RecordError(f"the record's {what} holds {len(value)} cards; no deck is that large")
    return value


def check_record(record: object) -> dict[str, Any]:
    """``record`` when it follows the record schema; else `RecordError` saying what is wrong.

    The schema: ``format`` (the string `FORMAT`), ``version`` (the int `FORMAT_VERSION`),
    ``kind`` (``"deal"`` or ``"game"``; a record without one is a deal), ``variant`` (a
    string), ``options`` (an object of option names to strings, ints, bools or null),
    ``dealer`` (an int or null), ``actions`` (a list of strings); a deal has exactly one of
    ``seed`` (an int) and ``deck`` (a list of card codes), and with a deck list may have
    ``cut_packet`` (six-pack Bezique: the dealer's cut, when it is not the one the deck order
    gives, as in a world from `determinize`); a game has a ``seed`` and may
    have ``max_deals`` (an int or null), ``decks`` (a list of card-code lists) and ``cut``
    (an object: ``cards``, a list of card codes, and optionally ``decision``, ``"deal"`` or
    ``"lead"``).

    Unknown keys: a key beginning with ``x-`` is the writer's own annotation (a player's
    name, a date) and is ignored; any other key is refused, so that a misspelt or newer
    field never silently changes what is replayed. Within ``options``, a name the variant
    does not have is refused when the record is replayed (`OptionError` in a `RecordError`),
    and a name that repeats a field of the record or a keyword of `new_deal` / `new_game`
    (``max_deals``, ``dealer``, ``decks``, ``variant``, ``seed``, ...) is refused here,
    quoting it.
    """
    if not isinstance(record, dict):
        raise RecordTypeError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT or not isinstance(record.get("format"), str):
        raise RecordError(f"not a bezique-rules record (format {quote(record.get('format'))})")
    version = record.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise RecordError(
            f"unknown record format version {quote(version)}; this library reads version {FORMAT_VERSION} (an int)"
        )
    kind = record.get("kind", "deal")
    if kind not in ("deal", "game") or not isinstance(kind, str):
        raise RecordError(f"unknown record kind {quote(kind)} (deal or game)")
    allowed = _GAME_KEYS if kind == "game" else _DEAL_KEYS
    for key in record:
        if not isinstance(key, str):
            raise RecordError(f"a record's keys are strings, not {quote(key)}")
        if key not in allowed and not key.startswith("x-"):
            known = ", ".join(sorted(allowed))
            raise RecordError(
                f"unknown field {quote(key)} in a {kind} record (its fields: {known}; "
                "fields of your own begin with 'x-')"
            )
    variant = record.get("variant")
    if not isinstance(variant, str) or not variant:
        raise RecordError(f"the record names no variant (variant {quote(variant)})")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"the record's options are not an object: {quote(options)}")
    for name, value in options.items():
        if not isinstance(name, str) or not isinstance(value, _SCALARS):
            raise RecordError(
                f"the record's options map names to strings, numbers, booleans or null, not {quote(name)}: "
                f"{quote(value)}"
            )
        if name in _NOT_OPTIONS:
            raise RecordError(
                f"the record's options repeat {quote(name)}, which is a field of the record (or of the deal "
                "or game it sets up), not an option of a variant"
            )
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("the record's actions are not a list of strings")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise RecordError(f"the record holds {len(actions)} actions; at most {MAX_RECORD_ACTIONS} are read")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"the record's seed is not a whole number: {quote(seed)}")
    rules_version = record.get("rules_version", 1)
    if not isinstance(rules_version, int) or isinstance(rules_version, bool) or rules_version < 1:
        raise RecordError(f"the record's rules_version is a whole number from 1, not {quote(rules_version)}")
    dealer = record.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)):
        raise RecordError(f"the record's dealer must be a seat (a whole number): {quote(dealer)}")
    if kind == "game":
        if seed is None:
            raise RecordError("a game record needs its seed")
        _optional_int(record, "max_deals")
        decks = record.get("decks")
        if decks is not None:
            if not isinstance(decks, list):
                raise RecordError(f"the record's decks are not a list of card lists: {quote(decks)}")
            for deck in decks:
                _card_list(deck, "decks")
        cut = record.get("cut")
        if cut is not None:
            if not isinstance(cut, dict) or not set(cut) <= {"cards", "decision"} or "cards" not in cut:
                raise RecordError(f"the record's cut is an object with cards (and a decision): {quote(cut)}")
            _card_list(cut["cards"], "cut cards")
            decision = cut.get("decision")
            if decision is not None and (not isinstance(decision, str) or decision not in ("deal", "lead")):
                raise RecordError(f"the record's cut decision is 'deal' or 'lead', not {quote(decision)}")
    else:
        deck = record.get("deck")
        if deck is not None:
            _card_list(deck, "deck")
            if seed is not None:
                raise RecordError("a deal record has either a seed or a deck list, not both")
        elif seed is None:
            raise RecordError("a deal record needs its seed or its deck list (it has neither)")
        if "cut_packet" in record and deck is None:
            raise RecordError("a deal record gives a cut_packet only with its deck list (a seed gives the cut)")
    return record


def replay(record: dict[str, Any] | str) -> DealState | GameState:
    """Rebuild a deal or game from its record, re-checking every action.

    >>> from bezique_rules import new_deal
    >>> deal = new_deal("euchre", seed=2).apply("pass")
    >>> replay(record_of(deal)) == deal
    True

    Args:
        record: a record dict, or its JSON text (see `check_record` for the schema,
            and `MAX_RECORD_CHARS`, `MAX_RECORD_DEPTH` for the limits on the text).

    Raises:
        RecordError: not JSON, too large or too deeply nested, an unknown format or
            version, a missing, unknown or ill-typed field, or an action that does not
            parse or is illegal (``.step`` is its 1-based number). A `RecordTypeError`
            (also a TypeError) when ``record`` is neither a dict nor a str.
    """
    if isinstance(record, (bytes, bytearray)):
        try:
            record = record.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("a record given as bytes is UTF-8 JSON text; this is not UTF-8") from None
    if isinstance(record, str):
        record = _parse_json(record)
        if not isinstance(record, dict):
            raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    data = check_record(record)
    kind = data.get("kind", "deal")
    options = data.get("options", {})
    try:
        state: DealState | GameState
        options = options_for_version(data["variant"], options, data.get("rules_version", 1))
        if kind == "game":
            cut = data.get("cut")
            if cut is None:
                state = new_game(
                    data["variant"],
                    seed=data["seed"],
                    dealer=data.get("dealer"),
                    max_deals=data.get("max_deals"),
                    decks=data.get("decks"),
                    **options,
                )
            else:
                state = new_game(
                    data["variant"],
                    seed=data["seed"],
                    first_dealer="cut",
                    cut_cards=cut["cards"],
                    cut_decision=cut.get("decision"),
                    max_deals=data.get("max_deals"),
                    decks=data.get("decks"),
                    **options,
                )
                if data.get("dealer") is not None and data["dealer"] != state.first_dealer:
                    raise RecordError(
                        f"the record's dealer {quote(data['dealer'])} is not the one its cut gives "
                        f"({state.first_dealer})"
                    )
        else:
            deal = new_deal(
                data["variant"], seed=data.get("seed"), deck=data.get("deck"), dealer=data.get("dealer"), **options
            )
            if "cut_packet" in data:
                deal = _with_packet(deal, data["cut_packet"])
            state = deal
    except BeziqueRulesError as exc:
        raise RecordError(f"the record's setup is invalid: {exc}") from None
    for step, text in enumerate(data["actions"], start=1):
        try:
            state = _pass_left_out(state, text)
            state = state.apply(text)
        except BeziqueRulesError as exc:
            raise RecordError(f"step {step} ({quote(text)}) does not replay: {exc}", step=step) from None
    return state


_State = TypeVar("_State", "DealState", "GameState")


def replay_as(record: dict[str, Any], cls: type[_State]) -> _State:
    """`replay`, for a record that must be of a deal (``cls=DealState``) or of a game
    (``cls=GameState``): what their ``from_dict`` do.

    Raises:
        RecordError: as `replay`, or the record is of the other kind.
    """
    state = replay(record)
    if not isinstance(state, cls):
        if isinstance(state, DealState):
            raise RecordError("this record is of a deal, not of a game")
        raise RecordError("this record is of a game, not of a deal")
    return state
