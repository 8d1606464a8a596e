"""The stock-game engine: trick, declare, draw; then the play-off (reference.md §1.3).

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

The state record `StockCore` (a deal is `DealSetup` + `StockCore`), field by field:

- ``stage``: the phase; ``player``: who acts (-1 when over);
- ``hands``, ``tabled``, ``known``: per player, masks of physical card ids: every
  card held, the held cards lying face up in melds, the held cards everyone has seen;
- ``stock``: the face-down stock, top first; ``turn_up``: the turn-up (drawn last) or -1;
  ``trump``: the trump suit index, or -1 before a multi-pack marriage fixes it;
- ``leader``, ``trick``: who led the current trick and its cards in play order;
  ``last_trick``, ``last_leader``: the same for the previous trick;
- ``won``: per player, the mask of cards won in tricks;
- ``points``: per player, the `ScoreBreakdown` parts in order (melds, seven, cards,
  last trick, bonus, contract);
- ``declarations``: every meld declared, as (player, kind index, mask of the cards);
- ``scored``: the mask of trump sevens / dix cards that have scored;
- ``turn``: this trick's declarations: melds declared (low byte), and `_SEVEN_DONE`;
- ``exchanged``: the card taken for the seven on this trick, or -1;
- ``tricks``: tricks completed; ``shown``: carte blanche flags (bit p: player p may
  show one now; bit 8 + p: he is on a streak); ``moves``: (player, action id) pairs;
- ``pending``: melds laid out but not yet scored (pending declarations), each also in
  ``declarations`` (so the meld rules treat its cards as declared in its kind).

Transitions build a new `StockCore`; the hot paths (a card played, the draw) build it
with `_tuple_new` from its fields in order (tried for issue 14: ``_replace`` by name in
``_play`` cost about a quarter of bezique's random deals per second in a side-by-side run;
`benchmarks/bench_deals.py` measures them); the rarer transitions use ``_replace``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple, cast

import attrs
from typing_extensions import Self

from ..actions import Action, ActionKind, ActionSpace, Verb
from ..cards import Card, CardSet, Suit
from ..checks import check_seat
from ..deck import card_ids, shuffle
from ..errors import RuleCode
from ..melds import Finder, choose_copies, declaration_finder, meld_copies
from ..rules.ruleset import CutGuess, RuleSet
from ..scoring import ScoreBreakdown
from ..state import DealSetup, DealState, Move, Phase, PlayerView, TableMeld, relabel_mask, relabel_seq
from ..tricks import PlayDuty, TrickPolicy
from ..trumps import NO_TRUMP, TrumpTable

__all__ = ["StockDeal", "StockEngine"]

# what each action id does: (kind, a, b), see `_build_tables`; module aliases of the kinds
_PLAY = ActionKind.PLAY
_MELD = ActionKind.MELD
_EXCHANGE = ActionKind.EXCHANGE
_DECLARE = ActionKind.DECLARE
_PASS = ActionKind.PASS
_CARTE = ActionKind.CARTE_BLANCHE
_GUESS = ActionKind.GUESS
_TO_PARTNER = ActionKind.PASS_TO_PARTNER

# points tuple layout per player
_MELDS, _SEVEN, _CARDS, _LAST, _BONUS, _CONTRACT = range(6)
_STREAK = 8  # in ``shown``: bit 8 + p = player p is on a carte-blanche streak

_SEVEN_DONE = 1 << 8  # flag in ``turn``: a seven action was taken this trick

# phases as module constants (faster than enum attribute lookups in the hot paths)
_ST_PLAY = Phase.PLAY
_ST_DECLARE = Phase.DECLARE
_ST_PLAYOFF = Phase.PLAYOFF
_ST_OVER = Phase.OVER
_ST_GUESS = Phase.GUESS


@attrs.frozen
class _Meta:
    """Per-rule-set lookup tables for the engine (built once, cached on the rule set)."""

    meta: tuple[tuple[int, int, Any], ...]
    play_ids: tuple[int, ...]  # face * 2 + star -> id
    play_hand: tuple[int, ...]  # physical id -> id of playing it from the concealed hand
    play_table: tuple[int, ...]  # physical id -> id of playing it from the table
    meld_ids: dict[tuple[int, tuple[tuple[int, bool], ...]], int]
    exchange_ids: tuple[int, ...]  # face -> id (-1 when not a dix face)
    declare_ids: tuple[int, ...]
    pass_id: int
    carte_id: int
    dix_faces: tuple[int, ...]  # suit -> face id of the dix rank (-1 none)
    court_mask: int
    players: int
    tables: tuple[TrumpTable, ...]  # by trump index (-1 = no trump)
    stock_policy: TrickPolicy
    playoff_policy: TrickPolicy
    stock_free: bool
    playoff_free: bool
    dix_masks: tuple[int, ...]  # by trump index: the physical dix cards
    dix_points: int
    score_on_play: bool
    dix_any_time: bool  # seed 000 method 2: the dix may be declared on one's turn to play
    card_values: tuple[int, ...]
    immediate: bool
    last_bonus: int
    last_at_final: bool
    declare_on_last: bool
    meldable: int  # cards that appear in some meld or dix action (a hand without them declares nothing)
    num_faces: int
    all_faces: int  # mask of every face id
    hand_id_bytes: tuple[tuple[tuple[int, ...], ...], ...]  # [k][byte] -> play ids of faces 8k.. (hand copies)
    show_last: bool
    guess_ids: dict[int, int]
    carte_repeat: bool
    result: Any  # the deal-result rule (RubiconScoring), or None
    meld_limit: int  # melds per trick won (0: no limit)
    last_card_bonus: int  # for drawing the last card of the stock (0: none)
    sweep_bonus: int  # for winning every play-off trick (0: none)
    face_masks: tuple[int, ...]  # face id -> mask of its physical copies
    packs: int
    value_bytes: tuple[tuple[int, ...], ...]  # [k][byte] -> card points of ids 8k.. in the byte
    finders: dict[int, Finder]  # by trump: the declaration search (filled on first use)
    winner_tables: tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]  # by trump index: power, suit, trumps
    # the declaration privilege (`DeclarationPrivilege`): the id of ``pass partner`` (-1: none), whether
    # a declarer uses his partner's tabled cards, the meld kinds made of one's own cards only, and
    # whether the play-off duty spares a partner's winning card
    to_partner_id: int = -1
    with_partner: bool = False
    own_only: frozenset[int] = frozenset()
    partner_duty: bool = False
    pending: bool = False  # `StockRules.pending_declarations` with a meld limit


class StockEngine:
    """Builds stock-game deals and their action space."""

    name = "stock"

    @staticmethod
    def compile(rules: RuleSet) -> StockTables:
        """Every action of a stock-game rule set, numbered in a stable order:
        plays (by face, hand copy then table copy), melds (by kind, then faces),
        exchange and declare of the trump seven / dix, carte blanche, pass;
        and the engine's lookup tables."""
        actions, meta = _build_tables(rules)
        return StockTables(actions, meta)

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> StockDeal:
        """Deal ``order`` (physical ids, top first) with ``dealer`` dealing."""
        n = rules.players
        hands, _widow, turn_up, stock = rules.deal.deal(order, n, dealer)
        trump = NO_TRUMP
        points = [[0] * 6 for _ in range(n)]
        scored = 0
        dix = rules.stock.dix
        if turn_up >= 0:
            card = rules.deck.card(turn_up)
            assert card.suit is not None  # a turn-up in a stock game is a suited card
            trump = card.suit.value
            if dix is not None and dix.turned_up_scores and card.rank is dix.rank:
                points[dealer][_SEVEN] += dix.points if dix.turned_up_points is None else dix.turned_up_points
                scored |= 1 << turn_up
        leader = (dealer + 1) % n
        empty = (0,) * n
        m = _tables(rules)[1]
        carte = 0
        if rules.stock.carte_blanche:
            for p in range(n):
                if not hands[p] & m.court_mask:
                    carte |= 1 << p
        stage, packet = Phase.PLAY, -1
        cut = rules.stock.cut_guess
        if cut is not None:
            stage = Phase.GUESS
            packet = cut.packet if cut.packet is not None else _cut_packet(cut, seed, order)
        return StockDeal(
            DealSetup(rules, order, seed, dealer, m, packet),
            StockCore(
                stage, leader, hands, empty, empty, stock, turn_up, trump, leader, (), (), -1, empty,
                tuple(tuple(p) for p in points), (), scored, 0, -1, 0, carte, (), (),
            ),
        )  # fmt: skip


