"""Two-hand Bezique: the presets ``bezique`` and ``bezique-match``.

This module only composes shared parts (deck, trump order, trick policies,
meld table, meld rules, trump seven, card points, game end) from options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias, get_args

from ..cards import Card, Rank, Suit, parse_cards
from ..deck import DealPattern, DeckSpec
from ..parts.cut import BEZIQUE_CUT, CutForDeal
from ..parts.melds import FixedCards, MeldKind, MeldRules, MeldTable, Quartet, SuitRun
from ..parts.scoring import BRISQUES, CardPoints, GameEnd, MatchEnd, TargetEnd, TieRule
from ..parts.stock import DixRule
from ..parts.tricks import PlayDuty, TrickPolicy
from ..parts.trumps import TrumpOrder
from .registry import Preset, RuleSetBuilder, register_presets
from .ruleset import DeclarationPrivilege, OptionSpec, RuleSet, StockRules, check_dealt_deck

__all__ = [
    "BEZIQUE_RANKS",
    "PIQUET_DECK",
    "BeziquePair",
    "QuartetRule",
    "bezique_meld_table",
    "build_bezique",
    "build_bezique_match",
    "two_hand_stock_game",
]

BEZIQUE_RANKS = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
"""The Bezique trick order: A T K Q J 9 8 7."""

PIQUET_DECK = DeckSpec(ranks=BEZIQUE_RANKS, packs=2)
"""Two 32-card piquet packs: 64 cards."""


QuartetRule: TypeAlias = Literal["any", "one_per_suit"]
"""Which cards make a quartet: any four of the rank, or one of each suit."""
BeziquePair: TypeAlias = Literal["fixed", "colour_swap"]
"""The bezique: always Q♠ J♦, or Q♣ J♥ when spades or diamonds are trumps."""


def bezique_meld_table(
    *, quartet_rule: QuartetRule = "any", bezique_pair: BeziquePair = "fixed", beziques: int = 2
) -> MeldTable:
    """The two-hand Bezique meld table; with ``beziques=3`` the triple
    bezique (1500) of three- and four-hand Bezique joins it.

    Args:
        quartet_rule: ``"any"`` (any four of the rank, duplicates allowed) or
            ``"one_per_suit"``.
        bezique_pair: ``"fixed"`` (Q♠ J♦) or ``"colour_swap"`` (Q♣ J♥ when spades
            or diamonds are trumps).
        beziques: the highest multiple bezique: 2 (double) or 3 (triple).
    """
    bezique = parse_cards("QS JD")
    swap: tuple[tuple[Suit, tuple[Card, ...]], ...] = ()
    swap_double: tuple[tuple[Suit, tuple[Card, ...]], ...] = ()
    swap_triple: tuple[tuple[Suit, tuple[Card, ...]], ...] = ()
    if bezique_pair == "colour_swap":
        alt = parse_cards("QC JH")
        swap = ((Suit.SPADES, alt), (Suit.DIAMONDS, alt))
        swap_double = ((Suit.SPADES, alt * 2), (Suit.DIAMONDS, alt * 2))
        swap_triple = ((Suit.SPADES, alt * 3), (Suit.DIAMONDS, alt * 3))
    triple = (MeldKind("triple-bezique", 1500, FixedCards(bezique * 3, swap_triple), "triple-bezique", "B", 3),)
    one = quartet_rule == "one_per_suit"
    return MeldTable(
        (
            MeldKind("common-marriage", 20, SuitRun((Rank.KING, Rank.QUEEN), "plain"), "marriage", "A", 1),
            MeldKind("royal-marriage", 40, SuitRun((Rank.KING, Rank.QUEEN), "trump"), "marriage", "A", 1),
            MeldKind(
                "sequence",
                250,
                SuitRun((Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK), "trump"),
                "sequence",
                "A",
                2,
            ),
            MeldKind("bezique", 40, FixedCards(bezique, swap), "bezique", "B", 1),
            MeldKind("double-bezique", 500, FixedCards(bezique * 2, swap_double), "double-bezique", "B", 2),
            *(triple if beziques >= 3 else ()),
            MeldKind("four-aces", 100, Quartet(Rank.ACE, one_per_suit=one), "four-aces", "C", 1),
            MeldKind("four-kings", 80, Quartet(Rank.KING, one_per_suit=one), "four-kings", "C", 1),
            MeldKind("four-queens", 60, Quartet(Rank.QUEEN, one_per_suit=one), "four-queens", "C", 1),
            MeldKind("four-jacks", 40, Quartet(Rank.JACK, one_per_suit=one), "four-jacks", "C", 1),
        )
    )


PENDING_DECLARATIONS_OPTION = OptionSpec(
    "pending_declarations",
    False,
    doc="After scoring his meld on a won trick, the winner may lay out more melds unscored; each later "
    "trick he wins he may score one of them instead of a new meld, while its cards are all still on the "
    "table (Foster, Parlett).",
)
"""The option shared by the two-hand and multi-pack Bezique presets (`StockRules.pending_declarations`)."""

COPY_ORDER_OPTION = OptionSpec(
    "copy_order",
    "melds",
    ("melds", "ids"),
    doc="Between two copies of a card in as many earlier melds, the engine plays from the table or melds "
    "the one in the earlier melds first (public: no choice depends on how copies are numbered, so a record "
    "gives back its deal); 'ids': the lower-numbered copy (version 2).",
    since=3,
    legacy="ids",
)
"""The option of every stock preset with several copies of each card (`MeldRules.copy_order`)."""


def target_options(target: int, *, several: bool = False) -> tuple[OptionSpec, OptionSpec]:
    """The ``target`` and ``tie_rule`` options of a game to a target score (`TargetEnd`), the
    target ``target`` unless told; ``several``: worded for more than two players or sides."""
    who, totals = ("a player (side)", "Equal highest totals") if several else ("a player", "Equal totals")
    return (
        OptionSpec("target", target, minimum=1, doc=f"The game ends after the deal in which {who} reaches it."),
        OptionSpec(
            "tie_rule",
            "draw",
            get_args(TieRule),
            doc=f"{totals} at the target: a draw, more deals, or the target raised by 500.",
        ),
    )


def _common_options(**defaults: Any) -> tuple[OptionSpec, ...]:
    def d(name: str, value: Any) -> Any:
        return defaults.get(name, value)

    return (
        OptionSpec(
            "quartet_rule",
            d("quartet_rule", "any"),
            ("any", "one_per_suit"),
            doc="Quartets: any four of the rank (duplicates allowed) or one of each suit.",
        ),
        OptionSpec(
            "bezique_pair",
            "fixed",
            ("fixed", "colour_swap"),
            doc="The bezique: Q♠ J♦ always, or Q♣ J♥ when spades or diamonds are trumps.",
        ),
        OptionSpec("melds_per_trick", 1, (1, "unlimited"), doc="How many melds the winner of a trick may score on it."),
        PENDING_DECLARATIONS_OPTION,
        COPY_ORDER_OPTION,
        OptionSpec(
            "new_card_rule",
            "every_meld",
            ("every_meld", "same_class_only"),
            doc="Each meld needs a card from the concealed hand, or only a card new to its class.",
        ),
        OptionSpec(
            "cross_class_reuse",
            "any",
            ("any", "higher_only"),
            doc="A declared card may join a meld of another class freely, or only one that scores more "
            "(the Japanese Wikipedia article on Bezique: a king of four kings may not later marry).",
        ),
        OptionSpec(
            "double_after_two_singles",
            False,
            doc="Two single beziques still on the table may be declared again as a double bezique.",
        ),
        OptionSpec(
            "declare_on_last_stock_trick",
            True,
            doc="The winner of the last stock trick may still declare before drawing.",
        ),
        OptionSpec(
            "seven_methods",
            d("seven_methods", "both"),
            ("both", "exchange_only", "score_only"),
            doc="After a won trick the trump seven is exchanged (when the turn-up is not a seven) or "
            "declared: both choices, exchange whenever possible, or declare only.",
        ),
        OptionSpec(
            "seven_any_time",
            False,
            doc="The holder of an unscored trump seven may also declare it for 10 on his own turn in the stock "
            "phase, before or as he plays a card (then it is never exchanged): a second method some rules give.",
        ),
        OptionSpec(
            "seven_score_on_play",
            d("seven_score_on_play", True),
            doc="An unscored trump seven played to a trick in the stock phase scores 10.",
        ),
        OptionSpec(
            "exchange_card_usable_same_trick",
            False,
            doc="The card taken in an exchange may be used in a meld on the same trick.",
        ),
        OptionSpec("no_meld_when_exchanging", False, doc="No meld on a trick where the trump seven is exchanged."),
        OptionSpec(
            "playoff_rule",
            "follow_beat_or_trump",
            ("follow_beat_or_trump", "follow_only"),
            doc="Duties in the last 8 tricks: follow, beat and trump; or only follow suit.",
        ),
        OptionSpec(
            "brisque_timing",
            "end_of_hand",
            ("end_of_hand", "immediate"),
            doc="When brisques (aces and tens won) are counted.",
        ),
        OptionSpec(
            "last_trick_bonus_at",
            "final",
            ("final", "last_stock_trick"),
            doc="Which trick earns the 10 for the last trick: the 32nd, or the 24th.",
        ),
        OptionSpec(
            "carte_blanche",
            0,
            minimum=0,
            doc="Points for showing a dealt hand without K, Q or J before one's first card (0: not allowed).",
        ),
    )


def bezique_meld_rules(o: Mapping[str, Any]) -> MeldRules:
    """The declaration rules of the piquet-pack Bezique games (two-, three- and four-hand),
    from their options."""
    return MeldRules(
        new_card_rule=o["new_card_rule"],
        double_after_two_singles=o["double_after_two_singles"],
        cross_class_reuse=o["cross_class_reuse"],
        copy_order=o["copy_order"],
    )


def bezique_stock_rules(o: Mapping[str, Any], privilege: DeclarationPrivilege | None = None) -> StockRules:
    """The stock-game sequencing of the piquet-pack Bezique games (the trump seven, melds per
    trick, the last trick, when brisques count, carte blanche), from their options."""
    return StockRules(
        dix=DixRule(
            rank=Rank.SEVEN,
            points=10,
            methods=o["seven_methods"],
            score_on_play=o["seven_score_on_play"] or o["seven_any_time"],
            any_time=o["seven_any_time"],
            exchange_card_usable_same_trick=o["exchange_card_usable_same_trick"],
            no_meld_when_exchanging=o["no_meld_when_exchanging"],
        ),
        melds_per_trick=0 if o["melds_per_trick"] == "unlimited" else 1,
        pending_declarations=o["pending_declarations"],
        declare_on_last_stock_trick=o["declare_on_last_stock_trick"],
        last_trick_bonus_at=o["last_trick_bonus_at"],
        card_timing=o["brisque_timing"],
        carte_blanche=o["carte_blanche"],
        privilege=privilege if privilege is not None else DeclarationPrivilege(),
    )


def build_bezique(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a two-hand Bezique rule set played to a target (the `bezique` preset) from
    validated options."""
    return _two_hand_bezique(
        name,
        o,
        TargetEnd(o["target"], o["tie_rule"], lurch_threshold=o["lurch_threshold"]),
        "Classic two-hand 64-card Bezique to 1000.",
        _SPECS["bezique"],
        build_bezique,
    )


