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
the same order (``tuple.__new__``: a `NamedTuple` called with more than 15 keywords is called
through a dict, and a card played would cost about a fifth more; docs/explanation/engines.md).
The sub-records hold what those transitions only pass on. The next deal is built by
`DealState._make`.

What may be declared is stated once, in the declaration predicates (`may_meld`,
`meld_scores`, `may_score_pending`, `may_exchange`, `seven_open`, `meld_forbidden`), read by
the legal ids, the refusals and the transitions alike.

What the readable shape costs is measured against 0.1.0 by `benchmarks/versus_0_1_0.py`
(docs/explanation/engines.md, "What the readable shape costs").
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple, TypeVar, cast

import attrs
from typing_extensions import Self

from ..actions import Action, ActionKind, ActionSpace, ActionTable, Verb
from ..bits import bit_ids, fold_copies, lowest_bit
from ..cards import Card, CardSet, Suit
from ..checks import check_seat
from ..deck import DeckSpec, card_ids
from ..errors import RuleCode
from ..knowledge import replayed, sample_hidden, swap_walk
from ..melds import DixRule, Finder, choose_copies, declaration_finder, meld_copies
from ..rules.ruleset import CutGuess, RuleSet
from ..scoring import DealResultRule, ScoreBreakdown
from ..state import DealSetup, DealState, Move, Phase, PlayerView, TableMeld, relabel_mask, relabel_seq
from ..tricks import PlayDuty, TrickPolicy
from ..trumps import NO_TRUMP, TrumpTable

