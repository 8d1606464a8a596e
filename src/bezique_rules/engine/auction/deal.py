"""The auction engine's deal: `AuctionDeal` (its legal ids, refusals and transitions, each
phase's own in `declare`, `phases` and `play`; what each player may know in `viewer`) and
`AuctionEngine`, which compiles the tables and deals it."""

from __future__ import annotations

import random
from typing import cast

import attrs
from typing_extensions import Self

from ...actions import _ST_TRICKS, Action
from ...bits import bit_ids, fold_copies
from ...errors import DealError, RuleCode
from ...parts.scoring import ScoreBreakdown
from ...parts.trumps import NO_TRUMP
from ...rules.ruleset import RuleSet
from ...state.deal import DealSetup, DealState, Phase, PlayerView
from ..fields import CoreField
from .declare import decision_ids, meld_points, partner_winning, pick, refusal, unlisted_refusal
from .phases import decide
from .play import play_card, settlement
from .record import AuctionCore
from .tables import AuctionTables, _build
from .viewer import determinize, player_view, relabel


class AuctionEngine:
    """Builds auction-game deals and their action space."""

    name = "auction"

    @staticmethod
    def compile(rules: RuleSet) -> AuctionTables:
        """The numbered actions: plays by face, bids, pass, trumps, throw-in, gives and burials
        (card multisets), melds, ``meld best``, ``pass help``; and the engine's lookup tables."""
        return _build(rules)

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> AuctionDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        n = rules.players
        hands, widow, _turn_up, rest = rules.deal.deal(order, n, dealer)
        if rest:
            raise DealError(f"the deal pattern leaves {len(rest)} cards undealt")
        zeros = (0,) * n
        core = AuctionCore(
            stage=Phase.BID,
            player=(dealer + 1) % n,
            hands=hands,
            widow=widow,
            widow_shown=False,
            passed=0,
            declarer=-1,
            bid=0,
            trump=NO_TRUMP,
            conceded="",
            give_step=0,
            given=(),
            laid=((),) * n,
            known=zeros,
            to_meld=(),
            buried=(),
            leader=-1,
            trick=(),
            last_trick=(),
            last_leader=-1,
            won=zeros,
            taken=zeros,
            last_winner=-1,
            points=(0,) * len(rules.sides),
            misdeal=False,
            moves=(),
        )
        return AuctionDeal(DealSetup(rules, order, seed, dealer, cast(AuctionTables, rules.tables)), core)


@attrs.frozen(repr=False)  # DealState.__repr__: short
class AuctionDeal(DealState):
    """A deal of an auction game (three-hand, partnership or double-deck Pinochle): immutable."""

    setup: DealSetup[AuctionTables]
    """The rules, deck order, seed and dealer."""
    core: AuctionCore
    """Everything that changes during the deal."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")

    # -- accessors ------------------------------------------------------------

    widow = CoreField[tuple[int, ...]]("widow")
    """The widow while it lies on the table."""

    buried = CoreField[tuple[int, ...]]("buried")
    """The buried cards."""

    @property
    def declarer(self) -> int | None:
        """The high bidder (declarer), or None."""
        return None if self.core.declarer < 0 else self.core.declarer

    thrown_in = CoreField[bool]("misdeal")
    """Whether everyone passed and the deal was thrown in."""

    @property
    def contract_side(self) -> int | None:
        """The declarer's side, once the auction has a winner."""
        d = self.core.declarer
        return None if d < 0 or self.core.misdeal else self.setup.rules.side_of(d)

    scores = CoreField[tuple[int, ...]]("points")
    """The deal's points (or units) per side, once settled (zeros before)."""

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where each side's points came from (melds and counters when they count, the
        contract when the bid was lost or conceded, or the units of a settlement)."""
        if self.core.stage is not Phase.OVER or self.core.misdeal:
            return tuple(ScoreBreakdown() for _ in self.core.points)
        return settlement(self.setup, self.core)[1]

    def meld_points(self) -> tuple[int, ...]:
        """Points of the melds laid down, per player."""
        return meld_points(self.setup.rules.melds.kinds, self.core.laid)

    # -- legality (`declare`) --------------------------------------------------------------

    def _compute_legal(self) -> tuple[int, ...]:
        c = self.core
        if c.stage is _ST_TRICKS:  # a play's id is its face (`CardTable.play_ids`)
            rules = self.setup.rules
            deck = rules.deck
            playable = rules.playoff_policy.legal(
                rules.trump_tables[c.trump], c.hands[c.player], c.trick, partner_winning(rules, c)
            )
            return tuple(bit_ids(fold_copies(playable, deck.num_faces, deck.packs)))
        return decision_ids(self.setup, c)

    def _unlisted(self, action: Action) -> tuple[RuleCode, str] | None:
        return unlisted_refusal(self.setup, self.core, action)

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        return refusal(self.setup, self.core, action_id)

    # -- transitions (`phases`, `play`) ----------------------------------------------------

    def _apply_id(self, action_id: int) -> Self:
        c = self.core
        p = c.player
        moves = c.moves + ((p, action_id),)
        setup = self.setup
        if c.stage is _ST_TRICKS:  # a play's id is its face (`CardTable.play_ids`)
            pid = pick(setup.rules.deck, action_id, c.hands[p], c.known[p])
            return self._make(setup, play_card(setup, c, pid, moves))
        return self._make(setup, decide(setup, c._replace(moves=moves), setup.tables.meanings[action_id]))

    # -- what each player may know (`viewer`) ----------------------------------------------

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: own hand, the widow once turned up, every meld laid
        down and card played; never the other hands, a face-down widow or buried cards."""
        return player_view(self, player)

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """A world ``player`` cannot tell from this deal (`viewer.determinize`)."""
        return determinize(self, player, rng)

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with its physical cards renamed by ``perm`` (`viewer.relabel`)."""
        return relabel(self, perm)

    def _public_ids(self) -> int:
        out = super()._public_ids()
        for k in self.core.known:
            out |= k
        return out


ENGINE = AuctionEngine()
"""The auction engine, as the registry finds it."""
