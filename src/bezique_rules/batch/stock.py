"""Batched stock games: the two-hand presets ``bezique`` and ``bezique-match``.

The tables are read from the rule set's parts: the deck and its deal pattern, the trump
tables (lead powers), the trick policies of the stock and the play-off (their duties
as tiers of cards, probed from `TrickPolicy.legal`), the meld table and its instances
per trump, the meld rules (`reuse_blocks`: which earlier declarations keep a card out of
a kind, by the reuse rules), the trump seven (`DixRule`), the card points and the action space.

The declaration rules in array form: under the quick rules (`quick_rules`: ``new_card_rule`` as
``"every_meld"``, no ``double_after_two_singles``) a meld named by faces and places (hand or table) is legal when,
for each face, enough copies that no earlier declaration of the player blocks for its
kind lie in each place, and one comes from the concealed hand. A player's state for
one kind is thus, per face, how many such copies he holds concealed and tabled; the melds
of a kind that share faces (a *component*: the four aces, a suit's marriage, the
bezique) look their legal actions up in one table indexed by those counts. The phase
sequencing restates the scalar stock engine's (`bezique_rules.engine.stock`); the
differential test (``tests/test_batch_stock.py``) keeps the two equal.
"""

from __future__ import annotations

import itertools
from typing import cast

import attrs
import numpy as np
import numpy.typing as npt

from ..actions import ActionKind
from ..engine.stock import StockTables
from ..errors import OptionError
from ..lazy import built_once_per_key
from ..melds import quick_rules, reuse_blocks
from ..rules.ruleset import RuleSet
from ..scoring import StockBonuses
from ..tricks import PlayDuty
from .core import BatchState, BoolArray, DeckTables, Fields, IntArray, cell, deck_tables, unpack_cards, unpack_words
from .shuffle import seeded_orders

__all__ = ["MeldComponent", "StockBatch", "StockBatchTables", "new_stock"]

# stages
PLAY, DECLARE, PLAYOFF, OVER = range(4)
# action kinds read in the step code: `ActionKind` values as plain ints (numpy compares an array
# with an int four times faster than with an enum member)
_PLAY = int(ActionKind.PLAY)
_MELD = int(ActionKind.MELD)
_EXCHANGE = int(ActionKind.EXCHANGE)
_DECLARE = int(ActionKind.DECLARE)
_CARTE = int(ActionKind.CARTE_BLANCHE)
_PASS = int(ActionKind.PASS)
_KINDS = (_PLAY, _MELD, _EXCHANGE, _DECLARE, _CARTE, _PASS)
"""The kinds of action the batch stock engine plays."""
_PLAYERS = 2
_PACKS = 2
_STATES = (_PACKS + 1) * (_PACKS + 2) // 2  # (concealed, tabled) copy counts of a face: 6 with two packs

Int8 = npt.NDArray[np.int8]
U64 = npt.NDArray[np.uint64]


@attrs.frozen(eq=False)
class MeldComponent:
    """The melds of one kind that share faces (the four aces, a suit's marriage, the
    bezique), with their legal actions looked up by the copies a player may use."""

    kind: int
    """The meld kind's index in the meld table."""
    faces: npt.NDArray[np.intp]
    """intp[r]: the faces its melds use."""
    ids: npt.NDArray[np.intp]
    """intp[m]: its action ids (each names faces and places)."""
    first: int
    """``ids[0]`` when the ids are contiguous (``first`` to ``first + m``), else -1."""
    valid: BoolArray
    """bool[4]: trump suit -> whether its melds are melds with these trumps."""
    table: BoolArray
    """bool[S ** r, m]: the state of its faces (per face, the code of the copies the player
    may use concealed and tabled, `StockBatchTables.code`, face 0 least significant) ->
    the legal ids."""
    first_word: int
    """The first 64-bit word of the legal mask (`StockBatch.legal_words`) that its ids use."""
    words: U64
    """uint64[S ** r, w]: `table` as bits of the mask's words ``first_word`` to
    ``first_word + w``."""
    word_rows: U64
    """uint64[w, S ** r]: `words` transposed (one row per mask word, read whole)."""


