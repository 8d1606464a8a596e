"""Play duties as data: which cards a player may play to a trick.

The play duties are the members of `PlayDuty`; a `TrickPolicy`
pairs a duty with the head-the-trick options. `TrickPolicy.legal` answers with a
mask of playable physical cards; `TrickPolicy.refusal` says which rule a given
card breaks, for error messages.

Leading a trick is always free under every duty here.
"""

from __future__ import annotations

import enum

import attrs

from ..bits import iter_bits
from ..cards import Suit
from ..errors import RuleCode
from .trumps import TrumpTable

__all__ = ["BeatRule", "PlayDuty", "TrickPolicy"]


class PlayDuty(enum.Enum):
    """The obligations of a player who follows to a trick."""

    FREE = "free"
    """Any card (the stock phase of Bezique and two-hand Pinochle)."""
    FOLLOW_BEAT_OR_TRUMP = "follow-beat-or-trump"
    """(a) Follow suit and beat the lead if able; void: trump if able; else any card."""
    FOLLOW_ONLY = "follow-only"
    """(b) Follow suit if able, else any card."""
    FOLLOW_BEAT_IF_TRUMP_LED = "follow-beat-if-trump-led"
    """(c) Follow suit; beat only when trumps are led; void: trump if able; else any card."""
    HEAD_THE_TRICK = "head-the-trick"
    """(d) Follow and head the trick (see `BeatRule`); void: trump, overtrumping if
    required; else any card."""
    FOLLOW_EFFECTIVE_SUIT = "follow-effective-suit"
    """(e) Euchre: follow the effective suit led (the left bower is a trump), else any card."""


class BeatRule(enum.Enum):
    """What a player following suit under HEAD_THE_TRICK must beat, if able."""

    CURRENT_WINNER = "current_winner"
    """The card currently winning the trick."""
    LED_CARD = "led_card"
    """The card led."""
    NONE = "none"
    """Nothing: following suit is enough."""


