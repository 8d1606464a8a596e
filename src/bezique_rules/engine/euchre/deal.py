"""The Euchre deal, what changes per state: `EuchreDeal` (its accessors, its legality and
refusals, its transitions: a card played, a trick won, the bids and the decisions before the
play) and `EuchreEngine`, which compiles the tables and deals. What a player may know of a deal
is derived in `views`; what he may do now, in `legal`."""

from __future__ import annotations

import operator
import random
import warnings
from typing import cast

import attrs
from typing_extensions import Self

from ...actions import (
    _CALL_ALONE,
    _DISCARD,
    _ORDER_UP,
    _ORDER_UP_ALONE,
    _PASS,
    _ST_BID,
    _ST_OVER,
    _ST_TRICKS,
    Action,
    ActionKind,
)
from ...bits import lowest_bit
from ...errors import RuleCode
from ...parts.euchre import Decision, EuchreScoring, OrderUp
from ...parts.scoring import ScoreBreakdown
from ...rules.ruleset import RuleSet, part_of
from ...state.deal import DealSetup, DealState, Move, Phase, PlayerView, _unpickled_deal
from ..fields import CoreField, in_field_order
from .legal import (
    _legal_of,
    _play_ids,
    asks_farmer,
    asks_pickup,
    has_farmers_hand,
    may_bid_alone,
    may_call,
    may_decline_pickup,
    may_discard_turn_up,
    may_order_up,
    may_pass_bid,
    names_benny,
    pickup_choices,
    pickup_lapses,
    question_lapses,
    second_farmers_hand,
)
from .record import Bidding, Contract, EuchreLegal, EuchreState, Kitty, PlayTable, Question, _taken
from .tables import EuchreTables, EuchreTrickTables, _build, _table_of
from .views import relabelled, view_of, world_for

_bit = (1).__lshift__  # physical id -> its mask bit
# the questions outside the bidding rounds, as module names (an enum's class attribute
# costs five times a global's look-up in CPython 3.11)
_MAKER_ALONE, _TAKEOVER, _DEFEND = Decision.MAKER_ALONE, Decision.TAKEOVER, Decision.DEFEND
_PICKUP, _FARMERS_HAND = Decision.PICKUP, Decision.FARMER


class EuchreEngine:
    """Builds Euchre deals and their action space."""

    name = "euchre"

    @staticmethod
    def compile(rules: RuleSet) -> EuchreTables:
        """The numbered actions: plays and discards by face, the bids, ``trump``, ``alone``,
        farmer's swaps; and the engine's lookup tables."""
        return _build(rules)

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> EuchreDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        return EuchreDeal._dealt(rules, order, seed, dealer)