def _stacked_ids(num_faces: int, order: tuple[int, ...]) -> tuple[int, ...]:
    """The physical ids a stacked deck of the cards of ``order`` gets (`DeckSpec.order_from_cards`:
    identical cards take their copies in order), so a world's cut is that of its own record."""
    copies = [0] * num_faces
    out = []
    for c in order:
        f = c % num_faces
        out.append(copies[f] * num_faces + f)
        copies[f] += 1
    return tuple(out)


def _cut_packet(cut: CutGuess, seed: int | None, order: tuple[int, ...]) -> int:
    """The size of the dealer's cut: a chance drawn from the deal's seed (or, for a stacked
    deck, from the deck order), uniform from ``cut.smallest`` to ``cut.largest``."""
    source = f"bezique-rules:cut:{seed}" if seed is not None else "bezique-rules:cut:" + ",".join(map(str, order))
    return random.Random(source).randint(cut.smallest, cut.largest)


@attrs.frozen
class StockTables:
    """The stock engine's compiled tables for one rule set (held by `RuleSet.tables`)."""

    actions: ActionSpace
    """The numbered actions."""
    meta: _Meta
    """The engine's lookup tables."""


def _tables(rules: RuleSet) -> tuple[ActionSpace, _Meta]:
    tables = cast(StockTables, rules.tables)
    return tables.actions, tables.meta


