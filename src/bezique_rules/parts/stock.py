"""The stock games' parts: how a stock game (draw after each trick, then a play-off) is sequenced.

- `StockRules`: the sequencing of a stock game, the ``stock`` field of a `RuleSet`: melds per
  trick, the last-trick bonus, carte blanche, the privilege to declare, and these parts:
- `DixRule`: the trump seven (Bezique) or dix (Pinochle), which scores and may be exchanged
  for the turn-up;
- `CutGuess`: six-pack Bezique's guess of the dealer's cut;
- `StockBonuses`: the bonuses a stock deal scores beside the melds;
- `RubiconScoring`: Rubicon Bezique's end-of-deal settlement.

Read by the ``stock`` engine, the stock heuristics and the batch stock engine."""

from __future__ import annotations

from typing import Literal, TypeAlias

import attrs

from ..cards import Rank
from .scoring import DealResultRule

__all__ = [
    "CardTiming",
    "CutGuess",
    "DeclarationPrivilege",
    "DixMethods",
    "DixRule",
    "LastTrickBonusAt",
    "RubiconScoring",
    "StockBonuses",
    "StockRules",
]

LastTrickBonusAt: TypeAlias = Literal["final", "last_stock_trick"]
"""Which trick scores the last-trick bonus: the last of the deal, or the last before the stock runs out."""


CardTiming: TypeAlias = Literal["end_of_hand", "immediate"]
"""When the cards won in tricks count: at the end of the hand, or as each trick is won."""


@attrs.frozen
class DeclarationPrivilege:
    """Who may declare after a won trick, and with which cards.

    ``holder="winner"``: only the trick winner (every two-hand game). ``"winner_or_partner"``:
    the winner declares or passes the privilege to his partner (no consulting), who then
    declares or passes; the declarer may combine his cards with his partner's tabled cards,
    under both players' earlier declarations (he may not make a meld his partner could not
    legally make), but the kinds in ``own_cards_only`` come from one player's own cards.
    """

    holder: Literal["winner", "winner_or_partner"] = "winner"
    """Who may declare: the winner only, or the winner or (when he passes it on) his partner."""
    cards: Literal["own", "with_partner_tabled"] = "own"
    """Which cards a declaration may use: the declarer's own, or also his partner's tabled cards."""
    own_cards_only: frozenset[str] = frozenset()
    """Meld kinds (by name) a player makes from his own cards only (double and triple bezique)."""


@attrs.frozen
class CutGuess:
    """Six-pack Bezique's cut: the dealer lifts a packet without counting; the non-dealer
    guesses its size (``guess_bonus`` when right); a packet of exactly ``exact`` cards
    scores ``exact_bonus`` for the dealer."""

    guess_bonus: int = 150
    """The non-dealer's bonus for a right guess."""
    exact: int = 24
    """The packet size that scores for the dealer (all the cards he deals)."""
    exact_bonus: int = 250
    """The dealer's bonus for a packet of exactly ``exact`` cards."""
    smallest: int = 12
    """The smallest packet (and guess)."""
    largest: int = 36
    """The largest packet (and guess)."""
    packet: int | None = None
    """A fixed packet size; None: drawn at random (see the stock engine)."""


DixMethods: TypeAlias = Literal["both", "exchange_only", "score_only"]
"""What the trump seven / dix does after a won trick (see `DixRule.methods`)."""


@attrs.frozen
class DixRule:
    """The low trump that scores and may be exchanged for the turn-up.

    Bezique's trump seven and Pinochle's dix (the nine of
    trumps) follow the same rules with a different rank.
    """

    rank: Rank = Rank.SEVEN
    """The rank: SEVEN for Bezique, NINE for Pinochle."""
    points: int = 10
    """What it scores."""
    methods: DixMethods = "both"
    """After winning a trick: ``"both"`` (exchange when the turn-up is not of this rank,
    or declare without exchange), ``"exchange_only"`` (declaring exchanges whenever an
    exchange is possible) or ``"score_only"`` (declare, never exchange)."""
    score_on_play: bool = True
    """Playing an unscored one to a trick in the stock phase scores it, win or lose."""
    score_on_play_in_playoff: bool = False
    """With ``score_on_play``: playing an unscored one scores in the last tricks too, once
    the stock is gone (Marjolet: "the trump seven scores 10 when played, win or lose"; the
    exception of the last tricks is Bezique's)."""
    turned_up_scores: bool = True
    """A turned-up card of this rank scores for the dealer at once."""
    turned_up_points: int | None = None
    """What a turned-up one scores for the dealer (None: ``points``)."""
    exchange_card_usable_same_trick: bool = False
    """The card taken in an exchange may join a meld declared on the same trick."""
    no_meld_when_exchanging: bool = False
    """A meld and an exchange may not share a trick (house rule)."""
    any_time: bool = False
    """A second method some rules give: besides after a won trick, the holder may declare an unscored one
    on his own turn in the stock phase, before playing a card (and playing it scores it,
    see ``score_on_play``); a declared one is never exchanged."""

    @property
    def points_turned_up(self) -> int:
        """What a turned-up one scores for the dealer: ``turned_up_points``, else ``points``.

        >>> DixRule().points_turned_up, DixRule(turned_up_points=20).points_turned_up
        (10, 20)"""
        return self.points if self.turned_up_points is None else self.turned_up_points


