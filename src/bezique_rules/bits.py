"""Bit helpers for card masks: the few idioms the library uses, named once.

A set of physical cards is an ``int`` with one bit per physical id (see `bezique_rules.deck`):
bit ``copy * faces + face``. These helpers are the only place the bit tricks are spelled out;
engines, rule parts and agents call them instead of inlining ``(m & -m).bit_length() - 1``.

>>> lowest_bit(0b10100)
2
>>> list(iter_bits(0b10110))
[1, 2, 4]
>>> fold_copies(0b0110_0001, faces=4, packs=2)  # ids 0, 5, 6 -> faces 0, 1, 2
7
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["bit_ids", "fold_copies", "iter_bits", "lowest_bit", "single_bits", "spread_faces"]


def lowest_bit(mask: int) -> int:
    """The index of the lowest set bit of ``mask``, or -1 for an empty mask.

    >>> lowest_bit(0b1000), lowest_bit(0)
    (3, -1)
    """
    return (mask & -mask).bit_length() - 1


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> list(iter_bits(0b1001))
    [0, 3]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_ids(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` as a list, lowest first (the hot-path form of
    `iter_bits`).

    >>> bit_ids(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def single_bits(mask: int) -> list[int]:
    """The one-bit masks of the set bits of ``mask``, lowest first.

    >>> single_bits(0b10110)
    [2, 4, 16]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def fold_copies(mask: int, faces: int, packs: int) -> int:
    """The faces present in ``mask``: bit ``f`` is set when any copy of face ``f`` is.

    >>> fold_copies(0b1000_0001, faces=4, packs=2)  # face 0 (copy 0) and face 3 (copy 1)
    9
    """
    low = (1 << faces) - 1
    if packs == 2:  # the usual deck (Bezique, Pinochle): one shift
        return (mask | mask >> faces) & low
    while packs > 1:  # fold the upper half of the copies onto the lower half (rounded up)
        packs = (packs + 1) // 2
        mask |= mask >> (packs * faces)
    return mask & low


def spread_faces(face_mask: int, faces: int, packs: int) -> int:
    """Every physical copy of the faces in ``face_mask`` (the inverse direction of `fold_copies`).

    >>> spread_faces(0b0101, faces=4, packs=2)
    85
    """
    out = 0
    for copy in range(packs):
        out |= face_mask << (copy * faces)
    return out