__all__ = [
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

# module aliases of the action kinds (read on the hot paths)
_PLAY = ActionKind.PLAY
_MELD = ActionKind.MELD
_EXCHANGE = ActionKind.EXCHANGE
_DECLARE = ActionKind.DECLARE
_PASS = ActionKind.PASS
_CARTE = ActionKind.CARTE_BLANCHE
_GUESS = ActionKind.GUESS
_TO_PARTNER = ActionKind.PASS_TO_PARTNER

# phases as module constants (faster than enum attribute lookups in the hot paths)
_ST_PLAY = Phase.PLAY
_ST_DECLARE = Phase.DECLARE
_ST_PLAYOFF = Phase.PLAYOFF
_ST_OVER = Phase.OVER
_ST_GUESS = Phase.GUESS

_T = TypeVar("_T")

MeldKey = tuple[tuple[int, bool], ...]
"""A meld action's cards: (face, from the table) pairs, sorted."""


class Declared(NamedTuple):
    """One meld declared in the deal."""

    player: int
    """Who declared it."""
    kind: int
    """Its meld kind's index in the rule set's meld table."""
    cards: int
    """The mask of its physical cards."""


@attrs.frozen
class ActionMeaning:
    """What one action id of the stock engine does."""

    kind: ActionKind
    """The action's kind."""
    number: int = -1
    """The face played, exchanged or declared; the meld kind index; the cut size guessed
    (-1: none)."""
    from_table: bool = False
    """A play of the copy lying on the table (``*``)."""
    key: MeldKey = ()
    """A meld's cards, as (face, from the table) pairs, sorted."""


@attrs.frozen
class ActionIndex:
    """The numbered actions by meaning, and how to read the plays of a hand."""

    meanings: tuple[ActionMeaning, ...]
    """Per action id: what it does."""
    play_hand: tuple[int, ...]
    """Per physical id: the id of playing it from the concealed hand."""
    play_table: tuple[int, ...]
    """Per physical id: the id of playing it from the table (``*``)."""
    hand_id_bytes: tuple[tuple[tuple[int, ...], ...], ...]
    """``[k][byte]``: the ids of playing from the hand the faces ``8k ..`` set in ``byte``."""
    meld_ids: Mapping[tuple[int, MeldKey], int]
    """Per (meld kind index, cards): ``meld <kind> <cards>`` (read-only)."""
    exchange_ids: tuple[int, ...]
    """Per face: ``exchange <card>`` (-1 when not a dix face or no exchange)."""
    declare_ids: tuple[int, ...]
    """Per face: ``declare <card>`` (-1 when not a dix face)."""
    pass_id: int
    """``pass``."""
    carte_id: int
    """``meld carte-blanche``, or -1."""
    to_partner_id: int
    """``pass partner`` (`DeclarationPrivilege`), or -1."""
    guess_ids: tuple[int, ...]
    """The ids of ``guess <size>``, ascending (six-pack's cut)."""
    face_masks: tuple[int, ...]
    """Per face: the mask of its physical copies."""
    num_faces: int
    """The deck's faces."""
    all_faces: int
    """The mask of every face."""
    packs: int
    """The deck's copies of each face."""


class WinnerTable(NamedTuple):
    """A two-player trick's winner at a glance, for one trump (`TrumpTable`'s own data)."""

    power: tuple[int, ...]
    """Per physical id: its power."""
    suit: tuple[int, ...]
    """Per physical id: its suit index."""
    trumps: int
    """The mask of the trumps."""


@attrs.frozen
class TrickTables:
    """Who plays, what may be played and who wins."""

    players: int
    """The players."""
    trumps: tuple[TrumpTable, ...]
    """By trump index (-1 = no trump): the trump table."""
    winners: tuple[WinnerTable, ...]
    """By trump index: the same as `WinnerTable`."""
    stock_policy: TrickPolicy
    """What may be played while the stock lasts."""
    playoff_policy: TrickPolicy
    """What may be played in the play-off."""
    stock_free: bool
    """Any card may be played while the stock lasts."""
    playoff_free: bool
    """Any card may be played in the play-off."""
    partner_duty: bool
    """The play-off duty spares a partner's winning card (partnership games)."""


@attrs.frozen
class DeclarationTables:
    """What may be declared after a trick (melds, the dix, carte blanche)."""

    finders: tuple[Finder, ...]
    """By trump index (-1 = no trump): the declaration search."""
    meldable: int
    """The cards in some meld or dix action (a hand without them declares nothing)."""
    court_mask: int
    """The court cards (a carte blanche is a hand without them)."""
    carte_repeat: bool
    """A carte blanche may be shown again after drawing a card that is not a court card."""
    dix_faces: tuple[int, ...]
    """Per suit index: the face of the dix rank (-1: none)."""
    dix_masks: tuple[int, ...]
    """By trump index: the physical dix cards (0 without trumps)."""
    dix_points: int
    """What the dix scores."""
    score_on_play: bool
    """The dix scores when played."""
    score_on_play_in_playoff: bool
    """It scores when played in the play-off too."""
    dix_any_time: bool
    """The dix may be declared on one's turn to play (a second method some rules give)."""
    meld_limit: int
    """Melds per trick won (0: no limit)."""
    pending: bool
    """`StockRules.pending_declarations` with a meld limit."""
    with_partner: bool
    """A declarer's melds may use his partner's tabled cards (`DeclarationPrivilege`)."""
    own_only: frozenset[int]
    """The meld kinds made of one's own cards only."""


@attrs.frozen
class ScoringTables:
    """What cards and tricks score."""

    card_values: tuple[int, ...]
    """Per physical id: its card points."""
    value_bytes: tuple[tuple[int, ...], ...]
    """``[k][byte]``: the card points of the ids ``8k ..`` set in ``byte``."""
    immediate: bool
    """Card points count as tricks are won."""
    last_bonus: int
    """The last-trick bonus."""
    last_at_final: bool
    """The last-trick bonus goes to the deal's last trick (else the last stock trick)."""
    declare_on_last: bool
    """The winner of the last stock trick may declare."""
    show_last: bool
    """The last face-down card of the stock is shown when drawn."""
    last_card_bonus: int
    """For drawing the last card of the stock (0: none)."""
    sweep_bonus: int
    """For winning every play-off trick (0: none)."""
    result: DealResultRule | None
    """The deal-result rule (`RubiconScoring`), or None."""


@attrs.frozen
class StockTables:
    """The stock engine's compiled tables for one rule set (held by `RuleSet.tables`)."""

    actions: ActionSpace
    """The numbered actions."""
    action_table: ActionTable
    """What each id does, column by column (read by the agents and the batch engine)."""
    index: ActionIndex
    """What each action does, and the ids by meaning."""
    trick: TrickTables
    """The trick tables."""
    declaring: DeclarationTables
    """The declaration tables."""
    scoring: ScoringTables
    """The scoring tables."""


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
                seven = dix.points if dix.turned_up_points is None else dix.turned_up_points
                points = _set(points, dealer, points[dealer] + ScoreBreakdown(seven=seven))
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


def _meld_keys(inst: tuple[int, ...]) -> list[MeldKey]:
    """Every way to name the cards of a meld instance: each copy from the hand or the table."""
    counts: dict[int, int] = {}
    for f in inst:
        counts[f] = counts.get(f, 0) + 1
    keys: list[MeldKey] = [()]
    for f, m in sorted(counts.items()):
        keys = [k + ((f, False),) * (m - t) + ((f, True),) * t for k in keys for t in range(m + 1)]
    return [tuple(sorted(key)) for key in keys]


def _build_tables(rules: RuleSet) -> StockTables:
    deck = rules.deck
    faces = deck.faces
    actions: list[Action] = []
    meanings: list[ActionMeaning] = []

    def add(action: Action, meaning: ActionMeaning) -> int:
        actions.append(action)
        meanings.append(meaning)
        return len(actions) - 1

    play_ids = [
        add(Action.make(Verb.PLAY, [card], [star]), ActionMeaning(_PLAY, number=f, from_table=star))
        for f, card in enumerate(faces)
        for star in (False, True)
    ]
    meld_ids: dict[tuple[int, MeldKey], int] = {}
    kinds = rules.melds.kinds
    for kind_index, inst in rules.melds.all_instances(deck):
        for key in _meld_keys(inst):
            action = Action.make(
                Verb.MELD, [faces[f] for f, _ in key], [s for _, s in key], meld=kinds[kind_index].name
            )
            meld_ids[(kind_index, key)] = add(action, ActionMeaning(_MELD, number=kind_index, key=key))
    exchange_ids = [-1] * len(faces)
    declare_ids = [-1] * len(faces)
    dix_faces = [-1] * 4
    dix = rules.stock.dix
    if dix is not None:
        for s in Suit:
            card = Card(s, dix.rank)
            if card in deck.face_index:
                dix_faces[s.value] = deck.face(card)
        for f in dix_faces:
            if f < 0:
                continue
            if dix.methods != "score_only" and rules.deal.turn_up:
                exchange_ids[f] = add(Action.make(Verb.EXCHANGE, [faces[f]]), ActionMeaning(_EXCHANGE, number=f))
            declare_ids[f] = add(Action.make(Verb.DECLARE, [faces[f]]), ActionMeaning(_DECLARE, number=f))
    carte_id = -1
    if rules.stock.carte_blanche:
        carte_id = add(Action.make(Verb.MELD, meld="carte-blanche"), ActionMeaning(_CARTE))
    guess_ids: list[int] = []
    cut = rules.stock.cut_guess
    if cut is not None:
        for size in range(cut.smallest, cut.largest + 1):
            guess_ids.append(add(Action(Verb.GUESS, number=size), ActionMeaning(_GUESS, number=size)))
    privilege = rules.stock.privilege
    to_partner_id = -1
    if privilege.holder == "winner_or_partner":
        to_partner_id = add(Action(Verb.PASS, to_partner=True), ActionMeaning(_TO_PARTNER))
    pass_id = add(Action(Verb.PASS), ActionMeaning(_PASS))
    meldable = 0
    for _k, inst in rules.melds.all_instances(deck):
        for f in inst:
            meldable |= deck.face_masks[f]
    for f in dix_faces:
        if f >= 0:
            meldable |= deck.face_masks[f]
    court = 0
    for pid, card in enumerate(deck.cards):
        if card.rank.is_court:
            court |= 1 << pid
    nf = deck.num_faces
    stock = rules.stock
    return StockTables(
        actions=ActionSpace.of(actions),
        action_table=_action_table(meanings),
        index=ActionIndex(
            meanings=tuple(meanings),
            play_hand=tuple(play_ids[f * 2] for f in deck.face_of),
            play_table=tuple(play_ids[f * 2 + 1] for f in deck.face_of),
            hand_id_bytes=tuple(
                tuple(
                    tuple(play_ids[(8 * k + j) * 2] for j in range(8) if b >> j & 1 and 8 * k + j < nf)
                    for b in range(256)
                )
                for k in range((nf + 7) // 8)
            ),
            meld_ids=MappingProxyType(meld_ids),
            exchange_ids=tuple(exchange_ids),
            declare_ids=tuple(declare_ids),
            pass_id=pass_id,
            carte_id=carte_id,
            to_partner_id=to_partner_id,
            guess_ids=tuple(guess_ids),
            face_masks=deck.face_masks,
            num_faces=nf,
            all_faces=(1 << nf) - 1,
            packs=deck.packs,
        ),
        trick=TrickTables(
            players=rules.players,
            trumps=rules.trump_tables,
            winners=tuple(WinnerTable(t.power, t.suit, t.trump_mask) for t in rules.trump_tables),
            stock_policy=rules.stock_policy,
            playoff_policy=rules.playoff_policy,
            stock_free=rules.stock_policy.duty is PlayDuty.FREE,
            playoff_free=rules.playoff_policy.duty is PlayDuty.FREE,
            partner_duty=rules.partnership and not rules.playoff_policy.must_beat_partner,
        ),
        declaring=DeclarationTables(
            finders=tuple(
                declaration_finder(deck, rules.melds, rules.meld_rules, search) for search in rules.meld_search
            ),
            meldable=meldable,
            court_mask=court,
            carte_repeat=stock.carte_blanche_repeat,
            dix_faces=tuple(dix_faces),
            dix_masks=tuple(deck.face_masks[f] if f >= 0 else 0 for f in dix_faces) + (0,),
            dix_points=dix.points if dix is not None else 0,
            score_on_play=dix is not None and dix.score_on_play,
            score_on_play_in_playoff=dix is not None and dix.score_on_play and dix.score_on_play_in_playoff,
            dix_any_time=dix is not None and dix.any_time,
            meld_limit=stock.melds_per_trick,
            pending=stock.pending_declarations and stock.melds_per_trick > 0,
            with_partner=privilege.cards == "with_partner_tabled",
            own_only=frozenset(i for i, k in enumerate(kinds) if k.name in privilege.own_cards_only),
        ),
        scoring=ScoringTables(
            card_values=rules.card_values,
            value_bytes=_byte_sums(rules.card_values),
            immediate=stock.card_timing == "immediate",
            last_bonus=rules.card_points.last_trick,
            last_at_final=stock.last_trick_bonus_at == "final",
            declare_on_last=stock.declare_on_last_stock_trick,
            show_last=stock.show_last_card,
            last_card_bonus=stock.bonuses.last_card,
            sweep_bonus=stock.bonuses.playoff_sweep,
            result=stock.result,
        ),
    )


def _action_table(meanings: list[ActionMeaning]) -> ActionTable:
    """The meanings as columns: a card action's face, a meld's kind, a guess's size."""
    carded = (_PLAY, _EXCHANGE, _DECLARE)
    return ActionTable.of(
        (m.kind for m in meanings),
        face=(m.number if m.kind in carded else -1 for m in meanings),
        from_table=(m.from_table for m in meanings),
        meld_kind=(m.number if m.kind is _MELD else -1 for m in meanings),
        number=(m.number if m.kind is _GUESS else -1 for m in meanings),
    )


# -- the declaration predicates: each rule of what may be declared, stated once ----------------


def meld_limit_reached(d: DeclarationTables, declaring: Declaring) -> bool:
    """Whether this trick's winner has declared as many melds as one trick won allows."""
    return d.meld_limit > 0 and declaring.melds_this_trick >= d.meld_limit


def exchange_blocks_melds(dix: DixRule | None, declaring: Declaring) -> bool:
    """Whether the trump seven was exchanged on this trick under the house rule that then
    allows no meld (`DixRule.no_meld_when_exchanging`)."""
    return declaring.exchanged >= 0 and dix is not None and dix.no_meld_when_exchanging


def may_meld(d: DeclarationTables, dix: DixRule | None, declaring: Declaring) -> bool:
    """Whether a meld may be declared now (to score, or past the limit to lie pending): not
    `meld_limit_reached` (unless pending declarations lay it out) nor `exchange_blocks_melds`
    (written out: read at every trick won)."""
    limit = d.meld_limit
    if limit and declaring.melds_this_trick >= limit and not d.pending:
        return False
    return declaring.exchanged < 0 or dix is None or not dix.no_meld_when_exchanging


def meld_scores(d: DeclarationTables, declaring: Declaring) -> bool:
    """Whether a meld declared now scores now (with pending declarations, a meld past the
    trick's limit lies pending instead)."""
    return not d.pending or declaring.melds_this_trick < d.meld_limit


def may_score_pending(d: DeclarationTables, dix: DixRule | None, declaring: Declaring) -> bool:
    """Whether a pending meld may be scored now (a meld of this trick's limit)."""
    return not meld_limit_reached(d, declaring) and not exchange_blocks_melds(dix, declaring)


def meld_forbidden(dix: DixRule | None, declaring: Declaring) -> int:
    """The card a meld may not use: the one taken in exchange for the seven on this trick,
    unless the rules allow it (`DixRule.exchange_card_usable_same_trick`); else 0."""
    if declaring.exchanged >= 0 and dix is not None and not dix.exchange_card_usable_same_trick:
        return 1 << declaring.exchanged
    return 0


def seven_open(declaring: Declaring) -> bool:
    """Whether a trump-seven action is still open on this trick (one per trick)."""
    return not declaring.seven_done


def may_exchange(rules: RuleSet, dix_face: int, turn_up: int, declaring: Declaring) -> bool:
    """Whether the trump seven / dix of face ``dix_face`` may be exchanged for the turn-up now:
    the rules have the exchange, the turn-up is there and is not itself the dix, and (under
    `DixRule.no_meld_when_exchanging`) no meld was declared on this trick."""
    dix = rules.stock.dix
    return (
        _can_exchange(rules, dix_face, turn_up)
        and dix is not None
        and not (dix.no_meld_when_exchanging and declaring.melds_this_trick)
    )


def _declare_ids(
    rules: RuleSet,
    t: StockTables,
    hand: int,
    tabled: int,
    history: tuple[tuple[int, int], ...],
    trump: int,
    declaring: Declaring,
    turn_up: int,
) -> list[int]:
    """The declare-phase actions open to a trick winner: always ``pass``, then melds and sevens."""
    d = t.declaring
    index = t.index
    ids = [index.pass_id]
    dix = rules.stock.dix
    if may_meld(d, dix, declaring) and hand & d.meldable:
        found = d.finders[trump](hand, tabled, history, meld_forbidden(dix, declaring))
        if found:
            meld_ids = index.meld_ids
            for k in found:
                ids.append(meld_ids[k])
    # an unscored trump seven / dix in hand (no dix rule, no trump or no dix face: an empty mask)
    if hand & d.dix_masks[trump] & ~declaring.scored and seven_open(declaring) and dix is not None:
        face = d.dix_faces[trump]
        if may_exchange(rules, face, turn_up, declaring):
            ids.append(index.exchange_ids[face])
        if dix.methods != "exchange_only" or not _can_exchange(rules, face, turn_up):
            ids.append(index.declare_ids[face])
    return ids


def _declaring(rules: RuleSet, t: StockTables, core: StockCore, p: int) -> list[int]:
    """The declare-phase actions of ``p`` (the winner, or the partner he passed to): with
    `DeclarationPrivilege` ``cards="with_partner_tabled"`` his melds may use his partner's
    tabled cards (under both players' declarations), except the own-cards-only kinds."""
    hands, tabled = core.hands, core.tabled
    declaring = core.declaring
    turn_up = core.turn_up
    d = t.declaring
    if not d.with_partner:
        ids = _declare_ids(rules, t, hands[p], tabled[p], _history(declaring.declarations, p), core.trump,
                           declaring, turn_up)  # fmt: skip
    else:
        q = _partner(t, p)
        history = _history(declaring.declarations, p) + _history(declaring.declarations, q)
        ids = _declare_ids(rules, t, hands[p] | tabled[q], tabled[p] | tabled[q], history, core.trump, declaring,
                           turn_up)  # fmt: skip
        if d.own_only:
            meanings = t.index.meanings
            own = _declare_ids(rules, t, hands[p], tabled[p], history, core.trump, declaring, turn_up)
            ids = [i for i in ids if meanings[i].kind != _MELD or meanings[i].number not in d.own_only]
            ids += [i for i in own if meanings[i].kind == _MELD and meanings[i].number in d.own_only]
    if t.index.to_partner_id >= 0 and not declaring.melds_this_trick and seven_open(declaring) and p == core.leader:
        ids.append(t.index.to_partner_id)
    if declaring.pending:
        ids += [i for i in _pending_ids(rules, t, core, p) if i not in ids]
    return ids


def _pending_ids(rules: RuleSet, t: StockTables, core: StockCore, p: int) -> list[int]:
    """The meld actions (every card ``*``) that score a pending meld of ``p``: open while he
    may still score a meld on this trick (`StockRules.pending_declarations`)."""
    if not may_score_pending(t.declaring, rules.stock.dix, core.declaring):
        return []
    face_of = rules.deck.face_of
    return [t.index.meld_ids[(k, tuple((f, True) for f in sorted(face_of[c] for c in card_ids(mask))))]
            for q, k, mask in core.declaring.pending if q == p]  # fmt: skip


def _pending_match(
    rules: RuleSet,
    pending: tuple[Declared, ...],
    p: int,
    kind_index: int,
    key: MeldKey,
) -> Declared | None:
    """The pending meld of ``p`` that the meld action (``kind_index``, ``key``) scores, or None."""
    if not all(star for _f, star in key):
        return None
    face_of = rules.deck.face_of
    faces = [f for f, _s in key]
    for record in pending:
        if (
            record.player == p
            and record.kind == kind_index
            and sorted(face_of[c] for c in card_ids(record.cards)) == faces
        ):
            return record
    return None


def _drop_pending(declaring: Declaring, cards: int) -> Declaring:
    """Cancel the pending melds using any of ``cards`` (played, or the table cleared for the
    play-off): they leave both ``pending`` and ``declarations``, never having scored."""
    gone = [record for record in declaring.pending if record.cards & cards]
    if not gone:
        return declaring
    return declaring._replace(
        pending=tuple(record for record in declaring.pending if record not in gone),
        declarations=tuple(record for record in declaring.declarations if record not in gone),
    )


def _meld_cards(
    t: StockTables,
    hands: tuple[int, ...],
    tabled: tuple[int, ...],
    declarations: tuple[Declared, ...],
    p: int,
    kind_index: int,
) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """The held cards, tabled cards and earlier declarations a meld of ``p`` is made under."""
    if not t.declaring.with_partner:
        return hands[p], tabled[p], _history(declarations, p)
    q = _partner(t, p)
    history = _history(declarations, p) + _history(declarations, q)
    if kind_index in t.declaring.own_only:
        return hands[p], tabled[p], history
    return hands[p] | tabled[q], tabled[p] | tabled[q], history


def _known_copies_first(deck: DeckSpec, mask: int, unseen: int, seen: int) -> int:
    """``mask`` (a meld's cards) using the copies in ``seen`` (held off the table, known to
    everyone: a taken turn-up, a declared seven) in place of copies in ``unseen`` (held
    concealed) of the same faces, so that what the others know of the hand after the meld
    does not depend on which copies were concealed."""
    spare = seen & ~mask
    if not spare:
        return mask
    for pid in card_ids(mask & unseen):
        same = spare & deck.face_masks[deck.face_of[pid]]
        if same:
            low = same & -same
            mask = (mask & ~(1 << pid)) | low
            spare &= ~low
    return mask


def _partner(t: StockTables, p: int) -> int:
    """The partner of ``p`` (partnership games: across the table)."""
    n = t.trick.players
    return (p + n // 2) % n


def _partner_winning(t: StockTables, core: StockCore) -> bool:
    """Whether the card winning the trick so far is the partner's of the player to play."""
    trick = core.trick
    if len(trick) < 2:
        return False
    n = t.trick.players
    return (core.leader + t.trick.trumps[core.trump].winner(trick)) % n == _partner(t, core.player)


def _more_may_be_declared(rules: RuleSet, t: StockTables, core: StockCore) -> bool:
    """Whether the rules (not the winner's hidden hand) leave a meld or a seven action open
    on this trick: the meld limit, the exchange house rule, one seven action per trick, and
    whether a trump seven / dix is still unscored (public)."""
    dix = rules.stock.dix
    declaring = core.declaring
    if may_meld(t.declaring, dix, declaring):
        return True
    if dix is None or not seven_open(declaring) or core.trump < 0:
        return False
    played = 0
    for w in core.won:
        played |= w
    return bool(t.declaring.dix_masks[core.trump] & ~declaring.scored & ~played)


def _can_exchange(rules: RuleSet, dix_face: int, turn_up: int) -> bool:
    dix = rules.stock.dix
    return dix is not None and dix.methods != "score_only" and turn_up >= 0 and rules.deck.face_of[turn_up] != dix_face


def _draws(
    n: int,
    winner: int,
    hands: tuple[int, ...],
    known: tuple[int, ...],
    stock: tuple[int, ...],
    turn_up: int,
    show_last: bool = False,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """The winner, then each other player in turn, draws one card; the turn-up is drawn last.

    With ``show_last`` the last face-down card is shown (it becomes known). (Two players
    drawing from a stock of more than two cards is `_after_draw`'s own quick case.)"""
    hl = list(hands)
    kl = known
    for i in range(n):
        q = (winner + i) % n
        if stock:
            hl[q] |= 1 << stock[0]
            if show_last and len(stock) == 1:
                kl = _set(kl, q, kl[q] | (1 << stock[0]))
            stock = stock[1:]
        elif turn_up >= 0:
            hl[q] |= 1 << turn_up
            kl = _set(kl, q, kl[q] | (1 << turn_up))
            turn_up = -1
    return tuple(hl), kl, stock, turn_up


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


_tuple_new = tuple.__new__  # the hot transitions build `StockCore` in field order (module docstring)


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
    fields below read it (physical ids and masks of ids); read the game in cards through
    `view`.
    """

    setup: DealSetup[StockTables]
    """The rules, deck order, seed and dealer."""
    core: StockCore
    """Everything that changes during the deal."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")

    @property
    def stage(self) -> Phase:
        """The phase (read it as `phase`)."""
        return self.core.stage

    @property
    def player(self) -> int:
        """Who is to act (-1 when over)."""
        return self.core.player

    @property
    def tabled(self) -> tuple[int, ...]:
        """Per player: the mask of cards lying face up in melds."""
        return self.core.tabled

    @property
    def known(self) -> tuple[int, ...]:
        """Per player: the mask of held cards everyone has seen."""
        return self.core.known

    @property
    def stock(self) -> tuple[int, ...]:
        """The face-down stock, top first."""
        return self.core.stock

    @property
    def turn_up(self) -> int:
        """The turn-up (drawn last), or -1."""
        return self.core.turn_up

    @property
    def trump(self) -> int:
        """The trump suit index, or -1."""
        return self.core.trump

    @property
    def leader(self) -> int:
        """Who led the current trick."""
        return self.core.leader

    @property
    def last_trick(self) -> tuple[int, ...]:
        """The previous trick's cards."""
        return self.core.last_trick

    @property
    def last_leader(self) -> int:
        """Who led the previous trick (-1 before the first)."""
        return self.core.last_leader

    @property
    def points(self) -> tuple[ScoreBreakdown, ...]:
        """Per player: the points by part (melds, seven, cards, last trick, bonus, contract)."""
        return self.core.points

    @property
    def declarations(self) -> tuple[Declared, ...]:
        """Every declared meld: (player, kind index, cards) (``core.declaring.declarations``)."""
        return self.core.declaring.declarations

    @property
    def pending(self) -> tuple[Declared, ...]:
        """The melds laid out but not yet scored, each also in `declarations`
        (``core.declaring.pending``)."""
        return self.core.declaring.pending

    @property
    def scored(self) -> int:
        """The mask of trump sevens / dix cards that have scored (``core.declaring.scored``)."""
        return self.core.declaring.scored

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
    def exchanged(self) -> int:
        """The card taken in exchange for the seven on this trick, or -1
        (``core.declaring.exchanged``)."""
        return self.core.declaring.exchanged

    @property
    def tricks(self) -> int:
        """Tricks completed."""
        return self.core.tricks

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
        if verb == _CARTE:
            return RuleCode.CARTE_BLANCHE_NOT_ALLOWED, (
                "a carte blanche is shown before your first card, from a hand without king, queen or jack "
                "(and, where repeats are allowed, again after drawing a card that is not a court card)"
            )
        if verb == _PASS:
            return RuleCode.WRONG_PHASE, "nothing to pass: play a card"
        if verb == _TO_PARTNER:
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
            mask, why = choose_copies(
                rules.deck, rules.melds, rules.meld_rules, a, b, core.hands[p], core.tabled[p], self._history_of(p)
            )
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
            # (copies tied so far are alike)
            def rank(pid: int) -> tuple[int, int]:
                melds = [
                    i for i, declared in enumerate(self.core.declaring.declarations) if (declared.cards >> pid) & 1
                ]
                return -len(melds), sum(1 << i for i in melds)

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
        if kind is _TO_PARTNER:
            return self._evolve(self.core._replace(player=_partner(t, self.core.player), moves=moves))
        if kind is _MELD:
            return self._meld(meaning.number, meaning.key, moves)
        if kind is _CARTE:
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
            points = _set(points, p, points[p] + ScoreBreakdown(seven=d.dix_points))
        moves += ((p, action_id),)
        if carte.may_show >> p & 1:
            carte = carte._replace(may_show=carte.may_show & ~(1 << p))
        cls = type(self)
        if len(trick) + 1 < n:
            return cls._make(
                setup,
                _tuple_new(StockCore, (  # StockCore in field order
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
            points = _set(points, winner, points[winner] + ScoreBreakdown(cards=_mask_points(sc.value_bytes, won_mask)))
        last_trick, last_leader, tricks = trick, leader, tricks + 1
        if stage is _ST_PLAYOFF:
            if hands[winner]:
                return cls._make(
                    setup,
                    _tuple_new(StockCore, (  # StockCore in field order
                        stage, winner, winner, hands, (), won, moves, tabled, known, points, trump, stock, turn_up,
                        last_trick, last_leader, tricks, declaring, carte,
                    )),
                )  # fmt: skip
            if sc.last_at_final:
                points = _set(points, winner, points[winner] + ScoreBreakdown(last_trick=sc.last_bonus))
            if sc.sweep_bonus and _swept(moves, n, setup.rules.deal.hand_size, winner):
                points = _set(points, winner, points[winner] + ScoreBreakdown(bonus=sc.sweep_bonus))
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
            points = _set(points, winner, points[winner] + ScoreBreakdown(last_trick=sc.last_bonus))
        # The winner always gets the declaration decision while declaring is allowed (a
        # ``pass`` when he has nothing): whether he could declare stays hidden (issue 12).
        stage = _ST_DECLARE if not last_stock or sc.declare_on_last else _ST_PLAY
        core = _tuple_new(StockCore, (  # StockCore in field order
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
                    points=_set(points, p, points[p] + ScoreBreakdown(melds=kind.points)),
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
        mask = meld_copies(
            rules.deck, rules.melds, rules.meld_rules, rules.meld_search[trump], kind_index, key, hand, table,
            history, forbidden,
        )  # fmt: skip
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
                tabled=_set(core.tabled, p, core.tabled[p] | own),
                known=_set(core.known, p, core.known[p] | own),
                trump=trump,
                points=_set(points, p, points[p] + ScoreBreakdown(melds=kind.points)) if scores else points,
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
            hands = _set(hands, p, (hands[p] ^ low) | (1 << old))
            known = _set(known, p, (known[p] & ~low) | (1 << old))
            turn_up = pid
            exchanged = old
        else:
            known = _set(known, p, known[p] | low)
        points = _set(core.points, p, core.points[p] + ScoreBreakdown(seven=dix.points))
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
                points=_set(points, p, points[p] + ScoreBreakdown(melds=self.setup.rules.stock.carte_blanche)),
                known=_set(core.known, p, core.known[p] | core.hands[p]),
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
            points = _set(points, player, points[player] + ScoreBreakdown(bonus=cut.guess_bonus))
        if packet == cut.exact:
            dealer = self.setup.dealer
            points = _set(points, dealer, points[dealer] + ScoreBreakdown(bonus=cut.exact_bonus))
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
            state=self,
        )

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

        def masks(row: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(relabel_mask(m, perm) for m in row)

        def melds(rows: tuple[Declared, ...]) -> tuple[Declared, ...]:
            return tuple(Declared(d.player, d.kind, relabel_mask(d.cards, perm)) for d in rows)

        declaring = d._replace(
            declarations=melds(d.declarations), pending=melds(d.pending), scored=relabel_mask(d.scored, perm),
            exchanged=perm.get(d.exchanged, d.exchanged),
        )  # fmt: skip
        core = c._replace(
            hands=masks(c.hands), tabled=masks(c.tabled), known=masks(c.known), stock=relabel_seq(c.stock, perm),
            turn_up=perm.get(c.turn_up, c.turn_up), trick=relabel_seq(c.trick, perm),
            last_trick=relabel_seq(c.last_trick, perm), won=masks(c.won), declaring=declaring,
        )  # fmt: skip
        order = relabel_seq(setup.deck_order, perm)
        return type(self)(DealSetup(setup.rules, order, None, setup.dealer, setup.tables, setup.packet), core)


def _history(declarations: tuple[Declared, ...], player: int) -> tuple[tuple[int, int], ...]:
    """The (kind index, cards) declarations of ``player`` (what the meld rules read)."""
    if not declarations:
        return ()
    return tuple([(kind, cards) for who, kind, cards in declarations if who == player])


def _after_draw(cls: type[_DealT], setup: DealSetup[StockTables], core: StockCore, moves: tuple[Move, ...]) -> _DealT:
    """The deal once the declare phase ends: everyone draws, then the winner (the leader) leads."""
    t = setup.tables
    (
        _stage, _player, p, hands, trick, won, _moves, tabled, known, points, trump, stock, turn_up, last_trick,
        last_leader, tricks, declaring, carte,
    ) = core  # the record read in field order, one name per field; ``p`` is the leader, the trick winner  # fmt: skip
    n = t.trick.players
    if carte.streak:
        carte = _carte_after_draw(t.declaring.court_mask, carte, n, p, stock)
    sc = t.scoring
    if sc.last_card_bonus:
        left = len(stock) + (turn_up >= 0)
        if 0 < left <= n:  # the last card goes to the left-th drawer from the winner
            q = (p + left - 1) % n
            points = _set(points, q, points[q] + ScoreBreakdown(bonus=sc.last_card_bonus))
    if n == 2 and (len(stock) > 2 or (len(stock) == 2 and not sc.show_last)):  # the usual draw
        if p == 0:
            hands = (hands[0] | 1 << stock[0], hands[1] | 1 << stock[1])
        else:
            hands = (hands[0] | 1 << stock[1], hands[1] | 1 << stock[0])
        stock = stock[2:]
    else:
        hands, known, stock, turn_up = _draws(n, p, hands, known, stock, turn_up, sc.show_last)
    if declaring.melds_this_trick or declaring.seven_done or declaring.exchanged >= 0:  # the trick's are over
        declaring = declaring._replace(melds_this_trick=0, seven_done=False, exchanged=-1)
    if stock or turn_up >= 0:
        stage = _ST_PLAY
    else:
        stage = _ST_PLAYOFF
        tabled = (0,) * n
        if declaring.pending:
            declaring = _drop_pending(declaring, -1)
    return cls._make(
        setup,
        _tuple_new(StockCore, (  # StockCore in field order
            stage, p, p, hands, trick, won, moves, tabled, known, points, trump, stock, turn_up, last_trick,
            last_leader, tricks, declaring, carte,
        )),
    )  # fmt: skip


def _swept(moves: tuple[Move, ...], n: int, playoff_tricks: int, winner: int) -> bool:
    """Whether ``winner`` of the last trick won every play-off trick: the play-off's moves are
    its last ``n * playoff_tricks`` plays, and each trick's winner leads the next."""
    plays = moves[len(moves) - n * playoff_tricks :]
    return all(plays[k * n][0] == winner for k in range(1, playoff_tricks))


def _carte_after_draw(
    court_mask: int, carte: CarteBlanche, n: int, winner: int, stock: tuple[int, ...]
) -> CarteBlanche:
    """Carte-blanche streaks after a draw: a court card ends a streak; any other card may be
    shown for another carte blanche."""
    may_show, streak = carte
    for i in range(min(n, len(stock))):
        q = (winner + i) % n
        if not (streak >> q) & 1:
            continue
        if (court_mask >> stock[i]) & 1:
            streak &= ~(1 << q)
        else:
            may_show |= 1 << q
    return CarteBlanche(may_show=may_show, streak=streak)


def _deal_result(
    rule: DealResultRule,
    value_bytes: tuple[tuple[int, ...], ...],
    points: tuple[ScoreBreakdown, ...],
    won: tuple[int, ...],
) -> tuple[ScoreBreakdown, ...]:
    """Settle a deal whose result is a game (multi-pack): brisques join only when the rule
    counts them; the contract part brings each total to the result."""
    brisques = (_mask_points(value_bytes, won[0]), _mask_points(value_bytes, won[1]))
    totals = (points[0].total, points[1].total)
    if rule.counts_brisques(totals, brisques):
        points = (points[0] + ScoreBreakdown(cards=brisques[0]), points[1] + ScoreBreakdown(cards=brisques[1]))
    result = rule.result(totals, brisques)
    return tuple(row + ScoreBreakdown(contract=result[q] - row.total) for q, row in enumerate(points))


def _cards_counted(
    rules: RuleSet, sc: ScoringTables, points: tuple[ScoreBreakdown, ...], won: tuple[int, ...]
) -> tuple[ScoreBreakdown, ...]:
    """The card points won in tricks added at the end of the deal (rounded as the rules say).

    (Its own function: a comprehension inside `StockDeal._play` would make the locals it
    reads closure cells on every card played.)"""
    rounded = rules.card_points.rounded
    return tuple(
        row + ScoreBreakdown(cards=rounded(_mask_points(sc.value_bytes, won[q]))) for q, row in enumerate(points)
    )


def _byte_sums(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per byte k of a mask of ids: the sum of ``values`` of the ids in each byte value."""
    out = []
    for k in range(0, len(values), 8):
        chunk = values[k : k + 8]
        sums = [0] * 256
        for b in range(1, 256):
            low = lowest_bit(b)
            sums[b] = sums[b & (b - 1)] + (chunk[low] if low < len(chunk) else 0)
        out.append(tuple(sums))
    return tuple(out)


def _mask_points(value_bytes: tuple[tuple[int, ...], ...], mask: int) -> int:
    """The card points of the cards in ``mask``, a byte of ids at a time."""
    total = 0
    for table in value_bytes:
        if not mask:
            break
        total += table[mask & 255]
        mask >>= 8
    return total


def _set(row: tuple[_T, ...], i: int, v: _T) -> tuple[_T, ...]:
    """``row`` with item ``i`` replaced by ``v`` (a per-player tuple)."""
    return row[:i] + (v,) + row[i + 1 :]


_DealT = TypeVar("_DealT", bound=StockDeal)


ENGINE = StockEngine()
"""The stock engine, as the registry finds it."""
