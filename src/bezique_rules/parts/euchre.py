"""Euchre's parts: the order-up and call rounds (`OrderUp`, with the questions put outside them,
`Decision`) and the settlement of a hand (`EuchreScoring`).

`OrderUp` is Euchre's two rounds: in round one each player from the dealer's left may pass or
accept the turned-up suit ("order it up", alone or not); if all pass, in round two each may name
another suit. The options cover the North American rules, the British rules, and OpenSpiel's
exact behaviour. Read by the ``euchre`` engine and the batch Euchre engine."""

from __future__ import annotations

import enum
from typing import Literal

import attrs

__all__ = [
    "BennyTurned",
    "DealerPickup",
    "Decision",
    "EuchreScoring",
    "FarmersHand",
    "LoneDefender",
    "LoneLead",
    "OrderUp",
    "Takeover",
]

Takeover = Literal["never", "unless_dealer_took_turn_up", "unless_dealer_made_in_round_one"]
"""When the partner of a lone maker may play alone in his place (Euchre):

- ``"never"``: no take-over (North American Euchre).
- ``"unless_dealer_took_turn_up"``: always, except when the maker is the dealer and has
  already taken the turned card into his hand (the British Euchre
  Association's rule): a dealer who orders up alone first decides on the exchange, and
  his partner is asked only when he declined it.
- ``"unless_dealer_made_in_round_one"``: never when the dealer made trumps in round one,
  exchange or not (the library's first reading, kept so that its records replay).
"""


DealerPickup = Literal["must", "may"]
"""Whether the dealer must take the turn-up when its suit is made trumps, or may decline it."""


BennyTurned = Literal["dealer_names_candidate", "dealer_forced_maker"]
"""A turned Benny: the dealer names the candidate suit, or names trumps and his side make."""


LoneDefender = Literal["never", "vs_lone_only", "always"]
"""Who may defend alone: nobody, a defender against a lone maker only, or any defender."""


LoneLead = Literal["dealer_left", "left_of_lone_player"]
"""Who leads the first trick: the first seat in play from the dealer's left, or the left of a lone player."""


FarmersHand = Literal["off", "nines_or_tens", "mixed"]
"""A farmer's hand: off, three nines or three tens, or any three of them."""


class Decision(enum.IntEnum):
    """A question put to one seat outside the bidding rounds of `OrderUp` (Euchre)."""

    MAKER_ALONE = 0
    """The maker decides whether to go alone (when not announced with the bid)."""
    TAKEOVER = 1
    """The lone maker's partner decides whether to play alone in his place."""
    DEFEND = 2
    """A defender decides whether to defend alone."""
    PICKUP = 3
    """The dealer takes the turn-up and discards (or declines, when he may)."""
    FARMER = 4
    """A holder of a farmer's hand decides whether to swap it."""


