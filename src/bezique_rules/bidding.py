"""Bidding parts: Euchre's order-up rounds (and, with Pinochle, auctions).

A bidding part holds the rules of the bidding as data and answers the
questions the engine asks: which bids a seat may make now, who decides next,
what follows a made trump. The engine only sequences the phases.

`OrderUp` is Euchre's two rounds (reference.md §12, §13): in round one each
player from the dealer's left may pass or accept the turned-up suit ("order it
up", alone or not); if all pass, in round two each may name another suit. The
options cover the North American rules, the British rules of seed 004, and
OpenSpiel's exact behaviour.
"""

from __future__ import annotations

import attrs

__all__ = ["OrderUp"]


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
    dealer_pickup: str = "must"
    """When the turned suit becomes trumps the dealer ``"must"`` take the turn-up and
    discard, or ``"may"`` (British: he may decline with ``pass``)."""
    dealer_may_discard_upcard: bool = True
    """The dealer may discard the turn-up he just took (OpenSpiel: no)."""
    benny_turned: str = "dealer_names_candidate"
    """A turned Benny: the dealer names the candidate suit before looking
    (``"dealer_names_candidate"``, seed 004), or names trumps and his side are the
    makers (``"dealer_forced_maker"``)."""
    partner_takeover: bool = False
    """When the maker goes alone, his partner may play alone instead (British)."""
    lone_defender: str = "never"
    """Who may defend alone: ``"never"``, ``"vs_lone_only"`` (only against a lone
    maker, seed 004) or ``"always"`` (OpenSpiel)."""
    defence_blocked_by_exchange: bool = True
    """A defender may not defend alone when that would sit out his partner the dealer
    who has already taken the turn-up (seed 004); OpenSpiel has no such rule."""
    lone_lead: str = "dealer_left"
    """Who leads: the first active seat from the dealer's left (``"dealer_left"``) or the
    player to the left of a lone player (``"left_of_lone_player"``)."""
    farmers_hand: str = "off"
    """A hand with three nines or three tens (``"nines_or_tens"``), or any three of them
    (``"mixed"``), may swap them for the three hidden kitty cards; ``"off"``."""

    def may_pass(self, *, round_two: bool, is_dealer: bool) -> bool:
        """Whether a player may pass (a stuck dealer may not, in round two)."""
        return not (round_two and is_dealer and self.stick_the_dealer)

    def takeover_allowed(self, *, maker_is_dealer: bool, round_one: bool) -> bool:
        """Whether the lone maker's partner may take over (not when the maker is the
        dealer who has taken the turned card)."""
        return self.partner_takeover and not (maker_is_dealer and round_one)

    def defence_allowed(self, *, maker_alone: bool) -> bool:
        """Whether a defender may now be offered to defend alone."""
        if self.lone_defender == "always":
            return True
        return self.lone_defender == "vs_lone_only" and maker_alone
