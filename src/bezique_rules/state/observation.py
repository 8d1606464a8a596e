"""Fixed-size numeric encodings of what a player may know, for learning and search.

Two encodings per rule set, each a flat list of floats with a documented layout:

- the *observation* (`RuleSet.observation_shape`, `PlayerView.observation_tensor`):
  the player's view now: own hand, the tabled and known cards of everybody, the
  current and last trick, trumps, the turn-up, the stock size, the scores, the
  phase, the bidding state and the seats;
- the *information state* (`RuleSet.information_state_shape`,
  `DealState.information_state_tensor`): the observation followed by the public
  history in a fixed-size form (who played which cards, how often each player
  took each kind of action).

Both are computed from a `PlayerView` alone, so two states that look the same to a
player encode the same for that player: no hidden card leaks into them.

The layout is derived from the rule set (its deck, seats, action space, melds,
bidding and deal pattern), so a new preset gets one without any code here. Seats
are *relative*: row ``k`` of a per-player field is the seat ``k`` places to the
viewer's left (row 0 is the viewer), and per-side rows start with the viewer's
side. Card fields count copies per face (``deck.faces`` order) divided by the
number of packs, so each entry lies in 0 … 1.

>>> from bezique_rules import get_rules, new_deal
>>> rules = get_rules("bezique")
>>> deal = new_deal(rules, seed=1)
>>> len(deal.view(0).observation_tensor()) == rules.observation_shape[0]
True
>>> rules.observation_layout.field("hand").size
32
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

import attrs

from ..actions import Action, Phase, Verb
from ..cards import Card
from ..parts.euchre import OrderUp
from ..parts.scoring import DealsEnd, GamesMatchEnd, TargetEnd

if TYPE_CHECKING:
    from ..rules.ruleset import RuleSet
    from .deal import PlayerView

__all__ = [
    "EncodingPlan",
    "LayoutField",
    "ObservationLayout",
    "encode_information_state",
    "encode_observation",
    "information_state_layout",
    "information_state_string",
    "observation_layout",
    "observation_string",
]

PHASES: tuple[Phase, ...] = tuple(Phase)
"""The phases in the order of the ``phase`` field (every phase of `Phase`)."""


@attrs.frozen
class LayoutField:
    """One named slice of an encoding."""

    name: str
    """The field's name."""
    start: int
    """Its first index in the flat encoding."""
    shape: tuple[int, ...]
    """Its shape (rows x columns for per-player fields); the slice is the product long."""
    doc: str
    """What it holds."""

    @property
    def size(self) -> int:
        """How many floats."""
        size = 1
        for d in self.shape:
            size *= d
        return size

    @property
    def stop(self) -> int:
        """One past its last index."""
        return self.start + self.size

    @property
    def slice(self) -> slice:
        """``encoding[field.slice]`` is this field."""
        return slice(self.start, self.stop)


