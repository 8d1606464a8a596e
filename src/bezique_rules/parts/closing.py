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
    "ClosedPlayOut",
    "Closing",
    "ClosingGame",
    "ClosingWorth",
    "EndWithoutClaim",
    "GamePoints",
    "MarriageOnLead",
    "MarriageTiming",
    "OutClaim",
    "OutTiming",
    "TrumpExchange",
]

MarriageTiming: TypeAlias = Literal["first_lead", "after_trick"]
"""When a marriage may be announced (`MarriageOnLead.timing`)."""

EndWithoutClaim: TypeAlias = Literal["higher_total", "count", "last_trick"]
"""Who wins when the cards run out and nobody claimed "out" (`OutClaim.at_end`)."""

OutTiming: TypeAlias = Literal["after_trick_or_marriage", "on_lead"]
"""When "out" may be claimed (`OutClaim.timing`)."""

ClosingWorth: TypeAlias = Literal["at_closing", "at_claim"]
"""When the opponent's points and tricks are read for a closer who goes out (`Closing.worth_at`)."""

ClosedPlayOut: TypeAlias = Literal["must_go_out", "count"]
"""How a closed deal played to the last card ends (`Closing.played_out`)."""


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
    after_stock: bool = True
    """Whether marriages may still be announced once the stock is closed or exhausted: True
    in Schnapsen (pagat) and in Hoyle's Sixty-six; False in pagat's Sixty-six, where the
    marriages end with the open stock."""


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
    worth_at: ClosingWorth = "at_closing"
    """What a closer who goes out scores: ``"at_closing"``, 1, 2 or 3 game points by his
    opponent's points and tricks at the moment of closing (3 if the opponent had no trick
    then, even if he took one later; pagat, Schnapsen); ``"at_claim"``, by them at the claim."""
    played_out: ClosedPlayOut = "must_go_out"
    """A closed deal played to the last card: ``"must_go_out"``, the closer wins only by
    winning the last trick with the target (he can go out then; pagat, Schnapsen and
    Sixty-six), else his closing failed, whatever his points; ``"count"``, the closer wins
    with the target or more at the end."""


@attrs.frozen
class OutClaim:
    """Claiming "out": the player on lead says he has the target, and the deal ends."""

    target: int = 66
    """The points (cards won and counted marriages) a claim needs."""
    at_end: EndWithoutClaim = "higher_total"
    """When the cards run out (stock not closed) and nobody claimed: ``"higher_total"`` (the
    higher total of points wins, equal totals score nothing; pagat, Sixty-six), ``"count"``
    (the first player with the target or more wins; if nobody has it, nobody scores), or
    ``"last_trick"`` (the winner of the last trick wins; pagat, Schnapsen)."""
    timing: OutTiming = "after_trick_or_marriage"
    """``"after_trick_or_marriage"``: only by the player on lead just after he won a trick
    or announced a marriage (so never at the deal's first lead before a marriage; pagat);
    ``"on_lead"``: by the player on lead at any time."""


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
    false_claim_flat: bool = False
    """A false claim gives the opponent `penalty` whatever his tricks (pagat's Sixty-six
    scoring table); False: `penalty_no_trick` when he has taken none (pagat, Schnapsen)."""

    def worth(self, loser_points: int, loser_tricks: bool) -> int:
        """The game points of a won deal, from the loser's points and whether he took a trick.

        >>> GamePoints().worth(40, True), GamePoints().worth(20, True), GamePoints().worth(0, False)
        (1, 2, 3)
        """
        if not loser_tricks:
            return self.win_schwarz
        return self.win_schneider if loser_points < self.schneider else self.win

    def fine(self, opponent_tricks: bool) -> int:
        """What a failed closing gives the opponent (by whether he had a trick at the closing).

        >>> GamePoints().fine(True), GamePoints().fine(False)
        (2, 3)
        """
        return self.penalty if opponent_tricks else self.penalty_no_trick

    def false_claim(self, opponent_tricks: bool) -> int:
        """What a false claim gives the opponent (by whether he has a trick now).

        >>> GamePoints().false_claim(False), GamePoints(false_claim_flat=True).false_claim(False)
        (3, 2)
        """
        return self.penalty if self.false_claim_flat else self.fine(opponent_tricks)


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
