"""The stock engine's draw after a trick, and the scoring of a finished deal (transitions' helpers)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from ...actions import _ST_PLAY, _ST_PLAYOFF
from ...parts.scoring import DealResultRule, ScoreBreakdown
from ...rules.ruleset import RuleSet
from ...state.deal import DealSetup, Move
from ..fields import in_field_order, with_item
from .declare import _drop_pending
from .record import CarteBlanche, StockCore
from .tables import ScoringTables, StockTables, _mask_points

if TYPE_CHECKING:
    from .deal import StockDeal

_DealT = TypeVar("_DealT", bound="StockDeal")


def _draws(
    n: int,
    winner: int,
    hands: tuple[int, ...],
    known: tuple[int, ...],
    stock: tuple[int, ...],
    turn_up: int,
    show_last: bool = False,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """The winner, then each other player in turn, draws one card; the turn-up is drawn last.

    With ``show_last`` the last face-down card is shown (it becomes known). (Two players
    drawing from a stock of more than two cards is `_after_draw`'s own quick case.)"""
    hl = list(hands)
    kl = known
    for i in range(n):
        q = (winner + i) % n
        if stock:
            hl[q] |= 1 << stock[0]
            if show_last and len(stock) == 1:
                kl = with_item(kl, q, kl[q] | (1 << stock[0]))
            stock = stock[1:]
        elif turn_up >= 0:
            hl[q] |= 1 << turn_up
            kl = with_item(kl, q, kl[q] | (1 << turn_up))
            turn_up = -1
    return tuple(hl), kl, stock, turn_up


def _after_draw(cls: type[_DealT], setup: DealSetup[StockTables], core: StockCore, moves: tuple[Move, ...]) -> _DealT:
    """The deal once the declare phase ends: everyone draws, then the winner (the leader) leads."""
    t = setup.tables
    (
        _stage, _player, p, hands, trick, won, _moves, tabled, known, points, trump, stock, turn_up, last_trick,
        last_leader, tricks, declaring, carte,
    ) = core  # the record read in field order, one name per field; ``p`` is the leader, the trick winner  # fmt: skip
    n = t.trick.players
    if carte.streak:
        carte = _carte_after_draw(t.declaring.court_mask, carte, n, p, stock)
    sc = t.scoring
    if sc.last_card_bonus:
        left = len(stock) + (turn_up >= 0)
        if 0 < left <= n:  # the last card goes to the left-th drawer from the winner
            q = (p + left - 1) % n
            points = with_item(points, q, points[q] + ScoreBreakdown(bonus=sc.last_card_bonus))
    if n == 2 and (len(stock) > 2 or (len(stock) == 2 and not sc.show_last)):  # the usual draw
        if p == 0:
            hands = (hands[0] | 1 << stock[0], hands[1] | 1 << stock[1])
        else:
            hands = (hands[0] | 1 << stock[1], hands[1] | 1 << stock[0])
        stock = stock[2:]
    else:
        hands, known, stock, turn_up = _draws(n, p, hands, known, stock, turn_up, sc.show_last)
    if declaring.melds_this_trick or declaring.seven_done or declaring.exchanged >= 0:  # the trick's are over
        declaring = declaring._replace(melds_this_trick=0, seven_done=False, exchanged=-1)
    if stock or turn_up >= 0:
        stage = _ST_PLAY
    else:
        stage = _ST_PLAYOFF
        tabled = (0,) * n
        if declaring.pending:
            declaring = _drop_pending(declaring, -1)
    return cls._make(
        setup,
        in_field_order(StockCore, (
            stage, p, p, hands, trick, won, moves, tabled, known, points, trump, stock, turn_up, last_trick,
            last_leader, tricks, declaring, carte,
        )),
    )  # fmt: skip


def _carte_after_draw(
    court_mask: int, carte: CarteBlanche, n: int, winner: int, stock: tuple[int, ...]
) -> CarteBlanche:
    """Carte-blanche streaks after a draw: a court card ends a streak; any other card may be
    shown for another carte blanche."""
    may_show, streak = carte
    for i in range(min(n, len(stock))):
        q = (winner + i) % n
        if not (streak >> q) & 1:
            continue
        if (court_mask >> stock[i]) & 1:
            streak &= ~(1 << q)
        else:
            may_show |= 1 << q
    return CarteBlanche(may_show=may_show, streak=streak)


def _swept(moves: tuple[Move, ...], n: int, playoff_tricks: int, winner: int) -> bool:
    """Whether ``winner`` of the last trick won every play-off trick: the play-off's moves are
    its last ``n * playoff_tricks`` plays, and each trick's winner leads the next."""
    plays = moves[len(moves) - n * playoff_tricks :]
    return all(plays[k * n][0] == winner for k in range(1, playoff_tricks))


def _deal_result(
    rule: DealResultRule,
    value_bytes: tuple[tuple[int, ...], ...],
    points: tuple[ScoreBreakdown, ...],
    won: tuple[int, ...],
) -> tuple[ScoreBreakdown, ...]:
    """Settle a deal whose result is a game (multi-pack): brisques join only when the rule
    counts them; the contract part brings each total to the result."""
    brisques = (_mask_points(value_bytes, won[0]), _mask_points(value_bytes, won[1]))
    totals = (points[0].total, points[1].total)
    if rule.counts_brisques(totals, brisques):
        points = (points[0] + ScoreBreakdown(cards=brisques[0]), points[1] + ScoreBreakdown(cards=brisques[1]))
    result = rule.result(totals, brisques)
    return tuple(row + ScoreBreakdown(contract=result[q] - row.total) for q, row in enumerate(points))


def _cards_counted(
    rules: RuleSet, sc: ScoringTables, points: tuple[ScoreBreakdown, ...], won: tuple[int, ...]
) -> tuple[ScoreBreakdown, ...]:
    """The card points won in tricks added at the end of the deal (rounded as the rules say).

    (Its own function: a comprehension inside `StockDeal._play` would make the locals it
    reads closure cells on every card played.)"""
    rounded = rules.card_points.rounded
    return tuple(
        row + ScoreBreakdown(cards=rounded(_mask_points(sc.value_bytes, won[q]))) for q, row in enumerate(points)
    )