def _build_tables(rules: RuleSet) -> tuple[ActionSpace, _Meta]:
    deck = rules.deck
    faces = deck.faces
    actions: list[Action] = []
    meta: list[tuple[int, int, Any]] = []
    play_ids = []
    for f, card in enumerate(faces):
        for star in (False, True):
            play_ids.append(len(actions))
            actions.append(Action.make(Verb.PLAY, [card], [star]))
            meta.append((_PLAY, f, star))
    meld_ids: dict[tuple[int, tuple[tuple[int, bool], ...]], int] = {}
    kinds = rules.melds.kinds
    for kind_index, inst in rules.melds.all_instances(deck):
        counts: dict[int, int] = {}
        for f in inst:
            counts[f] = counts.get(f, 0) + 1
        keys: list[tuple[tuple[int, bool], ...]] = [()]
        for f, m in sorted(counts.items()):
            keys = [k + ((f, False),) * (m - t) + ((f, True),) * t for k in keys for t in range(m + 1)]
        for key in keys:
            key = tuple(sorted(key))
            meld_ids[(kind_index, key)] = len(actions)
            actions.append(
                Action.make(Verb.MELD, [faces[f] for f, _ in key], [s for _, s in key], meld=kinds[kind_index].name)
            )
            meta.append((_MELD, kind_index, key))
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
                exchange_ids[f] = len(actions)
                actions.append(Action.make(Verb.EXCHANGE, [faces[f]]))
                meta.append((_EXCHANGE, f, None))
            declare_ids[f] = len(actions)
            actions.append(Action.make(Verb.DECLARE, [faces[f]]))
            meta.append((_DECLARE, f, None))
    carte_id = -1
    if rules.stock.carte_blanche:
        carte_id = len(actions)
        actions.append(Action.make(Verb.MELD, meld="carte-blanche"))
        meta.append((_CARTE, 0, None))
    guess_ids: dict[int, int] = {}
    cut = rules.stock.cut_guess
    if cut is not None:
        for size in range(cut.smallest, cut.largest + 1):
            guess_ids[size] = len(actions)
            actions.append(Action(Verb.GUESS, number=size))
            meta.append((_GUESS, size, None))
    privilege = rules.stock.privilege
    to_partner_id = -1
    if privilege.holder == "winner_or_partner":
        to_partner_id = len(actions)
        actions.append(Action(Verb.PASS, to_partner=True))
        meta.append((_TO_PARTNER, 0, None))
    pass_id = len(actions)
    actions.append(Action(Verb.PASS))
    meta.append((_PASS, 0, None))
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
    result = (
        ActionSpace.of(actions),
        _Meta(
            tuple(meta),
            tuple(play_ids),
            tuple(play_ids[f * 2] for f in deck.face_of),
            tuple(play_ids[f * 2 + 1] for f in deck.face_of),
            meld_ids,
            tuple(exchange_ids),
            tuple(declare_ids),
            pass_id,
            carte_id,
            tuple(dix_faces),
            court,
            rules.players,
            rules.trump_tables,
            rules.stock_policy,
            rules.playoff_policy,
            rules.stock_policy.duty is PlayDuty.FREE,
            rules.playoff_policy.duty is PlayDuty.FREE,
            tuple(deck.face_masks[f] if f >= 0 else 0 for f in dix_faces) + (0,),
            dix.points if dix is not None else 0,
            dix is not None and dix.score_on_play,
            dix is not None and dix.any_time,
            rules.card_values,
            rules.stock.card_timing == "immediate",
            rules.card_points.last_trick,
            rules.stock.last_trick_bonus_at == "final",
            rules.stock.declare_on_last_stock_trick,
            meldable,
            deck.num_faces,
            (1 << deck.num_faces) - 1,
            tuple(
                tuple(
                    tuple(play_ids[(8 * k + j) * 2] for j in range(8) if b >> j & 1 and 8 * k + j < deck.num_faces)
                    for b in range(256)
                )
                for k in range((deck.num_faces + 7) // 8)
            ),
            rules.stock.show_last_card,
            guess_ids,
            rules.stock.carte_blanche_repeat,
            rules.stock.result,
            rules.stock.melds_per_trick,
            rules.stock.bonuses.last_card,
            rules.stock.bonuses.playoff_sweep,
            deck.face_masks,
            deck.packs,
            _byte_sums(rules.card_values),
            {},
            tuple((t.power, t.suit, t.trump_mask) for t in rules.trump_tables),
            to_partner_id,
            privilege.cards == "with_partner_tabled",
            frozenset(i for i, k in enumerate(kinds) if k.name in privilege.own_cards_only),
            rules.partnership and not rules.playoff_policy.must_beat_partner,
            rules.stock.pending_declarations and rules.stock.melds_per_trick > 0,
        ),
    )
    return result


def _declare_ids(
    rules: RuleSet,
    m: _Meta,
    hand: int,
    tabled: int,
    history: tuple[tuple[int, int], ...],
    trump: int,
    turn: int,
    exchanged: int,
    scored: int,
    turn_up: int,
) -> list[int]:
    """The declare-phase actions open to a trick winner: always ``pass``, then melds and sevens."""
    ids = [m.pass_id]
    dix = rules.stock.dix
    melds_done = turn & 0xFF
    if (not m.meld_limit or melds_done < m.meld_limit or m.pending) and not (
        exchanged >= 0 and dix is not None and dix.no_meld_when_exchanging
    ):
        found = None
        if hand & m.meldable:
            forbidden = 0
            if exchanged >= 0 and dix is not None and not dix.exchange_card_usable_same_trick:
                forbidden = 1 << exchanged
            found = (m.finders.get(trump) or _finder(rules, m, trump))(hand, tabled, history, forbidden)
        if found:
            meld_ids = m.meld_ids
            for k in found:
                ids.append(meld_ids[k])
    if dix is not None and not turn & _SEVEN_DONE and trump >= 0:
        face = m.dix_faces[trump]
        if face >= 0 and hand & m.dix_masks[trump] & ~scored:
            can_exchange = _can_exchange(rules, face, turn_up)
            if can_exchange and not (dix.no_meld_when_exchanging and melds_done):
                ids.append(m.exchange_ids[face])
            if dix.methods != "exchange_only" or not can_exchange:
                ids.append(m.declare_ids[face])
    return ids


def _declaring(rules: RuleSet, m: _Meta, core: StockCore, p: int, turn: int, exchanged: int) -> list[int]:
    """The declare-phase actions of ``p`` (the winner, or the partner he passed to): with
    `DeclarationPrivilege` ``cards="with_partner_tabled"`` his melds may use his partner's
    tabled cards (under both players' declarations), except the own-cards-only kinds."""
    hands, tabled = core.hands, core.tabled
    if not m.with_partner:
        ids = _declare_ids(rules, m, hands[p], tabled[p], _history(core.declarations, p), core.trump, turn,
                           exchanged, core.scored, core.turn_up)  # fmt: skip
    else:
        q = (p + m.players // 2) % m.players
        history = _history(core.declarations, p) + _history(core.declarations, q)
        ids = _declare_ids(rules, m, hands[p] | tabled[q], tabled[p] | tabled[q], history, core.trump, turn,
                           exchanged, core.scored, core.turn_up)  # fmt: skip
        if m.own_only:
            meta = m.meta
            own = _declare_ids(rules, m, hands[p], tabled[p], history, core.trump, turn, exchanged, core.scored,
                               core.turn_up)  # fmt: skip
            ids = [i for i in ids if meta[i][0] != _MELD or meta[i][1] not in m.own_only]
            ids += [i for i in own if meta[i][0] == _MELD and meta[i][1] in m.own_only]
    if m.to_partner_id >= 0 and not turn and p == core.leader:
        ids.append(m.to_partner_id)
    if core.pending:
        ids += [i for i in _pending_ids(rules, m, core, p, turn, exchanged) if i not in ids]
    return ids


def _pending_ids(rules: RuleSet, m: _Meta, core: StockCore, p: int, turn: int, exchanged: int) -> list[int]:
    """The meld actions (every card ``*``) that score a pending meld of ``p``: open while he
    may still score a meld on this trick (`StockRules.pending_declarations`)."""
    dix = rules.stock.dix
    if (turn & 0xFF) >= m.meld_limit or (exchanged >= 0 and dix is not None and dix.no_meld_when_exchanging):
        return []
    face_of = rules.deck.face_of
    return [m.meld_ids[(k, tuple((f, True) for f in sorted(face_of[c] for c in card_ids(mask))))]
            for q, k, mask in core.pending if q == p]  # fmt: skip


def _pending_match(
    rules: RuleSet,
    pending: tuple[tuple[int, int, int], ...],
    p: int,
    kind_index: int,
    key: tuple[tuple[int, bool], ...],
) -> tuple[int, int, int] | None:
    """The pending meld of ``p`` that the meld action (``kind_index``, ``key``) scores, or None."""
    if not all(star for _f, star in key):
        return None
    face_of = rules.deck.face_of
    faces = [f for f, _s in key]
    for record in pending:
        q, k, mask = record
        if q == p and k == kind_index and sorted(face_of[c] for c in card_ids(mask)) == faces:
            return record
    return None


def _drop_pending(
    pending: tuple[tuple[int, int, int], ...], declarations: tuple[tuple[int, int, int], ...], cards: int
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]:
    """Cancel the pending melds using any of ``cards`` (played, or the table cleared for the
    play-off): they leave both ``pending`` and ``declarations``, never having scored."""
    gone = [record for record in pending if record[2] & cards]
    if not gone:
        return pending, declarations
    return (
        tuple(record for record in pending if record not in gone),
        tuple(record for record in declarations if record not in gone),
    )


def _meld_cards(
    m: _Meta,
    hands: tuple[int, ...],
    tabled: tuple[int, ...],
    declarations: tuple[tuple[int, int, int], ...],
    p: int,
    kind_index: int,
) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """The held cards, tabled cards and earlier declarations a meld of ``p`` is made under."""
    if not m.with_partner:
        return hands[p], tabled[p], _history(declarations, p)
    q = (p + m.players // 2) % m.players
    history = _history(declarations, p) + _history(declarations, q)
    if kind_index in m.own_only:
        return hands[p], tabled[p], history
    return hands[p] | tabled[q], tabled[p] | tabled[q], history


def _partner_winning(m: _Meta, core: StockCore) -> bool:
    """Whether the card winning the trick so far is the partner's of the player to play."""
    trick = core.trick
    if len(trick) < 2:
        return False
    n = m.players
    return (core.leader + m.tables[core.trump].winner(trick)) % n == (core.player + n // 2) % n


def _more_may_be_declared(rules: RuleSet, m: _Meta, core: StockCore) -> bool:
    """Whether the rules (not the winner's hidden hand) leave a meld or a seven action open
    on this trick: the meld limit, the exchange house rule, one seven action per trick, and
    whether a trump seven / dix is still unscored (public)."""
    dix = rules.stock.dix
    turn = core.turn
    melds = not (m.meld_limit and (turn & 0xFF) >= m.meld_limit and not m.pending) and not (
        core.exchanged >= 0 and dix is not None and dix.no_meld_when_exchanging
    )
    if melds:
        return True
    if dix is None or turn & _SEVEN_DONE or core.trump < 0:
        return False
    played = 0
    for w in core.won:
        played |= w
    return bool(m.dix_masks[core.trump] & ~core.scored & ~played)


def _finder(rules: RuleSet, m: _Meta, trump: int) -> Finder:
    """The declaration search for ``trump``, made on first use and kept in ``m.finders``."""
    finder = m.finders[trump] = declaration_finder(rules.deck, rules.melds, rules.meld_rules, rules.meld_search[trump])
    return finder


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

    With ``show_last`` the last face-down card is shown (it becomes known)."""
    if n == 2 and (len(stock) > 2 or (len(stock) == 2 and not show_last)):  # the usual draw
        if winner == 0:
            return (hands[0] | 1 << stock[0], hands[1] | 1 << stock[1]), known, stock[2:], turn_up
        return (hands[0] | 1 << stock[1], hands[1] | 1 << stock[0]), known, stock[2:], turn_up
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


class StockCore(NamedTuple):
    """The changing part of a stock-game deal, as one tuple (cheap to unpack and rebuild)."""

    stage: Phase
    """The phase (read it as `phase`)."""
    player: int
    """Who is to act (-1 when over)."""
    hands: tuple[int, ...]
    """Per player: the mask of held cards (concealed and tabled)."""
    tabled: tuple[int, ...]
    """Per player: the mask of cards lying face up in melds."""
    known: tuple[int, ...]
    """Per player: the mask of held cards everyone has seen."""
    stock: tuple[int, ...]
    """The face-down stock, top first."""
    turn_up: int
    """The turn-up (drawn last), or -1."""
    trump: int
    """The trump suit index, or -1."""
    leader: int
    """Who led the current trick."""
    trick: tuple[int, ...]
    """The current trick's cards in play order."""
    last_trick: tuple[int, ...]
    """The previous trick's cards."""
    last_leader: int
    """Who led the previous trick (-1 before the first)."""
    won: tuple[int, ...]
    """Per player: the mask of cards won in tricks."""
    points: tuple[tuple[int, ...], ...]
    """Per player: (melds, seven, cards, last trick, bonus)."""
    declarations: tuple[tuple[int, int, int], ...]
    """Every declared meld: (player, kind index, mask)."""
    scored: int
    """The mask of trump sevens / dix cards that have scored."""
    turn: int
    """This trick's declarations: melds declared (low byte) and a seven-done flag."""
    exchanged: int
    """The card taken in exchange for the seven on this trick, or -1."""
    tricks: int
    """Tricks completed."""
    shown: int
    """Carte blanche: bit p, player p may show one now; bit 8 + p, player p is on a streak
    (showed one, and has drawn no court card since)."""
    moves: tuple[Move, ...]
    """Every action so far, as (player, action_id) pairs."""
    pending: tuple[tuple[int, int, int], ...]
    """The melds laid out but not yet scored (`StockRules.pending_declarations`), as
    (player, kind index, mask); each is also in ``declarations``."""


_tuple_new: Callable[[type[StockCore], tuple[Any, ...]], StockCore] = tuple.__new__
"""``_tuple_new(StockCore, fields)`` builds a core from its fields in order, without the
NamedTuple's Python-level ``__new__`` (the hot paths)."""


@attrs.frozen
class StockDeal(DealState):
    """A deal of a stock game (two-hand Bezique and its relatives): immutable.

    The fixed part lives in `setup`, the changing part in `core` (a `StockCore`);
    each core field is also readable as a property of the same name. Cards are
    physical ids and masks of ids; read the game in cards through `view`.
    """

    setup: DealSetup[_Meta]
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
    def points(self) -> tuple[tuple[int, ...], ...]:
        """Per player: (melds, seven, cards, last trick, bonus)."""
        return self.core.points

    @property
    def declarations(self) -> tuple[tuple[int, int, int], ...]:
        """Every declared meld: (player, kind index, mask)."""
        return self.core.declarations

    @property
    def pending(self) -> tuple[tuple[int, int, int], ...]:
        """The melds laid out but not yet scored: (player, kind index, mask), each also in `declarations`."""
        return self.core.pending

    @property
    def scored(self) -> int:
        """The mask of trump sevens / dix cards that have scored."""
        return self.core.scored

    @property
    def turn(self) -> int:
        """This trick's declarations: melds declared (low byte) and a seven-done flag."""
        return self.core.turn

    @property
    def exchanged(self) -> int:
        """The card taken in exchange for the seven on this trick, or -1."""
        return self.core.exchanged

    @property
    def tricks(self) -> int:
        """Tricks completed."""
        return self.core.tricks

    @property
    def shown(self) -> int:
        """Carte blanche: bit p, player p may show one now; bit 8 + p, player p is on a streak."""
        return self.core.shown

    # -- the DealState interface -------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far per player, or per side in partnership games (card points join at
        the end unless counted immediately)."""
        if self.setup.rules.partnership:
            return tuple(sum(sum(self.points[p]) for p in side) for side in self.setup.rules.sides)
        return tuple(sum(p) for p in self.points)

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """Where each player's (or side's) points came from."""
        if self.setup.rules.partnership:
            sides = self.setup.rules.sides
            return tuple(ScoreBreakdown(*(sum(part) for part in zip(*(self.points[p] for p in s)))) for s in sides)
        return tuple(ScoreBreakdown(*p) for p in self.points)

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit, or None."""
        return None if self.trump < 0 else Suit(self.trump)

    def _compute_legal(self) -> tuple[int, ...]:
        core = self.core
        stage = core.stage
        if stage is _ST_OVER:
            return ()
        m: _Meta = self.setup.meta
        p = core.player
        if stage is _ST_DECLARE:
            return tuple(sorted(self._declare_now(m)))
        if stage is _ST_GUESS:
            return tuple(sorted(m.guess_ids.values()))
        hand = core.hands[p]
        trick = core.trick
        if trick and not (m.stock_free if stage is _ST_PLAY else m.playoff_free):
            policy = m.stock_policy if stage is _ST_PLAY else m.playoff_policy
            if m.partner_duty:
                playable = policy.legal(m.tables[core.trump], hand, trick, _partner_winning(m, core))
            else:
                playable = policy.legal(m.tables[core.trump], hand, trick)
        else:
            playable = hand
        tabled = core.tabled[p]
        # fold the copies onto faces, then read the ascending play ids byte by byte
        nf = m.num_faces
        conc = playable & ~tabled
        if m.packs == 2:
            faces = (conc | conc >> nf) & m.all_faces
        else:
            all_faces = m.all_faces
            faces = 0
            while conc:
                faces |= conc & all_faces
                conc >>= nf
        by_byte = m.hand_id_bytes
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
        carte = m.carte_id >= 0 and stage is _ST_PLAY and self._may_show_carte(m)
        seven = m.dix_any_time and stage is _ST_PLAY and hand & m.dix_masks[core.trump] & ~core.scored
        if tabled & playable or carte or seven:
            more = list(ids)
            play_table = m.play_table
            c = playable & tabled
            while c:
                low = c & -c
                more.append(play_table[low.bit_length() - 1])
                c ^= low
            if carte:
                more.append(m.carte_id)
            if seven:
                more.append(m.declare_ids[m.dix_faces[core.trump]])
            return tuple(sorted(set(more)))
        return ids

    def _may_show_carte(self, m: _Meta) -> bool:
        return (self.shown >> self.player) & 1 == 1

    def _declare_now(self, m: _Meta) -> list[int]:
        return _declaring(self.setup.rules, m, self.core, self.player, self.turn, self.exchanged)

    def _history_of(self, player: int) -> tuple[tuple[int, int], ...]:
        return _history(self.core.declarations, player)

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        rules = self.rules
        m = _tables(rules)[1]
        verb, a, b = m.meta[action_id]
        stage = self.stage
        p = self.player
        if stage is Phase.GUESS and verb != _GUESS:
            return RuleCode.WRONG_PHASE, "first the non-dealer guesses the size of the dealer's cut"
        if verb == _GUESS:
            return RuleCode.WRONG_PHASE, "the cut is guessed once, before the first card"
        if verb == _PLAY:
            if stage is Phase.DECLARE:
                return RuleCode.WRONG_PHASE, "declare or pass before the next trick"
            pid = self._pick_play(a, b)
            if pid < 0:
                where = "on the table" if b else "in your concealed hand"
                return RuleCode.CARD_NOT_HELD, f"you hold no such card {where}"
            policy = rules.stock_policy if stage is Phase.PLAY else rules.playoff_policy
            partner = m.partner_duty and _partner_winning(m, self.core)
            why = policy.refusal(rules.trump_tables[self.trump], self.hands[p], self.trick, pid, partner)
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
        any_time = stage is Phase.PLAY and verb == _DECLARE and m.dix_any_time
        if stage is not Phase.DECLARE and not any_time:
            if stage is Phase.PLAYOFF:
                return RuleCode.NO_DECLARATION_NOW, "no declarations once the stock is exhausted"
            return RuleCode.NO_DECLARATION_NOW, "only the trick winner declares, after the trick and before drawing"
        dix = rules.stock.dix
        if verb == _MELD:
            limit = rules.stock.melds_per_trick
            if limit and (self.turn & 0xFF) >= limit and not m.pending:
                return RuleCode.MELD_LIMIT, f"only {limit} meld{'s' if limit > 1 else ''} per trick won"
            if m.pending and (self.turn & 0xFF) >= limit and _pending_match(rules, self.core.pending, p, a, b):
                return RuleCode.MELD_LIMIT, f"a pending meld scores on a later trick won, {limit} per trick"
            if dix is not None and dix.no_meld_when_exchanging and self.exchanged >= 0:
                return RuleCode.NO_MELD_WITH_EXCHANGE, "no meld on a trick where the trump seven was exchanged"
            kind = rules.melds.kinds[a]
            faces = tuple(f for f, _ in b)
            if (a, faces) not in rules.meld_instances[self.trump]:
                return RuleCode.NOT_A_MELD, f"these cards do not form a {kind.name} with these trumps"
            mask, why = choose_copies(
                rules.deck, rules.melds, rules.meld_rules, a, b, self.hands[p], self.tabled[p], self._history_of(p)
            )
            if (
                why is None
                and self.exchanged >= 0
                and mask & (1 << self.exchanged)
                and dix is not None
                and not dix.exchange_card_usable_same_trick
            ):
                return RuleCode.EXCHANGED_CARD_IN_MELD, (
                    "the card taken in exchange for the trump seven may not be used in a meld on the same trick"
                )
            return why or (RuleCode.NOT_A_MELD, "not a legal meld now")
        # exchange / declare
        if dix is None:
            return RuleCode.NOT_AN_ACTION, "this variant has no trump seven"
        if self.turn & _SEVEN_DONE and not any_time:
            return RuleCode.SEVEN_NOT_ALLOWED, "only one trump-seven declaration per trick"
        if self.trump < 0 or m.dix_faces[self.trump] != a:
            return RuleCode.SEVEN_NOT_ALLOWED, "only the seven of trumps can be declared or exchanged"
        held = self.hands[p] & rules.deck.face_masks[a]
        if not held:
            return RuleCode.CARD_NOT_HELD, "you do not hold it"
        if not held & ~self.scored:
            return RuleCode.SEVEN_ALREADY_SCORED, "that seven has already scored"
        if verb == _EXCHANGE:
            if dix.no_meld_when_exchanging and self.turn & 0xFF:
                return RuleCode.NO_MELD_WITH_EXCHANGE, "no exchange on a trick where a meld was declared"
            return RuleCode.SEVEN_NOT_ALLOWED, "the turn-up is gone or is itself a seven: no exchange"
        return RuleCode.SEVEN_NOT_ALLOWED, "while an exchange is possible, declaring the seven exchanges it"

    # -- transitions --------------------------------------------------------

    def _pick_play(self, face: int, star: bool) -> int:
        """The physical card a play of (face, star) uses, or -1."""
        p = self.player
        copies = self.hands[p] & self.setup.rules.deck.face_masks[face]
        copies &= self.tabled[p] if star else ~self.tabled[p]
        if not copies:
            return -1
        if star and copies & (copies - 1):
            best, best_use = -1, -1
            for pid in card_ids(copies):
                use = sum(1 for _p, _k, mk in self.declarations if (mk >> pid) & 1)
                if use > best_use:
                    best, best_use = pid, use
            return best
        return (copies & -copies).bit_length() - 1

    def _apply_id(self, action_id: int) -> Self:
        m: _Meta = self.setup.meta
        verb, a, b = m.meta[action_id]
        if verb == _PLAY:
            if not b:  # from the concealed hand: the lowest copy
                core = self.core
                p = core.player
                copies = core.hands[p] & m.face_masks[a] & ~core.tabled[p]
                return self._play((copies & -copies).bit_length() - 1, action_id)
            return self._play(self._pick_play(a, b), action_id)
        moves = (*self.core.moves, (self.core.player, action_id))
        if verb == _PASS:
            return self._drawn(moves)
        if verb == _TO_PARTNER:
            return self._evolve(player=(self.core.player + m.players // 2) % m.players, moves=moves)
        if verb == _MELD:
            return self._meld(a, b, moves)
        if verb == _CARTE:
            return self._carte(moves)
        if verb == _GUESS:
            return self._guess(a, moves)
        return self._seven(verb == _EXCHANGE, a, moves)

    def _play(self, pid: int, action_id: int) -> Self:
        setup = self.setup
        m = setup.meta
        (
            stage, p, hands, tabled, known, stock, turn_up, trump, leader, trick, last_trick, last_leader, won,
            points, declarations, scored, turn, exchanged, tricks, shown, moves, pending,
        ) = self.core  # fmt: skip
        n = m.players
        bit = 1 << pid
        if n == 2:
            hands = (hands[0] ^ bit, hands[1]) if p == 0 else (hands[0], hands[1] ^ bit)
        else:
            hands = (*hands[:p], hands[p] ^ bit, *hands[p + 1 :])
        if tabled[p] & bit:
            tabled = (*tabled[:p], tabled[p] ^ bit, *tabled[p + 1 :])
            if pending:
                pending, declarations = _drop_pending(pending, declarations, bit)
        if known[p] & bit:
            known = (*known[:p], known[p] ^ bit, *known[p + 1 :])
        if bit & m.dix_masks[trump] and stage is _ST_PLAY and m.score_on_play and not scored & bit:
            scored |= bit
            points = _add(points, p, _SEVEN, m.dix_points)
        moves = (*moves, (p, action_id))
        shown &= ~(1 << p)
        cls = type(self)
        if len(trick) + 1 < n:
            return cls(
                setup,
                _tuple_new(
                    StockCore,
                    (
                        stage, (p + 1) % n, hands, tabled, known, stock, turn_up, trump, leader, (*trick, pid),
                        last_trick, last_leader, won, points, declarations, scored, turn, exchanged, tricks, shown,
                        moves, pending,
                    )
                ),
            )  # fmt: skip
        # the trick is complete
        if n == 2:
            first = trick[0]
            trick = (first, pid)
            power, suits, trumps = m.winner_tables[trump]
            if power[pid] > power[first] and (suits[pid] == suits[first] or (trumps >> pid) & 1):
                winner = p
            else:
                winner = leader
            won_mask = (1 << first) | bit
            won = (won[0] | won_mask, won[1]) if winner == 0 else (won[0], won[1] | won_mask)
        else:
            trick = (*trick, pid)
            winner = (leader + m.tables[trump].winner(trick)) % n
            won_mask = 0
            for c in trick:
                won_mask |= 1 << c
            won = (*won[:winner], won[winner] | won_mask, *won[winner + 1 :])
        if m.immediate:
            values = m.card_values
            points = _add(points, winner, _CARDS, sum(values[c] for c in trick))
        tricks += 1
        if stage is _ST_PLAYOFF:
            if hands[winner]:
                return cls(
                    setup,
                    _tuple_new(
                        StockCore,
                        (
                            stage, winner, hands, tabled, known, stock, turn_up, trump, winner, (), trick, leader,
                            won, points, declarations, scored, 0, -1, tricks, shown, moves, pending,
                        )
                    ),
                )  # fmt: skip
            if m.last_at_final:
                points = _add(points, winner, _LAST, m.last_bonus)
            if m.sweep_bonus and _swept(moves, n, setup.rules.deal.hand_size, winner):
                points = _add(points, winner, _BONUS, m.sweep_bonus)
            if m.result is not None:
                points = _deal_result(m, points, won)
            elif not m.immediate:
                rounded = setup.rules.card_points.rounded
                for q in range(n):
                    points = _add(points, q, _CARDS, rounded(_mask_points(m.value_bytes, won[q])))
            return cls(
                setup,
                StockCore(
                    _ST_OVER, -1, hands, tabled, known, stock, turn_up, trump, winner, (), trick, leader, won, points,
                    declarations, scored, 0, -1, tricks, shown, moves, pending,
                ),
                (),
            )  # fmt: skip
        last_stock = len(stock) + (1 if turn_up >= 0 else 0) <= n
        if last_stock and not m.last_at_final:
            points = _add(points, winner, _LAST, m.last_bonus)
        # The winner always gets the declaration decision while declaring is allowed (a
        # ``pass`` when he has nothing): whether he could declare stays hidden (issue 12).
        stage = _ST_DECLARE if not last_stock or m.declare_on_last else _ST_PLAY
        core = _tuple_new(
            StockCore,
            (
                stage, winner, hands, tabled, known, stock, turn_up, trump, winner, (), trick, leader, won,
                points, declarations, scored, 0, -1, tricks, shown, moves, pending,
            ),
        )  # fmt: skip
        if stage is _ST_DECLARE:
            # his actions now (the search runs once, here; often only ``pass``)
            ids = _declaring(setup.rules, m, core, winner, 0, -1)
            return cls(setup, core, (ids[0],) if len(ids) == 1 else tuple(sorted(ids)))
        return cls(setup, _after_draw(m, core, moves))

    def _drawn(self, moves: tuple[Move, ...]) -> Self:
        """End the declare phase: everyone draws, then the winner leads."""
        return type(self)(self.setup, _after_draw(self.setup.meta, self.core, moves))

    def _declared(self, core: StockCore) -> Self:
        """After a declaration: the winner stays (and passes when done) while the rules leave
        anything to declare on this trick, whatever his hand; else everyone draws."""
        setup = self.setup
        m: _Meta = setup.meta
        if _more_may_be_declared(setup.rules, m, core):
            p = core.player
            ids = _declaring(setup.rules, m, core, p, core.turn, core.exchanged)
            return type(self)(setup, core, (ids[0],) if len(ids) == 1 else tuple(sorted(ids)))
        return type(self)(setup, _after_draw(m, core, core.moves))

    def _meld(self, kind_index: int, key: tuple[tuple[int, bool], ...], moves: tuple[Move, ...]) -> Self:
        rules = self.setup.rules
        (
            stage, p, hands, tabled, known, stock, turn_up, trump, leader, trick, last_trick, last_leader, won,
            points, declarations, scored, turn, exchanged, tricks, shown, _moves, pending,
        ) = self.core  # fmt: skip
        kind = rules.melds.kinds[kind_index]
        m: _Meta = self.setup.meta
        scores = not m.pending or (turn & 0xFF) < m.meld_limit  # else its cards are laid out, pending
        record = _pending_match(rules, pending, p, kind_index, key) if pending and scores else None
        if record is not None:  # a pending meld scores as this trick's meld
            return self._declared(
                self.core._replace(
                    points=_add(points, p, _MELDS, kind.points), turn=turn + 1, moves=moves,
                    pending=tuple(other for other in pending if other != record),
                )
            )  # fmt: skip
        dix = rules.stock.dix
        forbidden = 0
        if exchanged >= 0 and dix is not None and not dix.exchange_card_usable_same_trick:
            forbidden = 1 << exchanged
        hand, table, history = _meld_cards(self.setup.meta, hands, tabled, declarations, p, kind_index)
        mask = meld_copies(
            rules.deck, rules.melds, rules.meld_rules, rules.meld_search[trump], kind_index, key, hand, table,
            history, forbidden,
        )  # fmt: skip
        own = mask & hands[p]  # the partner's tabled cards it uses stay his (`DeclarationPrivilege`)
        if trump < 0 and kind.fixes_trump:
            suit = rules.deck.faces[key[0][0]].suit
            assert suit is not None  # marriages and sequences are suited
            trump = suit.value
        return self._declared(
            _tuple_new(
                StockCore,
                (
                    stage, p, hands, _set(tabled, p, tabled[p] | own), _set(known, p, known[p] | own), stock,
                    turn_up, trump, leader, trick, last_trick, last_leader, won,
                    _add(points, p, _MELDS, kind.points) if scores else points, (*declarations, (p, kind_index, mask)),
                    scored, turn + 1 if scores else turn, exchanged, tricks, shown, moves,
                    pending if scores else (*pending, (p, kind_index, mask)),
                ),
            )
        )  # fmt: skip

    def _seven(self, exchange: bool, face: int, moves: tuple[Move, ...]) -> Self:
        rules = self.setup.rules
        dix = rules.stock.dix
        assert dix is not None  # only offered when the rule set has a dix rule
        (
            stage, p, hands, tabled, known, stock, turn_up, trump, leader, trick, last_trick, last_leader, won,
            points, declarations, scored, turn, exchanged, tricks, shown, _moves, pending,
        ) = self.core  # fmt: skip
        held = hands[p] & rules.deck.face_masks[face] & ~scored
        low = held & -held
        if exchange:
            old = turn_up
            hands = _set(hands, p, (hands[p] ^ low) | (1 << old))
            known = _set(known, p, (known[p] & ~low) | (1 << old))
            turn_up = low.bit_length() - 1
            exchanged = old
        else:
            known = _set(known, p, known[p] | low)
        if stage is not _ST_DECLARE:  # seed 000 method 2: declared on his turn to play; he plays next
            return type(self)(
                self.setup,
                self.core._replace(
                    known=known, points=_add(points, p, _SEVEN, dix.points), scored=scored | low, moves=moves
                ),
            )
        return self._declared(
            _tuple_new(
                StockCore,
                (
                    stage, p, hands, tabled, known, stock, turn_up, trump, leader, trick, last_trick, last_leader,
                    won, _add(points, p, _SEVEN, dix.points), declarations, scored | low, turn | _SEVEN_DONE,
                    exchanged, tricks, shown, moves, pending,
                ),
            )
        )  # fmt: skip

    def _carte(self, moves: tuple[Move, ...]) -> Self:
        p = self.player
        return self._evolve(
            points=_add(self.points, p, _MELDS, self.setup.rules.stock.carte_blanche),
            known=_set(self.known, p, self.known[p] | self.hands[p]),
            shown=(self.shown & ~(1 << p)) | ((1 << (_STREAK + p)) if self.setup.meta.carte_repeat else 0),
            moves=moves,
        )

    def _guess(self, size: int, moves: tuple[Move, ...]) -> Self:
        """The non-dealer's guess of the cut; the cut is then shown and both bonuses score."""
        cut = self.setup.rules.stock.cut_guess
        assert cut is not None  # only offered in games with the cut
        points = self.points
        packet = self.setup.packet
        if size == packet:
            points = _add(points, self.player, _BONUS, cut.guess_bonus)
        if packet == cut.exact:
            points = _add(points, self.setup.dealer, _BONUS, cut.exact_bonus)
        return self._evolve(stage=Phase.PLAY, points=points, moves=moves)

    def _evolve(self, **changes: Any) -> Self:
        """A copy with some core fields changed (for the rarer transitions)."""
        return type(self)(self.setup, self.core._replace(**changes))

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
                if not self.core.pending or (p, k, mk) not in self.core.pending
            ),
            pending=tuple(
                TableMeld(p, kinds[k].name, CardSet(deck.cards_of(mk)), kinds[k].points)
                for p, k, mk in self.core.pending
            ),
            won=tuple(CardSet(deck.cards_of(w)) for w in self.won),
            history=self.history,
            cut=None if self.setup.packet < 0 or self.stage is Phase.GUESS else self.setup.packet,
            state=self,
        )

    def _hidden_from(self, player: int) -> tuple[int, ...]:
        hidden = 0
        for q in range(self.rules.players):
            if q != player:
                hidden |= self.hands[q] & ~self.known[q]
        for c in self.stock:
            hidden |= 1 << c
        return tuple(card_ids(hidden))

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """Shuffle the cards hidden from ``player`` among their places (stock games reveal
        nothing about hidden cards through the play, so any arrangement is consistent).

        Six-pack's cut: before the guess nobody knows the cut's size, so the world takes the
        cut its own stacked deck gives (`_cut_packet`); after it the cut is public and the
        world keeps it (its record then carries it as ``cut_packet`` when the deck order
        would give another)."""
        hidden = self._hidden_from(player)
        state = self._relabel(dict(zip(hidden, shuffle(hidden, rng))))
        cut = self.setup.rules.stock.cut_guess
        if cut is not None and cut.packet is None and self.stage is Phase.GUESS:
            setup = state.setup
            packet = _cut_packet(cut, None, _stacked_ids(setup.rules.deck.num_faces, setup.deck_order))
            state = type(self)(
                DealSetup(setup.rules, setup.deck_order, None, setup.dealer, setup.meta, packet), state.core
            )
        if self.setup.meta.carte_id >= 0:
            state = state._evolve(shown=state._carte_bits(player))
        return state

    def _with_cut_packet(self, packet: int) -> Self:
        return type(self)(attrs.evolve(self.setup, packet=packet), self.core)

    def _carte_bits(self, viewer: int) -> int:
        """The carte-blanche flags after the other players' hidden cards were dealt again: a
        player may show one when he could have (he has not played since the deal, or since a
        draw during a streak of carte blanches) and his hand as dealt now has no court card."""
        n = self.setup.rules.players
        m = self.setup.meta
        shown = self.shown
        in_trick = {(self.leader + i) % n for i in range(len(self.trick))}
        played = {who for who, action_id in self.moves if m.meta[action_id][0] == _PLAY}
        for q in range(n):
            if q == viewer:
                continue
            could = q not in in_trick and (q not in played or (shown >> (_STREAK + q)) & 1)
            if could and self.stage is Phase.PLAY and not self.hands[q] & m.court_mask:
                shown |= 1 << q
            else:
                shown &= ~(1 << q)
        return shown

    def _relabel(self, perm: dict[int, int]) -> Self:
        setup = self.setup
        return type(self)(
            DealSetup(setup.rules, relabel_seq(setup.deck_order, perm), None, setup.dealer, setup.meta, setup.packet),
            self.core._replace(
                hands=tuple(relabel_mask(h, perm) for h in self.hands), stock=relabel_seq(self.stock, perm)
            ),
        )


def _history(declarations: tuple[tuple[int, int, int], ...], player: int) -> tuple[tuple[int, int], ...]:
    """The (kind index, mask) declarations of ``player``."""
    if not declarations:
        return ()
    return tuple([(k, mask) for p, k, mask in declarations if p == player])


def _after_draw(m: _Meta, core: StockCore, moves: tuple[Move, ...]) -> StockCore:
    """The core once the declare phase ends: everyone draws, then the winner leads."""
    (
        _stage, _p, hands, tabled, known, stock, turn_up, trump, p, trick, last_trick, last_leader, won,
        points, declarations, scored, _turn, _exchanged, tricks, shown, _moves, pending,
    ) = core  # fmt: skip
    n = m.players  # ``p``: the trick winner (who leads), also when his partner declared
    if shown >> _STREAK:
        shown = _carte_after_draw(m, shown, n, p, stock)
    if m.last_card_bonus:
        left = len(stock) + (turn_up >= 0)
        if 0 < left <= n:  # the last card goes to the left-th drawer from the winner
            points = _add(points, (p + left - 1) % n, _BONUS, m.last_card_bonus)
    hands, known, stock, turn_up = _draws(n, p, hands, known, stock, turn_up, m.show_last)
    if stock or turn_up >= 0:
        stage = _ST_PLAY
    else:
        stage = _ST_PLAYOFF
        tabled = (0,) * n
        if pending:
            pending, declarations = _drop_pending(pending, declarations, -1)
    return _tuple_new(
        StockCore,
        (
            stage, p, hands, tabled, known, stock, turn_up, trump, p, trick, last_trick, last_leader, won,
            points, declarations, scored, 0, -1, tricks, shown, moves, pending,
        ),
    )  # fmt: skip


def _swept(moves: tuple[Move, ...], n: int, playoff_tricks: int, winner: int) -> bool:
    """Whether ``winner`` of the last trick won every play-off trick: the play-off's moves are
    its last ``n * playoff_tricks`` plays, and each trick's winner leads the next."""
    plays = moves[len(moves) - n * playoff_tricks :]
    return all(plays[k * n][0] == winner for k in range(1, playoff_tricks))


def _carte_after_draw(m: _Meta, shown: int, n: int, winner: int, stock: tuple[int, ...]) -> int:
    """Carte-blanche streaks after a draw: a court card ends a streak; any other card may be
    shown for another carte blanche."""
    for i in range(min(n, len(stock))):
        q = (winner + i) % n
        if not (shown >> (_STREAK + q)) & 1:
            continue
        if (m.court_mask >> stock[i]) & 1:
            shown &= ~(1 << (_STREAK + q))
        else:
            shown |= 1 << q
    return shown


def _deal_result(m: _Meta, points: tuple[tuple[int, ...], ...], won: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Settle a deal whose result is a game (multi-pack): brisques join only when the rule
    counts them; the contract part brings each total to the result."""
    brisques = (_mask_points(m.value_bytes, won[0]), _mask_points(m.value_bytes, won[1]))
    totals = (sum(points[0]), sum(points[1]))
    if m.result.counts_brisques(totals, brisques):
        points = _add(_add(points, 0, _CARDS, brisques[0]), 1, _CARDS, brisques[1])
    result = m.result.result(totals, brisques)
    for q in range(2):
        points = _add(points, q, _CONTRACT, result[q] - sum(points[q]))
    return points


def _byte_sums(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per byte k of a mask of ids: the sum of ``values`` of the ids in each byte value."""
    out = []
    for k in range(0, len(values), 8):
        chunk = values[k : k + 8]
        sums = [0] * 256
        for b in range(1, 256):
            low = (b & -b).bit_length() - 1
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


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return t[:i] + (v,) + t[i + 1 :]


def _add(points: tuple[tuple[int, ...], ...], p: int, part: int, amount: int) -> tuple[tuple[int, ...], ...]:
    row = points[p]
    return points[:p] + (row[:part] + (row[part] + amount,) + row[part + 1 :],) + points[p + 1 :]


ENGINE = StockEngine()
"""The stock engine, as the registry finds it."""
