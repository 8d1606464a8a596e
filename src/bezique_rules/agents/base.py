"""The `Agent` protocol and `RandomAgent`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import attrs

from ..actions import Action
from ..errors import IllegalActionError, RuleCode
from ..state.deal import DealState, PlayerView, check_rng, check_view
from ..state.worlds import Worlds

__all__ = ["Agent", "RandomAgent", "choose_in_world", "choose_in_worlds", "choose_unless_forced", "legal_or_raise"]


_NOT_GIVEN: object = object()


def legal_or_raise(view: PlayerView, rng: object = _NOT_GIVEN) -> tuple[Action, ...]:
    """The legal actions of the player whose view this is (checking an agent's arguments).

    Raises:
        ArgumentTypeError: ``view`` is not a `PlayerView`, or ``rng`` (when given) is not a
            `random.Random` (also a TypeError).
        IllegalActionError: it is not this player's turn (he has nothing to do; rule
            ``NOT_YOUR_TURN``, or ``GAME_OVER`` when the deal is over).
    """
    check_view(view, "an agent")
    if rng is not _NOT_GIVEN:
        check_rng(rng, "an agent")
    legal = view.legal_actions()
    if not legal:
        over = view.current_player is None
        raise IllegalActionError(
            f"player {view.player} has nothing to do now ("
            + ("the deal is over)" if over else f"player {view.current_player} is to act)"),
            rule=RuleCode.GAME_OVER if over else RuleCode.NOT_YOUR_TURN,
            player=view.current_player,
            phase=view.phase,
        )
    return legal


def choose_in_world(view: PlayerView, rng: random.Random, decide: Callable[[DealState], Action]) -> Action:
    """The action of an agent that reasons on one sampled world: the only legal action when
    it is forced (then no world is sampled and ``rng`` is not used), else ``decide(world)``
    for one world sampled with `determinize` (consistent with everything ``view`` shows).

    Raises:
        ArgumentTypeError: ``view`` or ``rng`` of the wrong type (see `legal_or_raise`).
        IllegalActionError: it is not this player's turn.
    """
    return choose_in_worlds(view, rng, lambda _worlds, world: decide(world))


def choose_in_worlds(view: PlayerView, rng: random.Random, decide: Callable[[Worlds, DealState], Action]) -> Action:
    """As `choose_in_world`, for an agent that samples many worlds in one decision:
    ``decide(worlds, world)`` gets the `Worlds` of ``view`` (built once: sample more with
    ``worlds.sample(rng)``) and a first world sampled from it.

    Raises:
        ArgumentTypeError: ``view`` or ``rng`` of the wrong type (see `legal_or_raise`).
        IllegalActionError: it is not this player's turn.
    """

    def sampled() -> Action:
        worlds = Worlds(view)
        return decide(worlds, worlds.sample(rng))

    return choose_unless_forced(view, rng, sampled)


def choose_unless_forced(view: PlayerView, rng: random.Random, decide: Callable[[], Action]) -> Action:
    """The only legal action when it is forced (then ``decide`` is not called), else ``decide()``:
    how every agent but `RandomAgent` answers a forced move.

    Raises:
        ArgumentTypeError: ``view`` or ``rng`` of the wrong type (see `legal_or_raise`).
        IllegalActionError: it is not this player's turn.
    """
    legal = legal_or_raise(view, rng)
    return legal[0] if len(legal) == 1 else decide()


@runtime_checkable
class Agent(Protocol):
    """A computer player: picks an action from what one player may see.

    An agent gets a `PlayerView` (never the full state: it cannot see the other
    hands or the stock) and a `random.Random` (its only source of randomness, so
    that a run can be repeated). It returns one of ``view.legal_actions()``.
    Any object with such a ``choose`` method is an agent; a plain function can
    be wrapped with a small class.
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action to play now (one of ``view.legal_actions()``)."""
        ...


@attrs.frozen
class RandomAgent:
    """Plays a legal action chosen uniformly at random. Works for every preset.

    >>> import random
    >>> from bezique_rules import new_deal
    >>> deal = new_deal("euchre", seed=3)
    >>> player = deal.current_player
    >>> deal.is_legal(RandomAgent().choose(deal.view(player), random.Random(0)))
    True
    """

    name: str = "random"
    """A name for reports."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random legal action.

        Raises:
            IllegalActionError: it is not this player's turn.
            ArgumentTypeError: ``view`` or ``rng`` of the wrong type.
        """
        legal = legal_or_raise(view, rng)
        return legal[rng.randrange(len(legal))]
