"""Actions and their canonical notation, and the integer action space.

`Phase` names what the player to act is doing (the vocabulary of a deal's stages).

An action is a frozen value; ``str(action)`` is its canonical text and
`Action.parse` reads it back, forgiving case and whitespace, never meaning.

| action | notation |
| --- | --- |
| play a card | ``play QS`` (``play QS*`` for the copy lying on the table) |
| declare a meld | ``meld bezique QS JD`` (``*`` marks cards already on the table) |
| trump seven / dix: exchange with the turn-up | ``exchange 7H`` |
| trump seven / dix: score it without exchange | ``declare 7H`` |
| decline (no meld now; pass in bidding) | ``pass`` |
| Partnership Pinochle: a pass that signals help to the partner | ``pass help`` |
| Partnership Bezique: pass the declaration to the partner | ``pass partner`` |
| bid | ``bid 260`` |
| name trump | ``trump H`` |
| pass cards | ``give AS TS KS QS`` |
| discard | ``discard 9C`` |
| Euchre: order up / alone | ``order-up``, ``order-up alone`` |
| Euchre: call a suit / alone | ``call H``, ``call H alone`` |
| concede | ``throw-in`` |
| Euchre: go alone / take over / defend alone (a decision of its own) | ``alone`` (``pass`` declines) |
| Six-pack Bezique: guess the size of the dealer's cut | ``guess 24`` |
| Sixty-six, Schnapsen: close the stock / claim "out" (66 reached) | ``close``, ``out`` |
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

import attrs

from .cards import Card, Suit
from .checks import check_notation
from .errors import ActionTypeError, NotationError, NotationTypeError, RuleCode, quote

__all__ = ["Action", "ActionKind", "ActionNumbering", "ActionSpace", "ActionTable", "Phase", "Verb"]


class Verb(enum.Enum):
    """The verb of an action; the value is its notation word."""

    PLAY = "play"
    """Play a card to the trick."""
    MELD = "meld"
    """Declare a meld."""
    EXCHANGE = "exchange"
    """Exchange the trump seven (or dix) for the turn-up, scoring it."""
    DECLARE = "declare"
    """Score the trump seven (or dix) without exchanging it."""
    PASS = "pass"
    """Decline: no (further) declaration now; pass in bidding."""
    BID = "bid"
    """Bid a number of points."""
    TRUMP = "trump"
    """Name the trump suit."""
    GIVE = "give"
    """Pass cards to the partner or the declarer."""
    DISCARD = "discard"
    """Discard (bury) cards."""
    ORDER_UP = "order-up"
    """Euchre: accept the turned suit as trumps."""
    CALL = "call"
    """Euchre: name a trump suit in the second round."""
    THROW_IN = "throw-in"
    """Concede the hand."""
    GUESS = "guess"
    """Six-pack Bezique: guess the size of the dealer's cut."""
    ALONE = "alone"
    """Euchre: play alone (after the bid), take over a partner's lone hand, or defend alone."""
    CLOSE = "close"
    """Sixty-six, Schnapsen: close the stock (turn the trump card down) before leading."""
    OUT = "out"
    """Sixty-six, Schnapsen: claim "out" (66 reached), ending the deal."""


_VERBS = {v.value: v for v in Verb}


