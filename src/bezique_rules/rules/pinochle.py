"""Pinochle: ``pinochle`` (two-hand), ``auction-pinochle``, ``partnership-pinochle`` and
``double-deck-pinochle`` (reference.md §8-§11).

Two-hand Pinochle is a stock game (the Bezique engine with Pinochle's data:
the dix, the American meld table, the counters). The auction games deal every
card, sell the contract in an auction, and lay down melds all at once; their
meld tables are data, with the double (and double-deck triple and quadruple)
forms as melds of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card, Rank, Suit, parse_cards
from ..deck import DealPattern, DeckSpec
from ..melds import DixRule, FixedCards, MeldKind, MeldRules, MeldTable, Quartet, SuitRun
from ..scoring import CLASSIC_COUNTERS, FIVES_COUNTERS, TENS_COUNTERS, CardPoints, TargetEnd
from ..tricks import PlayDuty, TrickPolicy
from ..trumps import TrumpOrder
from .bezique import bezique_meld_table
from .registry import Preset, register_preset
from .ruleset import OptionSpec, RuleSet, StockRules

__all__ = [
    "DOUBLE_DECK",
    "PINOCHLE_DECK",
    "PINOCHLE_RANKS",
    "build_pinochle",
    "double_deck_meld_table",
    "partnership_meld_table",
    "two_hand_meld_table",
]

PINOCHLE_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
"""The Pinochle trick order: A T K Q J 9."""

PINOCHLE_DECK = DeckSpec(ranks=PINOCHLE_RANKS, packs=2)
"""48 cards: A T K Q J 9 in each suit, two of each."""

DOUBLE_DECK = DeckSpec(ranks=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK), packs=4)
"""80 cards: A T K Q J in each suit, four of each (no nines)."""

_RUN = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
_PINOCHLE = parse_cards("QS JD")


def two_hand_meld_table(*, double_pinochle: int | None = None) -> MeldTable:
    """The American two-hand table (reference.md §8.3): flush 150, marriages 40 / 20,
    arounds 100 / 80 / 60 / 40 (one of each suit), pinochle 40, and optionally the
    double pinochle. The dix is not a meld here: it is the stock game's `DixRule`."""
    kinds = [
        MeldKind("common-marriage", 20, SuitRun((Rank.KING, Rank.QUEEN), "plain"), "marriage", "A", 1),
        MeldKind("royal-marriage", 40, SuitRun((Rank.KING, Rank.QUEEN), "trump"), "marriage", "A", 1),
        MeldKind("flush", 150, SuitRun(_RUN, "trump"), "flush", "A", 2),
        MeldKind("aces-around", 100, Quartet(Rank.ACE, one_per_suit=True), meld_class="B", level=1),
        MeldKind("kings-around", 80, Quartet(Rank.KING, one_per_suit=True), meld_class="B", level=1),
        MeldKind("queens-around", 60, Quartet(Rank.QUEEN, one_per_suit=True), meld_class="B", level=1),
        MeldKind("jacks-around", 40, Quartet(Rank.JACK, one_per_suit=True), meld_class="B", level=1),
        MeldKind("pinochle", 40, FixedCards(_PINOCHLE), meld_class="C", level=1),
    ]
    if double_pinochle:
        kinds.append(MeldKind("double-pinochle", double_pinochle, FixedCards(_PINOCHLE * 2), meld_class="C", level=2))
    return MeldTable(tuple(kinds))


def bezique_style_table() -> MeldTable:
    """Seed 000's two-hand Pinochle "as Bezique": the Bezique table with the bezique called
    pinochle (sequence 250, double pinochle 500, quartets of any four)."""
    renamed = {"bezique": "pinochle", "double-bezique": "double-pinochle"}
    kinds = []
    for kind in bezique_meld_table().kinds:
        name = renamed.get(kind.name, kind.name)
        group = renamed.get(kind.group, kind.group)
        kinds.append(MeldKind(name, kind.points, kind.pattern, group, kind.meld_class, kind.level))
    return MeldTable(tuple(kinds))


