"""The PettingZoo ``AECEnv`` (needs the rl extra); build it with `bezique_rules.integrations.envs.aec_env`.

The per-step path is kept lean, as a Euchre step of the plain API takes only a few
microseconds (``benchmarks/bench_envs.py`` measures what the environment adds): nothing
is computed for an observation until `observe` (or ``last()``) asks for it, no dict is
rebuilt while the episode goes on (rewards come only at its end, so the rewards, the
cumulative rewards, the terminations and the truncations stay as `reset` made them), the
agent iterator is a generator, and the scores are read once, when the episode ends.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import partial
from itertools import islice
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ...engine.euchre import FarmersRound
from ...errors import ActionTypeError, IllegalActionError, RuleCode, quote
from ...rules.ruleset import RuleSet
from ...state.game import GameState
from ._common import Encoder, EnvSettings, Episode, Table, outcome

__all__ = ["BeziqueAECEnv"]


class BeziqueAECEnv(AECEnv):
    """All seats of a deal (or a whole game) of a preset, in PettingZoo's AEC API."""

    metadata: ClassVar[dict[str, Any]] = {"name": "bezique_rules", "render_modes": ["ansi"], "is_parallelizable": False}

    state_now: Table
    """The deal (or game) being played: a `DealState` (or `GameState`)."""
    _turn: str | None
    """The agent selected while any agent is left, else None (what `agent_iter` reads)."""

    def __init__(self, variant: str, settings: EnvSettings, options: dict[str, Any]) -> None:
        """Build it with `bezique_rules.integrations.envs.aec_env` (which takes the settings as keywords)."""
        super().__init__()
        self.render_mode = settings.render_mode
        self.episode = Episode(variant, settings, options)
        rules = self.episode.rules
        self.encoder = Encoder(rules, settings)
        self._mask_in_info = settings.observation != "dict"
        self._canonical = settings.canonical_suits
        self.possible_agents = [f"player_{p}" for p in range(rules.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._agent_names = tuple(self.possible_agents)
        space = self.encoder.space
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(rules.num_actions))
        agents = self.possible_agents
        self._zeros = dict.fromkeys(agents, 0.0)
        self._falses = dict.fromkeys(agents, False)
        self._infos: dict[str, dict[str, Any]] = {a: {} for a in agents}  # nothing is ever put in them
        self._playing = {a: (None, 0.0, False, False, self._infos[a]) for a in agents}  # last(observe=False) in play
        self._quiet = self._playing
        self.state_now = self.episode.deal()
        deal = self.state_now.deal if isinstance(self.state_now, GameState) else self.state_now
        self._farmers_rule = bool(FarmersRound(deal).seats)
        self._farmers: FarmersRound | None = None
        """Euchre's farmer's-hand house rule: the current deal's round, asking every seat in turn."""
        self._farmers_deal = 0
        self.episode.restart()  # the first reset's deal is the first of the rotation
        self._begin()

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.episode.rules

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _begin(self) -> None:
        """A fresh cycle: every agent playing, nothing rewarded yet (copies of templates made once)."""
        self.agents = list(self.possible_agents)
        self.rewards = self._zeros.copy()
        self._cumulative_rewards = self._zeros.copy()
        self.terminations = self._falses.copy()
        self.truncations = self._falses.copy()
        self.infos = self._infos.copy()
        self._quiet = self._playing
        self._over = False
        self._rewarded = False
        self._farmers = None
        player = self.state_now.current_player if not self._farmers_rule else self._farmers_turn()
        self.agent_selection = self._turn = self._agent_names[player if player is not None else 0]
        if player is None:
            self._finish()
        elif self._mask_in_info:
            self._post_mask()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; the same ``seed`` deals the same cards with the same dealer (``options``
        are not used)."""
        self.episode.seed(seed)
        self.state_now = self.episode.deal()
        self._begin()

    def observe(self, agent: str) -> Any:
        observation, mask = self.encoder.observe(self.state_now, self._seat[agent])
        if self._farmers is not None and isinstance(observation, dict):
            observation["action_mask"] = self._farmers_mask(agent, mask)
        return observation

    def action_mask(self, agent: str) -> np.ndarray:
        """``agent``'s int8 mask of the legal action ids (all zero when it is not his turn)."""
        table = self.state_now
        seat = self._seat[agent]
        encoder = self.encoder
        reference = encoder.relabelling.reference(table.view(seat)) if encoder.relabelling is not None else None
        return self._farmers_mask(agent, encoder.mask(table, seat, reference))

    def _farmers_mask(self, agent: str, mask: np.ndarray) -> np.ndarray:
        """``agent``'s mask in the farmer's-hand round (house rule): only the seat the round asks
        has legal actions (the deal's, when the deal asks him; else ``pass``)."""
        farmers = self._farmers
        if farmers is None or farmers.seat is None:
            return mask
        seat = self._seat[agent]
        if farmers.seat == seat and farmers.forwarded:
            return mask
        out = np.zeros_like(mask)
        if farmers.seat == seat:
            out[farmers.legal_action_ids(),] = 1
        return out

    def _post_mask(self) -> None:
        """Box observations: the mask of the agent to act goes in his ``info`` (the others' infos
        are empty while the episode goes on)."""
        agent = self.agent_selection
        for other, info in self.infos.items():
            if other != agent and info:
                self.infos[other] = self._infos[other]
        self.infos[agent] = {"action_mask": self.action_mask(agent)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The observation (None with ``observe=False``), cumulative reward, termination,
        truncation and info of the agent to act (PettingZoo's ``last``)."""
        agent = self.agent_selection
        if not observe:
            if self._mask_in_info and not self._over:
                return None, 0.0, False, False, self.infos[agent]
            return self._quiet[agent]
        return (
            self.observe(agent),
            self._cumulative_rewards[agent],
            self._over,
            False,
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until every agent has left (PettingZoo's ``agent_iter``): step
        each one before the next is yielded.

        The iterator is made of C-level parts (it reads ``_turn``, the agent selected while
        any agent is left, else None), so that it adds little to a step."""
        return islice(iter(partial(getattr, self, "_turn"), None), min(max_iter, sys.maxsize))

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an action id) for the agent to act; None for a finished agent.

        Raises:
            IllegalActionError: the action is not legal now.
        """
        if self._over:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError("an agent still playing needs an action id, not None", rule=RuleCode.NOT_AN_ACTION)
        table = self.state_now
        if self._canonical and isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            player = table.current_player
            assert player is not None
            action = self.encoder.to_rules_id(table, player, int(action))
        farmers = self._farmers
        if farmers is not None and farmers.seat is not None:  # a seat the farmer's-hand round asks
            self._farmers_step(farmers, action)
            return
        if type(action) is int and action in table.legal_action_ids():
            table = table.apply(action, check=False)  # checked just now, as apply's check does
        elif isinstance(action, np.integer):
            table = table.apply(int(action))
        else:  # checked by apply: IllegalActionError naming the rule, ActionTypeError; the state is unchanged
            table = table.apply(action)
        self.state_now = table
        player = table.current_player if not self._farmers_rule else self._farmers_turn()
        if player is not None:  # the usual step: no reward yet, the next agent to act
            self.agent_selection = self._turn = self._agent_names[player]
            if self._mask_in_info:
                self._post_mask()
            return
        self._finish()

    def _farmers_turn(self) -> int | None:
        """Who is to act under Euchre's farmer's-hand house rule: every seat is asked in turn
        whether to swap a farmer's hand (`FarmersRound`), so the agent selected and the masks
        never show who holds one; then the deal's player."""
        table = self.state_now
        if isinstance(table, GameState):
            deal, number = table.deal, table.deal_number
        else:
            deal, number = table, 1
        farmers = self._farmers
        if farmers is None or number != self._farmers_deal:  # a new deal: its round starts
            farmers = FarmersRound.start(deal)
            self._farmers_deal = number
        else:
            farmers = FarmersRound(deal, farmers.asked)
        self._farmers = farmers
        return None if table.is_over else farmers.current_player

    def _farmers_step(self, farmers: FarmersRound, action: Any) -> None:
        """The answer of the seat the farmer's-hand round asks: a holder's is played in the
        deal; any other seat's only answer is ``pass``, which leaves the deal as it is."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ActionTypeError(
                f"a step takes an action id (an int), not {quote(action)}", rule=RuleCode.NOT_AN_ACTION, action=action
            )
        action_id = int(action)
        if action_id not in farmers.legal_action_ids():
            farmers.apply(action_id)  # raises IllegalActionError naming the rule
        if farmers.forwarded:
            self.state_now = self.state_now.apply(action_id)
        self._farmers = FarmersRound(farmers.deal, farmers.asked + 1)
        player = self._farmers_turn()
        if player is None:
            self._finish()
            return
        self.agent_selection = self._turn = self._agent_names[player]
        if self._mask_in_info:
            self._post_mask()

    def _finish(self) -> None:
        """The episode has ended: every agent is terminated and gets its return; every agent's
        ``info`` holds the outcome (scores, winner and breakdown per side, his side)."""
        self._over = self._rewarded = True
        table = self.state_now
        returns = self.episode.returns(table)
        seat, rewards, cumulative, infos = self._seat, self.rewards, self._cumulative_rewards, self.infos
        result = outcome(table)
        rules = self.episode.rules
        zeros = np.zeros(rules.num_actions, dtype=np.int8)
        for a in self.agents:
            rewards[a] = returns[seat[a]]
            cumulative[a] += rewards[a]
            self.terminations[a] = True
            infos[a] = {**result, "side": rules.side_of(seat[a])}
            if self._mask_in_info:
                infos[a]["action_mask"] = zeros
        self._quiet = {a: (None, cumulative[a], True, False, infos[a]) for a in self.agents}

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
            self.agent_selection = self._turn = self.agents[0]
        else:
            self._turn = None
        if self._rewarded:  # the rewards were given at the last step: clear them
            self._rewarded = False
            self._clear_rewards()

    def render(self) -> str | None:
        """The table as text in ``render_mode="ansi"`` (None otherwise)."""
        if self.render_mode != "ansi":
            return None
        return self.episode.render(self.state_now)

    def close(self) -> None:
        """Nothing to release."""
