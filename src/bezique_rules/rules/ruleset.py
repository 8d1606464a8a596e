"""`RuleSet`: a variant composed from the shared parts, with validated options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import attrs

from ..actions import Action, ActionSpace
from ..checks import check_seat, is_int
from ..deck import DealPattern, DeckSpec
from ..errors import ActionTypeError, IllegalActionError, OptionError, OptionTypeError, RuleCode, quote
from ..lazy import built_once
from ..parts.auction import Auction, ContractRules, ContractScoring
from ..parts.closing import ClosingGame
from ..parts.cut import CutForDeal
from ..parts.euchre import EuchreScoring, OrderUp
from ..parts.melds import MeldRules, MeldSearch, MeldTable, index_instances
from ..parts.scoring import CardPoints, DealsEnd, GameEnd
from ..parts.stock import CardTiming, CutGuess, DeclarationPrivilege, LastTrickBonusAt, StockRules
from ..parts.tricks import PlayDuty, TrickPolicy
from ..parts.trumps import NO_TRUMP, TrumpOrder, TrumpTable

if TYPE_CHECKING:
    from attrs import AttrsInstance

    from ..engine.registry import EngineTables
    from ..state.observation import EncodingPlan, ObservationLayout

__all__ = [
    "MAX_OPTION_INT",
    "CardTiming",
    "CutGuess",
    "DeclarationPrivilege",
    "LastTrickBonusAt",
    "OptionSpec",
    "OptionValue",
    "RuleSet",
    "StockRules",
    "check_dealt_deck",
    "describe_options",
    "offered_options",
    "part_of",
    "read_options",
]

_UNSET: Any = object()
_ANY_GAME_END = DealsEnd(1)
"""The game end every `RuleSet.table_key` shows (no deal reads the game end)."""

MAX_OPTION_INT = 1_000_000
"""The greatest value of a whole-number option without a `maximum` of its own: a bound on
sizes (targets, bids, bonuses, numbers of deals) so that no option makes a game endless or
a table huge."""

OptionValue: TypeAlias = "bool | int | str | None"
"""The value of a rule-set option: a switch, a number, a named choice, or None (off)."""

_Part = TypeVar("_Part")
_Options = TypeVar("_Options", bound="AttrsInstance")


def part_of(rules: RuleSet, part: object, kind: type[_Part]) -> _Part:
    """``part`` (a part of ``rules``) as the ``kind`` an engine needs.

    Engines call it once when they compile a rule set, so that a mismatched part (Euchre's
    bidding on the auction engine) is a clear error at build time.

    >>> from bezique_rules import get_rules
    >>> from bezique_rules.parts.euchre import OrderUp
    >>> part_of(get_rules("euchre"), get_rules("euchre").bidding, OrderUp).stick_the_dealer
    False

    Raises:
        OptionError: ``part`` is not a ``kind``.
    """
    if not isinstance(part, kind):
        raise OptionError(
            f"{rules.name!r} runs on the {rules.engine!r} engine, which needs a {kind.__name__} part, not {part!r}"
        )
    return part


@attrs.frozen
class OptionSpec:
    """One option of a preset: its name, default, allowed values and meaning.

    >>> spec = OptionSpec("target", 1000, minimum=1, doc="Points to win.")
    >>> spec.validate(1500)
    1500
    """

    name: str
    """The option's name (a Python identifier)."""
    default: OptionValue
    """The preset's default."""
    choices: tuple[OptionValue, ...] | None = None
    """The allowed values, when the option is a choice."""
    minimum: int | None = None
    """For whole-number options: the least allowed value."""
    maximum: int | None = None
    """For whole-number options: the greatest allowed value (default `MAX_OPTION_INT`)."""
    allow_none: bool = False
    """Whether None is allowed (an option that can be switched off)."""
    doc: str = ""
    """What the option means."""
    since: int = 1
    """The preset's behaviour version that added the option (1: from the start)."""
    legacy: OptionValue = None
    """For an option added later (``since`` > 1): the value that keeps the behaviour of
    the versions before it; a record written under such a version, which does not name
    the option, replays with this value (`bezique_rules.replay`)."""

    def validate(self, value: object) -> OptionValue:
        """Return ``value`` when allowed, else raise `OptionError` naming what is allowed
        (an `OptionTypeError`, also a TypeError, when the value's type is wrong)."""
        if value is None and self.allow_none:
            return None
        if self.choices is not None:
            for c in self.choices:
                if type(value) is type(c) and value == c:
                    return c
            allowed = ", ".join(repr(c) for c in self.choices)
            error = OptionError if any(type(value) is type(c) for c in self.choices) else OptionTypeError
            raise error(f"option {self.name!r} does not allow {quote(value)}; allowed: {allowed}")
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise OptionTypeError(f"option {self.name!r} takes True or False, not {quote(value)}")
            return value
        if isinstance(self.default, int) or self.minimum is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise OptionTypeError(f"option {self.name!r} takes a whole number, not {quote(value)}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {quote(value)}")
            top = MAX_OPTION_INT if self.maximum is None else self.maximum
            if value > top:
                raise OptionError(f"option {self.name!r} must be at most {top}, not {quote(value)}")
            return int(value)
        if isinstance(value, (bool, int, str)):
            return value
        raise OptionTypeError(f"option {self.name!r} takes a switch, a number or a name, not {quote(value)}")

    @property
    def allowed(self) -> str:
        """A short description of the allowed values, for docs and the CLI."""
        if self.choices is not None:
            text = " | ".join(repr(c) for c in self.choices)
        elif isinstance(self.default, bool):
            text = "True | False"
        elif self.minimum is not None and self.maximum is not None:
            text = f"{self.minimum} <= int <= {self.maximum}"
        elif self.minimum is not None:
            text = f"int >= {self.minimum}"
        else:
            text = "int"
        return text + (" | None" if self.allow_none else "")


