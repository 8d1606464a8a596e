"""The stock engine's deal: `StockDeal` (its legal actions, refusals and transitions, and what
each player may know) and `StockEngine`, which deals it."""

from __future__ import annotations

import random
import warnings
from typing import cast

import attrs
from typing_extensions import Self

from ...actions import (
    _CARTE_BLANCHE,
    _DECLARE,
    _EXCHANGE,
    _GUESS,
    _MELD,
    _PASS,
    _PASS_TO_PARTNER,
    _PLAY,
    _ST_DECLARE,
    _ST_GUESS,
    _ST_OVER,
    _ST_PLAY,
    _ST_PLAYOFF,
)
from ...bits import bit_ids, fold_copies, lowest_bit
from ...cards import CardSet, Suit
from ...checks import check_seat
from ...deck import card_ids
from ...errors import RuleCode
from ...parts.scoring import ScoreBreakdown
from ...parts.stock import CutGuess
from ...parts.trumps import NO_TRUMP
from ...rules.ruleset import RuleSet
from ...state.deal import (
    DealSetup,
    DealState,
    Move,
    Phase,
    PlayerView,
    TableMeld,
    relabel_mask,
    relabel_masks,
    relabel_seq,
)
from ...state.knowledge import replayed, sample_hidden, swap_walk
from ..fields import CoreField, in_field_order, with_item
from .declare import (
    _declaring,
    _drop_pending,
    _history,
    _known_copies_first,
    _meld_cards,
    _more_may_be_declared,
    _partner,
    _partner_winning,
    _pending_match,
    exchange_blocks_melds,
    meld_forbidden,
    meld_limit_reached,
    meld_scores,
    seven_open,
)
from .draw import _after_draw, _cards_counted, _deal_result, _swept
from .record import CarteBlanche, Declared, Declaring, StockCore
from .tables import ActionIndex, MeldKey, StockTables, _build_tables, _mask_points


class StockEngine:
    """Builds stock-game deals and their action space."""

    name = "stock"

    @staticmethod
    def compile(rules: RuleSet) -> StockTables:
        """Every action of a stock-game rule set, numbered in a stable order:
        plays (by face, hand copy then table copy), melds (by kind, then faces),
        exchange and declare of the trump seven / dix, carte blanche, pass;
        and the engine's lookup tables."""
        return _build_tables(rules)

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> StockDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        n = rules.players
        hands, _widow, turn_up, stock = rules.deal.deal(order, n, dealer)
        trump = NO_TRUMP
        points = (ScoreBreakdown(),) * n
        scored = 0
        dix = rules.stock.dix
        if turn_up >= 0:
            card = rules.deck.card(turn_up)
            assert card.suit is not None  # a turn-up in a stock game is a suited card
            trump = card.suit.value
            if dix is not None and dix.turned_up_scores and card.rank is dix.rank:
                seven = dix.points_turned_up
                points = with_item(points, dealer, points[dealer] + ScoreBreakdown(seven=seven))
                scored |= 1 << turn_up
        leader = (dealer + 1) % n
        empty = (0,) * n
        tables = cast(StockTables, rules.tables)
        carte = 0
        if rules.stock.carte_blanche:
            for p in range(n):
                if not hands[p] & tables.declaring.court_mask:
                    carte |= 1 << p
        stage, packet = Phase.PLAY, -1
        cut = rules.stock.cut_guess
        if cut is not None:
            stage = Phase.GUESS
            packet = cut.packet if cut.packet is not None else _cut_packet(cut, seed, order)
        return StockDeal(
            DealSetup(rules, order, seed, dealer, tables, packet),
            StockCore(
                stage=stage, player=leader, leader=leader, hands=hands, trick=(), won=empty, moves=(), tabled=empty,
                known=empty, points=points, trump=trump,
                stock=stock, turn_up=turn_up, last_trick=(), last_leader=-1, tricks=0,
                declaring=Declaring(
                    declarations=(), pending=(), scored=scored, melds_this_trick=0, seven_done=False, exchanged=-1
                ),
                carte=CarteBlanche(may_show=carte, streak=0),
            ),
        )  # fmt: skip


def _cut_packet(cut: CutGuess, seed: int | None, order: tuple[int, ...]) -> int:
    """The size of the dealer's cut: a chance drawn from the deal's seed (or, for a stacked
    deck, from the deck order), uniform from ``cut.smallest`` to ``cut.largest``."""
    source = f"bezique-rules:cut:{seed}" if seed is not None else "bezique-rules:cut:" + ",".join(map(str, order))
    return random.Random(source).randint(cut.smallest, cut.largest)


