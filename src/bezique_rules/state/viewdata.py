"""A `PlayerView` as JSON-safe data: `PlayerView.to_dict` and `PlayerView.from_dict`.

The form a server sends to a client. It holds only what the view holds (nothing
hidden), names the rule set as a record does (variant, behaviour version,
options), and writes cards and actions in their notation. The schema is on the
records page of the docs.

```json
{"format": "bezique-rules-view", "version": 1,
 "variant": "bezique", "rules_version": 1, "options": {...},
 "player": 0, "phase": "play", "current_player": 0, "dealer": 1,
 "hand": ["AH", "KH", ...], "hand_sizes": [8, 8], ...,
 "history": [[0, "play AS"], [1, "play 7S"]], "legal": ["play AH", ...]}
```
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from ..actions import Action, Phase, Verb
from ..cards import Card, CardSet, Suit
from ..errors import BeziqueRulesError, RecordError, RecordTypeError, quote

if TYPE_CHECKING:  # the view's classes call this module on use: passed in, not imported
    from ..parts.cut import CutOutcome
    from ..rules.ruleset import RuleSet
    from .deal import PlayerView, TableMeld

__all__ = ["VIEW_FORMAT", "VIEW_FORMAT_VERSION", "view_from_dict", "view_to_dict"]

VIEW_FORMAT = "bezique-rules-view"
"""The ``format`` field of a view's dict."""
VIEW_FORMAT_VERSION = 1
"""The view format version this library writes and reads."""


