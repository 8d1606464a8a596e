"""The auction games' lay-down: which melds a hand shows at once (`melds_fit`, `best_melds`)."""

from __future__ import annotations

from collections.abc import Sequence

from .kinds import MeldTable, _class_key

Laid = tuple[int, tuple[int, ...]]
"""A meld laid down at once: (kind index, face ids)."""


def melds_fit(table: MeldTable, laid: Sequence[Laid], counts: Sequence[int]) -> bool:
    """Whether the melds ``laid`` can be made together from a hand with ``counts`` of each
    face: a card may serve in melds of different classes, never twice in one class.

    >>> from bezique_rules import parse_cards
    >>> from bezique_rules.rules.pinochle import partnership_meld_table, PINOCHLE_DECK as deck
    >>> table = partnership_meld_table()
    >>> faces = lambda text: tuple(sorted(deck.face(c) for c in parse_cards(text)))
    >>> counts = [0] * deck.num_faces
    >>> for f in faces("KH QH KS KD KC"):
    ...     counts[f] += 1
    >>> marriage = (table.index("royal-marriage"), faces("KH QH"))
    >>> kings = (table.index("kings-around"), faces("KS KH KD KC"))
    >>> melds_fit(table, [marriage, kings], counts), melds_fit(table, [marriage, marriage], counts)
    (True, False)
    """
    demand: dict[tuple[str, int], int] = {}
    for kind_index, faces in laid:
        key = _class_key(table, kind_index)
        for f in faces:
            demand[(key, f)] = demand.get((key, f), 0) + 1
    return all(n <= counts[f] for (_key, f), n in demand.items())


def best_melds(
    table: MeldTable, instances: Sequence[tuple[int, tuple[int, ...]]], counts: Sequence[int]
) -> tuple[int, tuple[Laid, ...]]:
    """The highest-scoring combination of melds from a hand with ``counts`` of each face.

    Each class is solved on its own (a card may serve once per class): a small
    exhaustive search over how many times each candidate meld is laid.

    Returns:
        (points, the melds laid, sorted).
    """
    by_class: dict[str, list[tuple[int, tuple[int, ...], dict[int, int]]]] = {}
    for kind_index, faces in instances:
        need: dict[int, int] = {}
        for f in faces:
            need[f] = need.get(f, 0) + 1
        if all(counts[f] >= n for f, n in need.items()):
            by_class.setdefault(_class_key(table, kind_index), []).append((kind_index, faces, need))
    total = 0
    laid: list[Laid] = []
    for candidates in by_class.values():
        points, best = _best_in_class(table, candidates, list(counts))
        total += points
        laid.extend(best)
    return total, tuple(sorted(laid))


def _best_in_class(
    table: MeldTable, candidates: list[tuple[int, tuple[int, ...], dict[int, int]]], left: list[int]
) -> tuple[int, list[Laid]]:
    kinds = table.kinds
    best: tuple[int, list[Laid]] = (0, [])
    chosen: list[Laid] = []

    def search(i: int, points: int) -> None:
        nonlocal best
        if i == len(candidates):
            if points > best[0]:
                best = (points, list(chosen))
            return
        kind_index, faces, need = candidates[i]
        times = min(left[f] // n for f, n in need.items())
        for k in range(times, -1, -1):
            for f, n in need.items():
                left[f] -= n * k
            chosen.extend([(kind_index, faces)] * k)
            search(i + 1, points + k * kinds[kind_index].points)
            del chosen[len(chosen) - k :]
            for f, n in need.items():
                left[f] += n * k

    search(0, 0)
    return best
