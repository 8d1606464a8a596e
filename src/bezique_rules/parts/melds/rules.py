"""The declaration rules (`MeldRules`): options of a rule set, and the pure judgement of one
declaration (`MeldRules.refusal`). The trump seven / dix, a stock-game part, is
`bezique_rules.parts.stock.DixRule`."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ...bits import iter_bits
from ...errors import RuleCode
from .kinds import CopyOrder, CrossClassReuse, Declaration, MeldKind, MeldReuse, MeldTable, NewCardRule, _class_key


@attrs.frozen
class MeldRules:
    """The declaration rules with their options."""

    new_card_rule: NewCardRule = "every_meld"
    """The new-card rule: ``"every_meld"`` (each meld needs a card from the concealed hand) or
    ``"same_class_only"`` (a card not yet used in a meld of the same class)."""
    double_after_two_singles: bool = False
    """A meld made only of intact lower melds of its class (two single beziques
    → double bezique) is allowed despite the new-card rule."""
    reform_after_play: bool = False
    """Multi-pack: once a card of a scored meld is played, its other cards may form
    that kind again."""
    upgrade_classes: frozenset[str] = frozenset({"A", "B", "C"})
    """Classes in which a card may be reused in a higher meld."""
    downgrade_classes: frozenset[str] = frozenset()
    """Classes in which a card of a higher meld may be reused in a lower one (the no-downgrade rule lifted)."""
    cross_class_reuse: CrossClassReuse = "any"
    """A card of an earlier meld may join a meld of another class whatever it scores
    (``"any"``), or only a meld that scores more than the earlier one (``"higher_only"``,
    the Japanese Wikipedia article: a king of a marriage may join four kings, a king of four kings may not
    later marry)."""
    rescore_groups: frozenset[str] = frozenset()
    """The same-kind rule (a card scores once per kind) lifted in these groups for a second
    meld made half of cards already scored in the group and half of new ones, face by face
    (three- and four-hand Bezique, Britannica 9th ed.: "a second double bezique, counting
    500, may be declared to a bezique on the table, which has already been used for double
    bezique": one Q♠ and one J♦ reused, one of each new)."""
    copy_order: CopyOrder = "melds"
    """Which of two copies in as many earlier melds the engine takes first (`CopyOrder`)."""
    reuse: MeldReuse = "classes"
    """``"classes"``: the reuse rules above; ``"distinct_sets"``
    (Marjolet): a melded card stays free for any later meld, even one made only of
    cards already on the table, and the only refusal is the exact same set of cards melded
    a second time (the reuse rules and the options above do not apply)."""

    def refusal(
        self,
        table: MeldTable,
        kind_index: int,
        cards: int,
        concealed: int,
        held: int,
        history: Sequence[Declaration],
        face_of: Sequence[int] = (),
    ) -> tuple[RuleCode, str] | None:
        """Why declaring ``cards`` as ``table.kinds[kind_index]`` is illegal (None if legal).

        The most specific rule is reported first: a card scored twice in one
        kind, then down a class, then no new card.

        Args:
            table: the meld table.
            kind_index: the kind declared.
            cards: the physical cards of the declaration.
            concealed: the player's cards not lying on the table.
            held: every card the player holds.
            history: the player's earlier declarations.
            face_of: physical id -> face (`DeckSpec.face_of`), for `rescore_groups` (without
                it, only the number of reused cards is checked).
        """
        kinds = table.kinds
        kind = kinds[kind_index]
        if cards & ~held:
            return RuleCode.CARD_NOT_HELD, "every card of a meld must be held, none played"
        if self.reuse == "distinct_sets":
            if any(m == cards for _k, m in history):
                return RuleCode.MELD_CARD_REUSED, "the same set of cards may be melded only once"
            return None
        # R2: no card twice in one group.
        orphans = 0
        if self.reform_after_play:
            intact = [m for k, m in history if kinds[k].group == kind.group and m & held == m]
            in_intact = 0
            scored = 0
            for k, m in history:
                if kinds[k].group == kind.group:
                    scored |= m
            for m in intact:
                in_intact |= m
            orphans = cards & scored & ~in_intact  # cards of a scored meld of this kind broken by play
            if not cards & ~in_intact or cards in intact:
                return RuleCode.MELD_CARD_REUSED, f"these cards already form an intact {kind.group}"
            if cards & in_intact and not orphans:
                return RuleCode.MELD_CARD_REUSED, (
                    f"cards of an intact {kind.group} may form it again only with a card of one broken by play"
                )
        elif kind.group in self.rescore_groups:
            scored = 0
            for k, m in history:
                if kinds[k].group == kind.group:
                    scored |= m
            if not _half_new(cards, scored, face_of):
                return RuleCode.MELD_CARD_REUSED, (
                    f"a second {kind.group} may reuse at most half its cards, half of each card, from an earlier one"
                )
        else:
            for k, m in history:
                if m & cards and kinds[k].group == kind.group:
                    return RuleCode.MELD_CARD_REUSED, f"a card may score only once in a {kind.group}"
        # R3/R4: up the class, never down.
        if kind.meld_class:
            for k, m in history:
                other = kinds[k]
                if not m & cards or other.meld_class != kind.meld_class or other.group == kind.group:
                    continue
                if other.level < kind.level and kind.meld_class not in self.upgrade_classes:
                    return RuleCode.MELD_UPGRADE, f"cards of a {other.name} may not be reused in a {kind.name}"
                if other.level > kind.level and kind.meld_class not in self.downgrade_classes:
                    return RuleCode.MELD_DOWNGRADE, f"cards of a {other.name} may not be reused in a lower {kind.name}"
        # R5 with "higher_only": across classes only into a meld that scores more.
        if self.cross_class_reuse == "higher_only":
            for k, m in history:
                other = kinds[k]
                if m & cards and _class_key(table, k) != _class_key(table, kind_index) and other.points >= kind.points:
                    return RuleCode.MELD_DOWNGRADE, (
                        f"cards of a {other.name} ({other.points}) may join a meld of another class only if it "
                        f"scores more, not a {kind.name} ({kind.points})"
                    )
        # R1: a new card (re-forming a meld broken by play needs none).
        if orphans:
            return None
        if self.new_card_rule == "every_meld":
            if not cards & concealed and not self._made_of_lower(kinds, kind, cards, held, history):
                return RuleCode.MELD_NEEDS_NEW_CARD, "every meld needs at least one card from the concealed hand"
        else:
            used = 0
            for k, m in history:
                other = kinds[k]
                if (other.meld_class and other.meld_class == kind.meld_class) or other.group == kind.group:
                    used |= m
            if not cards & ~used and not self._made_of_lower(kinds, kind, cards, held, history):
                return RuleCode.MELD_NEEDS_NEW_CARD, "a meld needs a card not yet used in its class"
        return None

    def _made_of_lower(
        self, kinds: tuple[MeldKind, ...], kind: MeldKind, cards: int, held: int, history: Sequence[Declaration]
    ) -> bool:
        """``cards`` is exactly a union of intact lower melds of the same class."""
        if not self.double_after_two_singles or not kind.meld_class:
            return False
        union = 0
        for k, m in history:
            other = kinds[k]
            if other.meld_class == kind.meld_class and other.level < kind.level and m & held == m and not m & ~cards:
                union |= m
        return union == cards


def quick_rules(rules: MeldRules) -> bool:
    """Whether the quick search decides ``rules`` (the classes' reuse rules with ``new_card_rule`` as
    ``"every_meld"``, no ``double_after_two_singles``, no re-forming after play): then a choice of copies is legal
    exactly when it avoids the cards that `reuse_blocks` keeps out of its kind and takes a
    card from the concealed hand."""
    return (
        rules.new_card_rule == "every_meld"
        and not rules.double_after_two_singles
        and not rules.reform_after_play
        and not rules.rescore_groups
        and rules.reuse == "classes"
    )


def reuse_blocks(table: MeldTable, rules: MeldRules) -> tuple[tuple[int, ...], ...]:
    """Per kind index k: the kinds whose declarations may not reuse a card of an earlier
    declaration of kind k (same kind, up or down a class, and across classes with ``"higher_only"``)."""
    kinds = table.kinds
    higher_only = rules.cross_class_reuse == "higher_only"
    rows = []
    for i, other in enumerate(kinds):
        row = []
        for j, kind in enumerate(kinds):
            cls = kind.meld_class
            if other.group == kind.group:  # R2
                row.append(j)
            elif higher_only and _class_key(table, i) != _class_key(table, j) and other.points >= kind.points:
                row.append(j)  # R5 "higher_only"
            elif cls and other.meld_class == cls:  # R3 (up) and R4 (down)
                up = other.level < kind.level and cls not in rules.upgrade_classes
                down = other.level > kind.level and cls not in rules.downgrade_classes
                if up or down:
                    row.append(j)
        rows.append(tuple(row))
    return tuple(rows)


def _half_new(cards: int, scored: int, face_of: Sequence[int]) -> bool:
    """Whether at most half of ``cards`` are in ``scored``, and (with ``face_of``) at most
    half of each face's copies among them (`MeldRules.rescore_groups`).

    >>> _half_new(0b1111, 0b0011, (0, 0, 1, 1)), _half_new(0b1111, 0b0101, (0, 0, 1, 1))
    (False, True)
    >>> _half_new(0b1111, 0b0011, ())  # without faces only the count is checked
    True
    """
    if 2 * (cards & scored).bit_count() > cards.bit_count():
        return False
    if not face_of:
        return True
    copies: dict[int, int] = {}
    reused: dict[int, int] = {}
    for bit in iter_bits(cards):
        f = face_of[bit]
        copies[f] = copies.get(f, 0) + 1
        if (scored >> bit) & 1:
            reused[f] = reused.get(f, 0) + 1
    return all(2 * n <= copies[f] for f, n in reused.items())