@attrs.frozen(cache_hash=True, repr=False)
class RuleSet:
    """A variant: the parts it is built from, and its options.

    Get one with `get_rules`; change options with `with_options`. Every field
    is a frozen part, so a rule set is a value: equal rule sets behave alike.
    """

    name: str
    """The registered name."""
    players: int
    """How many players (seats 0 … n-1)."""
    deck: DeckSpec
    """The cards."""
    deal: DealPattern
    """How cards are dealt."""
    trump_order: TrumpOrder
    """Trick order and trump rules."""
    card_points: CardPoints
    """What cards won in tricks score, and the last-trick bonus."""
    game_end: GameEnd
    """How a game of several deals ends."""
    engine: str = "stock"
    """Which engine sequences the phases (``"stock"``: draw after each trick)."""
    melds: MeldTable = MeldTable(())
    """The meld table."""
    meld_rules: MeldRules = MeldRules()
    """The declaration rules and their options."""
    stock_policy: TrickPolicy = TrickPolicy(PlayDuty.FREE)
    """Play duties while the stock lasts."""
    playoff_policy: TrickPolicy = TrickPolicy(PlayDuty.FOLLOW_BEAT_OR_TRUMP)
    """Play duties once the stock is exhausted."""
    stock: StockRules = StockRules()
    """Stock-game sequencing."""
    partnership: bool = False
    """Whether players 0 & 2 and 1 & 3 are partners scoring as sides."""
    bidding: Auction | OrderUp | None = None
    """The bidding part (an `Auction`, Euchre's `OrderUp` rounds), or None."""
    scoring: ContractScoring | EuchreScoring | None = None
    """The deal-scoring part of engines that settle a contract, or None."""
    contract: ContractRules | None = None
    """What happens between the auction and the play (`ContractRules`), or None."""
    closing_game: ClosingGame | None = None
    """The closing games' parts (marriages on lead, the trump exchange, closing, "out", game
    points: `ClosingGame`), or None."""
    cut_for_deal: CutForDeal | None = None
    """How the players cut for the first deal (``new_game(..., first_dealer="cut")``), or
    None when the variant has no cut (`bezique_rules.parts.cut`)."""
    version: int = 1
    """The behaviour version: bumped whenever the preset's behaviour changes."""
    description: str = ""
    """One line saying what the variant is."""
    option_values: tuple[tuple[str, OptionValue], ...] = ()
    """The options, as (name, value) pairs (read them through `options`)."""
    option_specs: tuple[OptionSpec, ...] = attrs.field(default=(), eq=False, repr=False)
    """What each option allows."""
    builder: Callable[[str, Mapping[str, OptionValue]], RuleSet] | None = attrs.field(
        default=None, eq=False, repr=False
    )
    """Rebuilds the rule set from options (used by `with_options`)."""
    _tables_of: RuleSet | None = attrs.field(default=None, init=False, eq=False, repr=False)
    """A rule set equal to this one in every part the deal engines read (it differs only in
    name, options, game end, version or description) whose precomputed tables this one
    uses instead of building its own (set by the registry: see `share_tables`)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and copy) a rule set the registry gives back as its key, the variant name,
        options and behaviour version, without its tables; unpickling asks the registry, so
        it returns the registry's own rule set object with its tables (`pickle_key`). Any
        other rule set (built by hand, parts swapped with ``attrs.evolve``) pickles its parts,
        and unpickles as one shared object per equal rule set (`rules_from_parts`)."""
        from .registry import pickle_key, rules_from_key, rules_from_parts  # the registry is above: imported on use

        key = pickle_key(self)
        if key is not None:
            return (rules_from_key, key)
        return (rules_from_parts, (tuple((f.name, getattr(self, f.name)) for f in attrs.fields(RuleSet) if f.init),))

    @property
    def draws_from_stock(self) -> bool:
        """Whether the players draw from a stock after the tricks (Bezique, two-hand Pinochle,
        Marjolet, Sixty-six): the deal leaves cards over and no bidding part keeps them as a
        widow or a kitty."""
        dealt = sum(count for _recipient, count in self.deal.packets) + (1 if self.deal.turn_up else 0)
        return self.bidding is None and dealt < self.deck.size

    @property
    def melds_tabled(self) -> bool:
        """Whether declared melds lie face up on the table and stay in their owner's hand,
        playable from there (``*`` in the notation): the stock games that declare melds after
        a trick won. In the bidding games melds are shown once and taken
        back; the closing games show a marriage as one of its cards is led."""
        return bool(self.melds.kinds) and self.draws_from_stock

    @property
    def card_points_at_end(self) -> bool:
        """Whether the points of the cards won in tricks join the deal's scores only when the
        deal ends, the scores during the play being melds and bonuses (Bezique's brisques,
        `StockRules.card_timing`): a stock game that does not count them as they are won. A
        closing game counts them as they are won; the bidding games settle the deal at its end."""
        return self.draws_from_stock and self.closing_game is None and self.stock.card_timing != "immediate"

    @built_once
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: ((0, 2), (1, 3)) with partners, else one player each."""
        if self.partnership:
            return tuple(tuple(range(s, self.players, 2)) for s in range(2))
        return tuple((p,) for p in range(self.players))

    def side_of(self, player: int) -> int:
        """The side of ``player`` (an index into `sides`).

        Raises:
            DealTypeError: ``player`` is not an int (or is a bool).
            DealError: no such seat.
        """
        player = check_seat(player, self.players)
        return player % 2 if self.partnership else player

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """Every option and its value, defaults included (read-only)."""
        return MappingProxyType(dict(self.option_values))

    def __repr__(self) -> str:
        """The variant and the options that differ from its defaults (the parts are left out:
        compare rule sets with ``==``).

        >>> from bezique_rules import get_rules
        >>> get_rules("bezique", target=1500)
        RuleSet('bezique', target=1500)
        """
        defaults = {spec.name: spec.default for spec in self.option_specs}
        changed = "".join(
            f", {name}={value!r}"
            for name, value in self.option_values
            if name not in defaults or defaults[name] != value
        )
        return f"RuleSet({self.name!r}{changed})"

    def with_options(self, **changes: Any) -> RuleSet:
        """A rule set like this one with some options changed.

        >>> from bezique_rules import get_rules
        >>> get_rules("bezique").with_options(target=1500).options["target"]
        1500

        Raises:
            OptionError: an unknown option, or a value it does not allow.
        """
        if not changes:
            return self
        from .registry import rebuild  # the registry is above: imported on use

        return rebuild(self, changes)

    # -- precomputed tables -------------------------------------------------

    def table_key(self) -> RuleSet:
        """This rule set with what no deal reads blanked (name, options, game end, cut for
        deal, version, description): rule sets with equal keys have equal tables."""
        return attrs.evolve(
            self, name="", option_values=(), game_end=_ANY_GAME_END, cut_for_deal=None, version=0, description=""
        )

    def share_tables(self, source: RuleSet) -> None:
        """Use ``source``'s precomputed tables (built once, on first use) instead of building
        this rule set's own; ``source.table_key()`` must equal ``self.table_key()``."""
        while source._tables_of is not None:
            source = source._tables_of
        if source is not self:
            object.__setattr__(self, "_tables_of", source)

    @built_once
    def trump_tables(self) -> tuple[TrumpTable, ...]:
        """Trump tables indexed by trump suit 0-3, and [4] (also [-1]) for no trump."""
        if self._tables_of is not None:
            return self._tables_of.trump_tables
        tables = [self.trump_order.table(self.deck, t) for t in range(4)]
        tables.append(self.trump_order.table(self.deck, NO_TRUMP))
        return tuple(tables)

    @built_once
    def meld_instances(self) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
        """Meld instances indexed like `trump_tables`."""
        if self._tables_of is not None:
            return self._tables_of.meld_instances
        out = [self.melds.instances(self.deck, t) for t in range(4)]
        out.append(self.melds.instances(self.deck, NO_TRUMP))
        return tuple(out)

    @built_once
    def meld_search(self) -> tuple[MeldSearch, ...]:
        """The meld search per trump (``.legal``, ``.keys``, ``.choose``), indexed
        like `trump_tables`."""
        if self._tables_of is not None:
            return self._tables_of.meld_search
        return tuple(
            MeldSearch(self.deck, self.melds, self.meld_rules, index_instances(self.deck, inst))
            for inst in self.meld_instances
        )

    @built_once
    def card_values(self) -> tuple[int, ...]:
        """Points per physical id for cards won in tricks."""
        if self._tables_of is not None:
            return self._tables_of.card_values
        return self.card_points.per_card(self.deck)

    @built_once
    def tables(self) -> EngineTables:
        """The tables this rule set's engine compiled for it, once (engine-private beyond
        ``actions``); the engine is found by name in the registry (`bezique_rules.engine.registry`)."""
        if self._tables_of is not None:
            return self._tables_of.tables
        from ..engine.registry import engine_for  # the engines are above: their registry is imported on use

        return engine_for(self.engine).compile(self)

    @built_once
    def encodings(self) -> EncodingPlan:
        """The observation and information-state encoding plan (see `bezique_rules.state.observation`)."""
        from ..state.observation import build_plan  # the encoding reaches up a layer: imported on use

        return build_plan(self)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of `PlayerView.observation_tensor` (see `observation_layout`)."""
        return self.encodings.observation.shape

    @property
    def observation_layout(self) -> ObservationLayout:
        """The observation's fields, each a documented slice (`bezique_rules.state.observation`)."""
        return self.encodings.observation

    @property
    def information_state_shape(self) -> tuple[int, ...]:
        """The shape of `DealState.information_state_tensor` (see `information_state_layout`)."""
        return self.encodings.information_state.shape

    @property
    def information_state_layout(self) -> ObservationLayout:
        """The information state's fields: the observation's, then the public history's."""
        return self.encodings.information_state

    @built_once
    def action_space(self) -> ActionSpace:
        """The numbered actions of this rule set (built by its engine)."""
        return self.tables.actions

    @property
    def num_actions(self) -> int:
        """How many distinct actions this rule set numbers."""
        return len(self.action_space)

    def action_id(self, action: Action | str) -> int:
        """The stable integer id of ``action``.

        >>> from bezique_rules import get_rules
        >>> rules = get_rules("bezique")
        >>> str(rules.action_from_id(rules.action_id("play QS")))
        'play QS'

        Raises:
            NotationError: the text does not parse.
            IllegalActionError: not an action of this variant (rule NOT_AN_ACTION).
            ActionTypeError: neither an `Action` nor text (also a TypeError).
        """
        if isinstance(action, str):
            a = Action.parse(action)
        elif isinstance(action, Action):
            a = action
        else:
            raise ActionTypeError(
                f"not an action (give an Action or its notation): {quote(action)}",
                rule=RuleCode.NOT_AN_ACTION,
                action=action,
            )
        i = self.action_space.ids.get(a)
        if i is None:
            raise IllegalActionError(
                f"not an action of {self.name!r}: {str(a)!r}", rule=RuleCode.NOT_AN_ACTION, action=a
            )
        return i

    def action_from_id(self, action_id: int) -> Action:
        """The action numbered ``action_id``.

        >>> from bezique_rules import get_rules
        >>> get_rules("euchre").action_from_id(0)
        Action('play AS')

        Raises:
            IllegalActionError: no action has that id.
            ActionTypeError: ``action_id`` is not an int, or is a bool (also a TypeError).
        """
        if not is_int(action_id):
            raise ActionTypeError(
                f"an action id is an int from 0 to {self.num_actions - 1}, not {quote(action_id)}",
                rule=RuleCode.NOT_AN_ACTION,
                action=action_id,
            )
        if not 0 <= action_id < self.num_actions:
            raise IllegalActionError(
                f"no action of {self.name!r} has id {quote(action_id)} (ids are 0 to {self.num_actions - 1})",
                rule=RuleCode.NOT_AN_ACTION,
                action=action_id,
            )
        return self.action_space.actions[action_id]