@attrs.frozen(repr=False)
class EuchreDeal(DealState):
    """A Euchre deal: immutable. Read it through the properties and `view`."""

    setup: DealSetup[EuchreTables]
    """The rules, deck order, seed and dealer."""
    core: EuchreState
    """Everything that changes during the deal (see the module docstring)."""
    _legal: EuchreLegal | None = attrs.field(  # type: ignore[assignment]  # a PlayableMask too
        default=None, eq=False, repr=False, alias="_legal"
    )
    """The legal actions once known: the ids, or a `PlayableMask` during the play."""

    @classmethod
    def of(cls, setup: DealSetup[EuchreTables], core: EuchreState) -> Self:
        """Deprecated: the deal with this setup and core is ``EuchreDeal(setup, core)``."""
        warnings.warn("EuchreDeal.of is deprecated: call EuchreDeal(setup, core)", DeprecationWarning, stacklevel=2)
        return cls(setup, core)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle (and copy) as `DealState` does, without the play rows (``core.table``: the
        tables' own rows, found again when unpickled)."""
        return (_unpickled_deal, (type(self), self.setup, tuple(self.core[:-1])))

    @classmethod
    def _from_core(cls, setup: DealSetup[EuchreTables], core: object) -> Self:
        """The deal of ``setup`` and ``core``, an `EuchreState` or its fields without the play
        rows (as `__reduce__` keeps them)."""
        if not isinstance(core, EuchreState):
            fields = cast("tuple[object, ...]", core)
            partial = EuchreState._make((*fields, setup.tables.trick.before_play))
            core = partial._replace(table=_table_of(setup.tables, partial))
        return cls(setup, core)

    @property
    def state(self) -> EuchreState:
        """Deprecated: the former name of `core`."""
        warnings.warn("EuchreDeal.state is deprecated: read EuchreDeal.core", DeprecationWarning, stacklevel=2)
        return self.core

    # -- what every deal state reads -------------------------------------------------------

    thrown_in = CoreField[bool]("bidding.misdeal")
    """Whether everyone passed (or a second farmer's hand was a misdeal)."""

    def _compute_legal(self) -> tuple[int, ...]:
        return _legal_of(self.setup, self.core)

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids of the legal actions, sorted."""
        legal = self._legal
        if type(legal) is int:  # a PlayableMask: the play ids of its cards, from the tables
            t: EuchreTrickTables = self.setup.tables.trick
            low = t.low_ids
            return low[legal & t.chunk_mask] + t.high_ids[legal >> t.width] if low else _play_ids(t, legal)
        if legal is None:
            return DealState.legal_action_ids(self)
        return cast("tuple[int, ...]", legal)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every distinct legal action, sorted by action id (empty when over)."""
        legal = self._legal
        if type(legal) is int:
            t: EuchreTrickTables = self.setup.tables.trick
            low = t.low_actions
            if low:
                return low[legal & t.chunk_mask] + t.high_actions[legal >> t.width]
        return super().legal_actions()

    # -- plain accessors ---------------------------------------------------------------------

    kitty = CoreField[tuple[int, ...]]("kitty.cards")
    """The hidden kitty (and the dealer's discard)."""

    turn_up = CoreField[int]("kitty.turn_up")
    """The turned-up card (physical id)."""

    trump = CoreField[int]("contract.trump")
    """The trump suit index, or -1."""

    @property
    def maker(self) -> int | None:
        """Who made trumps, or None."""
        maker = self.core.contract.maker
        return None if maker < 0 else maker

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats sitting out (the partner of a lone player or defender)."""
        out = self.core.contract.out
        return tuple(s for s in range(self.rules.players) if (out >> s) & 1)

    scores = CoreField[tuple[int, ...]]("points")
    """Points of the deal per side (0 until the deal ends)."""

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where the points came from: the contract, per side."""
        return tuple(ScoreBreakdown(contract=p) for p in self.core.points)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken per player."""
        s = self.core
        return _taken(s.won, s.table.active)

    # -- legality ----------------------------------------------------------------------------

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        c = self.core
        m = self.setup.tables
        kind = m.action_table.kind[action_id]
        arg = m.ids.args[action_id]
        stage = c.stage
        rules = self.setup.rules
        if kind is ActionKind.PLAY:
            if stage is not Phase.TRICKS:
                return RuleCode.WRONG_PHASE, f"no card is played during the {stage.value} phase"
            pid = self._pick(arg, c.hands[c.player])
            if pid < 0:
                return RuleCode.CARD_NOT_HELD, "you do not hold that card"
            why = rules.playoff_policy.refusal(rules.trump_tables[c.contract.trump], c.hands[c.player], c.trick, pid)
            return why or (RuleCode.NOT_AN_ACTION, "not playable")
        # which rule the action breaks, from the predicates that make the legal ids (`legal`)
        order_up = part_of(rules, rules.bidding, OrderUp)
        bidding = c.bidding
        round_two = bidding.round == 2
        bid = stage is Phase.BID
        if kind in (ActionKind.ORDER_UP, ActionKind.ORDER_UP_ALONE):
            if bid and not may_order_up(round_two=round_two):
                return RuleCode.WRONG_PHASE, "the turn-up is turned down: name another suit with 'call'"
            if bid and not may_bid_alone(order_up):
                return RuleCode.NOT_AN_ACTION, "going alone is decided after the bid in this variant"
            return RuleCode.WRONG_PHASE, "ordering up is a first-round bid"
        if kind in (ActionKind.CALL, ActionKind.CALL_ALONE):
            if bid and may_order_up(round_two=round_two):
                return RuleCode.WRONG_PHASE, "in the first round only the turned suit can be ordered up"
            if bid and not may_call(round_two=round_two, candidate=bidding.candidate, suit=arg):
                return RuleCode.NOT_AN_ACTION, "the turned-down suit may not be named in the second round"
            if bid and not may_bid_alone(order_up):
                return RuleCode.NOT_AN_ACTION, "going alone is decided after the bid in this variant"
            return RuleCode.WRONG_PHASE, "naming a suit is a second-round bid"
        if kind is ActionKind.PASS:
            if bid and not may_pass_bid(order_up, round_two=round_two, is_dealer=c.player == self.setup.dealer):
                return RuleCode.MUST_BID, "the dealer is stuck: he must name a suit"
            if asks_pickup(c) and not may_decline_pickup(order_up):
                return RuleCode.MUST_BID, "the dealer must take the turn-up and discard a card"
            return RuleCode.WRONG_PHASE, f"nothing to pass during the {stage.value} phase"
        if kind is ActionKind.DISCARD:
            if not asks_pickup(c):
                return RuleCode.WRONG_PHASE, "only the dealer discards, after taking the turn-up"
            if arg == rules.deck.face_of[c.kitty.turn_up] and not may_discard_turn_up(order_up):
                return RuleCode.CARD_NOT_HELD, "the dealer may not discard the card he just took up"
            return RuleCode.CARD_NOT_HELD, "you do not hold that card"
        if kind is ActionKind.FARMER_SWAP:
            if not asks_farmer(c):
                return RuleCode.WRONG_PHASE, "a farmer's hand is exchanged before the bidding"
            return RuleCode.CARD_NOT_HELD, "you do not hold those cards"
        if kind is ActionKind.TRUMP:
            return RuleCode.WRONG_PHASE, "only the dealer names a suit, when the turn-up is the Benny"
        return RuleCode.WRONG_PHASE, f"no decision to play alone is pending during the {stage.value} phase"

    def _pick(self, face: int, hand: int) -> int:
        copies = hand & self.setup.rules.deck.face_masks[face]
        return lowest_bit(copies)

    # -- transitions -------------------------------------------------------------------------

    def apply(self, action: Action | str | int, *, check: bool = True) -> Self:
        """The state after ``action`` (an action, its notation or its id): see `DealState.apply`.

        A card played with ``check=False``, the action taken from `legal_actions`,
        is the hot path of every simulation: it is handled here in one step.
        """
        setup = self.setup
        m: EuchreTables = setup.tables
        t = m.trick
        plays = t.plays
        if type(action) is int and check is False:
            if not 0 <= action < plays:
                if plays <= action < len(m.actions.actions):
                    return self._apply_id(action)  # a bid or a decision, as legal_action_ids() gives them
                return DealState.apply(self, action, check=check)
            action_id = action  # a play id, as legal_action_ids() gives them
        else:
            known = m.actions.by_identity.get(id(action))  # an action object taken from legal_actions()
            checked_play = check is True and known is not None and known < plays and self._legal_play(known)
            if known is None or not (check is False or checked_play):
                return DealState.apply(self, action, check=check)  # checks it (and raises, naming the rule)
            if known >= plays:
                return self._apply_id(known)  # a bid or a decision, unchecked
            action_id = known  # a play: unchecked, or checked against the playable cards
        # a card played to the trick (ids 0 .. plays-1, id == face)
        (
            p, held_before, trick_before, moves_before, stage, leader, won, last_trick, last_leader, points, queue,
            bidding, contract, kitty, table,
        ) = self.core  # the record read in field order, one name per field  # fmt: skip
        held = list(held_before)
        pid = action_id if t.single else self._pick(action_id, held[p])
        held[p] ^= 1 << pid
        hands = tuple(held)
        trick = trick_before + (pid,)
        moves = moves_before + ((p, action_id),)
        seats, active, follow, _power = table
        if len(trick) == active:
            return self._trick_won(hands, trick, moves, leader, won, queue, bidding, contract, kitty, table)
        nxt = seats[p]
        core = in_field_order(EuchreState, (
            nxt, hands, trick, moves, stage, leader, won, last_trick, last_leader, points, queue, bidding, contract,
            kitty, table,
        ))  # fmt: skip
        if follow is None:  # no tables for this deck: the general way
            return self._make(setup, core, _legal_of(setup, core))
        # the next player's playable cards: those of the led card's effective suit, or any
        h = hands[nxt]
        return self._make(setup, core, h & follow[trick[0]] or h)

    def _legal_play(self, play_id: int) -> bool:
        """Whether playing ``play_id`` is legal now: read from the mask of playable cards
        when the state holds one (only in the play, on decks with tables: one copy of each
        card, so a play's id is the card's id), else from the legal ids."""
        legal = self._legal
        if type(legal) is int:
            return (legal >> play_id) & 1 == 1
        return play_id in self.legal_action_ids()

    def _apply_id(self, action_id: int) -> Self:
        m: EuchreTables = self.setup.tables
        if action_id < m.trick.plays:  # a card played (ids 0 .. plays-1): the hot path in apply
            return self.apply(action_id, check=False)
        ids = m.ids
        kind = m.action_table.kind[action_id]
        # a bid, a decision or a discard
        s = self.core
        moves = s.moves + ((s.player, action_id),)
        stage = s.stage
        if stage is _ST_BID:
            return self._bid(s, moves, kind, ids.args[action_id])
        if stage is Phase.TRUMP:
            return self._benny_named(s, moves, ids.args[action_id])
        if stage is Phase.ALONE:
            return self._alone(s, moves, kind is ActionKind.ALONE)
        return self._discard(s, moves, kind, ids.args[action_id])

    def _trick_won(
        self,
        hands: tuple[int, ...],
        trick: tuple[int, ...],
        moves: tuple[Move, ...],
        leader: int,
        won_before: tuple[int, ...],
        queue: tuple[Question, ...],
        bidding: Bidding,
        contract: Contract,
        kitty: Kitty,
        table: PlayTable,
    ) -> Self:
        """The trick is complete: its winner takes it and leads next, or the deal is scored."""
        setup = self.setup
        power = table.power
        if power is not None:  # one copy of each card: the highest power wins
            powers = operator.itemgetter(*trick)(power[trick[0]])  # a trick has two cards or more
            k = powers.index(max(powers))
        else:
            k = setup.rules.trump_tables[contract.trump].winner(trick)
        winner = setup.tables.trick.nth_seat[contract.out][leader][k]
        held = list(won_before)
        held[winner] |= sum(map(_bit, trick))
        won = tuple(held)
        h = hands[winner]
        if h:
            core = in_field_order(EuchreState, (
                winner, hands, (), moves, _ST_TRICKS, winner, won, trick, leader, (0, 0), queue, bidding, contract,
                kitty, table,
            ))  # fmt: skip
            if table.follow is None:  # no tables for this deck: the general way
                return self._make(setup, core, _legal_of(setup, core))
            return self._make(setup, core, h)
        maker = contract.maker
        scoring = part_of(setup.rules, setup.rules.scoring, EuchreScoring)
        made = (won[maker] | won[(maker + 2) % len(hands)]).bit_count() // table.active
        mine, theirs = scoring.points(tricks=made, alone=contract.alone >= 0, lone_defender=contract.defender >= 0)
        points = (mine, theirs) if maker % 2 == 0 else (theirs, mine)
        over = in_field_order(EuchreState, (
            -1, hands, (), moves, _ST_OVER, winner, won, trick, leader, points, queue, bidding, contract, kitty, table,
        ))  # fmt: skip
        return self._make(setup, over, ())

    # The bidding and the decisions before the play: each works out the new records (and
    # hands), and `_settled` moves on to the next pending question (or the bidding, or the play).

    def _benny_named(self, s: EuchreState, moves: tuple[Move, ...], suit: int) -> Self:
        setup = self.setup
        m = setup.tables
        dealer = setup.dealer
        bidding = s.bidding._replace(candidate=suit)
        if m.bidding.benny_makes_dealer:
            return self._made(s, moves, bidding, dealer, suit, alone=False, turned_suit=True)
        player = m.deal.first[dealer]
        return self._settled(setup, player, s.hands, moves, s.stage, s.queue, bidding, s.contract, s.kitty)

    def _bid(self, s: EuchreState, moves: tuple[Move, ...], kind: ActionKind, arg: int) -> Self:
        setup = self.setup
        n = len(s.hands)
        p = s.player
        bidding = s.bidding
        if kind is _PASS:
            passes = bidding.passes + 1
            stage = s.stage
            if passes < n:
                bidding = bidding._replace(passes=passes)
                p = (p + 1) % n
            elif bidding.round == 1:
                bidding = bidding._replace(round=2, passes=0)
                p = setup.tables.deal.first[setup.dealer]
            else:  # everybody passed twice: the deal is thrown in
                bidding = bidding._replace(misdeal=True)
                stage = _ST_OVER
                p = -1
            return self._settled(setup, p, s.hands, moves, stage, s.queue, bidding, s.contract, s.kitty)
        if kind is _ORDER_UP or kind is _ORDER_UP_ALONE:
            alone = kind is _ORDER_UP_ALONE
            return self._made(s, moves, bidding, p, bidding.candidate, alone=alone, turned_suit=True)
        return self._made(s, moves, bidding, p, arg, alone=kind is _CALL_ALONE, turned_suit=False)

    def _made(
        self,
        s: EuchreState,
        moves: tuple[Move, ...],
        bidding: Bidding,
        maker: int,
        trump: int,
        *,
        alone: bool,
        turned_suit: bool,
    ) -> Self:
        """Trumps are made: the contract, and the questions that follow (pick-up, going
        alone, taking over, lone defence)."""
        setup = self.setup
        tables = setup.tables.bidding
        if bidding.passes:
            bidding = bidding._replace(passes=0)
        queue = tables.made_queue[setup.dealer][maker][alone][turned_suit]
        contract = tables.made[maker][trump][alone]
        return self._settled(setup, maker, s.hands, moves, s.stage, queue, bidding, contract, s.kitty)

    def _alone(self, s: EuchreState, moves: tuple[Move, ...], yes: bool) -> Self:
        n = len(s.hands)
        contract = s.contract
        queue = s.queue
        seat, decision = queue[0]
        if not yes:
            pass
        elif decision is _MAKER_ALONE:
            contract = contract._replace(alone=seat, out=contract.out | 1 << (seat + 2) % n)
        elif decision is _TAKEOVER:
            contract = contract._replace(alone=seat, out=1 << contract.maker)
        else:
            contract = contract._replace(defender=seat, out=contract.out | 1 << (seat + 2) % n)
        return self._settled(self.setup, s.player, s.hands, moves, s.stage, queue[1:], s.bidding, contract, s.kitty)

    def _discard(self, s: EuchreState, moves: tuple[Move, ...], kind: ActionKind, arg: int) -> Self:
        setup = self.setup
        p = s.player
        bidding = s.bidding
        kitty = s.kitty
        queue = s.queue
        hands = list(s.hands)
        if asks_farmer(s):
            if kind is ActionKind.FARMER_SWAP:
                if second_farmers_hand(kitty):  # a misdeal
                    bidding = bidding._replace(asked=bidding.asked + 1, misdeal=True)
                    return self._settled(setup, -1, s.hands, moves, _ST_OVER, (), bidding, s.contract, kitty)
                faces = setup.tables.ids.farmer[arg].faces
                trio = [self._pick(f, hands[p]) for f in sorted(faces)]
                gone = sum(1 << x for x in trio)
                hands[p] = (hands[p] & ~gone) | sum(1 << x for x in kitty.cards[:3])
                kitty = kitty._replace(cards=(*trio, *kitty.cards[3:]), farmer=p)
            bidding = bidding._replace(asked=bidding.asked + 1)
            return self._settled(setup, p, tuple(hands), moves, s.stage, queue[1:], bidding, s.contract, kitty)
        # the dealer's exchange
        if kind is _DISCARD:
            held = hands[p] | (1 << kitty.turn_up)
            gone = self._pick(arg, held)
            hands[p] = held & ~(1 << gone)
            kitty = kitty._replace(cards=(*kitty.cards, gone), buried=gone)
        return self._settled(setup, p, tuple(hands), moves, s.stage, queue[1:], bidding, s.contract, kitty)

    @classmethod
    def _dealt(cls, rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> Self:
        """The deal of ``order`` (physical ids, top first) with ``dealer`` dealing, as it starts
        (`EuchreEngine.new_deal`)."""
        m = cast(EuchreTables, rules.tables)
        layout = m.deal
        dealing = layout.dealing
        if dealing is None:
            hands, _widow, turn_up, kitty = rules.deal.deal(order, rules.players, dealer)
        else:  # the same deal as the pattern's, from precomputed positions
            hands = tuple([sum(map(_bit, get(order))) for get in dealing[dealer]])
            turn_up = order[layout.turn_pos]
            kitty = order[layout.turn_pos + 1 :]
        tables = m.bidding
        setup = DealSetup(rules, order, seed, dealer, m)
        return cls._settled(
            setup,
            layout.first[dealer],
            hands,
            (),
            _ST_BID,
            tables.farmer_queue[dealer],
            tables.opening[turn_up],
            tables.no_contract,
            Kitty(cards=kitty, turn_up=turn_up, buried=-1, farmer=-1),
        )

    @classmethod
    def _settled(
        cls,
        setup: DealSetup[EuchreTables],
        player: int,
        hands: tuple[int, ...],
        moves: tuple[Move, ...],
        stage: Phase,
        queue: tuple[Question, ...],
        bidding: Bidding,
        contract: Contract,
        kitty: Kitty,
    ) -> Self:
        """Ask the first pending question that applies (those that lapse are dropped), or
        go on with the bidding, or start the play; and build the state."""
        m: EuchreTables = setup.tables
        dealer = setup.dealer
        legal: tuple[int, ...] | None = None  # None: worked out from the state built
        while queue:
            seat, decision = queue[0]
            if decision is _FARMERS_HAND:
                if not has_farmers_hand(setup, hands[seat]):
                    queue = queue[1:]
                    continue
                stage = Phase.DISCARD
            elif decision is _PICKUP:
                if pickup_lapses(contract, seat):
                    queue = queue[1:]
                    continue
                stage = Phase.DISCARD
                if m.trick.follow is not None:  # one copy of each card: discard id == plays + card id
                    cards, decline = pickup_choices(
                        part_of(setup.rules, setup.rules.bidding, OrderUp), hands[seat], kitty.turn_up
                    )
                    legal = tuple([m.trick.plays + i for i in _play_ids(m.trick, cards)])
                    if decline:
                        legal += (m.ids.pass_id,)
            elif question_lapses(setup, contract, kitty.buried >= 0, seat, decision):
                queue = queue[1:]
                continue
            else:  # going alone, taking over, defending alone
                stage = Phase.ALONE
                legal = m.bidding.alone_legal
            player = seat
            break
        else:
            if stage is _ST_OVER:
                player, legal = -1, ()
            elif contract.trump < 0 and names_benny(bidding):  # a turned Benny: the dealer names a suit first
                player, stage, legal = dealer, Phase.TRUMP, m.bidding.trump_legal
            elif contract.trump < 0:  # the farmer's-hand questions are done, or the bidding goes on
                if stage is not _ST_BID:  # after the farmer's-hand questions: the dealer's left bids first
                    player = m.deal.first[dealer]
                stage = _ST_BID
                legal = m.bidding.bid_legal[bidding.round == 2][player == dealer][bidding.candidate]
            else:  # the first trick starts
                out = contract.out
                lone = contract.alone if contract.alone >= 0 else contract.defender
                start = lone if m.bidding.lead_left_of_lone and lone >= 0 else dealer
                leader = m.trick.next_seat[out][start]  # the first seat in play on his left
                table = m.trick.play_table[out][contract.trump]
                core = in_field_order(EuchreState, (
                    leader, hands, (), moves, _ST_TRICKS, leader, m.deal.zeros, (), -1, (0, 0), (), bidding, contract,
                    kitty, table,
                ))  # fmt: skip
                # the leader's playable cards: his hand (a mask), or the ids the general way
                return cls._make(setup, core, _legal_of(setup, core) if table.follow is None else hands[leader])
        # a state before the play
        core = in_field_order(EuchreState, (
            player, hands, (), moves, stage, m.deal.first[dealer], m.deal.zeros, (), -1, (0, 0), queue, bidding,
            contract, kitty, m.trick.before_play,
        ))  # fmt: skip
        return cls._make(setup, core, _legal_of(setup, core) if legal is None else legal)

    # -- knowledge: derived per viewer (`views`) ---------------------------------------------

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: own hand, the turn-up, every played card; never the
        other hands, the kitty or the dealer's discard."""
        return view_of(self, player)

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """A world ``player`` cannot tell from this deal (`views.world_for`)."""
        return world_for(self, player, rng)

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with its cards renamed by ``perm`` (`views.relabelled`)."""
        return relabelled(self, perm)

    def _public_ids(self) -> int:
        c = self.core
        out = super()._public_ids() | 1 << c.kitty.turn_up
        if c.kitty.farmer >= 0:  # the swapped nines and tens were shown
            out |= sum(1 << x for x in c.kitty.cards[:3])
        return out

    def _unseen_turn(self, viewer: int) -> int | None:
        """A farmer's-hand question of another player: his ``pass`` is never shown (only a
        holder is asked; see `views.past_hidden_decisions`)."""
        s = self.core
        if s.player != viewer and asks_farmer(s):
            pass_id: int = self.setup.tables.ids.pass_id
            return pass_id
        return None


ENGINE = EuchreEngine()
"""The Euchre engine, as the registry finds it."""
