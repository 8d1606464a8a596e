"""What both environments share: spaces, observations, masks, episodes, outcomes and rewards
(needs the rl extra)."""

from __future__ import annotations

import math
import random
from typing import Any, Literal, get_args

import attrs
import numpy as np
from gymnasium import spaces

from ...actions import Action
from ...api import new_deal
from ...bits import lowest_bit
from ...cards import Card, Suit
from ...errors import OptionError, quote
from ...parts.trumps import NO_TRUMP
from ...rules.registry import get_rules
from ...rules.ruleset import RuleSet
from ...state.deal import DealState, PlayerView
from ...state.game import GameState, new_game
from ...state.observation import (
    LayoutField,
    ObservationLayout,
    encode_information_state,
    encode_observation,
    observation_string,
)
from ..returns import deal_returns, game_returns

__all__ = [
    "DealerChoice",
    "Encoder",
    "EnvSettings",
    "Episode",
    "ObservationKind",
    "SuitRelabelling",
    "Table",
    "TrickFeatures",
    "canonical_names",
    "observation_bounds",
    "outcome",
]

Table = DealState | GameState

ObservationKind = Literal["dict", "flat", "information_state"]
"""What an environment observes: ``"dict"`` (the observation tensor and the action mask, the
PettingZoo convention), ``"flat"`` (the observation tensor alone, a Box) or
``"information_state"`` (the information-state tensor alone, a Box: the observation and who
played what)."""

DealerChoice = int | Literal["random", "rotate"]
"""Who deals each episode: a seat, ``"random"`` (drawn from the episode's seed) or ``"rotate"``
(the last seat deals the first episode after seeding, then the deal passes to the left)."""

_KINDS: tuple[str, ...] = get_args(ObservationKind)


@attrs.frozen
class EnvSettings:
    """What both environments are built from beside the variant and its options: the keywords
    `aec_env` and `gym_env` share (see `gym_env` for each)."""

    dealer: DealerChoice = "random"
    """Who deals each episode (checked against the rule set's seats by `Episode`)."""
    observation: ObservationKind = "dict"
    """The encoding observed (checked by `Encoder`)."""
    canonical_suits: bool = False
    """The suits renumbered relative to trumps."""
    trick_features: bool = False
    """The trick's winner and the winning cards appended to the tensor."""
    whole_game: bool = False
    """An episode is a whole game instead of one deal."""
    render_mode: str | None = None
    """``"ansi"``: ``render()`` returns the table as text; None: no rendering."""

    def __attrs_post_init__(self) -> None:
        if self.render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode is None or 'ansi', not {self.render_mode!r}")


_UNBOUNDED = ("scores", "game_scores")
"""Fields that may be negative or large: points (a set contract scores below zero)."""
_COUNTS = ("verb_counts", "actions_taken")
"""Fields that count actions (0 or more, no fixed top)."""
_MELD_COUNTS = ("melds", "pending")
"""Fields that count melds per kind (at most one per card of the deck)."""

FACE_FIELDS = (
    "hand",
    "tabled",
    "known",
    "won",
    "trick",
    "last_trick",
    "turn_up",
    "buried",
    "played",
    "winning_cards",
)
"""The fields whose last axis is the deck's faces (renumbered by `SuitRelabelling`)."""
SUIT_FIELDS = ("trump", "last_suit", "marriages")
"""The fields whose last axis is the deck's suits (renumbered by `SuitRelabelling`)."""


def observation_bounds(rules: RuleSet, layout: ObservationLayout) -> tuple[np.ndarray, np.ndarray]:
    """The true bounds of every entry of an encoding with ``layout``, as float32 arrays.

    One-hot, card, trick, number and size fields lie in [0, 1]; a seat's card count is at
    most the whole deck over the dealt hand size; meld counts at most the deck size; action
    counts are 0 or more; points are unbounded (a set contract scores below zero)."""
    plan = rules.encodings
    low = np.zeros(layout.size, np.float32)
    high = np.ones(layout.size, np.float32)
    for field in layout.fields:
        if field.name == "hand_sizes":
            high[field.slice] = plan.deck_size / plan.hand_size
        elif field.name in _MELD_COUNTS:
            high[field.slice] = plan.deck_size
        elif field.name in _COUNTS:
            high[field.slice] = math.inf
        elif field.name in _UNBOUNDED:
            low[field.slice] = -math.inf
            high[field.slice] = math.inf
    return low, high


