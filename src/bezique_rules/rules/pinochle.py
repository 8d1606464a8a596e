"""Pinochle: ``pinochle`` (two-hand), ``auction-pinochle``, ``partnership-pinochle`` and
``double-deck-pinochle``.

Two-hand Pinochle is a stock game (the Bezique engine with Pinochle's data:
the dix, the American meld table, the counters). The auction games deal every
card, sell the contract in an auction, and lay down melds all at once; their
meld tables are data, with the double (and double-deck triple and quadruple)
forms as melds of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..cards import Card, Rank, Suit, parse_cards
from ..deck import WIDOW, DealPattern, DeckSpec
from ..errors import OptionError
from ..parts.auction import UNIT_SCALE, UNIT_SCALE_STEEP, Auction, ContractRules, ContractScoring
from ..parts.cut import PINOCHLE_CUT
from ..parts.melds import FixedCards, MeldKind, MeldRules, MeldTable, Quartet, SuitRun
from ..parts.scoring import CLASSIC_COUNTERS, FIVES_COUNTERS, TENS_COUNTERS, CardPoints, DealsEnd, TargetEnd
from ..parts.stock import DixRule
from ..parts.tricks import BeatRule, PlayDuty, TrickPolicy
from ..parts.trumps import TrumpOrder
from .bezique import COPY_ORDER_OPTION, bezique_meld_table, target_options, two_hand_stock_game
from .registry import Preset, register_presets
from .ruleset import OptionSpec, RuleSet, StockRules, check_dealt_deck, describe_options

__all__ = [
    "DOUBLE_DECK",
    "PINOCHLE_DECK",
    "PINOCHLE_RANKS",
    "PartnershipProfile",
    "build_double_deck_pinochle",
    "build_partnership_pinochle",
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
    """The American two-hand table: flush 150, marriages 40 / 20,
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
    """Two-hand Pinochle "as Bezique": the Bezique table with the bezique called
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


def partnership_meld_table(scale: int = 1) -> MeldTable:
    """Partnership Pinochle : arounds 100 / 80 / 60 / 40 and
    all eight 1000 / 800 / 600 / 400, flush 150 and double flush 1500, marriages 40 / 20
    (two are simply laid twice), pinochle 40 and double pinochle 300, dix 10 each.
    "Marriages around" (240) is counted as its parts, which add up to the same.

    ``scale=10`` divides every value by ten (the rules list each as "4 or 40")."""
    table = _auction_kinds(doubles=True, double_pinochle=300)
    if scale == 1:
        return table
    return MeldTable(tuple(attrs.evolve(k, points=k.points // scale) for k in table.kinds))


def double_deck_meld_table() -> MeldTable:
    """Double-deck Pinochle, in the units of its 50-point count: run
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
    return two_hand_stock_game(
        name,
        o,
        deck=PINOCHLE_DECK,
        rounds=(4, 4, 4),
        cut=PINOCHLE_CUT,
        card_points=CardPoints(counting.points, counting.last_trick, o["round_7_up"]),
        game_end=TargetEnd(o["target"], o["tie_rule"]),
        melds=table,
        meld_rules=MeldRules(copy_order=o["copy_order"]),
        stock=StockRules(
            dix=DixRule(rank=Rank.NINE, points=10, methods=o["dix_methods"], score_on_play=o["dix_score_on_play"]),
            melds_per_trick=1,
            declare_on_last_stock_trick=True,
            show_last_card=o["show_last_card"],
        ),
        playoff=playoff,
        version=3,
        description="Two-hand Pinochle: 48 cards, stock, American melds, game 1000.",
        specs=_TWO_HAND,
        builder=build_pinochle,
    )


_TWO_HAND = (
    OptionSpec("meld_table", "american", ("american", "bezique"),
               doc="The American table (flush 150, arounds one of each suit), or 'as Bezique' (a 1995 rules article) "
               "(sequence 250, double pinochle 500, any four of a rank)."),
    OptionSpec("double_pinochle", 300, ("none", 80, 300),
               doc="The double pinochle in the American table: 300, 80, or not a meld."),
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
    OptionSpec("dix_score_on_play", False,
               doc="The seven-of-trumps rules applied to the nine (a 1995 rules article): an unscored dix "
               "played to a trick in the stock phase scores 10, win or lose."),
    OptionSpec("show_last_card", True, doc="The winner of the 12th trick shows the last face-down card he draws."),
    COPY_ORDER_OPTION,
    *target_options(1000),
)  # fmt: skip


def _head_the_trick(o: Mapping[str, Any]) -> TrickPolicy:
    return TrickPolicy(
        PlayDuty.HEAD_THE_TRICK,
        BeatRule(o["beat_rule"]),
        must_overtrump=o["must_overtrump"],
        must_beat_partner=o["must_beat_partner"],
    )