class ActionKind(enum.IntEnum):
    """What an action does, as the engines and agents tell actions apart in their tables.

    One enum for every engine: a `Verb` says how an action is written, a kind says what the
    engine does with it (``order-up`` and ``order-up alone`` share a verb but not a kind; a
    six-pack ``guess`` and an auction ``bid`` both carry a number). Values are small ints so
    that per-action tables stay compact; compare members with ``is`` or ``==``.
    """

    PLAY = 0
    """Play a card to the trick."""
    MELD = 1
    """Declare a meld (stock games) or lay one down (auction games)."""
    BEST_MELD = 2
    """Auction games: lay down the best melds of the hand at once (``meld best``)."""
    EXCHANGE = 3
    """Exchange the trump seven / dix for the turn-up."""
    DECLARE = 4
    """Score the trump seven / dix without exchanging it."""
    CARTE_BLANCHE = 5
    """Show a carte blanche."""
    GUESS = 6
    """Six-pack Bezique: guess the size of the dealer's cut."""
    PASS = 7
    """Decline: no declaration now, or pass in bidding."""
    BID = 8
    """Bid a number of points."""
    TRUMP = 9
    """Name the trump suit."""
    GIVE = 10
    """Pass cards to the partner or the declarer."""
    DISCARD = 11
    """Discard (bury) cards: the auction's burial, the Euchre dealer's discard."""
    FARMER_SWAP = 12
    """Euchre: exchange a farmer's hand with the kitty."""
    ORDER_UP = 13
    """Euchre: accept the turned suit as trumps."""
    ORDER_UP_ALONE = 14
    """Euchre: accept the turned suit and play alone."""
    CALL = 15
    """Euchre: name a trump suit in the second round."""
    CALL_ALONE = 16
    """Euchre: name a trump suit and play alone."""
    ALONE = 17
    """Euchre: go alone, take over a partner's lone hand, or defend alone."""
    THROW_IN = 18
    """Concede the hand."""
    PASS_WITH_HELP = 19
    """Auction games: a final pass that tells the partner the passer holds help."""
    PASS_TO_PARTNER = 20
    """Partnership Bezique: the trick winner passes the declaration to his partner."""
    CLOSE = 21
    """Sixty-six, Schnapsen: close the stock."""
    OUT = 22
    """Sixty-six, Schnapsen: claim "out" (66 reached)."""


def _star_sorted(cards: Iterable[tuple[Card, bool]]) -> tuple[tuple[Card, bool], ...]:
    return tuple(sorted(cards, key=lambda cs: (cs[0].sort_key, cs[1])))


