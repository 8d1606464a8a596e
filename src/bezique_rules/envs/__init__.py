"""Learning environments: a PettingZoo ``AECEnv`` and a Gymnasium ``Env`` for every preset.

They need the ``[rl]`` extra (``pip install 'bezique-rules[rl]'``: numpy, gymnasium,
pettingzoo); importing this package does not import them, calling `aec_env` or `gym_env`
does, and raises an ImportError naming the extra when they are missing.

- `aec_env`: all seats, PettingZoo's agent-environment-cycle API, observations
  ``{"observation": ..., "action_mask": ...}``.
- `gym_env`: one seat, the others played by built-in agents; also registered with
  Gymnasium as ``bezique_rules/<preset>-v0`` once `register_gym_envs` has run (importing
  ``bezique_rules.envs.gymnasium_env`` runs it).

Observations are `bezique_rules.observation`'s encoding of the player's view (float32);
rewards are given when the episode ends: in a deal, the player's side's points minus
the other sides' mean points, divided by the rule set's score scale; in a whole game, +1
for a win, -1 shared out among the losers, 0 for a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..agents import Agent
    from .gymnasium_env import BeziqueEnv
    from .pettingzoo_env import BeziqueAECEnv

__all__ = ["aec_env", "gym_env", "register_gym_envs"]

_EXTRA = "pip install 'bezique-rules[rl]'"


def _missing(exc: ImportError) -> ImportError:
    return ImportError(f"the learning environments need the rl extra ({exc.name} is missing): {_EXTRA}")


def aec_env(variant: str, *, whole_game: bool = False, render_mode: str | None = None, **options: Any) -> BeziqueAECEnv:
    """A PettingZoo ``AECEnv`` of ``variant``: one deal per episode, or a whole game.

    Agents are ``player_0`` … ``player_<n-1>`` (the seats); each observation is
    ``{"observation": float32 array of rules.observation_shape, "action_mask": int8
    array of rules.num_actions}``; an action is an action id. ``render_mode="ansi"``
    makes ``render()`` return the table as text. ``reset(seed=s)`` deals the same cards
    for the same seed.

    Raises:
        ImportError: the rl extra is not installed.
        UnknownVariantError, OptionError: a bad variant or option.
    """
    try:
        from .pettingzoo_env import BeziqueAECEnv
    except ImportError as exc:
        raise _missing(exc) from exc
    return BeziqueAECEnv(variant, whole_game=whole_game, render_mode=render_mode, **options)


def gym_env(
    variant: str,
    *,
    opponent: str | Agent = "level4",
    seat: int = 0,
    whole_game: bool = False,
    render_mode: str | None = None,
    **options: Any,
) -> BeziqueEnv:
    """A Gymnasium ``Env``: the learner plays ``seat``, built-in agents play the other seats.

    ``opponent`` is an agent or an agent name (``"random"``, ``"level1"`` … ``"level5"``);
    in partnership games it also plays the learner's partner. The observation is the same
    dict as `aec_env`'s. An illegal action ends the episode with reward -1 and
    ``info["illegal_action"] = True``.

    Raises:
        ImportError: the rl extra is not installed.
        UnknownVariantError, OptionError, ValueError: a bad variant, option, opponent or seat.
    """
    try:
        from .gymnasium_env import BeziqueEnv
    except ImportError as exc:
        raise _missing(exc) from exc
    return BeziqueEnv(variant, opponent=opponent, seat=seat, whole_game=whole_game, render_mode=render_mode, **options)


def register_gym_envs() -> tuple[str, ...]:
    """Register every variant with Gymnasium as ``bezique_rules/<name>-v0``; return the ids.

    >>> import gymnasium  # doctest: +SKIP
    >>> register_gym_envs()  # doctest: +SKIP
    >>> env = gymnasium.make("bezique_rules/bezique-match-v0", opponent="level2")  # doctest: +SKIP

    Raises:
        ImportError: the rl extra is not installed.
    """
    try:
        from .gymnasium_env import register_all
    except ImportError as exc:
        raise _missing(exc) from exc
    return register_all()
