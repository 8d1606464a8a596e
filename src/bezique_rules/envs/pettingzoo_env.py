"""The PettingZoo ``AECEnv`` (needs the rl extra); build it with `bezique_rules.envs.aec_env`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import IllegalActionError, OptionError, RuleCode
from ._common import Episode, observation_space, observe

__all__ = ["BeziqueAECEnv"]


class BeziqueAECEnv(AECEnv):
    """All seats of a deal (or a whole game) of a preset, in PettingZoo's AEC API."""

    metadata: ClassVar[dict[str, Any]] = {"name": "bezique_rules", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: str, *, whole_game: bool = False, render_mode: str | None = None, **options: Any):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.episode = Episode(variant, whole_game, options)
        rules = self.episode.rules
        self.possible_agents = [f"player_{p}" for p in range(rules.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._agent_names = tuple(self.possible_agents)
        space = observation_space(rules)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(rules.num_actions))
        self._begin()

    @property
    def rules(self) -> Any:
        """The rule set."""
        return self.episode.rules

    @property
    def state_now(self) -> Any:
        """The deal (or game) being played: a `DealState` (or `GameState`)."""
        return self.episode.table

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _begin(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        player = self.episode.table.current_player
        self.agent_selection = self.possible_agents[player if player is not None else 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; the same ``seed`` deals the same cards (``options`` are not used)."""
        self.episode.seed(seed)
        self.episode.restart()
        self._begin()

    def observe(self, agent: str) -> dict[str, Any]:
        return observe(self.episode.rules, self.episode.table, self._seat[agent])

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an action id) for the agent to act; None for a finished agent.

        Raises:
            IllegalActionError: the action is not legal now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError("an agent still playing needs an action id, not None", rule=RuleCode.NOT_AN_ACTION)
        episode = self.episode
        table = episode.table = episode.table.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        player = table.current_player
        if player is not None:  # the usual step: no reward yet, the next agent to act
            self.agent_selection = self._agent_names[player]
            return
        returns = episode.returns()
        for a in self.agents:
            self.rewards[a] = returns[self._seat[a]]
            self.terminations[a] = True
        self._accumulate_rewards()

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step of a finished agent, for this game where every agent finishes at once:
        remove the agent, select the next one (all the others are finished too), clear the rewards."""
        if action is not None:
            raise IllegalActionError(
                f"a finished agent's only action is None, not {action!r}", rule=RuleCode.GAME_OVER, action=action
            )
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        self._clear_rewards()

    def render(self) -> str | None:
        """The table as text in ``render_mode="ansi"`` (None otherwise)."""
        if self.render_mode != "ansi":
            return None
        return self.episode.render()

    def close(self) -> None:
        """Nothing to release."""
