"""The closing games: the presets ``sixty-six`` and ``schnapsen``.

This module only composes shared parts (deck, deal pattern, trump order, trick policies, card
points, the `ClosingGame` parts, the game end) from options; the ``marriage`` engine
(`bezique_rules.engine.marriage`) sequences them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Rank
from ..deck import DealPattern, DeckSpec
from ..parts.closing import (
    Closing,
    ClosingGame,
    ClosingWorth,
    EndWithoutClaim,
    GamePoints,
    MarriageOnLead,
    OutClaim,
    TrumpExchange,
)
from ..parts.cut import PINOCHLE_CUT
from ..parts.scoring import CardPoints, TargetEnd
from ..parts.tricks import PlayDuty, TrickPolicy
from ..parts.trumps import TrumpOrder
from .registry import Preset, register_presets
from .ruleset import OptionSpec, RuleSet, check_dealt_deck

__all__ = ["build_schnapsen", "build_sixty_six"]

_COUNT = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}
"""The card points of the closing games: A 11, T 10, K 4, Q 3, J 2 (the nine 0)."""


def _options(
    *,
    exchange_needs_trick: bool,
    exchange_min_stock: int,
    closing_min_stock: int,
    marriages_after_stock: bool,
    unclaimed_end: EndWithoutClaim,
    false_claim: str,
    closing_worth: ClosingWorth,
) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "target",
            7,
            minimum=1,
            doc="Game points that win the game (7; some play to 10).",
        ),
        OptionSpec(
            "playoff_rule",
            "follow_beat_or_trump",
            ("follow_beat_or_trump", "follow_only"),
            doc="Duties once the stock is closed or exhausted: follow, win if able, else trump; or only follow.",
        ),
        OptionSpec(
            "marriage_timing",
            "first_lead",
            ("first_lead", "after_trick"),
            doc="When a marriage may be announced: on any lead, the first included (it counts once a trick is "
            "won); or only after a won trick.",
        ),
        OptionSpec(
            "exchange_needs_trick",
            exchange_needs_trick,
            doc="Only a player who has won a trick may exchange the trump card.",
        ),
        OptionSpec(
            "exchange_min_stock",
            exchange_min_stock,
            minimum=1,
            doc="Face-down cards the stock must still hold for the exchange.",
        ),
        OptionSpec(
            "closing_min_stock",
            closing_min_stock,
            minimum=1,
            doc="Face-down cards the stock must still hold to be closed.",
        ),
        OptionSpec(
            "out_timing",
            "after_trick_or_marriage",
            ("after_trick_or_marriage", "on_lead"),
            doc="When 'out' may be claimed: just after winning a trick or announcing a marriage (pagat); "
            "or by the player on lead at any time, the deal's first lead included (version 1).",
            since=2,
            legacy="on_lead",
        ),
        OptionSpec(
            "closing_played_out",
            "must_go_out",
            ("must_go_out", "count"),
            doc="A closed deal played to the last card: the closer wins only by taking the last trick with 66 "
            "(he can go out only then; pagat), else his closing failed; or 66 at the end wins (version 1).",
            since=2,
            legacy="count",
        ),
        OptionSpec(
            "closing_game_points",
            closing_worth,
            ("at_closing", "at_claim"),
            doc="A closer who goes out scores 1, 2 or 3 by his opponent's points and tricks at the moment of "
            "closing (pagat, Schnapsen); or by them when he goes out.",
            since=2,
            legacy="at_claim",
        ),
        OptionSpec(
            "marriages_after_stock",
            marriages_after_stock,
            doc="Marriages may still be announced once the stock is closed or exhausted (Schnapsen; Hoyle's "
            "Sixty-six); False: they end with the open stock (pagat's Sixty-six).",
            since=2,
            legacy=True,
        ),
        OptionSpec(
            "unclaimed_end",
            unclaimed_end,
            ("higher_total", "count", "last_trick"),
            doc="Cards played out without a claim (stock not closed): the higher total wins, equal totals score "
            "nothing (pagat, Sixty-six); the first player with 66 wins (version 1 of sixty-six); or the winner "
            "of the last trick wins (pagat, Schnapsen).",
            since=2,
            legacy="last_trick" if unclaimed_end == "last_trick" else "count",
        ),
        OptionSpec(
            "false_claim",
            false_claim,
            ("flat", "by_tricks"),
            doc="A false claim gives the opponent a flat 2 (pagat's Sixty-six table); or 2, 3 if he has no "
            "trick (pagat, Schnapsen).",
            since=2,
            legacy="by_tricks",
        ),
    )


_SPECS = {
    "sixty-six": _options(
        exchange_needs_trick=True,
        exchange_min_stock=1,
        closing_min_stock=1,
        marriages_after_stock=False,
        unclaimed_end="higher_total",
        false_claim="flat",
        closing_worth="at_claim",
    ),
    "schnapsen": _options(
        exchange_needs_trick=False,
        exchange_min_stock=2,
        closing_min_stock=2,
        marriages_after_stock=True,
        unclaimed_end="last_trick",
        false_claim="by_tricks",
        closing_worth="at_closing",
    ),
}


def build_sixty_six(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a Sixty-six rule set from validated options."""
    return _compose(name, o, schnapsen=False)


