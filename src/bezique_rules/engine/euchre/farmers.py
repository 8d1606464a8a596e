"""The farmer's-hand round as every player sees it: `FarmersRound`, a Euchre deal with its
farmer's-hand questions asked of every seat in turn, for the interfaces that show whose turn
it is (the OpenSpiel games, the PettingZoo environment)."""

from __future__ import annotations

import attrs

from ...actions import Action, Verb
from ...errors import IllegalActionError, RuleCode
from ...parts.euchre import OrderUp
from ...rules.ruleset import part_of
from ...state.deal import DealState, Move, Phase
from .deal import EuchreDeal
from .legal import asks_farmer

# -- the farmer's-hand round as every player sees it (the adapters) --------------------------


@attrs.frozen
class FarmersRound:
    """A Euchre deal played with its farmer's-hand round asked of every seat in turn.

    Under the ``farmers_hand`` house rule the engine asks only a holder whether to swap
    his farmer's hand, and its views hide a holder's ``pass`` (`EuchreDeal.view`). An
    interface that tells everybody whose turn it is (OpenSpiel's ``current_player``,
    PettingZoo's ``agent_selection`` and action masks) would still show who is asked, and
    so who holds one. Through this record each seat, from the dealer's left, is asked in
    turn: a seat the deal asks (a holder) answers with the deal's own legal actions; any
    other seat's only answer is ``pass``, which leaves the deal as it is. Who is asked, and
    when, then shows nothing. The deal's record is unchanged: only the holders' answers
    are moves of the deal, as without this record.

    Without the house rule, or for a deal of another family, the round is empty and the
    record only passes the deal's own turns on.

    >>> from bezique_rules import new_deal
    >>> deal = new_deal("euchre", seed=1002, farmers_hand="mixed")
    >>> deal.current_player  # the deal asks the holder
    3
    >>> FarmersRound.start(deal).current_player  # everybody sees the dealer's left asked first
    0
    """

    deal: DealState
    """The deal."""
    asked: int = 0
    """How many seats of the round have answered (0 … players)."""

    @classmethod
    def start(cls, deal: DealState) -> FarmersRound:
        """The round over ``deal`` where its moves leave it: over once a move after the
        farmer's-hand questions is made (or the deal is over); else just after the seat of
        the last farmer's-hand answer, or at its start."""
        seats = _round_seats(deal)
        if not seats:
            return cls(deal, 0)
        assert isinstance(deal, EuchreDeal)
        s = deal.core
        if deal.is_over or len(s.moves) > s.bidding.asked:
            return cls(deal, len(seats))
        asked = max((seats.index(who) + 1 for who, _ in s.moves), default=0)
        return cls(deal, asked)

    @property
    def seat(self) -> int | None:
        """The seat asked now in the farmer's-hand round, or None once the round is over."""
        seats = _round_seats(self.deal)
        if self.asked >= len(seats) or self.deal.is_over:
            return None
        return seats[self.asked]

    @property
    def forwarded(self) -> bool:
        """Whether the seat asked now is the one the deal asks (a holder: his answer is a
        move of the deal); False once the round is over."""
        seat = self.seat
        return seat is not None and _asks_farmer(self.deal, seat)

    @property
    def current_player(self) -> int | None:
        """Who is to act: the seat asked in the round, then the deal's player."""
        seat = self.seat
        return self.deal.current_player if seat is None else seat

    def legal_action_ids(self) -> tuple[int, ...]:
        """The ids legal now: the deal's, except for a seat the round asks and the deal does
        not (``pass`` only)."""
        if self.seat is None or self.forwarded:
            return self.deal.legal_action_ids()
        return (_pass_id(self.deal),)

    def apply(self, action_id: int) -> FarmersRound:
        """The round after ``action_id`` (an id of `legal_action_ids`).

        Raises:
            IllegalActionError: not legal now (the deal's own refusal, or a seat the deal
                does not ask answering with anything but ``pass``).
        """
        if self.seat is None:
            return FarmersRound(self.deal.apply(action_id), self.asked)
        if self.forwarded:
            return FarmersRound(self.deal.apply(action_id), self.asked + 1)._caught_up()
        if action_id not in self.legal_action_ids():
            raise IllegalActionError(
                f"seat {self.seat} is asked about a farmer's hand and holds none: its only answer is pass"
                f" (id {_pass_id(self.deal)}), not {action_id!r}",
                rule=RuleCode.NOT_AN_ACTION,
                action=action_id,
                player=self.seat,
                phase=Phase.DISCARD,
            )
        return FarmersRound(self.deal, self.asked + 1)._caught_up()

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats the round asks, in turn (from the dealer's left); () without it."""
        return _round_seats(self.deal)

    def moves_seen_in_turn(self) -> tuple[Move, ...]:
        """The deal's moves less a farmer's-hand ``pass`` of a seat the round has not asked
        yet (a `determinize` world makes such hidden passes at once)."""
        seats = _round_seats(self.deal)
        moves = self.deal.moves
        if not seats or self.asked >= len(seats):
            return moves
        assert isinstance(self.deal, EuchreDeal)
        answered = self.deal.core.bidding.asked
        waiting = set(seats[self.asked :])
        pass_id = _pass_id(self.deal)
        return tuple(m for i, m in enumerate(moves) if not (i < answered and m[0] in waiting and m[1] == pass_id))

    def over(self, world: DealState) -> FarmersRound:
        """The same round over ``world`` (a deal some player cannot tell from this one, such
        as a `determinize` world): a farmer's-hand question the world still asks of a seat
        the round has passed is answered ``pass``, unseen by the others."""
        return FarmersRound(world, self.asked)._caught_up()

    def _caught_up(self) -> FarmersRound:
        seats = _round_seats(self.deal)
        deal = self.deal
        passed = set(seats[: self.asked])
        while not deal.is_over and deal.current_player in passed and _asks_farmer(deal, deal.current_player):
            deal = deal.apply(_pass_id(deal))
        return self if deal is self.deal else FarmersRound(deal, self.asked)


def _round_seats(deal: DealState) -> tuple[int, ...]:
    """The seats the farmer's-hand round asks in turn (from the dealer's left); () without it."""
    if not isinstance(deal, EuchreDeal):
        return ()
    rules = deal.setup.rules
    bidding = part_of(rules, rules.bidding, OrderUp)
    return tuple(seat for seat, _ in bidding.decisions_before_bidding(rules.players, deal.setup.dealer))


def _pass_id(deal: DealState) -> int:
    """The id of ``pass``."""
    return deal.rules.action_id(Action(Verb.PASS))


def _asks_farmer(deal: DealState, seat: int | None) -> bool:
    """Whether ``deal`` (a Euchre deal) asks ``seat`` whether to swap a farmer's hand now."""
    assert isinstance(deal, EuchreDeal)
    s = deal.core
    return s.player == seat and asks_farmer(s)