def describe_options(rules: RuleSet, names: tuple[str, ...]) -> str:
    """``name=value, ...`` for the options ``names`` of ``rules`` (for `OptionError` messages)."""
    values = dict(rules.option_values)
    return ", ".join(f"{n}={values[n]!r}" for n in names if n in values)


def check_dealt_deck(rules: RuleSet) -> None:
    """The checks every family runs on a built rule set: the seats fit the engines (2 to 8
    players), and the deal pattern deals each player some cards and no more than the deck holds.

    Raises:
        OptionError: the options give a deal the engines cannot serve.
    """
    if not 2 <= rules.players <= 8:
        raise OptionError(f"{rules.name!r}: {rules.players} players; the engines seat 2 to 8")
    dealt = sum(n for _p, n in rules.deal.packets) + (1 if rules.deal.turn_up else 0)
    if dealt > rules.deck.size or rules.deal.hand_size < 1:
        raise OptionError(
            f"{rules.name!r} with {describe_options(rules, tuple(n for n, _v in rules.option_values))}: "
            f"the deal needs {dealt} cards and a hand for each player, the deck has {rules.deck.size}"
        )


def validate_options(
    variant: str, specs: tuple[OptionSpec, ...], changes: Mapping[str, Any], base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Merge ``changes`` into ``base`` (or the defaults), validating each by name and value."""
    by_name = {s.name: s for s in specs}
    values = dict(base) if base is not None else {s.name: s.default for s in specs}
    for key, value in changes.items():
        if not isinstance(key, str):
            raise OptionTypeError(f"an option name is a string, not {quote(key)} (given {quote(value)})")
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(
                f"unknown option {quote(key)} (given {quote(value)}) for {variant!r}; its options: {known}"
            )
        values[key] = spec.validate(value)
    return values


def offered_options(
    family: tuple[OptionSpec, ...], fixed: tuple[tuple[str, OptionValue], ...]
) -> tuple[OptionSpec, ...]:
    """The options a preset offers: those of its ``family`` (in their order) but the ones its
    profile ``fixed`` (name, value pairs; `read_options` takes their values from there)."""
    names = {name for name, _value in fixed}
    return tuple(spec for spec in family if spec.name not in names)


def read_options(
    record: type[_Options], values: Mapping[str, Any], fixed: tuple[tuple[str, OptionValue], ...]
) -> _Options:
    """A preset's options as the typed ``record`` (an attrs class whose fields are named after
    the options of a family of presets): each field read once, by its name, from the preset's
    validated option ``values``, or, for an option the preset does not offer, taken from
    ``fixed`` (the (name, value) pairs its profile fixes).

    Raises:
        OptionError: the preset and its profile disagree: an option both offered and fixed, or
            a field neither offered nor fixed.
    """
    fixed_values = dict(fixed)
    both = sorted(set(fixed_values) & set(values))
    missing = sorted(f.name for f in attrs.fields(record) if f.name not in fixed_values and f.name not in values)
    if both or missing:
        raise OptionError(f"{record.__name__}: options both offered and fixed {both}, neither {missing}")
    return record(
        **{f.name: fixed_values[f.name] if f.name in fixed_values else values[f.name] for f in attrs.fields(record)}
    )