def _hand_play_ids(index: ActionIndex, concealed: int) -> tuple[int, ...]:
    """The ids of playing from the concealed hand the cards of ``concealed``, ascending.

    The hot inner step of the legal plays, with the bit tricks inline (the engine's one
    such function): the copies are folded onto their faces (`bits.fold_copies`, by hand
    for two packs), then the play ids are read a byte of faces at a time."""
    nf = index.num_faces
    if index.packs == 2:
        faces = (concealed | concealed >> nf) & index.all_faces
    else:
        faces = fold_copies(concealed, nf, index.packs)
    by_byte = index.hand_id_bytes
    ids: tuple[int, ...]
    if len(by_byte) == 4:
        ids = by_byte[0][faces & 255] + by_byte[1][faces >> 8 & 255] + by_byte[2][faces >> 16 & 255]
        ids += by_byte[3][faces >> 24]
    elif len(by_byte) == 3:
        ids = by_byte[0][faces & 255] + by_byte[1][faces >> 8 & 255] + by_byte[2][faces >> 16]
    else:
        ids = ()
        for table in by_byte:
            if faces & 255:
                ids += table[faces & 255]
            faces >>= 8
            if not faces:
                break
    return ids


@attrs.frozen(repr=False)  # DealState.__repr__: short
class StockDeal(DealState):
    """A deal of a stock game (two-hand Bezique and its relatives): immutable.

    The fixed part lives in `setup`, the changing part in `core` (a `StockCore`). The raw
    fields below read it (physical ids and masks of ids; each a `CoreField`); read the game
    in cards through `view`.
    """

    setup: DealSetup[StockTables]
    """The rules, deck order, seed and dealer."""
    core: StockCore
    """Everything that changes during the deal."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")

    stage = CoreField[Phase]("stage")
    """The phase (read it as `phase`)."""
    player = CoreField[int]("player")
    """Who is to act (-1 when over)."""
    leader = CoreField[int]("leader")
    """Who led the current trick."""
    tabled = CoreField[tuple[int, ...]]("tabled")
    """Per player: the mask of cards lying face up in melds."""
    known = CoreField[tuple[int, ...]]("known")
    """Per player: the mask of held cards everyone has seen."""
    points = CoreField[tuple[ScoreBreakdown, ...]]("points")
    """Per player: the points by part (melds, seven, cards, last trick, bonus, contract)."""
    trump = CoreField[int]("trump")
    """The trump suit index, or -1."""
    stock = CoreField[tuple[int, ...]]("stock")
    """The face-down stock, top first."""
    turn_up = CoreField[int]("turn_up")
    """The turn-up (drawn last), or -1."""
    last_trick = CoreField[tuple[int, ...]]("last_trick")
    """The previous trick's cards."""
    last_leader = CoreField[int]("last_leader")
    """Who led the previous trick (-1 before the first)."""
    tricks = CoreField[int]("tricks")
    """Tricks completed."""
    declarations = CoreField[tuple[Declared, ...]]("declaring.declarations")
    """Every declared meld: (player, kind index, cards) (``core.declaring.declarations``)."""
    pending = CoreField[tuple[Declared, ...]]("declaring.pending")
    """The melds laid out but not yet scored, each also in `declarations`
    (``core.declaring.pending``)."""
    scored = CoreField[int]("declaring.scored")
    """The mask of trump sevens / dix cards that have scored (``core.declaring.scored``)."""
    exchanged = CoreField[int]("declaring.exchanged")
    """The card taken in exchange for the seven on this trick, or -1
    (``core.declaring.exchanged``)."""

    @property
    def turn(self) -> int:
        """Deprecated (read ``core.declaring.melds_this_trick`` and ``.seven_done``): this trick's
        declarations packed in one int, the melds declared in the low byte and 256 once a seven
        action was taken."""
        warnings.warn(
            "StockDeal.turn is deprecated: read core.declaring.melds_this_trick and core.declaring.seven_done",
            DeprecationWarning,
            stacklevel=2,
        )
        declaring = self.core.declaring
        return declaring.melds_this_trick | (256 if declaring.seven_done else 0)

    @property
    def shown(self) -> int:
        """Deprecated (read ``core.carte``, a `CarteBlanche`): the carte-blanche flags packed in
        one int, bit p when player p may show one now, bit 8 + p when he is on a streak."""
        warnings.warn("StockDeal.shown is deprecated: read core.carte", DeprecationWarning, stacklevel=2)
        carte = self.core.carte
        return carte.may_show | carte.streak << 8

    # -- the DealState interface -------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far per player, or per side in partnership games (card points join at
        the end unless counted immediately)."""
        points = self.core.points
        if self.setup.rules.partnership:
            return tuple(sum(points[p].total for p in side) for side in self.setup.rules.sides)
        return tuple(row.total for row in points)

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where each player's (or side's) points came from."""
        points = self.core.points
        if self.setup.rules.partnership:
            sides = self.setup.rules.sides
            return tuple(sum((points[p] for p in side), ScoreBreakdown()) for side in sides)
        return points

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit, or None."""
        return None if self.core.trump < 0 else Suit(self.core.trump)

    def _compute_legal(self) -> tuple[int, ...]:
        core = self.core
        stage = core.stage
        if stage is _ST_OVER:
            return ()
        t: StockTables = self.setup.tables
        p = core.player
        if stage is _ST_DECLARE:
            return tuple(sorted(_declaring(self.setup.rules, t, core, p)))
        if stage is _ST_GUESS:
            return t.index.guess_ids
        hand = core.hands[p]
        trick = core.trick
        tt = t.trick
        if trick and not (tt.stock_free if stage is _ST_PLAY else tt.playoff_free):
            policy = tt.stock_policy if stage is _ST_PLAY else tt.playoff_policy
            if tt.partner_duty:
                playable = policy.legal(tt.trumps[core.trump], hand, trick, _partner_winning(t, core))
            else:
                playable = policy.legal(tt.trumps[core.trump], hand, trick)
        else:
            playable = hand
        tabled = core.tabled[p]
        index = t.index
        ids = _hand_play_ids(index, playable & ~tabled)
        carte = index.carte_id >= 0 and stage is _ST_PLAY and (core.carte.may_show >> p) & 1 == 1
        d = t.declaring
        seven = d.dix_any_time and stage is _ST_PLAY and hand & d.dix_masks[core.trump] & ~core.declaring.scored
        if tabled & playable or carte or seven:
            play_table = index.play_table
            more = list(ids)
            for c in bit_ids(playable & tabled):
                more.append(play_table[c])
            if carte:
                more.append(index.carte_id)
            if seven:
                more.append(index.declare_ids[d.dix_faces[core.trump]])
            return tuple(sorted(set(more)))
        return ids

    def _history_of(self, player: int) -> tuple[tuple[int, int], ...]:
        return _history(self.core.declaring.declarations, player)

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        rules = self.rules
        t = self.setup.tables
        core = self.core
        declaring = core.declaring
        meaning = t.index.meanings[action_id]
        verb = meaning.kind
        stage = core.stage
        p = core.player
        if stage is Phase.GUESS and verb != _GUESS:
            return RuleCode.WRONG_PHASE, "first the non-dealer guesses the size of the dealer's cut"
        if verb == _GUESS:
            return RuleCode.WRONG_PHASE, "the cut is guessed once, before the first card"
        if verb == _PLAY:
            if stage is Phase.DECLARE:
                return RuleCode.WRONG_PHASE, "declare or pass before the next trick"
            pid = self._pick_play(meaning.number, meaning.from_table)
            if pid < 0:
                where = "on the table" if meaning.from_table else "in your concealed hand"
                return RuleCode.CARD_NOT_HELD, f"you hold no such card {where}"
            policy = rules.stock_policy if stage is Phase.PLAY else rules.playoff_policy
            partner = t.trick.partner_duty and _partner_winning(t, core)
            why = policy.refusal(rules.trump_tables[core.trump], core.hands[p], core.trick, pid, partner)
            return why or (RuleCode.NOT_AN_ACTION, "not playable")
        if verb == _CARTE_BLANCHE:
            return RuleCode.CARTE_BLANCHE_NOT_ALLOWED, (
                "a carte blanche is shown before your first card, from a hand without king, queen or jack "
                "(and, where repeats are allowed, again after drawing a card that is not a court card)"
            )
        if verb == _PASS:
            return RuleCode.WRONG_PHASE, "nothing to pass: play a card"
        if verb == _PASS_TO_PARTNER:
            return RuleCode.WRONG_PHASE, (
                "only the trick winner passes the declaration to his partner, after the trick and before declaring"
            )
        any_time = stage is Phase.PLAY and verb == _DECLARE and t.declaring.dix_any_time
        if stage is not Phase.DECLARE and not any_time:
            if stage is Phase.PLAYOFF:
                return RuleCode.NO_DECLARATION_NOW, "no declarations once the stock is exhausted"
            return RuleCode.NO_DECLARATION_NOW, "only the trick winner declares, after the trick and before drawing"
        dix = rules.stock.dix
        d = t.declaring
        if verb == _MELD:
            a, b = meaning.number, meaning.key
            limit = d.meld_limit
            if meld_limit_reached(d, declaring):
                if not d.pending:
                    return RuleCode.MELD_LIMIT, f"only {limit} meld{'s' if limit > 1 else ''} per trick won"
                if _pending_match(rules, declaring.pending, p, a, b):
                    return RuleCode.MELD_LIMIT, f"a pending meld scores on a later trick won, {limit} per trick"
            if exchange_blocks_melds(dix, declaring):
                return RuleCode.NO_MELD_WITH_EXCHANGE, "no meld on a trick where the trump seven was exchanged"
            kind = rules.melds.kinds[a]
            faces = tuple(f for f, _ in b)
            if (a, faces) not in rules.meld_instances[core.trump]:
                return RuleCode.NOT_A_MELD, f"these cards do not form a {kind.name} with these trumps"
            mask, why = rules.meld_search[core.trump].choose(a, b, core.hands[p], core.tabled[p], self._history_of(p))
            if why is None and mask & meld_forbidden(dix, declaring):
                return RuleCode.EXCHANGED_CARD_IN_MELD, (
                    "the card taken in exchange for the trump seven may not be used in a meld on the same trick"
                )
            return why or (RuleCode.NOT_A_MELD, "not a legal meld now")
        # exchange / declare
        if dix is None:
            return RuleCode.NOT_AN_ACTION, "this variant has no trump seven"
        if not seven_open(declaring) and not any_time:
            return RuleCode.SEVEN_NOT_ALLOWED, "only one trump-seven declaration per trick"
        if core.trump < 0 or d.dix_faces[core.trump] != meaning.number:
            return RuleCode.SEVEN_NOT_ALLOWED, "only the seven of trumps can be declared or exchanged"
        held = core.hands[p] & rules.deck.face_masks[meaning.number]
        if not held:
            return RuleCode.CARD_NOT_HELD, "you do not hold it"
        if not held & ~declaring.scored:
            return RuleCode.SEVEN_ALREADY_SCORED, "that seven has already scored"
        if verb == _EXCHANGE:
            if dix.no_meld_when_exchanging and declaring.melds_this_trick:
                return RuleCode.NO_MELD_WITH_EXCHANGE, "no exchange on a trick where a meld was declared"
            return RuleCode.SEVEN_NOT_ALLOWED, "the turn-up is gone or is itself a seven: no exchange"
        return RuleCode.SEVEN_NOT_ALLOWED, "while an exchange is possible, declaring the seven exchanges it"

    # -- transitions --------------------------------------------------------

    def _pick_play(self, face: int, star: bool) -> int:
        """The physical card a play of (face, star) uses, or -1."""
        core = self.core
        p = core.player
        copies = core.hands[p] & self.setup.rules.deck.face_masks[face]
        copies &= core.tabled[p] if star else ~core.tabled[p]
        if not copies:
            return -1
        if star and copies & (copies - 1):
            # the copy in the most melds; of those, the one in the earlier melds (both public:
            # the choice never depends on how the copies are numbered); then the lowest id
            # (copies tied so far are alike). Behaviour version 2 (``copy_order="ids"``): the
            # lowest id after the count.
            by_melds = self.setup.rules.meld_rules.copy_order == "melds"

            def rank(pid: int) -> tuple[int, int]:
                melds = [
                    i for i, declared in enumerate(self.core.declaring.declarations) if (declared.cards >> pid) & 1
                ]
                return -len(melds), sum(1 << i for i in melds) if by_melds else 0

            return min(card_ids(copies), key=rank)
        return lowest_bit(copies)

    def _apply_id(self, action_id: int) -> Self:
        t: StockTables = self.setup.tables
        meaning = t.index.meanings[action_id]
        kind = meaning.kind  # compared by identity: each kind is one enum member
        if kind is _PLAY:
            return self._play(meaning.number, meaning.from_table, action_id)
        moves = self.core.moves + ((self.core.player, action_id),)
        if kind is _PASS:  # the declare phase ends: everyone draws, then the winner leads
            return _after_draw(type(self), self.setup, self.core, moves)
        if kind is _PASS_TO_PARTNER:
            return self._evolve(self.core._replace(player=_partner(t, self.core.player), moves=moves))
        if kind is _MELD:
            return self._meld(meaning.number, meaning.key, moves)
        if kind is _CARTE_BLANCHE:
            return self._carte(moves)
        if kind is _GUESS:
            return self._guess(meaning.number, moves)
        return self._seven(kind is _EXCHANGE, meaning.number, moves)

    def _play(self, face: int, from_table: bool, action_id: int) -> Self:
        """A card of ``face`` played: from the hand a copy everyone has seen (a taken turn-up, a
        declared seven) first, else the lowest copy; from the table (``*``) the copy
        `_pick_play` picks."""
        setup = self.setup
        t: StockTables = setup.tables
        (
            stage, p, leader, hands, trick, won, moves, tabled, known, points, trump, stock, turn_up, last_trick,
            last_leader, tricks, declaring, carte,
        ) = self.core  # the record read in field order, one name per field (built back so below)  # fmt: skip
        if from_table:
            pid = self._pick_play(face, True)
        else:  # a known copy first: what the others know then shrinks the same whatever is concealed
            copies = hands[p] & t.index.face_masks[face] & ~tabled[p]
            pid = lowest_bit(copies & known[p] or copies)
        n = t.trick.players
        bit = 1 << pid
        if n == 2:
            hands = (hands[0] ^ bit, hands[1]) if p == 0 else (hands[0], hands[1] ^ bit)
        else:
            hands = (*hands[:p], hands[p] ^ bit, *hands[p + 1 :])
        if tabled[p] & bit:
            tabled = (*tabled[:p], tabled[p] ^ bit, *tabled[p + 1 :])
            if declaring.pending:
                declaring = _drop_pending(declaring, bit)
        if known[p] & bit:
            known = (*known[:p], known[p] ^ bit, *known[p + 1 :])
        d = t.declaring
        if (
            bit & d.dix_masks[trump]
            and d.score_on_play
            and (stage is _ST_PLAY or d.score_on_play_in_playoff)
            and not declaring.scored & bit
        ):
            declaring = declaring._replace(scored=declaring.scored | bit)
            points = with_item(points, p, points[p] + ScoreBreakdown(seven=d.dix_points))
        moves += ((p, action_id),)
        if carte.may_show >> p & 1:
            carte = carte._replace(may_show=carte.may_show & ~(1 << p))
        cls = type(self)
        if len(trick) + 1 < n:
            return cls._make(
                setup,
                in_field_order(StockCore, (
                    stage, (p + 1) % n, leader, hands, (*trick, pid), won, moves, tabled, known, points, trump,
                    stock, turn_up, last_trick, last_leader, tricks, declaring, carte,
                )),
            )  # fmt: skip
        # the trick is complete
        if n == 2:
            first = trick[0]
            trick = (first, pid)
            power, suits, trumps = t.trick.winners[trump]
            if power[pid] > power[first] and (suits[pid] == suits[first] or (trumps >> pid) & 1):
                winner = p
            else:
                winner = leader
            won_mask = (1 << first) | bit
            won = (won[0] | won_mask, won[1]) if winner == 0 else (won[0], won[1] | won_mask)
        else:
            trick = (*trick, pid)
            winner = (leader + t.trick.trumps[trump].winner(trick)) % n
            won_mask = 0
            for c in trick:
                won_mask |= 1 << c
            won = (*won[:winner], won[winner] | won_mask, *won[winner + 1 :])
        sc = t.scoring
        if sc.immediate:
            points = with_item(
                points, winner, points[winner] + ScoreBreakdown(cards=_mask_points(sc.value_bytes, won_mask))
            )
        last_trick, last_leader, tricks = trick, leader, tricks + 1
        if stage is _ST_PLAYOFF:
            if hands[winner]:
                return cls._make(
                    setup,
                    in_field_order(StockCore, (
                        stage, winner, winner, hands, (), won, moves, tabled, known, points, trump, stock, turn_up,
                        last_trick, last_leader, tricks, declaring, carte,
                    )),
                )  # fmt: skip
            if sc.last_at_final:
                points = with_item(points, winner, points[winner] + ScoreBreakdown(last_trick=sc.last_bonus))
            if sc.sweep_bonus and _swept(moves, n, setup.rules.deal.hand_size, winner):
                points = with_item(points, winner, points[winner] + ScoreBreakdown(bonus=sc.sweep_bonus))
            if sc.result is not None:
                points = _deal_result(sc.result, sc.value_bytes, points, won)
            elif not sc.immediate:
                points = _cards_counted(setup.rules, sc, points, won)
            over = StockCore(
                stage=_ST_OVER, player=-1, leader=winner, hands=hands, trick=(), won=won, moves=moves, tabled=tabled,
                known=known, points=points, trump=trump, stock=stock, turn_up=turn_up, last_trick=last_trick,
                last_leader=last_leader, tricks=tricks, declaring=declaring, carte=carte,
            )  # fmt: skip
            return cls._make(setup, over, ())
        last_stock = len(stock) + (1 if turn_up >= 0 else 0) <= n
        if last_stock and not sc.last_at_final:
            points = with_item(points, winner, points[winner] + ScoreBreakdown(last_trick=sc.last_bonus))
        # The winner always gets the declaration decision while declaring is allowed (a
        # ``pass`` when he has nothing): whether he could declare stays hidden (issue 12).
        stage = _ST_DECLARE if not last_stock or sc.declare_on_last else _ST_PLAY
        core = in_field_order(StockCore, (
            stage, winner, winner, hands, (), won, moves, tabled, known, points, trump, stock, turn_up, last_trick,
            last_leader, tricks, declaring, carte,
        ))  # fmt: skip
        if stage is _ST_DECLARE:
            # his actions, found now (the search runs once, here; often only ``pass``) and kept
            # as the deal's legal actions, as `legal_action_ids` would keep them
            ids = _declaring(setup.rules, t, core, winner)
            return cls._make(setup, core, (ids[0],) if len(ids) == 1 else tuple(sorted(ids)))
        return _after_draw(cls, setup, core, moves)

    def _declared(self, core: StockCore) -> Self:
        """After a declaration: the winner stays (and passes when done) while the rules leave
        anything to declare on this trick, whatever his hand; else everyone draws."""
        setup = self.setup
        t: StockTables = setup.tables
        if _more_may_be_declared(setup.rules, t, core):
            ids = _declaring(setup.rules, t, core, core.player)
            return self._make(setup, core, (ids[0],) if len(ids) == 1 else tuple(sorted(ids)))
        return _after_draw(type(self), setup, core, core.moves)

    def _meld(self, kind_index: int, key: MeldKey, moves: tuple[Move, ...]) -> Self:
        rules = self.setup.rules
        core = self.core
        declaring = core.declaring
        p, points = core.player, core.points
        kind = rules.melds.kinds[kind_index]
        t: StockTables = self.setup.tables
        # with pending declarations past the trick's limit, its cards are laid out, pending
        scores = meld_scores(t.declaring, declaring)
        record = _pending_match(rules, declaring.pending, p, kind_index, key) if declaring.pending and scores else None
        if record is not None:  # a pending meld scores as this trick's meld
            return self._declared(
                core._replace(
                    points=with_item(points, p, points[p] + ScoreBreakdown(melds=kind.points)),
                    moves=moves,
                    declaring=declaring._replace(
                        pending=tuple(other for other in declaring.pending if other != record),
                        melds_this_trick=declaring.melds_this_trick + 1,
                    ),
                )
            )
        forbidden = meld_forbidden(rules.stock.dix, declaring)
        hand, table, history = _meld_cards(t, core.hands, core.tabled, declaring.declarations, p, kind_index)
        trump = core.trump
        mask, _why = rules.meld_search[trump].choose(kind_index, key, hand, table, history, forbidden)
        concealed = core.hands[p] & ~core.tabled[p]
        mask = _known_copies_first(rules.deck, mask, concealed & ~core.known[p], concealed & core.known[p] & ~forbidden)
        own = mask & core.hands[p]  # the partner's tabled cards it uses stay his (`DeclarationPrivilege`)
        if trump < 0 and kind.fixes_trump:
            suit = rules.deck.faces[key[0][0]].suit
            assert suit is not None  # marriages and sequences are suited
            trump = suit.value
        declared = Declared(player=p, kind=kind_index, cards=mask)
        return self._declared(
            core._replace(
                tabled=with_item(core.tabled, p, core.tabled[p] | own),
                known=with_item(core.known, p, core.known[p] | own),
                trump=trump,
                points=with_item(points, p, points[p] + ScoreBreakdown(melds=kind.points)) if scores else points,
                moves=moves,
                declaring=declaring._replace(
                    declarations=(*declaring.declarations, declared),
                    pending=declaring.pending if scores else (*declaring.pending, declared),
                    melds_this_trick=declaring.melds_this_trick + 1 if scores else declaring.melds_this_trick,
                ),
            )
        )

    def _seven(self, exchange: bool, face: int, moves: tuple[Move, ...]) -> Self:
        rules = self.setup.rules
        dix = rules.stock.dix
        assert dix is not None  # only offered when the rule set has a dix rule
        core = self.core
        declaring = core.declaring
        p, hands, known, turn_up, exchanged = core.player, core.hands, core.known, core.turn_up, declaring.exchanged
        held = hands[p] & rules.deck.face_masks[face] & ~declaring.scored
        pid = lowest_bit(held & known[p] or held)  # a known copy first (see `_play`)
        low = 1 << pid
        if exchange:
            old = turn_up
            hands = with_item(hands, p, (hands[p] ^ low) | (1 << old))
            known = with_item(known, p, (known[p] & ~low) | (1 << old))
            turn_up = pid
            exchanged = old
        else:
            known = with_item(known, p, known[p] | low)
        points = with_item(core.points, p, core.points[p] + ScoreBreakdown(seven=dix.points))
        if core.stage is not _ST_DECLARE:  # seed 000 method 2: declared on his turn to play; he plays next
            return self._evolve(
                core._replace(
                    known=known, points=points, moves=moves, declaring=declaring._replace(scored=declaring.scored | low)
                )
            )
        return self._declared(
            core._replace(
                hands=hands, known=known, turn_up=turn_up, points=points, moves=moves,
                declaring=declaring._replace(scored=declaring.scored | low, seven_done=True, exchanged=exchanged),
            )
        )  # fmt: skip

    def _carte(self, moves: tuple[Move, ...]) -> Self:
        core = self.core
        p = core.player
        points = core.points
        carte = core.carte
        streak = (1 << p) if self.setup.tables.declaring.carte_repeat else 0
        return self._evolve(
            core._replace(
                points=with_item(points, p, points[p] + ScoreBreakdown(melds=self.setup.rules.stock.carte_blanche)),
                known=with_item(core.known, p, core.known[p] | core.hands[p]),
                carte=CarteBlanche(may_show=carte.may_show & ~(1 << p), streak=carte.streak | streak),
                moves=moves,
            )
        )

    def _guess(self, size: int, moves: tuple[Move, ...]) -> Self:
        """The non-dealer's guess of the cut; the cut is then shown and both bonuses score."""
        cut = self.setup.rules.stock.cut_guess
        assert cut is not None  # only offered in games with the cut
        points = self.core.points
        player = self.core.player
        packet = self.setup.packet
        if size == packet:
            points = with_item(points, player, points[player] + ScoreBreakdown(bonus=cut.guess_bonus))
        if packet == cut.exact:
            dealer = self.setup.dealer
            points = with_item(points, dealer, points[dealer] + ScoreBreakdown(bonus=cut.exact_bonus))
        return self._evolve(self.core._replace(stage=Phase.PLAY, points=points, moves=moves))

    def _evolve(self, core: StockCore) -> Self:
        """This deal with the core ``core`` (a rarer transition's ``_replace``)."""
        return self._make(self.setup, core)

    # -- knowledge ---------------------------------------------------------

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know: own hand, every public card, nothing hidden."""
        rules = self.rules
        n = rules.players
        check_seat(player, n)  # a real int seat (not a bool): DealError / DealTypeError
        deck = rules.deck
        cards = deck.cards
        kinds = rules.melds.kinds
        return PlayerView(
            player=player,
            phase=self.stage,
            current_player=self.current_player,
            dealer=self.dealer,
            hand=CardSet(deck.cards_of(self.hands[player])),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            tabled=tuple(CardSet(deck.cards_of(t)) for t in self.tabled),
            known=tuple(CardSet(deck.cards_of(k)) for k in self.known),
            trick=tuple(cards[c] for c in self.trick),
            trick_leader=self.leader,
            last_trick=tuple(cards[c] for c in self.last_trick),
            last_trick_leader=self.last_leader,
            trump=self.trump_suit,
            turn_up=None if self.turn_up < 0 else cards[self.turn_up],
            stock_size=len(self.stock),
            scores=self.scores,
            melds=tuple(
                TableMeld(p, kinds[k].name, CardSet(deck.cards_of(mk)), kinds[k].points)
                for p, k, mk in self.declarations
                if not self.core.declaring.pending or (p, k, mk) not in self.core.declaring.pending
            ),
            pending=tuple(
                TableMeld(p, kinds[k].name, CardSet(deck.cards_of(mk)), kinds[k].points)
                for p, k, mk in self.core.declaring.pending
            ),
            won=tuple(CardSet(deck.cards_of(w)) for w in self.won),
            history=self.history,
            cut=None if self.setup.packet < 0 or self.stage is Phase.GUESS else self.setup.packet,
            rules=rules,
            legal=self.legal_actions() if self.current_player == player else (),
        )

    def _tabled_ids(self, player: int) -> int:
        return self.tabled[player]

    def _public_ids(self) -> int:
        out = super()._public_ids() | (1 << self.turn_up if self.turn_up >= 0 else 0)
        for k in self.known:
            out |= k
        for t in self.tabled:
            out |= t
        return out

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """A world ``player`` cannot tell from this deal: the cards he cannot see (the other
        players' concealed cards that nobody has seen, and the face-down stock) dealt again
        among their places, and the history made again on the deck that gives.

        What it samples: uniformly among the arrangements of those cards that the history
        allows. In the stock phase the play is free and a hidden card shows nothing, so every
        arrangement is consistent (a plain shuffle). The play-off's duties show voids: a
        player who did not follow (or did not trump, or did not beat) holds none of what the
        duty would have made him play, and with three or four players those cards may be
        dealt only to the others (`_ruled_out`; rejection sampling, uniform, then
        `knowledge.deal_hidden` when shuffles keep failing). Whatever else the history shows
        is in the ``known`` cards, which stay where they are: melds, a taken turn-up or a
        declared seven, a carte blanche (its whole hand). Carte blanche flags follow from the
        world's own hands.

        On a deck with several copies of a card, which copy lies where is not part of what
        anyone sees nor of a record: the world is the replay of its history on its deck
        (`knowledge.replayed`), so that ``replay(record_of(world)) == world``. Six-pack's cut:
        before the guess the world takes the cut its own deck gives; after it, the shown cut.
        """
        c = self.core
        n = self.setup.rules.players
        owners = [q for q in range(n) if q != player]
        places = [card_ids(c.hands[q] & ~c.known[q]) for q in owners]
        places.append(list(c.stock))
        ruled_out = self._ruled_out()
        slots = [(len(cards), ruled_out[q]) for q, cards in zip(owners, places)]
        slots.append((len(c.stock), 0))
        dealt = sample_hidden([x for cards in places for x in cards], slots, rng)
        if dealt is None:  # the deal itself does not fit its own voids: cannot happen for a legal deal
            dealt = swap_walk(places, [forbid for _, forbid in slots], lambda _: True, rng, 50 * len(places))
        perm: dict[int, int] = {}
        for old, new in zip(places, dealt):
            perm.update(zip(old, new))
        rules = self.setup.rules
        if rules.deck.packs > 1:
            return replayed(self, relabel_seq(self.setup.deck_order, perm))
        state = self._relabel(perm)
        if self.setup.tables.index.carte_id >= 0:
            state = state._evolve(state.core._replace(carte=state._carte_bits(player)))
        return state

    def _ruled_out(self) -> tuple[int, ...]:
        """Per player: the cards the play-off's duties show he does not hold (he did not
        play them when the duty would have made him: `TrickPolicy.excluded`). Only the
        play-off counts (nobody draws after it); with two players nothing is hidden in it
        but the one opponent's hand, so only three- and four-hand games ask."""
        c = self.core
        t: StockTables = self.setup.tables
        tt = t.trick
        n = tt.players
        none = (0,) * n
        if n == 2 or c.stage is not _ST_PLAYOFF or tt.playoff_free:
            return none
        held = sum(h.bit_count() for h in c.hands)
        count = n * self.setup.rules.deal.hand_size - held  # cards played in the play-off so far
        if count <= 0:
            return none
        meanings = t.index.meanings
        plays = [(who, meanings[a].number) for who, a in c.moves if meanings[a].kind is _PLAY][-count:]
        table = tt.trumps[c.trump]
        policy = tt.playoff_policy
        out = [0] * n
        trick: list[int] = []
        seats: list[int] = []
        for who, face in plays:  # the copy 0 of a face stands for it: the duties read faces only
            if trick:
                partner = False
                if tt.partner_duty and len(trick) >= 2:
                    partner = seats[table.winner(tuple(trick))] == (who + n // 2) % n
                out[who] |= policy.excluded(table, tuple(trick), face, partner)
            trick.append(face)
            seats.append(who)
            if len(trick) == n:
                trick, seats = [], []
        return tuple(out)

    def _with_cut_packet(self, packet: int) -> Self:
        return type(self)(attrs.evolve(self.setup, packet=packet), self.core)

    def _carte_bits(self, viewer: int) -> CarteBlanche:
        """The carte-blanche flags after the other players' hidden cards were dealt again: a
        player may show one when he could have (he has not played since the deal, or since a
        draw during a streak of carte blanches) and his hand as dealt now has no court card."""
        n = self.setup.rules.players
        t: StockTables = self.setup.tables
        meanings = t.index.meanings
        shown = self.core.carte.may_show
        in_trick = {(self.leader + i) % n for i in range(len(self.trick))}
        played = {who for who, action_id in self.moves if meanings[action_id].kind == _PLAY}
        for q in range(n):
            if q == viewer:
                continue
            could = q not in in_trick and (q not in played or (self.core.carte.streak >> q) & 1)
            if could and self.stage is Phase.PLAY and not self.hands[q] & t.declaring.court_mask:
                shown |= 1 << q
            else:
                shown &= ~(1 << q)
        return self.core.carte._replace(may_show=shown)

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with its physical cards renamed by ``perm`` (a permutation of physical ids;
        ids it leaves out stay), everywhere a card is named: the deck as dealt, the hands,
        tabled and known cards, the stock and turn-up, the tricks, the cards won, the melds
        declared (and pending), the scored sevens and the card just exchanged. The moves name
        faces, not copies, so they stay. The seed goes (the deck is no longer the seed's)."""
        setup = self.setup
        c = self.core
        d = c.declaring

        def melds(rows: tuple[Declared, ...]) -> tuple[Declared, ...]:
            return tuple(Declared(d.player, d.kind, relabel_mask(d.cards, perm)) for d in rows)

        declaring = d._replace(
            declarations=melds(d.declarations), pending=melds(d.pending), scored=relabel_mask(d.scored, perm),
            exchanged=perm.get(d.exchanged, d.exchanged),
        )  # fmt: skip
        core = c._replace(
            hands=relabel_masks(c.hands, perm), tabled=relabel_masks(c.tabled, perm),
            known=relabel_masks(c.known, perm), stock=relabel_seq(c.stock, perm),
            turn_up=perm.get(c.turn_up, c.turn_up), trick=relabel_seq(c.trick, perm),
            last_trick=relabel_seq(c.last_trick, perm), won=relabel_masks(c.won, perm), declaring=declaring,
        )  # fmt: skip
        order = relabel_seq(setup.deck_order, perm)
        return type(self)(DealSetup(setup.rules, order, None, setup.dealer, setup.tables, setup.packet), core)


ENGINE = StockEngine()
"""The stock engine, as the registry finds it."""
