"""Random legal deals per second, through the public API and the fast path.

Usage::

    python benchmarks/bench_deals.py [--variant bezique] [--deals 300] [--repeat 5]

Each run plays ``--deals`` complete deals choosing uniformly (``rng.choice``)
among ``legal_actions()``, first with ``apply(action)`` (every action checked),
then with ``apply(action, check=False)``; the third line is the agents' way:
``legal_action_ids()`` and ``apply(action_id, check=False)``. A deal counts from
``new_deal`` (the shuffle) to the last trick. The best of ``--repeat`` runs is
reported (this machine is shared, so single runs are noisy), with the median
beside it. Speed targets live here, never in timed tests:

- ``bezique``: 1,000 deals/s through the public API;
- ``euchre``: a deal in under 200 µs through the public API, and in under
  100 µs through ``apply(action, check=False)``;
- ``partnership-pinochle``: a deal in under 2 ms through the public API.

Instruction counts are steadier than timings on a shared machine:
``valgrind --tool=callgrind python benchmarks/bench_deals.py ...`` counts them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bezique_rules import available_variants, get_rules, new_deal


def play(variant: str, deals: int, seed: int, check: bool, ids: bool = False) -> tuple[float, int]:
    """Play ``deals`` random deals; return (seconds, decisions)."""
    rules = get_rules(variant)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for k in range(deals):
        deal = new_deal(rules, seed=seed * 100_003 + k)
        if ids:
            while not deal.is_over:
                deal = deal.apply(rng.choice(deal.legal_action_ids()), check=check)
                decisions += 1
        else:
            while not deal.is_over:
                deal = deal.apply(rng.choice(deal.legal_actions()), check=check)
                decisions += 1
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="bezique", choices=(*available_variants(), "all"))
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    variants = available_variants() if args.variant == "all" else (args.variant,)
    for variant in variants:
        play(variant, 2, 0, True)  # warm the rule set's tables
        paths = (
            ("public API, apply(a)", True, False),
            ("fast path, apply(a, check=False)", False, False),
            ("agents, apply(id, check=False)", False, True),
        )
        for label, check, ids in paths:
            rates = []
            per_decision = []
            for r in range(args.repeat):
                seconds, decisions = play(variant, args.deals, r + 1, check, ids)
                rates.append(args.deals / seconds)
                per_decision.append(seconds / decisions * 1e6)
            best = max(rates)
            print(
                f"{variant:>20} {label:<34} best {best:7.0f} deals/s ({1e3 / best:6.2f} ms/deal, "
                f"median {statistics.median(rates):.0f}/s); {min(per_decision):5.1f} us/decision"
            )


if __name__ == "__main__":
    main()
