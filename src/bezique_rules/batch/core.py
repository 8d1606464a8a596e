"""`BatchState` (what every batched engine provides), `new` and `random_actions`."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from ..actions import ActionKind
from ..api import new_deal
from ..errors import IllegalActionError, RuleCode
from ..parts.tricks import TrickPolicy
from ..rules.ruleset import RuleSet
from ..state.deal import DealState

__all__ = ["BatchState", "DeckTables", "random_actions"]

BoolArray = npt.NDArray[np.bool_]
Steps = tuple[npt.NDArray[np.signedinteger[Any]], ...]
IntArray = npt.NDArray[np.integer[Any]]


@attrs.frozen(eq=False, kw_only=True)
class DeckTables:
    """The lookup tables every batched engine reads from a rule set's deck, deal, trump
    tables and action space (C cards, P players, H cards a hand), built by `deck_tables`;
    an engine's tables (`EuchreBatchTables`, `StockBatchTables`) add their own."""

    card_bit: npt.NDArray[np.uint64]
    """uint64[C]: card -> its bit in a hand mask."""
    power: npt.NDArray[np.int16]
    """int16[4, C, C]: trumps -> led card -> each card's power in that trick (0: cannot win)."""
    pass_id: int
    """The id of ``pass``."""
    dealt: npt.NDArray[np.intp]
    """intp[P, P, H]: dealer -> seat -> the deck positions of the cards dealt to him."""
    turn_pos: int
    """Where the turn-up lies in the deck order (-1 for none)."""
    stock_pos: npt.NDArray[np.intp]
    """intp[S]: the deck positions of the cards left after the deal, top first."""


def deck_tables(rules: RuleSet) -> dict[str, Any]:
    """The `DeckTables` fields of ``rules``, as keywords for an engine's tables."""
    c = rules.deck.size
    players = rules.players
    dealt = np.zeros((players, players, rules.deal.hand_size), np.intp)
    turn_pos = -1
    stock_pos: tuple[int, ...] = ()
    for dealer in range(players):
        hands, _widow, turn_pos, stock_pos = rules.deal.deal(tuple(range(c)), players, dealer)
        for seat, mask in enumerate(hands):
            dealt[dealer, seat] = [pos for pos in range(c) if (mask >> pos) & 1]
    return {
        "card_bit": np.left_shift(np.uint64(1), np.arange(c, dtype=np.uint64)),
        "power": np.array([rules.trump_tables[t].lead_powers() for t in range(4)], np.int16),
        "pass_id": rules.action_id("pass"),
        "dealt": dealt,
        "turn_pos": turn_pos,
        "stock_pos": np.array(stock_pos, np.intp),
    }


def kind_codes(*kinds: ActionKind) -> tuple[int, ...]:
    """``kinds`` as plain ints, for a batch engine's step code: numpy compares an array with an
    int about four times faster than with an `ActionKind` member (an `enum.IntEnum`)."""
    return tuple(int(kind) for kind in kinds)


def duty_tiers(rules: RuleSet, policy: TrickPolicy, max_tiers: int) -> npt.NDArray[np.uint64]:
    """uint64[4, C, max_tiers]: trumps -> led card -> a follower's duty under ``policy`` as tiers
    of cards, probed from `TrickPolicy.legal`: what it allows from the whole pack, then from what
    is left, until it allows everything (he plays from the first tier he holds a card of, else
    any card; unused tiers are 0)."""
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


