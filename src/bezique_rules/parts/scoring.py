"""Card points, the score breakdown, and the rules that end a game.

- `CardPoints`: what each rank is worth when won in a trick (Bezique's brisques,
  Pinochle's counters) and the last-trick bonus.
- `ScoreBreakdown`: where a player's (or side's) points came from.
- `TargetEnd` and `MatchEnd`: game-end rules for `new_game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol, TypeAlias

import attrs

from ..cards import Rank
from ..deck import DeckSpec

__all__ = [
    "BRISQUES",
    "CLASSIC_COUNTERS",
    "FIVES_COUNTERS",
    "TENS_COUNTERS",
    "CardPoints",
    "DealResultRule",
    "DealsEnd",
    "EndDecision",
    "GameEnd",
    "GamesMatchEnd",
    "MatchEnd",
    "ScoreBreakdown",
    "Standing",
    "TargetEnd",
    "TieRule",
]

TieRule: TypeAlias = Literal["draw", "play_on", "raise_target"]
"""What equal totals at or above a target mean (`TargetEnd.tie_rule`)."""


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
    round_7_up: bool = False
    """Count card points in tens: a remainder of 7, 8 or 9 counts as a further ten,
    a lower remainder is dropped (classic Pinochle)."""

    @classmethod
    def of(cls, points: Mapping[Rank, int], last_trick: int = 10, round_7_up: bool = False) -> CardPoints:
        """Build from a mapping of rank to points."""
        return cls(tuple(sorted(points.items(), key=lambda kv: kv[0].value)), last_trick, round_7_up)

    def rounded(self, points: int) -> int:
        """Card points as they count: unchanged, or rounded 7-up to the ten.

        >>> CardPoints((), round_7_up=True).rounded(87), CardPoints((), round_7_up=True).rounded(84)
        (90, 80)
        """
        if not self.round_7_up:
            return points
        tens, rest = divmod(points, 10)
        return (tens + (1 if rest >= 7 else 0)) * 10

    def per_card(self, deck: DeckSpec) -> tuple[int, ...]:
        """Points per physical id."""
        table = dict(self.points)
        return tuple(table.get(c.rank, 0) for c in deck.cards)

    def total(self, deck: DeckSpec) -> int:
        """Every card's points plus the last trick: 170 for Bezique, 250 for Pinochle."""
        return sum(self.per_card(deck)) + self.last_trick


BRISQUES = CardPoints.of({Rank.ACE: 10, Rank.TEN: 10}, last_trick=10)
"""Bezique: every ace and ten won is a brisque worth 10; 10 for the last trick."""

CLASSIC_COUNTERS = CardPoints.of({Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2})
"""Pinochle's classic count: A 11, T 10, K 4, Q 3, J 2, and 10 for the last trick (250 a deal)."""

TENS_COUNTERS = CardPoints.of({Rank.ACE: 10, Rank.TEN: 10, Rank.KING: 10})
"""Pinochle's "tens" count: A, T, K 10 each, and 10 for the last trick (250 a deal)."""

FIVES_COUNTERS = CardPoints.of({Rank.ACE: 10, Rank.TEN: 10, Rank.KING: 5, Rank.QUEEN: 5})
"""Pinochle's "fives" count: A, T 10, K, Q 5, and 10 for the last trick (250 a deal)."""


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
    contract: int = 0
    """Points for the contract: Euchre's 1 / 2 / 4, a bid made or set."""

    @property
    def total(self) -> int:
        """The sum of every part."""
        return self.melds + self.seven + self.cards + self.last_trick + self.bonus + self.contract

    def __add__(self, other: ScoreBreakdown) -> ScoreBreakdown:
        """Part by part: a side's breakdown from its players', or a row with points scored."""
        return ScoreBreakdown(
            melds=self.melds + other.melds,
            seven=self.seven + other.seven,
            cards=self.cards + other.cards,
            last_trick=self.last_trick + other.last_trick,
            bonus=self.bonus + other.bonus,
            contract=self.contract + other.contract,
        )


@attrs.frozen
class Standing:
    """How a game stands after a deal, as the end rules read it."""

    totals: tuple[int, ...]
    """Totals per player (or side) in the current game."""
    deals: int
    """Deals played so far (in the whole game or match)."""
    target: int
    """The current target (a tie rule may have raised it)."""
    game_wins: tuple[int, ...]
    """Games won so far per player (or side), in a match of games."""
    declarer: int | None = None
    """The side that made the contract of the deal just played (auction games), or None."""
    played: int | None = None
    """Deals actually played (not thrown in after everyone passed); None: as ``deals``."""


@attrs.frozen
class EndDecision:
    """What an end rule decided after a deal."""

    over: bool
    """Whether the game (or match) is over."""
    winner: int | None = None
    """The winner once over; None for a draw or while playing."""
    games: int = 0
    """How many games the win counts for (2 for a lurch)."""
    target: int = 0
    """The target from now on."""
    totals: tuple[int, ...] | None = None
    """New totals when the rule resets them (a new game of a match), else None."""
    game_wins: tuple[int, ...] | None = None
    """New games-won counts, when they changed."""


def _leader(totals: tuple[int, ...]) -> int | None:
    top = max(totals)
    leaders = [p for p, t in enumerate(totals) if t == top]
    return leaders[0] if len(leaders) == 1 else None


