"""The auction engine's tricks and settlement: a card played, a trick taken, the deal's end and
its points (transitions: each builds the next `AuctionCore`)."""

from __future__ import annotations

from ...deck import card_ids
from ...parts.scoring import ScoreBreakdown
from ...state.deal import DealSetup, Move, Phase
from ..fields import with_item
from .declare import meld_points
from .record import AuctionCore, _card_played
from .tables import AuctionTables


def start_play(setup: DealSetup[AuctionTables], c: AuctionCore) -> AuctionCore:
    """The first trick: the declarer leads, or the dealer's left (`ContractRules.leader`)."""
    leader = c.declarer if setup.tables.contract.leader == "declarer" else (setup.dealer + 1) % setup.rules.players
    return c._replace(stage=Phase.TRICKS, player=leader, leader=leader)


def play_card(setup: DealSetup[AuctionTables], c: AuctionCore, pid: int, moves: tuple[Move, ...]) -> AuctionCore:
    """The player to act plays the physical card ``pid``; ``moves`` already log it. The last
    card of a trick gives it to its winner, who leads next; the last trick ends the deal."""
    rules = setup.rules
    n = rules.players
    p = c.player
    bit = 1 << pid
    hands = with_item(c.hands, p, c.hands[p] ^ bit)
    known = with_item(c.known, p, c.known[p] & ~bit) if c.known[p] & bit else c.known
    trick = (*c.trick, pid)
    if len(trick) < n:
        return _card_played(c, moves, hands, known, trick, (p + 1) % n)
    leader = c.leader
    winner = (leader + rules.trump_tables[c.trump].winner(trick)) % n
    won = 0
    for x in trick:
        won |= 1 << x
    c = c._replace(
        moves=moves,
        hands=hands,
        known=known,
        won=with_item(c.won, winner, c.won[winner] | won),
        taken=with_item(c.taken, winner, c.taken[winner] + 1),
        trick=(),
        last_trick=trick,
        last_leader=leader,
        leader=winner,
        player=winner,
    )
    if hands[winner]:
        return c
    return over(setup, c._replace(last_winner=winner))


def over(setup: DealSetup[AuctionTables], c: AuctionCore) -> AuctionCore:
    """The deal ends (the last trick taken, or a concession) and is settled."""
    c = c._replace(stage=Phase.OVER, player=-1)
    return c._replace(points=tuple(b.total for b in settlement(setup, c)[1]))


def settlement(setup: DealSetup[AuctionTables], c: AuctionCore) -> tuple[tuple[int, ...], tuple[ScoreBreakdown, ...]]:
    """Per side, the points (or units) of the finished deal ``c`` and where they came from,
    by the rule set's `ContractScoring`."""
    rules = setup.rules
    scoring = setup.tables.scoring
    sides = len(rules.sides)
    values = rules.card_values
    melds = [0] * sides
    counters = [0] * sides
    last = [0] * sides
    tricks = [0] * sides
    for q, pts in enumerate(meld_points(rules.melds.kinds, c.laid)):
        melds[rules.side_of(q)] += pts
    for q in range(rules.players):
        s = rules.side_of(q)
        counters[s] += sum(values[x] for x in card_ids(c.won[q]))
        tricks[s] += c.taken[q]
    declarer_side = rules.side_of(c.declarer)
    counters[declarer_side] += sum(values[x] for x in c.buried)
    counters = [rules.card_points.rounded(x) for x in counters]
    if c.last_winner >= 0:
        last[rules.side_of(c.last_winner)] += rules.card_points.last_trick
    counted = tuple(counters[s] + last[s] for s in range(sides))
    totals = scoring.settle(
        bid=c.bid, declarer=declarer_side, melds=tuple(melds), counters=counted, tricks=tuple(tricks),
        conceded=c.conceded,
    )  # fmt: skip
    breakdown = []
    for s in range(sides):
        counts_meld = bool(c.conceded) or not (scoring.meld_needs_trick and not tricks[s])
        if scoring.settlement == "units" or (s == declarer_side and (c.conceded or totals[s] < 0)):
            breakdown.append(ScoreBreakdown(contract=totals[s]))
        elif c.conceded:
            breakdown.append(ScoreBreakdown(melds=melds[s] if counts_meld else 0))
        else:
            breakdown.append(
                ScoreBreakdown(melds=melds[s] if counts_meld else 0, cards=counters[s], last_trick=last[s])
            )
    return totals, tuple(breakdown)