def _auction_kinds(
    *, doubles: bool, double_pinochle: int | None, dix: bool = True, values: dict[str, tuple[int, ...]] | None = None
) -> MeldTable:
    """A table for melds laid down at once: class A (run and marriages), B (arounds),
    C (pinochle); each doubled form is a meld of its own with its own value."""
    v = values or {}
    run = v.get("run", (150, 1500))
    royal = v.get("royal-marriage", (40,))
    marriage = v.get("marriage", (20,))
    pin = v.get("pinochle", (40, double_pinochle or 0))
    kinds: list[MeldKind] = [
        MeldKind("common-marriage", marriage[0], SuitRun((Rank.KING, Rank.QUEEN), "plain"), "marriage", "A", 1),
        MeldKind("royal-marriage", royal[0], SuitRun((Rank.KING, Rank.QUEEN), "trump"), "marriage", "A", 1),
    ]
    prefixes = ("", "double-", "triple-", "quadruple-")
    for times, points in enumerate(run, start=1):
        if times > 1 and not doubles:
            break
        kinds.append(MeldKind(f"{prefixes[times - 1]}flush", points, SuitRun(_RUN * times, "trump"), meld_class="A",
                              level=1 + times))  # fmt: skip
    if dix:
        kinds.append(MeldKind("dix", 10, SuitRun((Rank.NINE,), "trump"), meld_class="A", level=1))
    for rank, name in ((Rank.ACE, "aces"), (Rank.KING, "kings"), (Rank.QUEEN, "queens"), (Rank.JACK, "jacks")):
        defaults = {"aces": (100, 1000), "kings": (80, 800), "queens": (60, 600), "jacks": (40, 400)}[name]
        for times, points in enumerate(v.get(name, defaults), start=1):
            if times > 1 and not doubles:
                break
            pattern: FixedCards | Quartet = (
                Quartet(rank, one_per_suit=True)
                if times == 1
                else FixedCards(tuple(Card(s, rank) for s in Suit) * times)
            )
            kinds.append(MeldKind(f"{prefixes[times - 1]}{name}-around", points, pattern, meld_class="B", level=times))
    for times, points in enumerate(pin, start=1):
        if points <= 0:
            continue
        kinds.append(
            MeldKind(f"{prefixes[times - 1]}pinochle", points, FixedCards(_PINOCHLE * times), meld_class="C",
                     level=times)
        )  # fmt: skip
    return MeldTable(tuple(kinds))


def auction_meld_table(*, double_pinochle: int | None = None) -> MeldTable:
    """Three-hand Auction Pinochle: the two-hand American table laid down at once, with the
    dix as a meld; a flush's king and queen cannot also form the royal marriage."""
    return _auction_kinds(doubles=False, double_pinochle=double_pinochle)


def partnership_meld_table() -> MeldTable:
    """Partnership Pinochle (seed 003, reference.md §10.2): arounds 100 / 80 / 60 / 40 and
    all eight 1000 / 800 / 600 / 400, flush 150 and double flush 1500, marriages 40 / 20
    (two are simply laid twice), pinochle 40 and double pinochle 300, dix 10 each.
    "Marriages around" (240) is counted as its parts, which add up to the same."""
    return _auction_kinds(doubles=True, double_pinochle=300)


def double_deck_meld_table() -> MeldTable:
    """Double-deck Pinochle (reference.md §11), in the units of its 50-point count: run
    15 / 150 / 225 / 300, aces 10 / 100 / 150 / 200, kings 8 / 80 / 120 / 160, queens
    6 / 60 / 90 / 120, jacks 4 / 40 / 60 / 80, pinochle 4 / 30 / 60 / 90, marriage 2
    (4 in trumps); no nines, so no dix. Round house (24) is counted as its parts."""
    return _auction_kinds(
        doubles=True,
        double_pinochle=None,
        dix=False,
        values={
            "run": (15, 150, 225, 300),
            "royal-marriage": (4,),
            "marriage": (2,),
            "pinochle": (4, 30, 60, 90),
            "aces": (10, 100, 150, 200),
            "kings": (8, 80, 120, 160),
            "queens": (6, 60, 90, 120),
            "jacks": (4, 40, 60, 80),
        },
    )


