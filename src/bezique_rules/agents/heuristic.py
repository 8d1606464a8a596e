"""`HeuristicAgent`: rule-of-thumb play for the stock games and the Pinochle auctions (and Euchre)."""

from __future__ import annotations

import random

import attrs

from ..actions import Action
from ..state.deal import PlayerView
from ..state.worlds import Worlds
from .base import choose_unless_forced
from .strategy import Strength, strategy_for

__all__ = ["HeuristicAgent"]


@attrs.frozen
class HeuristicAgent:
    """Plays by rules of thumb, from the view alone.

    In the stock games (``bezique``, ``bezique-match``, ``pinochle``, the multi-pack
    presets) it follows the strategy of the tutorial: win a trick when it carries
    a brisque (ace or ten) or opens a meld, with the cheapest winning card; give
    away sevens and eights and keep the trumps otherwise; meld in the order that
    scores most; keep cards that can still count twice; read the melds on the
    opponent's table; save trumps as the stock runs down; count the cards in the
    play-off. In the Pinochle auction presets it bids from an estimate of its meld
    and counters, melds its best, gives and buries low cards and wins tricks
    cheaply; in Euchre it orders up or calls from the strength of its trumps.

    It reads only what its view shows (its own hand and the public cards), so it never
    sees a hidden card. In the stock games the heuristic works on one world consistent with
    the view (`bezique_rules.Worlds`, reading only what the view shows of it); elsewhere it
    reads the view alone and builds no world.

    >>> import random
    >>> from bezique_rules import new_deal
    >>> deal = new_deal("bezique", seed=1)
    >>> print(deal.view(0).hand)  # nothing to declare yet: lead a worthless card
    AH KH JH JD 8D KC JC 9C
    >>> action = HeuristicAgent().choose(deal.view(0), random.Random(0))
    >>> action.cards[0].rank.code in "987"
    True
    """

    strength: Strength = attrs.field(default="full", validator=attrs.validators.in_(("weak", "medium", "full")))
    """``"full"`` (level 4), ``"medium"`` (level 3: in the stock games it follows and declares
    like the full heuristic but leads and plays the play-off by the weak rules; elsewhere a
    quarter of its moves are random) or ``"weak"`` (level 2: static card values, no meld
    planning, no reading of the opponent's table, no trump saving; elsewhere half of its
    moves are random)."""
    name: str = "heuristic"
    """A name for reports."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The heuristic's action (the only one when it is forced).

        Raises:
            IllegalActionError: it is not this player's turn.
            ArgumentTypeError: ``view`` or ``rng`` of the wrong type.
        """
        return choose_unless_forced(view, rng, lambda: self._decide(view, rng))

    def _decide(self, view: PlayerView, rng: random.Random) -> Action:
        strategy = strategy_for(view.rules)
        if strategy.view_heuristic is not None:
            return strategy.view_heuristic(view, rng, self.strength)  # the view alone: no world
        # The heuristic reads only what the view shows of a world, so any world consistent
        # with the view gives the same choice: the witness serves, unsampled.
        return strategy.heuristic(Worlds(view).witness, view, rng, self.strength)