def _cards(cards: CardSet | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _meld(m: TableMeld) -> dict[str, Any]:
    return {"player": m.player, "kind": m.kind, "cards": _cards(m.cards), "points": m.points}


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """``view`` as a JSON-safe dict (see `PlayerView.to_dict`)."""
    rules = view.rules
    head = {
        "format": VIEW_FORMAT,
        "version": VIEW_FORMAT_VERSION,
        "variant": rules.name,
        "rules_version": rules.version,
        "options": dict(sorted(rules.option_values)),
    }
    return head | {f.name: f.write(f.value_of(view)) for f in _FIELDS}


@attrs.frozen
class _Reading:
    """What reading a view's fields needs beyond the field: its rule set and meld class."""

    rules: RuleSet
    meld: type[TableMeld]


@attrs.frozen
class _Field:
    """One field of the view's dict: its name (the `PlayerView` attribute's), how it is
    written as JSON-safe data, and how it is read back (raising `TypeError`, `ValueError`,
    `KeyError` or one of ours on data that does not fit)."""

    name: str
    write: Callable[[Any], Any]
    read: Callable[[Any, _Reading], Any]
    value_of: Callable[[PlayerView], Any] = attrs.field(
        init=False, default=attrs.Factory(lambda self: operator.attrgetter(self.name), takes_self=True)
    )
    """Reads the field from a view."""


def _plain(read: Callable[[Any], Any]) -> Callable[[Any, _Reading], Any]:
    return lambda value, _reading: read(value)


def _nullable(field: _Field) -> _Field:
    """``field``, or ``None`` written and read as ``None``."""
    write, read = field.write, field.read
    return _Field(
        field.name,
        lambda v: None if v is None else write(v),
        lambda v, reading: None if v is None else read(v, reading),
    )


def _same(value: Any) -> Any:
    return value


def _card_lists(sets: tuple[CardSet, ...]) -> list[list[str]]:
    return [_cards(s) for s in sets]


def _melds_of(melds: tuple[TableMeld, ...]) -> list[dict[str, Any]]:
    return [_meld(m) for m in melds]


def _write_cut(cut: CutOutcome) -> dict[str, Any]:
    return {"cards": _cards(cut.cards), **({} if cut.decision is None else {"decision": cut.decision})}


def _read_cut(value: Any, reading: _Reading) -> CutOutcome:
    from ..parts.cut import cut_for_deal

    rules = reading.rules
    if not isinstance(value, dict) or not set(value) <= {"cards", "decision"} or rules.cut_for_deal is None:
        raise TypeError
    return cut_for_deal(
        rules.cut_for_deal,
        rules.deck,
        rules.players,
        seed=0,
        cards=_card_list(value["cards"]),
        decision=value.get("decision"),
    )


def _read_legal(value: Any) -> tuple[Action, ...]:
    if not isinstance(value, list):
        raise TypeError
    return tuple(_action(x) for x in value)


def _field(data: dict[str, Any], field: _Field, reading: _Reading) -> Any:
    """``field`` read from ``data``, or a `RecordError` quoting what does not fit."""
    key = field.name
    value = data[key]
    try:
        return field.read(value, reading)
    except BeziqueRulesError as exc:
        raise RecordError(f"the view's {key} does not hold what the schema says: {quote(value)} ({exc})") from None
    except (TypeError, ValueError, KeyError, AttributeError):
        raise RecordError(f"the view's {key} does not hold what the schema says: {quote(value)}") from None


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError
    return value


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise TypeError
    return tuple(_int(x) for x in value)


def _card_list(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise TypeError
    return tuple(Card.parse(x) for x in value)


def _card_set(value: Any) -> CardSet:
    return CardSet(_card_list(value))


def _card_sets(value: Any) -> tuple[CardSet, ...]:
    if not isinstance(value, list):
        raise TypeError
    return tuple(_card_set(x) for x in value)


def _melds(value: Any, meld: type[TableMeld]) -> tuple[TableMeld, ...]:
    if not isinstance(value, list):
        raise TypeError
    out = []
    for m in value:
        if not isinstance(m, dict) or set(m) != {"player", "kind", "cards", "points"} or not isinstance(m["kind"], str):
            raise TypeError
        out.append(meld(_int(m["player"]), m["kind"], _card_set(m["cards"]), _int(m["points"])))
    return tuple(out)


def _action(value: Any) -> Action:
    if not isinstance(value, str):
        raise TypeError
    if value in _HIDDEN:  # another player's hidden discard or pass of cards: the bare verb
        return Action(_HIDDEN[value])
    return Action.parse(value)


_HIDDEN = {"discard": Verb.DISCARD, "give": Verb.GIVE}


def _history(value: Any) -> tuple[tuple[int, Action], ...]:
    if not isinstance(value, list):
        raise TypeError
    out = []
    for entry in value:
        if not isinstance(entry, list) or len(entry) != 2:
            raise TypeError
        out.append((_int(entry[0]), _action(entry[1])))
    return tuple(out)


_FIELDS: tuple[_Field, ...] = (
    _Field("player", _same, _plain(_int)),
    _Field("phase", lambda p: p.value, _plain(Phase)),
    _Field("current_player", _same, _plain(_opt_int)),
    _Field("dealer", _same, _plain(_int)),
    _Field("hand", _cards, _plain(_card_set)),
    _Field("hand_sizes", list, _plain(_ints)),
    _Field("tabled", _card_lists, _plain(_card_sets)),
    _Field("known", _card_lists, _plain(_card_sets)),
    _Field("trick", _cards, _plain(_card_list)),
    _Field("trick_leader", _same, _plain(_int)),
    _Field("last_trick", _cards, _plain(_card_list)),
    _Field("last_trick_leader", _same, _plain(_int)),
    _nullable(_Field("trump", lambda s: s.code, _plain(Suit.parse))),
    _nullable(_Field("turn_up", str, _plain(Card.parse))),
    _Field("stock_size", _same, _plain(_int)),
    _Field("scores", list, _plain(_ints)),
    _Field("melds", _melds_of, lambda v, reading: _melds(v, reading.meld)),
    _Field("pending", _melds_of, lambda v, reading: _melds(v, reading.meld)),
    _Field("won", _card_lists, _plain(_card_sets)),
    _Field("history", lambda h: [[who, str(a)] for who, a in h], _plain(_history)),
    _nullable(_Field("game_scores", list, _plain(_ints))),
    _Field("maker", _same, _plain(_opt_int)),
    _Field("alone", _same, _plain(_opt_int)),
    _Field("lone_defender", _same, _plain(_opt_int)),
    _Field("sitting_out", list, _plain(_ints)),
    _Field("buried", _cards, _plain(_card_list)),
    _Field("cut", _same, _plain(_opt_int)),
    _nullable(_Field("cut_for_deal", _write_cut, _read_cut)),
    _Field("legal", lambda legal: [str(a) for a in legal], _plain(_read_legal)),
)
"""The view's fields in the dict's order: each written and read in one place."""

_KEYS = ("format", "version", "variant", "rules_version", "options", *(f.name for f in _FIELDS))


def view_from_dict(data: dict[str, Any], view: type[PlayerView], meld: type[TableMeld]) -> PlayerView:
    """The ``view`` of a `view_to_dict` dict, its melds ``meld`` values (see `PlayerView.from_dict`)."""
    from ..rules.registry import get_rules, options_for_version

    if not isinstance(data, dict):
        raise RecordTypeError(f"a view's data is a dict, not {quote(data)}")
    if data.get("format") != VIEW_FORMAT:
        raise RecordError(f"not a view of this library: format {quote(data.get('format'))}")
    if data.get("version") != VIEW_FORMAT_VERSION:
        raise RecordError(
            f"view format version {quote(data.get('version'))}; this library reads version {VIEW_FORMAT_VERSION}"
        )
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise RecordError(f"the view lacks {', '.join(missing)}")
    extra = sorted(str(k) for k in data if k not in _KEYS)
    if extra:
        raise RecordError(f"the view has fields this format does not know: {', '.join(extra)}")
    options = data["options"]
    if not isinstance(options, dict) or not isinstance(data["variant"], str):
        raise RecordError(f"the view's variant and options are a name and a dict: {quote(data['variant'])}")
    try:
        version = _int(data["rules_version"])
        rules = get_rules(data["variant"], **options_for_version(data["variant"], options, version))
    except BeziqueRulesError as exc:
        raise RecordError(f"the view's rule set does not build: {exc}") from None
    except TypeError:
        raise RecordError(f"the view's rules_version is an int: {quote(data['rules_version'])}") from None
    if rules.version != version:
        raise RecordError(f"the view was written under behaviour version {version} of {rules.name!r}")
    reading = _Reading(rules, meld)
    return view(rules=rules, **{f.name: _field(data, f, reading) for f in _FIELDS})