def build_bezique_match(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose the one-or-two-deal Bezique match (the `bezique-match` preset) from
    validated options."""
    return _two_hand_bezique(
        name,
        o,
        MatchEnd(lead=o["match_lead"]),
        "Two-hand Bezique, a match of one or two deals (seed-001 profile).",
        _SPECS["bezique-match"],
        build_bezique_match,
    )


def _two_hand_bezique(
    name: str,
    o: Mapping[str, Any],
    game_end: TargetEnd | MatchEnd,
    description: str,
    specs: tuple[OptionSpec, ...],
    builder: RuleSetBuilder,
) -> RuleSet:
    """A two-hand Bezique rule set: what both presets share, with the game's end, the
    preset's option specs and its builder."""
    playoff = PlayDuty.FOLLOW_BEAT_OR_TRUMP if o["playoff_rule"] == "follow_beat_or_trump" else PlayDuty.FOLLOW_ONLY
    return two_hand_stock_game(
        name,
        o,
        deck=PIQUET_DECK,
        rounds=(3, 2, 3),
        cut=BEZIQUE_CUT,
        card_points=CardPoints(BRISQUES.points, BRISQUES.last_trick),
        game_end=game_end,
        melds=bezique_meld_table(quartet_rule=o["quartet_rule"], bezique_pair=o["bezique_pair"]),
        meld_rules=bezique_meld_rules(o),
        stock=bezique_stock_rules(o),
        playoff=playoff,
        version=3,
        description=description,
        specs=specs,
        builder=builder,
    )


def two_hand_stock_game(
    name: str,
    o: Mapping[str, Any],
    *,
    deck: DeckSpec,
    rounds: tuple[int, ...],
    cut: CutForDeal,
    card_points: CardPoints,
    game_end: GameEnd,
    melds: MeldTable,
    meld_rules: MeldRules,
    stock: StockRules,
    playoff: PlayDuty,
    version: int,
    description: str,
    specs: tuple[OptionSpec, ...],
    builder: RuleSetBuilder,
) -> RuleSet:
    """A two-hand stock game on the stock engine (two-hand Bezique, two-hand Pinochle,
    Marjolet): the cards dealt in ``rounds`` of packets to each player, then a turn-up; the
    usual trick order; any card may be played while the stock lasts, ``playoff``'s duties
    once it is gone; and the validated options ``o`` (of ``specs``) kept with the ``builder``
    that rebuilds the rule set from them (`RuleSet.with_options`)."""
    return RuleSet(
        name=name,
        players=2,
        deck=deck,
        deal=DealPattern.rounds(2, rounds, turn_up=True),
        trump_order=TrumpOrder(),
        card_points=card_points,
        game_end=game_end,
        cut_for_deal=cut,
        engine="stock",
        melds=melds,
        meld_rules=meld_rules,
        stock_policy=TrickPolicy(PlayDuty.FREE),
        playoff_policy=TrickPolicy(playoff),
        stock=stock,
        version=version,
        description=description,
        option_values=tuple(sorted(o.items())),
        option_specs=specs,
        builder=builder,
    )


_TARGET_OPTIONS = (
    *target_options(1000),
    OptionSpec(
        "lurch_threshold",
        None,
        minimum=0,
        allow_none=True,
        doc="A winner whose opponent is below this wins a double game (None: no lurch).",
    ),
)

_SPECS = {
    "bezique": _common_options() + _TARGET_OPTIONS,
    "bezique-match": _common_options(
        quartet_rule="one_per_suit", seven_methods="exchange_only", seven_score_on_play=False
    )
    + (OptionSpec("match_lead", 400, minimum=1, doc="A lead this large after the first deal wins the match."),),
}

register_presets(
    Preset(
        "bezique",
        build_bezique,
        _SPECS["bezique"],
        aliases=("two-hand-bezique",),
        description="Classic two-hand 64-card Bezique to 1000 (Foster's Complete Hoyle, Parlett).",
    ),
    Preset(
        "bezique-match",
        build_bezique_match,
        _SPECS["bezique-match"],
        description="The one-or-two-deal Bezique match against the computer: 400 ahead wins, else two deals.",
    ),
    check=check_dealt_deck,
)
