"""The auction games' parts: the auction (`Auction`), what happens between the bidding and the
play (`ContractRules`: the widow, passing cards, melds, conceding) and the settlement of the
contract (`ContractScoring`). Read by the ``auction`` engine (auction and partnership Pinochle)."""

from __future__ import annotations

import bisect
from typing import Literal

import attrs

from ..lazy import built_once

__all__ = [
    "UNIT_SCALE",
    "UNIT_SCALE_STEEP",
    "AllPass",
    "Auction",
    "Concession",
    "ContractRules",
    "ContractScoring",
    "FirstLeader",
    "Melders",
    "Settlement",
]

AllPass = Literal["redeal", "dealer_stuck"]
"""When everyone passes: the deal is thrown in, or the dealer must bid."""


Melders = Literal["all", "declarer"]
"""Who lays down melds in an auction game."""


FirstLeader = Literal["declarer", "dealer_left"]
"""Who leads the first trick of an auction game."""


@attrs.frozen
class Auction:
    """An auction for the contract (Pinochle).

    From the dealer's left each player bids higher or passes; a pass is final;
    the auction ends when one bidder is left. Bids start at ``minimum`` and rise
    in the steps of ``steps`` (bid threshold, step) pairs: ``((0, 10),)`` is "in
    tens"; double-deck's ``((0, 1), (60, 5))`` is ones up to 60, then fives.

    >>> Auction(minimum=250, maximum=300).bids_above(None)[:3]
    (250, 260, 270)
    >>> Auction(minimum=50, maximum=70, steps=((0, 1), (60, 5))).bids_above(58)
    (59, 60, 65, 70)
    >>> Auction(minimum=250, maximum=1500, raise_steps=2).bids_above(300)
    (310, 320)
    """

    minimum: int = 250
    """The lowest bid."""
    maximum: int = 1500
    """The highest bid the action space numbers."""
    steps: tuple[tuple[int, int], ...] = ((0, 10),)
    """(from bid, step) pairs: bids at or above ``from`` rise by ``step``."""
    all_pass: AllPass = "redeal"
    """When everyone passes: ``"redeal"`` (the deal is thrown in) or ``"dealer_stuck"``
    (the dealer may not pass and must bid at least the minimum)."""
    forbidden_endings: tuple[int, ...] = ()
    """Bids whose last two digits are one of these are not allowed (Brooklyn: 40, 90)."""
    raise_steps: int | None = None
    """A raise goes at most this many steps up the ladder over the last bid (the partnership rule: 2,
    "10 more, or a jump of 20"); the opening bid is free. None: any higher bid."""
    pass_with_help: bool = False
    """A player may ``pass help``: a final pass that tells the partner he holds help
    (a partnership convention; the signal is public, the engine treats it as a pass)."""

    @built_once
    def ladder(self) -> tuple[int, ...]:
        """Every allowed bid, lowest first."""
        out = []
        bid = self.minimum
        while bid <= self.maximum:
            if bid % 100 not in self.forbidden_endings:
                out.append(bid)
            step = 1
            for start, size in self.steps:
                if bid >= start:
                    step = size
            bid += step
        return tuple(out)

    def bids_above(self, high: int | None) -> tuple[int, ...]:
        """The allowed bids above ``high`` (every bid when nobody has bid yet)."""
        ladder = self.ladder
        if high is None:
            return ladder
        start = bisect.bisect_right(ladder, high)
        if self.raise_steps is None:
            return ladder[start:]
        return ladder[start : start + self.raise_steps]


@attrs.frozen
class ContractRules:
    """What happens between the auction and the play (Pinochle)."""

    widow: bool = False
    """The bidder turns the widow face up for all to see and takes it."""
    concede_before_widow: bool = False
    """At the minimum bid the bidder may concede without looking at the widow."""
    concede_after_widow: bool = False
    """After seeing the widow the bidder may concede (a single bete)."""
    bury: int = 0
    """Cards the bidder buries face down after melding (their counters are his)."""
    bury_melded: bool = False
    """The bidder may bury cards he used in his melds (by default he may not)."""
    pass_cards: int = 0
    """Cards the declarer's partner passes to him, and he passes back."""
    melders: Melders = "all"
    """Who lays down melds: ``"all"`` players or only the ``"declarer"``."""
    leader: FirstLeader = "declarer"
    """Who leads the first trick: the ``"declarer"`` or the ``"dealer_left"``."""
    throw_in_short: int | None = None
    """After the melds the declarer may concede when his side's meld is at least this
    short of the bid (None: no such concession). The partnership rule: 250 ("250 or more below the
    bid"); 0.1.0 offered it only when more than 250 short (251 here)."""


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
