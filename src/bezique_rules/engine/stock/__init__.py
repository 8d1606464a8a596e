"""The stock-game engine: trick, declare, draw; then the play-off.

The engine only sequences phases. Which card wins comes from the rule set's
trump tables, which cards may be played from its trick policies, which melds
are legal from its meld table and meld rules, what the trump seven / dix does
from its `DixRule`, and what cards are worth from its card points.

Physical copies: when an action names a card by face, the engine picks the
copy: from the concealed hand the lowest id; from the table (``*``) the copy
used in the most melds (keeping the fresher copy for later melds); for a meld,
the copies used least in earlier melds that make the meld legal.

The phases: ``GUESS`` (six-pack's cut, once), then per trick ``PLAY`` (each
player in turn; a carte blanche or, with ``seven_any_time``, a trump seven may
be shown on one's turn), then ``DECLARE`` for the winner of every stock-phase
trick (melds, the seven / dix actions, ``pass``; a ``pass`` even when nothing
can be declared, so that the phase sequence shows nothing hidden), then the
draw; once the stock is gone, ``PLAYOFF`` tricks, then ``OVER``.

The state record `StockCore` (a deal is `DealSetup` + `StockCore`): the fields a card played
changes first, then two named sub-records, the cold parts (a draw or a trick taken passes them
on):

- ``stage``: the phase; ``player``: who acts (-1 when over); ``leader``: who led the
  current trick; ``hands``: per player, the mask of every card held; ``trick``: the current
  trick's cards in play order; ``won``: per player, the mask of cards won in tricks;
  ``moves``: (player, action id) pairs;
- ``tabled``, ``known``: per player, masks of physical card ids: the held cards lying face up
  in melds, the held cards everyone has seen;
- ``points``: per player, a `ScoreBreakdown` of the points so far (melds, seven, cards,
  last trick, bonus, contract);
- ``trump``: the trump suit index, or -1 before a multi-pack marriage fixes it;
- ``stock``: the face-down stock, top first; ``turn_up``: the turn-up (drawn last) or -1;
- ``last_trick``, ``last_leader``: the previous trick's cards and who led it (-1 before the
  first); ``tricks``: the tricks completed;
- ``declaring``: a `Declaring`: ``declarations``, every meld declared, as `Declared` records
  (player, kind index, cards); ``pending``, the melds laid out but not yet scored (pending
  declarations), each also in ``declarations`` (so the meld rules treat its cards as declared
  in its kind); ``scored``, the mask of trump sevens / dix cards that have scored; and what
  this trick's winner has declared so far: ``melds_this_trick``, ``seven_done`` (a seven
  action taken) and ``exchanged`` (the card taken for the seven, or -1);
- ``carte``: a `CarteBlanche`: ``may_show``, a bit per player who may show one now, and
  ``streak``, a bit per player on a streak (showed one, and has drawn no court card since).

The tables (`StockTables`, compiled once per rule set by `StockEngine.compile` and held by
`RuleSet.tables` and each deal's `DealSetup.tables`): the numbered actions and what each does
(`ActionIndex`), the trick tables (`TrickTables`), the declaration tables
(`DeclarationTables`) and the scoring tables (`ScoringTables`), all built by keyword.

Transitions build the next `StockCore` by field name (``core._replace(...)``), except the hot
ones (a card played, a trick taken, the draw): they change most of the record at once, read it
in field order (one unpacking line naming every field) and build it back with the same names in
the same order (`engine.fields.in_field_order`: a `NamedTuple` called with more than 15
keywords is called through a dict, and a card played would cost about a fifth more).
The sub-records hold what those transitions only pass on. The next deal is built by
`DealState._make`.

What may be declared is stated once, in the declaration predicates (`may_meld`,
`meld_scores`, `may_score_pending`, `may_exchange`, `seven_open`, `meld_forbidden`), read by
the legal ids, the refusals and the transitions alike.

What the readable shape costs is measured against 0.1.0 by `benchmarks/versus_0_1_0.py`
(docs/explanation/engines.md, "What the readable shape costs").
"""

from __future__ import annotations

from .deal import ENGINE, StockDeal, StockEngine
from .record import CarteBlanche, Declared, Declaring, StockCore
from .tables import ActionIndex, ActionMeaning, DeclarationTables, ScoringTables, StockTables, TrickTables, WinnerTable

__all__ = [
    "ENGINE",
    "ActionIndex",
    "ActionMeaning",
    "CarteBlanche",
    "DeclarationTables",
    "Declared",
    "Declaring",
    "ScoringTables",
    "StockCore",
    "StockDeal",
    "StockEngine",
    "StockTables",
    "TrickTables",
    "WinnerTable",
]
