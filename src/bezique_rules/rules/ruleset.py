"""`RuleSet`: a variant composed from the shared parts, with validated options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import attrs

from ..actions import Action, ActionSpace
from ..bidding import Auction, ContractRules, OrderUp
from ..deck import DealPattern, DeckSpec
from ..errors import OptionError
from ..melds import DixRule, InstanceGroup, MeldRules, MeldTable, index_instances
from ..scoring import CardPoints, ContractScoring, DealResultRule, EuchreScoring, GameEnd
from ..tricks import PlayDuty, TrickPolicy
from ..trumps import NO_TRUMP, TrumpOrder, TrumpTable
from .engines import EngineTables, engine_for

if TYPE_CHECKING:
    from ..observation import EncodingPlan, ObservationLayout

__all__ = ["CutGuess", "OptionSpec", "OptionValue", "RuleSet", "StockRules", "part_of"]

_UNSET: Any = object()

OptionValue: TypeAlias = "bool | int | str | None"
"""The value of a rule-set option: a switch, a number, a named choice, or None (off)."""

_Part = TypeVar("_Part")


def part_of(rules: RuleSet, part: object, kind: type[_Part]) -> _Part:
    """``part`` (a part of ``rules``) as the ``kind`` an engine needs.

    Engines call it once when they compile a rule set, so that a mismatched part (Euchre's
    bidding on the auction engine) is a clear error at build time.

    >>> from bezique_rules import get_rules
    >>> from bezique_rules.bidding import OrderUp
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
    allow_none: bool = False
    """Whether None is allowed (an option that can be switched off)."""
    doc: str = ""
    """What the option means."""

    def validate(self, value: object) -> OptionValue:
        """Return ``value`` when allowed, else raise `OptionError` naming what is allowed."""
        if value is None and self.allow_none:
            return None
        if self.choices is not None:
            for c in self.choices:
                if value == c and type(value) is type(c):
                    return c
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} does not allow {value!r}; allowed: {allowed}")
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes True or False, not {value!r}")
            return value
        if isinstance(self.default, int) or self.minimum is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {value!r}")
            return value
        if isinstance(value, (bool, int, str)):
            return value
        raise OptionError(f"option {self.name!r} takes a switch, a number or a name, not {value!r}")

    @property
    def allowed(self) -> str:
        """A short description of the allowed values, for docs and the CLI."""
        if self.choices is not None:
            text = " | ".join(repr(c) for c in self.choices)
        elif isinstance(self.default, bool):
            text = "True | False"
        elif self.minimum is not None:
            text = f"int >= {self.minimum}"
        else:
            text = "int"
        return text + (" | None" if self.allow_none else "")


@attrs.frozen
class StockRules:
    """How a stock game (draw after each trick, then a play-off) is sequenced."""

    dix: DixRule | None = None
    """The trump seven / dix rule, or None."""
    melds_per_trick: int = 1
    """How many melds the trick winner may declare per trick (0 = no limit)."""
    declare_on_last_stock_trick: bool = True
    """Whether the winner of the last stock trick may still declare."""
    last_trick_bonus_at: str = "final"
    """``"final"``: the last trick of the deal; ``"last_stock_trick"``: the last trick
    before the stock runs out."""
    card_timing: str = "end_of_hand"
    """When cards won count: ``"end_of_hand"`` or ``"immediate"``."""
    carte_blanche: int = 0
    """Points for showing a dealt hand without king, queen or jack (0 = not allowed)."""
    show_last_card: bool = False
    """The winner of the last stock trick shows the last face-down card he draws (Pinochle)."""
    carte_blanche_repeat: bool = False
    """After a carte blanche, each drawn card that is not a court card may be shown for
    another carte blanche, until a court card is drawn (multi-pack)."""
    cut_guess: CutGuess | None = None
    """Six-pack: the non-dealer guesses the size of the dealer's cut, or None."""
    result: DealResultRule | None = None
    """A rule turning the deal's totals into its result (`RubiconScoring`), or None."""


