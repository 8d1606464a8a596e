"""`HeuristicAgent`: rule-of-thumb play for the stock games and the Pinochle auctions (and Euchre)."""

from __future__ import annotations

import random

import attrs

from ..actions import Action
from ..engine.stock import StockDeal
from ..errors import BeziqueRulesError
from ..state import PlayerView, determinize
from .stockplay import FULL, WEAK, stock_action
from .trickplay import trick_game_action

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

    The agent samples one world with `bezique_rules.determinize` and reads only
    what its view shows of it (its own hand and the public cards), so it never
    sees a hidden card.

    >>> import random
    >>> from bezique_rules import new_deal
    >>> deal = new_deal("bezique", seed=1)
    >>> print(deal.view(0).hand)  # nothing to declare yet: lead a worthless card
    AH KH JH JD 8D KC JC 9C
    >>> action = HeuristicAgent().choose(deal.view(0), random.Random(0))
    >>> action.cards[0].rank.code in "987"
    True
    """

    weak: bool = False
    """A weaker version (level 2): static card values, no meld planning, no reading of the
    opponent's table, no trump saving."""
    name: str = "heuristic"
    """A name for reports."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The heuristic's action.

        Raises:
            BeziqueRulesError: it is not this player's turn.
        """
        legal = view.legal_actions()
        if not legal:
            raise BeziqueRulesError(f"player {view.player} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        world = determinize(view, rng)
        rules = world.rules
        if isinstance(world, StockDeal):
            return rules.action_space.actions[stock_action(world, rng, WEAK if self.weak else FULL)]
        if self.weak and rng.random() < 0.5:
            # level 2 outside the stock games: the trick heuristics half of the time
            return legal[rng.randrange(len(legal))]
        return trick_game_action(view, rules, rng)
