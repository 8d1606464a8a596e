"""Computer players: the `Agent` protocol, random, heuristic and search agents, the five
levels, and the arena that plays agents against each other.

>>> import random
>>> from bezique_rules import new_game
>>> from bezique_rules.agents import level
>>> game = new_game("bezique-match", seed=5)
>>> players = [level(2), level(1)]
>>> rng = random.Random(5)
>>> while not game.is_over:
...     p = game.current_player
...     game = game.apply(players[p].choose(game.view(p), rng))
>>> game.is_over
True
"""

from __future__ import annotations

from .arena import ArenaResult, GameOutcome, play_arena, play_pairing
from .base import Agent, RandomAgent
from .heuristic import HeuristicAgent
from .levels import AGENT_NAMES, level, make_agent
from .search import SearchAgent

__all__ = [
    "AGENT_NAMES",
    "Agent",
    "ArenaResult",
    "GameOutcome",
    "HeuristicAgent",
    "RandomAgent",
    "SearchAgent",
    "level",
    "make_agent",
    "play_arena",
    "play_pairing",
]
