"""The cut for the first deal: the shared rule part `CutForDeal` and its outcome `CutOutcome`.

``new_game(variant, seed=..., first_dealer="cut")`` has the players draw for the first
deal instead of seating the first dealer by number. What a draw decides is rules
knowledge, so it lives in one part on the rule set (`RuleSet.cut_for_deal`) that preset
modules compose; `new_game` only runs it:

- `BEZIQUE_CUT`: A T K Q J 9 8 7, the higher card decides who deals (a 1995 rules article); the
  library's default decision is to deal (`CutDecision`).
- `PINOCHLE_CUT`: A T K Q J 9, the higher card deals (the common standard).
- `EUCHRE_CUT`: K Q J T 9 8 7 A, the two highest are partners against the two lowest and
  the lowest deals (the British rules' note).

The draw. Everyone draws one card from the cut pack (the variant's cards whose rank the
part ranks, so a Benny is set aside), shuffled with the documented shuffle
(`bezique_rules.deck.shuffle`) driven by ``random.Random(f"bezique-rules:{seed}:cut")``:
the first drawer takes the top card, the next one the next card. Equal cards draw again
where the tie matters (who wins the cut; with partners drawn, which pair a player is in):
the tied players draw again, in their order, from the whole pack shuffled again with the
same generator; other ties stand. The outcome is public: it is part of the game
(`GameState.cut_for_deal`), of every player's view, and of the game's record.

Seats. Players are numbered by seat everywhere, as without a cut (partners are 0 & 2 and
1 & 3). The people draw in the order they are listed (drawer ``i``); without partners
drawn, drawer ``i`` takes seat ``i``. When partners are drawn (Euchre), the winner of the
cut keeps seat ``i`` and his partner changes places with whoever sits opposite him, so at
most two players change seats: `CutOutcome.seats` says who sits where, and
`CutOutcome.seated` orders a list of agents or names given in drawing order by seat.

A preset gets the cut with one line in its ``RuleSet(...)``, e.g.
``cut_for_deal=BEZIQUE_CUT``; a rule set without the part refuses ``first_dealer="cut"``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Literal, TypeAlias, TypeVar

import attrs

from ..cards import Card, Rank
from ..checks import check_seat
from ..deck import DeckSpec, shuffle
from ..errors import DealError, DealTypeError, NotationError, quote

__all__ = [
    "BEZIQUE_CUT",
    "EUCHRE_CUT",
    "PINOCHLE_CUT",
    "CutDecision",
    "CutDraw",
    "CutForDeal",
    "CutOutcome",
    "cut_for_deal",
    "cut_seed",
]

CutDecision: TypeAlias = Literal["deal", "lead"]
"""What the winner of a cut that lets him decide chooses: ``"deal"`` (he deals the first
deal: the library's default) or ``"lead"`` (the player on his right deals, so that he plays
first; in a two-player game, the other player deals)."""

CutWinner: TypeAlias = Literal["high", "low"]
"""Which card wins the cut: the highest or the lowest in the part's rank order."""

CutPartners: TypeAlias = Literal["seated", "drawn"]
"""``"seated"``: the draw decides only the deal; ``"drawn"``: it also draws the partners
(the winner and the next best cards against the others)."""

MAX_CUT_ROUNDS = 1000
"""The most rounds a cut may take (equal cards drawing again); never reached in practice."""

_T = TypeVar("_T")


def cut_seed(seed: int) -> str:
    """The seed of the cut's generator for a game seeded with ``seed``:
    ``random.Random(cut_seed(seed))`` shuffles the cut pack (independent of the deals' seeds).

    >>> cut_seed(7)
    'bezique-rules:7:cut'
    """
    return f"bezique-rules:{seed}:cut"


@attrs.frozen
class CutDraw:
    """One card drawn in the cut."""

    drawer: int
    """Who drew it: the drawer's number (the order the players are listed in)."""
    card: Card
    """The card drawn."""

    def __str__(self) -> str:
        return f"{self.drawer}:{self.card}"


