"""Engines: phase sequencing only. Each engine turns a `RuleSet` into deals.

An engine provides ``action_space(rules)`` and ``new_deal(rules, order, seed, dealer)``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..actions import ActionSpace
from ..errors import OptionError
from ..rules.ruleset import RuleSet
from ..state import DealState

__all__ = ["Engine", "engine_for"]


class Engine(Protocol):
    """What an engine provides."""

    @staticmethod
    def tables(rules: RuleSet) -> tuple[ActionSpace, Any]:
        """The numbered actions of ``rules`` and the engine's private lookup tables."""

    @staticmethod
    def new_deal(rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> DealState:
        """Deal ``order`` (physical ids, top first)."""


_ENGINES: dict[str, Engine] = {}
"""The engines imported so far, by name (imported on first use: they import this module)."""


def engine_for(name: str) -> Engine:
    """The engine called ``name``.

    Raises:
        OptionError: no such engine.
    """
    found = _ENGINES.get(name)
    if found is not None:
        return found
    if name == "stock":
        from .stock import StockEngine

        found = StockEngine
    elif name == "euchre":
        from .euchre import EuchreEngine

        found = EuchreEngine
    elif name == "auction":
        from .auction import AuctionEngine

        found = AuctionEngine
    if found is not None:
        _ENGINES[name] = found
        return found
    raise OptionError(f"unknown engine {name!r}; engines: stock, euchre, auction")
