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

__all__ = ["OBSERVATION_BOUND", "Episode", "observation_space", "observe"]

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


def observe(rules: RuleSet, table: Table, player: int) -> dict[str, Any]:
    """``player``'s observation dict (a fresh array each call); the mask is all zero when not his turn."""
    obs = np.asarray(encode_observation(table.view(player), rules), dtype=np.float32)
    mask: Any = np.zeros(rules.num_actions, dtype=np.int8)
    if table.current_player == player:
        mask[list(table.legal_action_ids())] = 1
    return {"observation": obs, "action_mask": mask}


class Episode:
    """One episode: a deal (or a whole game) of a rule set, dealt from a seed."""

    def __init__(self, variant: str, whole_game: bool, options: dict[str, Any]) -> None:
        self.rules = get_rules(variant, **options)
        self.whole_game = whole_game
        self.rng = random.Random()
        self.table: Table = self._fresh()

    def seed(self, seed: int | None) -> None:
        """Reseed the deal sequence (None: keep the current sequence going)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                from ..errors import DealError

                raise DealError(f"a seed is a whole number of 0 or more, not {seed!r}")
            self.rng = random.Random(int(seed))

    def _fresh(self) -> Table:
        seed = self.rng.getrandbits(63)
        if self.whole_game:
            return new_game(self.rules, seed=seed)
        return new_deal(self.rules, seed=seed)

    def restart(self) -> None:
        """Deal a new deal (or game) from the sequence."""
        self.table = self._fresh()

    @property
    def over(self) -> bool:
        """Whether the episode has ended."""
        return self.table.is_over

    def returns(self) -> tuple[float, ...]:
        """Per player: the reward for the episode (0 while it goes on)."""
        table = self.table
        if isinstance(table, GameState):
            return game_returns(table)
        if not table.is_over:
            return (0.0,) * self.rules.players
        scale = self.rules.encodings.score_scale
        return tuple(r / scale for r in deal_returns(self.rules, table.scores))

    def render(self) -> str:
        """Every seat's view, one line each (the whole table: for people, not for agents)."""
        head = f"{self.rules.name}: " + ("game over" if self.over else f"player {self.table.current_player} to act")
        return "\n".join([head] + [observation_string(self.table.view(p)) for p in range(self.rules.players)])
