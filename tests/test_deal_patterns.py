"""Each preset's `DealPattern` against its rulebook's dealing sentence: one row per preset.

This is the independent oracle behind `scenario.stack`, which places a scenario's cards by the
rule set's own `DealPattern`. Each row restates the dealing rule in the rulebook's words (the
sentence paraphrased, with its source) and in a small, separate notation: rounds of packet sizes
given to the players in turn from the dealer's left (``"W3"``: three cards to the widow), where
the turn-up comes, and whether the first card goes to the dealer. The test deals positions
``0 … size-1`` with the notation by hand and compares every place, for every dealer, with
``rules.deal.deal`` (the call `batch.core.deck_tables` makes).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from bezique_rules import available_variants, get_rules
from bezique_rules.bits import bit_ids


class Sentence(NamedTuple):
    """One preset's dealing rule, as its rulebook says it."""

    preset: str
    words: str
    """The rulebook's dealing sentence, in our words, and where it is printed."""
    rounds: tuple[tuple[int | str, ...], ...]
    """Per round, the packets from the dealer's left (or from the dealer, see ``dealer_first``)."""
    turn_up_after: int | None
    """The turn-up is the next card after this many rounds (None: no turn-up)."""
    dealer_first: bool = False
    """Whether the first packet of a round goes to the dealer instead of his left-hand player."""


def _each(n: int, *sizes: int) -> tuple[tuple[int, ...], ...]:
    return tuple((size,) * n for size in sizes)


ROWS: tuple[Sentence, ...] = (
    Sentence(
        "bezique",
        "three cards, then two, then three to each, non-dealer first; the next card turned up"
        " (reference §2.1, pagat Bezique)",
        _each(2, 3, 2, 3),
        3,
    ),
    Sentence(
        "bezique-match", "as bezique: three, two, three each, then the turn-up (reference §3)", _each(2, 3, 2, 3), 3
    ),
    Sentence(
        "marjolet",
        "six each in two threes, then the turn-up (reference §14.2, pagat Mariage/Marjolet)",
        _each(2, 3, 3),
        2,
    ),
    Sentence(
        "sixty-six",
        "three each, three each, then the turn-up; the rest is the stock (pagat Sixty-Six)",
        _each(2, 3, 3),
        2,
    ),
    Sentence("schnapsen", "three each, the turn-up, then two each (pagat Schnapsen)", _each(2, 3, 2), 1),
    Sentence(
        "rubicon-bezique",
        "nine each, dealt three at a time; no turn-up (reference §4.1, pagat Rubicon Bezique)",
        _each(2, 3, 3, 3),
        None,
    ),
    Sentence(
        "six-pack-bezique",
        "twelve each, one at a time; no turn-up (reference §5.1, pagat Chinese Bezique)",
        _each(2, *(1,) * 12),
        None,
    ),
    Sentence(
        "eight-pack-bezique", "fifteen each, one at a time; no turn-up (reference §6)", _each(2, *(1,) * 15), None
    ),
    Sentence(
        "three-hand-bezique",
        "three, two, three to each from the dealer's left, then the turn-up (reference §7)",
        _each(3, 3, 2, 3),
        3,
    ),
    Sentence(
        "four-hand-bezique",
        "three, two, three to each from the dealer's left, then the turn-up (reference §7)",
        _each(4, 3, 2, 3),
        3,
    ),
    Sentence(
        "partnership-bezique",
        "three, two, three to each from the dealer's left, then the turn-up (reference §7)",
        _each(4, 3, 2, 3),
        3,
    ),
    Sentence(
        "pinochle",
        "twelve each, four at a time, then the next card turned up (reference §8, pagat Two-hand Pinochle)",
        _each(2, 4, 4, 4),
        3,
    ),
    Sentence(
        "auction-pinochle",
        "three to each player, three to the widow after the first round, then three at a time until"
        " each has fifteen (reference §9, pagat Auction Pinochle)",
        ((3, 3, 3, "W3"), *_each(3, 3, 3, 3, 3)),
        None,
    ),
    Sentence(
        "partnership-pinochle",
        "twelve each, three at a time (reference §10, pagat Partnership Pinochle)",
        _each(4, 3, 3, 3, 3),
        None,
    ),
    Sentence(
        "double-deck-pinochle",
        "twenty each, four at a time (reference §11, pagat Double-deck Pinochle)",
        _each(4, 4, 4, 4, 4, 4),
        None,
    ),
    Sentence(
        "euchre",
        "five each in a round of three-two-three-two and a round of two-three-two-three, then the top"
        " of the kitty turned (reference §12.1, pagat Euchre)",
        ((3, 2, 3, 2), (2, 3, 2, 3)),
        2,
    ),
    Sentence(
        "british-euchre",
        "three to each, then two to each, then the next card turned (reference §12.2, pagat British Euchre)",
        _each(4, 3, 2),
        2,
    ),
    Sentence(
        "euchre-openspiel",
        "one card at a time, the first to the dealer, five rounds; then the up-card"
        " (reference §13, OpenSpiel euchre.cc)",
        _each(4, *(1,) * 5),
        5,
        dealer_first=True,
    ),
)


def by_hand(row: Sentence, players: int, size: int, dealer: int) -> tuple[list[list[int]], list[int], int, list[int]]:
    """Deal places ``0 … size-1`` as the row says: (places per seat, widow, turn-up or -1, stock)."""
    hands: list[list[int]] = [[] for _ in range(players)]
    widow: list[int] = []
    pos = 0
    turn_up = -1
    for r, packets in enumerate(row.rounds):
        if row.turn_up_after == r:
            turn_up, pos = pos, pos + 1
        seat = dealer if row.dealer_first else (dealer + 1) % players
        for packet in packets:
            if isinstance(packet, str):  # "W3": to the widow
                n = int(packet[1:])
                widow += range(pos, pos + n)
            else:
                hands[seat] += range(pos, pos + packet)
                seat = (seat + 1) % players
                n = packet
            pos += n
    if row.turn_up_after == len(row.rounds):
        turn_up, pos = pos, pos + 1
    return hands, widow, turn_up, list(range(pos, size))


def test_every_preset_has_a_row() -> None:
    """The table covers every registered preset (aliases resolve to one of them)."""
    assert {get_rules(v).name for v in available_variants()} == {row.preset for row in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[row.preset for row in ROWS])
def test_deal_pattern_follows_the_rulebook(row: Sentence) -> None:
    """Every place of the deal, for every dealer, is where the rulebook's sentence puts it."""
    rules = get_rules(row.preset)
    size = rules.deck.size
    for dealer in range(rules.players):
        hands, widow, turn_up, stock = rules.deal.deal(tuple(range(size)), rules.players, dealer)
        want_hands, want_widow, want_turn_up, want_stock = by_hand(row, rules.players, size, dealer)
        assert [list(bit_ids(m)) for m in hands] == want_hands, row.words
        assert list(widow) == want_widow and turn_up == want_turn_up and list(stock) == want_stock, row.words