@attrs.frozen
class TrickPolicy:
    """A play duty with its head-the-trick options.

    >>> TrickPolicy(PlayDuty.FOLLOW_BEAT_OR_TRUMP).duty.value
    'follow-beat-or-trump'
    """

    duty: PlayDuty
    """The obligation."""
    beat_rule: BeatRule = BeatRule.CURRENT_WINNER
    """HEAD_THE_TRICK only: what a follower of suit must beat."""
    must_overtrump: bool = True
    """HEAD_THE_TRICK only: a void player must beat a trump already winning the trick."""
    must_beat_partner: bool = True
    """HEAD_THE_TRICK only: the duty to beat holds even when the partner is winning."""
    must_undertrump: bool = True
    """HEAD_THE_TRICK with `must_overtrump` only: a void player who cannot beat the trump
    winning the trick must still play a trump; False: "if not able to follow suit, nor to win
    the trick by trumping", he may play any card (three-hand Bezique, Britannica 9th ed.)."""

    def _heads(self, partner_winning: bool) -> bool:
        """Whether a void player must beat a trump already winning the trick (overtrump)."""
        return (
            self.duty is PlayDuty.HEAD_THE_TRICK
            and self.must_overtrump
            and not (partner_winning and not self.must_beat_partner)
        )

    def legal(self, table: TrumpTable, hand: int, trick: tuple[int, ...], partner_winning: bool = False) -> int:
        """The mask of cards in ``hand`` that may be played to ``trick`` (cards so far)."""
        duty = self.duty
        if duty is _FREE or not trick:
            return hand
        if duty is _FOLLOW_EFFECTIVE or duty is _FOLLOW_ONLY:
            led_suit = table.suit[trick[0]]
            follow = hand & table.suit_masks[led_suit] if led_suit < 4 else 0
            return follow or hand
        return self._levels(table, hand, trick, partner_winning)[-1][0]

    def excluded(self, table: TrumpTable, trick: tuple[int, ...], card: int, partner_winning: bool = False) -> int:
        """The cards a player cannot have held, given that he legally played ``card`` to
        ``trick``: what the duty would have made him play instead (for `determinize`).

        >>> from bezique_rules import Card, get_rules
        >>> rules = get_rules("pinochle")
        >>> table = rules.trump_tables[0]  # spades trumps
        >>> deck = rules.deck
        >>> led, played = deck.face(Card.parse("KH")), deck.face(Card.parse("9D"))
        >>> ruled_out = rules.playoff_policy.excluded(table, (led,), played)
        >>> sorted({c.suit.code for c in deck.cards_of(ruled_out)})  # no heart, and no trump
        ['H', 'S']
        """
        duty = self.duty
        if duty is PlayDuty.FREE or not trick:
            return 0
        led = trick[0]
        led_suit = table.suit[led]
        suit_mask = table.suit_masks[led_suit] if led_suit < 4 else 0
        trump_mask = table.trump_mask
        is_trump = (trump_mask >> card) & 1 == 1
        out = 0
        if table.suit[card] != led_suit:
            out |= suit_mask
            if duty in (PlayDuty.FOLLOW_ONLY, PlayDuty.FOLLOW_EFFECTIVE_SUIT):
                return out
            heads = self._heads(partner_winning)
            winner = trick[table.winner(trick)] if heads else -1
            trump_winning = winner >= 0 and (trump_mask >> winner) & 1 == 1
            if not is_trump:
                if trump_winning and not self.must_undertrump:  # only a trump that wins was owed
                    return out | _beating(table, trump_mask, winner)
                return out | trump_mask
            if trump_winning and not table.beats(card, winner):
                out |= _beating(table, trump_mask, winner)
            return out
        if duty in (PlayDuty.FOLLOW_ONLY, PlayDuty.FOLLOW_EFFECTIVE_SUIT):
            return 0
        target = self._target(table, trick, partner_winning)
        if target >= 0 and table.power[card] <= table.power[target]:
            out |= _beating(table, suit_mask, target)
        return out

    def _target(self, table: TrumpTable, trick: tuple[int, ...], partner_winning: bool) -> int:
        """The card a follower of suit must beat when able (-1: none)."""
        led = trick[0]
        duty = self.duty
        if duty is PlayDuty.FOLLOW_BEAT_OR_TRUMP:
            return led
        if duty is PlayDuty.FOLLOW_BEAT_IF_TRUMP_LED:
            return led if (table.trump_mask >> led) & 1 else -1
        if duty is PlayDuty.HEAD_THE_TRICK:
            if self.beat_rule is BeatRule.LED_CARD:
                return led
            if self.beat_rule is BeatRule.CURRENT_WINNER and not (partner_winning and not self.must_beat_partner):
                winner = trick[table.winner(trick)]
                return winner if table.suit[winner] == table.suit[led] else -1
        return -1

    def refusal(
        self,
        table: TrumpTable,
        hand: int,
        trick: tuple[int, ...],
        card: int,
        partner_winning: bool = False,
    ) -> tuple[RuleCode, str] | None:
        """Why physical ``card`` may not be played (None when it may)."""
        if not (hand >> card) & 1:
            return RuleCode.CARD_NOT_HELD, "you do not hold that card"
        for mask, code in self._levels(table, hand, trick, partner_winning)[1:]:
            if not (mask >> card) & 1:
                return code, _reason(code, table.suit[trick[0]])
        return None

    def _levels(
        self, table: TrumpTable, hand: int, trick: tuple[int, ...], partner_winning: bool
    ) -> list[tuple[int, RuleCode]]:
        """The nested restrictions, each narrower than the one before: [(hand, …), (mask, the
        rule that narrows to it), …]. The reasons' words are left to `_reason` (the legal
        plays, the hot path, need only the last mask)."""
        levels: list[tuple[int, RuleCode]] = [(hand, RuleCode.CARD_NOT_HELD)]
        duty = self.duty
        if duty is PlayDuty.FREE or not trick:
            return levels
        led = trick[0]
        led_suit = table.suit[led]
        follow = hand & table.suit_masks[led_suit] if led_suit < 4 else 0
        trumps = hand & table.trump_mask
        if follow:
            levels.append((follow, RuleCode.MUST_FOLLOW_SUIT))
            if duty in (PlayDuty.FOLLOW_ONLY, PlayDuty.FOLLOW_EFFECTIVE_SUIT):
                return levels
            target = self._target(table, trick, partner_winning)
            if target >= 0:
                higher = _beating(table, follow, target)
                if higher:
                    levels.append((higher, RuleCode.MUST_BEAT))
            return levels
        if duty in (PlayDuty.FOLLOW_ONLY, PlayDuty.FOLLOW_EFFECTIVE_SUIT) or not trumps:
            return levels
        if self._heads(partner_winning):
            winner = trick[table.winner(trick)]
            if (table.trump_mask >> winner) & 1:
                higher = _beating(table, trumps, winner)
                if higher:
                    levels.append((trumps, RuleCode.MUST_TRUMP))
                    levels.append((higher, RuleCode.MUST_OVERTRUMP))
                elif self.must_undertrump:
                    levels.append((trumps, RuleCode.MUST_TRUMP))
                return levels
        levels.append((trumps, RuleCode.MUST_TRUMP))
        return levels


def _reason(code: RuleCode, led_suit: int) -> str:
    """The words of a play duty's refusal, for the suit led (4: trumps, as in a no-trump
    table's effective suit)."""
    suit_name = Suit(led_suit).name.lower() if led_suit < 4 else "trumps"
    if code is RuleCode.MUST_FOLLOW_SUIT:
        return f"must follow suit (you hold {suit_name})"
    if code is RuleCode.MUST_TRUMP:
        return f"must trump (you hold no {suit_name} but hold trumps)"
    if code is RuleCode.MUST_OVERTRUMP:
        return "must overtrump when able"
    return "must beat the card to beat when able"  # RuleCode.MUST_BEAT, the last of `_levels`' codes


_FREE = PlayDuty.FREE
_FOLLOW_ONLY = PlayDuty.FOLLOW_ONLY
_FOLLOW_EFFECTIVE = PlayDuty.FOLLOW_EFFECTIVE_SUIT


def _beating(table: TrumpTable, mask: int, target: int) -> int:
    """The cards of ``mask`` that beat ``target``."""
    power = table.power
    p = power[target]
    out = 0
    for c in iter_bits(mask):
        if power[c] > p:
            out |= 1 << c
    return out
