"""The engine registry: engines found by name, built-in or registered from outside.

A `RuleSet` names its engine (``rules.engine``, e.g. ``"stock"``); the engine sequences the
phases of a deal and compiles the rule set's tables once. The rules layer never imports an
engine module directly: it asks this registry, which imports a built-in engine on first use and
holds whatever a third party registered with `register_engine`.

>>> from bezique_rules.engine.registry import available_engines, engine_for
>>> available_engines()
('auction', 'euchre', 'marriage', 'stock')
>>> engine_for("euchre").name
'euchre'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..errors import OptionError
from ..lazy import ImportedByName

if TYPE_CHECKING:
    from ..actions import ActionSpace
    from ..rules.ruleset import RuleSet
    from ..state.deal import DealState

__all__ = ["Engine", "EngineTables", "available_engines", "engine_for", "register_engine"]


class EngineTables(Protocol):
    """What every engine's compiled tables offer: the numbered actions of the rule set.

    Each engine adds its own named table groups (trick tables, the deal layout, ...).
    """

    @property
    def actions(self) -> ActionSpace:
        """The rule set's numbered actions."""
        ...


class Engine(Protocol):
    """An engine: compiles a rule set's tables and deals.

    Register one with `register_engine`; a `RuleSet` whose ``engine`` is that name then deals
    through it (see the how-to "Add a phase or a new engine").
    """

    @property
    def name(self) -> str:
        """The name rule sets use to pick this engine."""
        ...

    def compile(self, rules: RuleSet) -> EngineTables:
        """The tables for ``rules``, built once per rule set (held by `RuleSet.tables`)."""
        ...

    def new_deal(self, rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> DealState:
        """The deal of ``order`` (physical ids, top first) with ``dealer`` dealing."""
        ...


_ENGINES: ImportedByName[Engine] = ImportedByName(
    {
        "auction": ("bezique_rules.engine.auction", "ENGINE"),
        "euchre": ("bezique_rules.engine.euchre", "ENGINE"),
        "marriage": ("bezique_rules.engine.marriage", "ENGINE"),
        "stock": ("bezique_rules.engine.stock", "ENGINE"),
    }
)
"""The built-in engines (imported on first use) and those registered with `register_engine`."""


def register_engine(engine: Engine, *, replace: bool = False) -> None:
    """Make ``engine`` available to rule sets whose ``engine`` is ``engine.name``.

    Raises:
        OptionError: the name is taken (pass ``replace=True`` to replace a registered engine;
            a built-in engine cannot be replaced).
    """
    name = engine.name
    if not isinstance(name, str) or not name:
        raise OptionError(f"an engine's name is a non-empty string, not {name!r}")
    if name in _ENGINES.builtin or (name in _ENGINES.found and not replace):
        raise OptionError(f"an engine named {name!r} is already registered")
    _ENGINES.found[name] = engine


def available_engines() -> tuple[str, ...]:
    """The names of the built-in and registered engines, sorted."""
    return _ENGINES.names()


def engine_for(name: str) -> Engine:
    """The engine called ``name``.

    Raises:
        OptionError: no engine has that name.
    """
    engine = _ENGINES.get(name)
    if engine is None:
        raise OptionError(f"unknown engine {name!r}; engines: {', '.join(available_engines())}")
    return engine
