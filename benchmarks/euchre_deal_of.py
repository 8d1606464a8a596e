"""Why the Euchre engine builds its deals with `_deal_of` (the engine's one speed trick).

Usage::

    python benchmarks/euchre_deal_of.py [--number 200000] [--repeat 7]

Every card played builds a new `EuchreDeal`. This script times, in the same process,
the readable way (the `EuchreState` NamedTuple called with its fields by
keyword, then attrs' frozen ``__init__``) against `_deal_of` (``tuple.__new__`` in
field order, the deal's three slots set through their descriptors), on a state taken
from a real deal, and prints the best time of each and their ratio. CPU time
(``time.process_time``) is used: this machine is shared.
"""

from __future__ import annotations

import argparse
import time
import timeit

from bezique_rules import new_deal
from bezique_rules.engine.euchre import EuchreDeal, EuchreState, _deal_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    deal = new_deal("euchre", seed=3).apply("order-up")
    while deal.phase.value != "tricks":
        deal = deal.apply(deal.legal_actions()[0])
    assert isinstance(deal, EuchreDeal)
    setup = deal.setup
    s = deal.state

    def readable() -> EuchreDeal:
        state = EuchreState(
            legal=s.legal, player=s.player, hands=s.hands, trick=s.trick, moves=s.moves, stage=s.stage,
            leader=s.leader, won=s.won, last_trick=s.last_trick, last_leader=s.last_leader, points=s.points,
            queue=s.queue, bidding=s.bidding, contract=s.contract, kitty=s.kitty, table=s.table,
        )  # fmt: skip
        return EuchreDeal(setup, state)

    def fast() -> EuchreDeal:
        return _deal_of(EuchreDeal, setup, *s)

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
