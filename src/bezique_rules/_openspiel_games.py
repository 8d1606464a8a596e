"""Every preset as a pyspiel Python game (needs the ``[openspiel]`` extra; see `bezique_rules.openspiel.register`).

One OpenSpiel game is one deal. The first ``deck.size`` moves are chance moves that
deal the deck: each outcome is the *face* of the next card (``deck.faces`` order),
with the probability of drawing that face from what is left, so the chance nodes
give every order of the deck its shuffle probability. Then the players act with this
library's action ids (``rules.num_actions`` distinct actions). The dealer is the last
seat, as in `new_deal`.

Python attributes of a state are kept small: one immutable `_Box` holding the deal,
shared by clones (OpenSpiel clones with ``copy.deepcopy`` of each attribute) and
pickled as the chance outcomes and action ids (OpenSpiel serializes with pickle), from
which the deal is rebuilt on demand.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from .api import new_deal
from .observation import (
    encode_information_state,
    encode_observation,
    information_state_string,
    observation_string,
)
from .returns import deal_returns
from .rules.registry import available_variants, get_rules, preset
from .rules.ruleset import OptionSpec, RuleSet
from .state import DealState, determinize

__all__ = ["game_name", "game_parameters", "register_all"]

_NONE = -1
"""The parameter value standing for None, for options that can be switched off."""


def game_name(variant: str) -> str:
    """The pyspiel name of a preset: ``python_bezique_rules_<name with underscores>``."""
    return "python_bezique_rules_" + variant.replace("-", "_")


def _parameter(spec: OptionSpec) -> bool | int | float | str:
    value = spec.default
    if value is None:
        return _NONE
    if isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"option {spec.name!r} has a default OpenSpiel cannot carry: {value!r}")


def _options(specs: tuple[OptionSpec, ...], params: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.name not in params:
            continue
        value = params[spec.name]
        if spec.allow_none and value == _NONE and not isinstance(spec.default, bool):
            value = None
        if value != spec.default or type(value) is not type(spec.default):
            out[spec.name] = value
    return out


def game_parameters(rules: RuleSet) -> dict[str, bool | int | float | str]:
    """The pyspiel parameters of ``rules``'s options (None as -1)."""
    return {name: (_NONE if value is None else value) for name, value in rules.option_values}


def _bound(rules: RuleSet) -> float:
    """A bound on the absolute value of a deal's returns (generous: a hundred times the score scale)."""
    return 100.0 * rules.encodings.score_scale


def _max_length(rules: RuleSet) -> int:
    """A bound on the moves of a deal: the chance moves, then every action a deal can hold."""
    numbered = sum(1 for a in rules.action_space.actions if a.number is not None)
    return rules.deck.size + 4 * rules.deck.size + numbered + 8 * rules.players + 64


class _Box:
    """The deal and how it was reached; never changed once made (clones share it)."""

    __slots__ = ("actions", "deal", "faces")

    def __init__(self, faces: tuple[int, ...] = (), actions: tuple[int, ...] = (), deal: DealState | None = None):
        self.faces = faces
        self.actions = actions
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return self

    def __reduce__(self) -> tuple[type[_Box], tuple[tuple[int, ...], tuple[int, ...]]]:
        return (_Box, (self.faces, self.actions))


