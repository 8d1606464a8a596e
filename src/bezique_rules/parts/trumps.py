"""Trump orders: which cards are trumps, which suit each card follows, and how cards rank.

A `TrumpOrder` is the rule-set part that answers, for a trump suit (or none),
the *effective suit* of every card and its *power* in a trick. Bezique and
Pinochle use the plain order (ace, ten, king, …). Euchre's order adds the right
bower (jack of trumps), the left bower (the other jack of the same colour, which
belongs to the trump suit for following, leading and winning) and the Benny
(the joker, or another named card), always the highest trump.

The engines never ask `Rank` for trick order; they read a `TrumpTable` built
once per rule set and trump suit.
"""

from __future__ import annotations

import attrs

from ..cards import Card, Rank, Suit
from ..deck import DeckSpec

__all__ = [
    "BENNY_POWER",
    "LEFT_BOWER_POWER",
    "NO_TRUMP",
    "RIGHT_BOWER_POWER",
    "TRUMP_BONUS",
    "TrumpOrder",
    "TrumpTable",
]

NO_TRUMP = -1
"""The internal trump index when there is no trump suit (yet)."""

TRUMP_BONUS = 100
"""Added to the power of every trump, so that any trump beats any plain card."""
BENNY_POWER = 60
"""The Benny's power before the trump bonus: above every other card."""
RIGHT_BOWER_POWER = 50
"""The right bower's (the jack of trumps') power before the trump bonus: below the Benny only."""
LEFT_BOWER_POWER = 49
"""The left bower's (the other jack of the trump colour) power before the trump bonus: just below
the right bower, above the ace (a rank's power is at most the number of ranks, 8)."""


@attrs.frozen
class TrumpTable:
    """Precomputed per-physical-card tables for one trump suit (or no trump).

    ``power`` already includes the trump bonus, so card ``x`` beats card ``w`` iff
    ``power[x] > power[w]`` and (``suit[x] == suit[w]`` or ``x`` is a trump).
    """

    trump: int
    """The trump suit index, or NO_TRUMP."""
    suit: tuple[int, ...]
    """Effective suit index per physical id (the left bower and the Benny follow trumps)."""
    power: tuple[int, ...]
    """Trick power per physical id; trumps are 100 above every plain card."""
    suit_masks: tuple[int, ...]
    """The mask of physical cards of each effective suit."""
    trump_mask: int
    """The mask of every trump."""

    def beats(self, x: int, w: int) -> bool:
        """Whether physical card ``x`` beats ``w`` (an identical card never beats)."""
        power = self.power
        return power[x] > power[w] and (self.suit[x] == self.suit[w] or (self.trump_mask >> x) & 1 == 1)

    def lead_powers(self) -> tuple[tuple[int, ...], ...]:
        """Per led card: each card's power if it can win that trick (a trump, or a card of
        the led card's effective suit), else 0.

        With one copy of each card, a trick goes to its card of highest lead power:
        the table form of `winner` that the engines read at every trick.

        >>> from bezique_rules import get_rules
        >>> rules = get_rules("euchre")
        >>> card = {str(c): pid for pid, c in enumerate(rules.deck.cards)}
        >>> led_ah = rules.trump_tables[0].lead_powers()[card["AH"]]  # spades are trumps, the AH is led
        >>> led_ah[card["KH"]] > 0, led_ah[card["AD"]], led_ah[card["JC"]] > led_ah[card["AH"]]  # JC: left bower
        (True, 0, True)
        """
        trumps = self.trump_mask
        suit = self.suit
        return tuple(
            tuple(p if (trumps >> x) & 1 or suit[x] == suit[led] else 0 for x, p in enumerate(self.power))
            for led in range(len(self.power))
        )

    def winner(self, trick: tuple[int, ...]) -> int:
        """The index in ``trick`` of the winning card (earlier of identical cards wins)."""
        power = self.power
        suit = self.suit
        tm = self.trump_mask
        best = 0
        b = trick[0]
        for i in range(1, len(trick)):
            c = trick[i]
            if power[c] > power[b] and (suit[c] == suit[b] or (tm >> c) & 1):
                best = i
                b = c
        return best


@attrs.frozen
class TrumpOrder:
    """A trick order with its trump rules.

    >>> from bezique_rules.cards import Rank
    >>> plain = TrumpOrder()
    >>> euchre = TrumpOrder(bowers=True)
    """

    bowers: bool = False
    """Euchre: the jack of trumps (right bower) and the jack of the same colour (left
    bower) are the two highest trumps below the Benny, and the left bower is a trump."""
    benny: Card | None = None
    """A card that is always the highest trump, whatever the trump suit (Euchre's
    Benny: the joker, or the two of spades)."""

    def table(self, deck: DeckSpec, trump: int) -> TrumpTable:
        """Build the tables for ``deck`` with trump suit index ``trump`` (or NO_TRUMP)."""
        nranks = len(deck.ranks)
        face_suit: list[int] = []
        face_power: list[int] = []
        for card in deck.faces:
            if self.benny is not None and card == self.benny:
                face_suit.append(trump if trump != NO_TRUMP else 4)
                face_power.append(TRUMP_BONUS + BENNY_POWER if trump != NO_TRUMP else BENNY_POWER)
                continue
            assert card.suit is not None  # only the Benny may be suitless
            s = card.suit.value
            p = nranks - deck.ranks.index(card.rank)
            if trump != NO_TRUMP and self.bowers and card.rank is Rank.JACK:
                if s == trump:
                    face_suit.append(s)
                    face_power.append(TRUMP_BONUS + RIGHT_BOWER_POWER)
                    continue
                if Suit(s).same_colour.value == trump:
                    face_suit.append(trump)
                    face_power.append(TRUMP_BONUS + LEFT_BOWER_POWER)
                    continue
            face_suit.append(s)
            face_power.append(p + (TRUMP_BONUS if s == trump else 0))
        suit = tuple(face_suit[f] for f in deck.face_of)
        power = tuple(face_power[f] for f in deck.face_of)
        masks = [0] * 5
        for pid, s in enumerate(suit):
            masks[s] |= 1 << pid
        trump_mask = masks[trump] if trump != NO_TRUMP else 0
        return TrumpTable(trump, suit, power, tuple(masks[:4]), trump_mask)
