"""The state model shared by every engine: phases, views, results, and `DealState`.

States are immutable: `DealState.apply` returns a new state and leaves the old
one untouched, so keeping a state around (for undo, search or a record) costs
nothing. A `PlayerView` is what one player may know; it never holds a hidden
card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from operator import itemgetter as _itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeAlias, TypeVar

import attrs
from typing_extensions import Self

from ..actions import Action, Phase
from ..bits import iter_bits
from ..cards import Card, CardSet, Suit
from ..checks import is_int
from ..errors import ActionTypeError, ArgumentTypeError, BeziqueRulesError, IllegalActionError, RuleCode, quote
from ..parts.cut import CutOutcome
from ..parts.scoring import ScoreBreakdown

if TYPE_CHECKING:
    from ..rules.ruleset import RuleSet

__all__ = ["DealCore", "DealResult", "DealSetup", "DealState", "Move", "Phase", "PlayerView", "TableMeld"]

Move: TypeAlias = tuple[int, int]
"""One applied action: the pair ``(player, action_id)`` (see `DealState.moves`)."""


_OVER = Phase.OVER  # read by `DealState.is_over` on every step (a module name is quicker than a class attribute)


@attrs.frozen
class TableMeld:
    """A declared meld as everybody saw it."""

    player: int
    """Who declared it."""
    kind: str
    """The meld kind (its notation name)."""
    cards: CardSet
    """Its cards."""
    points: int
    """What it scored."""


@attrs.frozen
class DealResult:
    """The outcome of a finished deal."""

    scores: tuple[int, ...]
    """Points per player (or side)."""
    breakdown: tuple[ScoreBreakdown, ...]
    """Where the points came from, per player (or side)."""


@attrs.frozen(repr=False)
class PlayerView:
    """What one player may know about a deal: plain data, holding no reference to the state.

    Field names are the same in every variant where they apply. Two views are
    equal when they hold the same knowledge, whatever the hidden cards are. A view
    pickles and copies as a value, and `to_dict` / `from_dict` give its versioned JSON
    form (the schema is on the records page). Everything the library computes for a
    player (`legal_actions`, `determinize`, observation tensors, pictures) is computed
    from the view alone.
    """

    player: int
    """Whose view this is."""
    phase: Phase
    """The phase."""
    current_player: int | None
    """Who is to act (None when the deal is over)."""
    dealer: int
    """The dealer."""
    hand: CardSet
    """Every card the player holds, concealed or lying face up in a meld."""
    hand_sizes: tuple[int, ...]
    """How many cards each player holds."""
    tabled: tuple[CardSet, ...]
    """Per player: the cards lying face up in declared melds."""
    known: tuple[CardSet, ...]
    """Per player: the held cards everyone has seen (tabled cards, a turn-up taken in
    exchange or as the last card, melded cards returned to hand for the play-off)."""
    trick: tuple[Card, ...]
    """The current trick's cards in play order."""
    trick_leader: int
    """Who led the current trick."""
    last_trick: tuple[Card, ...]
    """The previous trick's cards in play order (empty before the first trick)."""
    last_trick_leader: int
    """Who led the previous trick (-1 before the first trick)."""
    trump: Suit | None
    """The trump suit, or None before trumps exist."""
    turn_up: Card | None
    """The turned-up card under the stock, or None."""
    stock_size: int
    """Face-down cards left in the stock (the turn-up not counted)."""
    scores: tuple[int, ...]
    """The scores so far (per player or side)."""
    melds: tuple[TableMeld, ...]
    """Every meld declared so far, in order."""
    won: tuple[CardSet, ...]
    """Per player: the cards won in tricks."""
    history: tuple[tuple[int, Action], ...]
    """The public actions so far, as (player, action): another player's hidden decision shows
    as its bare verb (``discard``, ``give``), or not at all (a farmer's-hand ``pass``)."""
    game_scores: tuple[int, ...] | None = None
    """In a game of several deals: the totals before this deal; None for a lone deal."""
    maker: int | None = None
    """Euchre and auction games: who made trumps (won the bid), once known."""
    alone: int | None = None
    """Euchre: who plays alone, or None."""
    lone_defender: int | None = None
    """Euchre: who defends alone, or None."""
    sitting_out: tuple[int, ...] = ()
    """Seats sitting this deal out (the partner of a lone player)."""
    buried: tuple[Card, ...] = ()
    """Cards this player discarded face down (the Euchre dealer's discard, buried cards)."""
    cut: int | None = None
    """Six-pack Bezique: the size of the dealer's cut, once the guess has been made."""
    cut_for_deal: CutOutcome | None = None
    """In a game that began with the cut for the first deal: what it drew (public; see
    `GameState.cut_for_deal`); None otherwise."""
    pending: tuple[TableMeld, ...] = ()
    """Stock games with pending declarations: the melds laid out but not yet scored, each
    with what it will score (`StockRules.pending_declarations`); empty otherwise."""
    rules: RuleSet = attrs.field(kw_only=True, repr=False)
    """The rule set of the deal (public knowledge; held by reference, pickled by its key)."""
    legal: tuple[Action, ...] = attrs.field(kw_only=True, default=())
    """The viewer's legal actions, sorted by action id, when he is to act; empty otherwise."""

    def seats_in_play(self, leader: int) -> tuple[int, ...]:
        """The seats in the order they play to a trick led by ``leader``, skipping those
        sitting out (a lone hand's partner in Euchre): ``view.seats_in_play(view.trick_leader)[i]``
        played ``view.trick[i]``."""
        n = len(self.hand_sizes)
        out = self.sitting_out
        return tuple(seat for k in range(n) if (seat := (leader + k) % n) not in out)

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions when this player is to act; empty otherwise (`legal`)."""
        return self.legal

    def to_dict(self) -> dict[str, Any]:
        """The view as a JSON-safe dict (format ``bezique-rules-view``, version
        ``VIEW_FORMAT_VERSION``; the schema is on the records page): the form a server sends
        to a client.

        >>> from bezique_rules import PlayerView, new_deal
        >>> view = new_deal("bezique", seed=1).view(0)
        >>> PlayerView.from_dict(view.to_dict()) == view
        True"""
        from .viewdata import view_to_dict  # the JSON form reaches up a layer: imported on use

        return view_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerView:
        """Rebuild a view from `to_dict` output.

        Raises:
            RecordError: the dict is not a view of a known format and version, or a field
                does not hold what the schema says (it quotes the field).
            RecordTypeError: ``data`` is not a dict.
        """
        from .viewdata import view_from_dict  # the JSON form reaches up a layer: imported on use

        return view_from_dict(data, cls, TableMeld)

    def observation_tensor(self) -> list[float]:
        """This view as a flat list of floats, laid out as ``rules.observation_layout`` says
        (see `bezique_rules.state.observation`); ``numpy.asarray`` of it has ``rules.observation_shape``."""
        from .observation import encode_observation  # the tensor reaches up a layer: imported on use

        return encode_observation(self)

    def _repr_svg_(self) -> str:
        """The view as a picture in Jupyter (`bezique_rules.state.svg.render`)."""
        from .picture import view_picture  # a convenience that reaches up a layer: imported on use

        return view_picture(self)

    def __repr__(self) -> str:
        return (
            f"PlayerView(player={self.player}, phase={self.phase.value}, hand='{self.hand}', "
            f"trick={[str(c) for c in self.trick]}, trump={self.trump}, scores={self.scores})"
        )


_Tables_co = TypeVar("_Tables_co", covariant=True)


@attrs.frozen
class DealSetup(Generic[_Tables_co]):
    """What stays fixed for a whole deal: the rules, the deck as dealt, the seed, the dealer,
    and the tables the engine compiled for the rules (typed by the engine)."""

    rules: RuleSet
    """The rule set."""
    deck_order: tuple[int, ...]
    """The deck as dealt, top first (physical ids)."""
    seed: int | None
    """The shuffle seed, or None for a stacked (or determinized) deck."""
    dealer: int
    """The dealer."""
    tables: _Tables_co = attrs.field(eq=False, repr=False)
    """The engine's compiled tables for the rules (``rules.tables``, typed by the engine): the
    one way a deal reaches them."""
    packet: int = -1
    """Six-pack Bezique: the size of the dealer's cut (a chance outcome), or -1."""

    @property
    def meta(self) -> _Tables_co:
        """Deprecated: the former name of `tables` (kept for engines written against 0.2)."""
        return self.tables

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and copy) without the tables: they are the rule set's (`RuleSet.tables`), so
        unpickling takes them from the unpickled rule set, the registry's own object."""
        tables: object = self.tables
        if tables is self.rules.tables:
            tables = _RULES_TABLES
        return (_unpickled_setup, (self.rules, self.deck_order, self.seed, self.dealer, tables, self.packet))


