"""The batched stock games' tables: what the batch stock engine reads per rule set, as arrays.

The tables are read from the rule set's parts: the deck and its deal pattern, the trump
tables (lead powers), the trick policies of the stock and the play-off (their duties
as tiers of cards, probed from `TrickPolicy.legal`), the meld table and its instances
per trump, the meld rules (`reuse_blocks`: which earlier declarations keep a card out of
a kind, by the reuse rules), the trump seven (`DixRule`), the card points and the action
space. Built once per rule set (`stock_batch_tables`); the step that reads them per state is
`bezique_rules.batch.stock`."""

from __future__ import annotations

import itertools
from typing import cast

import attrs
import numpy as np
import numpy.typing as npt

from ..actions import ActionKind
from ..engine.stock import ActionMeaning, StockTables
from ..errors import OptionError
from ..lazy import built_once_per_key
from ..parts.melds import quick_rules, reuse_blocks
from ..parts.stock import DixRule, StockBonuses
from ..parts.tricks import PlayDuty
from ..rules.ruleset import RuleSet
from .core import BoolArray, DeckTables, deck_tables, duty_tiers, kind_codes

__all__ = ["SUPPORTED", "MeldComponent", "MeldSlots", "StockBatchTables", "stock_batch_tables", "supports"]

_KINDS = kind_codes(
    ActionKind.PLAY, ActionKind.MELD, ActionKind.EXCHANGE, ActionKind.DECLARE, ActionKind.CARTE_BLANCHE, ActionKind.PASS
)
"""The kinds of action the batch stock engine plays (as plain ints, `kind_codes`)."""
_PLAY, _MELD, _EXCHANGE, _DECLARE, _CARTE, _PASS = _KINDS
_PLAYERS = 2
_PACKS = 2
_COPY_STATES = tuple((h, t) for h in range(_PACKS + 1) for t in range(_PACKS + 1 - h))
"""The (concealed, tabled) copy counts a player may hold of a face, in the order of their codes
(`StockBatchTables.code`): (0, 0) first."""
_STATES = len(_COPY_STATES)  # 6 with two packs

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
class MeldSlots:
    """The cards each meld action takes (A actions, J faces at most a meld): per slot, a face
    and how many of its copies come from the concealed hand and from the table (zeros pad)."""

    face: Int8
    """int8[A, J]: a meld's faces (padded with 0)."""
    hand: Int8
    """int8[A, J]: how many copies of each come from the concealed hand."""
    table: Int8
    """int8[A, J]: how many from the table."""

    @classmethod
    def of(cls, meanings: tuple[ActionMeaning, ...], width: int) -> MeldSlots:
        """The slots of the meld actions among ``meanings`` (the stock engine's `ActionIndex`),
        ``width`` slots each (the most faces a meld uses)."""
        face, hand, table = (np.zeros((len(meanings), width), np.int8) for _ in range(3))
        for i, meaning in enumerate(meanings):
            if meaning.kind is not ActionKind.MELD:
                continue
            for j, f in enumerate(sorted({f for f, _on_table in meaning.key})):
                face[i, j] = f
                for g, on_table in meaning.key:
                    if g == f:
                        (table if on_table else hand)[i, j] += 1
        return cls(face, hand, table)


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
    slots: MeldSlots
    """The cards each meld action takes, face by face."""
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
    carte_points: int
    """What a carte blanche scores."""
    exchange_ids: npt.NDArray[np.intp]
    """intp[F]: the seven's face -> the id of exchanging it (-1 none)."""
    declare_ids: npt.NDArray[np.intp]
    """intp[F]: the seven's face -> the id of declaring it (-1 none)."""
    dix_face: npt.NDArray[np.intp]
    """intp[4]: trumps -> the face of the trump seven (-1 none)."""
    dix_mask: U64
    """uint64[4]: trumps -> the trump sevens."""
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
    suit_of: Int8
    """int8[C]: card -> its suit."""
    turned_sevens: int
    """The mask of the cards that score for the dealer when turned up (0 when none do)."""
    turned_points: int
    """What such a turned-up card scores."""
    compiled: StockTables
    """The stock engine's compiled tables, read where no array is needed: the carte blanche's id
    (``index.carte_id``), the dix and the meld limit (``declaring``: ``court_mask``,
    ``dix_points``, ``score_on_play``, ``dix_any_time``, ``meld_limit``) and when card points
    count (``scoring``: ``immediate``, ``last_bonus``, ``last_at_final``, ``declare_on_last``)."""
    dix: DixRule
    """The trump seven / dix rule: its ``methods``, ``exchange_card_usable_same_trick`` and
    ``no_meld_when_exchanging``."""


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
    if meld_rules.copy_order != "melds":
        raise _refuse(rules, "copy_order='ids' (behaviour version 2)")
    if not quick_rules(meld_rules):  # pragma: no cover - every other reason is named above
        raise _refuse(rules, "these meld rules")