@attrs.frozen
class ObservationLayout:
    """The fields of an encoding, in order, with their slices."""

    fields: tuple[LayoutField, ...]
    """The fields in order; they tile the encoding without gaps."""

    @property
    def size(self) -> int:
        """The length of the encoding."""
        return self.fields[-1].stop if self.fields else 0

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of ``numpy.asarray`` of the encoding: ``(size,)``."""
        return (self.size,)

    def field(self, name: str) -> LayoutField:
        """The field called ``name``.

        Raises:
            KeyError: no field has that name (the message lists them).
        """
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"no field {name!r}; fields: {', '.join(f.name for f in self.fields)}")

    def names(self) -> tuple[str, ...]:
        """The field names in order."""
        return tuple(f.name for f in self.fields)


# -- what the layout is derived from ---------------------------------------------------


@attrs.frozen
class EncodingPlan:
    """Everything the encoders need to know about a rule set, derived once from it
    (kept by the rule set as `RuleSet.encodings`)."""

    players: int
    sides: int
    faces: int
    packs: int
    suits: tuple[int, ...]  # Suit.value per suit of the deck, in deck order
    face_index: dict[Card, int]
    hand_size: int
    deck_size: int
    score_scale: float
    number_scale: float
    verbs: tuple[Verb, ...]
    meld_kinds: tuple[str, ...]
    cut_scale: float
    has: frozenset[str]  # the observation's field names: a field the rule set lacks is not encoded
    observation: ObservationLayout
    information_state: ObservationLayout

    def __getattr__(self, name: str) -> bool:
        """The 0.2.0 flags ``has_tabled``, ``has_stock``, … (deprecated: read ``"tabled" in
        plan.has``, the observation's field names); each is named in `_OLD_FLAGS`."""
        field = _OLD_FLAGS.get(name)
        if field is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        warnings.warn(
            f"EncodingPlan.{name} is deprecated: read {field!r} in plan.has", DeprecationWarning, stacklevel=2
        )
        return field in self.has


_OLD_FLAGS = {
    "has_tabled": "tabled",
    "has_known": "known",
    "has_turn_up": "turn_up",
    "has_stock": "stock_size",
    "has_game_scores": "game_scores",
    "has_pending": "pending",
    "has_marriages": "marriages",
    "has_numbers": "last_number",
    "has_suits": "last_suit",
    "has_bidding": "maker",
    "has_alone": "alone",
    "has_lone_defender": "lone_defender",
    "has_discard": "buried",
    "has_cut": "cut",
}
"""The 0.2.0 ``EncodingPlan`` flags, each with the observation field it decided."""


def _score_scale(rules: RuleSet) -> float:
    end = rules.game_end
    if isinstance(end, (TargetEnd, GamesMatchEnd)) and end.target > 0:
        return float(end.target)
    return 1000.0


def _plan(rules: RuleSet) -> EncodingPlan:
    deck = rules.deck
    actions = rules.action_space.actions
    verbs = tuple(v for v in Verb if any(a.verb is v for a in actions))
    numbers = [a.number for a in actions if a.number is not None]
    kinds = tuple(k.name for k in rules.melds.kinds)
    if rules.stock.carte_blanche:
        kinds += ("carte-blanche",)
    cut = rules.stock.cut_guess
    partial = EncodingPlan(
        players=rules.players, sides=len(rules.sides), faces=deck.num_faces, packs=deck.packs,
        suits=tuple(s.value for s in deck.suits), face_index=dict(deck.face_index),
        hand_size=max(1, rules.deal.hand_size), deck_size=deck.size, score_scale=_score_scale(rules),
        number_scale=float(max(numbers, default=1) or 1), verbs=verbs, meld_kinds=kinds,
        cut_scale=float(cut.largest if cut is not None else 1), has=frozenset(),
        observation=ObservationLayout(()), information_state=ObservationLayout(()),
    )  # fmt: skip
    specs = _observation_specs(rules, partial)
    obs = _fields(specs)
    info = _fields(specs + _history_specs(partial))
    return attrs.evolve(partial, has=frozenset(obs.names()), observation=obs, information_state=info)


_Spec = tuple[str, tuple[int, ...], str]


def _observation_specs(rules: RuleSet, p: EncodingPlan) -> list[_Spec]:
    """The observation's fields in order: one row per field, with whether the rule set has it."""
    n, f, s = p.players, p.faces, p.sides
    v, k, u = len(p.verbs), len(p.meld_kinds), len(p.suits)
    phases = ", ".join(ph.value for ph in PHASES)
    actions = rules.action_space.actions
    order_up = rules.bidding if isinstance(rules.bidding, OrderUp) else None
    known = order_up is None or order_up.taken_turn_up_shown
    lone_defender = order_up is not None and order_up.lone_defender != "never"
    pending = k > 0 and rules.stock.pending_declarations and rules.stock.melds_per_trick > 0
    game_end = rules.game_end
    game_scores = not (isinstance(game_end, DealsEnd) and game_end.deals == 1)
    alone = any(a.verb is Verb.ALONE or a.alone for a in actions)
    numbers = any(a.number is not None for a in actions)
    suits = any(a.suit is not None for a in actions)
    rows: tuple[tuple[bool, str, tuple[int, ...], str], ...] = (
        (True, "player", (n,), "one-hot: the viewer's seat (absolute)"),
        (True, "current_player", (n,),
         "one-hot: who is to act, relative to the viewer (all zero when the deal is over)"),
        (True, "dealer", (n,), "one-hot: the dealer, relative to the viewer"),
        (True, "phase", (len(PHASES),), f"one-hot: the phase ({phases})"),
        (True, "hand", (f,), "the viewer's cards (concealed and tabled), copies per face / packs"),
        (True, "hand_sizes", (n,), "cards held per seat (relative) / the dealt hand size"),
        (rules.melds_tabled, "tabled", (n, f), "per seat (relative): cards lying face up in declared melds"),
        (known, "known", (n, f), "per seat (relative): held cards everyone has seen"),
        (True, "won", (n, f), "per seat (relative): cards won in tricks"),
        (True, "trick", (n, f), "the current trick: row k is the k-th card played (one-hot face)"),
        (True, "trick_leader", (n,), "one-hot: who led the current trick, relative to the viewer"),
        (True, "last_trick", (n, f), "the previous trick: row k is the k-th card played (one-hot face)"),
        (True, "last_trick_leader", (n,), "one-hot: who led the previous trick (all zero before the first)"),
        (True, "trump", (u,), "one-hot: the trump suit, in deck suit order (all zero before trumps exist)"),
        (rules.deal.turn_up, "turn_up", (f,), "one-hot: the turned-up card, while it lies under the stock"),
        (rules.draws_from_stock, "stock_size", (1,), "face-down cards left in the stock / deck size"),
        (True, "scores", (s,), "points so far this deal per side (the viewer's side first) / score scale"),
        (game_scores, "game_scores", (s,),
         "in a game of several deals: totals before this deal per side / score scale"),
        (k > 0, "melds", (n, k), "per seat (relative): melds declared, per meld kind"),
        (pending, "pending", (n, k), "per seat (relative): melds laid out, not yet scored, per meld kind"),
        (rules.closing_game is not None, "marriages", (n, u),
         "per seat (relative): marriages announced, per suit in deck suit order (in trumps: the royal one)"),
        (True, "last_action", (n, v), "per seat (relative): one-hot verb of the seat's latest action"),
        (numbers, "last_number", (n,),
         "per seat (relative): the number (bid, guess) of its latest action / the largest"),
        (suits, "last_suit", (n, u), "per seat (relative): the suit its latest action named"),
        (numbers, "high_number", (1,), "the highest bid (or guess) so far / the largest"),
        (rules.bidding is not None, "maker", (n,),
         "one-hot: who made trumps (won the bid), relative to the viewer"),
        (alone, "alone", (n,), "one-hot: who plays alone, relative"),
        (alone, "sitting_out", (n,), "per seat (relative): 1 when sitting this deal out"),
        (lone_defender, "lone_defender", (n,), "one-hot: who defends alone, relative"),
        (Verb.DISCARD in p.verbs, "buried", (f,), "cards the viewer discarded face down"),
        (rules.stock.cut_guess is not None, "cut", (1,),
         "the size of the dealer's cut once the guess is made / the largest"),
    )  # fmt: skip
    return [(name, shape, doc) for present, name, shape, doc in rows if present]


def _history_specs(p: EncodingPlan) -> list[_Spec]:
    n, f = p.players, p.faces
    return [
        ("played", (n, f), "history: per seat (relative), the cards it played to tricks"),
        ("verb_counts", (n, len(p.verbs)), "history: per seat (relative), how many actions of each verb it took"),
        ("actions_taken", (1,), "history: public actions so far / deck size"),
    ]


def _fields(specs: Iterable[_Spec]) -> ObservationLayout:
    out: list[LayoutField] = []
    start = 0
    for name, shape, doc in specs:
        field = LayoutField(name, start, shape, doc)
        if field.size:
            out.append(field)
            start = field.stop
    return ObservationLayout(tuple(out))


def plan_of(rules: RuleSet) -> EncodingPlan:
    """The encoding plan of ``rules`` (kept on the rule set)."""
    return rules.encodings


def build_plan(rules: RuleSet) -> EncodingPlan:
    """Derive the encoding plan of ``rules`` (called once per rule set by `RuleSet`)."""
    return _plan(rules)


def observation_layout(rules: RuleSet) -> ObservationLayout:
    """The layout of ``rules``'s observation encoding."""
    return plan_of(rules).observation


def information_state_layout(rules: RuleSet) -> ObservationLayout:
    """The layout of ``rules``'s information-state encoding (the observation's fields first)."""
    return plan_of(rules).information_state


# -- encoding --------------------------------------------------------------------------


def _plan_for(view: PlayerView, rules: RuleSet | None) -> EncodingPlan:
    """The encoding plan of ``rules``, else of the view's own rule set."""
    return plan_of(rules if rules is not None else view.rules)


def encode_observation(view: PlayerView, rules: RuleSet | None = None) -> list[float]:
    """The observation encoding of ``view`` (see the module docs for the layout); ``rules``
    defaults to the view's own."""
    out: list[float] = []
    _encode_view(_plan_for(view, rules), view, out)
    return out


def encode_information_state(view: PlayerView, rules: RuleSet | None = None) -> list[float]:
    """The information-state encoding of ``view``: the observation, then the public history;
    ``rules`` defaults to the view's own."""
    plan = _plan_for(view, rules)
    out: list[float] = []
    _encode_view(plan, view, out)
    _encode_history(plan, view, out)
    return out


def _one_hot(out: list[float], size: int, index: int | None) -> None:
    row = [0.0] * size
    if index is not None and 0 <= index < size:
        row[index] = 1.0
    out.extend(row)


def _cards(p: EncodingPlan, cards: Iterable[Card]) -> list[float]:
    row = [0.0] * p.faces
    unit = 1.0 / p.packs
    index = p.face_index
    for c in cards:
        row[index[c]] += unit
    return row


def _card_rows(p: EncodingPlan, cards: Iterable[Card]) -> list[float]:
    """One one-hot face row per card, padded to ``players`` rows."""
    out = [0.0] * (p.players * p.faces)
    index = p.face_index
    for k, c in enumerate(cards):
        if k < p.players:
            out[k * p.faces + index[c]] = 1.0
    return out


def _encode_view(p: EncodingPlan, v: PlayerView, out: list[float]) -> None:
    n = p.players
    me = v.player

    def rel(seat: int | None) -> int | None:
        return None if seat is None or seat < 0 else (seat - me) % n

    seats = [(me + k) % n for k in range(n)]
    side_order = _side_order(p, me)
    _one_hot(out, n, me)
    _one_hot(out, n, rel(v.current_player))
    _one_hot(out, n, rel(v.dealer))
    _one_hot(out, len(PHASES), PHASES.index(v.phase))
    out.extend(_cards(p, v.hand))
    out.extend(v.hand_sizes[s] / p.hand_size for s in seats)
    if "tabled" in p.has:
        for s in seats:
            out.extend(_cards(p, v.tabled[s]))
    if "known" in p.has:
        for s in seats:
            out.extend(_cards(p, v.known[s]))
    for s in seats:
        out.extend(_cards(p, v.won[s]))
    out.extend(_card_rows(p, v.trick))
    _one_hot(out, n, rel(v.trick_leader) if v.trick else None)
    out.extend(_card_rows(p, v.last_trick))
    _one_hot(out, n, rel(v.last_trick_leader))
    _one_hot(out, len(p.suits), p.suits.index(v.trump.value) if v.trump is not None else None)
    if "turn_up" in p.has:
        _one_hot(out, p.faces, p.face_index[v.turn_up] if v.turn_up is not None else None)
    if "stock_size" in p.has:
        out.append(v.stock_size / p.deck_size)
    out.extend(v.scores[i] / p.score_scale for i in side_order)
    if "game_scores" in p.has:
        games = v.game_scores
        out.extend((games[i] / p.score_scale if games is not None else 0.0) for i in side_order)
    if "melds" in p.has:
        k = len(p.meld_kinds)
        rows = [0.0] * (n * k)
        for meld in v.melds:
            if meld.kind in p.meld_kinds:
                rows[rel(meld.player) * k + p.meld_kinds.index(meld.kind)] += 1.0  # type: ignore[operator]
        out.extend(rows)
    if "pending" in p.has:
        k = len(p.meld_kinds)
        rows = [0.0] * (n * k)
        for meld in v.pending:
            rows[rel(meld.player) * k + p.meld_kinds.index(meld.kind)] += 1.0  # type: ignore[operator]
        out.extend(rows)
    if "marriages" in p.has:
        ns = len(p.suits)
        rows = [0.0] * (n * ns)
        for meld in v.melds:  # the closing games' only melds: a king and a queen of the marriage's suit
            suit = next(iter(meld.cards)).suit
            if suit is not None:
                rows[rel(meld.player) * ns + p.suits.index(suit.value)] = 1.0  # type: ignore[operator]
        out.extend(rows)
    _encode_last_actions(p, v, out, seats)
    if "maker" in p.has:
        _one_hot(out, n, rel(v.maker))
    if "alone" in p.has:
        _one_hot(out, n, rel(v.alone))
    if "sitting_out" in p.has:
        out.extend(1.0 if s in v.sitting_out else 0.0 for s in seats)
    if "lone_defender" in p.has:
        _one_hot(out, n, rel(v.lone_defender))
    if "buried" in p.has:
        out.extend(_cards(p, v.buried))
    if "cut" in p.has:
        out.append(v.cut / p.cut_scale if v.cut is not None else 0.0)


def _side_order(p: EncodingPlan, me: int) -> list[int]:
    if p.sides == p.players:
        return [(me + k) % p.players for k in range(p.players)]
    mine = me % p.sides
    return [(mine + k) % p.sides for k in range(p.sides)]


def _encode_last_actions(p: EncodingPlan, v: PlayerView, out: list[float], seats: list[int]) -> None:
    n = p.players
    latest: list[Action | None] = [None] * n
    high = 0
    for who, action in v.history:
        latest[who] = action
        if action.number is not None and action.number > high:
            high = action.number
    nv, ns = len(p.verbs), len(p.suits)
    verbs = [0.0] * (n * nv)
    numbers = [0.0] * n
    suits = [0.0] * (n * ns)
    for k, s in enumerate(seats):
        a = latest[s]
        if a is None:
            continue
        if a.verb in p.verbs:
            verbs[k * nv + p.verbs.index(a.verb)] = 1.0
        if a.number is not None:
            numbers[k] = a.number / p.number_scale
        if a.suit is not None and a.suit.value in p.suits:
            suits[k * ns + p.suits.index(a.suit.value)] = 1.0
    out.extend(verbs)
    if "last_number" in p.has:
        out.extend(numbers)
    if "last_suit" in p.has:
        out.extend(suits)
    if "high_number" in p.has:
        out.append(high / p.number_scale)


def _encode_history(p: EncodingPlan, v: PlayerView, out: list[float]) -> None:
    n, f, nv = p.players, p.faces, len(p.verbs)
    me = v.player
    played = [0.0] * (n * f)
    counts = [0.0] * (n * nv)
    unit = 1.0 / p.packs
    index = p.face_index
    for who, action in v.history:
        k = (who - me) % n
        if action.verb is Verb.PLAY:
            for c in action.cards:
                played[k * f + index[c]] += unit
        if action.verb in p.verbs:
            counts[k * nv + p.verbs.index(action.verb)] += 1.0
    out.extend(played)
    out.extend(counts)
    out.append(len(v.history) / p.deck_size)


# -- strings ---------------------------------------------------------------------------


def observation_string(view: PlayerView) -> str:
    """The view as one line of text: seat, phase, hand, trick, trumps, turn-up, stock, scores.

    >>> from bezique_rules import new_deal
    >>> observation_string(new_deal("euchre", seed=1).view(2))[:40]
    'p2 bid | to act 0 | dealer 3 | hand: 9S '
    """
    parts = [
        f"p{view.player} {view.phase.value}",
        f"to act {view.current_player if view.current_player is not None else '-'}",
        f"dealer {view.dealer}",
        f"hand: {view.hand}",
        f"sizes {list(view.hand_sizes)}",
        "trick: " + " ".join(str(c) for c in view.trick) + f" (led by {view.trick_leader})",
        "last: " + " ".join(str(c) for c in view.last_trick),
        f"trump {view.trump if view.trump is not None else '-'}",
        f"turn-up {view.turn_up if view.turn_up is not None else '-'}",
        f"stock {view.stock_size}",
        f"scores {list(view.scores)}",
    ]
    if view.game_scores is not None:
        parts.append(f"game {list(view.game_scores)}")
    for seat, cards in enumerate(view.tabled):
        if cards:
            parts.append(f"tabled {seat}: {cards}")
    for seat, cards in enumerate(view.known):
        if cards:
            parts.append(f"known {seat}: {cards}")
    if view.maker is not None:
        parts.append(f"maker {view.maker}")
    if view.alone is not None:
        parts.append(f"alone {view.alone}")
    if view.lone_defender is not None:
        parts.append(f"lone defender {view.lone_defender}")
    if view.buried:
        parts.append("buried: " + " ".join(str(c) for c in view.buried))
    if view.cut is not None:
        parts.append(f"cut {view.cut}")
    return " | ".join(parts)


def information_state_string(view: PlayerView) -> str:
    """`observation_string` followed by the whole public history (``seat:action`` in order):
    different histories give different strings."""
    history = " ".join(f"{who}:{action}" for who, action in view.history)
    return f"{observation_string(view)} || {history}"
