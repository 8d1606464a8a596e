"""The auction engine's record of what changes during a deal: `AuctionCore`, and the one
positional edit of it on the hottest step (`_card_played`)."""

from __future__ import annotations

from typing import NamedTuple

from ...parts.auction import Concession
from ...parts.melds import Laid
from ...state.deal import Move, Phase
from ..fields import in_field_order


class AuctionCore(NamedTuple):
    """The changing part of an auction-game deal."""

    stage: Phase
    """The phase."""
    player: int
    """Who is to act (-1 when over)."""
    hands: tuple[int, ...]
    """Per player: the mask of held cards."""
    widow: tuple[int, ...]
    """The widow (kitty), until the bidder takes it."""
    widow_shown: bool
    """Whether the widow has been turned face up."""
    passed: int
    """Bit per player: has passed in the auction."""
    declarer: int
    """The high bidder (the declarer once the auction ends), or -1."""
    bid: int
    """The high bid (0: none yet)."""
    trump: int
    """The trump suit index, or -1."""
    conceded: Concession
    """How the declarer conceded (``"before_widow"``, ``"after_widow"``, ``"after_meld"``), or ``""``."""
    give_step: int
    """Passing: 0 not yet / done, 1 the partner gives, 2 the declarer gives back."""
    given: tuple[int, ...]
    """The cards passed so far (partner's, then declarer's), physical ids."""
    laid: tuple[tuple[Laid, ...], ...]
    """Per player: the melds laid down."""
    known: tuple[int, ...]
    """Per player: held cards everyone has seen (melded, or from the widow)."""
    to_meld: tuple[int, ...]
    """The players still to lay down melds, in order."""
    buried: tuple[int, ...]
    """The cards the bidder buried, physical ids."""
    leader: int
    """Who led the current trick."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick."""
    won: tuple[int, ...]
    """Per player: the mask of cards won in tricks."""
    taken: tuple[int, ...]
    """Per player: tricks taken."""
    last_winner: int
    """Who won the last trick (-1 before the end)."""
    points: tuple[int, ...]
    """Per side: the deal's points (or units), once over."""
    misdeal: bool
    """Everyone passed and the deal was thrown in."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""


_MOVES, _HANDS, _KNOWN, _TRICK, _PLAYER = (
    AuctionCore._fields.index(f) for f in ("moves", "hands", "known", "trick", "player")
)


def _card_played(
    c: AuctionCore,
    moves: tuple[Move, ...],
    hands: tuple[int, ...],
    known: tuple[int, ...],
    trick: tuple[int, ...],
    player: int,
) -> AuctionCore:
    """``c._replace(moves=moves, hands=hands, known=known, trick=trick, player=player)``, the
    engine's hottest step (a card played to an unfinished trick), two to four times quicker
    than ``_replace`` on this 26-field record: `benchmarks/bench_auction_core.py` measures
    both. The one place that edits the record by position; the positions come from the
    field names."""
    fields = list(c)
    fields[_MOVES] = moves
    fields[_HANDS] = hands
    fields[_KNOWN] = known
    fields[_TRICK] = trick
    fields[_PLAYER] = player
    return in_field_order(AuctionCore, fields)
