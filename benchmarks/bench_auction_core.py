"""Why the auction engine keeps one positional edit: `_card_played` against ``_replace``.

Usage::

    python benchmarks/bench_auction_core.py [--number 200000] [--repeat 5]

A card played to an unfinished trick changes five of the 26 fields of `AuctionCore`;
it happens about 35 times a deal. ``AuctionCore._replace`` (the named way used
everywhere else in the engine) costs two to four times as much as the engine's
`_card_played`, which copies the record into a list, sets the five fields at positions
taken from the field names, and builds the tuple back. Both are timed on the same
record in the same process (CPU time, best of ``--repeat``); the ratio is printed.
"""

from __future__ import annotations

import argparse
import time
import timeit

from bezique_rules import new_deal
from bezique_rules.engine.auction import AuctionDeal
from bezique_rules.engine.auction.record import _card_played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    deal = new_deal("partnership-pinochle", seed=1)
    assert isinstance(deal, AuctionDeal)
    c = deal.core
    moves, hands, known, trick = ((0, 1),), (1, 2, 3, 4), (0, 0, 0, 0), (5,)

    def named() -> object:
        return c._replace(moves=moves, hands=hands, known=known, trick=trick, player=1)

    def positional() -> object:
        return _card_played(c, moves, hands, known, trick, 1)

    assert named() == positional()
    results = {}
    for label, fn in (("AuctionCore._replace", named), ("_card_played", positional)):
        best = min(timeit.repeat(fn, number=args.number, repeat=args.repeat, timer=time.process_time))
        results[label] = best / args.number * 1e6
        print(f"{label:>22}: {results[label]:.3f} us")
    print(f"_replace / _card_played: {results['AuctionCore._replace'] / results['_card_played']:.1f}x")


if __name__ == "__main__":
    main()
