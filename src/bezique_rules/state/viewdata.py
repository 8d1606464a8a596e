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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..actions import Action, Phase, Verb
from ..cards import Card, CardSet, Suit
from ..errors import BeziqueRulesError, RecordError, RecordTypeError, quote

if TYPE_CHECKING:  # the view's classes call this module on use: passed in, not imported
    from .deal import PlayerView, TableMeld

__all__ = ["VIEW_FORMAT", "VIEW_FORMAT_VERSION", "view_from_dict", "view_to_dict"]

VIEW_FORMAT = "bezique-rules-view"
"""The ``format`` field of a view's dict."""
VIEW_FORMAT_VERSION = 1
"""The view format version this library writes and reads."""

_T = TypeVar("_T")


def _cards(cards: CardSet | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _meld(m: TableMeld) -> dict[str, Any]:
    return {"player": m.player, "kind": m.kind, "cards": _cards(m.cards), "points": m.points}


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """``view`` as a JSON-safe dict (see `PlayerView.to_dict`)."""
    rules = view.rules
    cut = view.cut_for_deal
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_FORMAT_VERSION,
        "variant": rules.name,
        "rules_version": rules.version,
        "options": dict(sorted(rules.option_values)),
        "player": view.player,
        "phase": view.phase.value,
        "current_player": view.current_player,
        "dealer": view.dealer,
        "hand": _cards(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "tabled": [_cards(t) for t in view.tabled],
        "known": [_cards(k) for k in view.known],
        "trick": _cards(view.trick),
        "trick_leader": view.trick_leader,
        "last_trick": _cards(view.last_trick),
        "last_trick_leader": view.last_trick_leader,
        "trump": None if view.trump is None else view.trump.code,
        "turn_up": None if view.turn_up is None else str(view.turn_up),
        "stock_size": view.stock_size,
        "scores": list(view.scores),
        "melds": [_meld(m) for m in view.melds],
        "pending": [_meld(m) for m in view.pending],
        "won": [_cards(w) for w in view.won],
        "history": [[who, str(a)] for who, a in view.history],
        "game_scores": None if view.game_scores is None else list(view.game_scores),
        "maker": view.maker,
        "alone": view.alone,
        "lone_defender": view.lone_defender,
        "sitting_out": list(view.sitting_out),
        "buried": _cards(view.buried),
        "cut": view.cut,
        "cut_for_deal": None
        if cut is None
        else {"cards": _cards(cut.cards), **({} if cut.decision is None else {"decision": cut.decision})},
        "legal": [str(a) for a in view.legal],
    }


_KEYS = tuple(
    [
        "format",
        "version",
        "variant",
        "rules_version",
        "options",
        "player",
        "phase",
        "current_player",
        "dealer",
        "hand",
        "hand_sizes",
        "tabled",
        "known",
        "trick",
        "trick_leader",
        "last_trick",
        "last_trick_leader",
        "trump",
        "turn_up",
        "stock_size",
        "scores",
        "melds",
        "pending",
        "won",
        "history",
        "game_scores",
        "maker",
        "alone",
        "lone_defender",
        "sitting_out",
        "buried",
        "cut",
        "cut_for_deal",
        "legal",
    ]
)


def _field(data: dict[str, Any], key: str, read: Callable[[Any], _T]) -> _T:
    value = data[key]
    try:
        return read(value)
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


def view_from_dict(data: dict[str, Any], view: type[PlayerView], meld: type[TableMeld]) -> PlayerView:
    """The ``view`` of a `view_to_dict` dict, its melds ``meld`` values (see `PlayerView.from_dict`)."""
    from ..parts.cut import cut_for_deal
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
    trump = data["trump"]
    turn_up = data["turn_up"]
    cut_data = data["cut_for_deal"]

    def read_cut(value: Any) -> Any:
        if value is None:
            return None
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

    game_scores = data["game_scores"]
    return view(
        player=_field(data, "player", _int),
        phase=_field(data, "phase", Phase),
        current_player=_field(data, "current_player", _opt_int),
        dealer=_field(data, "dealer", _int),
        hand=_field(data, "hand", _card_set),
        hand_sizes=_field(data, "hand_sizes", _ints),
        tabled=_field(data, "tabled", _card_sets),
        known=_field(data, "known", _card_sets),
        trick=_field(data, "trick", _card_list),
        trick_leader=_field(data, "trick_leader", _int),
        last_trick=_field(data, "last_trick", _card_list),
        last_trick_leader=_field(data, "last_trick_leader", _int),
        trump=None if trump is None else _field(data, "trump", Suit.parse),
        turn_up=None if turn_up is None else _field(data, "turn_up", Card.parse),
        stock_size=_field(data, "stock_size", _int),
        scores=_field(data, "scores", _ints),
        melds=_field(data, "melds", lambda v: _melds(v, meld)),
        pending=_field(data, "pending", lambda v: _melds(v, meld)),
        won=_field(data, "won", _card_sets),
        history=_field(data, "history", _history),
        game_scores=None if game_scores is None else _field(data, "game_scores", _ints),
        maker=_field(data, "maker", _opt_int),
        alone=_field(data, "alone", _opt_int),
        lone_defender=_field(data, "lone_defender", _opt_int),
        sitting_out=_field(data, "sitting_out", _ints),
        buried=_field(data, "buried", _card_list),
        cut=_field(data, "cut", _opt_int),
        cut_for_deal=None if cut_data is None else _field(data, "cut_for_deal", read_cut),
        rules=rules,
        legal=_field(data, "legal", lambda v: tuple(_action(x) for x in v) if isinstance(v, list) else _bad()),
    )


def _bad() -> Any:
    raise TypeError