_RULES_TABLES = "rules.tables"
"""What a pickled `DealSetup` holds in place of its ``tables`` when that is its rule set's tables."""


def _unpickled_setup(
    rules: RuleSet, deck_order: tuple[int, ...], seed: int | None, dealer: int, tables: object, packet: int
) -> DealSetup[object]:
    if isinstance(tables, str) and tables == _RULES_TABLES:  # never `==` on an engine's tables
        tables = rules.tables
    return DealSetup(rules, deck_order, seed, dealer, tables, packet)


class DealCore(Protocol):
    """What every engine's changing state (its ``core`` record) holds, by name."""

    @property
    def stage(self) -> Phase:
        """The phase."""
        ...

    @property
    def player(self) -> int:
        """The player to act (-1 when over)."""
        ...

    @property
    def hands(self) -> tuple[int, ...]:
        """Per player: the mask of cards held."""
        ...

    @property
    def won(self) -> tuple[int, ...]:
        """Per player (or side): the mask of cards won in tricks."""
        ...

    @property
    def trick(self) -> tuple[int, ...]:
        """The current trick's cards (physical ids) in play order."""
        ...

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every action so far, as (player, action_id) pairs."""
        ...


_SlotSetter: TypeAlias = Callable[[Any, Any], None]
"""A slot descriptor's ``__set__``: (instance, value)."""
_MemberDescriptor = type(PlayerView.__dict__["player"])
"""The type of a slot's descriptor on its class (``types.MemberDescriptorType``)."""
_new = object.__new__


