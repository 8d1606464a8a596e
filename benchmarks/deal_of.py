"""Why the stock and Euchre engines build their deals with `_deal_of` (each engine's one speed trick).

Usage::

    python benchmarks/deal_of.py [--engine both] [--number 200000] [--repeat 7]

Every card played builds a new deal (in the stock engine also every trick taken and every
draw). For each engine this script times, in the same process, the readable way (the
engine's state record, a `NamedTuple`, called with its fields by keyword, then attrs'
frozen ``__init__``) against `_deal_of` (``tuple.__new__`` in field order, the deal's slots
set through their descriptors), on a state taken from a real deal, and prints the best time
of each and their ratio. CPU time (``time.process_time``) is used: this machine is shared.
The whole engines against 0.1.0: ``benchmarks/versus_0_1_0.py``.
"""

from __future__ import annotations

import argparse
import time
import timeit
from collections.abc import Callable

from bezique_rules import DealState, new_deal
from bezique_rules.engine import euchre, stock


def stock_builds() -> tuple[DealState, Callable[[], DealState], Callable[[], DealState]]:
    """A `bezique` deal a few tricks in, and its two ways of being built."""
    deal = new_deal("bezique", seed=3)
    for _ in range(9):  # melds, points and moves to carry
        deal = deal.apply(deal.legal_action_ids()[-1], check=False)
    assert isinstance(deal, stock.StockDeal)
    setup, c = deal.setup, deal.core

    def readable() -> DealState:
        core = stock.StockCore(
            stage=c.stage, player=c.player, hands=c.hands, tabled=c.tabled, known=c.known, stock=c.stock,
            turn_up=c.turn_up, trump=c.trump, leader=c.leader, trick=c.trick, last_trick=c.last_trick,
            last_leader=c.last_leader, won=c.won, points=c.points, declarations=c.declarations, scored=c.scored,
            turn=c.turn, exchanged=c.exchanged, tricks=c.tricks, shown=c.shown, moves=c.moves, pending=c.pending,
        )  # fmt: skip
        return stock.StockDeal(setup, core)

    def fast() -> DealState:
        return stock._deal_of(stock.StockDeal, setup, None, *c)

    return deal, readable, fast


def euchre_builds() -> tuple[DealState, Callable[[], DealState], Callable[[], DealState]]:
    """A `euchre` deal in its tricks, and its two ways of being built."""
    deal = new_deal("euchre", seed=3).apply("order-up")
    while deal.phase.value != "tricks":
        deal = deal.apply(deal.legal_actions()[0])
    assert isinstance(deal, euchre.EuchreDeal)
    setup, s = deal.setup, deal.state

    def readable() -> DealState:
        state = euchre.EuchreState(
            legal=s.legal, player=s.player, hands=s.hands, trick=s.trick, moves=s.moves, stage=s.stage,
            leader=s.leader, won=s.won, last_trick=s.last_trick, last_leader=s.last_leader, points=s.points,
            queue=s.queue, bidding=s.bidding, contract=s.contract, kitty=s.kitty, table=s.table,
        )  # fmt: skip
        return euchre.EuchreDeal(setup, state)

    def fast() -> DealState:
        return euchre._deal_of(euchre.EuchreDeal, setup, *s)

    return deal, readable, fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=("stock", "euchre", "both"), default="both")
    parser.add_argument("--number", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    engines = {"stock": stock_builds, "euchre": euchre_builds}
    for name, builds in engines.items():
        if args.engine not in (name, "both"):
            continue
        deal, readable, fast = builds()
        assert readable() == fast() == deal
        times = {}
        for way, f in (("readable", readable), ("_deal_of", fast)):
            best = min(timeit.repeat(f, timer=time.process_time, number=args.number, repeat=args.repeat))
            times[way] = best / args.number * 1e6
        for way, t in times.items():
            print(f"{name:6s} {way:9s} {t:6.3f} µs per deal built")
        print(f"{name:6s} ratio readable / _deal_of: {times['readable'] / times['_deal_of']:.2f}")


if __name__ == "__main__":
    main()
