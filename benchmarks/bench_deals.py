"""Random legal deals per second, through the public API and the fast path.

Usage::

    python benchmarks/bench_deals.py [--variant bezique] [--deals 300] [--repeat 5]

Each run plays ``--deals`` complete deals choosing uniformly among
``legal_actions()``, first with ``apply(action)`` (every action checked), then
with ``apply(action, check=False)``. The best of ``--repeat`` runs is reported
(this machine is shared, so single runs are noisy), with the median beside it.
Speed targets live here, never in timed tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bezique_rules import available_variants, get_rules, new_deal


def play(variant: str, deals: int, seed: int, check: bool) -> tuple[float, int]:
    """Play ``deals`` random deals; return (seconds, decisions)."""
    rules = get_rules(variant)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for k in range(deals):
        deal = new_deal(rules, seed=seed * 100_003 + k)
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
        for label, check in (("public API, apply(a)", True), ("fast path, apply(a, check=False)", False)):
            rates = []
            per_decision = []
            for r in range(args.repeat):
                seconds, decisions = play(variant, args.deals, r + 1, check)
                rates.append(args.deals / seconds)
                per_decision.append(seconds / decisions * 1e6)
            best = max(rates)
            print(
                f"{variant:>20} {label:<34} best {best:7.0f} deals/s ({1e3 / best:6.2f} ms/deal, "
                f"median {statistics.median(rates):.0f}/s); {min(per_decision):5.1f} us/decision"
            )


if __name__ == "__main__":
    main()