class TrickFeatures:
    """``trick_features=True``: two fields appended to the encoding, read off the current trick
    by the rule set's trick order (`TrumpTable.winner` and `TrumpTable.beats`), from the
    viewer's view alone:

    - ``trick_winner`` (players): one-hot, relative to the viewer, the seat whose card is
      winning the current trick (all zero when no card is on the table);
    - ``winning_cards`` (faces): the viewer's cards that would take the current trick if
      played now (all zero when he leads).

    A learner reads from them at once what a trick-taking player asks first (is my partner
    winning? which of my cards win?), instead of learning the trick order, bowers and all,
    from the cards on the table."""

    def __init__(self, rules: RuleSet) -> None:
        deck = rules.deck
        self.players = rules.players
        self.faces = deck.num_faces
        self.face_index = deck.face_index
        self.pid = tuple(lowest_bit(mask) for mask in deck.face_masks)
        """A physical card of each face (the trick order is the same for every copy)."""
        self.tables = rules.trump_tables

    def fields(self, start: int) -> tuple[LayoutField, ...]:
        """The two fields, from index ``start`` on."""
        n = self.players
        return (
            LayoutField(
                "trick_winner",
                start,
                (n,),
                "one-hot: the seat whose card is winning the current trick, relative to the viewer "
                "(trick_features=True)",
            ),
            LayoutField(
                "winning_cards",
                start + n,
                (self.faces,),
                "the viewer's cards that would take the current trick if played now (trick_features=True)",
            ),
        )

    def encode(self, view: PlayerView) -> np.ndarray:
        """The two fields for ``view`` (float32)."""
        n = self.players
        out = np.zeros(n + self.faces, dtype=np.float32)
        if not view.trick:
            return out
        table = self.tables[view.trump.value if view.trump is not None else NO_TRUMP]
        face_index, pid = self.face_index, self.pid
        trick = tuple(pid[face_index[card]] for card in view.trick)
        best = table.winner(trick)
        out[(view.seats_in_play(view.trick_leader)[best] - view.player) % n] = 1.0
        winning = trick[best]
        for card in view.hand:
            face = face_index[card]
            if table.beats(pid[face], winning):
                out[n + face] = 1.0
        return out


def _suit_order(suits: tuple[Suit, ...], reference: Suit) -> tuple[Suit, ...]:
    """``reference``, the other suit of its colour, then the other suits in deck order."""
    first = [reference]
    if reference.same_colour in suits:
        first.append(reference.same_colour)
    return tuple(first) + tuple(s for s in suits if s not in first)


def canonical_names(suits: tuple[Suit, ...], reference: Suit | None) -> dict[Suit, Suit]:
    """Each suit's canonical name when ``reference`` is the reference suit: ``reference`` is
    named the deck's first suit, the other suit of its colour the other suit of the first
    suit's colour, the two others the two others, in deck order (no renaming without a
    reference). Colours stay paired, so the renamed deal is a deal of the same game."""
    if reference is None or reference not in suits:
        return {s: s for s in suits}
    return dict(zip(_suit_order(suits, reference), _suit_order(suits, suits[0])))


@attrs.frozen(eq=False)
class SuitRelabelling:
    """``canonical_suits=True``: suits renumbered relative to trumps, or to the turn-up's suit
    before trumps exist (the deck order when there is neither).

    Observations and action ids are those of the same deal with its suits renamed by
    `canonical_names`: the reference suit becomes spades (the deck's first suit), the other
    suit of its colour clubs, the other two hearts and diamonds in deck order; so what is
    learned in one trump suit holds in every other, and the renamed deal is a deal of the
    same game (Euchre's left bower stays in the trump suit's colour). Built once per
    environment for every reference suit."""

    suits: tuple[Suit, ...]
    gathers: dict[Suit | None, np.ndarray]
    """Per reference suit: canonical encoding = encoding[gather]."""
    to_canonical: dict[Suit | None, np.ndarray]
    """Per reference suit: absolute action id -> canonical action id."""
    to_absolute: dict[Suit | None, np.ndarray]
    """Per reference suit: canonical action id -> absolute action id."""

    @classmethod
    def build(cls, rules: RuleSet, layout: ObservationLayout) -> SuitRelabelling:
        """The relabellings of ``rules`` for an encoding with ``layout``.

        Raises:
            OptionError: the rule set's actions are not the same in every suit.
        """
        deck = rules.deck
        suits = deck.suits
        faces = deck.faces
        face_index = deck.face_index
        actions = rules.action_space.actions
        ids = rules.action_space.ids
        gathers: dict[Suit | None, np.ndarray] = {}
        to_canonical: dict[Suit | None, np.ndarray] = {}
        to_absolute: dict[Suit | None, np.ndarray] = {}
        for reference in (None, *suits):
            canonical_of = canonical_names(suits, reference)  # absolute suit -> its canonical name
            source_of = {name: suit for suit, name in canonical_of.items()}  # the suit shown under a name
            face_source = [
                face_index[Card(source_of[c.suit], c.rank)] if c.suit is not None else i for i, c in enumerate(faces)
            ]
            suit_source = [suits.index(source_of[s]) for s in suits]
            gather = np.arange(layout.size, dtype=np.intp)
            for field in layout.fields:
                width = field.shape[-1]
                if field.name in FACE_FIELDS:
                    columns = face_source
                elif field.name in SUIT_FIELDS:
                    columns = suit_source
                else:
                    continue
                rows = field.size // width
                for row in range(rows):
                    base = field.start + row * width
                    gather[base : base + width] = [base + c for c in columns]
            forward = np.empty(len(actions), dtype=np.intp)
            for i, action in enumerate(actions):
                renamed = _rename(action, canonical_of)
                j = ids.get(renamed)
                if j is None:  # the cards of an action are kept in display order: parse its text to sort them
                    j = ids.get(Action.parse(str(renamed)))
                if j is None:
                    raise OptionError(
                        f"canonical_suits needs a game that is the same in every suit; renaming the suits "
                        f"changes {rules.name!r}: it has {str(action)!r} but not {str(renamed)!r}"
                    )
                forward[i] = j
            backward = np.empty_like(forward)
            backward[forward] = np.arange(len(actions), dtype=np.intp)
            gathers[reference], to_canonical[reference], to_absolute[reference] = gather, forward, backward
        return cls(suits, gathers, to_canonical, to_absolute)

    @staticmethod
    def reference(view: PlayerView) -> Suit | None:
        """The suit canonical suit 0 stands for in ``view``: trumps, else the turn-up's suit, else None."""
        if view.trump is not None:
            return view.trump
        if view.turn_up is not None:
            return view.turn_up.suit
        return None