def build_schnapsen(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a Schnapsen rule set from validated options."""
    return _compose(name, o, schnapsen=True)


def _compose(name: str, o: Mapping[str, Any], *, schnapsen: bool) -> RuleSet:
    if schnapsen:
        ranks: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
        deal = DealPattern.rounds(2, (3, 2), turn_up=True, turn_up_after_round=1)
        exchange_rank, last_trick = Rank.JACK, 0
        description = "Schnapsen: the Austrian 20-card Sixty-six, first to 7 game points (a Bummerl)."
    else:
        ranks = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
        deal = DealPattern.rounds(2, (3, 3), turn_up=True)
        exchange_rank, last_trick = Rank.NINE, 10
        description = "Sixty-six: 24 cards, marriages on lead, closing and 'out' at 66, first to 7 game points."
    playoff = PlayDuty.FOLLOW_BEAT_OR_TRUMP if o["playoff_rule"] == "follow_beat_or_trump" else PlayDuty.FOLLOW_ONLY
    return RuleSet(
        name=name,
        players=2,
        deck=DeckSpec(ranks=ranks),
        deal=deal,
        trump_order=TrumpOrder(),
        card_points=CardPoints.of(_COUNT, last_trick=last_trick),
        game_end=TargetEnd(o["target"]),
        cut_for_deal=PINOCHLE_CUT,  # A T K Q J 9, the higher card deals (the same cut as Pinochle)
        engine="marriage",
        stock_policy=TrickPolicy(PlayDuty.FREE),
        playoff_policy=TrickPolicy(playoff),
        closing_game=ClosingGame(
            marriage=MarriageOnLead(20, 40, o["marriage_timing"], after_stock=o["marriages_after_stock"]),
            exchange=TrumpExchange(exchange_rank, o["exchange_needs_trick"], o["exchange_min_stock"]),
            closing=Closing(
                min_stock=o["closing_min_stock"],
                worth_at=o["closing_game_points"],
                played_out=o["closing_played_out"],
            ),
            out=OutClaim(66, o["unclaimed_end"], o["out_timing"]),
            game_points=GamePoints(false_claim_flat=o["false_claim"] == "flat"),
        ),
        version=2,
        description=description,
        option_values=tuple(sorted(o.items())),
        option_specs=_SPECS["schnapsen" if schnapsen else "sixty-six"],
        builder=build_schnapsen if schnapsen else build_sixty_six,
    )


register_presets(
    Preset(
        "sixty-six",
        build_sixty_six,
        _SPECS["sixty-six"],
        aliases=("sechsundsechzig", "66"),
        description="Sixty-six: 24 cards, marriages on lead, closing, 'out' at 66, game to 7 (pagat).",
    ),
    Preset(
        "schnapsen",
        build_schnapsen,
        _SPECS["schnapsen"],
        description="Schnapsen: the Austrian 20-card Sixty-six, trump jack exchange, game to 7 (pagat).",
    ),
    check=check_dealt_deck,
)
