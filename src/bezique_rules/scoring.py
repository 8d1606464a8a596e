"""Card points, the score breakdown, and the rules that end a game.

- `CardPoints`: what each rank is worth when won in a trick (Bezique's brisques,
  Pinochle's counters) and the last-trick bonus.
- `ScoreBreakdown`: where a player's (or side's) points came from.
- `TargetEnd` and `MatchEnd`: game-end rules for `new_game`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from .cards import Rank
from .deck import DeckSpec

__all__ = ["BRISQUES", "CardPoints", "GameEnd", "MatchEnd", "ScoreBreakdown", "TargetEnd"]


@attrs.frozen
class CardPoints:
    """Points for cards won in tricks, and for the last trick.

    >>> BRISQUES.total(DeckSpec(ranks=(Rank.ACE, Rank.TEN, Rank.KING), packs=2))
    170
    """

    points: tuple[tuple[Rank, int], ...]
    """(rank, points) pairs; ranks not listed score nothing."""
    last_trick: int = 10
    """The bonus for winning the last trick."""

    @classmethod
    def of(cls, points: Mapping[Rank, int], last_trick: int = 10) -> CardPoints:
        """Build from a mapping of rank to points."""
        return cls(tuple(sorted(points.items(), key=lambda kv: kv[0].value)), last_trick)

    def per_card(self, deck: DeckSpec) -> tuple[int, ...]:
        """Points per physical id."""
        table = dict(self.points)
        return tuple(table.get(c.rank, 0) for c in deck.cards)

    def total(self, deck: DeckSpec) -> int:
        """Every card's points plus the last trick: 170 for Bezique, 250 for Pinochle."""
        return sum(self.per_card(deck)) + self.last_trick


BRISQUES = CardPoints.of({Rank.ACE: 10, Rank.TEN: 10}, last_trick=10)
"""Bezique: every ace and ten won is a brisque worth 10; 10 for the last trick."""


@attrs.frozen
class ScoreBreakdown:
    """Where one player's (or side's) points in a deal came from."""

    melds: int = 0
    """Declared melds (including carte blanche)."""
    seven: int = 0
    """The trump seven (Bezique) or dix (Pinochle): turned up, declared, exchanged or played."""
    cards: int = 0
    """Cards won in tricks (brisques, counters)."""
    last_trick: int = 0
    """The last-trick bonus."""
    bonus: int = 0
    """Any other bonus (variant-specific)."""

    @property
    def total(self) -> int:
        """The sum of every part."""
        return self.melds + self.seven + self.cards + self.last_trick + self.bonus


@attrs.frozen
class TargetEnd:
    """A game to a target score, checked at the end of each deal (reference.md §2.8).

    When at least one total reaches the target, the higher total wins. Equal
    totals follow ``tie_rule``: ``"draw"``, ``"play_on"`` (more deals until the tie
    breaks) or ``"raise_target"`` (the target rises by ``raise_by`` and play goes
    on). With a ``lurch_threshold``, a winner whose opponent is below it wins a
    double game.
    """

    target: int = 1000
    """The score to reach."""
    tie_rule: str = "draw"
    """What equal totals at or above the target mean."""
    raise_by: int = 500
    """How much ``raise_target`` raises the target."""
    lurch_threshold: int | None = None
    """Below this the loser is lurched (the game counts double)."""

    def decide(self, totals: Sequence[int], deals: int, target: int) -> tuple[bool, int | None, int, int]:
        """(over, winner or None for a draw, games won, target now) after ``deals`` deals."""
        top = max(totals)
        if top < target:
            return False, None, 0, target
        leaders = [p for p, t in enumerate(totals) if t == top]
        if len(leaders) > 1:
            if self.tie_rule == "play_on":
                return False, None, 0, target
            if self.tie_rule == "raise_target":
                return False, None, 0, target + self.raise_by
            return True, None, 0, target
        winner = leaders[0]
        games = 1
        if self.lurch_threshold is not None and all(
            t < self.lurch_threshold for p, t in enumerate(totals) if p != winner
        ):
            games = 2
        return True, winner, games, target


@attrs.frozen
class MatchEnd:
    """The short match of seed 001 (reference.md §3): one or two deals.

    After the first deal a lead of ``lead`` or more wins at once; otherwise a
    second deal (dealt by the other player) is played and the higher total
    wins; equal totals are a draw.
    """

    lead: int = 400
    """The lead that ends the match after the first deal."""
    deals: int = 2
    """The most deals."""

    def decide(self, totals: Sequence[int], deals: int, target: int) -> tuple[bool, int | None, int, int]:
        """(over, winner or None for a draw, games won, target) after ``deals`` deals."""
        ordered = sorted(totals, reverse=True)
        if deals < self.deals and ordered[0] - ordered[1] < self.lead:
            return False, None, 0, target
        top = ordered[0]
        leaders = [p for p, t in enumerate(totals) if t == top]
        if len(leaders) > 1:
            return True, None, 0, target
        return True, leaders[0], 1, target


GameEnd = TargetEnd | MatchEnd
"""Any game-end rule."""