_COUNTING = {"classic": CLASSIC_COUNTERS, "tens": TENS_COUNTERS, "fives": FIVES_COUNTERS}


def build_pinochle(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a two-hand Pinochle rule set from validated options."""
    if o["meld_table"] == "bezique":
        table = bezique_style_table()
    else:
        dp = o["double_pinochle"]
        table = two_hand_meld_table(double_pinochle=None if dp == "none" else dp)
    counting = _COUNTING[o["counting"]]
    playoff = (
        PlayDuty.FOLLOW_BEAT_IF_TRUMP_LED
        if o["playoff_rule"] == "follow_beat_if_trump_led"
        else PlayDuty.FOLLOW_BEAT_OR_TRUMP
    )
    return RuleSet(
        name=name,
        players=2,
        deck=PINOCHLE_DECK,
        deal=DealPattern.rounds(2, (4, 4, 4), turn_up=True),
        trump_order=TrumpOrder(),
        card_points=CardPoints(counting.points, counting.last_trick, o["round_7_up"]),
        game_end=TargetEnd(o["target"], o["tie_rule"]),
        engine="stock",
        melds=table,
        meld_rules=MeldRules(),
        stock_policy=TrickPolicy(PlayDuty.FREE),
        playoff_policy=TrickPolicy(playoff),
        stock=StockRules(
            dix=DixRule(rank=Rank.NINE, points=10, methods=o["dix_methods"], score_on_play=False),
            melds_per_trick=1,
            declare_on_last_stock_trick=True,
            show_last_card=o["show_last_card"],
        ),
        version=1,
        description="Two-hand Pinochle: 48 cards, stock, American melds, game 1000.",
        option_values=tuple(sorted(o.items())),
        option_specs=_TWO_HAND,
        builder=build_pinochle,
    )


_TWO_HAND = (
    OptionSpec("meld_table", "american", ("american", "bezique"),
               doc="The American table (flush 150, arounds one of each suit), or seed 000's 'as Bezique' "
               "(sequence 250, double pinochle 500, any four of a rank)."),
    OptionSpec("double_pinochle", "none", ("none", 80, 300),
               doc="The double pinochle in the American table: not a meld, 80, or 300."),
    OptionSpec("counting", "classic", ("classic", "tens", "fives"),
               doc="Counters won in tricks: A 11 T 10 K 4 Q 3 J 2; or A T K 10; or A T 10 K Q 5 "
               "(each + 10 for the last trick)."),
    OptionSpec("round_7_up", False,
               doc="Card points count in tens; a remainder of 7, 8 or 9 counts as another ten."),
    OptionSpec("playoff_rule", "follow_beat_if_trump_led", ("follow_beat_if_trump_led", "follow_beat_or_trump"),
               doc="Last 12 tricks: follow suit, trump when void, beat only when trumps are led; or Bezique's "
               "follow, beat and trump."),
    OptionSpec("dix_methods", "both", ("both", "exchange_only", "score_only"),
               doc="After a won trick the dix is exchanged for the turn-up or shown for 10 (both), exchanged "
               "whenever possible, or only shown."),
    OptionSpec("show_last_card", True, doc="The winner of the 12th trick shows the last face-down card he draws."),
    OptionSpec("target", 1000, minimum=1, doc="The game ends after the deal in which a player reaches it."),
    OptionSpec("tie_rule", "draw", ("draw", "play_on", "raise_target"),
               doc="Equal totals at the target: a draw, more deals, or the target raised by 500."),
)  # fmt: skip

register_preset(
    Preset(
        "pinochle",
        build_pinochle,
        _TWO_HAND,
        aliases=("two-hand-pinochle",),
        description="Two-hand Pinochle: 48 cards dealt in fours, turn-up, stock (reference §8).",
    )
)