@attrs.frozen
class TargetEnd:
    """A game to a target score, checked at the end of each deal.

    When at least one total reaches the target, the higher total wins. Equal
    totals follow ``tie_rule``: ``"draw"``, ``"play_on"`` (more deals until the tie
    breaks) or ``"raise_target"`` (the target rises by ``raise_by`` and play goes
    on). With a ``lurch_threshold``, a winner whose opponent is below it wins a
    double game.

    >>> TargetEnd(1000).decide(Standing((1010, 900), 3, 1000, (0, 0))).winner
    0
    """

    target: int = 1000
    """The score to reach."""
    tie_rule: TieRule = "draw"
    """What equal totals at or above the target mean."""
    raise_by: int = 500
    """How much ``raise_target`` raises the target."""
    lurch_threshold: int | None = None
    """Below this the loser is lurched (the game counts double)."""
    declarer_wins: bool = False
    """When several sides reach the target on the same deal, the declarer's side wins
    (partnership Pinochle) if it is one of them."""
    lose_at_minus: bool = False
    """A side at minus the target or below loses (house rule for games with bids)."""

    @property
    def first_target(self) -> int:
        """The target a new game starts with."""
        return self.target

    def decide(self, s: Standing) -> EndDecision:
        """Decide after a deal."""
        target = s.target
        if self.lose_at_minus and len(s.totals) == 2:
            for side, t in enumerate(s.totals):
                if t <= -target:
                    return EndDecision(True, 1 - side, 1, target)
        if max(s.totals) < target:
            return EndDecision(False, target=target)
        reached = [p for p, t in enumerate(s.totals) if t >= target]
        if self.declarer_wins and s.declarer is not None and s.declarer in reached:
            return EndDecision(True, s.declarer, 1, target)
        winner = _leader(s.totals)
        if winner is None:
            if self.tie_rule == "play_on":
                return EndDecision(False, target=target)
            if self.tie_rule == "raise_target":
                return EndDecision(False, target=target + self.raise_by)
            return EndDecision(True, None, 0, target)
        games = 1
        if self.lurch_threshold is not None and all(
            t < self.lurch_threshold for p, t in enumerate(s.totals) if p != winner
        ):
            games = 2
        return EndDecision(True, winner, games, target)


@attrs.frozen
class MatchEnd:
    """The short match against the computer: one or two deals.

    After the first deal a lead of ``lead`` or more wins at once; otherwise a
    second deal (dealt by the other player) is played and the higher total
    wins; equal totals are a draw.

    >>> MatchEnd().decide(Standing((450, 40), 1, 0, (0, 0))).winner
    0
    """

    lead: int = 400
    """The lead that ends the match after the first deal."""
    deals: int = 2
    """The most deals."""

    @property
    def first_target(self) -> int:
        """No target: 0."""
        return 0

    def decide(self, s: Standing) -> EndDecision:
        """Decide after a deal."""
        ordered = sorted(s.totals, reverse=True)
        if s.deals < self.deals and ordered[0] - ordered[1] < self.lead:
            return EndDecision(False, target=s.target)
        winner = _leader(s.totals)
        return EndDecision(True, winner, 1 if winner is not None else 0, s.target)


@attrs.frozen
class GamesMatchEnd:
    """A match of games: each game to ``target``, the first side to win ``games`` games wins.

    The British tournament rule: first side to win two games to 21. A game
    is won by the higher total once a total reaches the target (on equal totals
    the game goes on); the totals then start again from zero.

    >>> GamesMatchEnd(21, 2).decide(Standing((21, 9), 6, 21, (1, 0))).winner
    0
    """

    target: int = 21
    """The score that wins one game."""
    games: int = 2
    """Games needed to win the match."""

    @property
    def first_target(self) -> int:
        """The target of each game."""
        return self.target

    def decide(self, s: Standing) -> EndDecision:
        """Decide after a deal."""
        if max(s.totals) < s.target:
            return EndDecision(False, target=s.target)
        winner = _leader(s.totals)
        if winner is None:
            return EndDecision(False, target=s.target)
        wins = tuple(w + (1 if p == winner else 0) for p, w in enumerate(s.game_wins))
        if wins[winner] >= self.games:
            return EndDecision(True, winner, 1, s.target, game_wins=wins)
        return EndDecision(False, target=s.target, totals=(0,) * len(s.totals), game_wins=wins)


class GameEnd(Protocol):
    """A game-end rule: decides after each deal whether the game (or match) is over.

    The built-in rules are `TargetEnd`, `MatchEnd`, `GamesMatchEnd` and `DealsEnd`; write your
    own as any value with these two members.
    """

    @property
    def first_target(self) -> int:
        """The target a new game starts with (0 when the rule has no target)."""
        ...

    def decide(self, s: Standing) -> EndDecision:
        """Decide after a deal."""
        ...


class DealResultRule(Protocol):
    """A rule that turns a two-player deal's totals into its result (multi-pack Bezique's
    `RubiconScoring`): a stock game whose deal is a game of its own."""

    def result(self, totals: tuple[int, int], brisques: tuple[int, int]) -> tuple[int, int]:
        """The deal's score per player."""
        ...

    def counts_brisques(self, totals: tuple[int, int], brisques: tuple[int, int]) -> bool:
        """Whether the brisques are counted in the totals."""
        ...


@attrs.frozen
class DealsEnd:
    """A game of a fixed number of deals (Auction Pinochle settles each deal); the
    highest total then wins, equal totals draw.

    >>> DealsEnd(3).decide(Standing((4, -2, -2), 3, 0, (0, 0, 0))).winner
    0
    """

    deals: int = 9
    """How many deals are played (deals thrown in after everyone passed do not count)."""

    @property
    def first_target(self) -> int:
        """No target: 0."""
        return 0

    def decide(self, s: Standing) -> EndDecision:
        """Decide after a deal."""
        if (s.deals if s.played is None else s.played) < self.deals:
            return EndDecision(False, target=s.target)
        winner = _leader(s.totals)
        return EndDecision(True, winner, 1 if winner is not None else 0, s.target)