_DUTIES = (PlayDuty.FREE, PlayDuty.FOLLOW_ONLY, PlayDuty.FOLLOW_BEAT_OR_TRUMP, PlayDuty.FOLLOW_BEAT_IF_TRUMP_LED)


def _components(rules: RuleSet, meld_kind: Int8, slots: MeldSlots) -> tuple[MeldComponent, ...]:
    """The meld components: per kind, its instances joined where they share a face."""
    a = meld_kind.size
    slot_face, slot_hand, slot_table = slots.face, slots.hand, slots.table
    has_hand: BoolArray = np.asarray((slot_hand > 0).any(axis=1))
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
    out = []
    for k, face_set, id_list in sorted(groups, key=lambda g: min(g[2])):
        ids = np.array(sorted(id_list), np.intp)
        faces_arr = np.array(sorted(face_set), np.intp)
        r = len(faces_arr)
        combos = np.array(list(itertools.product(range(_STATES), repeat=r)), np.intp)[:, ::-1]  # face 0 fastest
        hand_n = np.array([s[0] for s in _COPY_STATES])[combos]  # S^r x r
        table_n = np.array([s[1] for s in _COPY_STATES])[combos]
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
    table = rules.melds
    kinds = table.kinds
    columns = compiled.action_table
    kind = np.asarray(columns.kind, np.int8)
    if not np.isin(kind, _KINDS).all():
        other = int(np.flatnonzero(~np.isin(kind, _KINDS))[0])
        raise _refuse(rules, f"the action {str(compiled.actions.actions[other])!r}")
    face = np.asarray(columns.face, np.int8)
    star = np.asarray(columns.from_table, bool)
    meld_kind = np.asarray(columns.meld_kind, np.int8)
    slots = MeldSlots.of(meanings, max(len(set(faces)) for _k, faces in table.all_instances(deck)))
    blocks = np.zeros((len(kinds), len(kinds)), bool)
    for k, row in enumerate(reuse_blocks(table, rules.meld_rules)):
        blocks[k, list(row)] = True
    code = np.zeros((_PACKS + 1, _PACKS + 1), np.intp)
    for n, (h, t) in enumerate(_COPY_STATES):
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
    policies = (rules.stock_policy, rules.playoff_policy)
    by_trick = np.stack([duty_tiers(rules, policy, 3) for policy in policies])  # 2 x 4 x C x T
    tiers = np.ascontiguousarray(by_trick.reshape(-1, by_trick.shape[3]).T)
    card_values = np.array(compiled.scoring.card_values, np.int32)
    values = sorted(set(card_values.tolist()) - {0})
    value_masks = np.array([sum(1 << x for x in range(c) if card_values[x] == v) for v in values], np.uint64)
    total = int(card_values.sum())
    rounded = np.array([rules.card_points.rounded(x) for x in range(total + 1)], np.int32)
    components = _components(rules, meld_kind, slots)
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
        slots=slots,
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
        carte_points=rules.stock.carte_blanche,
        exchange_ids=np.asarray(index.exchange_ids, np.intp),
        declare_ids=np.asarray(index.declare_ids, np.intp),
        dix_face=dix_face,
        dix_mask=np.asarray(declaring.dix_masks[:4], np.uint64),
        tiers=tiers,
        value_masks=value_masks,
        values=np.array(values, np.int32),
        card_values=card_values,
        rounded=rounded,
        suit_of=np.array([card.suit.value if card.suit else -1 for card in deck.cards], np.int8),
        turned_sevens=turned,
        turned_points=dix.points_turned_up,
        compiled=compiled,
        dix=dix,
        **deck_tables(rules),
    )