@attrs.frozen
class CutOutcome:
    """What the cut for the first deal drew and settled (public knowledge).

    >>> from bezique_rules import new_game
    >>> game = new_game("bezique", seed=3, first_dealer="cut")
    >>> cut = game.cut_for_deal
    >>> cut.dealer == game.first_dealer == game.deal.dealer, cut.seats
    (True, (0, 1))
    """

    rounds: tuple[tuple[CutDraw, ...], ...]
    """The draws, round by round: everyone first, then each round of equal cards drawing again."""
    order: tuple[int, ...]
    """The drawers from the winning card down, as far as the cut settled it (players whose
    tie did not matter stay in drawing order)."""
    winner: int
    """The drawer who won the cut (the highest card, or the lowest where the lowest deals)."""
    decision: CutDecision | None
    """What the winner decided (when the rules let him decide who deals), else None."""
    seats: tuple[int, ...]
    """``seats[i]``: the seat of drawer ``i`` (``(0, 1, ...)`` unless partners are drawn)."""
    dealer: int
    """The seat of the first dealer."""
    partners: tuple[tuple[int, ...], ...] = ()
    """When partners are drawn: the pairs of drawers, the winner's pair first; else ()."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card drawn, in drawing order (the record's list)."""
        return tuple(d.card for r in self.rounds for d in r)

    def seat_of(self, drawer: int) -> int:
        """The seat of ``drawer``.

        Raises:
            DealTypeError, DealError: not a drawer's number.
        """
        return self.seats[check_seat(drawer, len(self.seats), "drawer")]

    def drawer_at(self, seat: int) -> int:
        """Who sits in ``seat`` (the drawer's number).

        Raises:
            DealTypeError, DealError: not a seat.
        """
        return self.seats.index(check_seat(seat, len(self.seats), "seat"))

    def seated(self, people: Sequence[_T]) -> tuple[_T, ...]:
        """``people`` listed by drawer, reordered by seat (``result[seat]``): agents or names
        given in drawing order, ready for the game's seats.

        >>> from bezique_rules import new_game
        >>> cut = new_game("euchre", seed=1, first_dealer="cut").cut_for_deal
        >>> sorted(cut.seated("ABCD")) == list("ABCD")
        True

        Raises:
            DealError: not one entry per player.
        """
        if len(people) != len(self.seats):
            raise DealError(f"the cut seats {len(self.seats)} players; {len(people)} were given")
        return tuple(people[self.drawer_at(seat)] for seat in range(len(self.seats)))

    def describe(self, names: Sequence[str] | None = None) -> str:
        """The cut in words, naming players by ``names`` (indexed by seat; default
        "player <seat>").

        >>> from bezique_rules import new_game
        >>> new_game("pinochle", seed=1, first_dealer="cut").cut_for_deal.describe(["you", "computer"])
        'Cut: you JS, computer JS; equal cards draw again: you TH, computer QD. First dealer: you.'
        """
        name = [f"player {s}" for s in range(len(self.seats))] if names is None else list(names)

        def who(drawer: int) -> str:
            return name[self.seats[drawer]]

        parts = []
        for k, r in enumerate(self.rounds):
            draws = ", ".join(f"{who(d.drawer)} {d.card}" for d in r)
            parts.append(("Cut: " if k == 0 else "equal cards draw again: ") + draws)
        text = "; ".join(parts) + "."
        if self.partners:
            pairs = " against ".join(" & ".join(who(d) for d in pair) for pair in self.partners)
            text += f" Partners: {pairs}."
        if self.decision is not None:
            text += f" Winner: {who(self.winner)} (decision: {self.decision})."
        return text + f" First dealer: {name[self.dealer]}."


