"""Multi-pack Bezique: ``rubicon-bezique``, ``six-pack-bezique`` (``chinese-bezique``) and
``eight-pack-bezique``.

The stock engine of two-hand Bezique with more packs and no turn-up: the first
marriage (or sequence) declared fixes trumps, beziques build up to triple,
quadruple (and quintuple) beziques, the cards of a scored meld may form it again
once one of them has been played, and each deal is a game settled by the
rubicon rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

import attrs

from ..cards import Rank, Suit, parse_cards
from ..deck import DealPattern, DeckSpec
from ..parts.cut import BEZIQUE_CUT
from ..parts.melds import CopyOrder, CrossClassReuse, FixedCards, MeldKind, MeldRules, MeldTable, Quartet, SuitRun
from ..parts.scoring import BRISQUES, CardPoints, DealsEnd
from ..parts.stock import RubiconScoring
from ..parts.tricks import PlayDuty, TrickPolicy
from ..parts.trumps import TrumpOrder
from .bezique import BEZIQUE_RANKS, COPY_ORDER_OPTION, PENDING_DECLARATIONS_OPTION
from .registry import PresetProfile, profile_presets, register_presets
from .ruleset import CutGuess, OptionSpec, RuleSet, StockRules, check_dealt_deck, read_options

__all__ = ["MultipackBeziquePair", "MultipackOptions", "MultipackProfile", "build_multipack", "multipack_meld_table"]

_QUARTET_RANKS = (
    (Rank.ACE, "aces", 100, 1000, 2000),
    (Rank.TEN, "tens", 90, 900, 1800),
    (Rank.KING, "kings", 80, 800, 1600),
    (Rank.QUEEN, "queens", 60, 600, 1200),
    (Rank.JACK, "jacks", 40, 400, 800),
)
_BEZIQUES = (("bezique", 40), ("double-bezique", 500), ("triple-bezique", 1500), ("quadruple-bezique", 4500),
             ("quintuple-bezique", 9000))  # fmt: skip
_TRUMP_DEPENDENT = {
    Suit.SPADES: parse_cards("QS JD"),
    Suit.DIAMONDS: parse_cards("QD JS"),
    Suit.HEARTS: parse_cards("QH JC"),
    Suit.CLUBS: parse_cards("QC JH"),
}


def multipack_meld_table(
    packs: int, *, trump_quartets: bool, four_tens: bool = False, trump_dependent_bezique: bool = False
) -> MeldTable:
    """The multi-pack meld table.

    Marriages and sequences (the first one fixes trumps; a plain-suit "back-door"
    sequence scores 150), beziques up to quadruple (quintuple in eight packs),
    any four aces / kings / queens / jacks (and tens if agreed), and, with
    ``trump_quartets``, four (and in eight packs five) trumps of a rank.
    """
    run = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
    kq = (Rank.KING, Rank.QUEEN)
    kinds: list[MeldKind] = [
        MeldKind("common-marriage", 20, SuitRun(kq, "plain"), "marriage", "A", 1),
        MeldKind("royal-marriage", 40, SuitRun(kq, "trump", before_trump=True), "marriage", "A", 1, fixes_trump=True),
        MeldKind("back-door", 150, SuitRun(run, "plain"), "back-door", "A", 2),
        MeldKind("sequence", 250, SuitRun(run, "trump", before_trump=True), "sequence", "A", 2, fixes_trump=True),
    ]
    most = 5 if packs >= 8 else 4
    for times, (name, points) in enumerate(_BEZIQUES[:most], start=1):
        if trump_dependent_bezique:
            pattern = FixedCards(
                parse_cards("QS JD") * times,
                tuple((suit, cards * times) for suit, cards in _TRUMP_DEPENDENT.items()),
                needs_trump=True,
            )
        else:
            pattern = FixedCards(parse_cards("QS JD") * times)
        kinds.append(MeldKind(name, points, pattern, meld_class="B", level=times))
    for rank, name, any_four, trump_four, trump_five in _QUARTET_RANKS:
        if rank is not Rank.TEN or four_tens:
            kinds.append(MeldKind(f"four-{name}", any_four, Quartet(rank), meld_class="C", level=1))
        if trump_quartets:
            kinds.append(
                MeldKind(f"four-trump-{name}", trump_four, Quartet(rank, 4, trump_only=True), meld_class="C", level=2)
            )
            if packs >= 8:
                kinds.append(
                    MeldKind(f"five-trump-{name}", trump_five, Quartet(rank, 5, trump_only=True), meld_class="C",
                             level=3)
                )  # fmt: skip
    return MeldTable(tuple(kinds))


@attrs.frozen
class MultipackProfile(PresetProfile):
    """The fixed numbers of one multi-pack preset, and the family's
    options it does not offer."""

    packs: int
    """How many 32-card packs."""
    deal_sizes: tuple[int, ...]
    """The packets each player is dealt, in order."""
    carte_blanche: int
    """Points for a carte blanche (0: none in this game)."""
    last_trick: int
    """Points for the last trick."""
    game_bonus: int
    """The winner's bonus for the game."""
    rubicon: int
    """A loser below this is rubiconed."""
    rubicon_doubles_bonus: bool
    """The game bonus doubles against a rubiconed loser."""
    rubicon_adds_brisques: bool
    """Against a rubiconed loser the winner also scores every brisque."""


