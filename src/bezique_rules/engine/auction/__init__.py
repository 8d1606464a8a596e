"""The auction engine: bid, widow, trumps, passing, melds laid down at once, tricks, settlement.

For the Pinochle games without a stock. The engine
sequences the phases; the rules come from the rule set's parts: the `Auction`
(bids), the `ContractRules` (widow, passing, who melds, who leads, concessions),
the meld table (laid down at once: `best_melds` / `melds_fit`), the trick policy
(head the trick), the counters, and the `ContractScoring`.

Phases: ``BID`` (``bid N`` / ``pass``), ``TRUMP`` (``pass`` turns the widow up when
the bidder could still concede without seeing it; then ``trump S``; ``throw-in``
concedes), ``GIVE`` (``give`` the partner's cards to the declarer, then back),
``MELD`` (``meld best`` lays down the best combination at once; or lay melds one
by one with ``meld <kind> <cards>`` and finish with ``pass``), ``DISCARD`` (the
bidder buries cards, not ones used in his melds unless ``bury_melded``),
``CONCEDE`` (a declarer far short of the bid after the melds: ``throw-in`` or
``pass``), ``TRICKS``, ``OVER``.

The state record. An `AuctionDeal` is its fixed `DealSetup` (rules, deck order,
seed, dealer, the compiled `AuctionTables`) and one `AuctionCore`, a NamedTuple
changed with ``_replace`` (one measured exception: ``record._card_played``). Its fields:

- ``stage``: the phase; ``player``: who acts (-1 once over);
- ``hands``: per player, the mask of physical cards held; ``widow``: the widow's
  cards until the declarer takes them; ``widow_shown``: it was turned face up;
- ``passed``: a bit per player out of the auction; ``declarer``: the high bidder
  (-1: none); ``bid``: the high bid (0: none); ``trump``: the trump suit index (-1);
- ``conceded``: how the declarer conceded (a `Concession`, ``""`` if not);
- ``give_step``: passing cards (1 the partner gives, 2 the declarer gives back, 0
  otherwise); ``given``: the cards passed so far;
- ``laid``: per player, the melds laid down; ``known``: per player, the held cards
  everyone knows of (melded cards the melds still need, the widow's cards until the
  burial); ``to_meld``: who is still to meld, in order;
- ``buried``: the declarer's buried cards;
- ``leader``, ``trick``: the current trick and who led it; ``last_trick``,
  ``last_leader``: the previous one; ``won``: per player, the mask of cards won;
  ``taken``: per player, tricks taken; ``last_winner``: who won the last trick;
- ``points``: per side, the deal's points (or units) once over; ``misdeal``: all
  passed and the deal was thrown in;
- ``moves``: every action so far, as (player, action id) pairs.

The tables (`AuctionTables`, built once per rule set by `AuctionEngine.compile`):
``meanings`` says per action id what it does (an `ActionKind` and its face, bid,
suit, faces or meld); ``bidding`` holds the ids of bids, passes, trumps and the
throw-in; ``cards`` those of plays (a play's id is its face), gives and burials,
with the weights that list the legal gives and burials of a hand; ``melds`` those
of the meld phase, with per trump suit the meld instances to test.

The modules, by lifetime:

- built once per rule set: ``tables`` (`AuctionTables` and its parts);
- the record of one state: ``record`` (`AuctionCore`);
- what the player to act may decide: ``declare``, the declaration predicates, each rule
  stated once (`bids_open`, `dealer_stuck`, `widow_waits_at_minimum`, `widow_waits`,
  `may_throw_in`, `concession`, `may_concede_after_melds`, `give_receiver`,
  `burial_keeps_melds`, `fitting_meld_ids`, `partner_winning`), read by the legal ids and
  the refusals it builds and by the transitions alike;
- the transitions, each building the next record: ``phases`` (the auction, the widow,
  trumps, passing, melds, burial, concessions) and ``play`` (the tricks and the settlement);
- derived per viewer: ``viewer`` (the view, the history as one player saw it, the worlds he
  cannot tell apart and the renaming of cards they are built by);
- ``deal``: `AuctionDeal`, which sequences them (legality only reads the state; the
  transitions build the next one), and `AuctionEngine`, which deals it.
"""

from __future__ import annotations

from .deal import ENGINE, AuctionDeal, AuctionEngine
from .record import AuctionCore
from .tables import AuctionActionMeaning, AuctionTables, BidTable, CardTable, MeldCheck, MeldIndex

__all__ = [
    "ENGINE",
    "AuctionActionMeaning",
    "AuctionCore",
    "AuctionDeal",
    "AuctionEngine",
    "AuctionTables",
    "BidTable",
    "CardTable",
    "MeldCheck",
    "MeldIndex",
]
