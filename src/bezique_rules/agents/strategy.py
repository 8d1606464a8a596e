"""Per-engine strategies for the computer players, found through a registry by engine name.

The agents (`HeuristicAgent`, `SearchAgent`) are engine-neutral: what they know of one engine's
deals (a heuristic, rollout policies, an exact endgame, a way to cut rollouts short) is an
`AgentStrategy` registered under that engine's name. An engine without one (a third party's,
say) gets the generic strategy: the trick-game heuristic read from the view, random rollouts
and plain information-set tree search.

>>> from bezique_rules import get_rules
>>> strategy_for(get_rules("bezique")).engine
'stock'
>>> strategy_for(get_rules("euchre")).ranking is None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypeAlias

import attrs

from ..errors import OptionError
from ..lazy import ImportedByName, imported

if TYPE_CHECKING:
    from ..actions import Action
    from ..rules.ruleset import RuleSet
    from ..state.deal import DealState, PlayerView

__all__ = [
    "AgentStrategy",
    "Rollout",
    "RolloutKind",
    "Strength",
    "random_rollout",
    "register_strategy",
    "strategy_for",
]

Strength: TypeAlias = Literal["weak", "medium", "full"]
"""How well the heuristic plays: level 2 (``"weak"``), 3 (``"medium"``) or 4 (``"full"``)."""

RolloutKind: TypeAlias = Literal["heuristic", "fast", "random"]
"""The search's rollout policy."""

Rollout: TypeAlias = "Callable[[DealState, random.Random], int]"
"""A rollout policy: the action id to play in a (determinized) deal."""


def random_rollout(state: DealState, rng: random.Random) -> int:
    """A uniformly random legal action id."""
    ids = state.legal_action_ids()
    return ids[rng.randrange(len(ids))]


@attrs.frozen
class AgentStrategy:
    """What the computer players know of one engine's deals.

    Every field after ``reward_scale`` is optional: None means the engine-neutral behaviour.
    """

    engine: str
    """The engine's name (as `RuleSet.engine`)."""
    heuristic: Callable[[DealState, PlayerView, random.Random, Strength], Action]
    """The heuristic's action, given a world sampled from the view (read only what the view
    shows of it), the view itself, the rng and the strength."""
    reward_scale: Callable[[RuleSet], float]
    """A typical winning margin of one deal (search results are squashed by it)."""
    rollouts: Callable[[RolloutKind], Rollout | None] | None = None
    """The rollout policy of each kind (None: random rollouts)."""
    ranking: Callable[[DealState, random.Random], list[int]] | None = None
    """The heuristic's favourite actions first: the search then compares only the first few,
    played out on the same worlds; None: plain information-set tree search."""
    endgame: Callable[[DealState, int], dict[int, int] | None] | None = None
    """The exact value of each legal action, when the deal can be solved within a node limit."""
    clock: Callable[[DealState], int] | None = None
    """A clock for cutting rollouts short (tricks played), read with ``estimate``."""
    estimate: Callable[[DealState, float, float], tuple[float, ...] | None] | None = None
    """An estimate of the final scores where a rollout may stop (None: not here, play on);
    the two floats are the search's ``weight`` and ``holding``."""
    likelihood: Callable[[DealState, int, int, float], float] | None = None
    """How well a sampled world explains the other players' recent play (1.0: fully), from
    the searching player, the decisions to check and the mismatch factor."""
    view_heuristic: Callable[[PlayerView, random.Random, Strength], Action] | None = None
    """The same heuristic read from the view alone (the view, the rng and the strength), for a
    heuristic that needs no world: `HeuristicAgent` then samples none, which saves building
    one on every decision. None: the agent samples a world and calls ``heuristic``."""


_STRATEGIES: ImportedByName[AgentStrategy] = ImportedByName(
    {
        "auction": ("bezique_rules.agents.trickplay", "AUCTION"),
        "euchre": ("bezique_rules.agents.trickplay", "EUCHRE"),
        "marriage": ("bezique_rules.agents.closingplay", "STRATEGY"),
        "stock": ("bezique_rules.agents.stockplay", "STRATEGY"),
    }
)
"""The strategies by engine name: the built-ins (imported on first use) and those registered
from outside."""


def register_strategy(strategy: AgentStrategy, *, replace: bool = False) -> None:
    """Make ``strategy`` the computer players' knowledge of the engine ``strategy.engine``.

    Raises:
        OptionError: that engine has a strategy already (pass ``replace=True``).
    """
    if (strategy.engine in _STRATEGIES.found or strategy.engine in _STRATEGIES.builtin) and not replace:
        raise OptionError(f"the engine {strategy.engine!r} has an agent strategy already")
    _STRATEGIES.found[strategy.engine] = strategy


def strategy_for(rules: RuleSet) -> AgentStrategy:
    """The strategy for the engine of ``rules`` (the generic one when it has none)."""
    found = _STRATEGIES.get(rules.engine)
    if found is not None:
        return found
    generic: AgentStrategy = imported("bezique_rules.agents.trickplay", "GENERIC")
    return generic