@attrs.frozen
class StockBonuses:
    """Bonuses of a stock game for how the play went, scored in the breakdown's ``bonus``
    (Marjolet). Zero is off.

    >>> StockBonuses(last_card=10).last_card
    10
    """

    last_card: int = 0
    """For the player who draws the last card of the stock (the turn-up where there is one,
    or the trump seven exchanged for it)."""
    playoff_sweep: int = 0
    """For a player who wins every trick of the play-off (the tricks after the stock)."""


@attrs.frozen
class RubiconScoring:
    """The result of a multi-pack Bezique deal, which is a game.

    Totals (melds, carte blanche, last trick) decide the winner; brisques count
    only to break a tie or to lift the loser out of the rubicon, and then for both
    players. Fractions of 100 are dropped. A loser at or above ``rubicon`` pays
    ``game_bonus`` + the difference; a loser below it is rubiconed: the winner scores
    the bonus (doubled with ``rubicon_doubles_bonus``) + both totals (+ every brisque
    with ``rubicon_adds_brisques``).

    >>> RubiconScoring().result((2350, 1480), (90, 70))
    (1400, 0)
    >>> RubiconScoring().result((1650, 840), (100, 60))
    (3700, 0)
    """

    game_bonus: int = 500
    """The winner's bonus."""
    rubicon: int = 1000
    """A loser below this is rubiconed."""
    rubicon_doubles_bonus: bool = True
    """The bonus doubles against a rubiconed loser (Rubicon: 500 becomes 1000)."""
    rubicon_adds_brisques: bool = True
    """Against a rubiconed loser the winner also scores every brisque (320 in four packs)."""
    truncate: int = 100
    """Totals are cut down to a multiple of this."""
    all_brisques: int = 320
    """Every brisque of the packs, for ``rubicon_adds_brisques``."""

    def result(self, totals: tuple[int, int], brisques: tuple[int, int]) -> tuple[int, int]:
        """The deal's score per player (the loser scores 0; a draw is (0, 0))."""
        counted = self.counts_brisques(totals, brisques)
        t = tuple(totals[p] + (brisques[p] if counted else 0) for p in range(2))
        if t[0] == t[1]:
            return 0, 0
        winner = 0 if t[0] > t[1] else 1
        loser = 1 - winner
        cut = self.truncate
        w, l_ = t[winner] // cut * cut, t[loser] // cut * cut
        if t[loser] < self.rubicon:
            bonus = self.game_bonus * (2 if self.rubicon_doubles_bonus else 1)
            # every brisque is added, unless the totals already count them (after a tie)
            extra = self.all_brisques // cut * cut if self.rubicon_adds_brisques and not counted else 0
            score = bonus + w + l_ + extra
        else:
            score = self.game_bonus + w - l_
        return (score, 0) if winner == 0 else (0, score)

    def counts_brisques(self, totals: tuple[int, int], brisques: tuple[int, int]) -> bool:
        """Whether brisques are counted: to break a tie, or when the loser would escape the
        rubicon with them."""
        if totals[0] == totals[1]:
            return True
        loser = 0 if totals[0] < totals[1] else 1
        return totals[loser] < self.rubicon <= totals[loser] + brisques[loser]


@attrs.frozen
class StockRules:
    """How a stock game (draw after each trick, then a play-off) is sequenced."""

    dix: DixRule | None = None
    """The trump seven / dix rule, or None."""
    melds_per_trick: int = 1
    """How many melds the trick winner may declare per trick (0 = no limit)."""
    declare_on_last_stock_trick: bool = True
    """Whether the winner of the last stock trick may still declare."""
    pending_declarations: bool = False
    """Once the winner has scored his ``melds_per_trick`` melds on a trick, further melds he
    lays out wait, unscored ("pending"): each later trick he wins he may score one of them
    instead of a new meld, while all its cards are still on the table (playing one cancels
    it). Without a meld limit (``melds_per_trick=0``) nothing waits."""
    last_trick_bonus_at: LastTrickBonusAt = "final"
    """``"final"``: the last trick of the deal; ``"last_stock_trick"``: the last trick
    before the stock runs out."""
    card_timing: CardTiming = "end_of_hand"
    """When cards won count: ``"end_of_hand"`` or ``"immediate"``."""
    carte_blanche: int = 0
    """Points for showing a dealt hand without king, queen or jack (0 = not allowed)."""
    show_last_card: bool = False
    """The winner of the last stock trick shows the last face-down card he draws (Pinochle)."""
    carte_blanche_repeat: bool = False
    """After a carte blanche, each drawn card that is not a court card may be shown for
    another carte blanche, until a court card is drawn (multi-pack)."""
    cut_guess: CutGuess | None = None
    """Six-pack: the non-dealer guesses the size of the dealer's cut, or None."""
    result: DealResultRule | None = None
    """A rule turning the deal's totals into its result (`RubiconScoring`), or None."""
    bonuses: StockBonuses = StockBonuses()
    """Bonuses for drawing the last card and for winning every play-off trick (off: zero)."""
    privilege: DeclarationPrivilege = attrs.field(factory=lambda: DeclarationPrivilege())
    """Who declares after a won trick (the winner; in partnership Bezique he may pass it on)."""
