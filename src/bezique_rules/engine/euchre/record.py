"""The Euchre deal's record, what changes per state: `EuchreState` (the deal's ``core``) and
the named records it holds (`Bidding`, `Contract`, `Kitty`, `PlayTable`, the pending
`Question` s); and the deprecated flat names of the former ``EuchreCore``."""

from __future__ import annotations

import warnings
from typing import NamedTuple, TypeAlias

from ...parts.euchre import Decision
from ...state.deal import Move, Phase


class Question(NamedTuple):
    """One pending decision: who decides, and about what."""

    seat: int
    """Who decides."""
    decision: Decision
    """What he decides (asked only when it applies: see `EuchreDeal._settled`)."""


# -- the state record ------------------------------------------------------------------------


class Bidding(NamedTuple):
    """How far the bidding has come, and the questions still pending before the play."""

    round: int
    """The bidding round: 1 (order up) or 2 (call another suit)."""
    candidate: int
    """The suit offered in round one (the turn-up's, or the one named for a Benny), or -1."""
    passes: int
    """Passes in the current round."""
    asked: int
    """How many farmer's-hand questions were answered (the first moves of the deal): only a
    holder is asked, so a ``pass`` among them is shown to him alone."""
    misdeal: bool
    """The deal ended without play (everybody passed, or a second farmer's hand)."""


class Contract(NamedTuple):
    """Who made trumps and who plays: a record of the tables until a lone decision changes it."""

    trump: int
    """The trump suit index, or -1."""
    maker: int
    """Who made trumps, or -1."""
    alone: int
    """Who plays alone, or -1."""
    defender: int
    """Who defends alone, or -1."""
    out: int
    """A bit per seat sitting out this deal."""


class Kitty(NamedTuple):
    """The cards not dealt to the hands, and what happened to them."""

    cards: tuple[int, ...]
    """The hidden cards under the turn-up (and the dealer's discard once made)."""
    turn_up: int
    """The turned-up card (physical id)."""
    buried: int
    """The dealer's discard (physical id), or -1."""
    farmer: int
    """Who swapped a farmer's hand for the kitty's first three cards, or -1."""


class PlayTable(NamedTuple):
    """The rows the play reads at every card, for the seats in play and the trump suit."""

    seats: tuple[int, ...]
    """Seat -> the next seat in play."""
    active: int
    """How many seats play."""
    follow: tuple[int, ...] | None
    """Led card -> the mask of the cards that follow it (None: no tables, ask the policy)."""
    power: tuple[tuple[int, ...], ...] | None
    """Led card -> the power of each card in that trick (None: ask the trump table)."""


PlayableMask: TypeAlias = int
"""The mask of the cards the player to act may play (physical ids): how a deal on a deck with
one copy of each card keeps its legal actions during the play (a card's play id is its id)."""

EuchreLegal: TypeAlias = "tuple[int, ...] | PlayableMask"
"""A Euchre deal's legal actions as it keeps them: the ids, sorted, or a `PlayableMask`."""


class EuchreState(NamedTuple):
    """What changes during a Euchre deal, the deal's `core` (see the module docstring, field by field)."""

    player: int
    """Who acts (-1 when over)."""
    hands: tuple[int, ...]
    """Per seat: the mask of the cards held."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""
    stage: Phase
    """The phase."""
    leader: int
    """Who led (or will lead) the current trick."""
    won: tuple[int, ...]
    """Per seat: the mask of the cards won in tricks (a trick adds ``table.active`` cards,
    so the tricks taken are counted from it)."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick, or -1."""
    points: tuple[int, int]
    """Per side: the points of the deal (set when it ends)."""
    queue: tuple[Question, ...]
    """The pending questions, in order (the first is being asked, or lapses)."""
    bidding: Bidding
    """The bidding's progress and the pending questions."""
    contract: Contract
    """Who made trumps and who plays."""
    kitty: Kitty
    """The undealt cards."""
    table: PlayTable
    """The rows the play reads at every card."""

    def __getattr__(self, name: str) -> object:
        """Deprecated: the flat names of the former `EuchreCore` (``core.round``, ``core.trump``,
        ``core.turn_up``, ...), read from the sub-record that holds them now."""
        where = _FLAT_NAMES.get(name)
        if where is None:
            raise AttributeError(name)
        warnings.warn(
            f"EuchreDeal.core.{name} is deprecated: read core.{where}.{name}"
            if where != "taken"
            else "EuchreDeal.core.taken is deprecated: read EuchreDeal.tricks_taken",
            DeprecationWarning,
            stacklevel=2,
        )
        if where == "taken":
            return _taken(self.won, self.table.active)
        return getattr(getattr(self, where), name)


_FLAT_NAMES = {
    **dict.fromkeys(("round", "candidate", "passes", "asked", "misdeal"), "bidding"),
    **dict.fromkeys(("trump", "maker", "alone", "defender", "out"), "contract"),
    **dict.fromkeys(("turn_up", "buried", "farmer"), "kitty"),
    "taken": "taken",
}


def _taken(won: tuple[int, ...], active: int) -> tuple[int, ...]:
    """Per seat: the tricks taken, from the cards won (``active`` cards a trick)."""
    return tuple([w.bit_count() // active for w in won])
