"""Euchre: the presets ``euchre``, ``british-euchre`` and ``euchre-openspiel``.

This module only composes shared parts: a deck (24, 25, 32 or 33 cards, the
Benny as the joker or the two of spades), the bower trump order, the
follow-the-effective-suit duty, the `OrderUp` bidding part, `EuchreScoring`,
and a game-end rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cards import JOKER, Card, Rank, Suit
from ..deck import DealPattern, DeckSpec
from ..parts.cut import EUCHRE_CUT
from ..parts.euchre import EuchreScoring, OrderUp, Takeover
from ..parts.scoring import CardPoints, GamesMatchEnd, TargetEnd
from ..parts.tricks import PlayDuty, TrickPolicy
from ..parts.trumps import TrumpOrder
from .registry import Preset, register_presets
from .ruleset import OptionSpec, RuleSet, check_dealt_deck

__all__ = ["EUCHRE_RANKS", "build_euchre", "build_euchre_openspiel", "euchre_deck"]

EUCHRE_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE)
"""The plain-suit order of the 24-card pack: A K Q J T 9 (the jacks move up in trumps)."""

TWO_OF_SPADES = Card(Suit.SPADES, Rank.TWO)
"""The two of spades, used as the Benny where there is no joker."""


def euchre_deck(size: int = 24, benny: str = "joker") -> tuple[DeckSpec, Card | None]:
    """The Euchre pack of ``size`` cards (24, 25, 32 or 33) and its Benny (or None).

    >>> deck, benny = euchre_deck(25)
    >>> deck.size, str(benny)
    (25, 'JK')
    """
    ranks = EUCHRE_RANKS if size in (24, 25) else (*EUCHRE_RANKS, Rank.EIGHT, Rank.SEVEN)
    if size in (25, 33):
        card = JOKER if benny == "joker" else TWO_OF_SPADES
        return DeckSpec(ranks=ranks, extras=(card,)), card
    return DeckSpec(ranks=ranks), None


_TAKEOVER: dict[bool | str, Takeover] = {
    False: "never",
    True: "unless_dealer_made_in_round_one",  # how 0.1.0 read True: its records replay
    "unless_dealer_took_turn_up": "unless_dealer_took_turn_up",
}
"""The ``partner_takeover`` option's values and the `Takeover` rule each stands for."""

_VERSIONS = {"british-euchre": 2}
"""Behaviour versions (1 when not listed); see the CHANGELOG for each bump."""

_NA_PACKETS = ((0, 3), (1, 2), (2, 3), (3, 2), (0, 2), (1, 3), (2, 2), (3, 3))