_PROFILES = {
    "rubicon-bezique": MultipackProfile(
        packs=4, deal_sizes=(3, 3, 3), carte_blanche=50, last_trick=50, game_bonus=500, rubicon=1000,
        rubicon_doubles_bonus=True, rubicon_adds_brisques=True,
        fixed_options=(("cut_and_guess", False), ("rubicon_double_bonus", False)),
        aliases=("japanese-bezique",),
    ),
    "six-pack-bezique": MultipackProfile(
        packs=6, deal_sizes=(1,) * 12, carte_blanche=250, last_trick=250, game_bonus=1000, rubicon=3000,
        rubicon_doubles_bonus=False, rubicon_adds_brisques=False,
        aliases=("chinese-bezique",),
    ),
    "eight-pack-bezique": MultipackProfile(
        packs=8, deal_sizes=(1,) * 15, carte_blanche=0, last_trick=250, game_bonus=1000, rubicon=5000,
        rubicon_doubles_bonus=False, rubicon_adds_brisques=False,
        fixed_options=(
            ("carte_blanche", False), ("carte_blanche_repeat", False), ("cut_and_guess", False),
            ("rubicon_double_bonus", False),
        ),
    ),
}  # fmt: skip

_DESCRIPTIONS = {
    "rubicon-bezique": "Rubicon Bezique: four packs, nine cards, the rubicon at 1000.",
    "six-pack-bezique": "Six-pack (Chinese) Bezique: six packs, twelve cards, the rubicon at 3000.",
    "eight-pack-bezique": "Eight-pack Bezique: eight packs, fifteen cards, the rubicon at 5000.",
}
"""Per preset: what the variant is (`RuleSet.description`)."""

_SUMMARIES = {
    "rubicon-bezique": "Rubicon Bezique: 4 packs (128 cards), 9 cards a hand, no turn-up (pagat, Parlett).",
    "six-pack-bezique": "Six-pack (Chinese) Bezique: 6 packs (192 cards), 12 cards a hand (pagat, Parlett).",
    "eight-pack-bezique": "Eight-pack Bezique: 8 packs (256 cards), 15 cards a hand (pagat, Parlett).",
}
"""Per preset: its line in the list of variants (`Preset.description`)."""


MultipackBeziquePair: TypeAlias = Literal["fixed", "trump_dependent"]
"""The ``bezique_pair`` option of the multi-pack presets."""


@attrs.frozen
class MultipackOptions:
    """The options of the multi-pack presets, each read once by name (`read_options`): the
    preset's value where it offers the option, else the value its `MultipackProfile` fixes."""

    marriage_to_sequence: bool
    """A scored marriage's king and queen may join a sequence."""
    sequence_to_marriage: bool
    """A scored sequence's king and queen may form a marriage."""
    reform_after_play: bool
    """A scored meld may form again once one of its cards has been played."""
    cross_class_reuse: CrossClassReuse
    """Which melds of another class a declared card may join."""
    four_tens: bool
    """Any four tens score."""
    bezique_pair: MultipackBeziquePair
    """Which queen and jack make a bezique."""
    deals: int
    """How many deals make a session."""
    pending_declarations: bool
    """Melds may be laid out unscored, to be scored on later tricks."""
    copy_order: CopyOrder
    """Which of two copies in as many earlier melds is taken first (`MeldRules.copy_order`)."""
    carte_blanche: bool
    """A carte blanche may be shown (never, where the profile has none)."""
    carte_blanche_repeat: bool
    """A carte blanche may be shown again for each non-court card drawn."""
    cut_and_guess: bool
    """The non-dealer guesses the size of the dealer's cut (six-pack only)."""
    rubicon_double_bonus: bool
    """The game bonus doubles against a rubiconed loser (the option: six-pack only)."""


