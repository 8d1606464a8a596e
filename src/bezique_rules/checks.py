"""Argument checks shared by the public entry points.

Every public function checks its arguments here before it uses them, so that bad
input is refused with an error of `bezique_rules.errors` that quotes it (never a
built-in error from deep inside, never a silently wrong state):

- ints are real ints, never ``bool`` (``True`` is not seat 1), and are range-checked;
- notation is ASCII text (plus the four suit symbols ``♠ ♥ ♦ ♣``): no Unicode digits
  (``¹⁰⁰``), no look-alikes that upper-case to ASCII (``ſ``), and of bounded length,
  checked before anything is converted.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from .errors import DealError, DealTypeError, NotationError, NotationTypeError, quote

__all__ = [
    "MAX_NOTATION",
    "SUIT_SYMBOLS",
    "check_notation",
    "check_seat",
    "is_int",
]

SUIT_SYMBOLS = frozenset("♠♥♦♣")
"""The only non-ASCII characters notation allows."""

MAX_NOTATION = 400
"""The longest action text accepted (the longest action of any preset is far shorter)."""


def is_int(value: object) -> TypeGuard[int]:
    """True for an int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_seat(player: Any, players: int, what: str = "player") -> int:
    """``player`` when it is a seat 0 … ``players - 1``.

    Raises:
        DealTypeError: not an int (or a bool).
        DealError: an int outside the seats.
    """
    if not is_int(player):
        raise DealTypeError(f"{what} must be a seat from 0 to {players - 1} (an int), not {quote(player)}")
    if not 0 <= player < players:
        raise DealError(f"{what} must be a seat from 0 to {players - 1}: {quote(player)}")
    return int(player)


def check_notation(text: Any, what: str, limit: int = MAX_NOTATION) -> str:
    """``text`` when it is notation: a str of at most ``limit`` characters, ASCII or a suit symbol.

    Raises:
        NotationTypeError: not a str.
        NotationError: too long, or a character that is not ASCII or a suit symbol.
    """
    if not isinstance(text, str):
        raise NotationTypeError(f"{what} is text such as {_EXAMPLES.get(what, repr('QS'))}, not {quote(text)}")
    if len(text) > limit:
        raise NotationError(f"{what} is at most {limit} characters long, not {len(text)}: {quote(text)}")
    if not text.isascii():
        bad = next((ch for ch in text if not ch.isascii() and ch not in SUIT_SYMBOLS), None)
        if bad is not None:
            raise NotationError(
                f"{what} is plain ASCII text (and the suit symbols ♠ ♥ ♦ ♣); "
                f"{bad!r} (U+{ord(bad):04X}) is not allowed: {quote(text)}"
            )
    return text


_EXAMPLES = {"an action": "'play QS'", "a card": "'QS'", "a suit": "'H'", "a rank": "'Q'"}