@attrs.frozen(repr=False, cache_hash=True)
class Action:
    """One action of a player, in canonical form.

    Build actions by parsing their notation, or take them from
    ``state.legal_actions()``.

    >>> a = Action.parse("MELD  royal-marriage qh kh")
    >>> str(a)
    'meld royal-marriage KH QH'
    >>> Action.parse("play QS*").tabled
    (True,)
    """

    verb: Verb
    """What is done."""
    cards: tuple[Card, ...] = ()
    """The cards involved, in display order (suits S H D C, ranks A T K Q J …)."""
    tabled: tuple[bool, ...] = ()
    """Per card: True for the copy lying face up on the table (notation suffix ``*``)."""
    meld: str = ""
    """The meld kind (``meld`` actions only)."""
    number: int | None = None
    """The bid (``bid`` actions only)."""
    suit: Suit | None = None
    """The suit named (``trump`` and ``call`` actions)."""
    alone: bool = False
    """Going alone (Euchre ``order-up`` and ``call``)."""
    with_help: bool = False
    """A pass that signals help to the partner (``pass help``, partnership Pinochle)."""
    to_partner: bool = False
    """A pass of the declaration to the partner (``pass partner``, partnership Bezique)."""

    def __attrs_post_init__(self) -> None:
        # one quick look at every field; the slow path names the wrong one
        if not (
            type(self.verb) is Verb
            and type(self.cards) is tuple
            and type(self.tabled) is tuple
            and len(self.tabled) == len(self.cards)
            and type(self.meld) is str
            and (self.number is None or (type(self.number) is int and -_NUMBER_LIMIT < self.number < _NUMBER_LIMIT))
            and (self.suit is None or type(self.suit) is Suit)
            and type(self.alone) is bool
            and type(self.with_help) is bool
            and type(self.to_partner) is bool
            and all(type(c) is Card for c in self.cards)
            and all(type(t) is bool for t in self.tabled)
        ):
            _check_fields(self)

    @classmethod
    def make(
        cls,
        verb: Verb,
        cards: Iterable[Card] = (),
        tabled: Iterable[bool] | None = None,
        *,
        meld: str = "",
        number: int | None = None,
        suit: Suit | None = None,
        alone: bool = False,
    ) -> Action:
        """Build an action with its cards put in canonical order."""
        cards = tuple(cards)
        flags = tuple(tabled) if tabled is not None else (False,) * len(cards)
        pairs = _star_sorted(zip(cards, flags))
        return cls(
            verb,
            tuple(c for c, _ in pairs),
            tuple(s for _, s in pairs),
            meld,
            number,
            suit,
            alone,
        )

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse canonical notation (case and spacing are free).

        Raises:
            NotationError: the text is not an action; the message says why.
        """
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise NotationTypeError(f"an action is text such as 'play QS': {quote(text)}")
        tokens = check_notation(text, "an action").replace(",", " ").split()
        if not tokens:
            raise NotationError("empty action text")
        verb = _VERBS.get(tokens[0].lower())
        if verb is None:
            raise NotationError(f"unknown verb {quote(tokens[0])} (one of {', '.join(_VERBS)}): {quote(text)}")
        args = tokens[1:]
        try:
            if verb is Verb.PASS and len(args) == 1 and args[0].lower() == "help":
                return cls(verb, with_help=True)
            if verb is Verb.PASS and len(args) == 1 and args[0].lower() == "partner":
                return cls(verb, to_partner=True)
            if verb in (Verb.PASS, Verb.THROW_IN, Verb.ALONE, Verb.CLOSE, Verb.OUT):
                _arity(args, 0, text)
                return cls(verb)
            if verb is Verb.ORDER_UP:
                return cls(verb, alone=_alone(args, 0, text))
            if verb is Verb.CALL:
                if not args:
                    raise NotationError(f"'call' needs a suit: {quote(text)}")
                return cls(verb, suit=Suit.parse(args[0]), alone=_alone(args, 1, text))
            if verb is Verb.TRUMP:
                _arity(args, 1, text)
                return cls(verb, suit=Suit.parse(args[0]))
            if verb in (Verb.BID, Verb.GUESS):
                _arity(args, 1, text)
                if not (args[0].isascii() and args[0].isdigit()):
                    raise NotationError(f"{verb.value!r} takes a whole number (digits 0-9): {quote(text)}")
                if len(args[0].lstrip("0")) > MAX_NUMBER_DIGITS:
                    raise NotationError(
                        f"{verb.value!r} takes a number of at most {MAX_NUMBER_DIGITS} digits: {quote(text)}"
                    )
                return cls(verb, number=int(args[0]))
            meld = ""
            if verb is Verb.MELD:
                if not args:
                    raise NotationError(f"'meld' needs a meld name: {quote(text)}")
                meld = args[0].lower()
                args = args[1:]
            elif not args:
                raise NotationError(f"{verb.value!r} needs a card: {quote(text)}")
            if verb in (Verb.PLAY, Verb.EXCHANGE, Verb.DECLARE):
                _arity(args, 1, text)
            pairs = []
            for tok in args:
                star = tok.endswith("*")
                pairs.append((Card.parse(tok[:-1] if star else tok), star))
            return cls.make(verb, [c for c, _ in pairs], [s for _, s in pairs], meld=meld)
        except NotationError as exc:
            if quote(text) in str(exc):
                raise
            raise NotationError(f"{exc}: in {quote(text)}") from None

    def __str__(self) -> str:
        verb = self.verb
        if verb in (Verb.BID, Verb.GUESS):
            return f"{verb.value} {self.number}"
        if verb is Verb.TRUMP:
            return f"trump {self.suit}"
        if verb is Verb.CALL:
            return f"call {self.suit}" + (" alone" if self.alone else "")
        if verb is Verb.ORDER_UP:
            return "order-up" + (" alone" if self.alone else "")
        if self.with_help:
            return "pass help"
        if self.to_partner:
            return "pass partner"
        parts = [verb.value]
        if self.meld:
            parts.append(self.meld)
        parts.extend(str(c) + ("*" if s else "") for c, s in zip(self.cards, self.tabled))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


def _check_fields(action: Action) -> None:
    """Check a hand-built action's fields, raising `ActionTypeError` naming the first wrong
    one; a list of cards (or of tabled flags) is taken as a tuple, and no tabled flags for
    cards mean none of them is on the table."""

    def wrong(field: str, expected: str, value: object) -> ActionTypeError:
        return ActionTypeError(
            f"Action field {field!r} is {expected}, not {quote(value)}", rule=RuleCode.NOT_AN_ACTION, action=None
        )

    if not isinstance(action.verb, Verb):
        raise wrong("verb", "a Verb (Verb.PLAY, ...; or build the action with Action.parse)", action.verb)
    for field in ("cards", "tabled"):
        value = getattr(action, field)
        if isinstance(value, list):
            object.__setattr__(action, field, tuple(value))
        elif not isinstance(value, tuple):
            raise wrong(field, "a tuple", value)
    if not all(isinstance(c, Card) for c in action.cards):
        raise wrong("cards", "a tuple of Card", action.cards)
    if not action.tabled and action.cards:
        object.__setattr__(action, "tabled", (False,) * len(action.cards))
    if not all(type(t) is bool for t in action.tabled):
        raise wrong("tabled", "a tuple of bools (one per card)", action.tabled)
    if len(action.tabled) != len(action.cards):
        raise wrong("tabled", f"one bool per card ({len(action.cards)})", action.tabled)
    if type(action.meld) is not str:
        raise wrong("meld", "a str (the meld kind's name)", action.meld)
    if action.number is not None and (not isinstance(action.number, int) or isinstance(action.number, bool)):
        raise wrong("number", "an int or None", action.number)
    if action.number is not None and not -_NUMBER_LIMIT < action.number < _NUMBER_LIMIT:
        # the digits are counted from the bits: a huge int has no decimal form to quote
        digits = int(action.number.bit_length() * 0.30103) + 1
        raise ActionTypeError(
            f"Action field 'number' is an int of at most {MAX_NUMBER_DIGITS} digits (a bid or guess),"
            f" not one of about {digits} digits",
            rule=RuleCode.NOT_AN_ACTION,
            action=None,
        )
    if action.suit is not None and not isinstance(action.suit, Suit):
        raise wrong("suit", "a Suit or None", action.suit)
    for field in ("alone", "with_help", "to_partner"):
        if type(getattr(action, field)) is not bool:
            raise wrong(field, "True or False", getattr(action, field))


MAX_NUMBER_DIGITS = 9
"""The most digits a ``bid`` or ``guess`` number may have (checked before conversion)."""
_NUMBER_LIMIT = 10**MAX_NUMBER_DIGITS
"""Numbers of an `Action` lie strictly between ``-_NUMBER_LIMIT`` and ``_NUMBER_LIMIT``."""


def _arity(args: list[str], n: int, text: str) -> None:
    if len(args) != n:
        raise NotationError(f"expected {n} argument{'s' if n != 1 else ''}: {quote(text)}")


def _alone(args: list[str], at: int, text: str) -> bool:
    rest = args[at:]
    if not rest:
        return False
    if len(rest) == 1 and rest[0].lower() == "alone":
        return True
    raise NotationError(f"expected nothing or 'alone' here: {quote(text)}")


@attrs.frozen
class ActionSpace:
    """The numbered actions of a rule set: id ``i`` is ``actions[i]``."""

    actions: tuple[Action, ...]
    """Every action of the variant, in id order."""
    ids: dict[Action, int] = attrs.field(eq=False, repr=False)
    """Action to id."""
    by_identity: dict[int, int] = attrs.field(init=False, eq=False, repr=False)
    """``id()`` of each action object of `actions` to its index: the fast path of
    `DealState.apply` for actions taken from `DealState.legal_actions`. The space
    holds those objects, so no other live object has one of these ids; it is
    rebuilt when the space is unpickled or copied (new objects, new ids)."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "by_identity", {id(a): i for i, a in enumerate(self.actions)})

    def __getstate__(self) -> dict[str, Any]:
        return {"actions": self.actions, "ids": self.ids}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "actions", state["actions"])
        object.__setattr__(self, "ids", state["ids"])
        self.__attrs_post_init__()  # the objects are new: so are their id()s

    @classmethod
    def of(cls, actions: Iterable[Action]) -> ActionSpace:
        """Number ``actions`` in the order given (duplicates dropped)."""
        seen: dict[Action, int] = {}
        for a in actions:
            if a not in seen:
                seen[a] = len(seen)
        return cls(tuple(seen), seen)

    def __len__(self) -> int:
        return len(self.actions)


