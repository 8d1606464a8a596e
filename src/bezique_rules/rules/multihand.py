"""Bezique for three and four: ``three-hand-bezique``, ``four-hand-bezique`` and
``partnership-bezique``.

The stock engine of two-hand Bezique with one pack per player: 3-2-3 deal and a turn-up,
a trick of one card from each player (to the left), the winner declares and everyone
draws in turn from him; the meld table gains the triple bezique (1500). This module only
composes shared parts from options; the partnership game adds the `DeclarationPrivilege`
part (the winner may pass the declaration to his partner) and scores per side.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

import attrs

from ..deck import DealPattern, DeckSpec
from ..parts.cut import BEZIQUE_CUT
from ..parts.scoring import BRISQUES, CardPoints, TargetEnd, TieRule
from ..parts.tricks import BeatRule, PlayDuty, TrickPolicy
from ..parts.trumps import TrumpOrder
from .bezique import (
    BEZIQUE_RANKS,
    BeziquePair,
    QuartetRule,
    _common_options,
    bezique_meld_rules,
    bezique_meld_table,
    bezique_stock_rules,
    target_options,
)
from .registry import PresetProfile, profile_presets, register_presets
from .ruleset import DeclarationPrivilege, OptionSpec, RuleSet, check_dealt_deck, read_options

__all__ = ["MultihandOptions", "MultihandPlayoff", "MultihandProfile", "build_multihand"]


@attrs.frozen
class MultihandProfile(PresetProfile):
    """What tells the three- and four-hand Bezique presets apart."""

    players: int
    """How many players (one pack each)."""
    partnership: bool
    """Partners sit opposite and score per side."""


_NO_PARTNER = (("must_beat_partner", True), ("pass_privilege", False), ("partner_beziques", False))
"""Without partners: every card winning so far must be beaten, no declaration is passed."""


_PROFILES = {
    "three-hand-bezique": MultihandProfile(players=3, partnership=False, fixed_options=_NO_PARTNER),
    "four-hand-bezique": MultihandProfile(players=4, partnership=False, fixed_options=_NO_PARTNER),
    "partnership-bezique": MultihandProfile(players=4, partnership=True, fixed_options=(("undertrump", True),)),
}

_DESCRIPTIONS = {
    "three-hand-bezique": "Three-hand Bezique: three packs, each for himself, game 2000.",
    "four-hand-bezique": "Four-hand Bezique: four packs, four individuals, game 2000.",
    "partnership-bezique": "Partnership Bezique: four packs, partners opposite, game 2000 per side.",
}
"""Per preset: what the variant is (`RuleSet.description`)."""

_SUMMARIES = {
    "three-hand-bezique": "Three-hand Bezique: 3 packs (96 cards), each for himself, game 2000 (pagat, Parlett).",
    "four-hand-bezique": "Four-hand Bezique: 4 packs (128 cards), four individuals, game 2000 (pagat, Parlett).",
    "partnership-bezique": "Partnership Bezique: 4 packs (128 cards), partners opposite, game 2000 (pagat, Parlett).",
}
"""Per preset: its line in the list of variants (`Preset.description`)."""

_FAMILY_OPTIONS = (
    OptionSpec(
        "playoff_rule",
        "head_the_trick",
        ("head_the_trick", "follow_beat_or_trump", "follow_only"),
        doc="Duties in the last 8 tricks: follow suit and win the trick if able (beat the card winning "
        "so far, trump or overtrump when void), else any card; or beat only the card led (the "
        "older wording read literally); or only follow suit.",
    ),
    *target_options(2000, several=True),
    OptionSpec(
        "must_beat_partner",
        True,
        doc="Head-the-trick play-off: beat the highest card so far even when it is the partner's "
        "(the multi-hand rule); False: following the partner's winning card is enough.",
    ),
    OptionSpec(
        "undertrump",
        False,
        doc="Head-the-trick play-off: a player who can neither follow suit nor win the trick by trumping "
        "must still play a trump (version 1); False: he may play any card (Britannica 9th ed., three-hand).",
        since=2,
        legacy=True,
    ),
    OptionSpec(
        "second_double_bezique",
        True,
        doc="A second double bezique (500) may be declared to a bezique on the table already used in a "
        "double bezique, with a new one (Britannica 9th ed.); False: a card scores once in a double (version 1).",
        since=2,
        legacy=False,
    ),
    OptionSpec(
        "partner_beziques",
        False,
        doc="A double or triple bezique may be formed with the partner's tabled beziques (Britannica 9th ed., "
        "four-hand: 'the beziques may be declared from the hand of either partner'); False: from the "
        "declarer's own cards.",
        since=2,
        legacy=False,
    ),
    OptionSpec(
        "pass_privilege",
        True,
        doc="The winner of a trick may pass the declaration to his partner, who declares instead (no consulting).",
    ),
    *(spec for spec in _common_options() if spec.name != "playoff_rule"),
)
"""Every option of the family, in the order the presets list them (`MultihandOptions` reads
those only this family reads)."""

MultihandPlayoff: TypeAlias = Literal["head_the_trick", "follow_beat_or_trump", "follow_only"]
"""The ``playoff_rule`` option of the three- and four-hand presets."""


@attrs.frozen
class MultihandOptions:
    """The options of the three- and four-hand presets that only this family reads, each read
    once by name (`read_options`): the preset's value where it offers the option, else the
    value its `MultihandProfile` fixes. (The options shared with two-hand Bezique are read by
    `bezique_meld_rules` and `bezique_stock_rules`.)"""

    playoff_rule: MultihandPlayoff
    """The duties of the last eight tricks."""
    target: int
    """The game: a player (or side) reaching it wins."""
    tie_rule: TieRule
    """Equal highest totals at the target."""
    quartet_rule: QuartetRule
    """Which four cards of a rank make a quartet."""
    bezique_pair: BeziquePair
    """Which queen and jack make a bezique."""
    must_beat_partner: bool
    """Head-the-trick play-off: the partner's winning card must be beaten too (always,
    without partners)."""
    pass_privilege: bool
    """The trick winner may pass the declaration to his partner (never, without partners)."""
    partner_beziques: bool
    """A double or triple bezique may use the partner's tabled beziques (never, without partners)."""
    undertrump: bool
    """Head-the-trick play-off: a void player who cannot win by trumping must still trump."""
    second_double_bezique: bool
    """A second double bezique may reuse a tabled bezique already used in a double."""


