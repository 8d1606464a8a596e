"""Every preset as a pyspiel Python game (needs the ``[openspiel]`` extra; see
`bezique_rules.integrations.openspiel.register`).

One OpenSpiel game is one deal. The first ``deck.size`` moves are chance moves that
deal the deck: each outcome is the *face* of the next card (``deck.faces`` order),
with the probability of drawing that face from what is left, so the chance nodes
give every order of the deck its shuffle probability. Then the players act with this
library's action ids (``rules.num_actions`` distinct actions). The dealer is the last
seat, as in `new_deal`.

Six-pack Bezique's cut is a chance move of its own, after the deck: its outcome is the
packet's size less the smallest (uniform), so the cut shown after the guess tells nothing
about the order of the stock. Under Euchre's farmer's-hand house rule every seat is asked
in turn whether to swap one (`bezique_rules.engine.euchre.FarmersRound`): a seat holding
none answers ``pass``, which is not a move of the deal, so ``current_player`` never shows
who holds one.

Observers honour OpenSpiel's observation types: with ``private_info`` for the single
player (the default), the player's view; with no private information, only what every
player sees (`public_view`): no hand, no buried card, no card passed or discarded face down,
no farmer's-hand answer. Other combinations raise ValueError.

Python attributes of a state are kept small: one immutable `_Box` holding the deal,
shared by clones (OpenSpiel clones with ``copy.deepcopy`` of each attribute) and
pickled as the chance outcomes and action ids (OpenSpiel serializes with pickle), from
which the deal is rebuilt on demand.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
import pyspiel

from ..actions import Action, Verb
from ..api import new_deal
from ..cards import CardSet
from ..engine.euchre import FarmersRound
from ..parts.euchre import OrderUp
from ..rules.registry import available_variants, get_rules, preset
from ..rules.ruleset import CutGuess, OptionSpec, RuleSet
from ..state.deal import DealState, Phase, PlayerView
from ..state.observation import (
    encode_information_state,
    encode_observation,
    information_state_string,
    observation_string,
)
from ..state.worlds import determinize
from .returns import deal_returns

__all__ = ["game_name", "game_parameters", "public_view", "register_all"]

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
    """The deal (in its farmer's-hand round) and how it was reached: the chance outcomes
    and the players' action ids; never changed once made (clones share it)."""

    __slots__ = ("actions", "faces", "round")

    def __init__(
        self, faces: tuple[int, ...] = (), actions: tuple[int, ...] = (), round: FarmersRound | None = None
    ) -> None:
        self.faces = faces
        self.actions = actions
        self.round = round

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
                max_chance_outcomes=max(rules.deck.num_faces, _cut_outcomes(rules)),
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

        def state_of(self, deal: DealState, asked: int | None = None) -> Any:
            """A state of this game holding ``deal`` (a deal of the same rules), with the matching
            history: the faces of its deck (and six-pack's cut) as chance moves, then the players'
            action ids. ``asked``: how many seats of a farmer's-hand round have answered (None:
            where the deal's moves leave it, `FarmersRound.start`); a farmer's-hand ``pass``
            that the deal holds from a seat the round has not reached is left out (nobody else
            saw it: a `determinize` world holds such passes)."""
            if deal.rules != self.rules:
                raise ValueError(f"the deal is of {deal.rules.name!r}, not of this game's rules")
            faces = tuple(self.rules.deck.face_of[pid] for pid in deal.deck_order)
            if _cut_outcomes(self.rules):
                faces += (deal.setup.packet - _cut(self.rules).smallest,)
            round_, actions = _replay(_deal_from_faces(self.rules, faces), deal, asked)
            new = State(self)
            new._replaying = True
            try:
                for move in (*faces, *actions):
                    new.apply_action(move)
            finally:
                new._replaying = False
            new._box = _Box(faces, actions, round_)
            return new

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if iig_obs_type is None:
                return Observer(self.rules, information_state=True, public=False)
            if not iig_obs_type.public_info:
                raise ValueError("these games' observations always hold the public information (public_info=True)")
            private = iig_obs_type.private_info
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("these games observe one player's private information or none, not every player's")
            return Observer(
                self.rules,
                information_state=bool(iig_obs_type.perfect_recall),
                public=private == pyspiel.PrivateInfoType.NONE,
            )

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
        def round(self) -> FarmersRound | None:
            """The deal in its farmer's-hand round once the deck is dealt (None while chance moves remain)."""
            box = self._box
            if box.round is None and len(box.faces) == _chances(self.rules):
                round_ = FarmersRound(_deal_from_faces(self.rules, box.faces))
                for action_id in box.actions:
                    round_ = round_.apply(action_id)  # replaying its own, legal, history
                self._box = box = _Box(box.faces, box.actions, round_)
            return box.round

        @property
        def deal(self) -> DealState | None:
            """The deal once the deck is dealt (None while chance moves remain)."""
            round_ = self.round
            return None if round_ is None else round_.deal

        # -- the pyspiel API -----------------------------------------------------

        def current_player(self) -> int:
            round_ = self.round
            if round_ is None:
                return int(pyspiel.PlayerId.CHANCE)
            if round_.deal.is_over:
                return int(pyspiel.PlayerId.TERMINAL)
            player = round_.current_player
            assert player is not None
            return player

        def _legal_actions(self, player: int) -> list[int]:
            round_ = self.round
            if round_ is None or round_.deal.is_over or player != round_.current_player:
                return []
            return list(round_.legal_action_ids())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            deck = self.rules.deck
            faces = self._box.faces
            if len(faces) == deck.size:  # six-pack's cut: each packet size alike
                count = _cut_outcomes(self.rules)
                return [(k, 1.0 / count) for k in range(count)]
            left = deck.size - len(faces)
            counts = [deck.packs] * deck.num_faces
            for f in faces:
                counts[f] -= 1
            return [(f, c / left) for f, c in enumerate(counts) if c]

        def _apply_action(self, action: int) -> None:
            if self._replaying:  # state_of rebuilding the history of a deal it already holds
                return
            box = self._box
            if box.round is None and len(box.faces) < _chances(self.rules):
                self._box = _Box((*box.faces, int(action)))
                return
            round_ = self.round
            assert round_ is not None
            self._box = _Box(box.faces, (*box.actions, int(action)), round_.apply(int(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                if len(self._box.faces) == self.rules.deck.size:
                    return f"cut {_cut(self.rules).smallest + action}"
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
            random (`determinize`), seeded from ``probability_sampler``; the farmer's-hand
            round where this one is."""
            round_ = self.round
            if round_ is None:
                return self.clone()
            rng = random.Random(int(probability_sampler() * 2**53))
            guess = determinize(round_.deal.view(player), rng)
            return self.get_game().state_of(guess, round_.asked)

        def __str__(self) -> str:
            deal = self.deal
            if deal is None:
                return f"dealing: {len(self._box.faces)} of {_chances(self.rules)} chance moves"
            return "\n".join(observation_string(deal.view(p)) for p in range(self.rules.players))

    class Observer:
        """The observation (or information-state) tensor and string of a state for a player:
        his view, or only its public part (``public``)."""

        def __init__(self, rules: RuleSet, *, information_state: bool, public: bool) -> None:
            self.rules = rules
            self.information_state = information_state
            self.public = public
            layout = rules.information_state_layout if information_state else rules.observation_layout
            self.tensor: Any = np.zeros(layout.size, np.float32)
            self.dict = {f.name: self.tensor[f.slice].reshape(f.shape) for f in layout.fields}

        def _view(self, state: Any, player: int) -> PlayerView | None:
            round_ = state.round
            if round_ is None:
                return None
            view: PlayerView = round_.deal.view(player)
            if self.public:
                view = public_view(view, self.rules)
            if round_.seat is not None:  # the farmer's-hand round: the seat asked, as everybody sees it
                legal = view.legal if round_.seat == player and not self.public else ()
                view = attrs.evolve(view, phase=Phase.DISCARD, current_player=round_.seat, legal=legal)
            return view

        def set_from(self, state: Any, player: int) -> None:
            view = self._view(state, player)
            if view is None:
                self.tensor.fill(0.0)
                return
            encode = encode_information_state if self.information_state else encode_observation
            self.tensor[:] = encode(view, self.rules)

        def string_from(self, state: Any, player: int) -> str:
            view = self._view(state, player)
            if view is None:
                return f"p{player} dealing {len(state._box.faces)}"
            text = information_state_string(view) if self.information_state else observation_string(view)
            seat = state.round.seat
            if seat is not None:  # the farmer's-hand round: who is asked (every seat in turn)
                text += f" | farmer's hand: seat {seat} asked"
            return text

    return game_type, Game


def _cut(rules: RuleSet) -> CutGuess:
    cut = rules.stock.cut_guess if rules.stock is not None else None
    assert cut is not None
    return cut


def _cut_outcomes(rules: RuleSet) -> int:
    """How many packet sizes six-pack's cut may have (its chance move), or 0 without a random cut."""
    cut = rules.stock.cut_guess if rules.stock is not None else None
    if cut is None or cut.packet is not None:
        return 0
    return cut.largest - cut.smallest + 1


def _chances(rules: RuleSet) -> int:
    """How many chance moves a deal starts with: the deck's cards, then six-pack's cut."""
    return rules.deck.size + (1 if _cut_outcomes(rules) else 0)


def _deal_from_faces(rules: RuleSet, faces: tuple[int, ...]) -> DealState:
    deck = rules.deck
    deal = new_deal(rules, deck=[deck.faces[f] for f in faces[: deck.size]])
    if len(faces) > deck.size:
        deal = deal._with_cut_packet(_cut(rules).smallest + faces[deck.size])
    return deal


def _replay(fresh: DealState, deal: DealState, asked: int | None) -> tuple[FarmersRound, tuple[int, ...]]:
    """The players' action ids that take ``fresh`` (``deal`` as dealt) to ``deal`` with
    ``asked`` seats of its farmer's-hand round answered, and that round. A farmer's-hand
    ``pass`` of a seat the round has not reached is left out."""
    target = FarmersRound.start(deal) if asked is None else FarmersRound(deal, asked)
    moves = target.moves_seen_in_turn()
    round_ = FarmersRound(fresh)
    pass_id = deal.rules.action_id(Action(Verb.PASS)) if round_.seats else -1
    actions: list[int] = []
    j = 0
    while j < len(moves) or (round_.asked < target.asked and round_.seat is not None):
        seat = round_.seat
        if seat is not None and (not round_.forwarded or j == len(moves) or moves[j][0] != seat):
            action = pass_id  # a seat holding none, or a holder whose pass is not among the moves
        else:
            action = moves[j][1]
            j += 1
        round_ = round_.apply(action)
        actions.append(action)
    return round_, tuple(actions)


def public_view(view: PlayerView, rules: RuleSet) -> PlayerView:
    """What every player sees of ``view`` (a view of a deal of ``rules``): no hand, no buried
    card, the cards of a face-down discard or of cards passed left out, and the viewer's own
    farmer's-hand ``pass`` left out (a farmer's swap is shown to all), and no legal actions
    (they name the viewer's cards)."""
    own_farmer = _own_farmer_answer(view, rules)
    history = []
    for i, (who, action) in enumerate(view.history):
        if i == own_farmer:
            continue
        if action.verb in (Verb.DISCARD, Verb.GIVE) and action.cards and not _is_swap(action, rules):
            action = Action(action.verb)
        history.append((who, action))
    return attrs.evolve(view, hand=CardSet(()), buried=(), history=tuple(history), legal=())


def _farmers(rules: RuleSet) -> bool:
    return isinstance(rules.bidding, OrderUp) and rules.bidding.farmers_hand != "off"


def _is_swap(action: Action, rules: RuleSet) -> bool:
    """Whether ``action`` is a farmer's swap (three cards discarded for the kitty's, shown to all)."""
    return _farmers(rules) and action.verb is Verb.DISCARD and len(action.cards) == 3


def _own_farmer_answer(view: PlayerView, rules: RuleSet) -> int | None:
    """The index in ``view.history`` of the viewer's farmer's-hand ``pass``, or None.

    The round's moves come first; the viewer sees only the swaps and his own answer. The
    bidding then starts with the dealer's left (after the dealer names a suit for a turned
    Benny), so a pass of the viewer's before anybody else's bid is his answer unless he is
    the dealer's left: then it is his answer when he acts next too, or a swap or the
    dealer's naming follows it, or, as the last move, he is still to act."""
    if not _farmers(rules):
        return None
    history = view.history
    first = (view.dealer + 1) % rules.players
    for i, (who, action) in enumerate(history):
        if _is_swap(action, rules):
            continue
        if who != view.player or action.verb is not Verb.PASS:
            return None  # the bidding has begun (the others' answers are hidden from him)
        if who != first:
            return i
        if i + 1 == len(history):
            return i if view.current_player == who or view.phase is Phase.TRUMP else None
        after, next_action = history[i + 1]
        return i if after == who or next_action.verb is Verb.TRUMP or _is_swap(next_action, rules) else None
    return None


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