_AUCTION_PACKETS = ((0, 3), (1, 3), (2, 3), (WIDOW, 3)) + ((0, 3), (1, 3), (2, 3)) * 4


def build_auction_pinochle(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a three-hand Auction Pinochle rule set from validated options."""
    counting = _COUNTING[o["counting"]]
    dp = o["double_pinochle"]
    return RuleSet(
        cut_for_deal=PINOCHLE_CUT,
        name=name,
        players=3,
        deck=PINOCHLE_DECK,
        deal=DealPattern(_AUCTION_PACKETS),
        trump_order=TrumpOrder(),
        card_points=CardPoints(counting.points, counting.last_trick, o["round_7_up"]),
        game_end=DealsEnd(o["deals"]),
        engine="auction",
        melds=auction_meld_table(double_pinochle=None if dp == "none" else dp),
        playoff_policy=_head_the_trick(o),
        stock_policy=_head_the_trick(o),
        bidding=Auction(
            minimum=o["minimum_bid"],
            maximum=1200,
            all_pass=o["all_pass"],
            forbidden_endings=(40, 90) if o["brooklyn_bids"] else (),
        ),
        contract=ContractRules(
            widow=True,
            concede_before_widow=o["concede_before_widow"],
            concede_after_widow=o["concede_after_widow"],
            bury=3,
            bury_melded=o["bury_melded"],
            melders="declarer",
            leader="declarer",
        ),
        scoring=ContractScoring(
            settlement="units", unit_scale=UNIT_SCALE if o["unit_scale"] == "first" else UNIT_SCALE_STEEP
        ),
        version=1,
        description="Three-hand Auction Pinochle with a widow, settled in units.",
        option_values=tuple(sorted(o.items())),
        option_specs=_AUCTION,
        builder=build_auction_pinochle,
    )


_SEED_003_THROW_IN = 250
"""The most a side can take in tricks, so a declarer this far short may throw in."""


def _scaled(o: Mapping[str, Any], name: str, scale: int) -> int:
    """The option ``name`` (in full points) in the units of ``scale``, or an `OptionError`."""
    value: int = o[name]
    if value % scale:
        raise OptionError(
            f"option {name!r} = {value!r} is not a multiple of the scale {scale} (options are in full points)"
        )
    return value // scale


def _partnership_counters(counting: str, scale: int) -> CardPoints:
    """The counters of a partnership deal (A, T, K always count; other methods
    also count Q and J), divided by ``scale``."""
    points = _COUNTING[counting]
    if scale == 1:
        return points
    if any(v % scale for _r, v in points.points) or points.last_trick % scale:
        raise OptionError(f"option 'scale' = {scale} needs counters that divide by it: counting={counting!r} does not")
    return CardPoints(tuple((r, v // scale) for r, v in points.points), points.last_trick // scale)


@attrs.frozen
class PartnershipProfile:
    """What tells the partnership Pinochle presets apart, once their options are read."""

    deck: DeckSpec
    """The pack."""
    deal: DealPattern
    """How it is dealt."""
    melds: MeldTable
    """The meld table (in the preset's units)."""
    counters: CardPoints
    """The counters won in tricks."""
    auction: Auction
    """The bidding."""
    target: int
    """The game."""
    throw_in_short: int | None
    """How far short of the bid a declarer may throw in after the melds (None: never)."""
    version: int
    """The preset's behaviour version."""
    description: str
    """One line saying what the variant is."""


def _single_deck_profile(o: Mapping[str, Any]) -> PartnershipProfile:
    """Partnership Pinochle , with its ``scale``."""
    scale = o["scale"]
    short = _SEED_003_THROW_IN // scale + (1 if o["throw_in_at"] == "more_than_250" else 0)
    return PartnershipProfile(
        deck=PINOCHLE_DECK,
        deal=DealPattern.rounds(4, (3, 3, 3, 3)),
        melds=partnership_meld_table(scale),
        counters=_partnership_counters(o["counting"], scale),
        auction=Auction(
            minimum=_scaled(o, "minimum_bid", scale),
            maximum=1500 // scale,
            steps=((0, 10 // scale),),
            all_pass=o["all_pass"],
            raise_steps=2 if o["bid_raises"] == "10_or_20" else None,
            pass_with_help=o["pass_with_help"],
        ),
        target=_scaled(o, "target", scale),
        throw_in_short=short if o["throw_in"] else None,
        version=2,
        description="Partnership Pinochle: bidding, passing four cards, game 1500.",
    )


def _double_deck_profile(o: Mapping[str, Any]) -> PartnershipProfile:
    """Double-deck partnership Pinochle."""
    return PartnershipProfile(
        deck=DOUBLE_DECK,
        deal=DealPattern.rounds(4, (4, 4, 4, 4, 4)),
        melds=double_deck_meld_table(),
        counters=CardPoints.of({Rank.ACE: 1, Rank.TEN: 1, Rank.KING: 1}, last_trick=2),
        auction=Auction(
            minimum=o["minimum_bid"],
            maximum=300,
            steps=((0, 1), (60, 5)),
            all_pass=o["all_pass"],
            pass_with_help=o["pass_with_help"],
        ),
        target=o["target"],
        throw_in_short=None,
        version=1,
        description="Double-deck partnership Pinochle: 80 cards, four players, game 500.",
    )


def _partnership_rules(
    name: str,
    o: Mapping[str, Any],
    profile: PartnershipProfile,
    specs: tuple[OptionSpec, ...],
    builder: Callable[[str, Mapping[str, Any]], RuleSet],
) -> RuleSet:
    """A partnership Pinochle rule set: the parts both presets share, with ``profile``'s."""
    return RuleSet(
        cut_for_deal=PINOCHLE_CUT,
        name=name,
        players=4,
        deck=profile.deck,
        deal=profile.deal,
        trump_order=TrumpOrder(),
        card_points=profile.counters,
        game_end=TargetEnd(profile.target, "play_on", declarer_wins=True, lose_at_minus=o["lose_at_minus"]),
        engine="auction",
        melds=profile.melds,
        playoff_policy=_head_the_trick(o),
        stock_policy=_head_the_trick(o),
        partnership=True,
        bidding=profile.auction,
        contract=ContractRules(
            pass_cards=o["pass_cards"], melders="all", leader=o["leader"], throw_in_short=profile.throw_in_short
        ),
        scoring=ContractScoring(settlement="points", meld_needs_trick=o["meld_needs_trick"]),
        version=profile.version,
        description=profile.description,
        option_values=tuple(sorted(o.items())),
        option_specs=specs,
        builder=builder,
    )


def build_partnership_pinochle(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a partnership Pinochle rule set from validated options."""
    return _partnership_rules(name, o, _single_deck_profile(o), _PARTNERSHIP, build_partnership_pinochle)


def build_double_deck_pinochle(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a double-deck partnership Pinochle rule set from validated options."""
    return _partnership_rules(name, o, _double_deck_profile(o), _DOUBLE_DECK, build_double_deck_pinochle)


def _play_options(beat_rule: str = "current_winner") -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("beat_rule", beat_rule, ("current_winner", "led_card", "none"),
                   doc="Following suit, a player must beat the card now winning the trick, or the led card, "
                   "or need not beat at all."),
        OptionSpec("must_overtrump", True, doc="A void player must beat a trump already winning the trick."),
        OptionSpec("must_beat_partner", True, doc="The duty to beat holds even when the partner is winning."),
    )  # fmt: skip


_AUCTION = (
    OptionSpec("minimum_bid", 300, minimum=10, doc="The lowest bid (250 in easier games)."),
    OptionSpec("all_pass", "redeal", ("redeal", "dealer_stuck"),
               doc="Everyone passes: the deal is thrown in, or the dealer must bid the minimum."),
    OptionSpec("brooklyn_bids", False, doc="Brooklyn rule: no bids ending in 40 or 90."),
    OptionSpec("concede_before_widow", True,
               doc="At the minimum bid the bidder may concede without looking at the widow (pays the kitty)."),
    OptionSpec("concede_after_widow", True, doc="After seeing the widow the bidder may concede (single bete)."),
    OptionSpec("bury_melded", False, doc="The bidder may bury cards he used in his melds."),
    OptionSpec("double_pinochle", "none", ("none", 80, 300), doc="The double pinochle: not a meld, 80, or 300."),
    OptionSpec("counting", "classic", ("classic", "tens", "fives"), doc="How counters won in tricks score."),
    OptionSpec("round_7_up", False, doc="Card points count in tens, 7, 8 or 9 rounding up."),
    OptionSpec("unit_scale", "first", ("first", "second"),
               doc="The settlement scale: 300-340 = 1 unit … (first), or 250-290 = 2 units … (second)."),
    OptionSpec("deals", 9, minimum=1, doc="How many deals make a game (each deal is settled)."),
    *_play_options(),
)  # fmt: skip

_PASS_WITH_HELP = OptionSpec(
    "pass_with_help", False,
    doc="A player may 'pass help', a final pass that tells the partner he holds help (public).",
)  # fmt: skip

_PARTNERSHIP = (
    OptionSpec("minimum_bid", 250, minimum=10, doc="The lowest bid (bids go up in tens), in full points."),
    OptionSpec("bid_raises", "10_or_20", ("10_or_20", "any"), since=2, legacy="any",
               doc="A bid is 10 more than the last bid or a jump of 20 (the opening bid is free); "
               "or any higher multiple of 10 (the rule of behaviour version 1)."),
    OptionSpec("all_pass", "redeal", ("redeal", "dealer_stuck"),
               doc="All four pass: the deal is thrown in and redealt by the next dealer, or the dealer is stuck."),
    _PASS_WITH_HELP,
    OptionSpec("pass_cards", 4, (0, 3, 4), doc="Cards the partner passes to the declarer, who passes as many back."),
    OptionSpec("leader", "declarer", ("declarer", "dealer_left"), doc="Who leads the first trick."),
    OptionSpec("throw_in", True,
               doc="After the melds a declarer 250 or more short of the bid may concede: the bid is lost, "
               "the opponents score their meld only."),
    OptionSpec("throw_in_at", "250_or_more", ("250_or_more", "more_than_250"), since=2, legacy="more_than_250",
               doc="The throw-in is offered 250 or more short (at exactly 250 both choices are legal); "
               "or only when more than 250 short (the rule of behaviour version 1)."),
    OptionSpec("counting", "tens", ("tens", "classic", "fives"),
               doc="Counters won in tricks (A, T, K always count; some methods also count Q and J): "
               "A T K 10; or A 11 T 10 K 4 Q 3 J 2; or A T 10 K Q 5 (each + 10 for the last trick, 250 a deal)."),
    OptionSpec("scale", 1, (1, 10),
               doc="10: every meld value, counter, bid, the throw-in margin and the target divided by ten "
               "(melds written '4 or 40'); options stay in full points. Needs counting='tens'."),
    OptionSpec("meld_needs_trick", False, doc="A side's meld counts only if it takes a trick."),
    OptionSpec("target", 1500, minimum=1, doc="The game; if both sides reach it on one deal the declarer's wins."),
    OptionSpec("lose_at_minus", False, doc="House rule: a side at minus the target loses."),
    *_play_options(),
)  # fmt: skip

_DOUBLE_DECK = (
    OptionSpec("double_deck", True, (True,), doc="The 80-card pack (fixed for this preset)."),
    OptionSpec("minimum_bid", 50, minimum=1, doc="The lowest bid (ones up to 60, then fives)."),
    OptionSpec("all_pass", "dealer_stuck", ("redeal", "dealer_stuck"),
               doc="If the first three pass the dealer must bid; or the deal is thrown in."),
    _PASS_WITH_HELP,
    OptionSpec("pass_cards", 0, (0, 3, 4), doc="Cards the partner passes to the declarer, who passes as many back."),
    OptionSpec("leader", "declarer", ("declarer", "dealer_left"), doc="Who leads the first trick."),
    OptionSpec("meld_needs_trick", False, doc="A side's meld counts only if it takes a trick (the 'saving' meld)."),
    OptionSpec("target", 500, minimum=1, doc="The game; if both sides reach it on one deal the declarer's wins."),
    OptionSpec("lose_at_minus", False, doc="House rule: a side at minus the target loses."),
    *_play_options(),
)  # fmt: skip


# -- whole-option-set checks (run on every rule set this family builds) ----------------


def check_pinochle_options(rules: RuleSet) -> None:
    """The options of a Pinochle rule set, taken together: the deal fits the deck, and an
    auction has at least one bid (``minimum_bid`` at most the top of the bid ladder, not
    every bid forbidden by the Brooklyn rule), so that a bidder, and a stuck dealer, always
    has a bid to make.

    Raises:
        OptionError: a combination the engines cannot serve; the message names the options.
    """
    check_dealt_deck(rules)
    auction = rules.bidding
    if isinstance(auction, Auction) and not auction.ladder:
        names = ("minimum_bid", "all_pass", "brooklyn_bids")
        raise OptionError(
            f"{rules.name!r} with {describe_options(rules, names)}: no bid is possible "
            f"(bids go from the minimum bid up to {auction.maximum}); choose a minimum_bid of at most {auction.maximum}"
        )


register_presets(
    Preset(
        "pinochle",
        build_pinochle,
        _TWO_HAND,
        aliases=("two-hand-pinochle",),
        description="Two-hand Pinochle: 48 cards dealt in fours, turn-up, stock (Hoyle, pagat).",
    ),
    Preset(
        "auction-pinochle",
        build_auction_pinochle,
        _AUCTION,
        description="Three-hand Auction Pinochle with a widow of 3, settled in units (Hoyle, pagat).",
    ),
    Preset(
        "partnership-pinochle",
        build_partnership_pinochle,
        _PARTNERSHIP,
        description="Partnership Pinochle, 4 players, bidding and passing (bicyclecards.com, Britannica).",
    ),
    Preset(
        "double-deck-pinochle",
        build_double_deck_pinochle,
        _DOUBLE_DECK,
        description="Double-deck partnership Pinochle, 80 cards (pagat, bicyclecards.com).",
    ),
    check=check_pinochle_options,
)
