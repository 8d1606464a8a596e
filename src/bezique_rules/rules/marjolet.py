"""Marjolet: the preset ``marjolet``.

A 32-card stock game for two, run by the stock engine. This module only composes
shared parts: one piquet pack, the meld table below (with the marjolet marriages,
`TrumpWith`), `MeldRules` with ``reuse="distinct_sets"`` (a melded card may serve again
in any meld; only the exact same set is never melded twice), several melds per trick
won, the trump seven as a `DixRule` exchanged for the turn-up, and `StockBonuses` for
drawing the last card and winning every play-off trick.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

from ..cards import Rank
from ..deck import DeckSpec
from ..parts.cut import BEZIQUE_CUT
from ..parts.melds import MeldKind, MeldRules, MeldTable, Quartet, SuitRun, TrumpWith
from ..parts.scoring import BRISQUES, CardPoints, TargetEnd
from ..parts.stock import DixRule, StockBonuses
from ..parts.tricks import PlayDuty
from .bezique import BEZIQUE_RANKS, target_options, two_hand_stock_game
from .registry import Preset, register_presets
from .ruleset import OptionSpec, RuleSet, StockRules, check_dealt_deck

__all__ = ["MARJOLET_DECK", "QUARTET_TABLES", "MarjoletQuartets", "build_marjolet", "marjolet_meld_table"]

MARJOLET_DECK = DeckSpec(ranks=BEZIQUE_RANKS, packs=1)
"""One 32-card piquet pack: A T K Q J 9 8 7 in each suit."""

MarjoletQuartets: TypeAlias = Literal["aces_kings_queens_jacks", "aces_tens_kings_queens"]
"""The name of a quartet table (a key of `QUARTET_TABLES`)."""

QUARTET_TABLES: Mapping[MarjoletQuartets, tuple[tuple[Rank, int], ...]] = MappingProxyType(
    {
        "aces_kings_queens_jacks": ((Rank.ACE, 100), (Rank.KING, 80), (Rank.QUEEN, 60), (Rank.JACK, 40)),
        "aces_tens_kings_queens": ((Rank.ACE, 100), (Rank.TEN, 80), (Rank.KING, 60), (Rank.QUEEN, 40)),
    }
)
"""The two quartet tables of the sources: four aces 100, kings 80, queens 60, jacks 40
(the default), or four aces 100, tens 80, kings 60, queens 40."""

_QUARTET_NAMES = {Rank.ACE: "aces", Rank.TEN: "tens", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}


def marjolet_meld_table(quartets: MarjoletQuartets = "aces_kings_queens_jacks") -> MeldTable:
    """The Marjolet meld table: royal marriage 40, common marriage 20,
    the marjolet (jack of trumps) with the trump queen 40 or with a plain queen 20, and the
    quartets of ``quartets`` (a key of `QUARTET_TABLES`).

    >>> [(k.name, k.points) for k in marjolet_meld_table().kinds][:4]
    [('common-marriage', 20), ('royal-marriage', 40), ('marjolet-marriage', 20), ('royal-marjolet-marriage', 40)]
    """
    kinds = [
        MeldKind("common-marriage", 20, SuitRun((Rank.KING, Rank.QUEEN), "plain"), "marriage", "A", 1),
        MeldKind("royal-marriage", 40, SuitRun((Rank.KING, Rank.QUEEN), "trump"), "marriage", "A", 1),
        MeldKind("marjolet-marriage", 20, TrumpWith(Rank.JACK, (Rank.QUEEN,)), "marjolet", "B", 1),
        MeldKind("royal-marjolet-marriage", 40, SuitRun((Rank.QUEEN, Rank.JACK), "trump"), "marjolet", "B", 1),
    ]
    for rank, points in QUARTET_TABLES[quartets]:
        name = f"four-{_QUARTET_NAMES[rank]}"
        kinds.append(MeldKind(name, points, Quartet(rank), name, "C", 1))
    return MeldTable(tuple(kinds))


def build_marjolet(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a Marjolet rule set from validated options."""
    return two_hand_stock_game(
        name,
        o,
        deck=MARJOLET_DECK,
        rounds=(3, 3),
        cut=BEZIQUE_CUT,
        card_points=CardPoints(BRISQUES.points, 10),
        game_end=TargetEnd(o["target"], o["tie_rule"]),
        melds=marjolet_meld_table(o["quartets"]),
        meld_rules=MeldRules(reuse="distinct_sets"),
        stock=StockRules(
            dix=DixRule(
                rank=Rank.SEVEN,
                points=10,
                methods="exchange_only",
                score_on_play=True,
                score_on_play_in_playoff=o["seven_scores_late"],
                turned_up_points=o["turned_seven_points"],
                exchange_card_usable_same_trick=True,
            ),
            melds_per_trick=0 if o["melds_per_trick"] == "unlimited" else 1,
            declare_on_last_stock_trick=True,
            bonuses=StockBonuses(last_card=o["last_card_bonus"], playoff_sweep=o["sweep_bonus"]),
        ),
        playoff=PlayDuty.FOLLOW_BEAT_OR_TRUMP,
        version=2,
        description="Marjolet: 32 cards, six each, the marjolet marriages, game 500.",
        specs=_SPECS,
        builder=build_marjolet,
    )


_SPECS = (
    OptionSpec(
        "quartets",
        "aces_kings_queens_jacks",
        tuple(QUARTET_TABLES),
        doc="The quartet table: four aces 100, kings 80, queens 60, jacks 40 (gamerules); or four aces 100, "
        "tens 80, kings 60, queens 40 (Wikipedia, the French rules).",
    ),
    OptionSpec(
        "melds_per_trick",
        "unlimited",
        ("unlimited", 1),
        doc="How many melds the winner of a trick may declare on it: several, or one (a house rule).",
    ),
    OptionSpec(
        "turned_seven_points",
        10,
        minimum=0,
        maximum=1000,
        doc="What a seven turned up as trumps scores for the dealer at once (10; gamerules.com says 7).",
    ),
    OptionSpec(
        "seven_scores_late",
        True,
        doc="An unexchanged trump seven scores 10 when played in the last six tricks too (le-mistigri.fr: "
        "10 when played, win or lose); False: only while the stock lasts (version 1, Bezique's rule).",
        since=2,
        legacy=False,
    ),
    OptionSpec(
        "last_card_bonus",
        10,
        minimum=0,
        maximum=1000,
        doc="For the player who draws the last card of the stock (the turn-up, or the trump seven exchanged for it).",
    ),
    OptionSpec(
        "sweep_bonus",
        40,
        minimum=0,
        maximum=1000,
        doc="For winning all six tricks played after the stock is gone.",
    ),
    *target_options(500),
)

register_presets(
    Preset(
        "marjolet",
        build_marjolet,
        _SPECS,
        description="Marjolet: two players, 32 cards, six each, several melds per trick, game 500 (pagat).",
    ),
    check=check_dealt_deck,
)
