"""Why the engines build their next deal with `DealState._make` (the engines' one speed trick).

Usage::

    python benchmarks/deal_of.py [--engine both] [--number 200000] [--repeat 7]

Every card played builds a new deal (in the stock engine also every trick taken and every
draw). For the stock and Euchre engines this script times, in the same process, the readable
way (the deal class called, attrs' frozen ``__init__``) against `DealState._make`
(``object.__new__``, the deal's slots set through their descriptors), on a record taken from a
real deal, and prints the best time of each and their ratio. CPU time
(``time.process_time``) is used: this machine is shared. The whole engines against 0.1.0:
``benchmarks/versus_0_1_0.py``.
"""

from __future__ import annotations

import argparse
import time
import timeit
from collections.abc import Callable

from bezique_rules import DealState, new_deal


def _deal(variant: str, steps: int) -> DealState:
    """A deal of ``variant`` a few steps in (melds, points and moves to carry)."""
    deal = new_deal(variant, seed=3)
    for _ in range(steps):
        deal = deal.apply(deal.legal_action_ids()[-1], check=False)
    return deal


def builds(variant: str, steps: int) -> tuple[DealState, Callable[[], DealState], Callable[[], DealState]]:
    """A deal, and its two ways of being built from its setup and record."""
    deal = _deal(variant, steps)
    cls, setup, core = type(deal), deal.setup, deal.core

    def readable() -> DealState:
        return cls(setup, core)  # type: ignore[call-arg]

    def fast() -> DealState:
        return cls._make(setup, core)

    return deal, readable, fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=("stock", "euchre", "both"), default="both")
    parser.add_argument("--number", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    engines = {"stock": ("bezique", 9), "euchre": ("euchre", 6)}
    for name, (variant, steps) in engines.items():
        if args.engine not in (name, "both"):
            continue
        deal, readable, fast = builds(variant, steps)
        assert readable() == fast() == deal
        times = {}
        for way, f in (("readable", readable), ("_make", fast)):
            best = min(timeit.repeat(f, timer=time.process_time, number=args.number, repeat=args.repeat))
            times[way] = best / args.number * 1e6
        for way, t in times.items():
            print(f"{name:6s} {way:9s} {t:6.3f} µs per deal built")
        print(f"{name:6s} ratio readable / _make: {times['readable'] / times['_make']:.2f}")


if __name__ == "__main__":
    main()
