"""Zero-sum returns of a deal or a game, as learning and search frameworks expect them.

A deal's return for a player is his side's points minus the mean of the other sides'
points (for two sides: own points minus the opponent's), so the returns of all sides
sum to zero. A game's return is +1 for the winning side, -1 shared out among the others
(-1 each with two sides), and 0 for everyone in a draw or while the game goes on.

>>> from bezique_rules import get_rules
>>> deal_returns(get_rules("bezique"), (120, 40))
(80.0, -80.0)
>>> deal_returns(get_rules("auction-pinochle"), (30, -10, 10))
(30.0, -30.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules.ruleset import RuleSet
    from ..state.game import GameState

__all__ = ["deal_returns", "game_returns"]


def deal_returns(rules: RuleSet, scores: Sequence[int]) -> tuple[float, ...]:
    """Per player: his side's ``scores`` entry minus the mean of the other sides' entries."""
    sides = len(scores)
    if sides < 2:
        return (0.0,) * rules.players
    total = float(sum(scores))
    out = [0.0] * rules.players
    for side, seats in enumerate(rules.sides):
        own = scores[side]
        for p in seats:
            out[p] = own - (total - own) / (sides - 1)
    return tuple(out)


def game_returns(game: GameState) -> tuple[float, ...]:
    """Per player: +1 when his side won the (finished) game, -1/(sides - 1) when another side won, else 0."""
    rules = game.rules
    if not game.is_over or game.winner is None:
        return (0.0,) * rules.players
    others = len(rules.sides) - 1
    return tuple(1.0 if rules.side_of(p) == game.winner else -1.0 / others for p in range(rules.players))
