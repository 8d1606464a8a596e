"""The stock heuristics' tables: what the heuristic reads per rule set (the meld instances per trump,
the faces each action uses, the keep values), built once per rule set from the stock engine's
compiled tables. The heuristic itself, which reads them per state, is `bezique_rules.agents.stockplay`."""

from __future__ import annotations

from typing import cast

import attrs

from ..bits import lowest_bit
from ..cards import Rank
from ..engine.stock import StockTables
from ..lazy import built_once_per_key
from ..parts.melds import face_needs, reuse_blocks
from ..parts.trumps import NO_TRUMP
from ..rules.ruleset import RuleSet

_TRUMP_INDICES = (0, 1, 2, 3, NO_TRUMP)
"""The trump suits, then no trump: the order of the per-trump tables (`NO_TRUMP` reads the last)."""


_ACE = Rank.ACE.value
_TEN = Rank.TEN.value


@attrs.frozen(eq=False)
class _Instance:
    """One meld instance under one trump: its kind, points, and the faces it needs."""

    kind: int
    points: int
    group: str
    needs: tuple[tuple[int, int], ...]  # (face, count)
    faces: int  # mask of the faces it uses
    phys: int  # mask of the physical copies of those faces


@attrs.frozen(eq=False)
class StockHeuristicTables:
    """Per-rule-set lookup tables for the stock heuristics (built once per rule set from the stock
    engine's compiled tables, `StockTables`)."""

    rules: RuleSet
    """The rule set."""
    compiled: StockTables
    """The stock engine's compiled tables, read for what they hold: what each action id does
    (``action_table``), the faces' copies (``index.face_masks``), the card points
    (``scoring.card_values``) and the dix faces (``declaring.dix_faces``)."""
    meld_faces: tuple[int, ...]
    """Per action id: the mask of faces of the meld."""
    n_star: tuple[int, ...]
    """Per action id: how many cards of the meld are already on the table."""
    rank: tuple[int, ...]
    """Per face: the rank value (0 = ace)."""
    suit: tuple[int, ...]
    """Per face: the suit index."""
    instances: tuple[tuple[_Instance, ...], ...]
    """Per trump index (`NO_TRUMP`: no trump): the meld instances."""
    by_face: tuple[tuple[tuple[int, ...], ...], ...]
    """Per trump index, per face: the indices of the instances using the face."""
    many: tuple[bool, ...]
    """Per kind: has many instances (count the best one only)."""
    groups: tuple[str, ...]
    """Per kind: its reuse group."""
    levels: tuple[int, ...]
    """Per kind: its level in its class."""
    classes: tuple[str, ...]
    """Per kind: its meld class."""
    kind_points: tuple[int, ...]
    """Per kind: its points."""
    beat_masks: tuple[tuple[int, ...], ...]
    """Per trump index (`NO_TRUMP`: no trump), per face: the physical cards that beat it."""
    weak_keep: tuple[tuple[float, ...], ...]
    """Per trump index (`NO_TRUMP`: no trump), per face: the weak heuristic's keep value."""
    static_meld: tuple[tuple[float, ...], ...]
    """Per trump index (`NO_TRUMP`: no trump), per face: its share of the points of every meld
    instance using it (at most 60)."""
    blocked_by: tuple[tuple[int, ...], ...]
    """Per kind: the kinds whose declared cards may not go into it (the same group, or the
    same class where the meld rules forbid the step up or down)."""
    upgrade_of: tuple[tuple[int, ...], ...]
    """Per kind: the lower kinds of its class whose declared cards it may reuse (a royal
    marriage grows into the sequence, a bezique into the double bezique)."""


@built_once_per_key(32)
def stock_tables(rules: RuleSet) -> StockHeuristicTables:
    """The tables of ``rules``: built once per rule set (equal rule sets share them), the 32
    most recently used kept."""
    return _build(rules)