_Meaning = TypeVar("_Meaning")


class ActionNumbering(Generic[_Meaning]):
    """A rule set's actions numbered as its engine compiles them: `add` gives an action the
    next id and keeps beside it the engine's own record of what it does (its meaning); then
    `space` numbers the actions and `meanings` holds the records, both in id order. A
    builder, alive only while an engine compiles (its tables keep the immutable results)."""

    def __init__(self) -> None:
        self.actions: list[Action] = []
        """The actions added, in id order."""
        self.meanings: list[_Meaning] = []
        """Their meanings, in id order."""

    def add(self, action: Action, meaning: _Meaning) -> int:
        """Number ``action``, which means ``meaning``: its id (the next)."""
        self.actions.append(action)
        self.meanings.append(meaning)
        return len(self.actions) - 1

    def space(self) -> ActionSpace:
        """The numbered actions (`ActionSpace`); an action added twice would shift the ids
        after it, so it is refused."""
        space = ActionSpace.of(self.actions)
        if len(space) != len(self.actions):
            twice = next(a for i, a in enumerate(self.actions) if space.ids[a] != i)
            raise ValueError(f"an engine numbered the action {twice} twice")
        return space


@attrs.frozen
class ActionTable:
    """What each action id of a rule set does, column by column: entry ``i`` of every column
    describes id ``i``. Compiled once per rule set by its engine (``rules.tables.action_table``)
    and read by the engine, the agents and the batch engines (``np.asarray(column)``), so that
    no one decodes the `Action` objects again."""

    kind: tuple[ActionKind, ...]
    """What the action does."""
    face: tuple[int, ...]
    """The card face played, discarded, exchanged or declared (-1: none)."""
    from_table: tuple[bool, ...]
    """A play of the copy lying face up on the table (``play QS*``)."""
    meld_kind: tuple[int, ...]
    """A meld's kind, as its index in the rule set's meld table (-1: not a meld)."""
    number: tuple[int, ...]
    """The number a ``bid`` or ``guess`` carries (-1: none)."""
    suit: tuple[int, ...]
    """The suit a ``trump`` or ``call`` names, as its index (-1: none)."""

    @classmethod
    def of(
        cls,
        kind: Iterable[ActionKind],
        *,
        face: Iterable[int] | None = None,
        from_table: Iterable[bool] | None = None,
        meld_kind: Iterable[int] | None = None,
        number: Iterable[int] | None = None,
        suit: Iterable[int] | None = None,
    ) -> ActionTable:
        """The table of ``kind`` and the columns given (a column not given: -1, or False)."""
        kinds = tuple(kind)
        none = (-1,) * len(kinds)

        def column(values: Iterable[int] | None) -> tuple[int, ...]:
            out = none if values is None else tuple(values)
            if len(out) != len(kinds):
                raise ValueError(f"an action table's columns have one entry per id: {len(out)} for {len(kinds)}")
            return out

        return cls(
            kind=kinds,
            face=column(face),
            from_table=(False,) * len(kinds) if from_table is None else tuple(from_table),
            meld_kind=column(meld_kind),
            number=column(number),
            suit=column(suit),
        )

    def __len__(self) -> int:
        return len(self.kind)