@attrs.frozen
class CutForDeal:
    """The rule part: how the players cut for the first deal.

    >>> from bezique_rules import get_rules
    >>> get_rules("bezique").cut_for_deal.wins, get_rules("euchre").cut_for_deal.wins
    ('high', 'low')
    """

    rank_order: tuple[Rank, ...]
    """The cut's rank order, highest first (suits never rank); cards of other ranks (a
    Benny, a joker) are left out of the cut pack."""
    wins: CutWinner = "high"
    """Which card wins the cut: ``"high"`` or ``"low"``."""
    decides: bool = False
    """Whether the winner decides who deals (`CutDecision`); else he deals."""
    decision: CutDecision = "deal"
    """The winner's decision when he decides and the caller does not say (the library's
    default: he deals)."""
    partners: CutPartners = "seated"
    """Whether the draw also draws the partners (`CutPartners`)."""

    def pack(self, deck: DeckSpec) -> tuple[Card, ...]:
        """The cut pack: the cards of ``deck`` whose rank the cut ranks, in deck order."""
        return tuple(c for c in deck.cards if c.rank in self.rank_order)

    def key(self, card: Card) -> int:
        """The card's place in the cut from the winning end (0 wins)."""
        place = self.rank_order.index(card.rank)
        return place if self.wins == "high" else len(self.rank_order) - 1 - place

    def boundaries(self, players: int) -> frozenset[int]:
        """Where a tie matters, as places from the winning end: between place 0 and 1 (who
        wins), and with partners drawn between the winner's pair and the rest."""
        marks = {1}
        if self.partners == "drawn":
            marks.add(players // 2)
        return frozenset(m for m in marks if 0 < m < players)


def _seat_partners(winner: int, pair: Sequence[int], players: int) -> tuple[int, ...]:
    """Seats for drawn partners: the winner keeps his seat, each of his pair changes places
    with whoever sits in the next seat of the winner's side that is not already his pair's."""
    at = list(range(players))  # at[seat] = drawer
    side = [(winner + 2 * k) % players for k in range(players // 2)]
    for member in pair:
        if member == winner:
            continue
        seat = at.index(member)
        if seat in side:
            continue
        target = next(s for s in side if at[s] not in pair)
        at[seat], at[target] = at[target], at[seat]
    return tuple(at.index(d) for d in range(players))


def cut_for_deal(
    part: CutForDeal,
    deck: DeckSpec,
    players: int,
    *,
    seed: int,
    cards: Sequence[Card | str] | None = None,
    decision: CutDecision | None = None,
) -> CutOutcome:
    """Run the cut of ``part`` for ``players`` players.

    Args:
        part: the rule set's `CutForDeal`.
        deck: the variant's deck (the cut pack is drawn from it).
        players: how many players draw.
        seed: the game seed (the cut's generator is seeded with `cut_seed` (seed)).
        cards: a stacked cut: every card drawn, in drawing order (each round's drawers in
            their order, rounds one after the other); None draws from the shuffled pack.
        decision: the winner's decision (only where the part lets him decide); None: the
            part's default.

    Raises:
        DealError: a stacked cut with a card outside the cut pack, more copies of a card in
            one round than the deck holds, too few cards to settle the cut or cards left
            over; a decision where the winner does not decide, or not "deal"/"lead".
    """
    pack = part.pack(deck)
    if decision is not None:
        if decision not in ("deal", "lead") or not isinstance(decision, str):
            raise DealError(f"the cut's decision is 'deal' or 'lead', not {quote(decision)}")
        if not part.decides:
            raise DealError(f"in this cut the {part.wins}est card deals; there is no decision ({quote(decision)})")
    if len({c.rank for c in pack}) < 2 or len(pack) < players:
        raise DealError(f"the cut needs {players} cards of two ranks or more in the cut pack; it has {len(pack)}")
    draw = _stacked_draw(pack, cards) if cards is not None else _shuffled_draw(pack, seed)
    marks = part.boundaries(players)
    groups: list[list[int]] = [list(range(players))]  # drawers by place; a group is still tied
    rounds: list[tuple[CutDraw, ...]] = []
    while True:
        start = 0
        drawers: list[int] = []
        for g in groups:
            if any(start < m < start + len(g) for m in marks):
                drawers.extend(g)
            start += len(g)
        if not drawers:
            break
        if len(rounds) == MAX_CUT_ROUNDS:
            raise DealError(f"the cut did not settle in {MAX_CUT_ROUNDS} rounds")
        drawn = dict(zip(drawers, draw(len(drawers))))
        rounds.append(tuple(CutDraw(d, drawn[d]) for d in drawers))
        split: list[list[int]] = []
        start = 0
        for g in groups:
            if any(start < m < start + len(g) for m in marks):
                for key in sorted({part.key(drawn[d]) for d in g}):
                    split.append([d for d in g if part.key(drawn[d]) == key])
            else:
                split.append(g)
            start += len(g)
        groups = split
    if cards is not None:
        draw(0)  # a stacked cut must be used up
    order = tuple(d for g in groups for d in g)
    winner = order[0]
    seats = tuple(range(players))
    pairs: tuple[tuple[int, ...], ...] = ()
    if part.partners == "drawn":
        half = players // 2
        pairs = (tuple(sorted(order[:half])), tuple(sorted(order[half:])))
        seats = _seat_partners(winner, order[:half], players)
    chosen: CutDecision | None = None
    dealer = seats[winner]
    if part.decides:
        chosen = part.decision if decision is None else decision
        if chosen == "lead":
            dealer = (dealer - 1) % players
    return CutOutcome(
        rounds=tuple(rounds), order=order, winner=winner, decision=chosen, seats=seats, dealer=dealer, partners=pairs
    )


def _shuffled_draw(pack: tuple[Card, ...], seed: int) -> Callable[[int], tuple[Card, ...]]:
    rng = random.Random(cut_seed(seed))

    def draw(n: int) -> tuple[Card, ...]:
        order = shuffle(range(len(pack)), rng)
        return tuple(pack[i] for i in order[:n])

    return draw


def _stacked_draw(pack: tuple[Card, ...], cards: Sequence[Card | str]) -> Callable[[int], tuple[Card, ...]]:
    if isinstance(cards, (str, bytes, bytearray, dict, type)) or not hasattr(cards, "__iter__"):
        raise DealTypeError(f"a stacked cut is a list of cards, not {quote(cards)}")
    parsed: list[Card] = []
    most = MAX_CUT_ROUNDS * 8
    for c in itertools.islice(cards, most + 1):
        if len(parsed) == most:
            raise DealError(f"a stacked cut holds at most {most} cards")
        if isinstance(c, Card):
            parsed.append(c)
        elif isinstance(c, str):
            try:
                parsed.append(Card.parse(c))
            except NotationError as exc:
                raise DealError(f"the stacked cut holds something that is not a card: {exc}") from None
        else:
            raise DealTypeError(f"a stacked cut holds cards or card codes, not {quote(c)}")
    for c in parsed:
        if c not in pack:
            raise DealError(f"{quote(str(c))} is not a card of this cut (its pack: the ranks it ranks)")
    rest = list(parsed)

    def draw(n: int) -> tuple[Card, ...]:
        if n == 0:
            if rest:
                raise DealError(f"the stacked cut has cards left over once settled: {' '.join(map(str, rest))}")
            return ()
        if len(rest) < n:
            raise DealError("the stacked cut ends before the cut is settled (equal cards draw again)")
        taken = rest[:n]
        del rest[:n]
        for c in set(taken):
            if taken.count(c) > pack.count(c):
                raise DealError(f"one round of the stacked cut draws {quote(str(c))} more often than the deck holds it")
        return tuple(taken)

    return draw


BEZIQUE_CUT = CutForDeal(
    rank_order=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN),
    wins="high",
    decides=True,
)
"""Two-hand Bezique and its relatives: A T K Q J 9 8 7, the higher card decides who deals
(a 1995 rules article; the Japanese Wikipedia article ranks the cut as in play); the default decision: deal."""

PINOCHLE_CUT = CutForDeal(rank_order=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE), wins="high")
"""Pinochle: A T K Q J 9, the highest card deals (the common standard; partners stay as seated)."""

EUCHRE_CUT = CutForDeal(
    rank_order=(Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.ACE),
    wins="low",
    partners="drawn",
)
"""Euchre: K Q J T 9 8 7 A (ace low), the two highest are partners against the two lowest,
the lowest deals (the British rules' note); the Benny is left out of the cut."""