def _rename(action: Action, canonical_of: dict[Suit, Suit]) -> Action:
    cards = tuple(Card(canonical_of[c.suit], c.rank) if c.suit is not None else c for c in action.cards)
    suit = canonical_of[action.suit] if action.suit is not None else None
    if cards == action.cards and suit is action.suit:
        return action
    return attrs.evolve(action, cards=cards, suit=suit)


class Encoder:
    """What a player observes in an environment: the chosen encoding (``observation``), the
    action mask and, with ``canonical_suits``, the suits renumbered; it maps the ids the
    learner sends back to the rule set's ids."""

    def __init__(self, rules: RuleSet, settings: EnvSettings) -> None:
        kind, canonical_suits, trick_features = settings.observation, settings.canonical_suits, settings.trick_features
        if kind not in _KINDS:
            raise OptionError(f"observation is one of {', '.join(map(repr, _KINDS))}, not {quote(kind)}")
        if not isinstance(canonical_suits, bool):
            raise OptionError(f"canonical_suits is True or False, not {quote(canonical_suits)}")
        if not isinstance(trick_features, bool):
            raise OptionError(f"trick_features is True or False, not {quote(trick_features)}")
        self.rules = rules
        self.kind = kind
        self.canonical_suits = canonical_suits
        self.information_state = kind == "information_state"
        base = rules.information_state_layout if self.information_state else rules.observation_layout
        self._base_size = base.size
        self.trick_features = TrickFeatures(rules) if trick_features else None
        self.layout: ObservationLayout = (
            ObservationLayout(base.fields + self.trick_features.fields(base.size))
            if self.trick_features is not None
            else base
        )
        """The layout of the tensor observed: the rule set's encoding, then the trick
        features with ``trick_features=True``."""
        self._size = self.layout.size
        self._num_actions = rules.num_actions
        self.relabelling = SuitRelabelling.build(rules, self.layout) if canonical_suits else None
        low, high = observation_bounds(rules, self.layout)
        box = spaces.Box(low, high, (self._size,), np.float32)
        self.space: spaces.Space[Any] = (
            spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8)})
            if kind == "dict"
            else box
        )
        """The observation space."""

    def _reference(self, table: Table, player: int) -> tuple[PlayerView, Suit | None]:
        view = table.view(player)
        return view, (SuitRelabelling.reference(view) if self.relabelling is not None else None)

    def tensor(self, view: PlayerView, reference: Suit | None) -> np.ndarray:
        """The encoding of ``view`` (float32; canonical when asked)."""
        encode = encode_information_state if self.information_state else encode_observation
        array = np.fromiter(encode(view, self.rules), dtype=np.float32, count=self._base_size)
        if self.trick_features is not None:
            array = np.concatenate((array, self.trick_features.encode(view)))
        if self.relabelling is not None:
            array = array[self.relabelling.gathers[reference]]
        return array

    def mask(self, table: Table, player: int, reference: Suit | None = None) -> np.ndarray:
        """``player``'s int8 action mask (canonical when asked; all zero when not his turn)."""
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if table.current_player == player:
            legal = np.fromiter(table.legal_action_ids(), dtype=np.intp)
            if self.relabelling is not None:
                legal = self.relabelling.to_canonical[reference][legal]
            mask[legal] = 1
        return mask

    def observe(self, table: Table, player: int) -> tuple[Any, np.ndarray]:
        """``player``'s observation (fresh arrays each call) and his int8 action mask."""
        observation, mask, _reference = self.observe_with_reference(table, player)
        return observation, mask

    def observe_with_reference(self, table: Table, player: int) -> tuple[Any, np.ndarray, Suit | None]:
        """`observe`, and the reference suit of the canonical renaming (None without
        ``canonical_suits``): `rules_id` maps the action sent back with it, without
        computing the view again."""
        view, reference = self._reference(table, player)
        tensor = self.tensor(view, reference)
        mask = self.mask(table, player, reference)
        if self.kind == "dict":
            return {"observation": tensor, "action_mask": mask}, mask, reference
        return tensor, mask, reference

    def to_rules_id(self, table: Table, player: int, action_id: int) -> int:
        """The rule set's id of the action ``player`` sent as ``action_id`` (canonical ids are
        renamed back; out-of-range ids are left for the caller's legality check)."""
        if self.relabelling is None:
            return action_id
        _view, reference = self._reference(table, player)
        return self.rules_id(reference, action_id)

    def rules_id(self, reference: Suit | None, action_id: int) -> int:
        """The rule set's id of ``action_id`` sent from an observation whose reference suit
        (`observe_with_reference`) is ``reference``."""
        if self.relabelling is None or not 0 <= action_id < self._num_actions:
            return action_id
        return int(self.relabelling.to_absolute[reference][action_id])