@attrs.frozen
class CutGuess:
    """Six-pack Bezique's cut: the dealer lifts a packet without counting; the non-dealer
    guesses its size (``guess_bonus`` when right); a packet of exactly ``exact`` cards
    scores ``exact_bonus`` for the dealer (reference.md §5.1)."""

    guess_bonus: int = 150
    """The non-dealer's bonus for a right guess."""
    exact: int = 24
    """The packet size that scores for the dealer (all the cards he deals)."""
    exact_bonus: int = 250
    """The dealer's bonus for a packet of exactly ``exact`` cards."""
    smallest: int = 12
    """The smallest packet (and guess)."""
    largest: int = 36
    """The largest packet (and guess)."""
    packet: int | None = None
    """A fixed packet size; None: drawn at random (see the stock engine)."""


@attrs.frozen(cache_hash=True)
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
    """The declaration rules R0-R5 and their options."""
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

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: ((0, 2), (1, 3)) with partners, else one player each."""
        if self.partnership:
            return tuple(tuple(range(s, self.players, 2)) for s in range(2))
        return tuple((p,) for p in range(self.players))

    def side_of(self, player: int) -> int:
        """The side of ``player`` (an index into `sides`)."""
        return player % 2 if self.partnership else player

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """Every option and its value, defaults included (read-only)."""
        return MappingProxyType(dict(self.option_values))

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
        from .registry import rebuild

        return rebuild(self, changes)

    # -- precomputed tables -------------------------------------------------

    @cached_property
    def trump_tables(self) -> tuple[TrumpTable, ...]:
        """Trump tables indexed by trump suit 0-3, and [4] (also [-1]) for no trump."""
        tables = [self.trump_order.table(self.deck, t) for t in range(4)]
        tables.append(self.trump_order.table(self.deck, NO_TRUMP))
        return tuple(tables)

    @cached_property
    def meld_instances(self) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
        """Meld instances indexed like `trump_tables`."""
        out = [self.melds.instances(self.deck, t) for t in range(4)]
        out.append(self.melds.instances(self.deck, NO_TRUMP))
        return tuple(out)

    @cached_property
    def meld_search(self) -> tuple[tuple[InstanceGroup, ...], ...]:
        """Meld instances prepared for `legal_declarations`, indexed like `trump_tables`."""
        return tuple(index_instances(self.deck, inst) for inst in self.meld_instances)

    @cached_property
    def card_values(self) -> tuple[int, ...]:
        """Points per physical id for cards won in tricks."""
        return self.card_points.per_card(self.deck)

    @cached_property
    def tables(self) -> EngineTables:
        """The tables this rule set's engine compiled for it, once (engine-private beyond
        ``actions``); the engine is found by name in the registry (`rules.engines`)."""
        return engine_for(self.engine).compile(self)

    @cached_property
    def encodings(self) -> EncodingPlan:
        """The observation and information-state encoding plan (see `bezique_rules.observation`)."""
        from ..observation import build_plan

        return build_plan(self)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of `PlayerView.observation_tensor` (see `observation_layout`)."""
        return self.encodings.observation.shape

    @property
    def observation_layout(self) -> ObservationLayout:
        """The observation's fields, each a documented slice (`bezique_rules.observation`)."""
        return self.encodings.observation

    @property
    def information_state_shape(self) -> tuple[int, ...]:
        """The shape of `DealState.information_state_tensor` (see `information_state_layout`)."""
        return self.encodings.information_state.shape

    @property
    def information_state_layout(self) -> ObservationLayout:
        """The information state's fields: the observation's, then the public history's."""
        return self.encodings.information_state

    @cached_property
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
        """
        from ..errors import IllegalActionError, RuleCode

        a = Action.parse(action) if isinstance(action, str) else action
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
        """
        from ..errors import IllegalActionError, RuleCode

        if not isinstance(action_id, int) or not 0 <= action_id < self.num_actions:
            raise IllegalActionError(
                f"no action of {self.name!r} has id {action_id!r} (ids are 0 to {self.num_actions - 1})",
                rule=RuleCode.NOT_AN_ACTION,
                action=action_id,
            )
        return self.action_space.actions[action_id]


def validate_options(
    variant: str, specs: tuple[OptionSpec, ...], changes: Mapping[str, Any], base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Merge ``changes`` into ``base`` (or the defaults), validating each by name and value."""
    by_name = {s.name: s for s in specs}
    values = dict(base) if base is not None else {s.name: s.default for s in specs}
    for key, value in changes.items():
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option {key!r} (given {value!r}) for {variant!r}; its options: {known}")
        values[key] = spec.validate(value)
    return values