@attrs.frozen(eq=False)
class BatchState:
    """N deals of one rule set advancing in lockstep: a struct of arrays, one row per deal.

    Immutable: `step` returns a new state and never writes into this one's arrays (treat
    them as read-only). Every engine's state has these fields; an engine adds its own
    (see `EuchreBatch`).
    """

    rules: RuleSet
    """The rule set every deal follows."""
    dealer: int
    """The dealer's seat, the same in every deal (default the last seat, as `new_deal`)."""
    seeds: npt.NDArray[np.int64]
    """int64[N]: the shuffle seed of each deal (`new_deal`'s ``seed``)."""
    current_player: npt.NDArray[np.int8]
    """int8[N]: who acts next in each deal, -1 when the deal is over."""
    done: npt.NDArray[np.bool_]
    """bool[N]: whether each deal is over."""
    scores: npt.NDArray[np.int32]
    """int32[N, sides]: points of each deal per side (per player without partnerships),
    as `DealState.scores`."""
    steps: tuple[npt.NDArray[np.signedinteger[Any]], ...]
    """The action ids of every step so far, one array of N per step (int8; int16 when a rule
    set numbers over 127 actions), -1 for the deals already over: a step adds one array and
    shares the others with the state it came from (see `history`)."""
    moves: npt.NDArray[np.int16]
    """int16[N]: how many actions each deal has taken (its used part of `history`)."""

    @property
    def history(self) -> npt.NDArray[np.signedinteger[Any]]:
        """int8[N, H] (int16 when a rule set numbers over 127 actions): the action ids taken
        in each deal, in order, H the number of steps so far (-1 after a deal's last action)."""
        if not self.steps:
            return np.empty((self.size, 0), history_dtype(self.rules))
        return np.stack(self.steps, axis=1)

    @property
    def size(self) -> int:
        """How many deals (N)."""
        return int(self.seeds.shape[0])

    def __len__(self) -> int:
        return self.size

    def legal_mask(self) -> BoolArray:
        """bool[N, rules.num_actions]: True where the action id is legal in that deal
        (a finished deal's row is all False). Ids are the scalar engine's (`RuleSet.action_id`)."""
        raise NotImplementedError

    def legal_words(self) -> npt.NDArray[np.uint64]:
        """uint64[N, W]: `legal_mask` as bits, id ``a`` at bit ``a % 64`` of word ``a // 64``
        (W = ``ceil(rules.num_actions / 64)``; the bits past the last id are 0). An engine
        that builds its mask as words returns them without the boolean round trip (what
        ``random_actions(state, rng)`` reads); this default packs `legal_mask`."""
        return _packed_rows(self.legal_mask()).view("<u8")

    def _word_rows(self) -> npt.NDArray[np.uint64]:
        """uint64[W, N]: `legal_words` transposed, one C-contiguous row a word: the layout
        `random_actions` reads (a word of every deal is one whole row). An engine that
        builds its words can build them in this layout directly (no transposing copy)."""
        return np.ascontiguousarray(self.legal_words().T)

    def _advance(self, s: Fields, actions: IntArray) -> BatchState:
        """The engine's part of a step: fill ``s`` (the next state's fields, from
        `_next_fields`) for ``actions`` (one id per deal, 0 for the deals over) and build the
        next state from it."""
        raise NotImplementedError

    def step(self, actions: npt.ArrayLike, *, check: bool = True) -> BatchState:
        """The states after one action id per deal (ignored for finished deals).

        Args:
            actions: N action ids (``rules.action_id``), one per deal.
            check: verify each action against `legal_mask` first; ``False`` is the fast
                path for ids taken from the mask (an illegal id then gives an undefined
                state, never an exception).

        Raises:
            IllegalActionError: (``check=True``) an id that is not legal in its deal; the
                message names the deal and the action.
        """
        ids = np.asarray(actions)
        if ids.shape != (self.size,) or not np.issubdtype(ids.dtype, np.integer):
            raise IllegalActionError(
                f"step takes one integer action id per deal ({self.size}), not {actions!r}",
                rule=RuleCode.NOT_AN_ACTION,
                action=actions,
            )
        ids = ids.astype(np.int64, copy=False)
        live = ~self.done
        if check:
            bad_range = live & ((ids < 0) | (ids >= self.rules.num_actions))
            if bad_range.any():
                i = int(np.flatnonzero(bad_range)[0])
                raise IllegalActionError(
                    f"deal {i}: no action of {self.rules.name!r} has id {int(ids[i])}",
                    rule=RuleCode.NOT_AN_ACTION,
                    action=int(ids[i]),
                )
            ok = _word_bits(self.legal_words(), np.where(live, ids, 0))
            bad = live & ~ok
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                a = self.rules.action_from_id(int(ids[i]))
                raise IllegalActionError(
                    f"deal {i}: {str(a)!r} (id {int(ids[i])}) is not legal for player "
                    f"{int(self.current_player[i])} (see to_state({i}).check for the rule)",
                    rule=RuleCode.NOT_AN_ACTION,
                    action=a,
                    player=int(self.current_player[i]),
                )
        ids = np.where(live, ids, 0)
        s = self._next_fields(ids)
        return self if s is None else self._advance(s, ids)

    def to_state(self, i: int) -> DealState:
        """The scalar `DealState` of deal ``i``: its seed's deal replayed through `new_deal`
        and `DealState.apply` with the ids of its `history`.

        Raises:
            IndexError: no deal ``i``.
        """
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not -self.size <= i < self.size:
            raise IndexError(f"no deal {i!r} in a batch of {self.size}")
        state = new_deal(self.rules, seed=int(self.seeds[i]), dealer=self.dealer)
        for column in self.steps[: int(self.moves[i])]:
            state = state.apply(int(column[i]))
        return state

    def _next_fields(self, actions: IntArray) -> Fields | None:
        """The fields of the state after ``actions`` as a step starts building it (`Fields`):
        this state's arrays with `steps` and `moves` already taken; None when every deal is
        over (the step gives this state back)."""
        live = np.flatnonzero(~self.done)
        if live.size == 0:
            return None
        s = Fields({f.name: getattr(self, f.name) for f in attrs.fields(type(self))})
        column = np.full(self.size, -1, history_dtype(self.rules))
        column[live] = actions[live]
        moves = self.moves.copy()
        moves[live] += 1
        s["steps"] = self.steps + (column,)
        s["moves"] = moves
        s.copied.add("moves")
        return s