@attrs.frozen
class OrderUp:
    """Euchre's order-up and call rounds, with the house rules as options.

    >>> OrderUp(stick_the_dealer=True).may_pass(round_two=True, is_dealer=True)
    False
    """

    stick_the_dealer: bool = False
    """The dealer may not pass in round two (he must name a suit)."""
    alone_with_bid: bool = True
    """Going alone is announced with the bid (``order-up alone``, ``call H alone``);
    when False the maker decides after the dealer's discard (OpenSpiel)."""
    dealer_pickup: DealerPickup = "must"
    """When the turned suit becomes trumps the dealer ``"must"`` take the turn-up and
    discard, or ``"may"`` (British: he may decline with ``pass``)."""
    dealer_may_discard_upcard: bool = True
    """The dealer may discard the turn-up he just took (OpenSpiel: no)."""
    benny_turned: BennyTurned = "dealer_names_candidate"
    """A turned Benny: the dealer names the candidate suit before looking
    (``"dealer_names_candidate"``, the British rule), or names trumps and his side are the
    makers (``"dealer_forced_maker"``)."""
    partner_takeover: Takeover = "never"
    """When the maker goes alone, whether his partner may play alone instead (British):
    see `Takeover`."""
    lone_defender: LoneDefender = "never"
    """Who may defend alone: ``"never"``, ``"vs_lone_only"`` (only against a lone
    maker, the British rule) or ``"always"`` (OpenSpiel)."""
    defence_blocked_by_exchange: bool = True
    """A defender may not defend alone when that would sit out his partner the dealer
    who has already taken the turn-up (the British rule); OpenSpiel has no such rule."""
    lone_lead: LoneLead = "dealer_left"
    """Who leads: the first active seat from the dealer's left (``"dealer_left"``) or the
    player to the left of a lone player (``"left_of_lone_player"``)."""
    farmers_hand: FarmersHand = "off"
    """A hand with three nines or three tens (``"nines_or_tens"``), or any three of them
    (``"mixed"``), may swap them for the three hidden kitty cards; ``"off"``."""

    def may_pass(self, *, round_two: bool, is_dealer: bool) -> bool:
        """Whether a player may pass (a stuck dealer may not, in round two)."""
        return not (round_two and is_dealer and self.stick_the_dealer)

    def takeover_offered(self, *, maker_is_dealer: bool, round_one: bool) -> bool:
        """Whether the lone maker's partner is to be asked whether he takes over (the
        engine then skips the question when `takeover_refused` says so)."""
        if self.partner_takeover == "never":
            return False
        return self.partner_takeover == "unless_dealer_took_turn_up" or not (maker_is_dealer and round_one)

    def takeover_after_exchange(self, *, maker_is_dealer: bool, round_one: bool) -> bool:
        """Whether the take-over question waits for the dealer's exchange: the maker is
        the dealer who may take the turned card, and only taking it refuses the take-over."""
        return self.partner_takeover == "unless_dealer_took_turn_up" and maker_is_dealer and round_one

    def decisions_before_bidding(self, players: int, dealer: int) -> tuple[tuple[int, Decision], ...]:
        """The questions before the bidding, in order: (seat, decision). With a farmer's hand
        each seat from the dealer's left (the engine asks only a holder)."""
        if self.farmers_hand == "off":
            return ()
        return tuple(((dealer + 1 + i) % players, Decision.FARMER) for i in range(players))

    def decisions_after_trump(
        self, players: int, dealer: int, maker: int, *, alone: bool, turned_suit: bool
    ) -> tuple[tuple[int, Decision], ...]:
        """The questions that follow a made trump, in order: (seat, decision). The engine
        skips a question that lapses (`takeover_refused`, `defence_allowed`, a sitting-out
        dealer's pick-up)."""
        partner = (maker + 2) % players
        queue: list[tuple[int, Decision]] = []
        if self.alone_with_bid:
            asked = alone and self.takeover_offered(maker_is_dealer=maker == dealer, round_one=turned_suit)
            after = self.takeover_after_exchange(maker_is_dealer=maker == dealer, round_one=turned_suit)
            if asked and not after:
                queue.append((partner, Decision.TAKEOVER))
            if turned_suit:
                queue.append((dealer, Decision.PICKUP))
            if asked and after:  # seed 004: only a dealer who took the turned card keeps his lone hand
                queue.append((partner, Decision.TAKEOVER))
        else:
            if turned_suit:
                queue.append((dealer, Decision.PICKUP))
            queue.append((maker, Decision.MAKER_ALONE))
        if self.lone_defender != "never":
            for i in range(1, players + 1):
                seat = (dealer + i) % players
                if seat % 2 != maker % 2:
                    queue.append((seat, Decision.DEFEND))
        return tuple(queue)

    def takeover_refused(self, *, maker_is_dealer: bool, dealer_took_turn_up: bool) -> bool:
        """Whether a take-over is refused now: the maker is the dealer and he has taken
        the turned card (the British rule)."""
        return maker_is_dealer and dealer_took_turn_up

    @property
    def taken_turn_up_shown(self) -> bool:
        """Whether everyone knows the dealer holds the turn-up once he has taken it: he
        could not discard it (``dealer_may_discard_upcard=False``), or he could decline it."""
        return not self.dealer_may_discard_upcard or self.dealer_pickup == "may"

    def defence_allowed(self, *, maker_alone: bool) -> bool:
        """Whether a defender may now be offered to defend alone."""
        if self.lone_defender == "always":
            return True
        return self.lone_defender == "vs_lone_only" and maker_alone


@attrs.frozen
class EuchreScoring:
    """Points for a Euchre deal.

    >>> EuchreScoring().points(tricks=5, alone=True, lone_defender=False)
    (4, 0)
    >>> EuchreScoring().points(tricks=2, alone=False, lone_defender=False)
    (0, 2)
    """

    made: int = 1
    """Makers taking 3 or 4 tricks."""
    march: int = 2
    """Makers taking all 5 tricks."""
    alone_march: int = 4
    """A lone maker taking all 5 tricks."""
    euchred: int = 2
    """Defenders when the makers take fewer than 3."""
    lone_defender_euchre: int = 4
    """Defenders when a lone defender euchres the makers."""
    euchred_loner: int = 2
    """Defenders who euchre a lone maker (4 with the house rule
    ``defenders_4_for_euchring_loner``)."""
    super_euchre: int | None = None
    """Defenders when the makers take no trick at all (None: no super-euchre)."""

    def points(self, *, tricks: int, alone: bool, lone_defender: bool) -> tuple[int, int]:
        """(makers' points, defenders' points) for a deal in which the makers took ``tricks``."""
        if tricks >= 3:
            if tricks == 5:
                return (self.alone_march if alone else self.march), 0
            return self.made, 0
        value = self.euchred
        if alone:
            value = max(value, self.euchred_loner)
        if lone_defender:
            value = max(value, self.lone_defender_euchre)
        if tricks == 0 and self.super_euchre is not None:
            value = max(value, self.super_euchre)
        return 0, value
