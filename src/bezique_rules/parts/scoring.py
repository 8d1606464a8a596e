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
    "UNIT_SCALE",
    "UNIT_SCALE_STEEP",
    "CardPoints",
    "Concession",
    "ContractScoring",
    "DealResultRule",
    "DealsEnd",
    "EndDecision",
    "EuchreScoring",
    "GameEnd",
    "GamesMatchEnd",
    "MatchEnd",
    "RubiconScoring",
    "ScoreBreakdown",
    "Settlement",
    "Standing",
    "StockBonuses",
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
class StockBonuses:
    """Bonuses of a stock game for how the play went, scored in the breakdown's ``bonus``
    (Marjolet). Zero is off.

    >>> StockBonuses(last_card=10).last_card
    10
    """

    last_card: int = 0
    """For the player who draws the last card of the stock (the turn-up where there is one,
    or the trump seven exchanged for it)."""
    playoff_sweep: int = 0
    """For a player who wins every trick of the play-off (the tricks after the stock)."""


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
class EuchreScoring:
    """Points for a Euchre deal.

    >>> EuchreScoring().points(tricks=5, alone=True, lone_defender=False)
    (4, 0)
    >>> EuchreScoring().points(tricks=2, alone=False, lone_defender=False)
    (0, 2)
    """

    made: int = 1
    """Makers taking 3 or 4 tricks."""
    march: int = 2
    """Makers taking all 5 tricks."""
    alone_march: int = 4
    """A lone maker taking all 5 tricks."""
    euchred: int = 2
    """Defenders when the makers take fewer than 3."""
    lone_defender_euchre: int = 4
    """Defenders when a lone defender euchres the makers."""
    euchred_loner: int = 2
    """Defenders who euchre a lone maker (4 with the house rule
    ``defenders_4_for_euchring_loner``)."""
    super_euchre: int | None = None
    """Defenders when the makers take no trick at all (None: no super-euchre)."""

    def points(self, *, tricks: int, alone: bool, lone_defender: bool) -> tuple[int, int]:
        """(makers' points, defenders' points) for a deal in which the makers took ``tricks``."""
        if tricks >= 3:
            if tricks == 5:
                return (self.alone_march if alone else self.march), 0
            return self.made, 0
        value = self.euchred
        if alone:
            value = max(value, self.euchred_loner)
        if lone_defender:
            value = max(value, self.lone_defender_euchre)
        if tricks == 0 and self.super_euchre is not None:
            value = max(value, self.super_euchre)
        return 0, value


Settlement = Literal["points", "units"]
"""How a contract deal is settled: in points, or in units of the bid (Auction Pinochle)."""
Concession = Literal["", "before_widow", "after_widow", "after_meld"]
"""How a declarer conceded: not at all, before or after seeing the widow, after the melds."""

#: The first published unit scale of Auction Pinochle: (lowest bid, units).
UNIT_SCALE = ((300, 1), (350, 2), (400, 4), (450, 6), (500, 8), (550, 10), (600, 12), (650, 14), (700, 16))
#: The second published scale.
UNIT_SCALE_STEEP = (
    (250, 2), (300, 3), (350, 5), (400, 7), (450, 10), (500, 13), (550, 17), (600, 21), (650, 25), (700, 30),
)  # fmt: skip