@attrs.frozen(eq=False)
class StockBatchTables(DeckTables):
    """Lookup tables of one stock-game rule set (C cards, F faces, A actions, K meld kinds)."""

    kind: Int8
    """int8[A]: what each action id does (an `ActionKind`: play, meld, exchange, declare, carte
    blanche, pass), from `ActionIndex.meanings`."""
    face: Int8
    """int8[A]: the face it names (plays, the seven's exchange and declaration), else -1."""
    star: BoolArray
    """bool[A]: a play of a card lying on the table."""
    meld_kind: Int8
    """int8[A]: the meld kind of a meld, else -1."""
    slot_face: Int8
    """int8[A, J]: a meld's faces (padded with 0)."""
    slot_hand: Int8
    """int8[A, J]: how many copies of each come from the concealed hand."""
    slot_table: Int8
    """int8[A, J]: how many from the table."""
    meld_points: npt.NDArray[np.int32]
    """int32[K]: what each kind scores."""
    blocks: BoolArray
    """bool[K, K]: kind of an earlier declaration -> the kinds that may not reuse its cards."""
    components: tuple[MeldComponent, ...]
    """The meld components."""
    pair_kind: npt.NDArray[np.intp]
    """intp[Q]: the (kind, face) pairs the components read: their kinds."""
    pair_bits: U64
    """uint64[Q]: their faces' copies."""
    pair_weights: npt.NDArray[np.uint16]
    """uint16[Q]: ``S ** i`` for a pair that is its component's i-th face: a component's
    state is the sum of its pairs' codes (`code`) times these (the pairs of a component are
    consecutive)."""
    pair_spans: tuple[tuple[int, int], ...]
    """Each component's pairs: ``range(*span)``."""
    component_valid: npt.NDArray[np.uint16]
    """uint16[M, 4]: component -> trumps -> 1 where its melds are melds with these trumps."""
    code: npt.NDArray[np.intp]
    """intp[P + 1, P + 1]: (copies concealed, copies tabled) -> a state code, 0 for none."""
    face_bits: U64
    """uint64[F]: face -> the mask of its copies."""
    face_of_card: npt.NDArray[np.intp]
    """intp[C]: card -> its face."""
    hand_ids: npt.NDArray[np.intp]
    """intp[F]: face -> the id of playing it from the concealed hand."""
    table_ids: npt.NDArray[np.intp]
    """intp[F]: face -> the id of playing it from the table."""
    plays_interleaved: bool
    """The play ids are ``2 * face`` (concealed) and ``2 * face + 1`` (tabled)."""
    carte_id: int
    """The id of the carte blanche, -1 without it."""
    carte_points: int
    """What a carte blanche scores."""
    court_mask: int
    """The kings, queens and jacks (a hand without them may show a carte blanche)."""
    exchange_ids: npt.NDArray[np.intp]
    """intp[F]: the seven's face -> the id of exchanging it (-1 none)."""
    declare_ids: npt.NDArray[np.intp]
    """intp[F]: the seven's face -> the id of declaring it (-1 none)."""
    dix_face: npt.NDArray[np.intp]
    """intp[4]: trumps -> the face of the trump seven (-1 none)."""
    dix_mask: U64
    """uint64[4]: trumps -> the trump sevens."""
    dix_points: int
    """What the trump seven scores (0 without one)."""
    has_dix: bool
    """Whether the rule set has a trump seven."""
    methods: str
    """`DixRule.methods`."""
    score_on_play: bool
    """An unscored trump seven played in the stock phase scores."""
    any_time: bool
    """The trump seven may be declared on one's turn to play."""
    exchange_usable: bool
    """The card taken in an exchange may join a meld on the same trick."""
    no_meld_when_exchanging: bool
    """No meld and exchange on the same trick."""
    tiers: U64
    """uint64[T, 2 * 4 * C]: tier -> (play-off?, trumps, led card), as one flat index -> the
    follower's duty as tiers: he plays from the first tier he holds a card of, else any
    card (one whole row a tier, read with `take`)."""
    value_masks: U64
    """uint64[V]: the cards worth each nonzero card value."""
    values: npt.NDArray[np.int32]
    """int32[V]: those values."""
    card_values: npt.NDArray[np.int32]
    """int32[C]: card points per card."""
    rounded: npt.NDArray[np.int32]
    """int32[T + 1]: card points won -> as they count."""
    immediate: bool
    """Card points count at once (else at the end of the hand)."""
    last_bonus: int
    """The bonus for the last trick."""
    last_at_final: bool
    """The bonus goes to the last trick of the deal (else the last stock trick)."""
    declare_on_last: bool
    """The winner of the last stock trick declares."""
    meld_limit: int
    """Melds per trick won (0: no limit)."""
    suit_of: Int8
    """int8[C]: card -> its suit."""
    turned_sevens: int
    """The mask of the cards that score for the dealer when turned up (0 when none do)."""
    turned_points: int
    """What such a turned-up card scores."""


SUPPORTED = "it supports: euchre, british-euchre, euchre-openspiel, bezique, bezique-match, pinochle"
"""What `bezique_rules.batch.new` plays, for its refusals."""


def _refuse(rules: RuleSet, what: str) -> OptionError:
    return OptionError(f"the batch engine does not support {what} ({rules.name!r})")


def supports(rules: RuleSet) -> None:
    """`OptionError` naming the variant or the option unless the batch stock engine plays
    ``rules`` exactly: two players, two packs, a turn-up and a trump seven / dix, no cut, no
    deal result, no marriage that fixes trumps, play duties read as tiers, the quick
    declaration rules (`quick_rules`)."""
    stock = rules.stock
    meld_rules = rules.meld_rules
    if (
        rules.players != _PLAYERS
        or rules.deck.packs != _PACKS
        or rules.deck.size > 64
        or stock.cut_guess is not None
        or stock.result is not None
        or not rules.deal.turn_up
        or stock.dix is None
        or stock.dix.score_on_play_in_playoff
        or stock.carte_blanche_repeat
        or stock.bonuses != StockBonuses()
        or meld_rules.reform_after_play
        or meld_rules.reuse != "classes"
        or any(k.fixes_trump for k in rules.melds.kinds)
        or rules.stock_policy.duty not in _DUTIES
        or rules.playoff_policy.duty not in _DUTIES
    ):
        raise OptionError(f"the batch engine does not support {rules.name!r} yet; {SUPPORTED}")
    if stock.pending_declarations:
        raise _refuse(rules, "pending_declarations=True")
    if meld_rules.new_card_rule != "every_meld":
        raise _refuse(rules, f"new_card_rule={meld_rules.new_card_rule!r}; use 'every_meld'")
    if meld_rules.double_after_two_singles:
        raise _refuse(rules, "double_after_two_singles=True")
    if not quick_rules(meld_rules):  # pragma: no cover - every other reason is named above
        raise _refuse(rules, "these meld rules")


_DUTIES = (PlayDuty.FREE, PlayDuty.FOLLOW_ONLY, PlayDuty.FOLLOW_BEAT_OR_TRUMP, PlayDuty.FOLLOW_BEAT_IF_TRUMP_LED)


def _tiers(rules: RuleSet, playoff: bool, max_tiers: int = 3) -> U64:
    """The duty of a follower as tiers, probed from the policy: what it allows from the
    whole pack, then from what is left, until it allows everything."""
    policy = rules.playoff_policy if playoff else rules.stock_policy
    c = rules.deck.size
    out = np.zeros((4, c, max_tiers), np.uint64)
    full = rules.deck.full_mask
    for t in range(4):
        table = rules.trump_tables[t]
        for led in range(c):
            rest = full & ~(1 << led)
            for k in range(max_tiers + 1):
                ok = policy.legal(table, rest, (led,))
                if ok == rest:
                    break
                assert k < max_tiers, "a duty of more tiers than the batch engine reads"
                out[t, led, k] = ok
                rest &= ~ok
    return out


