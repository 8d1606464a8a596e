"""The stock engine's record of what changes during a deal: `StockCore` and its sub-records."""

from __future__ import annotations

from typing import NamedTuple

from ...parts.scoring import ScoreBreakdown
from ...state.deal import Move, Phase


class Declared(NamedTuple):
    """One meld declared in the deal."""

    player: int
    """Who declared it."""
    kind: int
    """Its meld kind's index in the rule set's meld table."""
    cards: int
    """The mask of its physical cards."""


class Declaring(NamedTuple):
    """The declarations: the deal's so far, and what this trick's winner has declared."""

    declarations: tuple[Declared, ...]
    """Every declared meld."""
    pending: tuple[Declared, ...]
    """The melds laid out but not yet scored (`StockRules.pending_declarations`); each is
    also in ``declarations``."""
    scored: int
    """The mask of trump sevens / dix cards that have scored."""
    melds_this_trick: int
    """Melds declared on this trick (scored, or scoring a pending one)."""
    seven_done: bool
    """A trump-seven action (exchange or declare) was taken on this trick."""
    exchanged: int
    """The card taken in exchange for the seven on this trick, or -1."""


class CarteBlanche(NamedTuple):
    """Who may show a carte blanche."""

    may_show: int
    """Bit p: player p may show one now."""
    streak: int
    """Bit p: player p is on a streak (showed one, and has drawn no court card since)."""


class StockCore(NamedTuple):
    """The changing part of a stock-game deal (the module docstring describes it field by field)."""

    stage: Phase
    """The phase (read it as `phase`)."""
    player: int
    """Who is to act (-1 when over)."""
    leader: int
    """Who led the current trick."""
    hands: tuple[int, ...]
    """Per player: the mask of held cards (concealed and tabled)."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    won: tuple[int, ...]
    """Per player: the mask of cards won in tricks."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""
    tabled: tuple[int, ...]
    """Per player: the mask of cards lying face up in melds."""
    known: tuple[int, ...]
    """Per player: the mask of held cards everyone has seen."""
    points: tuple[ScoreBreakdown, ...]
    """Per player: the points by part."""
    trump: int
    """The trump suit index, or -1."""
    stock: tuple[int, ...]
    """The face-down stock, top first."""
    turn_up: int
    """The turn-up (drawn last), or -1."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick (-1 before the first)."""
    tricks: int
    """Tricks completed."""
    declaring: Declaring
    """The declarations."""
    carte: CarteBlanche
    """Who may show a carte blanche."""
