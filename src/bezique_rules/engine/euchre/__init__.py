"""The Euchre engine: order-up rounds, the dealer's exchange, going alone, five tricks.

The engine sequences the phases only. The bidding rules come from the rule
set's `OrderUp` part, the trump order (bowers, Benny) from its `TrumpOrder`,
the play duty (follow the effective suit) from its trick policy, and the
points from its `EuchreScoring`.

Phases: ``DISCARD`` (a farmer's-hand swap, asked first when that house rule is
on), ``TRUMP`` (a turned Benny: the dealer names a suit), ``BID`` (round one:
``pass`` / ``order-up [alone]``; round two: ``pass`` / ``call S [alone]``),
``DISCARD`` (the dealer's exchange after the turned suit is made trumps),
``ALONE`` (``alone`` or ``pass``: the maker's decision when it follows the bid, a
partner taking over, a defender defending alone), ``TRICKS``, ``OVER``.

The state record
----------------

A deal (`EuchreDeal`) is its `DealSetup`, one `EuchreState` record (a NamedTuple, the
deal's `core`) and, as in every engine, its legal actions once known (the ``_legal`` slot:
the legal ids, sorted; or, during the play on a deck with one copy of each card, a
`PlayableMask`, the mask of the playable cards, whose ids `legal_action_ids` and actions
`legal_actions` read from the trick tables). The record's fields that change with every card
come first, then those that change once a trick, then four named records that the play only
passes on:

- ``player``: who acts, -1 once the deal is over.
- ``hands``: per seat, the mask of the cards held (physical ids).
- ``trick``: the current trick's cards (physical ids) in play order.
- ``moves``: every action so far, as ``(player, action_id)`` pairs.
- ``stage``: the phase (`Phase`).
- ``leader``: who leads (or led) the current trick; before the play, the dealer's left.
- ``won``: per seat, the mask of the cards won in tricks (the tricks taken are
  counted from it: a trick adds ``table.active`` cards).
- ``last_trick`` and ``last_leader``: the trick before, and who led it (-1: none).
- ``points``: per side, the points of the deal (set when it ends).
- ``queue``: the pending `Question` s, who decides what next (from `OrderUp`; the
  first is being asked, or lapses): answering one drops it.
- ``bidding``: a `Bidding` (changes with the bids): ``round`` (1 or 2),
  ``candidate`` (the suit offered in round one; -1 until the dealer names one for
  a turned Benny), ``passes`` (in this round), ``asked`` (how many farmer's-hand
  questions were answered: the first moves), ``misdeal`` (the deal ended without
  play).
- ``contract``: a `Contract` (taken from the tables when trumps are made, changed
  by the lone decisions): ``trump`` (the suit index, or -1), ``maker``, ``alone``
  (the lone player), ``defender`` (the lone defender), ``out`` (a bit per seat
  sitting out).
- ``kitty``: a `Kitty`: ``cards`` (the hidden cards under the turn-up, then the
  dealer's discard), ``turn_up``, ``buried`` (the dealer's discard), ``farmer``
  (who swapped a farmer's hand).
- ``table``: a `PlayTable`, the rows the play reads at every card, taken from the
  tables when the play starts: ``seats`` (seat -> the next seat in play),
  ``active`` (how many seats play), ``follow`` (led card -> the cards that follow
  it, or None: ask the trick policy) and ``power`` (led card -> the power of each
  card in that trick, or None: ask the trump table).

-1 means "nobody" or "none" throughout. The tables (`EuchreTables`) are compiled once per rule set by
`EuchreEngine.compile`, in four named groups: the action ids, the trick tables,
the bidding tables and the deal layout.

The package, split by lifetime: `tables` (built once per rule set), `record` (the state
record), `deal` (`EuchreDeal` and `EuchreEngine`: what changes per state), `legal` (what a
player may do now: the legal ids and the bidding predicates), `views` (what a player may know,
derived per viewer) and `farmers` (`FarmersRound`, the farmer's-hand round for the adapters).
"""

from __future__ import annotations

import warnings

# the names the single module of 0.2.0 held (and pickles name): the public ones, and with them
# (``X as X``) the engine, the records and the table groups
from .deal import ENGINE as ENGINE
from .deal import EuchreDeal, EuchreEngine
from .farmers import FarmersRound
from .record import Bidding as Bidding
from .record import Contract, EuchreState, PlayableMask, PlayTable, Question
from .record import EuchreLegal as EuchreLegal
from .record import Kitty as Kitty
from .tables import ActionIds as ActionIds
from .tables import BiddingTables as BiddingTables
from .tables import DealLayout as DealLayout
from .tables import EuchreTables
from .tables import EuchreTrickTables as EuchreTrickTables
from .tables import FarmerSwap as FarmerSwap

__all__ = [
    "Contract",
    "EuchreDeal",
    "EuchreEngine",
    "EuchreState",
    "EuchreTables",
    "FarmersRound",
    "PlayTable",
    "PlayableMask",
    "Question",
]


def __getattr__(name: str) -> object:
    """Deprecated module names: ``EuchreCore`` (the former flat record) is `EuchreState`."""
    if name == "EuchreCore":
        warnings.warn(
            "EuchreCore is deprecated: EuchreDeal.core is an EuchreState (its fields grouped in records)",
            DeprecationWarning,
            stacklevel=2,
        )
        return EuchreState
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
