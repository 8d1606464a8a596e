"""The shared bit helpers (`bezique_rules.bits`) against their plain definitions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bezique_rules.bits import bit_ids, fold_copies, iter_bits, lowest_bit, single_bits, spread_faces


@given(st.integers(1, 40), st.integers(1, 9), st.data())
def test_fold_copies_is_the_union_of_every_copy(faces: int, packs: int, data: st.DataObject) -> None:
    """Bit f of the fold is set when any copy of face f is held, for every number of packs
    (two packs by one shift, more by halving)."""
    mask = data.draw(st.integers(0, (1 << faces * packs) - 1))
    low = (1 << faces) - 1
    expected = 0
    for copy in range(packs):
        expected |= (mask >> copy * faces) & low
    assert fold_copies(mask, faces, packs) == expected
    assert fold_copies(spread_faces(expected, faces, packs), faces, packs) == expected


@given(st.integers(0, (1 << 130) - 1))
def test_bit_walks_agree(mask: int) -> None:
    """`bit_ids`, `iter_bits`, `single_bits` and `lowest_bit` read the same set bits, lowest first."""
    ids = [i for i in range(mask.bit_length()) if mask >> i & 1]
    assert bit_ids(mask) == list(iter_bits(mask)) == ids
    assert single_bits(mask) == [1 << i for i in ids]
    assert lowest_bit(mask) == (ids[0] if ids else -1)
