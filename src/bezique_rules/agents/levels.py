"""The five levels of the computer player, and agents by name."""

from __future__ import annotations

from ..errors import OptionError, OptionTypeError, quote
from .base import Agent, RandomAgent
from .heuristic import HeuristicAgent
from .search import SearchAgent

__all__ = ["AGENT_NAMES", "LEVEL5_ITERATIONS", "level", "make_agent"]

LEVEL5_ITERATIONS = 128
"""The search budget of level 5 (rollouts per decision)."""

AGENT_NAMES = ("random", "heuristic", "search", "level1", "level2", "level3", "level4", "level5")
"""The names `make_agent` knows."""


def level(n: int) -> Agent:
    """The computer player of level ``n`` (1 to 5), each stronger than the one below.

    1. random legal actions;
    2. the weak heuristic (``HeuristicAgent(strength="weak")``);
    3. the medium heuristic (``strength="medium"``);
    4. the full heuristic (`HeuristicAgent`);
    5. the search (`SearchAgent`), guided by the full heuristic.

    The strength table, measured with ``benchmarks/arena.py``, is in the docs
    (explanation: the computer players).

    >>> level(3).name
    'level3'

    Raises:
        OptionError: ``n`` is not 1 to 5 (a ValueError; an `OptionTypeError`, also a
            TypeError, when it is not an int).
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise OptionTypeError(f"the levels are 1 to 5 (an int), not {quote(n)}")
    if not 1 <= n <= 5:
        raise OptionError(f"the levels are 1 to 5, not {quote(n)}")
    name = f"level{n}"
    if n == 1:
        return RandomAgent(name=name)
    if n == 2:
        return HeuristicAgent(strength="weak", name=name)
    if n == 3:
        return HeuristicAgent(strength="medium", name=name)
    if n == 4:
        return HeuristicAgent(name=name)
    return SearchAgent(iterations=LEVEL5_ITERATIONS, name=name)


def make_agent(name: str) -> Agent:
    """The agent called ``name``: ``random``, ``heuristic``, ``search`` (level 5's budget) or
    ``level1`` … ``level5``.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "random":
        return RandomAgent()
    if key == "heuristic":
        return HeuristicAgent()
    if key == "search":
        return SearchAgent(iterations=LEVEL5_ITERATIONS)
    if isinstance(key, str) and key.startswith("level") and key[5:].isdigit() and 1 <= int(key[5:]) <= 5:
        return level(int(key[5:]))
    raise ValueError(f"unknown agent {name!r}; agents: {', '.join(AGENT_NAMES)}")