def history_dtype(rules: RuleSet) -> type[np.signedinteger[Any]]:
    """The integer type of a rule set's action ids in `BatchState.steps`."""
    return np.int8 if rules.num_actions <= 127 else np.int16


class Fields(dict[str, Any]):
    """The fields of the next state while a step builds it: this state's arrays, each copied
    the first time the step writes into it (`w`), so that a step never writes into the
    state it came from."""

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.copied: set[str] = set()

    def w(self, name: str) -> Any:
        """The array ``name``, writable (a copy of the old state's)."""
        if name not in self.copied:
            self.copied.add(name)
            self[name] = self[name].copy()
        return self[name]

    def flat(self, name: str) -> Any:
        """The array ``name``, writable (as `w`), as one flat view: with `cell` indices a
        step writes (``flat(name)[cells] = ...``) several times faster than with numpy's
        pair of index arrays (``a[idx, p] = ...``). `w` gives a C-contiguous copy, so the
        view writes through."""
        return self.w(name).reshape(-1)


def cell(idx: IntArray, col: IntArray | int, width: int) -> IntArray:
    """The flat positions of the cells (``idx[i]``, ``col[i]``) of a C-contiguous N x width
    array: reading them with ``a.reshape(-1).take(cells)`` and writing them through
    `Fields.flat` is several times faster than indexing with two arrays (``a[idx, col]``)."""
    out: IntArray = idx * width + col
    return out


def unpack_cards(masks: npt.NDArray[np.uint64], size: int) -> BoolArray:
    """bool[..., size]: the bits of hand masks (uint64), card 0 first."""
    masks = np.asarray(masks)
    raw = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
    bits: BoolArray = np.unpackbits(raw, axis=1, count=size, bitorder="little").view(bool)
    return bits.reshape(*masks.shape, size)


_SELECT8: npt.NDArray[np.uint8] = np.array(
    [([x for x in range(8) if b >> x & 1] + [0] * 8)[:8] for b in range(256)], np.uint8
).reshape(-1)
"""uint8[256 * 8]: byte * 8 + k -> the position of the byte's k-th set bit (0 past the last)."""


_L8 = np.uint64(0x0101010101010101)
_H8 = np.uint64(0x8080808080808080)
_SWAR = tuple(np.uint64(x) for x in (0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F))


def unpack_words(words: npt.NDArray[np.uint64], size: int) -> BoolArray:
    """bool[N, size]: the bits of N rows of 64-bit words, bit ``a % 64`` of word ``a // 64``
    as column ``a``: the first ``size`` columns of the whole unpacked words (a view whose
    rows are whole words apart, which `random_actions` packs again in one pass)."""
    raw = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    bits: BoolArray = np.unpackbits(raw, axis=1, bitorder="little").view(bool)[:, :size]
    return bits


