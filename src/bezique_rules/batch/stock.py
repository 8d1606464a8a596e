"""Batched stock games: the two-hand presets ``bezique`` and ``bezique-match``.

The tables it reads, built once per rule set from the rule set's parts, are
`bezique_rules.batch.stocktables`; this module is the step that reads them per state.

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

import attrs
import numpy as np
import numpy.typing as npt

from ..rules.ruleset import RuleSet
from .core import BatchState, BoolArray, Fields, IntArray, cell, unpack_cards, unpack_words
from .shuffle import seeded_orders
from .stocktables import (
    _CARTE,
    _DECLARE,
    _EXCHANGE,
    _MELD,
    _PACKS,
    _PASS,
    _PLAY,
    _PLAYERS,
    U64,
    Int8,
    MeldComponent,
    StockBatchTables,
    stock_batch_tables,
)

__all__ = ["MeldComponent", "StockBatch", "StockBatchTables", "new_stock"]

# stages
PLAY, DECLARE, PLAYOFF, OVER = range(4)


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
        carte_id = t.compiled.index.carte_id
        if carte_id >= 0:
            _set_bits(words, idx[stock & ((self.shown[idx] >> p) & 1 == 1)], carte_id)
        if t.compiled.declaring.dix_any_time:
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
        rows = np.flatnonzero(_melds_open(t, melds_done, exchanged))
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
                if t.dix.methods != "score_only"
                else np.zeros(rows.size, bool)
            )
            exchange = can_exchange
            if t.dix.no_meld_when_exchanging:
                exchange = exchange & (melds_done[rows] == 0)
            _set_bits(words, deals[exchange], t.exchange_ids[dix_face[exchange]])
            declare = ~can_exchange if t.dix.methods == "exchange_only" else np.ones(rows.size, bool)
            _set_bits(words, deals[declare], t.declare_ids[dix_face[declare]])

    def _meld_words(self, width: int, idx: IntArray, p: IntArray, trump: IntArray) -> U64 | None:
        """uint64[width, m]: the legal melds of the deals ``idx`` as mask words (one row a
        word), or None when none has a meld to declare."""
        t = self.tables
        seat = cell(idx, p, _PLAYERS)
        held = self.hands.reshape(-1).take(seat)
        tab = self.tabled.reshape(-1).take(seat)
        if not t.dix.exchange_card_usable_same_trick:
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

    def _advance(self, s: Fields, actions: IntArray) -> StockBatch:
        t = self.tables
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
    declaring, scoring = t.compiled.declaring, t.compiled.scoring
    if declaring.score_on_play:
        sevens = (stage == PLAY) & ((bit & t.dix_mask[trump] & ~s["scored"][idx]) != 0)
        if sevens.any():
            r = idx[sevens]
            s.w("scored")[r] |= bit[sevens]
            s.w("scores")[r, p[sevens]] += declaring.dix_points
    if t.compiled.index.carte_id >= 0:
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
    if scoring.immediate:
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
            if scoring.last_at_final:
                s.w("scores")[e, we] += scoring.last_bonus
            if not scoring.immediate:
                s.w("scores")[e] += t.rounded[_card_points(t, s["won"][e])]
            _finish(s, e)
    st = r[~playoff]
    if st.size:
        w = winner[~playoff]
        left = t.stock_pos.size - s["drawn"][st].astype(np.intp) + (s["turn_up"][st] >= 0)
        last = left <= _PLAYERS
        if not scoring.last_at_final:
            s.w("scores")[st[last], w[last]] += scoring.last_bonus
        declares = ~last | scoring.declare_on_last
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
    melds_open = _melds_open(t, s["melds_done"][idx], s["exchanged"][idx])
    trump = s["trump"][idx].astype(np.intp)
    played = s["won"][idx, 0] | s["won"][idx, 1]
    sevens = ~s["seven_done"][idx] & ((t.dix_mask[trump] & ~s["scored"][idx] & ~played) != 0)
    _after_draw(s, t, idx[~(melds_open | sevens)])


def _melds_open(t: StockBatchTables, melds_done: Int8, exchanged: Int8) -> BoolArray:
    """Whether the trick's winner may still meld, per deal: under the meld limit
    (`DeclarationTables.meld_limit`), and no exchange on this trick where the dix rule forbids
    both (`DixRule.no_meld_when_exchanging`)."""
    limit = t.compiled.declaring.meld_limit
    melds_open: BoolArray = melds_done < limit if limit else np.ones(melds_done.shape, bool)
    if t.dix.no_meld_when_exchanging:
        melds_open &= exchanged < 0
    return melds_open


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
    s.w("scores")[idx, p] += t.compiled.declaring.dix_points
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
    if not t.dix.exchange_card_usable_same_trick:
        ex = s["exchanged"][idx].astype(np.intp)
        free = np.where(ex >= 0, free & ~t.card_bit[np.maximum(ex, 0)], free)
    usage = s["usage"].reshape(-1)
    member = s["member"].reshape(-1)
    c = s["usage"].shape[1]
    chosen = np.zeros(idx.size, np.uint64)
    picks = []
    for j in range(t.slots.face.shape[1]):
        f = t.slots.face[a, j].astype(np.intp)
        lo = cell(idx, f, c)
        hi = lo + nf
        # the least used copy, then the one in the earlier melds, then the lower id (`melds._usage`)
        prefer_hi = (usage.take(hi) < usage.take(lo)) | (
            (usage.take(hi) == usage.take(lo)) & (member.take(hi) < member.take(lo))
        )
        pick = np.zeros(idx.size, np.uint64)
        for place, need in ((free & ~tab, t.slots.hand[a, j]), (free & tab, t.slots.table[a, j])):
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
    if t.compiled.index.carte_id >= 0:
        court = np.uint64(t.compiled.declaring.court_mask)
        for q in range(_PLAYERS):
            shown |= np.where(hands[:, q] & court == 0, 1 << q, 0).astype(np.int8)
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
