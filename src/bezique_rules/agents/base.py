"""The `Agent` protocol and `RandomAgent`."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

import attrs

from ..actions import Action
from ..errors import BeziqueRulesError
from ..state import PlayerView

__all__ = ["Agent", "RandomAgent", "legal_or_raise"]


def legal_or_raise(view: PlayerView) -> tuple[Action, ...]:
    """The legal actions of the player whose view this is.

    Raises:
        BeziqueRulesError: it is not this player's turn (he has nothing to do).
    """
    legal = view.legal_actions()
    if not legal:
        raise BeziqueRulesError(f"player {view.player} has nothing to do now")
    return legal


@runtime_checkable
class Agent(Protocol):
    """A computer player: picks an action from what one player may see.

    An agent gets a `PlayerView` (never the full state: it cannot see the other
    hands or the stock) and a `random.Random` (its only source of randomness, so
    that a run can be repeated). It returns one of ``view.legal_actions()``.
    Any object with such a ``choose`` method is an agent; a plain function can
    be wrapped with a small class.
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action to play now (one of ``view.legal_actions()``)."""
        ...


@attrs.frozen
class RandomAgent:
    """Plays a legal action chosen uniformly at random. Works for every preset.

    >>> import random
    >>> from bezique_rules import new_deal
    >>> deal = new_deal("euchre", seed=3)
    >>> player = deal.current_player
    >>> deal.is_legal(RandomAgent().choose(deal.view(player), random.Random(0)))
    True
    """

    name: str = "random"
    """A name for reports."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random legal action.

        Raises:
            BeziqueRulesError: it is not this player's turn.
        """
        legal = legal_or_raise(view)
        return legal[rng.randrange(len(legal))]