class Phase(enum.Enum):
    """What the player to act is doing."""

    PLAY = "play"
    """Trick play while the stock lasts (free play in the stock games)."""
    DECLARE = "declare"
    """The trick winner declares (melds, the trump seven / dix) before drawing."""
    PLAYOFF = "playoff"
    """Trick play once the stock is exhausted: strict duties, no declarations."""
    GUESS = "guess"
    """Six-pack Bezique: the non-dealer guesses how many cards the dealer cut."""
    BID = "bid"
    """Bidding: an auction, or Euchre's order-up and call rounds."""
    TRUMP = "trump"
    """Naming trumps (or, in British Euchre, the suit a turned Benny stands for)."""
    DISCARD = "discard"
    """Discarding: burying cards, or the Euchre dealer's discard after taking the turn-up."""
    GIVE = "give"
    """Passing cards to the partner or the declarer."""
    ALONE = "alone"
    """Deciding to play alone (or to defend alone, or to take over a partner's lone hand)."""
    MELD = "meld"
    """Laying down melds (all at once, in the auction games)."""
    CONCEDE = "concede"
    """After the melds, a declarer far short of the bid may concede (``throw-in``) or play on (``pass``)."""
    TRICKS = "tricks"
    """Trick play in games without a stock."""
    OVER = "over"
    """The deal is over."""


