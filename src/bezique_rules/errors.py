"""The error hierarchy and the stable rule codes.

Every exception the library raises on bad input derives from
[`BeziqueRulesError`][bezique_rules.BeziqueRulesError]. Each also derives from the
built-in class a caller would expect (`LookupError` for an unknown variant,
`TypeError` for an argument of the wrong type, `ValueError` for a bad value), so
``except ValueError`` and ``except TypeError`` keep working.

A wrong type is an [`ArgumentTypeError`][bezique_rules.ArgumentTypeError] (a
`TypeError`); where the argument belongs to a kind of input with an error class of
its own, it is that class's ``...TypeError`` twin (for example `DealTypeError`, both a
`DealError` and an `ArgumentTypeError`), so that either ``except`` catches it.

An [`IllegalActionError`][bezique_rules.IllegalActionError] carries a
[`RuleCode`][bezique_rules.RuleCode]: a stable string naming the rule that forbids
the action, for programs that react to *why* an action was refused.
"""

from __future__ import annotations

import enum
from typing import Any

__all__ = [
    "ActionTypeError",
    "ArgumentTypeError",
    "BeziqueRulesError",
    "DealError",
    "DealTypeError",
    "IllegalActionError",
    "NotationError",
    "NotationTypeError",
    "OptionError",
    "OptionTypeError",
    "RecordError",
    "RecordTypeError",
    "RuleCode",
    "UnknownVariantError",
    "VariantTypeError",
    "quote",
]

QUOTE_LIMIT = 60
"""How many characters of a bad input an error message quotes (then ``...``)."""


def quote(value: object) -> str:
    """``repr(value)``, cut to `QUOTE_LIMIT` characters plus ``...`` when longer.

    Messages quote the input they refuse; a huge input must not make a huge message
    (or a slow one: a long ``repr`` is cut before it is built for text and bytes).

    >>> quote("play AS"), quote("x" * 100)[-6:]
    ("'play AS'", 'xxx...')
    """
    if isinstance(value, (str, bytes)) and len(value) > QUOTE_LIMIT:
        value = value[: QUOTE_LIMIT + 1]
    if isinstance(value, int) and value.bit_length() > 4 * QUOTE_LIMIT:  # repr of a huge int is slow or fails
        return f"<an int of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:  # a caller's object whose repr fails: still say what it is
        text = f"<{type(value).__name__} object>"
    if len(text) > QUOTE_LIMIT:
        text = text[:QUOTE_LIMIT] + "..."
    return text


class RuleCode(str, enum.Enum):
    """A stable code for the rule that forbids an action.

    The value is a short kebab-case string that never changes between releases;
    the message that accompanies it may be reworded.
    """

    GAME_OVER = "game-over"
    """The deal (or game) is over: no action is legal."""
    NOT_YOUR_TURN = "not-your-turn"
    """Another player is to act."""
    WRONG_PHASE = "wrong-phase"
    """This kind of action is not part of the current phase."""
    CARD_NOT_HELD = "card-not-held"
    """The action names a card the player does not hold (or not in the place named)."""
    MUST_FOLLOW_SUIT = "must-follow-suit"
    """The player holds a card of the suit led and must play one."""
    MUST_BEAT = "must-beat"
    """The player can beat the card to beat and must do so."""
    MUST_TRUMP = "must-trump"
    """The player is void in the suit led, holds a trump and must play one."""
    MUST_OVERTRUMP = "must-overtrump"
    """The trick is trumped and the player must play a higher trump."""
    NOT_A_MELD = "not-a-meld"
    """The cards named do not form the meld named (or no such meld in this variant)."""
    MELD_NEEDS_NEW_CARD = "meld-needs-new-card"
    """Every meld needs at least one card from the concealed hand (the new-card rule)."""
    MELD_CARD_REUSED = "meld-card-reused"
    """A card may not be scored twice in melds of the same kind."""
    MELD_DOWNGRADE = "meld-downgrade"
    """A card of a higher meld may not be reused in a lower meld of its class (no downgrade)."""
    MELD_UPGRADE = "meld-upgrade"
    """A card of a lower meld may not be reused in a higher meld of its class (a house rule
    such as multi-pack ``marriage_to_sequence=False``)."""
    MELD_LIMIT = "meld-limit"
    """No more melds may be declared on this trick."""
    NO_DECLARATION_NOW = "no-declaration-now"
    """Declarations are not allowed now (not the trick winner, stock exhausted, or forbidden)."""
    EXCHANGED_CARD_IN_MELD = "exchanged-card-in-meld"
    """The card just taken in exchange for the trump seven may not be used in a meld on this trick."""
    NO_MELD_WITH_EXCHANGE = "no-meld-with-exchange"
    """A meld and an exchange of the trump seven may not share a trick (house rule)."""
    SEVEN_NOT_ALLOWED = "seven-not-allowed"
    """The trump seven (or dix) cannot be declared or exchanged now."""
    SEVEN_ALREADY_SCORED = "seven-already-scored"
    """This physical trump seven (or dix) has already scored."""
    CARTE_BLANCHE_NOT_ALLOWED = "carte-blanche-not-allowed"
    """A carte blanche may only be shown from a hand without court cards, before playing."""
    BID_TOO_LOW = "bid-too-low"
    """A bid must beat the high bid, reach the minimum and keep to the steps."""
    RAISE_TOO_BIG = "raise-too-big"
    """A raise may go only 10 over the last bid, or jump 20 (``bid_raises``)."""
    BURY_MELDED = "bury-melded"
    """A card used in one's melds may not be buried."""
    MUST_BID = "must-bid"
    """The player may not pass: a stuck dealer must name trumps, a dealer must discard."""
    NOT_AN_ACTION = "not-an-action"
    """The action is not an action of this variant at all."""