def _packed_rows(mask: BoolArray) -> npt.NDArray[np.uint8]:
    """uint8[N, 8 * W]: the rows of ``mask`` (N x A) as bits, padded to whole 64-bit words.

    Packing a flat array is several times faster than packing along the rows, so a mask
    whose rows are whole bytes is packed flat; so is a mask that is the first columns of
    a C-contiguous array of whole-word rows (what `unpack_words` gives): its array is packed
    and the bits past column A cleared.
    """
    n, a = mask.shape
    width = -(-a // 64)
    base = mask.base
    if a % 8 == 0 and mask.flags.c_contiguous:
        packed = np.packbits(mask.reshape(-1), bitorder="little").reshape(n, a // 8)
    elif (
        isinstance(base, np.ndarray)
        and base.ndim == 2
        and base.itemsize == 1
        and base.flags.c_contiguous
        and base.shape[0] == n
        and base.shape[1] == 64 * width
        and mask.strides == (base.shape[1], 1)
        and mask.ctypes.data == base.ctypes.data
    ):
        packed = np.packbits(base.reshape(-1), bitorder="little").reshape(n, 8 * width)
        packed[:, a // 8] &= np.uint8((1 << (a % 8)) - 1)
        packed[:, a // 8 + 1 :] = 0
        return packed
    else:
        packed = np.packbits(mask, axis=1, bitorder="little")
    if packed.shape[1] == 8 * width:
        return packed
    whole = np.zeros((n, 8 * width), np.uint8)
    whole[:, : packed.shape[1]] = packed
    return whole


def _word_bits(words: npt.NDArray[np.uint64], ids: IntArray) -> BoolArray:
    """bool[N]: whether bit ``ids[i]`` of row i of ``words`` (N x W, `BatchState.legal_words`)
    is set: the legality of one id per deal read from the packed mask, without unpacking it."""
    ids = np.asarray(ids, np.int64)
    word = words.reshape(-1).take(np.arange(ids.size) * words.shape[1] + (ids >> 6))
    out: BoolArray = (word >> (ids & 63).astype(np.uint64)) & np.uint64(1) == 1
    return out


def random_actions(legal: BoolArray | BatchState, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One legal action id per deal, uniformly at random (0 for a deal with none).

    ``legal`` is a legal mask (bool, N x A, as `BatchState.legal_mask` gives) or the state
    itself: then its packed mask (`BatchState.legal_words`) is read directly, without the
    N x A booleans (the fast path for random playouts: unpacking `bezique`'s 1,102 ids a
    deal into booleans and packing them again is more than half of a step's time). Both give
    the same ids for the same generator state.

    One uniform number per row picks the k-th legal id. The mask is read as 64-bit words:
    running totals of their set bits find the word holding the k-th id; inside it, the
    running totals of its bytes (counted in the word itself, 8 bytes at once) find the
    byte, and a table the bit.

    >>> import numpy as np
    >>> random_actions(np.array([[False, True, True], [False, False, True]]), np.random.default_rng(1)).tolist()[1]
    2
    """
    if isinstance(legal, BatchState):
        word_rows = legal._word_rows()
    else:
        word_rows = np.ascontiguousarray(_packed_rows(legal).view("<u8").T)  # width x N
    return _draw(word_rows, rng)


def _draw(word_rows: npt.NDArray[np.uint64], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One set bit per deal of ``word_rows`` (W x N: `BatchState._word_rows`), uniformly at
    random, as ``64 * word + bit`` (0 for a deal without one): `random_actions` on the
    packed mask."""
    width, n = word_rows.shape
    u = rng.random(n)
    if width == 1:
        word = word_rows[0]
        word_at: IntArray = np.zeros(n, np.int64)
        total = np.bitwise_count(word).astype(np.int64)
        k = (u * total).astype(np.int64)  # the k-th legal id, from 0
    else:
        rows = np.arange(n)
        counts = np.bitwise_count(word_rows).astype(np.int16)  # width x N, row by row
        before = np.empty_like(counts)  # running counts over the words, row by row (numpy's
        np.copyto(before[0], counts[0])  # running sums along the first axis are slow)
        for w in range(1, width):
            np.add(before[w - 1], counts[w], out=before[w])
        total = before[-1].astype(np.int64)
        k = (u * total).astype(np.int64)
        below = (before <= k.astype(np.int16)).sum(axis=0, dtype=np.int16)  # the words before it
        word_at = np.minimum(below, width - 1).astype(np.int64)  # the word holding it
        flat = word_at * n + rows
        k -= (before.reshape(-1).take(flat) - counts.reshape(-1).take(flat)).astype(np.int64)  # its rank there
        word = word_rows.reshape(-1).take(flat)
    # byte i of ``upto``: the set bits of the word's bytes 0..i (broadword counting)
    m1, m2, m4 = _SWAR
    c = word - ((word >> np.uint64(1)) & m1)
    c = (c & m2) + ((c >> np.uint64(2)) & m2)
    upto = (((c + (c >> np.uint64(4))) & m4) * _L8).astype(np.uint64)
    ku = k.astype(np.uint64)
    # the bytes whose running count is at most k (each byte: k + 128 - count keeps its top bit)
    byte = np.minimum(np.bitwise_count(((ku * _L8) | _H8) - upto & _H8), 7).astype(np.uint64)
    shift = np.uint64(8) * byte
    k -= ((upto << np.uint64(8)) >> shift & np.uint64(0xFF)).astype(np.int64)  # its rank in that byte
    octet = (word >> shift & np.uint64(0xFF)).astype(np.intp)
    bit = _SELECT8.take(octet * 8 + k)
    out: npt.NDArray[np.int64] = np.where(total > 0, word_at * 64 + shift.astype(np.int64) + bit, 0)
    return out