def build_euchre(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a table Euchre rule set (`euchre`, `british-euchre`) from validated options."""
    deck, benny = euchre_deck(o["deck_size"], o["benny"])
    british = o["deal_pattern"] == "threes_then_twos"
    deal = DealPattern.rounds(4, (3, 2), turn_up=True) if british else DealPattern(_NA_PACKETS, turn_up=True)
    bidding = OrderUp(
        stick_the_dealer=o["stick_the_dealer"],
        alone_with_bid=True,
        dealer_pickup=o["dealer_pickup"],
        dealer_may_discard_upcard=o["dealer_may_discard_upcard"],
        benny_turned=o["benny_turned"],
        partner_takeover=_TAKEOVER[o["partner_takeover"]],
        lone_defender=o["lone_defender"],
        lone_lead=o["lone_lead"],
        farmers_hand=o["farmers_hand"],
    )
    scoring = EuchreScoring(
        euchred_loner=4 if o["defenders_4_for_euchring_loner"] else 2,
        super_euchre=4 if o["super_euchre"] else None,
    )
    game_end = GamesMatchEnd(21, 2) if o["match"] == "tournament" else TargetEnd(o["target"], "play_on")
    description = "British Euchre with the Benny." if british else "North American Euchre, 4 players to 10."
    return _euchre(
        name, o, deck, benny, deal, bidding, scoring, game_end, description, _SPECS.get(name, _SPECS["euchre"]),
        build_euchre,
    )  # fmt: skip


def build_euchre_openspiel(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose the `euchre-openspiel` rule set (OpenSpiel's ``euchre``, one deal) from validated options."""
    deck, benny = euchre_deck(24)
    deal = DealPattern(tuple(((i + 3) % 4, 1) for i in range(20)), turn_up=True)
    bidding = OrderUp(
        stick_the_dealer=o["stick_the_dealer"],
        alone_with_bid=False,
        dealer_pickup="must",
        dealer_may_discard_upcard=False,
        lone_defender="always" if o["allow_lone_defender"] else "never",
        defence_blocked_by_exchange=False,
    )
    return _euchre(
        name, o, deck, benny, deal, bidding, EuchreScoring(lone_defender_euchre=4), TargetEnd(10),
        "Euchre exactly as OpenSpiel's 'euchre' (one deal).", _SPECS["euchre-openspiel"], build_euchre_openspiel,
    )  # fmt: skip


def _euchre(
    name: str,
    o: Mapping[str, Any],
    deck: DeckSpec,
    benny: Card | None,
    deal: DealPattern,
    bidding: OrderUp,
    scoring: EuchreScoring,
    game_end: TargetEnd | GamesMatchEnd,
    description: str,
    specs: tuple[OptionSpec, ...],
    builder: Callable[[str, Mapping[str, Any]], RuleSet],
) -> RuleSet:
    """A Euchre rule set: what every Euchre preset shares, with its deck, deal, bidding,
    scoring, game end, option specs and builder."""
    return RuleSet(
        cut_for_deal=EUCHRE_CUT,
        name=name,
        players=4,
        deck=deck,
        deal=deal,
        trump_order=TrumpOrder(bowers=True, benny=benny),
        card_points=CardPoints((), last_trick=0),
        game_end=game_end,
        engine="euchre",
        stock_policy=TrickPolicy(PlayDuty.FOLLOW_EFFECTIVE_SUIT),
        playoff_policy=TrickPolicy(PlayDuty.FOLLOW_EFFECTIVE_SUIT),
        partnership=True,
        bidding=bidding,
        scoring=scoring,
        version=_VERSIONS.get(name, 1),
        description=description,
        option_values=tuple(sorted(o.items())),
        option_specs=specs,
        builder=builder,
    )


def _table_options(**d: Any) -> tuple[OptionSpec, ...]:
    def g(key: str, value: Any) -> Any:
        return d.get(key, value)

    return (
        OptionSpec("target", g("target", 10), minimum=1, doc="Points that win the game (5, 10, 11 and 21 are played)."),
        OptionSpec("match", "game", ("game", "tournament"),
                   doc="One game to the target, or the tournament match: first side to win two games to 21."),
        OptionSpec("deal_pattern", g("deal_pattern", "alternating"), ("alternating", "threes_then_twos"),
                   doc="Packets: 3-2-3-2 then 2-3-2-3 from the dealer's left, or 3 each then 2 each."),
        OptionSpec("deck_size", g("deck_size", 24), (24, 25, 32, 33),
                   doc="24 cards (A K Q J T 9), 32 (adds 8 and 7); 25 and 33 add the Benny."),
        OptionSpec("benny", "joker", ("joker", "two_of_spades"),
                   doc="Which card is the Benny (the highest trump) in a 25- or 33-card pack."),
        OptionSpec("benny_turned", g("benny_turned", "dealer_names_candidate"),
                   ("dealer_names_candidate", "dealer_forced_maker"),
                   doc="A turned Benny: the dealer names the suit offered in round one before looking, or "
                   "names trumps and his side make them."),
        OptionSpec("stick_the_dealer", False, doc="The dealer may not pass in round two."),
        OptionSpec("dealer_pickup", g("dealer_pickup", "must"), ("must", "may"),
                   doc="When the turned suit is trumps the dealer must (or may) take the turn-up and discard."),
        OptionSpec("dealer_may_discard_upcard", True, doc="The dealer may discard the turn-up he took."),
        OptionSpec("partner_takeover", g("partner_takeover", False), (False, True, "unless_dealer_took_turn_up"),
                   doc="The partner of a maker who goes alone may play alone instead: "
                   "'unless_dealer_took_turn_up' (the British rule): unless the maker is the dealer and has taken "
                   "the turned card; True: never when the dealer made trumps in round one (the library's first "
                   "rule, kept so that its records replay); False: no take-over."),
        OptionSpec("lone_defender", g("lone_defender", "never"), ("never", "vs_lone_only", "always"),
                   doc="Who may defend alone (a lone defender's euchre scores 4)."),
        OptionSpec("lone_lead", g("lone_lead", "dealer_left"), ("dealer_left", "left_of_lone_player"),
                   doc="Who leads when someone plays alone: the dealer's left (skipping a sitting-out seat) or "
                   "the player to the lone player's left."),
        OptionSpec("defenders_4_for_euchring_loner", False, doc="Euchring a lone maker scores 4 for the defenders."),
        OptionSpec("super_euchre", False, doc="Makers who take no trick give the defenders 4."),
        OptionSpec("farmers_hand", "off", ("off", "nines_or_tens", "mixed"),
                   doc="Three nines or three tens (or any three of them) may be swapped for the hidden kitty "
                   "cards before the bidding; a second such call is a misdeal."),
    )  # fmt: skip


_SPECS: dict[str, tuple[OptionSpec, ...]] = {
    "euchre": _table_options(),
    "british-euchre": _table_options(
        deal_pattern="threes_then_twos",
        target=5,
        deck_size=25,
        dealer_pickup="may",
        partner_takeover="unless_dealer_took_turn_up",
        lone_defender="vs_lone_only",
        lone_lead="left_of_lone_player",
    ),
    "euchre-openspiel": (
        OptionSpec("allow_lone_defender", False, doc="OpenSpiel's parameter: defenders may defend alone."),
        OptionSpec("stick_the_dealer", True, doc="OpenSpiel's parameter: the dealer may not pass in round two."),
    ),
}

register_presets(
    Preset(
        "euchre",
        build_euchre,
        _SPECS["euchre"],
        aliases=("north-american-euchre",),
        description="North American Euchre: 24 cards, 4 players in partnerships, game to 10 (pagat, Hoyle).",
    ),
    Preset(
        "british-euchre",
        build_euchre,
        _SPECS["british-euchre"],
        description="British Euchre with the Benny (the joker as the highest trump), as played in Cornwall.",
    ),
    Preset(
        "euchre-openspiel",
        build_euchre_openspiel,
        _SPECS["euchre-openspiel"],
        description="One Euchre deal behaving exactly as OpenSpiel's 'euchre' game.",
    ),
    check=check_dealt_deck,
)