# -- the members as module names ----------------------------------------------------------------
# The engines compare kinds and phases by identity on every step, and CPython 3.11 reads a
# module name about seven times quicker than an enum's class attribute (``ActionKind.PLAY``).
# This is the one place of that speed trick: an engine imports the names it compares, ``_PLAY``
# for ``ActionKind.PLAY`` and ``_ST_PLAY`` for ``Phase.PLAY`` (the phase a record's ``stage``
# holds).
_PLAY = ActionKind.PLAY
_MELD = ActionKind.MELD
_BEST_MELD = ActionKind.BEST_MELD
_EXCHANGE = ActionKind.EXCHANGE
_DECLARE = ActionKind.DECLARE
_CARTE_BLANCHE = ActionKind.CARTE_BLANCHE
_GUESS = ActionKind.GUESS
_PASS = ActionKind.PASS
_BID = ActionKind.BID
_TRUMP = ActionKind.TRUMP
_GIVE = ActionKind.GIVE
_DISCARD = ActionKind.DISCARD
_FARMER_SWAP = ActionKind.FARMER_SWAP
_ORDER_UP = ActionKind.ORDER_UP
_ORDER_UP_ALONE = ActionKind.ORDER_UP_ALONE
_CALL = ActionKind.CALL
_CALL_ALONE = ActionKind.CALL_ALONE
_ALONE = ActionKind.ALONE
_THROW_IN = ActionKind.THROW_IN
_PASS_WITH_HELP = ActionKind.PASS_WITH_HELP
_PASS_TO_PARTNER = ActionKind.PASS_TO_PARTNER
_CLOSE = ActionKind.CLOSE
_OUT = ActionKind.OUT
_ST_PLAY = Phase.PLAY
_ST_DECLARE = Phase.DECLARE
_ST_PLAYOFF = Phase.PLAYOFF
_ST_GUESS = Phase.GUESS
_ST_BID = Phase.BID
_ST_TRUMP = Phase.TRUMP
_ST_DISCARD = Phase.DISCARD
_ST_GIVE = Phase.GIVE
_ST_ALONE = Phase.ALONE
_ST_MELD = Phase.MELD
_ST_CONCEDE = Phase.CONCEDE
_ST_TRICKS = Phase.TRICKS
_ST_OVER = Phase.OVER