class Seating:
    """The seats of a deal or a whole game, as its rule set has them: how many players and
    the scoring sides (what `DealState` and `GameState` share)."""

    __slots__ = ()

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        raise NotImplementedError

    @property
    def players(self) -> int:
        """How many players."""
        return self.rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The scoring sides: ((0, 2), (1, 3)) in partnership games, else one player each."""
        return self.rules.sides

    def side_of(self, player: int) -> int:
        """The index in `sides` (and in `scores`) of ``player``'s side.

        Raises:
            DealTypeError: ``player`` is not an int (or is a bool).
            DealError: no such seat.
        """
        return self.rules.side_of(player)


class DealState(Seating):
    """One deal, from the shuffle to the last trick: the common interface.

    Engines subclass it as frozen classes with a ``setup`` (a `DealSetup`) and a
    ``core`` (a NamedTuple of what changes, with at least ``stage``, ``player``,
    ``hands``, ``won``, ``trick`` and ``moves``): a field, or a property when the
    engine stores the same values laid out for speed (Euchre). Every method below
    works the same in every variant. Get one with `new_deal`.
    """

    __slots__ = ()

    setup: DealSetup[object]
    _legal: tuple[int, ...] | None

    _slot_setters: ClassVar[tuple[_SlotSetter, _SlotSetter, _SlotSetter] | None] = None
    """The ``__set__`` of the class's own ``setup``, ``core`` and ``_legal`` slots (found once, when
    the class is made), for `_make`; None when the class does not have exactly these slots."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        slots = own.get("__slots__", ())
        names = ("setup", "core", "_legal")
        descriptors = [own.get(name) for name in names]
        if set(slots) <= {*names, "__weakref__"} and all(isinstance(d, _MemberDescriptor) for d in descriptors):
            cls._slot_setters = tuple(d.__set__ for d in descriptors)  # type: ignore[union-attr]
        else:
            cls._slot_setters = None

    @classmethod
    def _make(cls, setup: DealSetup[Any], core: Any, legal: object = None) -> Self:
        """The deal ``cls(setup, core)``, with ``legal`` its legal action ids when the engine has
        them at hand (None: found when first asked; an engine may keep its own form of them, as
        Euchre's `PlayableMask`), built without the class's ``__init__``.

        The engines' one speed trick, kept here: every action builds a new deal, and attrs'
        frozen ``__init__`` sets each slot through ``object.__setattr__``. This makes the object
        with ``object.__new__`` and sets its three slots through their slot descriptors (found
        once per class by ``__init_subclass__``), about twice as fast (``benchmarks/deal_of.py``).
        It applies to deal classes whose only slots are ``setup``, ``core`` and ``_legal`` (no
        validators or converters); any other class is built through its ``__init__``."""
        setters = cls._slot_setters
        if setters is None:
            deal = cls(setup, core)  # type: ignore[call-arg]
            if legal is not None:
                object.__setattr__(deal, "_legal", legal)
            return deal
        deal = _new(cls)
        set_setup, set_core, set_legal = setters
        set_setup(deal, setup)
        set_core(deal, core)
        set_legal(deal, legal)
        return deal

    @property
    def core(self) -> DealCore:
        """What changes as the deal goes on: the engine's state record (a field of each engine's
        state class)."""
        raise NotImplementedError

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.setup.rules

    @property
    def dealer(self) -> int:
        """The dealer."""
        return self.setup.dealer

    @property
    def seed(self) -> int | None:
        """The shuffle seed, or None for a stacked (or determinized) deck."""
        return self.setup.seed

    @property
    def deck_order(self) -> tuple[int, ...]:
        """The deck as dealt, top first (physical ids)."""
        return self.setup.deck_order

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every action so far, in order, as `Move` pairs ``(player, action_id)``."""
        moves: tuple[Move, ...] = self.core.moves
        return moves

    @property
    def phase(self) -> Phase:
        """The phase."""
        stage: Phase = self.core.stage
        return stage

    def __repr__(self) -> str:
        """A short summary, like `PlayerView`'s: the rule set, phase, whose turn, dealer,
        actions so far and scores (compare deals with ``==``; see `core` for the rest)."""
        return (
            f"{type(self).__name__}(rules={self.rules!r}, phase={self.phase.value}, player={self.current_player}, "
            f"dealer={self.dealer}, moves={len(self.moves)}, scores={self.scores})"
        )

    @property
    def current_player(self) -> int | None:
        """Who is to act, or None when the deal is over."""
        p: int = self.core.player
        return None if p < 0 else p

    @property
    def hands(self) -> tuple[int, ...]:
        """Per player: the mask of held cards (physical ids)."""
        hands: tuple[int, ...] = self.core.hands
        return hands

    @property
    def won(self) -> tuple[int, ...]:
        """Per player: the mask of cards won in tricks."""
        won: tuple[int, ...] = self.core.won
        return won

    @property
    def trick(self) -> tuple[int, ...]:
        """The current trick's cards in play order (physical ids)."""
        trick: tuple[int, ...] = self.core.trick
        return trick

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids of the legal actions, sorted."""
        cached = self._legal
        if cached is None:
            cached = self._compute_legal()
            object.__setattr__(self, "_legal", cached)
        return cached

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and copy) as the setup (the rule set's key, the deck, seed and dealer: see
        `DealSetup`) and the engine's record `core`, with no table inside; unpickling rebuilds
        the state with `_from_core`, equal to this one, with the same hash and behaviour."""
        return (_unpickled_deal, (type(self), self.setup, self.core))

    @classmethod
    def _from_core(cls, setup: DealSetup[Any], core: Any) -> Self:
        """The state of ``setup`` and its ``core`` record (what `__reduce__` keeps); engines
        whose stored fields are not ``setup`` and ``core`` rebuild them here."""
        return cls(setup, core)  # type: ignore[call-arg]

    # -- to be provided by the engine --------------------------------------

    def _compute_legal(self) -> tuple[int, ...]:
        """The legal action ids, sorted and unique."""
        raise NotImplementedError

    def _apply_id(self, action_id: int) -> Self:
        raise NotImplementedError

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far, per player (or side)."""
        raise NotImplementedError

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where the points so far came from, per player (or side)."""
        raise NotImplementedError

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know."""
        raise NotImplementedError

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """This deal with the cards ``player`` has not seen dealt again at random among their
        places, consistent with everything he saw (`bezique_rules.worlds`)."""
        raise NotImplementedError

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with the physical ids permuted by ``perm`` everywhere they are named."""
        raise NotImplementedError

    def _public_ids(self) -> int:
        """The mask of the cards everybody has seen where they are now (in tricks, won,
        face up, known to be held); engines add what else they show (for `determinize`)."""
        out = 0
        for w in self.won:
            out |= w
        for x in self.trick:
            out |= 1 << x
        return out

    def _tabled_ids(self, player: int) -> int:
        """The mask of ``player``'s cards lying face up in melds, played from the table
        (``*``); none where melds are not left on the table."""
        return 0

    def _unseen_turn(self, viewer: int) -> int | None:
        """The action id the player to act takes unseen by ``viewer`` when his decision is one
        ``viewer`` never sees (a farmer's-hand ``pass``: see `bezique_rules.worlds`), else None."""
        return None

    def _with_cut_packet(self, packet: int) -> Self:
        """This deal with the dealer's cut ``packet`` (``DealSetup.packet``); only engines
        whose rule sets have a cut guess (the stock engine) have one to give."""
        raise NotImplementedError

    # -- shared ------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The deal, every hand face up, as a picture in Jupyter (`bezique_rules.state.svg.render`)."""
        from .picture import state_picture  # a convenience that reaches up a layer: imported on use

        return state_picture(self)

    @property
    def is_over(self) -> bool:
        """True when the deal is finished."""
        return self.core.stage is _OVER

    @property
    def contract_side(self) -> int | None:
        """In games with a contract: the side that made it (None otherwise)."""
        return None

    @property
    def thrown_in(self) -> bool:
        """Whether the deal ended without play because everyone passed (or a misdeal)."""
        return False

    @property
    def result(self) -> DealResult | None:
        """The outcome once the deal is over (None before)."""
        if not self.is_over:
            return None
        return DealResult(self.scores, self.breakdown)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every distinct legal action, sorted by action id (empty when over).

        >>> from bezique_rules import new_deal
        >>> [str(a) for a in new_deal("bezique", seed=1).legal_actions()][:3]
        ['play AH', 'play KH', 'play JH']"""
        legal = self.legal_action_ids()
        if len(legal) > 1:
            return _itemgetter(*legal)(self.setup.rules.action_space.actions)  # type: ignore[no-any-return]
        return (self.setup.rules.action_space.actions[legal[0]],) if legal else ()

    def legal_action_mask(self) -> tuple[bool, ...]:
        """One bool per action id of the rule set: True where the action is legal.

        >>> from bezique_rules import new_deal
        >>> deal = new_deal("bezique", seed=1)
        >>> sum(deal.legal_action_mask()) == len(deal.legal_actions())
        True"""
        mask = [False] * self.rules.num_actions
        for i in self.legal_action_ids():
            mask[i] = True
        return tuple(mask)

    def parse_action(self, text: str) -> Action:
        """Parse notation into an action of this variant.

        >>> from bezique_rules import new_deal
        >>> new_deal("bezique", seed=1).parse_action("MELD bezique jd qs")
        Action('meld bezique QS JD')

        Raises:
            NotationError: the text does not parse.
            IllegalActionError: it parses but is no action of this variant.
        """
        action = Action.parse(text)
        self._id_of(action)
        return action

    def _id_of(self, action: Action | str | int) -> int:
        try:
            if is_int(action):
                self.rules.action_from_id(action)
                return int(action)
            if isinstance(action, str):
                action = Action.parse(action)
            elif not isinstance(action, Action):
                raise ActionTypeError(
                    f"not an action (give an Action, its notation or its int id): {quote(action)}",
                    rule=RuleCode.NOT_AN_ACTION,
                    action=action,
                )
            return self.rules.action_id(action)
        except IllegalActionError as exc:
            why = self._unlisted(exc.action) if isinstance(exc.action, Action) else None
            if why is not None:
                exc = IllegalActionError(why[1], rule=why[0], action=exc.action)
            exc.player = self.current_player
            exc.phase = self.phase
            raise exc from None

    def _unlisted(self, action: Action) -> tuple[RuleCode, str] | None:
        """The rule that forbids ``action``, an action outside the variant's action space,
        when a rule explains it better than "not an action" (a bid off the ladder)."""
        return None

    def is_legal(self, action: Action | str | int) -> bool:
        """Whether ``action`` (an action, its notation or its id) is legal now.

        >>> from bezique_rules import new_deal
        >>> deal = new_deal("bezique", seed=1)
        >>> deal.is_legal("play AH"), deal.is_legal("play AS"), deal.is_legal("nonsense")
        (True, False, False)"""
        try:
            i = self._id_of(action)
        except BeziqueRulesError:
            return False
        return i in self.legal_action_ids()

    def check(self, action: Action | str | int) -> None:
        """Raise what `apply` would raise for ``action``; return None when it is legal.

        >>> from bezique_rules import IllegalActionError, new_deal
        >>> try:
        ...     new_deal("bezique", seed=1).check("play AS")
        ... except IllegalActionError as exc:
        ...     print(exc.rule.value)
        card-not-held

        Raises:
            NotationError: text that does not parse.
            IllegalActionError: the rules forbid the action; ``.rule`` says which rule.
        """
        i = self._id_of(action)
        if i in self.legal_action_ids():
            return
        a = self.rules.action_space.actions[i]
        if self.is_over:
            code, why = RuleCode.GAME_OVER, "the deal is over"
        else:
            code, why = self._refusal(i)
        raise IllegalActionError(
            f"{why}: {str(a)!r}", rule=code, action=a, player=self.current_player, phase=self.phase
        )

    def apply(self, action: Action | str | int, *, check: bool = True) -> Self:
        """The state after ``action`` (an action, its notation or its id).

        >>> from bezique_rules import new_deal
        >>> deal = new_deal("bezique", seed=1)
        >>> after = deal.apply("play AH")
        >>> after.current_player, deal.current_player  # the old state is unchanged
        (1, 0)

        With ``check=False`` the action is trusted to come from
        `legal_actions` (the fast path for agents); an illegal action then
        gives an undefined state.

        Raises:
            NotationError: text that does not parse.
            IllegalActionError: the rules forbid the action; the state is unchanged.
            ActionTypeError: ``action`` is not an action, text or int id (also a TypeError).
            ArgumentTypeError: ``check`` is not a bool.
        """
        space = self.setup.rules.action_space
        if check is False:
            if type(action) is int and 0 <= action < len(space.actions):
                return self._apply_id(action)  # the agents' path: an id from legal_action_ids(), trusted
        elif check is not True:
            raise ArgumentTypeError(f"check is True or False, not {quote(check)}")
        found = space.by_identity.get(id(action))  # an action object taken from legal_actions()
        if found is not None:
            i = found
        elif type(action) is int and 0 <= action < len(space.actions):
            i = action  # an action id, as legal_action_ids() gives them
        else:
            found = space.ids.get(action) if type(action) is Action else None
            i = self._id_of(action) if found is None else found
        if check and i not in self.legal_action_ids():
            self.check(i)  # raises, naming the rule
        return self._apply_id(i)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action applied so far, in order, as (player, action)."""
        actions = self.rules.action_space.actions
        return tuple((player, actions[action_id]) for player, action_id in self.moves)

    @property
    def action_history(self) -> tuple[int, ...]:
        """The ids of every action applied so far, in order."""
        return tuple(action_id for _, action_id in self.moves)

    def information_state_tensor(self, player: int) -> list[float]:
        """What ``player`` knows, with the public history, as a flat list of floats laid out as
        ``rules.information_state_layout`` says (see `bezique_rules.state.observation`).

        Raises:
            DealError: ``player`` is not a seat.
        """
        from .observation import encode_information_state  # the tensor reaches up a layer: imported on use

        return encode_information_state(self.view(player), self.rules)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: the deal's record (see `record_of`).

        >>> from bezique_rules import DealState, new_deal
        >>> deal = new_deal("bezique", seed=1).apply("play AH")
        >>> DealState.from_dict(deal.to_dict()) == deal
        True"""
        from .records import record_of  # the record reaches up a layer: imported on use

        return record_of(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealState:
        """Rebuild a deal from `to_dict` output, re-checking every action.

        Raises:
            RecordError: the dict is not a valid deal record.
        """
        from .records import replay_as  # the record reaches up a layer: imported on use

        return replay_as(data, DealState)


def _unpickled_deal(cls: type[DealState], setup: DealSetup[Any], core: Any) -> DealState:
    return cls._from_core(setup, core)


def check_rng(rng: object, who: str) -> random.Random:
    """``rng`` when it is a `random.Random`; else `ArgumentTypeError` naming ``who`` needs one."""
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError(f"{who} needs a random.Random as its random source, not {quote(rng)}")
    return rng


def check_view(view: object, who: str) -> PlayerView:
    """``view`` when it is a `PlayerView`; else `ArgumentTypeError` naming ``who`` needs one."""
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"{who} needs a PlayerView (from a state's view()), not {quote(view)}")
    return view


def relabel_mask(mask: int, perm: dict[int, int]) -> int:
    """Apply a permutation of physical ids to a mask (ids not in ``perm`` stay)."""
    if len(perm) <= 4:  # a swap or a three-way move (`bezique_rules.worlds`): a few bit operations
        out = mask
        for a in perm:
            out &= ~(1 << a)
        for a, b in perm.items():
            if (mask >> a) & 1:
                out |= 1 << b
        return out
    out = 0
    for pid in iter_bits(mask):
        out |= 1 << perm.get(pid, pid)
    return out


def relabel_masks(masks: Sequence[int], perm: dict[int, int]) -> tuple[int, ...]:
    """Apply a permutation of physical ids to each mask of a per-player row (`relabel_mask`)."""
    return tuple(relabel_mask(m, perm) for m in masks)


def relabel_seq(seq: Sequence[int], perm: dict[int, int]) -> tuple[int, ...]:
    """Apply a permutation of physical ids to a sequence."""
    return tuple(perm.get(x, x) for x in seq)