def _playoff_policy(opts: MultihandOptions) -> TrickPolicy:
    """The duties of the last eight tricks."""
    rule = opts.playoff_rule
    if rule == "head_the_trick":
        return TrickPolicy(
            PlayDuty.HEAD_THE_TRICK,
            BeatRule.CURRENT_WINNER,
            must_beat_partner=opts.must_beat_partner,
            must_undertrump=opts.undertrump,
        )
    if rule == "follow_beat_or_trump":
        return TrickPolicy(PlayDuty.FOLLOW_BEAT_OR_TRUMP)
    return TrickPolicy(PlayDuty.FOLLOW_ONLY)


def build_multihand(name: str, o: Mapping[str, Any]) -> RuleSet:
    """Compose a three- or four-hand Bezique rule set from validated options."""
    form = o["form"]
    profile = _PROFILES[form]
    opts = read_options(MultihandOptions, o, profile.fixed_options)
    n = profile.players
    privilege = (
        DeclarationPrivilege(
            "winner_or_partner" if opts.pass_privilege else "winner",
            "with_partner_tabled",
            own_cards_only=frozenset() if opts.partner_beziques else frozenset({"double-bezique", "triple-bezique"}),
        )
        if profile.partnership
        else DeclarationPrivilege()
    )
    return RuleSet(
        name=name,
        players=n,
        deck=DeckSpec(ranks=BEZIQUE_RANKS, packs=n),
        deal=DealPattern.rounds(n, (3, 2, 3), turn_up=True),
        trump_order=TrumpOrder(),
        card_points=CardPoints(BRISQUES.points, BRISQUES.last_trick),
        game_end=TargetEnd(opts.target, opts.tie_rule),
        cut_for_deal=BEZIQUE_CUT,
        engine="stock",
        melds=bezique_meld_table(quartet_rule=opts.quartet_rule, bezique_pair=opts.bezique_pair, beziques=3),
        meld_rules=attrs.evolve(
            bezique_meld_rules(o),
            rescore_groups=frozenset({"double-bezique"}) if opts.second_double_bezique else frozenset(),
        ),
        stock_policy=TrickPolicy(PlayDuty.FREE),
        playoff_policy=_playoff_policy(opts),
        stock=bezique_stock_rules(o, privilege),
        partnership=profile.partnership,
        version=3,
        description=_DESCRIPTIONS[form],
        option_values=tuple(sorted(o.items())),
        option_specs=_PRESETS[form].options,
        builder=build_multihand,
    )


_SELECTOR_DOC = "The number of players and how they score (fixed)."
"""The doc of the ``form`` option, fixed at each preset's name."""

_PRESETS = profile_presets(build_multihand, _PROFILES, _SUMMARIES, _FAMILY_OPTIONS, "form", _SELECTOR_DOC)
"""Per preset name: its registry record (options: the fixed ``form``, then the family's it offers)."""

register_presets(*_PRESETS.values(), check=check_dealt_deck)