def _build(rules: RuleSet) -> StockHeuristicTables:
    compiled = cast(StockTables, rules.tables)
    deck = rules.deck
    melds = rules.melds
    meld_faces = [0] * len(compiled.actions)
    n_star = [0] * len(compiled.actions)
    for i, meaning in enumerate(compiled.index.meanings):
        for f, on_table in meaning.key:
            meld_faces[i] |= 1 << f
            n_star[i] += on_table
    kinds = melds.kinds
    instances: list[tuple[_Instance, ...]] = []
    by_face: list[tuple[tuple[int, ...], ...]] = []
    counts_per_kind = [0] * len(kinds)
    for trump in _TRUMP_INDICES:
        insts = []
        for k, faces in rules.meld_instances[trump]:
            needs = face_needs(faces)
            fm = 0
            phys = 0
            for f, _copies in needs:
                fm |= 1 << f
                phys |= deck.face_masks[f]
            insts.append(_Instance(k, kinds[k].points, kinds[k].group, needs, fm, phys))
            if trump == 0:
                counts_per_kind[k] += 1
        instances.append(tuple(insts))
        per_face: list[list[int]] = [[] for _ in range(deck.num_faces)]
        for i, inst in enumerate(insts):
            for f, _n in inst.needs:
                per_face[f].append(i)
        by_face.append(tuple(tuple(x) for x in per_face))
    dix_face = compiled.declaring.dix_faces
    cards = deck.faces
    beat_masks = []
    for trump in _TRUMP_INDICES:
        table = rules.trump_tables[trump]
        masks = []
        for f in range(deck.num_faces):
            x = lowest_bit(deck.face_masks[f])
            masks.append(sum(1 << c for c in range(deck.size) if table.beats(c, x)))
        beat_masks.append(tuple(masks))
    weak_keep = []
    card_points = rules.card_values
    for trump in _TRUMP_INDICES:
        row: list[float] = []
        for f, card in enumerate(cards):
            x = lowest_bit(deck.face_masks[f])
            rank = card.rank.value
            v = 0.0
            if card.suit is not None and card.suit.value == trump:
                v += 9.0 + (6.0 if rank == _ACE else 4.0 if rank == _TEN else 1.0)
                if f == dix_face[trump]:
                    v += 10.0
            elif rank in (_ACE, _TEN):
                v += 4.0 + 0.6 * card_points[x]
            meld = 0.0
            for k, inst_faces in rules.meld_instances[trump]:
                if f in inst_faces:
                    meld += kinds[k].points / len(inst_faces)
            row.append(v + 0.1 * min(meld, 60.0))
        weak_keep.append(tuple(row))
    static_meld = tuple(
        tuple(
            min(60.0, sum(inst.points / max(1, sum(n for _f, n in inst.needs)) for inst in (insts[i] for i in uses)))
            for uses in face_uses
        )
        for insts, face_uses in zip(instances, by_face)
    )
    # the meld rules' reuse blocks (`reuse_blocks`, per declared kind), read per kind declared
    # now; with ``reuse="distinct_sets"`` (Marjolet) a declared card blocks no kind
    blocks = () if rules.meld_rules.reuse == "distinct_sets" else reuse_blocks(melds, rules.meld_rules)
    blocked_by = tuple(tuple(j for j, row in enumerate(blocks) if k in row) for k in range(len(kinds)))
    return StockHeuristicTables(
        rules=rules,
        compiled=compiled,
        meld_faces=tuple(meld_faces),
        n_star=tuple(n_star),
        rank=tuple(c.rank.value for c in cards),
        suit=tuple(c.suit.value if c.suit is not None else 4 for c in cards),
        instances=tuple(instances),
        by_face=tuple(by_face),
        many=tuple(n > 4 for n in counts_per_kind),
        groups=tuple(k.group for k in kinds),
        levels=tuple(k.level for k in kinds),
        classes=tuple(k.meld_class for k in kinds),
        kind_points=tuple(k.points for k in kinds),
        beat_masks=tuple(beat_masks),
        weak_keep=tuple(weak_keep),
        static_meld=static_meld,
        blocked_by=blocked_by,
        upgrade_of=tuple(
            tuple(
                j
                for j, other in enumerate(kinds)
                if k.meld_class
                and other.meld_class == k.meld_class
                and other.group != k.group
                and other.level < k.level
                and j not in blocked_by[i]
            )
            for i, k in enumerate(kinds)
        ),
    )
