"""Learning environments: a PettingZoo ``AECEnv`` and a Gymnasium ``Env`` for every preset.

They need the ``[rl]`` extra (``pip install 'bezique-rules[rl]'``: numpy, gymnasium,
pettingzoo); importing this package does not import them, calling `aec_env` or `gym_env`
does, and raises an ImportError naming the extra when they are missing.

- `aec_env`: all seats, PettingZoo's agent-environment-cycle API, observations
  ``{"observation": ..., "action_mask": ...}`` (or a flat tensor, the mask in ``info``).
- `gym_env`: one seat, the others played by built-in agents (``level4`` unless told);
  also registered with Gymnasium as ``bezique_rules/<preset>-v0`` once
  `register_gym_envs` has run (importing ``bezique_rules.integrations.envs.gymnasium_env`` runs it);
  every keyword of `gym_env` is a keyword of ``gymnasium.make``. ``action_masks()`` is
  the mask sb3-contrib's ``MaskablePPO`` reads.

Observations are `bezique_rules.state.observation`'s encoding of the player's view (float32,
the observation or the information-state tensor, with true per-entry bounds);
rewards are given when the episode ends: in a deal, the player's side's points minus
the other sides' mean points, divided by the rule set's score scale; in a whole game, +1
for a win, -1 shared out among the losers, 0 for a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ..._extras import missing_extra

if TYPE_CHECKING:
    from ...agents import Agent
    from ._common import DealerChoice, ObservationKind
    from .gymnasium_env import BeziqueEnv
    from .pettingzoo_env import BeziqueAECEnv

__all__ = ["DEFAULT_OPPONENT", "aec_env", "gym_env", "register_gym_envs"]


DEFAULT_OPPONENT = "level4"
"""The agent that plays the other seats of a learning environment unless told (the full
heuristic)."""


def _missing(exc: ImportError) -> ImportError:
    return missing_extra("rl", "a learning environment", exc.name or "gymnasium")


def aec_env(
    variant: str,
    *,
    dealer: DealerChoice = "random",
    observation: ObservationKind = "dict",
    canonical_suits: bool = False,
    trick_features: bool = False,
    whole_game: bool = False,
    render_mode: str | None = None,
    **options: Any,
) -> BeziqueAECEnv:
    """A PettingZoo ``AECEnv`` of ``variant``: one deal per episode, or a whole game.

    Agents are ``player_0`` … ``player_<n-1>`` (the seats). With ``observation="dict"`` (the
    default) each observation is ``{"observation": float32 array of rules.observation_shape,
    "action_mask": int8 array of rules.num_actions}``; with ``"flat"`` it is the float32
    observation tensor alone and with ``"information_state"`` the information-state tensor
    alone (``rules.information_state_shape``), the mask then being ``info["action_mask"]``
    of the agent to act (and `BeziqueAECEnv.action_mask`). An action is an action id.
    ``dealer`` is a seat, ``"random"`` (drawn from the seed) or ``"rotate"``;
    ``canonical_suits=True`` renumbers the suits relative to trumps and ``trick_features=True``
    appends who is winning the trick and which cards would win it (see `gym_env`).
    At the end of an episode every agent's ``info`` holds the ``scores``, the ``winner``
    and the ``breakdown``. ``render_mode="ansi"`` makes ``render()`` return the table as
    text. ``reset(seed=s)`` deals the same cards for the same seed.

    Raises:
        ImportError: the rl extra is not installed.
        UnknownVariantError, OptionError: a bad variant or option.
    """
    try:
        from ._common import EnvSettings
        from .pettingzoo_env import BeziqueAECEnv
    except ImportError as exc:
        raise _missing(exc) from exc
    settings = EnvSettings(dealer, observation, canonical_suits, trick_features, whole_game, render_mode)
    return BeziqueAECEnv(variant, settings, options)


def gym_env(
    variant: str,
    *,
    opponent: str | Agent = DEFAULT_OPPONENT,
    partner: str | Agent | None = None,
    seat: int | Literal["random"] = 0,
    dealer: DealerChoice = "random",
    observation: ObservationKind = "dict",
    canonical_suits: bool = False,
    trick_features: bool = False,
    whole_game: bool = False,
    render_mode: str | None = None,
    **options: Any,
) -> BeziqueEnv:
    """A Gymnasium ``Env``: the learner plays ``seat``, built-in agents play the other seats.

    Args:
        variant: the preset (or registered variant).
        opponent: an agent or an agent name (``"random"``, ``"level1"`` … ``"level5"``)
            for the other sides; default `DEFAULT_OPPONENT` (``"level4"``, the full heuristic).
        partner: in partnership games, the agent (or name) playing the learner's partner;
            default the opponent.
        seat: the learner's seat, or ``"random"``: drawn per episode from the reset's seed.
        dealer: a seat, ``"random"`` (the default: drawn per episode from the reset's seed)
            or ``"rotate"`` (the last seat after seeding, then passing to the left).
        observation: ``"dict"`` (the default: ``{"observation", "action_mask"}``, the
            PettingZoo convention), ``"flat"`` (a Box of the observation tensor alone) or
            ``"information_state"`` (a Box of the information-state tensor: the observation
            and who played what).
        canonical_suits: renumber the suits relative to trumps (to the turn-up's suit while
            bidding): observations, masks and the action ids the learner sends are those of
            the deal with its suits renamed so that trumps are spades and the other suit of
            their colour clubs (hearts and diamonds keep their deck order), for the games
            that are the same in every suit (the Euchres, Schnapsen, Sixty-six, Marjolet;
            an OptionError for the games whose melds name suits, such as bezique's QS JD).
        trick_features: append two fields to the tensor (``env.encoder.layout`` names
            them): ``trick_winner``, one-hot, the seat (relative to the learner) whose card
            is winning the current trick, and ``winning_cards``, the learner's cards that
            would take it if played now; both all zero when no card is on the table.
        whole_game: an episode is a whole game (reward +1 / -1 / 0) instead of one deal.
        render_mode: ``"ansi"`` makes ``render()`` return the table as text.
        **options: options of the preset.

    The mask of the legal actions is ``env.action_masks()`` (bool) and ``info["action_mask"]``
    (int8). An illegal action ends the episode with reward -1 and
    ``info["illegal_action"] = True``.

    Raises:
        ImportError: the rl extra is not installed.
        UnknownVariantError, OptionError, ValueError: a bad variant, option, opponent or seat.
    """
    try:
        from ._common import EnvSettings
        from .gymnasium_env import BeziqueEnv
    except ImportError as exc:
        raise _missing(exc) from exc
    settings = EnvSettings(dealer, observation, canonical_suits, trick_features, whole_game, render_mode)
    return BeziqueEnv(variant, settings, options, opponent=opponent, partner=partner, seat=seat)


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
