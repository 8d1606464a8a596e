"""The Gymnasium ``Env`` (needs the rl extra); build it with `bezique_rules.envs.gym_env` or
``gymnasium.make("bezique_rules/<preset>-v0")`` (importing this module registers the ids)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import Agent
from ..agents.levels import make_agent
from ..errors import OptionError
from ..rules.registry import available_variants
from ._common import Episode, Table, observation_space

__all__ = ["BeziqueEnv", "env_id", "register_all"]

ILLEGAL_ACTION_REWARD = -1.0
"""The reward of an illegal action (which ends the episode)."""


def env_id(variant: str) -> str:
    """The Gymnasium id of a variant: ``bezique_rules/<name>-v0``."""
    return f"bezique_rules/{variant}-v0"


class BeziqueEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a deal (or a whole game) against built-in agents, in Gymnasium's API."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        variant: str,
        *,
        opponent: str | Agent = "level4",
        seat: int = 0,
        whole_game: bool = False,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.episode = Episode(variant, whole_game, options)
        rules = self.episode.rules
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise ValueError(f"seat must be a seat from 0 to {rules.players - 1}: {seat!r}")
        self.seat = seat
        self.opponent: Agent = make_agent(opponent) if isinstance(opponent, str) else opponent
        if not isinstance(self.opponent, Agent):
            raise ValueError(f"opponent is an agent or an agent name, not {opponent!r}")
        self.observation_space = observation_space(rules)
        self.action_space = spaces.Discrete(rules.num_actions)
        self._agent_rng = random.Random(0)
        self.state_now: Table = self.episode.deal()
        """The deal (or game) being played."""

    def _observe(self) -> dict[str, Any]:
        return self.episode.observe(self.state_now, self.seat)

    def _others_play(self) -> None:
        table = self.state_now
        while not table.is_over and table.current_player != self.seat:
            player = table.current_player
            assert player is not None
            table = table.apply(self.opponent.choose(table.view(player), self._agent_rng))
        self.state_now = table

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new episode and let the others play up to the learner's turn; the same ``seed``
        deals the same cards and the opponents play the same way (``options`` are not used)."""
        super().reset(seed=seed)
        episode = self.episode
        draw = int(self.np_random.integers(0, 2**62))
        episode.seed(draw)
        self.state_now = episode.deal()
        self._agent_rng = random.Random(draw)
        self._others_play()
        return self._observe(), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action id), then the others until the learner's turn or the end."""
        if self.state_now.is_over:
            from ..errors import IllegalActionError, RuleCode

            raise IllegalActionError("the episode is over: call reset()", rule=RuleCode.GAME_OVER, action=action)
        action_id = int(action)
        if action_id not in self.state_now.legal_action_ids():
            return self._observe(), ILLEGAL_ACTION_REWARD, True, False, {"illegal_action": True}
        self.state_now = self.state_now.apply(action_id)
        self._others_play()
        over = self.state_now.is_over
        reward = self.episode.returns(self.state_now)[self.seat] if over else 0.0
        return self._observe(), float(reward), over, False, {}

    def render(self) -> str | None:
        """The table as text in ``render_mode="ansi"`` (None otherwise)."""
        if self.render_mode != "ansi":
            return None
        return self.episode.render(self.state_now)

    def close(self) -> None:
        """Nothing to release."""


def register_all() -> tuple[str, ...]:
    """Register every variant as ``bezique_rules/<name>-v0`` (once); return the ids."""
    ids = []
    for variant in available_variants():
        name = env_id(variant)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=BeziqueEnv, kwargs={"variant": variant})
        ids.append(name)
    return tuple(ids)


register_all()
