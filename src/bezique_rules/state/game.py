"""`GameState` and `new_game`: deals in sequence until the variant's end rule is met."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any, Literal

import attrs
from typing_extensions import Self

from ..actions import Action
from ..api import new_deal, resolve_rules
from ..cards import Card
from ..checks import check_seat
from ..deck import check_dealer, check_seed
from ..errors import DealError, DealTypeError, IllegalActionError, RuleCode, quote
from ..parts.cut import CutDecision, CutOutcome, cut_for_deal
from ..parts.scoring import Standing
from ..rules.ruleset import RuleSet
from .deal import DealResult, DealState, Move, Phase, PlayerView, Seating

__all__ = ["GameState", "deal_seed", "new_game"]


MAX_DEALS = 1_000_000
"""The greatest ``max_deals`` (and the most stacked ``decks``) of a game."""


def deal_seed(seed: int, number: int) -> int:
    """The shuffle seed of deal ``number`` (1-based) of a game seeded with ``seed``.

    Derived as ``random.Random(f"bezique-rules:{seed}:{number}").getrandbits(63)``,
    stable on every platform.

    >>> deal_seed(7, 1) == deal_seed(7, 1) != deal_seed(7, 2)
    True
    """
    return random.Random(f"bezique-rules:{seed}:{number}").getrandbits(63)


@attrs.frozen(repr=False)  # __repr__: short
class GameState(Seating):
    """A whole game: the current deal, the totals so far, and how the game stands.

    Immutable like `DealState`; `apply` plays an action in the current deal and,
    when that deal ends, scores it and deals the next (the dealer rotating) until
    the end rule is met.
    """

    rules: RuleSet
    """The rule set."""
    seed: int
    """The game seed (each deal's shuffle seed is derived from it, see `deal_seed`)."""
    first_dealer: int
    """Who dealt the first deal."""
    deal: DealState
    """The current deal (the last one once the game is over)."""
    deal_number: int
    """The current deal's number, from 1."""
    totals: tuple[int, ...]
    """Totals of the finished deals, per player (or side)."""
    results: tuple[DealResult, ...]
    """Every finished deal's result."""
    past_moves: tuple[tuple[Move, ...], ...]
    """The action logs of the finished deals."""
    target: int
    """The target now (a tie rule may raise it)."""
    over: bool
    """Whether the game is over."""
    winner: int | None
    """The winner (player or side) once over; None for a draw or while playing."""
    games_won: int
    """How many games the win counts for (2 for a lurch)."""
    max_deals: int | None
    """A cap on the number of deals (for simulations), or None."""
    decks: tuple[tuple[str, ...], ...] | None = None
    """Stacked decks for the deals, in order (then seeded shuffles), or None."""
    game_wins: tuple[int, ...] = ()
    """In a match of games (tournament Euchre): games won so far per side."""
    played: int = 0
    """Deals played out so far (deals thrown in after everyone passed not counted)."""
    cut_for_deal: CutOutcome | None = None
    """The cut for the first deal (public), when the game began with one
    (``new_game(..., first_dealer="cut")``); None when the first dealer was given."""

    @property
    def is_over(self) -> bool:
        """True when the game is over."""
        return self.over

    def __repr__(self) -> str:
        """A short summary: the rule set, the deal number, phase, whose turn and the totals
        (and the winner once over)."""
        end = f", winner={self.winner}" if self.over else ""
        return (
            f"GameState(rules={self.rules!r}, deal_number={self.deal_number}, phase={self.phase.value}, "
            f"player={self.current_player}, totals={self.totals}{end})"
        )

    @property
    def is_draw(self) -> bool:
        """True when the game ended without a winner."""
        return self.over and self.winner is None

    @property
    def phase(self) -> Phase:
        """The current deal's phase (OVER when the game is over)."""
        return Phase.OVER if self.over else self.deal.phase

    @property
    def current_player(self) -> int | None:
        """Who is to act, or None when the game is over."""
        return None if self.over else self.deal.current_player

    @property
    def scores(self) -> tuple[int, ...]:
        """Game totals: finished deals plus the current deal's points so far."""
        if self.over:
            return self.totals
        return tuple(t + s for t, s in zip(self.totals, self.deal.scores))

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the current deal (empty when the game is over)."""
        return () if self.over else self.deal.legal_actions()

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids of the legal actions."""
        return () if self.over else self.deal.legal_action_ids()

    def legal_action_mask(self) -> tuple[bool, ...]:
        """One bool per action id: True where legal."""
        if self.over:
            return (False,) * self.rules.num_actions
        return self.deal.legal_action_mask()

    def is_legal(self, action: Action | str | int) -> bool:
        """Whether ``action`` is legal now."""
        return not self.over and self.deal.is_legal(action)

    def check(self, action: Action | str | int) -> None:
        """Raise what `apply` would raise."""
        if self.over:
            raise _game_over(action)
        self.deal.check(action)

    def parse_action(self, text: str) -> Action:
        """Parse notation into an action of this variant."""
        return self.deal.parse_action(text)

    def apply(self, action: Action | str | int, *, check: bool = True) -> Self:
        """The game after ``action``; a finished deal is scored and the next one dealt.

        Raises:
            NotationError: text that does not parse.
            IllegalActionError: the rules forbid the action; the state is unchanged.
        """
        if self.over:
            if check is not True and check is not False:
                self.deal.apply(action, check=check)  # raises the ArgumentTypeError
            raise _game_over(action)
        deal = self.deal.apply(action, check=check)
        if not deal.is_over:
            return attrs.evolve(self, deal=deal)
        result = deal.result
        assert result is not None  # the deal is over
        totals = tuple(t + s for t, s in zip(self.totals, result.scores))
        number = self.deal_number
        played = self.played + (0 if deal.thrown_in else 1)
        decision = self.rules.game_end.decide(
            Standing(totals, number, self.target, self.game_wins, deal.contract_side, played)
        )
        over, winner, games = decision.over, decision.winner, decision.games
        game_wins = decision.game_wins if decision.game_wins is not None else self.game_wins
        if not over and self.max_deals is not None and number >= self.max_deals:
            top = max(totals)
            leaders = [p for p, t in enumerate(totals) if t == top]
            over, winner, games = True, (leaders[0] if len(leaders) == 1 else None), 1
        results = (*self.results, result)
        past = (*self.past_moves, deal.moves)
        if over:
            return attrs.evolve(
                self, deal=deal, totals=totals, results=results, past_moves=past, target=decision.target,
                over=True, winner=winner, games_won=games if winner is not None else 0, game_wins=game_wins,
                played=played,
            )  # fmt: skip
        if decision.totals is not None:
            totals = decision.totals
        next_deal = _deal(self.rules, self.seed, number + 1, (deal.dealer + 1) % self.rules.players, self.decks)
        return attrs.evolve(
            self, deal=next_deal, deal_number=number + 1, totals=totals, results=results, past_moves=past,
            target=decision.target, game_wins=game_wins, played=played,
        )  # fmt: skip

    def view(self, player: int) -> PlayerView:
        """The current deal's view for ``player``, with the game totals before this deal.

        Raises:
            DealTypeError: ``player`` is not an int (or is a bool).
            DealError: no such seat.
        """
        return attrs.evolve(
            self.deal.view(check_seat(player, self.rules.players)),
            game_scores=self.totals,
            cut_for_deal=self.cut_for_deal,
        )

    def all_actions(self) -> tuple[Action, ...]:
        """Every action of the game so far, across deals."""
        actions = self.rules.action_space.actions
        out = [actions[action_id] for moves in self.past_moves for _, action_id in moves]
        if not self.over:
            out.extend(actions[action_id] for _, action_id in self.deal.moves)
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: the game's record."""
        from .records import record_of  # the record reaches up a layer: imported on use

        return record_of(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a game from `to_dict` output, re-checking every action.

        Raises:
            RecordError: the dict is not a valid game record.
        """
        from .records import replay_as  # the record reaches up a layer: imported on use

        return replay_as(data, GameState)


def _game_over(action: object) -> IllegalActionError:
    text = quote(str(action) if isinstance(action, (str, Action)) else quote(action))
    return IllegalActionError(
        f"the game is over: {text}", rule=RuleCode.GAME_OVER, action=action, player=None, phase=Phase.OVER
    )


def _deal(rules: RuleSet, seed: int, number: int, dealer: int, decks: tuple[tuple[str, ...], ...] | None) -> DealState:
    if decks is not None and number <= len(decks):
        return new_deal(rules, deck=decks[number - 1], dealer=dealer)
    return new_deal(rules, seed=deal_seed(seed, number), dealer=dealer)


def new_game(
    variant: str | RuleSet,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    first_dealer: int | Literal["cut"] | None = None,
    cut_decision: CutDecision | None = None,
    cut_cards: Sequence[Card | str] | None = None,
    max_deals: int | None = None,
    decks: Sequence[Sequence[Card | str]] | None = None,
    **options: Any,
) -> GameState:
    """A whole game of ``variant``: deals follow each other until the end rule is met.

    Args:
        variant: a registered name or a `RuleSet`.
        seed: the game seed (None picks one); deal ``k`` is shuffled with
            `deal_seed` (seed, k).
        dealer: the first dealer's seat (default the last seat); the deal then
            passes to the left.
        first_dealer: how the first dealer is chosen: a seat (the same as
            ``dealer``), None (``dealer``, or the last seat), or ``"cut"``: the
            players cut for the first deal by the rule set's `CutForDeal` part,
            from the game seed; the outcome is `GameState.cut_for_deal` (see
            `bezique_rules.parts.cut`).
        cut_decision: with ``"cut"``, where the winner of the cut decides who
            deals (Bezique): ``"deal"`` (the default) or ``"lead"``.
        cut_cards: with ``"cut"``, a stacked cut: every card drawn, in drawing
            order, instead of drawing from the seed (records replay with it).
        max_deals: end the game after this many deals at the latest (the higher
            total wins, equal totals draw): a guard for simulations.
        decks: stacked decks for the first deals, in order (each top card first,
            as for `new_deal`); later deals are shuffled from the seed.
        **options: option changes (see `get_rules`).

    >>> game = new_game("bezique-match", seed=1)
    >>> game.deal_number, game.scores
    (1, (0, 0))
    >>> game = new_game("bezique", seed=1, first_dealer="cut")
    >>> game.first_dealer == game.cut_for_deal.dealer
    True

    Raises:
        DealError: a bad seat, seed, stacked deck or stacked cut; ``"cut"`` for a rule
            set without a cut; ``dealer`` and ``first_dealer`` both given; cut settings
            without ``first_dealer="cut"``.
        OptionError: an unknown option or a value it does not allow.
    """
    rules = resolve_rules(variant, options)
    seed = random.SystemRandom().getrandbits(63) if seed is None else check_seed(seed)
    cut: CutOutcome | None = None
    if first_dealer == "cut" and isinstance(first_dealer, str):
        if dealer is not None:
            raise DealError(f"the dealer is drawn by the cut; dealer={quote(dealer)} cannot be given as well")
        if rules.cut_for_deal is None:
            raise DealError(f"{rules.name!r} has no cut for the first deal; give the dealer's seat instead")
        cut = cut_for_deal(
            rules.cut_for_deal, rules.deck, rules.players, seed=seed, cards=cut_cards, decision=cut_decision
        )
        seat = cut.dealer
    else:
        if cut_decision is not None or cut_cards is not None:
            raise DealError('cut_decision and cut_cards go with first_dealer="cut"')
        if first_dealer is not None:
            if isinstance(first_dealer, str):
                raise DealError(f'first_dealer is a seat or "cut", not {quote(first_dealer)}')
            if dealer is not None:
                raise DealError("give the first dealer once: dealer or first_dealer, not both")
            dealer = first_dealer
        seat = check_dealer(dealer, rules.players)
    if max_deals is not None:
        if not isinstance(max_deals, int) or isinstance(max_deals, bool):
            raise DealTypeError(f"max_deals is a whole number of at least 1, not {quote(max_deals)}")
        if not 1 <= max_deals <= MAX_DEALS:
            raise DealError(f"max_deals is a whole number from 1 to {MAX_DEALS}, not {quote(max_deals)}")
    target = rules.game_end.first_target
    sides = len(rules.sides)
    stacked = None
    if decks is not None:
        if isinstance(decks, (str, bytes, bytearray, dict, type)) or not hasattr(decks, "__iter__"):
            raise DealTypeError(f"decks is a list of stacked decks, each a list of cards, not {quote(decks)}")
        stacked_list: list[tuple[str, ...]] = []
        for d in itertools.islice(decks, MAX_DEALS + 1):
            if len(stacked_list) == MAX_DEALS:
                raise DealError(f"decks holds more than {MAX_DEALS} stacked decks")
            order = rules.deck.order_from_cards(d)  # validates: DealError naming what is wrong
            stacked_list.append(tuple(str(rules.deck.card(pid)) for pid in order))
        stacked = tuple(stacked_list)
    first = _deal(rules, seed, 1, seat, stacked)
    return GameState(
        rules=rules,
        seed=seed,
        first_dealer=seat,
        deal=first,
        deal_number=1,
        totals=(0,) * sides,
        results=(),
        past_moves=(),
        target=target,
        over=False,
        winner=None,
        games_won=0,
        max_deals=max_deals,
        decks=stacked,
        game_wins=(0,) * sides,
        cut_for_deal=cut,
    )
