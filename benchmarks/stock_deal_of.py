"""Why the stock engine builds its deals with `_deal_of` (the engine's one speed trick).

Usage::

    python benchmarks/stock_deal_of.py [--number 200000] [--repeat 7]

Every card played, every trick taken and every draw builds a new `StockDeal`. This script
times, in the same process, the readable way (the `StockCore` NamedTuple called with its
22 fields by keyword, then attrs' frozen ``__init__``) against `_deal_of` (``tuple.__new__``
in field order, the deal's three slots set through their descriptors), on a state taken
from a real deal, and prints the best time of each and their ratio. CPU time
(``time.process_time``) is used: this machine is shared. The whole engine against 0.1.0:
``benchmarks/versus_0_1_0.py``.
"""

from __future__ import annotations

import argparse
import time
import timeit

from bezique_rules import new_deal
from bezique_rules.engine.stock import StockCore, StockDeal, _deal_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    deal = new_deal("bezique", seed=3)
    for _ in range(9):  # a few tricks in: melds, points and moves to carry
        deal = deal.apply(deal.legal_action_ids()[-1], check=False)
    assert isinstance(deal, StockDeal)
    setup = deal.setup
    c = deal.core

    def readable() -> StockDeal:
        core = StockCore(
            stage=c.stage, player=c.player, hands=c.hands, tabled=c.tabled, known=c.known, stock=c.stock,
            turn_up=c.turn_up, trump=c.trump, leader=c.leader, trick=c.trick, last_trick=c.last_trick,
            last_leader=c.last_leader, won=c.won, points=c.points, declarations=c.declarations, scored=c.scored,
            turn=c.turn, exchanged=c.exchanged, tricks=c.tricks, shown=c.shown, moves=c.moves, pending=c.pending,
        )  # fmt: skip
        return StockDeal(setup, core)

    def fast() -> StockDeal:
        return _deal_of(StockDeal, setup, None, *c)

    assert readable() == fast() == deal
    times = {}
    for name, f in (("readable", readable), ("_deal_of", fast)):
        best = min(timeit.repeat(f, timer=time.process_time, number=args.number, repeat=args.repeat))
        times[name] = best / args.number * 1e6
    for name, t in times.items():
        print(f"{name:9s} {t:6.3f} µs per deal built")
    print(f"ratio readable / _deal_of: {times['readable'] / times['_deal_of']:.2f}")


if __name__ == "__main__":
    main()
