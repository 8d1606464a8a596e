"""What both environments share: spaces, observations, episodes and rewards (needs the rl extra)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces

from ..api import new_deal
from ..game import GameState, new_game
from ..observation import encode_observation, observation_string
from ..returns import deal_returns, game_returns
from ..rules.registry import get_rules
from ..rules.ruleset import RuleSet
from ..state import DealState

__all__ = ["OBSERVATION_BOUND", "Episode", "Table", "observation_space"]

OBSERVATION_BOUND = 1000.0
"""The bound of the observation Box (the encoding stays far inside it)."""

Table = DealState | GameState


def observation_space(rules: RuleSet) -> spaces.Dict:
    """``{"observation": Box of rules.observation_shape, "action_mask": int8 Box of num_actions}``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, rules.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (rules.num_actions,), np.int8),
        }
    )


class Episode:
    """The episodes of an environment: its rule set, the seeded sequence of deals (or whole
    games) and what is derived once per rule set (the reward scale); the table being played
    is the environment's own ``state_now``."""

    def __init__(self, variant: str, whole_game: bool, options: dict[str, Any]) -> None:
        self.rules = get_rules(variant, **options)
        self.whole_game = whole_game
        self.rng = random.Random()
        self._players = self.rules.players
        self._num_actions = self.rules.num_actions
        self._score_scale = self.rules.encodings.score_scale
        self._observation_size = self.rules.observation_layout.size

    def seed(self, seed: int | None) -> None:
        """Reseed the deal sequence (None: keep the current sequence going)."""
        if type(seed) is int and seed >= 0:
            self.rng = random.Random(seed)
        elif seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                from ..errors import DealError

                raise DealError(f"a seed is a whole number of 0 or more, not {seed!r}")
            self.rng = random.Random(int(seed))

    def deal(self) -> Table:
        """The next deal (or game) of the sequence."""
        seed = self.rng.getrandbits(63)
        if self.whole_game:
            return new_game(self.rules, seed=seed)
        return new_deal(self.rules, seed=seed)

    def observe(self, table: Table, player: int) -> dict[str, Any]:
        """``player``'s observation dict (fresh arrays each call); the mask is all zero when not his turn."""
        encoded = encode_observation(table.view(player), self.rules)
        obs = np.fromiter(encoded, dtype=np.float32, count=self._observation_size)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if table.current_player == player:
            mask[table.legal_action_ids(),] = 1
        return {"observation": obs, "action_mask": mask}

    def returns(self, table: Table) -> tuple[float, ...]:
        """Per player: the reward for the episode (0 while it goes on)."""
        if isinstance(table, GameState):
            return game_returns(table)
        if not table.is_over:
            return (0.0,) * self._players
        scale = self._score_scale
        return tuple(r / scale for r in deal_returns(self.rules, table.scores))

    def render(self, table: Table) -> str:
        """Every seat's view, one line each (the whole table: for people, not for agents)."""
        head = f"{self.rules.name}: " + ("game over" if table.is_over else f"player {table.current_player} to act")
        return "\n".join([head] + [observation_string(table.view(p)) for p in range(self._players)])