def outcome(table: Table) -> dict[str, Any]:
    """A finished deal's (or game's) outcome for ``info``: the scores per side, the winning
    side (None for a draw) and the breakdown of the points per side, as `ScoreBreakdown`
    values (a whole game: the totals and the sum of its deals' breakdowns)."""
    if isinstance(table, GameState):
        results = table.results
        breakdowns = results[0].breakdown if results else ()
        for result in results[1:]:
            breakdowns = tuple(a + b for a, b in zip(breakdowns, result.breakdown))
        return {
            "scores": tuple(table.totals),
            "winner": table.winner,
            "breakdown": breakdowns,
            "deals": len(results),
        }
    scores = tuple(table.scores)
    best = max(scores)
    leaders = [side for side, points in enumerate(scores) if points == best]
    return {
        "scores": scores,
        "winner": leaders[0] if len(leaders) == 1 else None,
        "breakdown": table.breakdown,
    }


class Episode:
    """The episodes of an environment: its rule set, the seeded sequence of deals (or whole
    games) with their dealers, and what is derived once per rule set (the reward scale); the
    table being played is the environment's own ``state_now``."""

    def __init__(self, variant: str, settings: EnvSettings, options: dict[str, Any]) -> None:
        self.rules = get_rules(variant, **options)
        dealer = settings.dealer
        if not (dealer in ("random", "rotate") or (type(dealer) is int and 0 <= dealer < self.rules.players)):
            raise OptionError(
                f"dealer is a seat from 0 to {self.rules.players - 1}, 'random' or 'rotate', not {quote(dealer)}"
            )
        self.whole_game = settings.whole_game
        self.dealer = dealer
        self.rng = random.Random()
        self._players = self.rules.players
        self._score_scale = self.rules.encodings.score_scale
        self._dealt = 0

    def seed(self, seed: int | None) -> None:
        """Reseed the deal sequence and restart the dealer's rotation (None: keep both going)."""
        if seed is None:
            return
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            from ...errors import DealError

            raise DealError(f"a seed is a whole number of 0 or more, not {seed!r}")
        self.rng = random.Random(int(seed))
        self._dealt = 0

    def restart(self) -> None:
        """Restart the dealer's rotation (the last seat deals next)."""
        self._dealt = 0

    def deal(self, rng: random.Random | None = None) -> Table:
        """The next deal (or game), its shuffle and its dealer drawn from ``rng`` (default the
        sequence's own)."""
        rng = self.rng if rng is None else rng
        seed = rng.getrandbits(63)
        if self.dealer == "random":
            dealer = rng.randrange(self._players)
        elif self.dealer == "rotate":
            dealer = (self._players - 1 + self._dealt) % self._players
        else:
            dealer = int(self.dealer)
        self._dealt += 1
        if self.whole_game:
            return new_game(self.rules, seed=seed, dealer=dealer)
        return new_deal(self.rules, seed=seed, dealer=dealer)

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