@attrs.frozen
class ContractScoring:
    """Settling a deal played for a bid (Pinochle).

    ``settlement="points"``: the declarer's side scores its meld and counters
    when they reach the bid, else loses the bid; the other sides score their meld
    and counters. ``settlement="units"`` (Auction Pinochle): the bid is worth a
    number of units on a scale; a made bid is paid by each opponent, a
    concession costs the bidder single, a failed bid double (the double bete).

    >>> ContractScoring(settlement="units", unit_scale=UNIT_SCALE).units(360)
    2
    """

    settlement: Settlement = "points"
    """``"points"`` or ``"units"``."""
    meld_needs_trick: bool = False
    """A side's meld counts only if it takes at least one trick."""
    unit_scale: tuple[tuple[int, int], ...] = UNIT_SCALE
    """For units: (lowest bid, units) steps."""

    def units(self, bid: int) -> int:
        """What a bid is worth on the unit scale."""
        worth = self.unit_scale[0][1]
        for lowest, units in self.unit_scale:
            if bid >= lowest:
                worth = units
        return worth

    def settle(
        self,
        *,
        bid: int,
        declarer: int,
        melds: tuple[int, ...],
        counters: tuple[int, ...],
        tricks: tuple[int, ...],
        conceded: Concession = "",
    ) -> tuple[int, ...]:
        """Points (or units) per side for the deal.

        Args:
            bid: the contract.
            declarer: the declarer's side.
            melds, counters, tricks: per side.
            conceded: ``""`` (played), ``"before_widow"``, ``"after_widow"`` or
                ``"after_meld"``.
        """
        sides = len(melds)
        meld = tuple(0 if self.meld_needs_trick and not tricks[s] and not conceded else melds[s] for s in range(sides))
        if self.settlement == "units":
            u = self.units(bid)
            others = sides - 1
            if conceded == "before_widow":
                return tuple(-u if s == declarer else 0 for s in range(sides))
            if conceded:
                return tuple(-u * others if s == declarer else u for s in range(sides))
            made = melds[declarer] + counters[declarer] >= bid
            factor = 1 if made else -2
            return tuple(factor * u * others if s == declarer else -factor * u for s in range(sides))
        if conceded:
            return tuple(-bid if s == declarer else meld[s] for s in range(sides))
        out = []
        for s in range(sides):
            total = meld[s] + counters[s]
            if s == declarer:
                out.append(total if total >= bid else -bid)
            else:
                out.append(total)
        return tuple(out)


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


@attrs.frozen
class RubiconScoring:
    """The result of a multi-pack Bezique deal, which is a game.

    Totals (melds, carte blanche, last trick) decide the winner; brisques count
    only to break a tie or to lift the loser out of the rubicon, and then for both
    players. Fractions of 100 are dropped. A loser at or above ``rubicon`` pays
    ``game_bonus`` + the difference; a loser below it is rubiconed: the winner scores
    the bonus (doubled with ``rubicon_doubles_bonus``) + both totals (+ every brisque
    with ``rubicon_adds_brisques``).

    >>> RubiconScoring().result((2350, 1480), (90, 70))
    (1400, 0)
    >>> RubiconScoring().result((1650, 840), (100, 60))
    (3700, 0)
    """

    game_bonus: int = 500
    """The winner's bonus."""
    rubicon: int = 1000
    """A loser below this is rubiconed."""
    rubicon_doubles_bonus: bool = True
    """The bonus doubles against a rubiconed loser (Rubicon: 500 becomes 1000)."""
    rubicon_adds_brisques: bool = True
    """Against a rubiconed loser the winner also scores every brisque (320 in four packs)."""
    truncate: int = 100
    """Totals are cut down to a multiple of this."""
    all_brisques: int = 320
    """Every brisque of the packs, for ``rubicon_adds_brisques``."""

    def result(self, totals: tuple[int, int], brisques: tuple[int, int]) -> tuple[int, int]:
        """The deal's score per player (the loser scores 0; a draw is (0, 0))."""
        counted = self.counts_brisques(totals, brisques)
        t = tuple(totals[p] + (brisques[p] if counted else 0) for p in range(2))
        if t[0] == t[1]:
            return 0, 0
        winner = 0 if t[0] > t[1] else 1
        loser = 1 - winner
        cut = self.truncate
        w, l_ = t[winner] // cut * cut, t[loser] // cut * cut
        if t[loser] < self.rubicon:
            bonus = self.game_bonus * (2 if self.rubicon_doubles_bonus else 1)
            # every brisque is added, unless the totals already count them (after a tie)
            extra = self.all_brisques // cut * cut if self.rubicon_adds_brisques and not counted else 0
            score = bonus + w + l_ + extra
        else:
            score = self.game_bonus + w - l_
        return (score, 0) if winner == 0 else (0, score)

    def counts_brisques(self, totals: tuple[int, int], brisques: tuple[int, int]) -> bool:
        """Whether brisques are counted: to break a tie, or when the loser would escape the
        rubicon with them."""
        if totals[0] == totals[1]:
            return True
        loser = 0 if totals[0] < totals[1] else 1
        return totals[loser] < self.rubicon <= totals[loser] + brisques[loser]