def build_multipack(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a multi-pack Bezique rule set from validated options."""
    profile = o["profile"]
    fixed = _PROFILES[profile]
    opts = read_options(MultipackOptions, o, fixed.fixed_options)
    deck = DeckSpec(ranks=BEZIQUE_RANKS, packs=fixed.packs)
    upgrades = frozenset({"B", "C"} | ({"A"} if opts.marriage_to_sequence else set()))
    downgrades = frozenset({"A"} if opts.sequence_to_marriage else set())
    return RuleSet(
        cut_for_deal=BEZIQUE_CUT,
        name=name,
        players=2,
        deck=deck,
        deal=DealPattern.rounds(2, fixed.deal_sizes),
        trump_order=TrumpOrder(),
        card_points=CardPoints(BRISQUES.points, fixed.last_trick),
        game_end=DealsEnd(opts.deals),
        engine="stock",
        melds=multipack_meld_table(
            fixed.packs,
            trump_quartets=fixed.packs >= 6,
            four_tens=opts.four_tens,
            trump_dependent_bezique=opts.bezique_pair == "trump_dependent",
        ),
        meld_rules=MeldRules(
            reform_after_play=opts.reform_after_play,
            upgrade_classes=upgrades,
            downgrade_classes=downgrades,
            cross_class_reuse=opts.cross_class_reuse,
            copy_order=opts.copy_order,
        ),
        stock_policy=TrickPolicy(PlayDuty.FREE),
        playoff_policy=TrickPolicy(PlayDuty.FOLLOW_BEAT_OR_TRUMP),
        stock=StockRules(
            dix=None,
            melds_per_trick=1,
            pending_declarations=opts.pending_declarations,
            declare_on_last_stock_trick=True,
            card_timing="end_of_hand",
            carte_blanche=fixed.carte_blanche if opts.carte_blanche else 0,
            carte_blanche_repeat=opts.carte_blanche_repeat,
            cut_guess=CutGuess() if opts.cut_and_guess else None,
            result=RubiconScoring(
                game_bonus=fixed.game_bonus,
                rubicon=fixed.rubicon,
                rubicon_doubles_bonus=fixed.rubicon_doubles_bonus or opts.rubicon_double_bonus,
                rubicon_adds_brisques=fixed.rubicon_adds_brisques,
                all_brisques=BRISQUES.total(deck) - BRISQUES.last_trick,
            ),
        ),
        version=3,
        description=_DESCRIPTIONS[profile],
        option_values=tuple(sorted(o.items())),
        option_specs=_PRESETS[profile].options,
        builder=build_multipack,
    )


_COMMON_OPTIONS = (
    OptionSpec("marriage_to_sequence", False,
               doc="The king and queen of a scored marriage may join a sequence (Foster); by default neither "
               "direction is allowed (whiteknucklecards)."),
    OptionSpec("sequence_to_marriage", False, doc="The king and queen of a scored sequence may form a marriage."),
    OptionSpec("reform_after_play", True,
               doc="Once a card of a scored meld is played, its other cards may form that meld again with "
               "new cards."),
    OptionSpec("cross_class_reuse", "any", ("any", "higher_only"),
               doc="A declared card may join a meld of another class freely, or only one that scores more "
               "(the Japanese Wikipedia article on Bezique)."),
    OptionSpec("four_tens", False, doc="Any four tens score 90 (if agreed)."),
    OptionSpec("bezique_pair", "fixed", ("fixed", "trump_dependent"),
               doc="The bezique: Q♠ J♦ always; or the queen of trumps with the jack of the other colour "
               "(no bezique before trumps exist)."),
    OptionSpec("deals", 1, minimum=1, doc="How many deals (each one a game) make a session in new_game."),
    PENDING_DECLARATIONS_OPTION,
    COPY_ORDER_OPTION,
)  # fmt: skip
"""The options every multi-pack preset offers."""

_CARTE_BLANCHE_OPTIONS = (
    OptionSpec("carte_blanche", True, doc="A dealt hand without K, Q or J may be shown for a carte blanche."),
    OptionSpec("carte_blanche_repeat", True,
               doc="After a carte blanche, each drawn card that is not a court card may be shown for another, "
               "until a court card is drawn (Foster: once only)."),
)  # fmt: skip
"""The carte blanche options (where the profile has a carte blanche)."""

_SIX_PACK_OPTIONS = (
    OptionSpec("cut_and_guess", True,
               doc="The non-dealer guesses the size of the dealer's cut (+150 when right); a cut of exactly "
               "24 cards scores 250 for the dealer."),
    OptionSpec("rubicon_double_bonus", False, doc="The 1000 game bonus doubles against a rubiconed loser."),
)  # fmt: skip
"""The options only six-pack Bezique offers."""

_FAMILY_OPTIONS = _COMMON_OPTIONS + _CARTE_BLANCHE_OPTIONS + _SIX_PACK_OPTIONS
"""Every option of the family (`MultipackOptions`), in the order the presets list them."""


_SELECTOR_DOC = "The pack count and scores of this preset (fixed)."
"""The doc of the ``profile`` option, fixed at each preset's name."""

_PRESETS = profile_presets(build_multipack, _PROFILES, _SUMMARIES, _FAMILY_OPTIONS, "profile", _SELECTOR_DOC)
"""Per preset name: its registry record (options: the fixed ``profile``, then the family's it offers)."""

register_presets(*_PRESETS.values(), check=check_dealt_deck)
