"""The Gymnasium ``Env`` (needs the rl extra); build it with `bezique_rules.integrations.envs.gym_env` or
``gymnasium.make("bezique_rules/<preset>-v0")`` (importing this module registers the ids)."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from ...agents import Agent
from ...agents.levels import make_agent
from ...cards import Suit
from ...rules.registry import available_variants
from ...rules.ruleset import RuleSet
from ...state.game import GameState
from . import DEFAULT_OPPONENT
from ._common import Encoder, EnvSettings, Episode, Table, outcome

__all__ = ["DEFAULT_OPPONENT", "BeziqueEnv", "env_id", "register_all"]

ILLEGAL_ACTION_REWARD = -1.0
"""The reward of an illegal action (which ends the episode)."""


def env_id(variant: str) -> str:
    """The Gymnasium id of a variant: ``bezique_rules/<name>-v0``."""
    return f"bezique_rules/{variant}-v0"


class BeziqueEnv(gymnasium.Env[Any, np.int64]):
    """One seat of a deal (or a whole game) against built-in agents, in Gymnasium's API.

    Every observation is taken when the learner is to act: `reset` and `step` never hand
    back a finished deal unless the episode itself has ended (a deal the built-in players
    finish before the learner's first turn is dealt again and reported in
    ``info["skipped_deals"]``). The mask of the legal actions is `action_masks` (bool, the
    sb3-contrib convention) and ``info["action_mask"]`` (int8, what
    ``action_space.sample(mask=...)`` takes)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        variant: str,
        settings: EnvSettings,
        options: dict[str, Any],
        *,
        opponent: str | Agent = DEFAULT_OPPONENT,
        partner: str | Agent | None = None,
        seat: int | Literal["random"] = 0,
    ) -> None:
        """Build it with `bezique_rules.integrations.envs.gym_env` or ``gymnasium.make`` (which
        take the settings as keywords)."""
        self.render_mode = settings.render_mode
        self.episode = Episode(variant, settings, options)
        rules = self.episode.rules
        if not (seat == "random" or (type(seat) is int and 0 <= seat < rules.players)):
            raise ValueError(f"seat must be a seat from 0 to {rules.players - 1} or 'random': {seat!r}")
        self.seat_choice: int | Literal["random"] = seat
        """The ``seat`` asked for: a seat, or ``"random"`` (drawn per episode)."""
        self.seat: int = 0 if seat == "random" else seat
        """The learner's seat in the current episode."""
        self.opponent: Agent = _agent(opponent, "opponent")
        partners = any(len(side) > 1 for side in rules.sides)
        if partner is not None and not partners:
            raise ValueError(f"{rules.name!r} has no partnerships: partner={partner!r} cannot be given")
        self.partner: Agent | None = None
        """The agent playing the learner's partners (partnership games only; default the opponent)."""
        if partners:
            self.partner = self.opponent if partner is None else _agent(partner, "partner")
        self.encoder = Encoder(rules, settings)
        self.observation_space = self.encoder.space
        self.action_space = spaces.Discrete(rules.num_actions)
        self._agent_rng = random.Random(0)
        self._ended = False
        self._agents: tuple[Agent | None, ...] = ()
        self._mask = np.zeros(rules.num_actions, dtype=np.int8)
        self._reference: Suit | None = None  # the canonical renaming's reference suit of the last observation
        self.state_now: Table = self.episode.deal()
        """The deal (or game) being played."""
        self.episode.restart()  # the first reset's deal is the first of the rotation
        self._seat_agents()

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self.episode.rules

    def _seat_agents(self) -> None:
        rules = self.episode.rules
        mine = rules.side_of(self.seat)
        partner = self.partner if self.partner is not None else self.opponent
        self._agents = tuple(
            None if p == self.seat else partner if rules.side_of(p) == mine else self.opponent
            for p in range(rules.players)
        )

    def _observe(self) -> Any:
        observation, self._mask, self._reference = self.encoder.observe_with_reference(self.state_now, self.seat)
        return observation

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array over the action space (all False once the
        episode is over): what sb3-contrib's ``MaskablePPO`` reads."""
        return self._mask.astype(bool)

    def _others_play(self) -> list[dict[str, Any]]:
        """Let the built-in agents play up to the learner's turn or the end of the episode;
        return the outcomes of the deals of a whole game that ended on the way."""
        table = self.state_now
        agents = self._agents
        before = len(table.results) if isinstance(table, GameState) else 0
        while not table.is_over and table.current_player != self.seat:
            player = table.current_player
            assert player is not None
            agent = agents[player]
            assert agent is not None
            table = table.apply(agent.choose(table.view(player), self._agent_rng))
        self.state_now = table
        return _finished_since(table, before)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a new episode and let the others play up to the learner's turn; the same ``seed``
        deals the same cards, seats the learner and the dealer the same way and the others play
        the same way (``options`` are not used).

        A deal the others finish before the learner's first turn (a lone hand he sits out, an
        opponent closing at once) is dealt again: ``info["skipped_deals"]`` lists their
        outcomes. ``info`` also holds ``action_mask``, ``seat`` and ``dealer``."""
        super().reset(seed=seed)
        self._ended = False
        episode = self.episode
        if seed is not None:
            episode.restart()
        skipped: list[dict[str, Any]] = []
        while True:
            rng = random.Random(int(self.np_random.integers(0, 2**62)))
            if self.seat_choice == "random":
                self.seat = rng.randrange(episode.rules.players)
                self._seat_agents()
            self.state_now = episode.deal(rng)
            self._agent_rng = random.Random(rng.getrandbits(63))
            finished = self._others_play()
            if not self.state_now.is_over:
                break
            skipped.append(self._outcome())
        info: dict[str, Any] = {"seat": self.seat, "dealer": self._dealer(), "skipped_deals": skipped}
        if finished:
            info["deals_finished"] = finished
        observation = self._observe()
        info["action_mask"] = self._mask
        return observation, info

    def _dealer(self) -> int:
        table = self.state_now
        return table.deal.dealer if isinstance(table, GameState) else table.dealer

    def _outcome(self) -> dict[str, Any]:
        table = self.state_now
        info = outcome(table)
        info["reward"] = float(self.episode.returns(table)[self.seat])
        info["seat"] = self.seat
        info["dealer"] = self._dealer()
        info["side"] = self.episode.rules.side_of(self.seat)
        return info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action id), then the others until the learner's turn or the end.

        ``info["action_mask"]`` is the mask of the next observation; when the episode ends,
        ``info`` also holds its ``scores`` and ``winner`` (per side), the ``breakdown`` of the
        points, the ``reward``, the learner's ``seat`` and ``side``; in a whole game,
        ``info["deals_finished"]`` lists the deals that ended during the step.

        Raises:
            IllegalActionError: the episode is over (call `reset`).
        """
        table = self.state_now
        if table.is_over or self._ended:
            from ...errors import IllegalActionError, RuleCode

            raise IllegalActionError("the episode is over: call reset()", rule=RuleCode.GAME_OVER, action=action)
        try:
            action_id = self.encoder.rules_id(self._reference, int(action))
        except (TypeError, ValueError):
            action_id = -1
        if action_id not in table.legal_action_ids():
            observation = self._observe()
            self._ended = True
            self._mask = np.zeros_like(self._mask)
            refused: dict[str, Any] = {"illegal_action": True, "action_mask": self._mask}
            return observation, ILLEGAL_ACTION_REWARD, True, False, refused
        before = len(table.results) if isinstance(table, GameState) else 0
        self.state_now = table = table.apply(action_id)
        finished = _finished_since(table, before) + self._others_play()
        over = self.state_now.is_over
        observation = self._observe()
        info: dict[str, Any] = {"action_mask": self._mask}
        if finished:
            info["deals_finished"] = finished
        if not over:
            return observation, 0.0, False, False, info
        info.update(self._outcome())
        return observation, float(info["reward"]), True, False, info

    def render(self) -> str | None:
        """The table as text in ``render_mode="ansi"`` (None otherwise)."""
        if self.render_mode != "ansi":
            return None
        return self.episode.render(self.state_now)

    def close(self) -> None:
        """Nothing to release."""


def _agent(agent: str | Agent, role: str) -> Agent:
    made = make_agent(agent) if isinstance(agent, str) else agent
    if not isinstance(made, Agent):
        raise ValueError(f"{role} is an agent or an agent name, not {agent!r}")
    return made


def _finished_since(table: Table, before: int) -> list[dict[str, Any]]:
    """The deals of a whole game finished after the first ``before``: their scores and breakdowns."""
    if not isinstance(table, GameState):
        return []
    return [{"scores": tuple(result.scores), "breakdown": result.breakdown} for result in table.results[before:]]


_ENTRY_POINT = "bezique_rules.integrations.envs:gym_env"
"""What ``gymnasium.make`` calls: `gym_env`, which takes the settings as keywords."""


def register_all() -> tuple[str, ...]:
    """Register every variant as ``bezique_rules/<name>-v0`` (once); return the ids."""
    ids = []
    for variant in available_variants():
        name = env_id(variant)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=_ENTRY_POINT, kwargs={"variant": variant})
        ids.append(name)
    return tuple(ids)


register_all()