def _make_game_class(variant: str) -> tuple[Any, type]:
    specs = preset(variant).options
    base = get_rules(variant)
    game_type = pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"bezique-rules {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=base.players,
        min_num_players=base.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={s.name: _parameter(s) for s in specs},
    )

    class Game(pyspiel.Game):
        """One deal of the preset, as a pyspiel game."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            rules = get_rules(variant, **_options(specs, dict(params or {})))
            bound = _bound(rules)
            info = pyspiel.GameInfo(
                num_distinct_actions=rules.num_actions,
                max_chance_outcomes=rules.deck.num_faces,
                num_players=rules.players,
                min_utility=-bound,
                max_utility=bound,
                utility_sum=0.0,
                max_game_length=_max_length(rules),
            )
            super().__init__(game_type, info, params or {})
            self.rules = rules

        def new_initial_state(self) -> Any:
            return State(self)

        def state_of(self, deal: DealState) -> Any:
            """A state of this game holding ``deal`` (a deal of the same rules), with the matching
            history: the faces of its deck as chance moves, then its action ids."""
            if deal.rules != self.rules:
                raise ValueError(f"the deal is of {deal.rules.name!r}, not of this game's rules")
            faces = tuple(self.rules.deck.face_of[pid] for pid in deal.deck_order)
            actions = deal.action_history
            new = State(self)
            new._replaying = True
            try:
                for move in (*faces, *actions):
                    new.apply_action(move)
            finally:
                new._replaying = False
            new._box = _Box(faces, actions, deal)
            return new

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return Observer(self.rules, information_state=perfect_recall or iig_obs_type is None)

    class State(pyspiel.State):
        """A deal being dealt (chance moves) or played."""

        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._box = _Box()
            self._replaying = False

        # -- the deal ------------------------------------------------------------

        @property
        def rules(self) -> RuleSet:
            rules: RuleSet = self.get_game().rules
            return rules

        @property
        def deal(self) -> DealState | None:
            """The deal once the deck is dealt (None while chance moves remain)."""
            box = self._box
            if box.deal is None and len(box.faces) == self.rules.deck.size:
                deal = _deal_from_faces(self.rules, box.faces)
                for action_id in box.actions:
                    deal = deal.apply(action_id, check=False)  # replaying its own, legal, history
                self._box = box = _Box(box.faces, box.actions, deal)
            return box.deal

        # -- the pyspiel API -----------------------------------------------------

        def current_player(self) -> int:
            deal = self.deal
            if deal is None:
                return int(pyspiel.PlayerId.CHANCE)
            if deal.is_over:
                return int(pyspiel.PlayerId.TERMINAL)
            player = deal.current_player
            assert player is not None
            return player

        def _legal_actions(self, player: int) -> list[int]:
            deal = self.deal
            if deal is None or deal.is_over or player != deal.current_player:
                return []
            return list(deal.legal_action_ids())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            deck = self.rules.deck
            faces = self._box.faces
            left = deck.size - len(faces)
            counts = [deck.packs] * deck.num_faces
            for f in faces:
                counts[f] -= 1
            return [(f, c / left) for f, c in enumerate(counts) if c]

        def _apply_action(self, action: int) -> None:
            if self._replaying:  # _state_of rebuilding the history of a deal it already holds
                return
            box = self._box
            if box.deal is None and len(box.faces) < self.rules.deck.size:
                self._box = _Box((*box.faces, int(action)))
                return
            deal = self.deal
            assert deal is not None
            self._box = _Box(box.faces, (*box.actions, int(action)), deal.apply(int(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {self.rules.deck.faces[action]}"
            return str(self.rules.action_from_id(action))

        def is_terminal(self) -> bool:
            deal = self.deal
            return deal is not None and deal.is_over

        def returns(self) -> list[float]:
            deal = self.deal
            if deal is None or not deal.is_over:
                return [0.0] * self.rules.players
            return list(deal_returns(self.rules, deal.scores))

        def resample_from_infostate(self, player: int, probability_sampler: Any) -> Any:
            """A state the player cannot tell from this one: the hidden cards dealt again at
            random (`determinize`), seeded from ``probability_sampler``."""
            deal = self.deal
            if deal is None:
                return self.clone()
            rng = random.Random(int(probability_sampler() * 2**53))
            guess = determinize(deal.view(player), rng)
            return self.get_game().state_of(guess)

        def __str__(self) -> str:
            deal = self.deal
            if deal is None:
                return f"dealing: {len(self._box.faces)} of {self.rules.deck.size} cards"
            return "\n".join(observation_string(deal.view(p)) for p in range(self.rules.players))

    class Observer:
        """The observation (or information-state) tensor and string of a state for a player."""

        def __init__(self, rules: RuleSet, *, information_state: bool) -> None:
            self.rules = rules
            self.information_state = information_state
            layout = rules.information_state_layout if information_state else rules.observation_layout
            self.tensor: Any = np.zeros(layout.size, np.float32)
            self.dict = {f.name: self.tensor[f.slice].reshape(f.shape) for f in layout.fields}

        def set_from(self, state: Any, player: int) -> None:
            deal = state.deal
            if deal is None:
                self.tensor.fill(0.0)
                return
            view = deal.view(player)
            encode = encode_information_state if self.information_state else encode_observation
            self.tensor[:] = encode(view, self.rules)

        def string_from(self, state: Any, player: int) -> str:
            deal = state.deal
            if deal is None:
                return f"p{player} dealing {len(state._box.faces)}"
            view = deal.view(player)
            return information_state_string(view) if self.information_state else observation_string(view)

    return game_type, Game


def _deal_from_faces(rules: RuleSet, faces: tuple[int, ...]) -> DealState:
    deck = rules.deck
    return new_deal(rules, deck=[deck.faces[f] for f in faces])


def register_all() -> tuple[str, ...]:
    """Register every registered variant (not yet known to pyspiel) as a pyspiel game; return all their names."""
    known = set(pyspiel.registered_names())
    names = []
    for variant in available_variants():
        name = game_name(variant)
        if name not in known:
            game_type, game_class = _make_game_class(variant)
            pyspiel.register_game(game_type, game_class)
        names.append(name)
    return tuple(names)