def _components(rules: RuleSet, a: int, meld_kind: Int8, slot_face: Int8, slot_hand: Int8,
                slot_table: Int8, has_hand: BoolArray) -> tuple[MeldComponent, ...]:  # fmt: skip
    """The meld components: per kind, its instances joined where they share a face."""
    instances: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for i in range(a):
        k = int(meld_kind[i])
        if k < 0:
            continue
        used: list[int] = []
        for j in range(slot_face.shape[1]):
            used += [int(slot_face[i, j])] * int(slot_hand[i, j] + slot_table[i, j])
        instances.setdefault((k, tuple(sorted(used))), []).append(i)
    valid = np.zeros((4, a), bool)
    for t in range(4):
        for key in rules.meld_instances[t]:
            for i in instances.get(key, []):
                valid[t, i] = True
    groups: list[tuple[int, set[int], list[int]]] = []
    for (k, inst_faces), inst_ids in instances.items():
        mine = [g for g in groups if g[0] == k and g[1] & set(inst_faces)]
        merged = (k, set(inst_faces), list(inst_ids))
        for g in mine:
            groups.remove(g)
            merged[1].update(g[1])
            merged[2].extend(g[2])
        groups.append(merged)
    states = [(h, t) for h in range(_PACKS + 1) for t in range(_PACKS + 1 - h)]  # code order: (0, 0) first
    out = []
    for k, face_set, id_list in sorted(groups, key=lambda g: min(g[2])):
        ids = np.array(sorted(id_list), np.intp)
        faces_arr = np.array(sorted(face_set), np.intp)
        r = len(faces_arr)
        combos = np.array(list(itertools.product(range(_STATES), repeat=r)), np.intp)[:, ::-1]  # face 0 fastest
        hand_n = np.array([s[0] for s in states])[combos]  # S^r x r
        table_n = np.array([s[1] for s in states])[combos]
        need_hand = np.zeros((ids.size, r), np.int8)
        need_table = np.zeros((ids.size, r), np.int8)
        for col, i in enumerate(ids):
            for j in range(slot_face.shape[1]):
                if slot_hand[i, j] + slot_table[i, j]:
                    f = int(np.flatnonzero(faces_arr == slot_face[i, j])[0])
                    need_hand[col, f] = slot_hand[i, j]
                    need_table[col, f] = slot_table[i, j]
        ok = ((hand_n[:, None, :] >= need_hand[None]) & (table_n[:, None, :] >= need_table[None])).all(axis=2)
        ok &= has_hand[ids][None, :]
        per_trump = valid[:, ids]
        if not (per_trump.all(axis=1) | ~per_trump.any(axis=1)).all():  # pragma: no cover - no such table
            raise OptionError(f"the batch engine does not support this meld table ({rules.name!r})")
        contiguous = bool((ids == ids[0] + np.arange(ids.size)).all())
        first_word = int(ids.min()) // 64
        bits = np.zeros((ok.shape[0], int(ids.max()) // 64 - first_word + 1), np.uint64)
        for col, i in enumerate(ids.tolist()):
            bits[ok[:, col], i // 64 - first_word] |= np.uint64(1 << (i % 64))
        out.append(
            MeldComponent(k, faces_arr, ids, int(ids[0]) if contiguous else -1, per_trump[:, 0].copy(), ok,
                          first_word, bits, np.ascontiguousarray(bits.T))
        )  # fmt: skip
    return tuple(out)


@built_once_per_key(8)
def stock_batch_tables(rules: RuleSet) -> StockBatchTables:
    """The lookup tables of ``rules`` (a rule set is a value: equal rule sets share them): the
    stock engine's compiled tables (`StockTables`) as arrays, and the array-only encodings (meld
    components, follow tiers, card-value masks)."""
    supports(rules)
    compiled = cast(StockTables, rules.tables)
    index, declaring = compiled.index, compiled.declaring
    deck = rules.deck
    c = deck.size
    nf = deck.num_faces
    meanings = index.meanings
    a = len(meanings)
    table = rules.melds
    kinds = table.kinds
    slots = max(len(set(faces)) for _k, faces in table.all_instances(deck))
    columns = compiled.action_table
    kind = np.asarray(columns.kind, np.int8)
    if not np.isin(kind, _KINDS).all():
        other = int(np.flatnonzero(~np.isin(kind, _KINDS))[0])
        raise _refuse(rules, f"the action {str(compiled.actions.actions[other])!r}")
    face = np.asarray(columns.face, np.int8)
    star = np.asarray(columns.from_table, bool)
    meld_kind = np.asarray(columns.meld_kind, np.int8)
    slot_face = np.zeros((a, slots), np.int8)
    slot_hand = np.zeros((a, slots), np.int8)
    slot_table = np.zeros((a, slots), np.int8)
    for i in np.flatnonzero(kind == ActionKind.MELD).tolist():
        for j, f in enumerate(sorted({f for f, _on_table in meanings[i].key})):
            slot_face[i, j] = f
            for g, on_table in meanings[i].key:
                if g == f:
                    if on_table:
                        slot_table[i, j] += 1
                    else:
                        slot_hand[i, j] += 1
    has_hand: BoolArray = np.asarray((slot_hand > 0).any(axis=1))
    blocks = np.zeros((len(kinds), len(kinds)), bool)
    for k, row in enumerate(reuse_blocks(table, rules.meld_rules)):
        blocks[k, list(row)] = True
    code = np.zeros((_PACKS + 1, _PACKS + 1), np.intp)
    states = [(h, t) for h in range(_PACKS + 1) for t in range(_PACKS + 1 - h)]
    for n, (h, t) in enumerate(states):
        code[h, t] = n
    hand_ids = np.full(nf, -1, np.intp)
    table_ids = np.full(nf, -1, np.intp)
    play = np.flatnonzero(kind == ActionKind.PLAY)
    hand_ids[face[play[~star[play]]]] = play[~star[play]]
    table_ids[face[play[star[play]]]] = play[star[play]]
    dix = rules.stock.dix
    assert dix is not None  # supports() checked it
    dix_face = np.asarray(declaring.dix_faces, np.intp)
    face_bits = np.array(deck.face_masks, np.uint64)
    by_trick = np.stack([_tiers(rules, False), _tiers(rules, True)])  # 2 x 4 x C x T
    tiers = np.ascontiguousarray(by_trick.reshape(-1, by_trick.shape[3]).T)
    card_values = np.array(compiled.scoring.card_values, np.int32)
    values = sorted(set(card_values.tolist()) - {0})
    value_masks = np.array([sum(1 << x for x in range(c) if card_values[x] == v) for v in values], np.uint64)
    total = int(card_values.sum())
    rounded = np.array([rules.card_points.rounded(x) for x in range(total + 1)], np.int32)
    components = _components(rules, a, meld_kind, slot_face, slot_hand, slot_table, has_hand)
    pair_kind = np.array([comp.kind for comp in components for _f in comp.faces], np.intp)
    pair_face = [int(f) for comp in components for f in comp.faces]
    weights = np.array([_STATES**i for comp in components for i in range(comp.faces.size)], np.intp)
    if any(_STATES**comp.faces.size > 1 << 16 for comp in components):  # pragma: no cover - no such table
        raise OptionError(f"the batch engine does not support this meld table ({rules.name!r})")
    if code.tolist() != [[0, 1, 2], [3, 4, 0], [5, 0, 0]]:  # pragma: no cover - _meld_mask computes these codes
        raise OptionError(f"the batch engine does not support this meld table ({rules.name!r})")
    ends = np.cumsum([comp.faces.size for comp in components]).tolist()
    pair_spans = tuple((end - comp.faces.size, end) for comp, end in zip(components, ends))
    turned = sum(1 << x for x, card in enumerate(deck.cards) if card.rank is dix.rank) if dix.turned_up_scores else 0
    return StockBatchTables(
        kind=kind,
        face=face,
        star=star,
        meld_kind=meld_kind,
        slot_face=slot_face,
        slot_hand=slot_hand,
        slot_table=slot_table,
        meld_points=np.array([k.points for k in kinds], np.int32),
        blocks=blocks,
        components=components,
        pair_kind=pair_kind,
        pair_bits=face_bits[pair_face],
        pair_weights=weights.astype(np.uint16),
        pair_spans=pair_spans,
        component_valid=np.array([comp.valid for comp in components], np.uint16),
        code=code,
        face_bits=face_bits,
        face_of_card=np.array(deck.face_of, np.intp),
        hand_ids=hand_ids,
        table_ids=table_ids,
        plays_interleaved=bool((hand_ids == 2 * np.arange(nf)).all() and (table_ids == hand_ids + 1).all()),
        carte_id=index.carte_id,
        carte_points=rules.stock.carte_blanche,
        court_mask=declaring.court_mask,
        exchange_ids=np.asarray(index.exchange_ids, np.intp),
        declare_ids=np.asarray(index.declare_ids, np.intp),
        dix_face=dix_face,
        dix_mask=np.asarray(declaring.dix_masks[:4], np.uint64),
        dix_points=declaring.dix_points,
        has_dix=True,
        methods=dix.methods,
        score_on_play=declaring.score_on_play,
        any_time=declaring.dix_any_time,
        exchange_usable=dix.exchange_card_usable_same_trick,
        no_meld_when_exchanging=dix.no_meld_when_exchanging,
        tiers=tiers,
        value_masks=value_masks,
        values=np.array(values, np.int32),
        card_values=card_values,
        rounded=rounded,
        immediate=compiled.scoring.immediate,
        last_bonus=compiled.scoring.last_bonus,
        last_at_final=compiled.scoring.last_at_final,
        declare_on_last=compiled.scoring.declare_on_last,
        meld_limit=declaring.meld_limit,
        suit_of=np.array([card.suit.value if card.suit else -1 for card in deck.cards], np.int8),
        turned_sevens=turned,
        turned_points=dix.points if dix.turned_up_points is None else dix.turned_up_points,
        **deck_tables(rules),
    )


@attrs.frozen(eq=False)
class StockBatch(BatchState):
    """N deals of a stock game (C <= 64 cards, two players): the fields of `BatchState`,
    then these, one row per deal."""

    tables: StockBatchTables
    """The rule set's lookup tables (shared by every state of the batch)."""
    stage: Int8
    """int8[N]: 0 a trick of the stock phase, 1 the trick winner declares, 2 the play-off, 3 over."""
    hands: U64
    """uint64[N, 2]: each player's cards (concealed and tabled), bit ``x`` for card ``x``."""
    tabled: U64
    """uint64[N, 2]: the held cards lying face up in melds."""
    won: U64
    """uint64[N, 2]: the cards each player won in tricks."""
    stock: Int8
    """int8[N, S]: the stock, top first (`drawn` of it are gone)."""
    drawn: Int8
    """int8[N]: how many stock cards were drawn."""
    turn_up: Int8
    """int8[N]: the turn-up (drawn last), -1 once drawn."""
    trump: Int8
    """int8[N]: the trump suit."""
    leader: Int8
    """int8[N]: who led the current trick."""
    lead: Int8
    """int8[N]: the card led to the current trick, -1 before."""
    scored: U64
    """uint64[N]: the trump sevens that have scored."""
    melds_done: Int8
    """int8[N]: melds declared on this trick."""
    seven_done: BoolArray
    """bool[N]: a seven action was taken on this trick."""
    exchanged: Int8
    """int8[N]: the card taken in exchange for the seven on this trick, -1 for none."""
    shown: Int8
    """int8[N]: bit p: player p may show a carte blanche now."""
    blocked: U64
    """uint64[N, 2, K]: per player and meld kind, the cards his earlier declarations keep out of it."""
    usage: npt.NDArray[np.uint8]
    """uint8[N, C]: how many declarations each card is in."""
    member: U64
    """uint64[N, C]: which declarations each card is in (bit ``i``: the deal's ``i``-th), the
    scalar engine's public order between two copies in as many melds (`melds._usage`)."""
    declared: Int8
    """int8[N]: declarations so far in the deal."""

    def legal_mask(self) -> BoolArray:
        """bool[N, rules.num_actions]: True where the action id is legal in that deal."""
        return unpack_words(self.legal_words(), self.rules.num_actions)

    def legal_words(self) -> U64:
        """uint64[N, W]: the legal mask as bits, id ``a`` at bit ``a % 64`` of word ``a // 64``
        (`legal_mask` unpacks them)."""
        return self._fill_words(np.zeros((self.size, -(-self.rules.num_actions // 64)), np.uint64))

    def _word_rows(self) -> U64:
        rows = np.zeros((-(-self.rules.num_actions // 64), self.size), np.uint64)
        self._fill_words(rows.T)
        return rows

    def _fill_words(self, words: U64) -> U64:
        """``words`` (zero, N x W, C- or F-contiguous) with the legal mask's bits."""
        stage = self.stage
        player = self.current_player.astype(np.intp)
        trick = np.flatnonzero((stage == PLAY) | (stage == PLAYOFF))
        if trick.size:
            self._play_mask(words, trick, player[trick])
        idx = np.flatnonzero(stage == DECLARE)
        if idx.size:
            self._declare_mask(words, idx, player[idx])
        return words

    def _play_mask(self, words: U64, idx: IntArray, p: IntArray) -> None:
        t = self.tables
        nf = t.face_bits.shape[0]
        seat = cell(idx, p, _PLAYERS)
        hand = self.hands.reshape(-1).take(seat)
        tab = self.tabled.reshape(-1).take(seat)
        lead = self.lead[idx].astype(np.intp)
        trump = self.trump[idx].astype(np.intp)
        playoff = (self.stage[idx] == PLAYOFF).astype(np.intp)
        trick = cell(cell(playoff, trump, 4), np.maximum(lead, 0), t.card_bit.shape[0])
        playable = np.zeros_like(hand)
        for tier in t.tiers:
            playable = np.where(playable == 0, hand & tier.take(trick), playable)
        playable = np.where((lead < 0) | (playable == 0), hand, playable)
        concealed = _faces(playable & ~tab, nf)
        on_table = _faces(playable & tab, nf)
        every = idx.size == words.shape[0]  # every deal plays (most steps): whole columns, no gathering
        if t.plays_interleaved:  # bit 2f: face f from the hand, bit 2f + 1: from the table (word 0)
            plays = _spread(concealed) | (_spread(on_table) << np.uint64(1))
            if every:
                words[:, 0] = plays
            else:  # the rows of idx are still zero: one flat write
                flat, at = _word_cells(words, idx, 0)
                flat[at] = plays
        else:
            _set_columns(words, idx, t.hand_ids, unpack_cards(concealed, nf))
            _set_columns(words, idx, t.table_ids, unpack_cards(on_table, nf))
        stock = self.stage[idx] == PLAY
        if t.carte_id >= 0:
            _set_bits(words, idx[stock & ((self.shown[idx] >> p) & 1 == 1)], t.carte_id)
        if t.any_time:
            seven = stock & ((hand & t.dix_mask[trump] & ~self.scored[idx]) != 0)
            _set_bits(words, idx[seven], t.declare_ids[t.dix_face[trump[seven]]])

    def _declare_mask(self, words: U64, idx: IntArray, p: IntArray) -> None:
        """The rows ``idx`` (deals in the declaration) of ``words`` (still zero): the melds
        written as whole rows, then the pass and the trump seven's bits."""
        t = self.tables
        hand = self.hands.reshape(-1).take(cell(idx, p, _PLAYERS))
        trump = self.trump[idx].astype(np.intp)
        melds_done = self.melds_done[idx]
        exchanged = self.exchanged[idx]
        melds_open = (melds_done < t.meld_limit) if t.meld_limit else np.ones(idx.size, bool)
        if t.no_meld_when_exchanging:
            melds_open &= exchanged < 0
        rows = np.flatnonzero(melds_open)
        if rows.size:
            deals = idx[rows] if rows.size < idx.size else idx
            block = self._meld_words(words.shape[1], deals, p[rows], trump[rows])
            if block is not None:
                _put_rows(words, deals, block)
        _set_bits(words, idx, t.pass_id)
        # the trump seven
        sevens = ~self.seven_done[idx] & ((hand & t.dix_mask[trump] & ~self.scored[idx]) != 0)
        rows = np.flatnonzero(sevens)
        if rows.size:
            deals = idx[rows]
            d = self.turn_up[deals].astype(np.intp)
            dix_face = t.dix_face[trump[rows]]
            can_exchange = (
                (d >= 0) & (t.face_of_card[np.maximum(d, 0)] != dix_face)
                if t.methods != "score_only"
                else np.zeros(rows.size, bool)
            )
            exchange = can_exchange
            if t.no_meld_when_exchanging:
                exchange = exchange & (melds_done[rows] == 0)
            _set_bits(words, deals[exchange], t.exchange_ids[dix_face[exchange]])
            declare = ~can_exchange if t.methods == "exchange_only" else np.ones(rows.size, bool)
            _set_bits(words, deals[declare], t.declare_ids[dix_face[declare]])

    def _meld_words(self, width: int, idx: IntArray, p: IntArray, trump: IntArray) -> U64 | None:
        """uint64[width, m]: the legal melds of the deals ``idx`` as mask words (one row a
        word), or None when none has a meld to declare."""
        t = self.tables
        seat = cell(idx, p, _PLAYERS)
        held = self.hands.reshape(-1).take(seat)
        tab = self.tabled.reshape(-1).take(seat)
        if not t.exchange_usable:
            ex = self.exchanged[idx].astype(np.intp)
            held = np.where(ex >= 0, held & ~t.card_bit[np.maximum(ex, 0)], held)
        # per (kind, face) pair that some meld needs: the copies the player may use, concealed
        # and tabled, as that pair's part of its component's state (pairs x deals: whole rows)
        kinds = self.blocked.shape[2]
        usable = np.ascontiguousarray(self.blocked.reshape(-1, kinds).take(seat, axis=0).T)  # K x m: whole rows
        np.bitwise_not(usable, out=usable)
        usable &= held
        free = usable.take(t.pair_kind, axis=0)  # Q x m
        free &= t.pair_bits[:, None]
        concealed = np.bitwise_count(free)  # uint8: at most P copies
        free &= tab
        tabled = np.bitwise_count(free)
        concealed -= tabled
        # the code of (concealed, tabled) with P = 2: 3 * concealed + tabled, less one for two concealed
        code = concealed * np.uint8(_PACKS + 1)
        code += tabled
        code -= concealed >> np.uint8(1)
        parts = code * t.pair_weights[:, None]  # uint16: below S ** 5
        states = _component_states(parts, t.pair_spans)
        states *= t.component_valid.take(trump, axis=1)
        if not states.any():
            return None
        index = states.astype(np.intp)
        melds = np.zeros((width, idx.size), np.uint64)  # word by word: whole rows
        for c, comp in enumerate(t.components):  # each component's legal ids, as bits of its words
            for j, row in enumerate(comp.word_rows):
                melds[comp.first_word + j] |= row.take(index[c])
        return melds

    def _advance(self, actions: IntArray) -> StockBatch:
        t = self.tables
        s = Fields({f.name: getattr(self, f.name) for f in attrs.fields(StockBatch)})
        live = np.flatnonzero(~self.done)
        if live.size == 0:
            return self
        s["steps"], s["moves"] = self._taken(live, actions)
        s.copied.add("moves")
        kind = t.kind[actions]
        stage = self.stage
        trick = (stage == PLAY) | (stage == PLAYOFF)
        _play(s, t, np.flatnonzero(trick & (kind == _PLAY)), t.face[actions], t.star[actions])
        _carte(s, t, np.flatnonzero(trick & (kind == _CARTE)))
        _seven(s, t, np.flatnonzero(trick & (kind == _DECLARE)), exchange=False)
        declare = stage == DECLARE
        _after_draw(s, t, np.flatnonzero(declare & (kind == _PASS)))
        _meld(s, t, np.flatnonzero(declare & (kind == _MELD)), actions)
        _seven(s, t, np.flatnonzero(declare & (kind == _EXCHANGE)), exchange=True)
        _seven(s, t, np.flatnonzero(declare & (kind == _DECLARE)), exchange=False)
        return StockBatch(**s)


def _component_states(parts: npt.NDArray[np.uint16], spans: tuple[tuple[int, int], ...]) -> npt.NDArray[np.uint16]:
    """uint16[M, m]: each component's state, the sum of its pairs' rows of ``parts`` (Q x m,
    the pairs' codes times S ** i), as whole-row additions in uint16 (below S ** 5): about
    five times faster than numpy's reductions (`add.reduce` into another type, `reduceat`,
    running sums along the first axis)."""
    states = np.empty((len(spans), parts.shape[1]), np.uint16)
    for c, (first, end) in enumerate(spans):
        np.copyto(states[c], parts[first])
        for row in range(first + 1, end):
            states[c] += parts[row]
    return states


def _faces(masks: U64, nf: int) -> U64:
    """The faces of which some copy is in each mask (two packs: copy 1 of face f is card f + nf)."""
    folded: U64 = (masks | (masks >> np.uint64(nf))) & np.uint64((1 << nf) - 1)
    return folded


_SPREAD = tuple(
    (np.uint64(shift), np.uint64(magic))
    for shift, magic in (
        (16, 0x0000FFFF0000FFFF),
        (8, 0x00FF00FF00FF00FF),
        (4, 0x0F0F0F0F0F0F0F0F),
        (2, 0x3333333333333333),
        (1, 0x5555555555555555),
    )
)


def _spread(masks: U64) -> U64:
    """Bit i of each (32-bit) mask moved to bit 2i."""
    for shift, magic in _SPREAD:
        masks = (masks | (masks << shift)) & magic
    return masks


def _lowest(masks: U64) -> npt.NDArray[np.intp]:
    """The lowest card of each (nonzero) mask."""
    low = masks & (~masks + np.uint64(1))
    out: npt.NDArray[np.intp] = np.bitwise_count(low - np.uint64(1)).astype(np.intp)
    return out


def _set_bits(words: U64, rows: IntArray, ids: IntArray | int) -> None:
    """Set the bit of action id ``ids`` (one per row, or one for all) in each of ``rows``
    (distinct)."""
    ids = np.asarray(ids, np.intp)
    flat, at = _word_cells(words, rows, ids >> 6)
    flat[at] |= np.left_shift(np.uint64(1), (ids & 63).astype(np.uint64))


def _put_rows(words: U64, rows: IntArray, block: U64) -> None:
    """Rows ``rows`` of ``words`` (N x W) := ``block`` (W x m, one row a word). Into a
    word-major ``words`` (F-contiguous: `StockBatch._word_rows`) word by word, each a
    one-array write of a whole row: several times faster than ``words[rows] = block.T``."""
    if words.flags.f_contiguous and words.shape[1] > 1:
        for word, row in zip(block, words.T):
            row[rows] = word
    else:
        words[rows] = block.T


def _word_cells(words: U64, rows: IntArray, word: IntArray | int) -> tuple[U64, IntArray]:
    """``words`` (N x W, C- or F-contiguous: `StockBatch.legal_words`, `_word_rows`) as one
    flat view in memory order, and the positions of the cells (``rows[i]``, ``word[i]``)
    there: a write through them is several times faster than a two-array index."""
    flat: U64 = np.ravel(words, order="K")
    assert flat.base is words.base or flat.base is words, "a contiguous array"
    row_step, word_step = (stride // words.itemsize for stride in words.strides)
    at: IntArray = rows * row_step + np.asarray(word) * word_step
    return flat, at


def _set_columns(words: U64, rows: IntArray, ids: IntArray, bits: BoolArray) -> None:
    """Set the bits of action ids ``ids[j]`` where ``bits[:, j]`` (m x len(ids)) in each of ``rows``."""
    for j, a in enumerate(ids.tolist()):
        words[rows[bits[:, j]], a >> 6] |= np.uint64(1 << (a & 63))


def _finish(s: Fields, idx: IntArray) -> None:
    s.w("stage")[idx] = OVER
    s.w("current_player")[idx] = -1
    s.w("done")[idx] = True


def _card_points(t: StockBatchTables, won: U64) -> npt.NDArray[np.int32]:
    total = np.zeros(won.shape, np.int32)
    for mask, value in zip(t.value_masks, t.values):
        total += np.bitwise_count(won & mask).astype(np.int32) * value
    return total


def _play(s: Fields, t: StockBatchTables, idx: IntArray, face: Int8, star: BoolArray) -> None:
    if not idx.size:
        return
    nf = t.face_bits.shape[0]
    f = face[idx].astype(np.intp)
    from_table = star[idx]
    p = s["current_player"][idx].astype(np.intp)
    seat = cell(idx, p, _PLAYERS)
    hand = s["hands"].reshape(-1).take(seat)
    tab = s["tabled"].reshape(-1).take(seat)
    copies = hand & t.face_bits[f] & np.where(from_table, tab, ~tab)
    # from the hand a copy everybody has seen first (the scalar engine's `StockDeal._play`): of
    # the held cards known off the table in these presets (a taken turn-up, a declared seven)
    # only a declared seven can change what is legal later (it has scored)
    seen = copies & s["scored"][idx] & ~np.where(from_table, np.uint64(0), tab)
    pid = _lowest(np.where((seen != 0) & ~from_table, seen, copies))
    both = np.flatnonzero(from_table & ((copies & (copies - np.uint64(1))) != 0))
    if both.size:  # two tabled copies: the one in more melds, then in the earlier ones, then the lower id
        usage = s["usage"]
        member = s["member"].reshape(-1)
        lo = cell(idx[both], f[both], usage.shape[1])
        used_hi, used_lo = usage.reshape(-1).take(lo + nf), usage.reshape(-1).take(lo)
        more = (used_hi > used_lo) | ((used_hi == used_lo) & (member.take(lo + nf) < member.take(lo)))
        pid[both[more]] += nf
    bit = t.card_bit[pid]
    s.flat("hands")[seat] = hand & ~bit
    s.flat("tabled")[seat] = tab & ~bit
    stage = s["stage"][idx]
    trump = s["trump"][idx].astype(np.intp)
    if t.score_on_play:
        sevens = (stage == PLAY) & ((bit & t.dix_mask[trump] & ~s["scored"][idx]) != 0)
        if sevens.any():
            r = idx[sevens]
            s.w("scored")[r] |= bit[sevens]
            s.w("scores")[r, p[sevens]] += t.dix_points
    if t.carte_id >= 0:
        s.w("shown")[idx] = s["shown"][idx] & ~(1 << p).astype(np.int8)
    lead = s["lead"][idx].astype(np.intp)
    first = lead < 0
    r = idx[first]
    s.w("lead")[r] = pid[first]
    s.w("current_player")[r] = 1 - p[first]
    done = ~first
    if not done.any():
        return
    r = idx[done]
    led = lead[done]
    second = pid[done]
    tr = trump[done]
    c = t.card_bit.shape[0]
    pw = t.power.reshape(-1)
    beats = pw.take((tr * c + led) * c + second) > pw.take((tr * c + led) * c + led)
    winner = np.where(beats, p[done], s["leader"][r]).astype(np.intp)
    won = cell(r, winner, _PLAYERS)
    s.flat("won")[won] |= t.card_bit[led] | t.card_bit[second]
    if t.immediate:
        s.w("scores")[r, winner] += t.card_values[led] + t.card_values[second]
    s.w("lead")[r] = -1
    s.w("leader")[r] = winner
    s.w("current_player")[r] = winner
    playoff = stage[done] == PLAYOFF
    # the play-off: the next trick, or the end
    po = r[playoff]
    if po.size:
        w = winner[playoff]
        over = s["hands"][po, w] == 0
        e = po[over]
        if e.size:
            we = w[over]
            if t.last_at_final:
                s.w("scores")[e, we] += t.last_bonus
            if not t.immediate:
                s.w("scores")[e] += t.rounded[_card_points(t, s["won"][e])]
            _finish(s, e)
    st = r[~playoff]
    if st.size:
        w = winner[~playoff]
        left = t.stock_pos.size - s["drawn"][st].astype(np.intp) + (s["turn_up"][st] >= 0)
        last = left <= _PLAYERS
        if not t.last_at_final:
            s.w("scores")[st[last], w[last]] += t.last_bonus
        declares = ~last | t.declare_on_last
        d = st[declares]
        s.w("stage")[d] = DECLARE
        _after_draw(s, t, st[~declares])


def _after_draw(s: Fields, t: StockBatchTables, idx: IntArray) -> None:
    """The declarations end: the winner, then the other, draws; the winner leads."""
    if not idx.size:
        return
    size = t.stock_pos.size
    p = s["current_player"][idx].astype(np.intp)
    drawn = s["drawn"][idx].astype(np.intp)
    left = size - drawn
    turn_up = s["turn_up"][idx].astype(np.intp)
    stock = s["stock"].reshape(-1)
    top = stock.take(cell(idx, np.minimum(drawn, size - 1), size)).astype(np.intp)
    below = stock.take(cell(idx, np.minimum(drawn + 1, size - 1), size)).astype(np.intp)
    mine = np.where(left >= 1, top, turn_up)
    theirs = np.where(left >= 2, below, np.where(left == 1, turn_up, -1))
    hands = s.flat("hands")
    seat = cell(idx, p, _PLAYERS)
    hands[seat] |= np.where(mine >= 0, t.card_bit[np.maximum(mine, 0)], np.uint64(0))
    seat ^= 1  # the other player's
    hands[seat] |= np.where(theirs >= 0, t.card_bit[np.maximum(theirs, 0)], np.uint64(0))
    drawn = np.minimum(drawn + _PLAYERS, size)
    turn_up = np.where(left <= 1, -1, turn_up)
    s.w("drawn")[idx] = drawn
    s.w("turn_up")[idx] = turn_up
    over = (drawn >= size) & (turn_up < 0)
    s.w("stage")[idx] = np.where(over, PLAYOFF, PLAY)
    s.w("tabled")[idx[over]] = 0
    s.w("melds_done")[idx] = 0
    s.w("seven_done")[idx] = False
    s.w("exchanged")[idx] = -1


def _declared(s: Fields, t: StockBatchTables, idx: IntArray) -> None:
    """After a declaration the winner stays while the rules leave a meld or a seven open."""
    if not idx.size:
        return
    melds_open = (s["melds_done"][idx] < t.meld_limit) if t.meld_limit else np.ones(idx.size, bool)
    if t.no_meld_when_exchanging:
        melds_open &= s["exchanged"][idx] < 0
    trump = s["trump"][idx].astype(np.intp)
    played = s["won"][idx, 0] | s["won"][idx, 1]
    sevens = ~s["seven_done"][idx] & ((t.dix_mask[trump] & ~s["scored"][idx] & ~played) != 0)
    _after_draw(s, t, idx[~(melds_open | sevens)])


def _carte(s: Fields, t: StockBatchTables, idx: IntArray) -> None:
    if not idx.size:
        return
    p = s["current_player"][idx].astype(np.intp)
    s.w("scores")[idx, p] += t.carte_points
    s.w("shown")[idx] = s["shown"][idx] & ~(1 << p).astype(np.int8)


def _seven(s: Fields, t: StockBatchTables, idx: IntArray, *, exchange: bool) -> None:
    if not idx.size:
        return
    p = s["current_player"][idx].astype(np.intp)
    hand = s["hands"][idx, p]
    trump = s["trump"][idx].astype(np.intp)
    low = _lowest(hand & t.dix_mask[trump] & ~s["scored"][idx])
    bit = t.card_bit[low]
    s.w("scores")[idx, p] += t.dix_points
    s.w("scored")[idx] |= bit
    if exchange:
        old = s["turn_up"][idx].astype(np.intp)
        s.w("hands")[idx, p] = (hand & ~bit) | t.card_bit[old]
        s.w("turn_up")[idx] = low
        s.w("exchanged")[idx] = old
    declare = s["stage"][idx] == DECLARE
    d = idx[declare]
    s.w("seven_done")[d] = True
    _declared(s, t, d)


def _meld(s: Fields, t: StockBatchTables, idx: IntArray, actions: IntArray) -> None:
    if not idx.size:
        return
    nf = t.face_bits.shape[0]
    a = actions[idx]
    k = t.meld_kind[a].astype(np.intp)
    p = s["current_player"][idx].astype(np.intp)
    seat = cell(idx, p, _PLAYERS)
    held = s["hands"].reshape(-1).take(seat)
    tab = s["tabled"].reshape(-1).take(seat)
    kinds = t.blocks.shape[0]
    free = held & ~s["blocked"].reshape(-1).take(cell(seat, k, kinds))
    if not t.exchange_usable:
        ex = s["exchanged"][idx].astype(np.intp)
        free = np.where(ex >= 0, free & ~t.card_bit[np.maximum(ex, 0)], free)
    usage = s["usage"].reshape(-1)
    member = s["member"].reshape(-1)
    c = s["usage"].shape[1]
    chosen = np.zeros(idx.size, np.uint64)
    picks = []
    for j in range(t.slot_face.shape[1]):
        f = t.slot_face[a, j].astype(np.intp)
        lo = cell(idx, f, c)
        hi = lo + nf
        # the least used copy, then the one in the earlier melds, then the lower id (`melds._usage`)
        prefer_hi = (usage.take(hi) < usage.take(lo)) | (
            (usage.take(hi) == usage.take(lo)) & (member.take(hi) < member.take(lo))
        )
        pick = np.zeros(idx.size, np.uint64)
        for place, need in ((free & ~tab, t.slot_hand[a, j]), (free & tab, t.slot_table[a, j])):
            avail = place & t.face_bits[f]
            one = np.where((avail == t.face_bits[f]) & prefer_hi, t.card_bit[f + nf], avail & (~avail + np.uint64(1)))
            pick |= np.where(need >= 2, avail, np.where(need == 1, one, np.uint64(0)))
        chosen |= pick
        low = f.astype(np.uint64)
        picks.append((lo, pick >> low & np.uint64(1), pick >> (low + np.uint64(nf)) & np.uint64(1)))
    s.flat("tabled")[seat] = tab | chosen
    s.flat("scores")[seat] += t.meld_points[k]
    blocked = s.flat("blocked")
    blocked[cell(seat[:, None], np.arange(kinds), kinds)] |= np.where(t.blocks[k], chosen[:, None], np.uint64(0))
    usage = s.flat("usage")  # each chosen card is in one declaration more
    member = s.flat("member")  # ... and in this one
    declared = s["declared"][idx].astype(np.uint64)
    for lo, low_copy, high_copy in picks:
        usage[lo] += low_copy.astype(np.uint8)
        usage[lo + nf] += high_copy.astype(np.uint8)
        member[lo] |= low_copy << declared
        member[lo + nf] |= high_copy << declared
    s.w("declared")[idx] += 1
    s.w("melds_done")[idx] += 1
    _declared(s, t, idx)


def new_stock(rules: RuleSet, seeds: list[int], dealer: int) -> StockBatch:
    """N stock-game deals of ``rules``, one per seed (see `bezique_rules.batch.new`)."""
    t = stock_batch_tables(rules)
    n = len(seeds)
    c = rules.deck.size
    orders = seeded_orders(c, seeds)
    # every array C-contiguous: a step reads and writes them through flat views (`cell`)
    hands = np.ascontiguousarray(np.bitwise_or.reduce(t.card_bit[orders[:, t.dealt[dealer]]], axis=2))  # N x seat
    turn_up = orders[:, t.turn_pos]
    scores = np.zeros((n, _PLAYERS), np.int32)
    turned = ((np.uint64(t.turned_sevens) >> turn_up.astype(np.uint64)) & np.uint64(1)) == 1
    scores[turned, dealer] += t.turned_points
    scored = np.where(turned, t.card_bit[turn_up], np.uint64(0))
    shown = np.zeros(n, np.int8)
    if t.carte_id >= 0:
        for q in range(_PLAYERS):
            shown |= np.where(hands[:, q] & np.uint64(t.court_mask) == 0, 1 << q, 0).astype(np.int8)
    leader = (dealer + 1) % _PLAYERS

    def full(value: int, shape: tuple[int, ...] = (n,)) -> Int8:
        return np.full(shape, value, np.int8)

    return StockBatch(
        rules=rules,
        dealer=dealer,
        seeds=np.array(seeds, np.int64),
        current_player=full(leader),
        done=np.zeros(n, bool),
        scores=scores,
        steps=(),
        moves=np.zeros(n, np.int16),
        tables=t,
        stage=full(PLAY),
        hands=hands,
        tabled=np.zeros((n, _PLAYERS), np.uint64),
        won=np.zeros((n, _PLAYERS), np.uint64),
        stock=np.ascontiguousarray(orders[:, t.stock_pos], dtype=np.int8),
        drawn=full(0),
        turn_up=turn_up.astype(np.int8),
        trump=t.suit_of[turn_up],
        leader=full(leader),
        lead=full(-1),
        scored=scored,
        melds_done=full(0),
        seven_done=np.zeros(n, bool),
        exchanged=full(-1),
        shown=shown,
        blocked=np.zeros((n, _PLAYERS, len(rules.melds.kinds)), np.uint64),
        usage=np.zeros((n, c), np.uint8),
        member=np.zeros((n, c), np.uint64),
        declared=full(0),
    )
