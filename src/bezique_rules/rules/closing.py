"""The rule-set parts of the closing games: Sixty-six, Schnapsen and any preset built like them.

Each part is a small frozen record that the ``marriage`` engine reads; a preset composes them
(see `bezique_rules.rules.sixtysix`) and another preset can compose them differently:

- `MarriageOnLead`: a king and queen of one suit shown by the player on lead, who leads one of
  them; 20, or 40 in trumps, counted once the announcer has won a trick.
- `TrumpExchange`: the lowest trump (the nine, the jack in Schnapsen) taken in exchange for the
  turn-up by the player on lead.
- `Closing`: the player on lead turns the trump card down; no more drawing, strict play at once.
- `OutClaim`: "out", claimed at 66 or more; what happens when nobody claims.
- `GamePoints`: what a deal is worth: 1 / 2 / 3 game points, and the penalties for a false claim
  or a failed closing.
- `ClosingGame`: the five parts together, the ``closing_game`` field of a `RuleSet`.

>>> ClosingGame().out.target
66
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import attrs

from ..cards import Rank

__all__ = [
    "Closing",
    "ClosingGame",
    "EndWithoutClaim",
    "GamePoints",
    "MarriageOnLead",
    "MarriageTiming",
    "OutClaim",
    "TrumpExchange",
]

MarriageTiming: TypeAlias = Literal["first_lead", "after_trick"]
"""When a marriage may be announced (`MarriageOnLead.timing`)."""

EndWithoutClaim: TypeAlias = Literal["count", "last_trick"]
"""Who wins when the cards run out and nobody claimed "out" (`OutClaim.at_end`)."""


@attrs.frozen
class MarriageOnLead:
    """Marriages announced on lead: the player on lead shows a king and queen of one suit and
    leads one of them."""

    plain: int = 20
    """A marriage in a plain suit."""
    trump: int = 40
    """A marriage in trumps."""
    timing: MarriageTiming = "first_lead"
    """``"first_lead"``: on any lead, the deal's first lead included (a player is on lead
    after winning a trick, or on the first lead); a marriage announced on the first lead
    waits, and counts once the announcer has won a trick; ``"after_trick"``: only after a won
    trick (so never on the first lead)."""


@attrs.frozen
class TrumpExchange:
    """The lowest trump exchanged for the turn-up by the player on lead, before he leads."""

    rank: Rank = Rank.NINE
    """The rank exchanged (the nine in Sixty-six, the jack in Schnapsen)."""
    needs_trick: bool = True
    """Only a player who has won a trick may exchange."""
    min_stock: int = 1
    """Face-down cards the stock must still hold (the turn-up not counted)."""


@attrs.frozen
class Closing:
    """Closing the stock: the player on lead turns the trump card down before leading."""

    min_stock: int = 1
    """Face-down cards the stock must still hold to be closed (the turn-up not counted)."""
    last_trick_bonus: bool = False
    """Whether the last trick still earns the card points' last-trick bonus after a closing."""


@attrs.frozen
class OutClaim:
    """Claiming "out": the player on lead says he has the target, and the deal ends."""

    target: int = 66
    """The points (cards won and counted marriages) a claim needs."""
    at_end: EndWithoutClaim = "count"
    """When the cards run out (stock not closed) and nobody claimed: ``"count"`` (the player
    with the target or more wins; if nobody has it, nobody scores), or ``"last_trick"`` (the
    winner of the last trick wins, Schnapsen)."""


@attrs.frozen
class GamePoints:
    """What a deal is worth to its winner."""

    win: int = 1
    """The winner's game points when the loser has `schneider` points or more."""
    schneider: int = 33
    """Below this the loser is schneider: `win_schneider`."""
    win_schneider: int = 2
    """The game points when the loser has fewer than `schneider` points but a trick."""
    win_schwarz: int = 3
    """The game points when the loser took no trick."""
    penalty: int = 2
    """To the opponent after a false claim or a failed closing."""
    penalty_no_trick: int = 3
    """The same when the opponent had taken no trick (at the claim, or at the closing)."""

    def worth(self, loser_points: int, loser_tricks: bool) -> int:
        """The game points of a won deal, from the loser's points and whether he took a trick.

        >>> GamePoints().worth(40, True), GamePoints().worth(20, True), GamePoints().worth(0, False)
        (1, 2, 3)
        """
        if not loser_tricks:
            return self.win_schwarz
        return self.win_schneider if loser_points < self.schneider else self.win

    def fine(self, opponent_tricks: bool) -> int:
        """What a false claim or failed closing gives the opponent."""
        return self.penalty if opponent_tricks else self.penalty_no_trick


@attrs.frozen
class ClosingGame:
    """The parts of a closing game together (`RuleSet.closing_game`)."""

    marriage: MarriageOnLead = MarriageOnLead()
    """Marriages announced on lead."""
    exchange: TrumpExchange | None = TrumpExchange()
    """The trump exchange, or None."""
    closing: Closing | None = Closing()
    """Closing the stock, or None (not allowed)."""
    out: OutClaim = OutClaim()
    """Claiming "out"."""
    game_points: GamePoints = GamePoints()
    """The game points of a deal."""