class BeziqueRulesError(Exception):
    """The root of every error this library raises on bad input."""


class UnknownVariantError(BeziqueRulesError, LookupError):
    """A variant name that is not registered. The message lists the known names."""

    def __str__(self) -> str:  # LookupError quotes its argument; keep the plain message
        return str(self.args[0]) if self.args else ""


class OptionError(BeziqueRulesError, ValueError):
    """An unknown option, or a value the option does not allow."""


class DealError(BeziqueRulesError, ValueError):
    """A deal that cannot be made: a stacked deck that is not the variant's deck, a bad dealer."""


class NotationError(BeziqueRulesError, ValueError):
    """Text that does not parse as a card, a card list or an action."""


class IllegalActionError(BeziqueRulesError, ValueError):
    """An action that parses but that the rules forbid in this state.

    Attributes:
        rule: the stable code of the rule that forbids the action.
        action: the action that was refused (an `Action`, or the text given).
        player: the player who was to act, or None when the deal is over.
        phase: the phase of the state that refused it.
    """

    def __init__(
        self,
        message: str,
        *,
        rule: RuleCode,
        action: Any = None,
        player: int | None = None,
        phase: Any = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.action = action
        self.player = player
        self.phase = phase


class ArgumentTypeError(BeziqueRulesError, TypeError):
    """An argument of the wrong type: a seat that is not an int (or is a bool), a view
    that did not come from a state, an agent's random source that is not a
    `random.Random`. The message quotes the value and says what is expected."""


class VariantTypeError(UnknownVariantError, ArgumentTypeError):
    """A variant name that is not a string (both an `UnknownVariantError` and a `TypeError`)."""


class OptionTypeError(OptionError, ArgumentTypeError):
    """An option value of the wrong type (``target="1000"``, ``stick_the_dealer=1``), or an
    option name that is not a string (both an `OptionError` and a `TypeError`)."""


class DealTypeError(DealError, ArgumentTypeError):
    """A seed, dealer, seat, deck or ``max_deals`` of the wrong type (both a `DealError` and
    a `TypeError`)."""


class NotationTypeError(NotationError, ArgumentTypeError):
    """Something given to a parser that is not text (both a `NotationError` and a `TypeError`)."""


class ActionTypeError(IllegalActionError, ArgumentTypeError):
    """Something given as an action that is neither an `Action`, its notation nor an int
    id (both an `IllegalActionError` with rule ``NOT_AN_ACTION`` and a `TypeError`)."""


class RecordError(BeziqueRulesError, ValueError):
    """A game record that does not replay: corrupt, tampered or of an unknown format.

    Attributes:
        step: the 1-based number of the action that failed, or None when the
            record itself (not one of its steps) is at fault.
    """

    def __init__(self, message: str, *, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


class RecordTypeError(RecordError, ArgumentTypeError):
    """A record that is neither a dict nor its JSON text (both a `RecordError` and a `TypeError`)."""
